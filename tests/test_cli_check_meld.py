"""`canasta check-meld`: exit 0 legal, 1 illegal naming the rule, 2 bad input (one line)."""

import pytest

from canasta import main


@pytest.mark.parametrize(
    ("cards", "code", "rule"),
    [
        ("7H 7S 7D", 0, None),
        ("KH KS KD 2C", 1, "MELD-5"),  # after the opening a new mixed meld breaks the rule of five
        ("--initial KH KS 2C", 0, None),
        ("--initial KH 2S 2C", 1, "MELD-4"),
        ("--initial KH KS KD 2S 2C JK", 1, "MELD-4"),
        ("KH KS KD KC KH KS KD KC", 1, "MELD-2"),
        ("7H 7S 2D", 1, "MELD-6"),
        ("--initial 7H 7S 7C 2D", 1, "MELD-6"),
        ("AH AS AC 2D", 1, "MELD-7"),
        ("--initial AH AS 2D", 0, None),
        ("KH QS QD", 1, "MELD-1"),
        ("5H 6H 7H", 1, "MELD-1"),  # runs are never melds
        ("KH KS", 1, "MELD-1"),
        ("2H 2S JK", 0, None),  # MELD-8 a wild meld
        ("5H 5S 3H", 1, "DEAL-4"),
        ("--initial KH KS KD KC KH 2C 2D", 1, "OPEN-4"),  # a mixed canasta in the opening
        ("--initial AS AH AD AC AS 2C JK", 1, "OPEN-4"),  # aces may take wilds, not to seven
        ("--initial KH KS KD KC KH KS KD", 0, None),  # a natural canasta may be completed
        ("KH KS KD KC KH 2C 2D", 0, None),  # after the opening OPEN-4 is no bar
    ],
)
def test_check_meld_exit_codes_and_rules(cards, code, rule, capsys):
    """MELD-1, MELD-2, MELD-4..8, OPEN-4 (one meld of the opening) and DEAL-4 through the
    command line."""
    assert main(["check-meld", *cards.split()]) == code
    out = capsys.readouterr().out
    if rule:
        assert out.startswith("illegal:") and f"{rule}:" in out
    else:
        assert out.startswith("legal:")


@pytest.mark.parametrize(
    ("cards", "needle"),
    [("XX 5S", "'XX'"), ("5H 5H 5H", "CARD-1"), ("10Z 5S 5D", "'10Z'")],
)
def test_check_meld_bad_input_is_one_line_exit_2(cards, needle, capsys):
    assert main(["check-meld", *cards.split()]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err


def test_check_meld_rules_file_variant(tmp_path, capsys):
    """MELD-4 variant max_wilds_mixed from a ruleset file."""
    f = tmp_path / "classic.toml"
    f.write_text("max_wilds_mixed = 3\n")
    assert (
        main(["check-meld", "--initial", "--rules", str(f), "KH", "KS", "KD", "2S", "2C", "JK"])
        == 0
    )
    bad = tmp_path / "bad.toml"
    bad.write_text("max_wild = 3\n")
    assert main(["check-meld", "--rules", str(bad), "KH", "KS", "KD"]) == 2
    assert "max_wild" in capsys.readouterr().err


def test_help_and_usage_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["check-meld"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


@pytest.mark.parametrize(
    ("rules", "cards", "code", "needle"),
    [
        ("cla", "KH KS QH QS JH JS JD 9H 9S 9D 8H 8S 8D 8C", 0, "zip_code (SPECIAL-8"),
        (None, "KH KS QH QS JH JS JD 9H 9S 9D 8H 8S 8D 8C", 1, "SPECIAL-6"),  # tournament
        ("cla", "KH KS QH QS JH JS 10H 10S 9H 9S 8H 8S 6D 6C", 0, "pairs (SPECIAL-8"),
        ("cla", "KH KS QH QS JH JS JD 9H 9S 9D 8H 8S 8D 7C", 1, "SPECIAL-8:"),  # cla's rule
        ("cla", "KH KS QH QS JH JS 10H 10S 9H 9S 8H 8S 6D 3C", 1, "SPECIAL-2"),
        ("none", "KH KS QH QS JH JS 10H 10S 9H 9S 8H 8S 6D 6C", 1, "SPECIAL-7"),
    ],
)
def test_special_1_8_check_meld_judges_14_cards_as_a_declaration(
    rules, cards, code, needle, capsys
):
    """SPECIAL-1/2/7/8/9 through check-meld: fourteen cards are a special hand declared under
    the list in force (--rules cla: a Zip Code, Pairs; refusals name their rule, the CLA
    list's own SPECIAL-8 for cards forming none of its hands)."""
    argv = ["check-meld", *cards.split(), *(["--rules", rules] if rules else [])]
    assert main(argv) == code
    out = capsys.readouterr().out
    assert needle in out and len(out.strip().splitlines()) == 1
    if code == 0:
        assert "2,500 (SCORE-8)" in out


def test_special_8_play_declares_a_cla_hand_under_rules_cla(capsys):
    """SPECIAL-8, SCORE-8 through canasta play --rules cla: special_chaser declares a Zip Code
    in hand 62 of seed 32 (found by simulation), scored 2,500; the transcript names the
    ruleset; under the tournament list the same deal declares nothing."""
    argv = ["play", "--seed", "32", "--hand", "62", "--policies", "special_chaser,special_chaser"]
    assert main([*argv, "--rules", "cla"]) == 0
    out = capsys.readouterr().out
    assert "ruleset: cla" in out.splitlines()[0]
    assert "declared a special hand: zip_code" in out
    assert any(line.split()[:2] == ["special_hand", "2500"] for line in out.splitlines())
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "declared a special hand" not in out and "ruleset: special hands tournament" in out
