"""The review at the web table (``POST /api/review``, docs/web.md): the human seat's decisions
reviewed by the one review (``canasta._seat_review.review_hand`` through ``analysis.review``)
after a hand and after the game, kept per hand, refused before the end and for junk, and
holding nothing the seat did not see.

Sizes are tiny (4 deals a choice, a few hundredths of a second a decision) and the game chances
come from a made-up equity table (``analysis.equity.synthetic_table``): the tests check what
is sent and when, never a strategy's value. The reviews run in a thread pool standing in for
the worker processes (the pool's executor seam); the process pool itself is tested in
tests/test_web_pool.py.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from analysis.equity import synthetic_table
from canasta.web.app import create_app
from canasta.web.pool import AdvicePool
from canasta.web.table import Table, move_for
from sim import encoding as E
from sim.record import redeal
from tests.web_client import BASE, BOT, TestClient, table_of

TARGET = 2500  #: a short game: two hands of the heuristic bots from seed 4
RULES = f"target = {TARGET}\n"


class FixedChance:
    """The server's source of equity tables (``canasta.web.chance.GameChance``'s seam): one
    made-up table of the rules' target, ready at once; no chance line in the view."""

    def __init__(self, target: int = 8500):
        self.tab = synthetic_table(target=target)

    def table(self, t):
        return (self.tab, "ready") if t.ruleset.target == self.tab.target else (None, "absent")

    def chance(self, t):
        return None


class CountingExecutor(ThreadPoolExecutor):
    """A thread pool that counts the items sent to it (a review is one item a hand)."""

    def __init__(self):
        super().__init__(1)
        self.sent = 0

    def submit(self, fn, *args, **kw):
        self.sent += 1
        return super().submit(fn, *args, **kw)


def _client(target: int = 8500):
    ex = CountingExecutor()
    app = create_app(
        warm=False,
        default_bot=BOT,
        review_budget=0.02,
        review_n=4,
        pool=AdvicePool(executor=ex),
        chance=FixedChance(target),
    )
    return TestClient(app, base_url=BASE), ex


def _new(c, mode="hand", seed=6, rules=None) -> None:
    body = {"partner": BOT, "opponents": BOT, "seed": seed, "mode": mode}
    if rules is not None:
        body |= {"rules_toml": rules, "rules_name": "short"}
    r = c.post("/api/new", json=body)
    assert r.status_code == 200, r.text


def _finish_hand(c) -> None:
    t = table_of(c)
    while not t.game.is_over:
        r = c.post("/api/move", json={**move_for(t.game.policy_action(BOT)), "move_no": t.move_no})
        assert r.status_code == 200, r.text


@pytest.fixture(scope="module")
def hand_review():
    """A hand played to its end by the bot in the human's seat, then its review."""
    c, ex = _client()
    _new(c)
    _finish_hand(c)
    r = c.post("/api/review", json={})
    assert r.status_code == 200, r.text
    return c, ex, r.json()


def test_a_hands_review_after_the_hand(hand_review):
    """Every decision of the human's with a choice is a row (its turn one of the log's, the
    move made and the best in the hint's words, the costs with intervals, the chance after the
    move, a tag from TAGS); the luck of each stock draw; the error rate with its interval."""
    c, _, r = hand_review
    t = table_of(c)
    assert r["scope"] == "hand" and r["hands_reviewed"] == [1] and r["by_game"]
    assert "first" in r["chance"]  # one hand read as a game's first
    rows = r["decisions"]
    assert rows and len(rows) == r["player"]["decisions"]
    log_turns = {x["turn"] for x in t.view()["log"]} | set(t.turns)
    assert all(d["turn"] in log_turns and d["hand"] == 1 for d in rows)
    for d in rows:
        assert d["decision"] in ("draw", "play") and d["best"]
        assert d["tag"] in ("", "doubtful", "error", "blunder")
        assert not re.search(r"\b(10|[2-9AJQK])[SHDC]\b", d["made"] + d["best"])  # by rank
        if d["cost_game"] is not None:
            lo, hi = d["cost_game_ci"]
            assert lo <= d["cost_game"] <= hi and 0 <= d["win"] <= 1
    p = r["player"]
    assert p["rated"] >= 2 and p["error_rate"] is not None
    lo, hi = p["error_rate_ci"]
    assert lo <= p["error_rate"] <= hi
    assert p["points"] == t.game.scores()[t.seat % 2]["total"]
    assert p["luck_adjusted_points"] == pytest.approx(p["points"] - p["luck_points"], abs=0.1)
    assert len(r["luck"]) == p["draws"] and all(x["card"] for x in r["luck"])
    # the default list, the advice's own policy playing on: placed in the shipped band
    assert p["standing"].startswith(("between ", "at or below ", "at or above "))


def test_the_review_is_kept_per_hand_and_across_a_restart(hand_review, tmp_path):
    """Asked again: the same answer, nothing sent to the pool; a resumed table keeps it."""
    c, ex, first = hand_review
    sent = ex.sent
    again = c.post("/api/review", json={"scope": "hand", "hand": 1})
    assert again.status_code == 200 and again.json() == first and ex.sent == sent
    t = table_of(c)
    back = Table.resume(json.loads(json.dumps(t.saved())))
    assert back.review_cache[1].decisions.equals(t.review_cache[1].decisions)


def _seen_kinds(t) -> dict[tuple[int, int], set[str]]:
    """(hand, turn) -> the ranks in the human seat's hand during its turns of that hand: at
    the draw step and after it (the card drawn), from the seat's own observation."""
    seen: dict[tuple[int, int], set[str]] = {}
    for k, g in enumerate(t.hands, 1):
        h = redeal(g)
        for a in [*g.actions, None]:
            if not h.is_over and h.current_player == t.seat:
                hand = h.view(t.seat).hand
                names = {E.KIND_NAMES[i] for i in range(E.N_KINDS) if hand[i]}
                seen.setdefault((k, h.turn), set()).update(names)
            if a is not None:
                h.apply(a)
    return seen


def test_the_review_holds_only_what_the_seat_saw(hand_review):
    """No seed, deck or entropy; every card a row names (the move made, the best, the card
    drawn) is of a rank the seat held in that turn: the review is built from the seat's own
    positions, never from the other hands."""
    c, _, r = hand_review
    t = table_of(c)
    text = json.dumps(r)
    for word in ("seed", "deck", "entropy", "deal_entropy", "key"):
        assert f'"{word}"' not in text
    assert t.key not in text and t.id not in text
    seen = _seen_kinds(t)
    rank = re.compile(r"\b(10|[2-9AJQK]|JK)\b")
    for d in r["decisions"]:
        named = set(rank.findall(d["made"] + " " + d["best"]))
        assert named <= seen[(d["hand"], d["turn"])], (d, seen[(d["hand"], d["turn"])])
    for x in r["luck"]:
        assert x["card"] in seen[(x["hand"], x["turn"])]


def test_the_review_is_refused_before_the_end_and_for_junk():
    """A running hand, a game not over, and junk bodies: 400 with one line, no work sent."""
    c, ex = _client()
    _new(c, mode="game")
    r = c.post("/api/review", json={})
    assert r.status_code == 400 and "not over" in r.json()["error"]
    r = c.post("/api/review", json={"scope": "game"})
    assert r.status_code == 400 and "game is not over" in r.json()["error"]
    junk = [
        [],
        "hand",
        {"scope": "all"},
        {"scope": ["hand"]},
        {"hand": 0},
        {"hand": "1"},
        {"hand": True},
        {"hand": 10**12},
        {"hand": 2},
        {"bogus": 1},
        {"scope": "game", "hand": 1},
    ]
    for body in junk:
        r = c.post("/api/review", json=body)
        assert r.status_code == 400, (body, r.text)
        err = r.json()["error"]
        assert err.startswith("review: ") and "\n" not in err, (body, err)
    hand_only, _ = _client()
    _new(hand_only)
    _finish_hand(hand_only)
    r = hand_only.post("/api/review", json={"scope": "game"})
    assert r.status_code == 400 and "one hand" in r.json()["error"]
    assert ex.sent == 0


def test_a_games_review_combines_its_hands():
    """A short game (target 2,500): hand 1 reviewed when it ends; at the game's end its
    review covers every hand, only the hands not yet reviewed are sent to the pool, and the
    points are the game's."""
    c, ex = _client(TARGET)
    _new(c, mode="game", seed=4, rules=RULES)
    _finish_hand(c)
    t = table_of(c)
    r1 = c.post("/api/review", json={}).json()
    assert r1["hands_reviewed"] == [1] and ex.sent == 1
    while not t.finished():
        assert c.post("/api/next", json={"move_no": t.move_no}).status_code == 200
        _finish_hand(c)
    n = len(t.hands)
    assert n >= 2, "the short game ended in one hand: pick another seed"
    r = c.post("/api/review", json={"scope": "game"})
    assert r.status_code == 200, r.text
    g = r.json()
    assert g["scope"] == "game" and g["hands_reviewed"] == list(range(1, n + 1))
    assert ex.sent == n  # hand 1 from its cache
    assert [d for d in g["decisions"] if d["hand"] == 1] == r1["decisions"]
    assert {d["hand"] for d in g["decisions"]} == set(range(1, n + 1))
    own = t.seat % 2
    assert g["player"]["points"] == sum(h.scores()[own]["total"] for h in t.hands)
    assert g["player"]["decisions"] == len(g["decisions"])
    assert g["player"]["standing"] == ""  # another list (target 2,500): not placed in the band
