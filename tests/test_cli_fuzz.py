"""Bad input on every command: exit 2, exactly one line on stderr, never a traceback.

The commands are discovered from the parser (``canasta.build_parser``), so a new command is
fuzzed as soon as it exists: every integer or number flag gets huge, negative, empty and
wrongly typed values; every positional argument an empty, an unknown and a huge value and a
missing file; string flags with a known meaning (policies, rulesets, cards, scores, files...)
get malformed values of their kind. A bad value must be refused before any work starts, so
each case is quick; a handful also run as a real process to prove no traceback escapes there.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from canasta import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
HUGE = "9" * 25  # beyond int64
NEG_HUGE = "-" + HUGE
HAND = "7H 7S 7D 7C KS KD 9H 8C 6S 5D 4H 4C QS"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("the canasta parser has no sub-commands")


COMMANDS = _subparsers(build_parser())

# the smallest valid arguments of each known command; a bad value replaces one of them (or is
# added). A command not listed here (a new one) is fuzzed with its positionals and number flags.
BASE = {
    "play": [],
    "simulate": ["-n", "5", "--quiet"],
    "compare": ["random", "random", "-n", "2"],
    "whatif": ["--hand", HAND, "--compare", "policy", "-n", "2"],
    "odds": ["-n", "10", "--quiet"],
    "report": ["--out", "{tmp}/r.html", "--hands", "2", "--deals", "0", "--quiet"],
    "check-meld": ["7H", "7S", "7D"],
    "score": ["{tmp}/missing-hand.json"],
    "advise": ["--hand", HAND, "--turn", "4", "-n", "2", "--jobs", "1"],
}

# malformed values for string flags and positionals, by argparse dest
POLICIES = [
    "nosuch,random",
    "",
    ",",
    "random,random,random",
    "heuristic:nosuch=1",
    "heuristic:sevens_threshold=-1",
    "heuristic:sevens_threshold=abc",
    "heuristic:sevens_threshold",
    "heuristic:sevens_threshold=1e300",  # beyond a policy parameter's limit
    "expert:samples=99999999999999999999",
]
RULES = [
    "{tmp}/missing.toml",
    "{tmp}",  # a directory
    "{rules_bad_toml}",
    "{rules_unknown_key}",
    "{rules_huge}",
    "{rules_wrong_type}",
    "{rules_not_utf8}",
    "",
]
CARDS = ["", "ZZ", "7H 7H 7H", HUGE, "10", "JKX"]
STRING_VALUES = {
    "policies": POLICIES,
    "policy_a": ["", "nosuch", HUGE, "heuristic:nosuch=1"],
    "policy_b": ["", "nosuch", HUGE],
    "rules": RULES,
    "scores": [f"{HUGE},0", f"0,{NEG_HUGE}", "a,b", "1", "1,2,3", "", ","],
    "record": ["{tmp}/no/such/dir/r.json", "{tmp}"],
    "out": ["{tmp}/no/such/dir/r.html", "{tmp}"],  # report's --out (simulate's: see below)
    "figures": ["{tmp}/a-file"],
    "from_dirs": ["{tmp}/missing-run", "{tmp}/a-file", "{tmp}/empty-dir"],
    "hand": CARDS,
    "compare": ["nosuch", ",", ""],
    "meld": ["2:7H 7S 7D", "0:", "0:ZZ", "x", "0:7H 7S", "1:7H 7S 7D 3H"],
    "pile_top": ["ZZ", "", "7H 7S"],
    "pile": ["ZZ", "3H 3D"],
    "hand_sizes": ["1,2,3", "a,b,c,d", f"{HUGE},13,13,13", "-1,13,13,13", ""],
    "scheduler": ["tcp://127.0.0.1:1"],  # without --backend dask
    "cards": ["", " ", ",", "ZZ", HUGE, "7X"],
    "drawn": ["", "ZZ", "7H 7S", "3H", HUGE],
    "load": ["", "no_such_module_xyz", "{tmp}/missing.py", "{tmp}", "{tmp}/a-file"],
    "hand_file": ["", "{tmp}/missing.json", "{tmp}", "{hand_not_json}", "{hand_impossible}"],
}
# per command where a dest means something else
STRING_VALUES_BY_COMMAND = {
    ("simulate", "out"): ["{tmp}/a-file", "{tmp}/a-file/below"],
}
POSITIONAL_VALUES = ["", "nosuch", HUGE, "{tmp}/missing-path"]
INT_VALUES = [HUGE, NEG_HUGE, "-5", "", "abc", "1.5"]
FLOAT_VALUES = [HUGE + "e999", "nan", "inf", "-1", "", "abc"]


def _option(action: argparse.Action) -> str:
    longs = [s for s in action.option_strings if s.startswith("--")]
    return (longs or action.option_strings)[0]


def _exclusive_with(parser: argparse.ArgumentParser, action: argparse.Action) -> set[str]:
    """Option strings that may not go with ``action`` (its mutually exclusive groups)."""
    out = set()
    for group in parser._mutually_exclusive_groups:
        if action in group._group_actions:
            for other in group._group_actions:
                if other is not action:
                    out.update(other.option_strings)
    return out


def _without(base: list[str], parser, action) -> list[str]:
    """``base`` without the flag ``action`` sets and without flags exclusive with it."""
    drop = set(action.option_strings) | _exclusive_with(parser, action)
    out, i = [], 0
    while i < len(base):
        if base[i] in drop:
            i += 2
            continue
        out.append(base[i])
        i += 1
    return out


def _cases():
    cases = []
    for name, sub in sorted(COMMANDS.items()):
        base = BASE.get(name, [])
        cases.append((name, [name, "--no-such-flag"], "unknown flag"))
        positionals = [a for a in sub._actions if not a.option_strings]
        for action in sub._actions:
            if not action.option_strings or action.nargs == 0 or action.help == "==SUPPRESS==":
                continue
            opt = _option(action)
            if action.choices is not None:
                values = ["nosuch", ""]
            elif action.type is int:
                values = INT_VALUES
            elif action.type is float:
                values = FLOAT_VALUES
            else:
                key = (name, action.dest)
                values = STRING_VALUES_BY_COMMAND.get(key, STRING_VALUES.get(action.dest, []))
            for v in values:
                argv = [name, *_without(base, sub, action), opt, v]
                cases.append((name, argv, f"{opt} {v!r}"))
        for k, action in enumerate(positionals):
            values = STRING_VALUES.get(action.dest, POSITIONAL_VALUES)
            for v in values:
                if name in BASE:
                    argv = [name, *_replace_positional(base, sub, k, v)]
                else:
                    argv = [
                        name,
                        *(v if j == k else "{tmp}/missing-path" for j in range(len(positionals))),
                    ]
                cases.append((name, argv, f"{action.dest} {v!r}"))
    return cases


def _replace_positional(base: list[str], sub, k: int, value: str) -> list[str]:
    """``base`` with its k-th positional value replaced (positionals come first in BASE)."""
    positionals = [a for a in sub._actions if not a.option_strings]
    if positionals[k].nargs in ("+", "*"):  # check-meld's cards: one bad card among good ones
        return [value, *base[1:]] if value else [*base[:1], value]
    out = list(base)
    out[k] = value
    return out


CASES = _cases()


@pytest.fixture
def files(tmp_path):
    """The placeholders of the cases: files of each bad kind under tmp_path."""
    (tmp_path / "a-file").write_text("not a directory\n")
    (tmp_path / "empty-dir").mkdir()
    bad = {
        "rules_bad_toml": "max_wilds_mixed = [\n",
        "rules_unknown_key": "no_such_rule = 1\n",
        "rules_huge": f"target = {HUGE[:18]}\n",  # within TOML's int64, beyond any score
        "rules_wrong_type": 'max_wilds_mixed = "two"\n',
        "hand_not_json": '{"teams": [',
        # both teams with nothing: no player went out, nobody holds a card (OUT-2, END-1)
        "hand_impossible": (
            '{"teams": [{"melds": [], "threes": [], "hands": [[], []], "went_out": false},'
            ' {"melds": [], "threes": [], "hands": [[], []], "went_out": false}]}'
        ),
    }
    out = {"tmp": str(tmp_path)}
    for key, text in bad.items():
        path = tmp_path / f"{key}.txt"
        path.write_text(text)
        out[key] = str(path)
    path = tmp_path / "rules_not_utf8.toml"
    path.write_bytes(b"target = \xff\xfe\n")
    out["rules_not_utf8"] = str(path)
    return out


def _fill(argv: list[str], files: dict[str, str]) -> list[str]:
    out = []
    for a in argv:
        for key, value in files.items():
            a = a.replace("{" + key + "}", value)
        out.append(a)
    return out


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_every_command_is_fuzzed():
    """The fuzz covers each command the parser has (a new command is picked up by itself),
    with more than a usage error for every one."""
    assert set(COMMANDS) >= set(BASE)
    for name in COMMANDS:
        assert sum(1 for c in CASES if c[0] == name) >= 3, name


@pytest.mark.parametrize(("command", "argv", "what"), CASES, ids=[c[2] for c in CASES])
def test_bad_input_is_one_line_exit_2(command, argv, what, files, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # a command that wrongly accepted a value writes nothing here
    code, out, err = _run(_fill(argv, files), capsys)
    assert code == 2, f"{argv}: exit {code}\n{out}{err}"
    assert err.startswith("canasta"), err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err and "error" in err, err
    assert out == "", out  # refused before any work


def test_valid_base_arguments_are_accepted(capsys, tmp_path):
    """The fuzz's base arguments are valid (so each case fails for its one bad value): one
    quick command with them succeeds."""
    code, out, err = _run(["check-meld", *BASE["check-meld"]], capsys)
    assert code == 0 and out.startswith("legal"), err


# ---------------------------------------------------------------------------------------
# The issue's examples, named, and a few through a real process
# ---------------------------------------------------------------------------------------
ISSUE = [
    (["play", "--seed", "1", "--scores", "99999999999999999999999,0"], "--scores"),
    (["play", "--seed", "1", "--hand", "99999999999999999999"], "--hand"),
    (["simulate", "-n", "99999999999999999999999", "--quiet"], "10,000,000,000"),
    (["check-meld", ""], "empty card"),
    (["odds", "--rel-error", "1e-9", "--quiet"], "--max-deals"),
]


@pytest.mark.parametrize(("argv", "message"), ISSUE, ids=[" ".join(a) for a, _ in ISSUE])
def test_issue_examples_name_the_flag_and_limit(argv, message, capsys):
    code, out, err = _run(argv, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert message in err, err


@pytest.mark.parametrize(("argv", "message"), ISSUE[:4], ids=[" ".join(a) for a, _ in ISSUE[:4]])
def test_no_traceback_at_the_process_level(argv, message):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "canasta", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=ROOT,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr and message in proc.stderr, proc.stderr
