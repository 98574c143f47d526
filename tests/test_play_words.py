"""One owner of a move's words (``sim.play.words``): every format of an action (the
terminal's command, the record's text, the page's request, the web log) is made from one table,
``ACTION_WORDS``, and read back by the one grammar (``sim.play.moves``), so that
``parse(words(a)) == a`` for every legal action of real hands; and every face's text of an
action is the owner's (TURN-1, DEAL-4, DEAL-5, MELD-1, MELD-8, PILE-1, SPECIAL-1)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from canasta._human import HELP_TEXT
from canasta._seat import allowed_summary
from canasta.replay import numbered_moves
from canasta.web.moves import move_for, move_names
from sim import encoding as E
from sim.play import Hand, record
from sim.play.moves import move_from_json, parse_move
from sim.play.words import (
    ACTION_WORDS,
    action_words,
    allowed_line,
    command_help,
    command_words,
    describe_action,
    page_move,
    page_names,
)

ROOT = Path(__file__).resolve().parent.parent
#: hands that reach threes steps, the pile, melds, the wild meld and going out (fixed seeds)
SEEDS = (3, 7, 11, 19, 23)
POLICIES = ("heuristic", "strong")


def _real_positions():
    """(hand, legal actions) at every decision of a few real hands, each hand's legal actions
    at every step of the one turn loop."""
    for seed in SEEDS:
        h = Hand(seed=seed, hand_id=seed)
        for _ in h.turns(POLICIES):
            yield h, h.legal_actions()


@pytest.fixture(scope="module")
def legal_seen() -> set[int]:
    seen: set[int] = set()
    for _, legal in _real_positions():
        seen.update(legal)
    return seen


def test_every_legal_action_of_real_hands_reads_back_from_each_of_its_words(legal_seen):
    """TURN-1: the terminal's command, the record's text and the page's request of each legal
    action are one move of that one action (DEAL-5 keep, MELD-1/MELD-8 melds included)."""
    kinds = {int(E.ACTION_TABLE[a, E.AC_TYPE]) for a in legal_seen}
    assert {E.AT_DRAW, E.AT_TAKE_PILE, E.AT_MELD, E.AT_DISCARD} <= kinds  # real variety
    for a in sorted(legal_seen):
        for words in (command_words(a), describe_action(a)):
            assert parse_move(words).actions() == [a], words
        assert move_from_json(page_move(a)).actions() == [a], page_move(a)
        assert record.parse_move(describe_action(a)) == a


def test_every_action_id_reads_back_from_each_of_its_words():
    """The same round trip over the whole action table (threes steps and declaring too)."""
    for a in range(E.N_ACTIONS):
        assert parse_move(command_words(a)).actions() == [a], command_words(a)
        assert parse_move(describe_action(a)).actions() == [a], describe_action(a)
        assert move_from_json(page_move(a)).actions() == [a], page_move(a)


def test_the_table_words_every_kind_of_action_once():
    assert set(ACTION_WORDS) == set(range(len(E.ACTION_TYPE_NAMES)))
    assert action_words(E.A_KEEP_RED_THREE, "page") == "keep_red"  # the page's buttons
    assert command_words(E.A_KEEP_BLACK_THREE) == "keep 3b"
    assert describe_action(E.A_KEEP_RED_THREE).startswith("keep one 3r toward a Straight")


def test_the_faces_word_actions_through_the_owner():
    """The terminal's allowed moves and help, the page's requests and buttons, the web log,
    the record's moves: each is the owner's words of the same actions."""
    for h, legal in _real_positions():
        assert allowed_summary(h) == allowed_line(legal)
        assert move_names(h) == page_names(legal)
    for a in range(E.N_ACTIONS):
        assert move_for(a) == page_move(a)
    assert "\n".join(command_help()) in HELP_TEXT
    h = Hand(seed=7)
    h.play(POLICIES)
    entry = record.hand_entry(h)
    assert [m["move"] for m in entry["actions"]] == [describe_action(a) for a in h.actions]
    (moves,) = numbered_moves([h])  # canasta replay's list of moves
    assert [m.split(": ", 1)[1] for m in moves] == [describe_action(a) for a in h.actions]


#: string constants that word an action in one of the table's formats: the fixed texts of the
#: actions with no card and the page's names of the threes' buttons
_OWNED = (
    *(ACTION_WORDS[k].text for k in (E.AT_DRAW, E.AT_TAKE_PILE, E.AT_LAY_THREES, E.AT_DECLARE)),
    "toward a Straight, lay down",
    "keep_red",
    "keep_black",
)
#: where such words stand for something else: the decision experiments' arms (a choice of a
#: whole turn, not a move), the policies' descriptions of their parameters (prose) and the
#: grammar's messages listing the names it reads
LABEL_CHARS = 80  #: a string this long or shorter may be a label or a line of a face
_ELSEWHERE = ("sim/engine/intercept.py", "sim/policies/", "sim/play/moves.py", "sim/play/words.py")


def _constants(path: Path) -> list[str]:
    """The string constants of a module that are no docstring, nor prose (a help text or a
    description runs longer than a label: ``LABEL_CHARS``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and id(n) not in docs
        and len(n.value) <= LABEL_CHARS
    ]


def test_no_face_writes_an_action_s_words_itself():
    """No module of ``sim`` or ``canasta`` but the owner spells an action's words out."""
    found = []
    for pkg in ("sim", "canasta"):
        for f in sorted((ROOT / pkg).rglob("*.py")):
            rel = f.relative_to(ROOT).as_posix()
            if rel.startswith(_ELSEWHERE):
                continue
            found += [(rel, s) for s in _constants(f) if any(w in s for w in _OWNED)]
    assert found == []
