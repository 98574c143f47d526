"""Policies: the registry and the built-ins (contract in ``sim.engine.contract``)."""

from sim.policies.registry import PolicySpec, get, names, parse, register, resolve, unregister

__all__ = ["PolicySpec", "get", "names", "parse", "register", "resolve", "unregister"]
