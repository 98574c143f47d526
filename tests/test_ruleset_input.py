"""A ruleset file's text as a user or an attacker may write it: every fault is one line naming
the key, exit 2 on the command line, never a traceback (SPECIAL-9, SPECIAL-7; the one reader
of ruleset TOML is ``sim.ruleset.parse_toml``).

- thousands of nested arrays or inline tables: refused before parsing (``MAX_TOML_DEPTH``) in
  ``rules``, ``check-meld``, ``simulate``, ``odds`` and ``equity`` alike;
- hand names (and the ruleset's name) with a newline, NUL, right-to-left override or more than
  ``MAX_NAME`` characters: refused, naming the key;
- ``rank = 10`` (an integer): refused, a rank is a card's name in quotes;
- huge numbers and long values: quoted cut short in the message, never whole.
"""

from __future__ import annotations

import pytest

from canasta import main
from sim.catalogue import MAX_NAME
from sim.errors import CanastaError
from sim.ruleset import MAX_TOML_DEPTH, Ruleset

#: a Pairs hand of a club's list, its name to be replaced
PAIRS = 'name = "{name}"\naward = 2500\ngroups = [' + ", ".join(["{{size = 2}}"] * 7) + "]\n"

#: the commands that read a ruleset file, each with its other arguments
COMMANDS = {
    "rules": ["rules", "{file}"],
    "check-meld": ["check-meld", "KS KH KD", "--rules", "{file}"],
    "simulate": ["simulate", "-n", "10", "--rules", "{file}", "--quiet"],
    "odds": ["odds", "--rules", "{file}"],
    "equity": ["equity", "--scores", "0,0", "--rules", "{file}"],
}


def _run(command: str, path, capsys) -> tuple[int, str]:
    argv = [a.replace("{file}", str(path)) for a in COMMANDS[command]]
    code = main(argv)
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        "special_hands = " + "[" * 5000 + "]" * 5000,
        "x = " + "{a = " * 3000 + "1" + "}" * 3000,
    ],
    ids=["arrays", "inline-tables"],
)
@pytest.mark.parametrize("command", list(COMMANDS))
def test_special_9_a_deeply_nested_file_is_one_line_exit_2(command, text, tmp_path, capsys):
    path = tmp_path / "deep.toml"
    path.write_text(text)
    code, err = _run(command, path, capsys)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err and "RecursionError" not in err
    assert f"nests deeper than {MAX_TOML_DEPTH} levels" in err and str(path) in err


def test_special_9_the_shipped_files_are_within_the_nesting_bound():
    from sim.ruleset import shipped_rulesets

    for name, path in shipped_rulesets().items():
        assert Ruleset.from_toml(path) is not None, name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("pairs\\nforged line", "U+000A"),
        ("pairs\\u0000", "U+0000"),
        ("pairs\\u202Esriap", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("p" * 5000, "a name of 5,000 characters; at most 60"),
        ("p" * (MAX_NAME + 1), f"a name of {MAX_NAME + 1} characters"),
    ],
    ids=["newline", "nul", "bidi", "5000", "61"],
)
def test_special_9_hand_names_are_one_short_line_of_text(name, why, tmp_path, capsys):
    path = tmp_path / "club.toml"
    path.write_text("[[special_hands]]\n" + PAIRS.format(name=name))
    code, err = _run("rules", path, capsys)
    assert code == 2 and err.count("\n") == 1
    assert "special_hands[0].name" in err and why in err
    assert len(err) < 300  # the 5,000-character name is not echoed


def test_special_9_a_name_of_60_printable_characters_is_accepted():
    name = "Dream Hand – " + "é" * (MAX_NAME - 13)
    hand = {"name": name, "award": 100, "groups": [{"size": 2}] * 7}
    rs = Ruleset.from_dict({"special_hands": [hand], "name": "Club 🂡"})
    assert rs.catalogue[0].name == name and rs.label == "Club 🂡"


def test_special_7_the_ruleset_name_is_bounded_too():
    with pytest.raises(CanastaError, match=r"ruleset key 'name': character 6 is U\+202E"):
        Ruleset.from_dict({"name": "club \u202e"})
    with pytest.raises(CanastaError, match="ruleset key 'name': a name of 61 characters"):
        Ruleset.from_dict({"name": "c" * 61})


@pytest.mark.parametrize("rank", ["10", "4"])
def test_special_9_an_integer_rank_is_refused_naming_the_key(rank, tmp_path, capsys):
    groups = ", ".join([f"{{size = 2, rank = {rank}}}"] + ["{size = 2}"] * 6)
    path = tmp_path / "club.toml"
    path.write_text(f'[[special_hands]]\nname = "p"\naward = 2500\ngroups = [{groups}]\n')
    code, err = _run("rules", path, capsys)
    assert code == 2 and err.count("\n") == 1
    assert "special_hands[0] (p).groups[0].rank" in err and 'such as "10"' in err
    path.write_text(path.read_text().replace(f"rank = {rank}", f'rank = "{rank}"'))
    assert main(["rules", str(path)]) == 0  # the same rank in quotes is read


@pytest.mark.parametrize("digits", [4000, 4400])
def test_special_9_a_huge_number_is_not_echoed_whole(digits, tmp_path, capsys):
    """A 4,000-digit award or target, or one past Python's 4,300-digit limit: one short line
    naming the key (or the file), the number described, not printed."""
    big = "9" * digits
    path = tmp_path / "big.toml"
    for text, key in [
        (f"target = {big}\n", "target"),
        ("[[special_hands]]\n" + PAIRS.format(name="p").replace("2500", big), "award"),
    ]:
        path.write_text(text)
        code, err = _run("rules", path, capsys)
        assert code == 2 and err.count("\n") == 1 and len(err) < 300, err[:300]
        assert key in err and "9999999999" not in err


@pytest.mark.parametrize("command", ["simulate", "play", "equity"])
def test_open_1_a_huge_score_is_not_echoed_whole(command, capsys):
    argv = {"simulate": ["simulate", "--games", "1"], "play": ["play"], "equity": ["equity"]}
    for digits in (4000, 4400):
        assert main([*argv[command], "--scores", "1" * digits + ",0"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--scores" in err and len(err) < 300
