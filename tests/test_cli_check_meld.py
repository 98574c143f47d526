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
