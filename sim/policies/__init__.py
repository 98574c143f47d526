"""Policies: the registry and the built-ins (contract in ``sim.engine.contract``).

The built-ins are registered in one place, ``builtin_registry``, loaded on the registry's
first look-up (so importing the registry does not load the compiled policies).
"""

from sim.policies.registry import (
    PolicySpec,
    add_loader,
    get,
    names,
    parse,
    register,
    resolve,
    strongest_fast,
    unregister,
)


def _load_builtins() -> None:
    import sim.policies.builtin_registry  # noqa: F401  (registers on import)


add_loader(_load_builtins)

__all__ = [
    "PolicySpec",
    "get",
    "names",
    "parse",
    "register",
    "resolve",
    "strongest_fast",
    "unregister",
]
