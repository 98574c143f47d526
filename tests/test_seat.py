"""One seat, one move grammar (issue 44): the terminal's ``Session`` and the web ``Table`` are two
faces of ``canasta._seat.Seat``, and every move, typed or clicked or recorded, is read by
``sim.play.moves``.

- The grammar: a move's text (the terminal's and the record's words) and the page's JSON body give
  the same ``Move`` for every engine action; the rules a move's words break are refused by one
  error type naming the rule (DEAL-4, MELD-1, MELD-2, MELD-4, DEAL-5, TURN-1), the same through
  the text, the JSON and the record (``sim.play.record.parse_move``).
- The faces: the same seeded hand driven through the terminal face (text commands) and the web
  face (JSON bodies) with the same moves reaches identical states after every move; the same
  illegal moves are refused with the same rule ID and message and change nothing; undo takes
  the same decision back; the hint asks for the same budget.
"""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import numpy as np
import pytest

from canasta._human import Session
from canasta._seat import HINT_BUDGET, HINT_N
from canasta.web.moves import move_for
from canasta.web.table import MoveRefused, Table
from sim import encoding as E
from sim.errors import CanastaError
from sim.play import Hand as Game
from sim.play import describe_action
from sim.play import record as R
from sim.play.moves import Move, MoveError, move_from_json, parse_move

BOT = "heuristic"

#: (text, JSON body, the rule a move's words break)
REFUSED = [
    ("meld 3r 3r 3r", {"move": "meld", "cards": ["3r", "3r", "3r"]}, "DEAL-4"),
    ("meld 3h 3h 7 7", {"move": "meld", "cards": ["3H", "3H", "7", "7"]}, "DEAL-4"),
    ("meld 9 9 9 9 9 9 9 9", {"move": "meld", "cards": ["9"] * 8}, "MELD-2"),
    (
        "meld K: K K 2 2 2 JK",
        {"move": "meld", "cards": ["K", "K", "2", "2", "2", "JK"], "target": "K"},
        "MELD-4",
    ),
    ("meld K: Q Q Q", {"move": "meld", "cards": ["Q", "Q", "Q"], "target": "K"}, "MELD-1"),
    ("wild meld: 2 2 K", {"move": "meld", "cards": ["2", "2", "K"], "target": "wild"}, "MELD-1"),
    ("meld K K 2 9 9 9", {"move": "meld", "cards": ["K", "K", "2", "9", "9", "9"]}, "MELD-1"),
    ("meld", {"move": "meld", "cards": []}, "MELD-1"),
    ("keep 4", None, "DEAL-5"),
    ("discard 7 7", {"move": "discard", "cards": ["7", "7"]}, "TURN-1"),
]


# --- the grammar ----------------------------------------------------------------------
def test_text_json_and_record_words_give_the_same_move_for_every_action():
    """Every engine action: its record words (``describe_action``), its page body
    (``move_for``) and ``Move.of_action`` are one Move with that one action."""
    for a in range(E.N_ACTIONS):
        move = Move.of_action(a)
        assert parse_move(describe_action(a)) == move, describe_action(a)
        assert move_from_json(move_for(a)) == move, move_for(a)
        assert move.actions() == [a]
        assert R.parse_move(describe_action(a)) == a


def test_short_words_and_suits():
    """The terminal's short words and the record's long ones; suits optional; '2 on K' is
    'K: 2' (add a two to the Ks); several ranks are one operation each, highest first."""
    assert parse_move("meld 2 on K") == parse_move("meld K: 2") == parse_move("meld K: 1x2")
    assert parse_move("meld KH KS 2C") == parse_move("meld K K 2") == parse_move("meld K: 2xK 1x2")
    assert parse_move("take the pile") == parse_move("pile") == move_from_json({"move": "pile"})
    assert parse_move("keep 3h") == parse_move("keep 3r") == move_from_json({"move": "keep_red"})
    assert parse_move("keep") == Move("keep")  # the one three held: the seat decides
    ops = parse_move("meld 9 9 9 Q Q Q, 2 2 JK").ops
    assert ops == ((E.QUEEN, 3, 0, 0), (E.NINE, 3, 0, 0), (E.WILD_MELD, 0, 2, 1))
    assert move_from_json({"move": "meld", "cards": ["9", "Q", "9", "Q", "9", "Q"]}).ops == ops[:2]


@pytest.mark.parametrize(("text", "body", "rule"), REFUSED)
def test_refusals_name_their_rule_in_text_json_and_record(text, body, rule):
    """DEAL-4 (threes are never melded), MELD-1 (one rank a meld, not empty), MELD-2 (at most
    seven cards), MELD-4 (at most three wild cards in an operation on a natural meld), DEAL-5
    (only a three is kept), TURN-1 (one discard): one MoveError with the rule, the same
    message from the text and from the page's body; a record's move names the same rule."""
    with pytest.raises(MoveError) as by_text:
        parse_move(text)
    assert by_text.value.rule == rule and rule in str(by_text.value)
    if body is not None:
        with pytest.raises(MoveError) as by_json:
            move_from_json(body)
        assert (by_json.value.rule, str(by_json.value)) == (by_text.value.rule, str(by_text.value))
    with pytest.raises(R.RecordError) as by_record:
        R.parse_move(text)
    assert by_record.value.rule == rule and str(by_text.value) in str(by_record.value)


def test_words_that_are_no_move_are_bad_input_not_refusals():
    """A bad card or an unknown word is bad input (CanastaError, the page's 400), not a rule's
    refusal; every input is bounded (no move names more cards than the packs hold)."""
    for text in ("shuffle", "meld ZZ 7", "discard QQ", "meld 999xK", "wild 2 2"):
        with pytest.raises(CanastaError) as exc:
            parse_move(text)
        assert not isinstance(exc.value, MoveError) or exc.value.rule, text
    with pytest.raises(CanastaError, match="at most 108"):
        move_from_json({"move": "meld", "cards": ["K"] * 109})
    with pytest.raises(MoveError, match="MELD-2"):
        parse_move("meld 99xK")
    for body in ({"move": "fly"}, {"move": "discard", "cards": 5}, [1], {"move": 3}):
        with pytest.raises(CanastaError) as exc:
            move_from_json(body)
        assert not isinstance(exc.value, MoveError)


# --- the two faces --------------------------------------------------------------------
class Faces:
    """The same hand at the terminal (seat 0, text) and at the web table (seat 0, JSON)."""

    def __init__(self, seed: int, rules=None):
        self.web = Table(seed=seed, partner=BOT, opponents=BOT, rules=rules)
        self.lines: list[str] = []
        policies = ["you", BOT, BOT, BOT]
        self.term = Session(Game(seed=seed, rules=rules), 0, policies, out=self.lines.append)
        self.term.run([])
        self.catch_up()

    def catch_up(self) -> None:
        """The page plays the human's forced draw (one button); the terminal's human types it."""
        g = self.term.game
        if not g.is_over and g.current_player == 0 and next(g.turns((None,) * 4)).forced:
            self.term.command("draw")  # the hand's turn loop would take it without asking

    def same(self) -> None:
        a, b = self.term.game, self.web.game
        assert a.actions == b.actions
        assert np.array_equal(a.state, b.state)
        assert self.term.human.decisions == self.web.decisions
        assert self.term.human.can_undo() == self.web.can_undo()

    def refused(self, text: str, body: dict) -> tuple[str, str]:
        before = self.web.game.state.copy()
        self.term.refused = None
        self.term.command(text)
        with pytest.raises(MoveRefused) as exc:
            self.web.move(body)
        got = self.term.refused
        assert got is not None and isinstance(got, MoveError)
        assert (got.rule, str(got), got.allowed) == (
            exc.value.rule,
            str(exc.value),
            exc.value.allowed,
        )
        assert exc.value.allowed  # the moves allowed now, in both faces
        assert np.array_equal(before, self.web.game.state)
        self.same()
        return exc.value.rule, str(exc.value)

    def play(self, a: int) -> None:
        self.term.command(describe_action(a))
        self.web.move(move_for(a))
        self.catch_up()
        self.same()


@pytest.mark.parametrize(("seed", "rules"), [(3, None), (5, None), (2, "cla")])
def test_the_same_hand_through_both_faces(seed, rules):
    """Seeded hand, seat 0, heuristic bots: at every decision of the human the same refused
    moves (the grammar's rules, and the engine's: PILE/TURN at the play step, a card not held)
    give the same rule and message in both faces and change nothing; then the partner's bot's
    move, typed and clicked, leaves both in the same state; an undo after a meld takes the same
    decision back in both. The hand ends the same, with the same score."""
    f = Faces(seed, rules)
    f.same()
    rules_seen, undone = set(), 0
    while not f.web.game.is_over:
        g = f.web.game
        if g.phase == "play":
            for text, body, rule in REFUSED:
                if body is not None:
                    assert f.refused(text, body)[0] == rule
            rules_seen.add(f.refused("pile", {"move": "pile"})[0])
            hand = g.view(0).hand
            missing = next(k for k in range(E.FIRST_NATURAL, E.N_KINDS) if hand[k] == 0)
            name = E.KIND_NAMES[missing]
            rules_seen.add(f.refused(f"discard {name}", {"move": "discard", "cards": [name]})[0])
        a = g.policy_action(BOT)
        f.play(a)
        if int(E.ACTION_TABLE[a, E.AC_TYPE]) == E.AT_MELD and f.web.can_undo() and undone < 2:
            f.term.command("undo")
            f.web.undo()
            f.same()
            f.play(a)
            undone += 1
    assert f.term.game.is_over and f.term.game.scores() == f.web.game.scores()
    assert {"TURN-1"} <= rules_seen and len(rules_seen) >= 2
    assert undone >= 1
    # the seat's hands (sim.play.Hand each); ``games``, their old name, warns and is the same
    assert f.web.hands == f.web.driver.hands and f.web.hands[-1] is f.web.game
    with pytest.warns(DeprecationWarning, match="Seat.hands"):
        assert f.web.games == f.web.hands


def test_one_hint_budget_in_both_faces():
    """The terminal's hint and the web table's ask ``analysis.advise`` for the same budget
    and deals (one constant), of the same position."""
    assert HINT_BUDGET <= 3.0  # the page's promise
    assert inspect.signature(Table.hint).parameters["budget"].default == HINT_BUDGET
    assert inspect.signature(Session).parameters["hint_budget"].default == HINT_BUDGET
    from canasta.web import app

    assert inspect.signature(app.create_app).parameters["hint_budget"].default == HINT_BUDGET
    calls = []

    def advise(pos, **kw):
        calls.append((pos, kw))
        c = SimpleNamespace(
            label="draw",
            mean=1.0,
            ci_low=0.0,
            ci_high=2.0,
            diff_from_best=0.0,
            diff_low=0.0,
            diff_high=0.0,
            n=9,
            policy_pick=True,
            melds=[],
            discard=None,
        )
        return SimpleNamespace(decision="draw", choices=[c])

    f = Faces(11)  # seat 0 starts with a choice at the draw (the pile can be taken)
    f.term._advise = advise
    f.term.command("hint")
    f.web.advice(advise=advise)
    (p1, k1), (p2, k2) = calls
    assert k1 == k2 and k1["budget"] == HINT_BUDGET and k1["n"] == HINT_N
    assert np.array_equal(p1.hand, p2.hand) and p1.scores == p2.scores
