"""The club player's table (canasta/web/score.py, turns.py, routes_ux.py; docs/web.md, "The
club player's controls"): the running score of a hand in play with each row explained by its
rules, the bots' turns since the player's last move one by one, and leaving a table. What a
seat sees stays its own: the running score is read from public facts (and the seat's own
hand), the turns from the seat's observation; ``tests/test_web.py`` compares every response,
these included, against a deal that differs only in what the seat cannot see."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from canasta.web.score import SCORE_ROWS, running_score
from canasta.web.table import Table, move_for
from sim import encoding as E
from sim.play.table import TableView
from tests.web_client import BASE, BOT, TestClient, table_of

ROOT = Path(__file__).resolve().parents[1]


def _rule_ids() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text()
    return set(re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", text, flags=re.MULTILINE))


def test_score_1_to_8_every_score_row_is_explained_with_its_rules():
    """SCORE-1..8, OUT-3: each item of the itemised score has a name and an explanation that
    cites the rules it follows, every cited ID one of the rulebook's."""
    ids = _rule_ids()
    assert set(SCORE_ROWS) == set(E.SCORE_ITEMS)
    cited = set()
    for item, (label, why) in SCORE_ROWS.items():
        found = set(re.findall(r"\b([A-Z]+-\d+)\b", why))
        assert found, f"{item}: no rule cited"
        assert found <= ids, (item, found - ids)
        assert label and label.lower() == label
        cited |= found
    assert {f"SCORE-{i}" for i in range(1, 9)} | {"OUT-3"} <= cited


def _oracle(g, seat: int) -> tuple[list[int], int]:
    """The running score from the engine's full state: every hand emptied, no one out, the
    hand scored as if over (``score_hand``); and the seat's own hand counted at its values
    (SCORE-5) with SCORE-4's 1,500 per rank of three or more sevens or aces."""
    from sim.engine.state import score_hand
    from sim.engine.views import st_melds

    st = g.state.copy()
    w = TableView.writable(st)
    w.hands[...] = 0
    w.out_team = -1
    w.special = E.SPECIAL_NONE
    items = np.zeros((E.N_TEAMS, E.N_SCORE_ITEMS), dtype=np.int64)
    score_hand(st, g.rules, items)
    mine = seat % E.N_TEAMS
    totals = [int(items[mine].sum()), int(items[1 - mine].sum())]
    hand = TableView(g.state).hands[seat]
    held = -int((hand * E.KIND_VALUE).sum())
    melds = np.asarray(st_melds(g.state))[mine]
    aces_wild = melds[E.ACE, E.TWOS] + melds[E.ACE, E.JOKERS] > 0  # MELD-7: no ace penalty
    held -= 1500 * (int(hand[E.SEVEN] >= 3) + int(hand[E.ACE] >= 3 and not aces_wild))
    return totals, held


@pytest.mark.parametrize("seed", [3, 21])
def test_score_6_running_score_is_the_table_scored_as_if_the_hand_ended(seed):
    """SCORE-1/2/3/6/7 during a hand: the running score's totals equal the engine's score of
    the full state with every hand emptied (the observation carries the same melds and threes),
    and the seat's own hand counts at its values (SCORE-5, SCORE-4) at every step of a hand."""
    t = Table(seed=seed, partner=BOT, opponents=BOT)
    steps = 0
    while not t.game.is_over:
        g = t.game
        r = running_score(g, t.seat)
        totals, held = _oracle(g, t.seat)
        total = r["rows"][-1]
        assert (total["you"], total["opponents"]) == tuple(totals), (seed, steps)
        assert sum(x["you"] for x in r["rows"][:-1]) == total["you"]
        assert r["hand"] == held
        for row in r["rows"][:-1]:
            assert row["why"] == SCORE_ROWS[row["item"]][1] and (row["you"] or row["opponents"])
        t.move(move_for(g.policy_action(BOT)))
        steps += 1
    assert steps > 5
    assert running_score(t.game, t.seat) is None  # over: the final score is shown instead
    assert "running" not in t.view() and t.view()["result"]["explained"][-1]["item"] == "total"


def test_the_bots_turns_come_one_by_one_in_play_order():
    """TURN-1, DEAL-1: after the player's move the view carries each bot's turn since then, in
    play order (left, partner, right), with its words as the log gives them and the table as
    the seat saw it after that turn; the last frame's table is the one the player now sees."""
    from canasta.web.view import log_lines

    t = Table(seed=21, partner=BOT, opponents=BOT)
    checked = 0
    for _ in range(200):
        g = t.game
        if g.is_over:
            break
        mark_before = len(g.events())
        t.move(move_for(g.policy_action(BOT)))
        v = t.view()
        frames = v["bot_turns"]
        if t.mark <= mark_before or not frames:
            continue
        seats = [f["seat"] for f in frames]
        assert t.seat not in seats
        left = (t.seat + 1) % 4
        assert seats == [(left + i) % 4 for i in range(len(seats))], seats
        since = log_lines(t, t.game, t.mark)  # the log's words since the player's turn ended
        words = [x["text"] for x in since if not x["text"].startswith("You")]
        lines = [line for f in frames for line in f["lines"] if not line.startswith("You")]
        assert lines == words
        assert all(f["lines"] and f["who"] == v["players"][str(f["seat"])] for f in frames)
        last = frames[-1]
        if not t.game.is_over and t.game.phase == "draw":
            assert (last["pile_top"], last["pile_size"], last["stock"]) == (
                v["pile_top"],
                v["pile_size"],
                v["stock"],
            )
            assert last["teams"] == v["teams"] and last["hand_sizes"] == v["hand_sizes"]
        checked += 1
    assert checked >= 5


def _client(tmp_path=None):
    from canasta.web.app import create_app

    return TestClient(create_app(state_dir=tmp_path, warm=False), base_url=BASE)


def test_leaving_a_game_abandons_it_and_clears_the_session(tmp_path):
    """POST /api/leave names the move number; the table leaves memory and disk, the cookie is
    cleared, the page is back at the start; a stale number is a 409, none a 400."""
    c = _client(tmp_path)
    r = c.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 4, "mode": "game"})
    assert r.status_code == 200
    n = r.json()["move_no"]
    assert len(list(tmp_path.glob("*.json"))) == 1
    assert c.post("/api/leave", json={}).status_code == 400
    stale = c.post("/api/leave", json={"move_no": n - 1})
    assert stale.status_code == 409 and "stale" in stale.json()["error"]
    r = c.post("/api/leave", json={"move_no": n})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["left"] is True and body["mode"] == "game" and body["finished"] is False
    assert "abandoned" in body["text"] and "game" in body["text"]
    assert table_of(c) is None
    assert list(tmp_path.glob("*.json")) == []
    assert c.get("/api/state").status_code == 404
    assert c.post("/api/leave", json={"move_no": n}).status_code == 404


def test_leaving_a_finished_hand_says_so():
    c = _client()
    body = c.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 3}).json()
    while not body["over"]:
        t = table_of(c)
        body = c.post(
            "/api/move", json={**move_for(t.game.policy_action(BOT)), "move_no": t.move_no}
        ).json()
    r = c.post("/api/leave", json={"move_no": body["move_no"]})
    assert r.status_code == 200 and r.json()["finished"] is True and "was over" in r.json()["text"]


def test_leave_is_a_same_site_json_post():
    """The threat model's guard holds for the new route: another site, or a form, is refused."""
    c = _client()
    c.post("/api/new", json={"partner": BOT, "opponents": BOT, "seed": 4})
    n = table_of(c).move_no
    r = c.post("/api/leave", content=f"move_no={n}", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = c.post("/api/leave", json={"move_no": n}, headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    assert table_of(c) is not None


def test_the_warm_up_compiles_in_the_order_a_player_needs(monkeypatch):
    """DEAL-1: the first deal (the player first: no bot plays) and its view come before any
    bot's decision, the bots' first turns before the hint's simulation (canasta.web.warmup)."""
    from canasta.web import warmup

    Game = type(Table(seed=0, partner=BOT, opponents=BOT).game)  # the engine's hand class
    seen: list[str] = []
    ask = Game.policy_action

    def policy_action(self, *a, **k):
        seen.append("bot")
        return ask(self, *a, **k)

    hint = Table.hint

    def hinted(self, *a, **k):
        seen.append("hint")
        return hint(self, *a, **k)

    monkeypatch.setattr(Game, "policy_action", policy_action)
    monkeypatch.setattr(Table, "hint", hinted)
    warmup.warm(BOT, lambda: seen.append(f"step {warmup.PLAN[len(marks(seen))]}"))
    steps = marks(seen)
    assert steps == [f"step {s}" for s in warmup.PLAN]
    order = seen
    assert order.index("step the table's view") < order.index("bot")
    assert order.index("bot") < order.index("step the bots' turns") < order.index("hint")


def marks(seen: list[str]) -> list[str]:
    return [x for x in seen if x.startswith("step ")]
