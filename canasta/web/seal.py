"""The server's seal on a finished record: a keyed signature (HMAC-SHA256) that says this
server dealt and played it, checked when a record is replayed (docs/web.md, records).

A finished record carries its deal's entropy and ``table.practice_seed``: without a seal anyone
could relabel a practice deal (``practice_seed: true``, its seed chosen by the player) as a
secret one with entropy of their own invention, and it would replay as genuine. The signature
covers the whole record (its canonical JSON: keys sorted, no spaces) but the signature itself;
its key is 32 bytes of the operating system's randomness kept with the server's state
(``record.key`` in the state directory, created ``0600``; a server without a state directory
keeps one in memory for its run). A record the key does not verify (unsigned, altered, or
signed by another server) still replays, marked unverified.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

__all__ = ["Seal"]

KEY_FILE = "record.key"  #: the key's file in the state directory
KEY_BYTES = 32
ALGORITHM = "HMAC-SHA256"


def _canonical(record: dict) -> bytes:
    body = {k: v for k, v in record.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


class Seal:
    """Signs finished records and checks them (module docstring); ``state_dir`` holds the key
    (None: a key for this run only)."""

    def __init__(self, state_dir: Path | None = None):
        self._key = self._load(state_dir) if state_dir is not None else None
        if self._key is None:
            self._key = secrets.token_bytes(KEY_BYTES)

    @staticmethod
    def _load(state_dir: Path) -> bytes | None:
        """The key kept in ``state_dir``, made on first use (0600, written once, never
        replaced: a record signed before a restart still verifies after it)."""
        path = Path(state_dir) / KEY_FILE
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        except OSError:
            return None
        else:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(KEY_BYTES))
        try:
            key = bytes.fromhex(path.read_text().strip())
        except (OSError, ValueError):
            return None
        return key if len(key) == KEY_BYTES else None

    def _mac(self, record: dict) -> str:
        return hmac.new(self._key, _canonical(record), hashlib.sha256).hexdigest()

    def sign(self, record: dict) -> dict:
        """The record with its signature (``"signature": {"alg", "value"}``)."""
        return record | {"signature": {"alg": ALGORITHM, "value": self._mac(record)}}

    def check(self, record: dict) -> tuple[bool, str]:
        """``(verified, words)`` for a record uploaded to replay."""
        sig = record.get("signature")
        if not isinstance(sig, dict) or not isinstance(sig.get("value"), str):
            return False, "unverified: the record carries no signature of this server"
        if sig.get("alg") != ALGORITHM or not hmac.compare_digest(
            sig["value"].encode("ascii", "replace"), self._mac(record).encode()
        ):
            return False, "unverified: the record was changed, or signed by another server"
        return True, "verified: dealt and played at this server, unchanged"
