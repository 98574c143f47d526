"""The review at the terminal seat (``canasta play --human``): printed as ``canasta review``
prints it at the end of each hand and, with ``--game``, of the game (the seat's one review,
``canasta._seat_review.review_hand``, kept per hand so the game's is its hands' combined); asked for
in a terminal, never in a pipe unless ``--review``. Tiny budgets: the tests check what is
printed and when, never a strategy's value."""

from __future__ import annotations

import io
import json
import re
import sys

import canasta._seat_review as S
from canasta import main
from canasta._human import Session
from sim.game import GameDriver

AUTO = "auto\n" * 3000  # more decisions than the short game holds: the rest is never read


def _session(monkeypatch, **kw):
    lines: list[str] = []
    calls: list[int] = []
    real = S.review_hand

    def counted(hand, seat, number, **kw):
        calls.append(number)
        return real(hand, seat, number, **{**kw, "n": 4})

    monkeypatch.setattr(S, "review_hand", counted)
    policies = ["you", "heuristic", "heuristic", "heuristic"]
    driver = GameDriver(seed=4, rules={"target": 2500})  # two hands of the heuristic bots
    s = Session(None, 0, policies, out=lines.append, driver=driver, review_budget=0.01, **kw)
    return s, lines, calls


def test_a_game_at_the_terminal_reviews_each_hand_and_the_game(monkeypatch):
    """--game --review: each hand's review after its score, then the game's from the hands'
    kept reviews (no hand reviewed twice); the game's decisions are the hands' together."""
    s, lines, calls = _session(monkeypatch, review=True)
    assert s.run(iter(AUTO.splitlines())) == 0
    text = "\n".join(lines)
    assert "--- hand 2:" in text and "the game is over (GAME-1)" in text
    assert text.count("review of your hand ") == 2 and "review of your game" in text
    assert calls == [1, 2]  # the game's review reused both hands'
    per_seat = [int(m) for m in re.findall(r"^P0: (\d+) decisions", text, re.M)]
    assert len(per_seat) == 3 and per_seat[2] == per_seat[0] + per_seat[1]
    assert text.index("review of your hand 1") > text.index("score of the hand")
    assert "costs in points only" in text  # no equity table is cached for heuristic's games


def test_the_review_is_asked_for_and_can_be_declined(monkeypatch):
    """In a terminal the player is asked at each hand's end and the game's; no: none."""
    asked: list[str] = []
    s, lines, calls = _session(monkeypatch, ask=lambda q: asked.append(q) or False)
    s.run(iter(AUTO.splitlines()))
    assert asked == ["review this hand? [y/N] "] * 2 + ["review the game? [y/N] "]
    assert calls == [] and not any(line.startswith("review of") for line in lines)


def test_play_human_review_in_a_pipe(monkeypatch, capsys):
    """``canasta play --human --review`` from a pipe: the hand, then its review table."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(AUTO))
    assert main(["play", "--human", "--review", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "review of your hand 1 under" in out
    assert re.search(r"^P0: \d+ decisions, error rate", out, re.M)
    assert "#" in out.split("review of your hand 1", 1)[1]  # the decisions' rows


def test_play_human_game_writes_the_games_record(monkeypatch, capsys, tmp_path):
    """``--human --game --record``: every hand of the game in one game record."""
    from sim.record import replay

    monkeypatch.setattr(sys, "stdin", io.StringIO(AUTO))
    path = tmp_path / "game.json"
    argv = ["play", "--human", "--game", "--seed", "4", "--record", str(path)]
    rules = tmp_path / "short.toml"
    rules.write_text("target = 2500\n")
    assert main([*argv, "--rules", str(rules)]) == 0
    out = capsys.readouterr().out
    hands = replay(str(path))
    assert len(hands) == 2 and "--- hand 2:" in out and "the game is over" in out
    assert json.loads(path.read_text())["kind"] == "game"


def test_game_and_review_need_human(capsys):
    assert main(["play", "--game"]) == 2
    assert "--human" in capsys.readouterr().err
