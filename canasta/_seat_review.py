"""The review of the human seat's decisions, the one every face shows: the terminal's
(``canasta play --human --review``), the web table's (``POST /api/review``) and ``canasta
review``'s decisions of a record.

:func:`review_hand` reviews one finished hand of a seat through ``analysis.review``: its
decisions (``canasta.review.decisions``), each advised from the position the seat saw
(``canasta._seat.position_for``: its own hand, the public table, the scores, the public card
memory), the moves matched to the advice's plans by :func:`match_move`;
:func:`review` keeps each hand's review on the seat and combines a game's from its hands'.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from canasta._seat import Seat, made_choice
from sim import encoding as E
from sim.errors import CanastaError

__all__ = [
    "REVIEW_BUDGET",
    "REVIEW_N",
    "match_move",
    "review",
    "review_hand",
]

REVIEW_BUDGET = 0.8  #: seconds of advice per decision at most in the seat's review
REVIEW_N = 32  #: deals per choice at most in the seat's review (and in each re-measure)
REVIEW_SEED = 1000  #: hand k's decisions are advised with seeds from k x this


def match_move(actions: Sequence[int], adv):
    """The Choice of ``adv`` that ``actions`` (from the decision on) made, or None: the
    review's matcher of moves to plans (:func:`made_choice`)."""
    return made_choice(actions, 0, -1, None, adv)


def review_hand(
    hand,
    seat: int,
    number: int,
    *,
    start: int = 0,
    equity=None,
    budget: float | None = REVIEW_BUDGET,
    n: int = REVIEW_N,
    cap: float | None = None,
    advise: Callable | None = None,
    policies: Sequence[str] | None = None,
):
    """The review (``analysis.review``) of ``seat``'s decisions in the finished ``hand``, the
    game's hand ``number`` (1-based; ``start``: the game's actions before it, so that move
    numbers are ``canasta review``'s of the game's record), the one review every face shows.
    Each decision is advised from the position the seat saw (``position_for``), with at most
    ``n`` deals a choice and ``budget`` seconds; ``cap``: seconds for the whole hand, shared
    by its decisions (the selection gets half of each share, each re-measure on fresh deals a
    quarter); ``equity``: the equity table (game chances; None: points only)."""
    from dataclasses import replace

    from analysis.review import review
    from canasta.review import decisions

    if not hand.is_over:
        raise CanastaError("review: the hand is not over")
    items = [replace(d, hand=number, move=d.move + start) for d in decisions([hand], [int(seat)])]
    fresh = None
    if cap is not None and items:
        share = cap / len(items)
        budget = share / 2 if budget is None else min(budget, share / 2)
        fresh = share / 4
    rev = review(
        items,
        match_move,
        equity=equity,
        ruleset=hand.ruleset,
        n=n,
        budget=budget,
        seed=number * REVIEW_SEED,
        policies=policies,
        advise=advise,
        fresh_budget=fresh,
    )
    rev.meta["points"] = {int(seat): int(hand.scores()[int(seat) % E.N_TEAMS]["total"])}
    rev.meta["ruleset"] = hand.ruleset.label
    rev.meta["game"] = equity is not None
    return rev


def review(
    seat: Seat,
    k: int | str | None = None,
    equity=None,
    budget: float | None = REVIEW_BUDGET,
    n: int = REVIEW_N,
    cap: float | None = None,
    advise: Callable | None = None,
):
    """The review (``analysis.review.Review``) of the human ``seat``'s decisions (a
    ``canasta._seat.Seat``) in hand ``k`` (1-based; default the last), once it is over
    (:func:`review_hand`), kept per hand in ``seat.review_cache``; ``k`` "game": the game's,
    once it is over, combined from its hands'."""
    from analysis.review import combine

    if k == "game":
        if not seat.finished():
            raise CanastaError("review: the game is not over (review a finished hand)")
        hands = range(1, len(seat.hands) + 1)
        return combine([review(seat, j, equity, budget, n, cap, advise) for j in hands])
    k = len(seat.hands) if k is None else int(k)
    if not 1 <= k <= len(seat.hands):
        raise CanastaError(f"review: no hand {k} (hands 1 to {len(seat.hands)})")
    if not seat.hands[k - 1].is_over:
        raise CanastaError("review: the hand is not over")
    old = seat.review_cache.get(k)
    if old is not None and (equity is None or old.meta.get("game")):
        return old
    start = sum(len(g.actions) for g in seat.hands[: k - 1])
    kw = {"equity": equity, "budget": budget, "n": n, "cap": cap, "advise": advise}
    rev = review_hand(seat.hands[k - 1], seat.seat, k, start=start, **kw)
    seat.review_cache[k] = rev
    return rev
