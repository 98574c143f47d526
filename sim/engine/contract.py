"""The policy contract: the one signature every policy is compiled to.

A policy is a compiled function ::

    decide(obs, params, rng, rules, scratch) -> action id

- ``obs``: ``int64[OBS_SIZE]``, what the acting player can see (layout ``OBS_FIELDS`` in
  ``sim.encoding``: own team first, seats counted from the player). Its phase (``OB_PHASE``)
  says which decision is asked: the DEAL-5 keep-or-lay choice, the draw, or a play step (one
  meld operation, a special-hand declaration, or the discard that ends the turn). A policy
  leaves it as it found it (a check may change words and undo the change, as the built-in
  ones do): the engine judges the proposal on it and, after the player's own meld
  operation, updates only the words the operation changed (``observe_after_meld``).
- ``params``: ``float64[n]``, the policy's named parameters in registry order.
- ``rng``: ``uint64[4]``, the hand's generator (``sim.rng``); draw from it for any randomness.
- ``rules``: ``int64[N_RS]``, the ruleset array.
- ``scratch``: ``int64[SCRATCH_SIZE]`` work space (layout ``SCRATCH_FIELDS``: a legal-action
  list, the legality checks' temporaries, ``POLICY_FREE`` words free for the policy, then the
  built-in policies' memo of their last opening search, ``POLICY_MEMO`` words that a policy
  of its own leaves alone; views in ``sim.engine.views``).

It returns one id of ``sim.encoding.ACTION_TABLE``. A policy is not asked when the position
leaves no choice (``sim.engine.judge.forced_action``: a draw when the pile cannot be taken for
lack of a pile, a natural top card or a pair of it). The engine checks it with the same kernel
that lists legal actions (``sim.engine.judge.action_reason``); an illegal proposal is counted in
the record's ``policy_errors`` and replaced by the first legal action (a test harness asserts
that no built-in policy ever proposes one). The package's own compiled policies are trusted
(``mark_builtin``): in production runs their proposals are applied unjudged (a quarter of a
decision's cost went to judging actions the built-ins only ever propose legal); with ``debug``
on they are judged like any other, and a user's policy is always judged (``engine_mode``).
Policies that want the full list call
``sim.engine.judge.legal_actions``; others propose an action and may check it with
``action_reason``. Policies are passed to the cached engine kernel as first-class functions of
this type, so a new policy never recompiles the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from numba import types

__all__ = [
    "MODE_DEBUG",
    "MODE_PEEK0",
    "MODE_PEEK1",
    "MODE_SCOPE_SHIFT",
    "MODE_TRUST0",
    "MODE_TRUST1",
    "MODE_TRUSTED",
    "PEEK_HANDS",
    "PEEK_KINDS",
    "PEEK_NEXT",
    "PEEK_NEXT_WHEN",
    "PEEK_OTHERS",
    "PEEK_WHEN",
    "POLICY_SIGNATURE",
    "POLICY_TYPE",
    "engine_mode",
    "is_builtin",
    "is_peeking",
    "mark_builtin",
    "mark_peeking",
    "peek_scope",
]

POLICY_SIGNATURE = types.int64(
    types.int64[::1], types.float64[::1], types.uint64[::1], types.int64[::1], types.int64[::1]
)
POLICY_TYPE = types.FunctionType(POLICY_SIGNATURE)

#: the hand loop's ``mode`` word (the chunk kernels' ``debug`` argument): bit flags
MODE_DEBUG = 1  #: check the invariants after every action (every proposal judged too)
MODE_TRUST0 = 2  #: team 0's policy is a built-in: its proposals are applied unjudged
MODE_TRUST1 = 4  #: the same for team 1 (``MODE_TRUST0 << team``)
MODE_TRUSTED = MODE_TRUST0 | MODE_TRUST1  #: both teams built-ins (a search's own rollouts)
MODE_PEEK0 = 8  #: team 0's policy is a peeking reference: its known rows hold the true hands
MODE_PEEK1 = 16  #: the same for team 1 (``MODE_PEEK0 << team``)
#: a peeking team's scope (what it sees, ``PEEK_*``) sits in 3 bits from here, team 1's after
#: team 0's (``scope << (MODE_SCOPE_SHIFT + 3 * team)``)
MODE_SCOPE_SHIFT = 5
PEEK_HANDS = 0  #: every other hand, whole (``peeking_strong``)
#: bounds of what the public card memory can be worth (each sees more than the memory, and
#: keeps the memory's rows where it sees nothing more):
PEEK_KINDS = 1  #: the true count of each kind the memory places in a hand (>= 1 known)
PEEK_WHEN = 2  #: every other hand, whole, but only at decisions where the memory holds a card
PEEK_NEXT = 3  #: the next player's hand, whole; the other rows the memory
PEEK_OTHERS = 4  #: the partner's and the previous player's hands; the next player's row the memory
PEEK_NEXT_WHEN = 5  #: ``PEEK_NEXT`` only at decisions where the memory holds a card

_BUILTINS: list[Callable] = []  #: the package's compiled policies, compared by identity
_PEEKING: list[tuple[Callable, int]] = []  #: the peeking references and their scopes


def mark_builtin(decide: Callable) -> Callable:
    """Mark one of the package's own compiled policies as trusted: every proposal it makes is
    legal (the CI harness plays each under every shipped ruleset with the judge on and
    requires 0 illegal proposals, tests/test_trusted_builtins.py). For the built-ins alone: a
    policy registered by a user is always judged."""
    if not any(decide is d for d in _BUILTINS):
        _BUILTINS.append(decide)
    return decide


def is_builtin(decide: Callable) -> bool:
    """Is ``decide`` one of the compiled functions ``mark_builtin`` trusts?"""
    return any(decide is d for d in _BUILTINS)


def mark_peeking(decide: Callable, scope: int = PEEK_HANDS) -> Callable:
    """Mark a reference policy that sees every hand: the engine fills the other seats' rows of
    its observation's public card memory (``OB_KNOWN``) with their true hands (a bound on what
    hidden information is worth, never a player's opponent at a table); ``scope`` (``PEEK_*``)
    narrows what it sees."""
    if not 0 <= scope <= PEEK_NEXT_WHEN:
        raise ValueError(f"unknown peeking scope {scope!r}")
    if not any(decide is d for d, _ in _PEEKING):
        _PEEKING.append((decide, scope))
    return decide


def is_peeking(decide: Callable) -> bool:
    """Is ``decide`` a peeking reference (``mark_peeking``)?"""
    return any(decide is d for d, _ in _PEEKING)


def peek_scope(decide: Callable) -> int:
    """The scope (``PEEK_*``) of a peeking reference (``mark_peeking``)."""
    return next(s for d, s in _PEEKING if d is decide)


def engine_mode(decides: Sequence[Callable], debug: bool) -> int:
    """The hand loop's mode for the two teams' policies: ``MODE_DEBUG`` when ``debug`` (every
    proposal judged, invariants checked), else a ``MODE_TRUST*`` bit for each team whose
    policy is a built-in (``is_builtin``); a ``MODE_PEEK*`` bit and its scope for a peeking
    reference."""
    peek = sum(
        (MODE_PEEK0 << t) | (peek_scope(d) << (MODE_SCOPE_SHIFT + 3 * t))
        for t, d in enumerate(decides)
        if is_peeking(d)
    )
    if debug:
        return MODE_DEBUG | peek
    return peek + sum(MODE_TRUST0 << t for t, d in enumerate(decides) if is_builtin(d))
