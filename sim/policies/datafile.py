"""The policies' shipped data files (``sim/policies/data/*.json``): each read and its layout's
version checked in one place, so a file from another build is refused the same way."""

from __future__ import annotations

import json
from importlib import resources

from sim.errors import CanastaError

__all__ = ["read_data"]


def check_version(data, version: int, source: str) -> dict:
    """``data`` if it is a data file (a dict) of the layout ``version``, else a
    ``CanastaError`` naming ``source``."""
    if not isinstance(data, dict) or data.get("version") != version:
        got = data.get("version") if isinstance(data, dict) else type(data).__name__
        raise CanastaError(f"{source}: version {got!r}, this build reads {version}")
    return data


def read_data(data: dict | None, file: str, version: int, source: str | None = None) -> dict:
    """``data`` (a data file read elsewhere, named ``source`` in errors), or the shipped
    ``file`` when None, checked by :func:`check_version`."""
    if data is None:
        path = resources.files("sim.policies.data").joinpath(file)
        data = json.loads(path.read_text(encoding="utf-8"))
    return check_version(data, version, source or file)
