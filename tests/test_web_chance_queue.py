"""Game mode's chance of winning is always there (canasta/web/chance.py, docs/web.md): a bot
whose own equity table would take hours is read through its fast stand-in's table, labelled
so; builds are queued one per key (ruleset and pair of bots) with their progress shown; a full
queue is asked again later, never "unavailable" for good, and the default game's table always
finds a place. The builds here are a stand-in function that waits for the test (no table is
measured), except one small real table read through a stand-in."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest

pytest.importorskip("starlette")

import analysis.equity as Q
from canasta.web import chance as C
from canasta.web.chance import STAND_INS, GameChance, stand_in
from sim.ruleset import Ruleset
from tests.web_client import BOT

SMALL = {"n": 200, "resolution": 100, "replicates": 2}


def _table(rules=None, partner="strong", opponents="strong", seat=0):
    """What GameChance reads of a table: its ruleset, bots, seat, mode and the public position
    (hand 1 at 0 to 0; no deal needed)."""
    pol = [None] * 4
    for p in range(4):
        pol[p] = partner if p % 2 == seat % 2 else opponents
    pol[seat] = "you"
    game = SimpleNamespace(is_over=False, start_scores=(0, 0), first_player=0)
    return SimpleNamespace(
        ruleset=rules or Ruleset(),
        policies=pol,
        seat=seat,
        mode="game",
        game=game,
        hands=[game],
        game_over=lambda: False,
    )


class Builds:
    """A stand-in ``equity_table``: records each build, reports progress, waits to be let go."""

    def __init__(self):
        self.calls: list[tuple] = []
        self.go = threading.Event()
        self.started = threading.Event()

    def __call__(self, rules, pol, n_jobs=1, progress=None, **kw):
        self.calls.append((rules.target, tuple(pol)))
        if progress is not None:
            progress("measuring hands by pair of opening minima", 3, 9)
        self.started.set()
        assert self.go.wait(60)
        self.started.clear()
        return SimpleNamespace(marker=(rules.target, tuple(pol)))


@pytest.fixture
def builds(monkeypatch):
    b = Builds()
    monkeypatch.setattr(Q, "equity_table", b)
    monkeypatch.setattr(Q, "cached_table", lambda *a, **k: None)
    yield b
    b.go.set()


def _wait(cond, seconds=30):
    deadline = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_game_1_search_bots_read_their_fast_stand_ins_table():
    """GAME-1: expert, expert_strong and game_strong (and their tuned forms) stand in as
    strong, expert_strong_v2 as strong_v2, whose tables take minutes; the fast bots are read
    through their own."""
    assert set(STAND_INS) == {"expert", "expert_strong", "expert_strong_v2", "game_strong"}
    for bot in ("expert", "expert_strong", "game_strong"):
        assert stand_in(bot) == "strong"
    assert stand_in("expert:samples=8") == "strong"
    assert stand_in("expert_strong_v2:samples=8") == "strong_v2"
    for bot in ("strong", "strong_v2", "heuristic", "greedy", "random", "special_chaser"):
        assert stand_in(bot) == bot
    t = _table(partner="expert", opponents="game_strong")
    assert GameChance.table_policies(t) == ["strong", "strong"]
    assert GameChance.policies(t) == ["expert", "game_strong"]


def test_one_build_per_key_however_many_tables_ask(builds):
    chance = GameChance(**SMALL)
    tables = [_table(Ruleset(target=5000)) for _ in range(4)]
    seen = [chance.chance(t) for t in tables]
    assert all(s["status"] == "computing" for s in seen)
    _wait(builds.started.is_set)
    assert builds.calls == [(5000, ("strong", "strong"))]
    now = chance.chance(tables[0])  # its progress, as the build reports it
    assert now["build"] == {
        "ahead": 0,
        "doing": "measuring hands by pair of opening minima",
        "step": 3,
        "of": 9,
    }
    assert "step 3 of 9" in now["text"]
    builds.go.set()
    _wait(chance.idle)
    assert len(builds.calls) == 1
    assert chance.table(tables[3])[1] == "ready"


def test_a_full_queue_waits_and_the_default_game_always_finds_a_place(builds):
    """Past ``max_queued`` builds a new key is "waiting" (asked again later, not refused for
    good); the default table (tournament rules, strong against strong) is queued first even
    then (the server's default bot, strong, against itself); once the queue drains, the
    waiting key is built."""
    chance = GameChance(max_queued=3, default_bot="strong", **SMALL)
    keys = [_table(Ruleset(target=5000 + 10 * i), partner="heuristic") for i in range(5)]
    assert chance.chance(keys[0])["status"] == "computing"
    _wait(builds.started.is_set)
    assert chance.chance(keys[1])["status"] == "computing"
    assert chance.chance(keys[2])["status"] == "computing"
    third = chance.chance(keys[2])
    assert third["build"]["ahead"] == 2 and "2 tables ahead" in third["text"]
    full = chance.chance(keys[3])
    assert full["status"] == "waiting" and "unavailable" not in full["text"]
    default = chance.chance(_table())  # strong against strong, tournament rules
    assert default["status"] == "computing"
    assert default["build"]["ahead"] == 1  # next, after the running build
    builds.go.set()
    _wait(chance.idle)
    order = [c[0] for c in builds.calls]
    assert order == [5000, Ruleset().target, 5010, 5020]
    assert chance.chance(keys[3])["status"] == "computing"  # asked again: now queued
    _wait(chance.idle)
    assert builds.calls[-1][0] == 5030
    assert chance.table(keys[3])[1] == "ready"


def test_stand_in_table_is_read_and_labelled(tmp_path, monkeypatch):
    """A real (small) table read through a stand-in: ``greedy`` mapped to the test's bot here,
    the view's chance says whose table it is and for which bot."""
    Q.equity_table(None, [BOT, BOT], cache=tmp_path, **SMALL)
    monkeypatch.setitem(C.STAND_INS, "greedy", BOT)
    chance = GameChance(cache=tmp_path, **SMALL)
    from canasta.web.table import Table

    t = Table(seed=4, mode="game", partner=BOT, opponents="greedy")
    t.chance = chance
    ch = t.view()["chance"]
    assert ch["status"] == "ready", ch
    assert ch["policies"] == [BOT, BOT]
    assert ch["stand_in"]["for"] == ["greedy"]
    assert f"read from {BOT}'s table, standing in for greedy" in ch["text"]
    own = Table(seed=4, mode="game", partner=BOT, opponents=BOT)
    own.chance = chance
    assert "stand_in" not in own.view()["chance"]


def test_the_default_table_is_the_server_default_bots_else_the_strongest_fast():
    """The default table is the server's default bot against itself under the default ruleset
    (a search bot through its stand-in); without one, the strongest fast policy's."""
    from sim.policies import strongest_fast

    key = GameChance._key_of
    assert GameChance(**SMALL)._default_key() == key(Ruleset(), [strongest_fast()] * 2)
    chance = GameChance(default_bot="strong", **SMALL)
    assert chance._default_key() == key(Ruleset(), ["strong", "strong"])
    assert chance._default_key() == chance._key(_table())
    searched = GameChance(default_bot="expert_strong_v2", **SMALL)
    assert searched._default_key() == key(Ruleset(), ["strong_v2", "strong_v2"])
