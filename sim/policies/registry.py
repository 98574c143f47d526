"""The policy registry: names -> compiled decision functions with named parameters.

The contract a policy follows is documented in ``sim.engine.contract``::

    decide(obs, params, rng, rules, scratch) -> action id

Register a policy once, by a unique name, with its parameters' names and defaults::

    from numba import njit
    from sim.policies import register

    @njit
    def cautious(obs, params, rng, rules, scratch): ...

    register("cautious", cautious, params={"margin": 2.0}, doc="...")
    sim.simulate(1000, policies=("cautious:margin=3", "heuristic"))

A plain ``@njit`` function (or a Python function) is compiled to the contract's signature when
registered; the engine kernel takes it as a first-class function, so it runs at compiled speed
without recompiling the engine. Names are unique (a duplicate is refused); an unknown policy or
parameter, or a negative parameter value, is a ``CanastaError`` naming it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping

import numpy as np

from sim.errors import CanastaError

__all__ = [
    "STRENGTH_ORDER",
    "PolicySpec",
    "check_table_policy",
    "get",
    "names",
    "parse",
    "register",
    "resolve",
    "split_list",
    "strongest_fast",
    "table_names",
    "unregister",
]


@dataclasses.dataclass(frozen=True)
class PolicySpec:
    """A registered policy: its name, ``decide`` (compiled on first use), parameters
    (name -> default), doc."""

    name: str
    function: Callable  #: as registered; ``decide`` is it compiled to the contract
    params: tuple[tuple[str, float], ...]
    doc: str
    check: Callable[[dict], None] | None = None  #: raises CanastaError on a bad combination
    #: constants appended to every parameter array after the named ones (a learned policy's
    #: weights: shipped data, not settings, so they have no names and may be negative)
    tail: tuple[float, ...] = ()
    #: a measuring reference (``peeking_strong``: sees every hand), never a player's opponent
    #: or partner at a table (``table_names``)
    reference: bool = False

    @functools.cached_property
    def decide(self) -> Callable:
        """The policy compiled to the contract's signature: compiled (or loaded from numba's
        cache) on first use, so a run pays only for the policies it plays (a faster cold
        start: compiling every built-in took ~3 minutes of a first run)."""
        return _compile(self.function)

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.params)

    def param_array(self, overrides: Mapping[str, float] | None = None) -> np.ndarray:
        """float64 parameters in registry order, defaults replaced by ``overrides``."""
        values = dict(self.params)
        for key, value in dict(overrides or {}).items():
            if key not in values:
                known = ", ".join(self.param_names) or "none"
                raise CanastaError(
                    f"policy {self.name!r} has no parameter {key!r}; its parameters: {known}"
                )
            values[key] = _check_value(self.name, key, value)
        if self.check is not None:
            self.check(values)
        named = [values[n] for n, _ in self.params]
        return np.array([*named, *self.tail] or [0.0], dtype=np.float64)


_REGISTRY: dict[str, PolicySpec] = {}


def _check_value(policy: str, key: str, value) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise CanastaError(
            f"policy {policy!r} parameter {key!r}: expected a number, got {value!r}"
        ) from None
    if not math.isfinite(v) or v < 0:
        raise CanastaError(f"policy {policy!r} parameter {key!r}: must be >= 0, got {value!r}")
    from sim.limits import MAX_PARAM

    if v > MAX_PARAM:  # kernels turn counts (the expert's samples...) into int64
        raise CanastaError(
            f"policy {policy!r} parameter {key!r}: must be at most {MAX_PARAM:,}, got {value!r}"
        )
    return v


def _compile_or_refresh(decide, signature) -> None:
    """Compile ``decide`` to ``signature``; a stale on-disk cache is dropped and compiled anew.

    numba checks a cached function against its own source file only. A user's policy file left
    unchanged while a module it calls into was renamed (its cache names the old module) fails
    to load with ``ModuleNotFoundError``; the cache is then out of date, not the policy."""
    try:
        decide.compile(signature)
    except (ImportError, AttributeError):
        cache = getattr(decide, "_cache", None)
        if cache is None or not hasattr(cache, "flush"):
            raise
        cache.flush()  # forget the stale entries; the retry compiles from source
        decide.compile(signature)


def _compile(decide: Callable) -> Callable:
    """The function compiled to the contract's signature (sim.engine.contract)."""
    from numba import njit
    from numba.core.registry import CPUDispatcher

    from sim.engine.contract import POLICY_SIGNATURE

    if not isinstance(decide, CPUDispatcher):
        decide = njit(decide)
    if POLICY_SIGNATURE.args not in decide.signatures:
        try:
            _compile_or_refresh(decide, POLICY_SIGNATURE.args)
        except Exception as exc:  # numba's typing errors are long: one line is enough here
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise CanastaError(
                f"policy function {getattr(decide, '__name__', decide)!r} does not compile to "
                f"decide(obs, params, rng, rules, scratch) -> int64: {first}"
            ) from None
    return decide


def register(
    name: str,
    decide: Callable,
    params: Mapping[str, float] | None = None,
    doc: str = "",
    *,
    replace: bool = False,
    check: Callable[[dict], None] | None = None,
    lazy: bool = False,
    tail=(),
    reference: bool = False,
) -> PolicySpec:
    """Register ``decide`` under ``name`` with parameters ``params`` (name -> default);
    ``check(values)`` (optional) refuses a bad set of values with a ``CanastaError``; ``tail``
    (optional): finite constants appended to every parameter array (a learned policy's weights).
    ``decide`` is compiled now, so a function that does not fit the contract is refused here;
    ``lazy`` (the built-ins, known to compile) leaves it to the policy's first use;
    ``reference``: a measuring reference, left out of ``table_names``."""
    if not isinstance(name, str) or not name or any(c in name for c in ",:= "):
        raise CanastaError(f"bad policy name {name!r}: a non-empty word without , : = or spaces")
    if name in _REGISTRY and not replace:
        raise CanastaError(f"a policy named {name!r} is already registered")
    checked = tuple((str(k), _check_value(name, k, v)) for k, v in dict(params or {}).items())
    tail = tuple(float(v) for v in tail)
    if not all(math.isfinite(v) for v in tail):
        raise CanastaError(f"policy {name!r}: its constant tail must be finite numbers")
    doc = doc or (decide.__doc__ or "").strip()
    spec = PolicySpec(name, decide, checked, doc, check, tail, reference)
    if not lazy:
        spec.decide  # noqa: B018 (compiles now: a bad function is refused by name)
    _REGISTRY[name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a registered policy (for notebooks and tests)."""
    if name not in _REGISTRY:
        raise CanastaError(f"unknown policy {name!r}")
    del _REGISTRY[name]


def names() -> tuple[str, ...]:
    """Registered policy names, sorted."""
    _ensure_builtins()
    return tuple(sorted(_REGISTRY))


def table_names() -> tuple[str, ...]:
    """The policies a player may sit with at a table (the web and terminal tables): every
    registered name but the measuring references (``peeking_strong`` sees every hand)."""
    _ensure_builtins()
    return tuple(n for n in sorted(_REGISTRY) if not _REGISTRY[n].reference)


def check_table_policy(label: str) -> None:
    """Refuse a measuring reference as a table's bot (one line naming it)."""
    name = str(label).partition(":")[0].strip()
    _ensure_builtins()
    if name in _REGISTRY and _REGISTRY[name].reference:
        raise CanastaError(
            f"policy {name!r} is a measuring reference (it sees every hand), not a table's bot"
        )


#: the fast policies by strength, strongest first: advice, decision experiments and the default
#: report play the first one registered (search policies such as ``expert`` are not "fast");
#: strong_v2 beats strong by about +190 points a hand at about 0.62x its speed (docs/policies.md)
STRENGTH_ORDER = ("strong_v2", "strong", "heuristic")


def strongest_fast() -> str:
    """Name of the strongest registered policy that plays at engine speed."""
    _ensure_builtins()
    for name in STRENGTH_ORDER:
        if name in _REGISTRY:
            return name
    raise CanastaError("no fast policy is registered")  # pragma: no cover (built-ins register)


def get(name: str) -> PolicySpec:
    _ensure_builtins()
    if name not in _REGISTRY:
        raise CanastaError(f"unknown policy {name!r}; known policies: {', '.join(names())}")
    return _REGISTRY[name]


def parse(spec: str) -> tuple[PolicySpec, np.ndarray, str]:
    """'heuristic:sevens_threshold=4,aces_threshold=5' -> (spec, params, label).

    Parameters follow the name after a colon, separated by commas or semicolons."""
    if not isinstance(spec, str) or not spec.strip():
        raise CanastaError(f"bad policy {spec!r}: expected a name such as 'heuristic'")
    name, _, rest = spec.strip().partition(":")
    policy = get(name.strip())
    overrides = {}
    for part in rest.replace(";", ",").split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq:
            raise CanastaError(f"bad policy parameter {part!r} in {spec!r}: expected name=value")
        overrides[key.strip()] = value.strip()
    return policy, policy.param_array(overrides), spec.strip()


def resolve(policy) -> tuple[PolicySpec, np.ndarray, str]:
    """A policy given as a name/spec string, or (name, {param: value})."""
    if isinstance(policy, tuple) and len(policy) == 2 and isinstance(policy[1], Mapping):
        spec = get(policy[0])
        label = policy[0] + (
            ":" + ",".join(f"{k}={v}" for k, v in policy[1].items()) if policy[1] else ""
        )
        return spec, spec.param_array(policy[1]), label
    return parse(policy)


def split_list(text: str) -> list[str]:
    """Split a CLI list 'heuristic:a=1;b=2,random' into policy specs: a comma starts a new policy
    unless what follows it is a parameter (contains '=' before any ':')."""
    out: list[str] = []
    for part in text.split(","):
        head = part.split(":", 1)[0]
        if out and "=" in head:
            out[-1] += "," + part
        else:
            out.append(part)
    return [p.strip() for p in out if p.strip()]


#: functions that register policies, run once before the first look-up (``sim.policies``
#: adds the built-ins' loader: the registry itself never imports a policy)
_LOADERS: list[Callable[[], None]] = []


def add_loader(load: Callable[[], None]) -> None:
    """Run ``load`` (which registers policies) before the registry's next look-up."""
    _LOADERS.append(load)


def _ensure_builtins() -> None:
    while _LOADERS:
        _LOADERS.pop(0)()
