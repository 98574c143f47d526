"""Every ``--scores`` of the command line takes a negative score written as a player types it
(``--scores -1500,6500``), and its help says the form (OPEN-1, GAME-1: team scores)."""

from __future__ import annotations

import pytest

from canasta import build_parser, main

#: each command with a --scores flag, with the other arguments it needs to parse
COMMANDS = [
    ["equity"],
    ["simulate", "--games", "2"],
    ["experiment", "file.toml"],
    ["play"],
    ["whatif", "--hand", "KS KH"],
    ["advise", "--hand", "KS KH"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("value", ["-1500,6500", "-1500,-20", "6500,-1500"])
def test_open_1_negative_scores_parse_as_a_value(command, value):
    args = build_parser().parse_args([*command, "--scores", value])
    assert args.scores == value


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_open_1_scores_help_says_the_form(command, capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args([command[0], "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--scores -1500,6500" in text


def test_open_1_negative_score_reaches_the_range_check(capsys):
    # parsed as a value, then checked as a score: the error names --scores and the range
    code = main(["equity", "--scores", "-1500,-99999999999", "--seed", "0"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "--scores[1] -99999999999" in err
    assert "expected one argument" not in err


def test_open_1_play_from_a_negative_score(capsys):
    # OPEN-1: team 0 at -1,500 plays to the 125 minimum; the hand is played through
    assert main(["play", "--scores", "-1500,6500", "--seed", "3"]) == 0
    assert "total" in capsys.readouterr().out
