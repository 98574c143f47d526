"""The review a web table sends at the end of a hand and of a game (docs/web.md): the human
seat's decisions reviewed by the one review (``canasta._seat_review.review_hand``, through
``analysis.review``), turned into the page's JSON.

What it holds is only what the seat saw, plus what is public once the hand is over: each
decision is advised from the seat's own position (its hand, the public table, the scores and
the public card memory), so a label names only the seat's cards, and a luck row names only the
card the seat drew. Moves are numbered by the hand's turn (the log's numbers), cards by rank
(suits never matter to the rules, ``canasta._seat.plain``). No seed, deck or other seat's card
is in it: the records the workers replay stay on the server.
"""

from __future__ import annotations

import math
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from canasta._seat import plain
from canasta.web.guard import check_post, client_of, read_json
from canasta.web.pool import REVIEW_CAP, review_job
from sim.errors import CanastaError

__all__ = ["client_review", "review_request", "review_route"]

FIELDS = ("scope", "hand")  #: what a review request may hold


def review_request(body: Any, t) -> tuple[str, list[int]]:
    """``(scope, hands)`` of a review request ``{"scope": "hand" | "game", "hand": k}`` for
    table ``t``: a finished hand (default the last), or every hand of a finished game; a bad
    or early request is refused with one line (``CanastaError``)."""
    if not isinstance(body, dict):
        raise CanastaError('review: expected a JSON object, e.g. {"scope": "hand"}')
    extra = sorted(str(k)[:20] for k in body if k not in FIELDS)
    if extra:
        raise CanastaError(f"review: unknown field {extra[0]!r} (expected scope, hand)")
    scope = body.get("scope", "hand")
    if scope not in ("hand", "game"):
        raise CanastaError("review: scope must be 'hand' or 'game'")
    n = len(t.hands)
    if scope == "game":
        if "hand" in body:
            raise CanastaError("review: a game's review covers every hand (no 'hand')")
        if t.mode != "game":
            raise CanastaError("review: this table plays one hand: review the hand")
        if not t.finished():
            raise CanastaError("review: the game is not over (review a finished hand)")
        return scope, list(range(1, n + 1))
    k = body.get("hand", n)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= n:
        raise CanastaError(f"review: hand must be a hand's number, 1 to {n}")
    if not t.hands[k - 1].is_over:
        raise CanastaError("review: the hand is not over")
    return scope, [k]


def _num(x, digits: int = 4):
    """A finite number rounded for the page, else None (JSON has no NaN)."""
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) or math.isinf(x) else round(x, digits)


def client_review(
    rev, scope: str, hands: list[int], chance: str, band: dict, ruleset: str = ""
) -> dict:
    """The page's JSON of ``rev`` (an ``analysis.review.Review`` of the human's seat over
    ``hands``): each decision (its turn, the move made and the best in the hint's words, the
    cost in points and in the chance of winning the game with 95% intervals, the chance after
    the move made, the tag), the luck of each stock draw, and the seat's summary (the error
    rate with its interval and where it stands in the reference ``band``, the tags, the luck,
    the points and the luck-adjusted result). ``chance``: how the game chances were read, or
    why there are none; ``ruleset``: the rules' name as the table shows it (default the
    ruleset's label)."""
    from analysis.review import RATE_SCALE, TAGS, standing, summary

    decisions = []
    for r in rev.decisions.to_dict(orient="records"):
        decisions.append(
            {
                "hand": int(r["hand"]),
                "turn": int(r["turn"]),
                "decision": r["decision"],
                "choices": int(r["choices"]),
                "made": plain(r["made"]) if r["made"] else "",
                "best": plain(r["best"]),
                "confidence": _num(r["best_confidence"], 3),
                "cost_points": _num(r["cost_points"], 1),
                "cost_points_ci": [_num(r["cost_points_low"], 1), _num(r["cost_points_high"], 1)],
                "cost_game": _num(r["cost_game"]),
                "cost_game_ci": [_num(r["cost_game_low"]), _num(r["cost_game_high"])],
                "win": _num(r["win"]),
                "tag": r["tag"],
            }
        )
    luck = [
        {
            "hand": int(r["hand"]),
            "turn": int(r["turn"]),
            "card": plain(str(r["card"])),
            "points": _num(r["luck_points"], 1),
            "points_se": _num(r["se_points"], 1),
            "game": _num(r["luck_game"]),
            "game_se": _num(r["se_game"]),
        }
        for r in rev.luck.to_dict(orient="records")
    ]
    players = summary(rev).to_dict(orient="records")
    player = None
    if players:
        s = players[0]
        rate = float(s["error_rate"])
        player = {
            "decisions": int(s["decisions"]),
            "rated": int(s["rated"]),
            "error_rate": _num(rate, 2),
            "error_rate_ci": [_num(s["rate_low"], 2), _num(s["rate_high"], 2)],
            "standing": standing(rate, band),
            "tags": {t: int(s[t]) for t in TAGS},
            "draws": int(s["draws"]),
            "luck_points": _num(s["luck_points"], 1),
            "luck_points_se": _num(s["luck_points_se"], 1),
            "luck_game": _num(s["luck_game"]),
            "luck_game_se": _num(s["luck_game_se"]),
            "points": None if "points" not in s else int(s["points"]),
            "luck_adjusted_points": _num(s.get("luck_adjusted_points"), 1),
        }
    return {
        "scope": scope,
        "hands_reviewed": hands,
        "ruleset": ruleset or rev.meta.get("ruleset", ""),
        "n": int(rev.meta.get("n", 0)),
        "chance": chance,
        "by_game": bool(rev.meta.get("game")),
        "skipped": int(rev.meta.get("skipped", 0)),
        "tags": dict(TAGS),
        "rate_scale": RATE_SCALE,
        "band": band.get("ruleset", "") if band else "",
        "decisions": decisions,
        "luck": luck,
        "player": player,
    }


def review_route(tables, table_of, chance, pool, sizes: tuple, trust_proxy: bool) -> Route:
    """``POST /api/review`` over the server's ``tables`` (``table_of(request)``: the
    session's own table or a 404), its equity tables (``chance``, a
    ``canasta.web.chance.GameChance``) and its ``pool`` of workers; ``sizes``: each
    decision's budget in seconds and deals a choice at most; ``trust_proxy``: whose quota an
    item counts in (``canasta.web.guard.client_of``). Each finished hand not yet reviewed is
    one item in the pool, its time capped (:data:`canasta.web.pool.REVIEW_CAP` shared by its
    decisions), kept for good once done; the answer is :func:`client_review`'s."""
    from analysis.review import Review, band_for, combine
    from sim.record import from_games

    budget, n = sizes

    async def review(request: Request) -> JSONResponse:
        check_post(request)
        body = await read_json(request)
        t = table_of(request)
        lock = tables.lock(t.id)

        def check():  # a bad or early request refused before anything is looked up
            with lock:
                return review_request(body, t)

        scope, ks = await run_in_threadpool(check)
        # the equity table if it is cached (else a build is queued, never run here)
        tab, status = await run_in_threadpool(chance.table, t)

        def prepare():  # each finished hand not yet reviewed: its record, the review's item
            with lock:
                items = []
                for k in ks:
                    old = t.review_cache.get(k)
                    if old is None or (tab is not None and not old.meta.get("game")):
                        g = t.hands[k - 1]
                        start = sum(len(h.actions) for h in t.hands[: k - 1])
                        items.append((k, from_games([g], players=t.policies), start))
                return items

        def keep(k: int, result: dict) -> None:
            with lock:  # a finished hand never changes: its review is kept for good
                t.review_cache[k] = Review.from_json(result)
                tables.save(t)

        items = await run_in_threadpool(prepare)
        kw = {"equity": tab, "budget": budget, "n": n, "cap": REVIEW_CAP}
        for k, rec, start in items:  # one item a hand, each in its own place in the pool
            cap = REVIEW_CAP + pool.grace
            async with pool.slot(client_of(request.scope, trust_proxy), cap) as left:
                got = await run_in_threadpool(
                    pool.call, review_job, rec, t.seat, k, start, kw, cap=left
                )
            await run_in_threadpool(keep, k, got)
        revs = [t.review_cache[k] for k in ks]
        rev = revs[0] if len(revs) == 1 else combine(revs)
        if tab is None:
            note = f"costs in points only: the chance of winning the game is {status}"
        elif t.mode == "hand":
            note = "the chance of winning a game to the target, reading this hand as its first"
        else:
            note = "your team's chance of winning the game, through the equity table"
        out = client_review(rev, scope, ks, note, band_for(t.ruleset), ruleset=t.rules_name)
        return JSONResponse(out)

    return Route("/api/review", review, methods=["POST"])
