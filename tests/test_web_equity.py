"""The web table's game mode shows both teams' chance of winning the game (GAME-1, DEAL-1,
OPEN-1: read at the public scores, the team playing first and the hand's number) from the
equity table of its ruleset and bots, and its hint ranks the choices by that chance with
their points beside it (canasta/web/chance.py, docs/web.md). A small table is built for the
tests (200 hands per pair of opening minima, a 100-point grid, 2 bootstrap replicates) in a
temporary cache; hand mode is unchanged."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from analysis.equity import cached_table, equity_table
from canasta.web.app import create_app
from canasta.web.chance import GameChance
from canasta.web.table import move_for
from tests.web_client import BASE, BOT, TestClient, table_of

SMALL = {"n": 200, "resolution": 100, "replicates": 2}


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    where = tmp_path_factory.mktemp("equity")
    equity_table(None, [BOT, BOT], cache=where, **SMALL)
    return where


def _client(chance: GameChance, **kw) -> TestClient:
    return TestClient(create_app(warm=False, chance=chance, **kw), base_url=BASE)


def _new(client, mode="game", seed=4) -> dict:
    body = {"partner": BOT, "opponents": BOT, "seed": seed, "mode": mode}
    r = client.post("/api/new", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _play_to_end(client, body: dict) -> dict:
    while not body["over"]:
        t = table_of(client)
        r = client.post(
            "/api/move", json={**move_for(t.game.policy_action(BOT)), "move_no": t.move_no}
        )
        assert r.status_code == 200, r.text
        body = r.json()
    return body


def _expected(tab, scores, first: int, hand_no: int) -> dict:
    return tab.value(scores[0], scores[1], first=first, hand_number=hand_no)


def test_game_view_carries_the_chance_of_the_equity_table(cache):
    """GAME-1, DEAL-1, OPEN-1: at the hand's start scores with its first team, then once the
    hand is over at the totals with the next hand's first team, then in that next hand."""
    tab = cached_table(None, [BOT, BOT], cache=cache, **SMALL)
    c = _client(GameChance(cache=cache, **SMALL))
    body = _new(c)
    ch = body["chance"]
    assert ch["status"] == "ready", ch
    t = table_of(c)
    v = _expected(tab, (0, 0), t.game.first_player % 2, 1)
    assert ch["you"] == pytest.approx(v["win_team0"]) and ch["first"] == "you"
    assert ch["you_ci"] == pytest.approx([v["ci_low"], v["ci_high"]])
    assert ch["opponents"] == pytest.approx(1 - v["win_team0"])
    assert "chance of winning: your team" in ch["text"]
    body = _play_to_end(c, body)
    totals = body["result"]["totals"]
    if body["result"]["game_over"]:
        assert body["chance"]["status"] == "over"
        return
    after = body["chance"]
    v = _expected(tab, totals, (t.game.first_player + 1) % 2, 2)
    assert after["you"] == pytest.approx(v["win_team0"]) and after["first"] == "opponents"
    assert after["scores"] == totals and after["hand_no"] == 2
    nxt = c.post("/api/next", json={"move_no": t.move_no}).json()
    assert nxt["chance"]["you"] == pytest.approx(after["you"])  # the same public position


def test_the_chance_depends_on_public_facts_only(cache):
    """Two deals of the same game position (scores 0/0, seat 0 first): the same chance."""
    seen = []
    for seed in (4, 5):
        c = _client(GameChance(cache=cache, **SMALL))
        seen.append(_new(c, seed=seed)["chance"])
    assert seen[0] == seen[1]


def test_being_computed_until_built_in_the_background(tmp_path):
    """Not cached: the request queues the build and says so at once; the page plays on;
    the table appears in the cache and then in the view."""
    chance = GameChance(cache=tmp_path, **SMALL)
    c = _client(chance)
    t0 = time.perf_counter()
    body = _new(c)
    assert body["chance"]["status"] == "computing"
    assert body["chance"]["text"].startswith("chance of winning: being computed")
    assert time.perf_counter() - t0 < 30  # the table (seconds warm) is not built in a request
    t = table_of(c)
    r = c.post("/api/move", json={**move_for(t.game.policy_action(BOT)), "move_no": t.move_no})
    assert r.status_code == 200 and r.json()["chance"]["status"] in ("computing", "ready")
    deadline = time.monotonic() + 300
    while not chance.idle() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert chance.idle()
    assert cached_table(None, [BOT, BOT], cache=tmp_path, **SMALL) is not None
    assert c.get("/api/state").json()["chance"]["status"] == "ready"


def test_a_table_that_cannot_be_built_degrades_gracefully(tmp_path, monkeypatch):
    import analysis.equity as Q

    def broken(*a, **k):
        raise MemoryError("no room")

    monkeypatch.setattr(Q, "equity_table", broken)
    chance = GameChance(cache=tmp_path, **SMALL)
    c = _client(chance, hint_budget=0.3)
    body = _new(c, seed=11)
    deadline = time.monotonic() + 60
    while not chance.idle() and time.monotonic() < deadline:
        time.sleep(0.05)
    r = c.get("/api/state")
    assert r.status_code == 200
    ch = r.json()["chance"]
    assert ch["status"] == "unavailable" and "MemoryError" in ch["text"]
    h = c.post("/api/hint", json={})  # the hint falls back to points
    assert h.status_code == 200, h.text
    assert "ranked_by" not in h.json()
    assert body["over"] is False
    off = _client(GameChance(enabled=False))
    assert _new(off)["chance"]["status"] == "unavailable"


def test_game_hint_ranks_by_chance_with_points_beside(cache):
    c = _client(GameChance(cache=cache, **SMALL), hint_budget=1.0)
    _new(c, seed=11)
    r = c.post("/api/hint", json={})
    assert r.status_code == 200, r.text
    h = r.json()
    assert h["ranked_by"] == "game"
    wins = [x["game"]["win"] for x in h["choices"]]
    assert wins == sorted(wins, reverse=True) and len(wins) >= 2
    for x in h["choices"]:
        assert 0 <= x["game"]["ci"][0] <= x["game"]["win"] <= x["game"]["ci"][1] <= 1
        assert isinstance(x["mean"], float | int) and len(x["ci"]) == 2  # points beside


def test_hand_mode_is_unchanged(cache):
    c = _client(GameChance(cache=cache, **SMALL), hint_budget=0.5)
    body = _new(c, mode="hand", seed=11)
    assert "chance" not in body
    r = c.post("/api/hint", json={})
    assert r.status_code == 200, r.text
    h = r.json()
    assert h["choices"] and "ranked_by" not in h and all("game" not in x for x in h["choices"])


def test_game_mode_merges_equal_plays():
    """Equal on every deal in points and in the chance of winning: one line, "A, or B"."""
    from analysis.advise import Choice
    from canasta.web.moves import merged_choices

    def ch(label, mean, diff, lo, hi, win, gd, glo, ghi):
        game = {"win": win, "ci_low": win - 0.02, "ci_high": win + 0.02}
        game |= {"diff_from_best": gd, "diff_low": glo, "diff_high": ghi}
        return Choice(label, [], None, mean, mean - 50, mean + 50, diff, lo, hi, 64, {}, game=game)

    best = ch("discard 7S", 500.0, 0.0, 0.0, 0.0, 0.6, 0.0, 0.0, 0.0)
    same = ch("discard 8", 500.0, 0.0, 0.0, 0.0, 0.6, 0.0, 0.0, 0.0)
    other = ch("discard 9", 500.0, 0.0, 0.0, 0.0, 0.55, -0.05, -0.08, -0.02)
    out = merged_choices([best, same, other], 5)
    assert [c["label"] for c in out] == ["discard 7, or discard 8", "discard 9"]
    assert out[0]["game"]["win"] == 0.6 and out[1]["game"]["diff_ci"] == [-0.08, -0.02]
