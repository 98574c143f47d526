"""``canasta play``: a readable transcript of one hand (TURN-1 draws, melds, discards; END-1)."""

import json

from canasta import main
from sim.play import Hand as Game


def test_play_prints_transcript_and_itemised_score(capsys, tmp_path):
    record = tmp_path / "hand.json"
    code = main(["play", "--seed", "3", "--policies", "heuristic,greedy", "--record", str(record)])
    out = capsys.readouterr().out
    assert code == 0
    assert "team 0 (seats 0, 2) heuristic" in out and "draws" in out and "discard" in out
    assert "-- hand over:" in out and "(END-1)" in out
    for item in ("canasta_bonus", "threes", "cards_in_hand", "total"):
        assert item in out
    g = Game.replay(json.loads(record.read_text()))  # the record replays to the same hand
    assert g.is_over and f"{g.scores()[0]['total']:>8}" in out


def test_play_policy_parameters_and_bad_input(capsys):
    assert main(["play", "--seed", "1", "--policies", "heuristic:sevens_threshold=8,random"]) == 0
    capsys.readouterr()
    assert main(["play", "--policies", "nope,random"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("canasta: error: unknown policy 'nope'")
    assert main(["play", "--policies", "heuristic:pile_min=-2"]) == 2
