"""The hand record (sim/record.py, docs/record.md): sim.Game -> JSON -> replay gives
the same scores; canasta play --record writes it, canasta replay prints it, canasta advise
--record FILE --decision N opens a decision; a hand-typed record is checked action by action,
naming the rule where it breaks (TURN-1, DISCARD-1, PILE-1, GAME-1, SCORE-1, END-1)."""

from __future__ import annotations

import json

import pytest

from canasta import main
from sim import encoding as E
from sim.play import Hand as Game
from sim.play import describe_action
from sim.play import record as R


def _hand(seed=5, hand_id=2, policies=("heuristic", "heuristic")):
    g = Game(seed=seed, hand_id=hand_id)
    g.play(list(policies))
    return g


def _game(seed: int, hands: int) -> list:
    """The first ``hands`` hands of a game of heuristic play, each starting from the totals
    the hands before it left (GAME-1)."""
    totals, games = (0, 0), []
    for k in range(hands):
        g = R.game_hand(seed, 0, k, totals)
        g.play(["heuristic", "heuristic"])
        items = g.score_items()
        totals = tuple(int(totals[t] + items[t].sum()) for t in range(2))
        games.append(g)
    return games


def test_round_trip_same_scores_and_seats():
    g = _hand()
    text = R.dumps(R.from_games([g], players=["a", "b", "c", "d"]))
    rec = json.loads(text)
    assert rec["format"] == R.FORMAT and rec["version"] == R.VERSION and rec["kind"] == "hand"
    (again,) = R.replay(text)
    assert again.scores() == g.scores()
    assert again.actions == g.actions
    seats = [a["seat"] for a in rec["hands"][0]["actions"]]
    assert seats == R.seats_of(g) and seats[0] == g.first_player
    assert rec["hands"][0]["result"]["scores"]["0"]["total"] == g.scores()[0]["total"]
    # Game.replay reads the first hand of this format, and sim.record reads Game.record()
    assert Game.replay(text).scores() == g.scores()
    assert R.replay(g.record())[0].scores() == g.scores()


def test_game_record_chains_scores():
    games = _game(11, 3)
    rec = R.from_games(games)
    assert rec["kind"] == "game" and rec["target"] == 8500
    back = R.replay(R.dumps(rec))
    assert [b.scores() for b in back] == [g.scores() for g in games]
    rec["hands"][1]["scores"] = [0, 0]
    with pytest.raises(R.RecordError, match="GAME-1") as e:
        R.replay(rec)
    assert e.value.rule == "GAME-1"


def test_every_move_text_parses_to_its_action():
    for a in range(E.N_ACTIONS):
        assert R.parse_move(describe_action(a)) == a
    assert describe_action(R.parse_move("meld K K 2")) == "meld K: 2xK 1x2"
    assert describe_action(R.parse_move("meld K: 2")) == "meld K: 1x2"
    assert R.parse_move("discard 7H") == E.A_DISCARD + E.SEVEN
    with pytest.raises(R.RecordError, match="MELD-1"):
        R.parse_move("meld K Q 2")
    with pytest.raises(R.RecordError, match="bad move"):
        R.parse_move("shuffle")


def _typed(g, n):
    """The first n actions of g as a hand-typed record: move texts, deck as card tokens."""
    from sim.cards import format_card

    return {
        "format": R.FORMAT,
        "version": 1,
        "ruleset": {},
        "hands": [
            {
                "first_player": g.first_player,
                "deck": [format_card(c) for c in g.deck.tolist()],
                "actions": [describe_action(a) for a in g.actions[:n]],
            }
        ],
    }


def test_typed_record_replays_and_breaks_with_the_rule():
    g = _hand()
    rec = _typed(g, len(g.actions))
    # tokens pick the first free copy: the deck may differ in which pack, never in kinds
    (back,) = R.replay(rec)
    assert back.scores() == g.scores()
    # a wrong seat: TURN-1
    bad = _typed(g, 4)
    bad["hands"][0]["actions"][3] = {"seat": (R.seats_of(g)[3] + 1) % 4, "move": "draw"}
    with pytest.raises(R.RecordError, match=r"hand 1, action 4 .*TURN-1") as e:
        R.replay(bad)
    assert e.value.rule == "TURN-1"
    # the first discard of a held card that a rule refuses (DISCARD-2/3 ...): named with
    # its explain() sentence
    h, found = Game(seed=g.seed, hand_id=g.hand_id, deck=g.deck.tolist()), None
    for i, a in enumerate(g.actions):
        if h.phase == "play" and found is None:
            hand = h.view().hand
            for k in range(E.N_KINDS):
                code = h.reason(E.A_DISCARD + k)
                if hand[k] and E.reason_rule(code):
                    found = (i, k, code)
                    break
        h.apply(a)
    assert found is not None
    i, k, code = found
    bad = _typed(g, i + 1)
    bad["hands"][0]["actions"][i] = f"discard {E.KIND_NAMES[k]}"
    with pytest.raises(R.RecordError) as e:
        R.replay(bad)
    assert f"hand 1, action {i + 1} " in str(e.value)
    assert e.value.rule == E.reason_rule(code) and E.explain(code) in str(e.value)
    # the pile taken at the first turn, when it is empty: PILE-2
    j = next(i for i, a in enumerate(g.actions) if a == E.A_DRAW)
    bad = _typed(g, j + 1)
    bad["hands"][0]["actions"][j] = "pile"
    with pytest.raises(R.RecordError, match="PILE-2"):
        R.replay(bad)


def test_result_checked_and_hand_over():
    g = _hand()
    rec = R.from_games([g])
    rec["hands"][0]["result"]["scores"]["0"]["total"] += 5
    with pytest.raises(R.RecordError, match="SCORE-1"):
        R.replay(rec)
    rec = R.from_games([g])
    rec["hands"][0]["actions"].append("draw")
    with pytest.raises(R.RecordError, match="END-1"):
        R.replay(rec)


@pytest.mark.parametrize(
    "text, msg",
    [
        ("{nope", "not JSON"),
        ('{"format": "x"}', "format"),
        ('{"format": "canasta-sim record", "version": 9, "hands": [{}]}', "version 9"),
        ('{"format": "canasta-sim record", "version": 1, "hands": []}', "hands"),
        (
            '{"format": "canasta-sim record", "version": 1, "hands": [{"actions": []}]}',
            "no deck",
        ),
    ],
)
def test_bad_records_one_line(text, msg):
    with pytest.raises(R.RecordError, match=msg) as e:
        R.replay(text)
    assert "\n" not in str(e.value)


def test_running_hand_hides_its_deck():
    g = Game(seed=3)
    for _ in range(5):
        g.apply(g.legal_actions()[0])
    rec = R.from_games([g], hide_running_deck=True)
    assert rec["hands"][0]["deck"] is None and "result" not in rec["hands"][0]


def test_cli_play_record_replay(tmp_path, capsys):
    path = tmp_path / "h.json"
    assert main(["play", "--seed", "4", "--record", str(path)]) == 0
    capsys.readouterr()
    rec = json.loads(path.read_text())
    assert rec["format"] == R.FORMAT and rec["players"] == ["heuristic"] * 4
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    n = len(rec["hands"][0]["actions"])
    assert f"  #{n} P" in out and f"#{n + 1} " not in out
    total = rec["hands"][0]["result"]["scores"]["0"]["total"]
    assert "total" in out and str(total) in out
    # a broken record: one line naming the rule, exit 2
    rec["hands"][0]["actions"][2] = {"seat": 3, "move": "draw"}
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "TURN-1" in err


def test_cli_advise_record_decision(tmp_path, capsys):
    path = tmp_path / "h.json"
    assert main(["play", "--seed", "4", "--record", str(path)]) == 0
    capsys.readouterr()
    rec = json.loads(path.read_text())
    moves = [a["move"] for a in rec["hands"][0]["actions"]]
    n = moves.index("draw from the stock") + 1
    assert main(["advise", "--record", str(path), "--decision", str(n), "-n", "8"]) == 0
    out = capsys.readouterr().out
    assert f"decision #{n}" in out and "draw decision at seat" in out and "1. " in out
    assert main(["advise", "--record", str(path), "--decision", str(len(moves) + 1)]) == 2
    assert "the record has moves" in capsys.readouterr().err


def test_decision_numbers_run_over_a_game(tmp_path):
    """--decision N counts the moves of the whole record (canasta replay's numbers): a
    number past hand 1 opens hand 2, as its seat saw it."""
    from canasta.advise import record_position

    games = _game(3, 2)
    path = tmp_path / "game.json"
    path.write_text(R.dumps(R.from_games(games)))
    n1 = len(games[0].actions)
    h2 = games[1]
    i = next(i for i, a in enumerate(h2.actions) if a == E.A_DRAW)
    pos, drawn, rules, what = record_position(str(path), n1 + i + 1)
    assert drawn is None and f"#{n1 + i + 1}" in what and "draw from the stock" in what
    assert rules == h2.ruleset
    assert pos.seat == R.seats_of(h2)[i] and tuple(pos.scores) == h2.start_scores != (0, 0)
