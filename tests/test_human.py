"""``canasta play --human`` (the human seat) and ``--load MODULE`` (user policies).

The session reads one command a line, so every test drives it from text: in process through
``canasta.main`` with ``sys.stdin`` replaced, and once through a real pipe. The hint is tested
against a fake ``advise`` (formatting, the position it is given, its refusals); the one real
end-to-end hint test skips until ``analysis.advise`` is merged.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from canasta import main
from canasta._human import Session, meld_operations, parse_kind, position_for
from canasta._seat import HINT_BUDGET, HINT_N
from sim import encoding as E
from sim.cards import format_cards, parse_cards
from sim.errors import CanastaError
from sim.play import Hand as Game

ROOT = Path(__file__).resolve().parents[1]
MYPOLICY = ROOT / "tests" / "data" / "mypolicy.py"
AUTO_HAND = "auto\n" * 400  # more decisions than a hand holds: the rest is never read

#: lines a session must survive anywhere: unknown words, bad cards, wrong phases, empty melds
GARBAGE = [
    "",
    "   ",
    "xyzzy",
    "meld",
    "meld ,,,",
    "meld ZZ 7",
    "meld 7 7 7 7 7 7 7 7",
    "meld K K 2 9 9 9",
    "meld 3H 3D 3r",
    "discard",
    "discard 7 7",
    "discard QQ",
    "discard 3b",
    "keep",
    "keep 4",
    "lay",
    "declare",
    "pile",
    "draw draw",
    "\x00\x07 \u00e9\u2603",
    "show",
    "help",
    "9" * 500,
]


def play_cli(monkeypatch, capsys, text: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["play", "--human", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def session(seed: int = 3, seat: int = 0, advise=None) -> tuple[Session, list[str]]:
    lines: list[str] = []
    policies = ["heuristic"] * 4
    policies[seat] = "you"
    s = Session(Game(seed=seed), seat, policies, out=lines.append, advise=advise)
    return s, lines


# --- command parsing -----------------------------------------------------------------
def test_parse_kind_suits_optional_and_three_colours():
    """Cards are words with an optional suit; a three's colour is its suit's (SCORE-7)."""
    assert parse_kind("k") == parse_kind("KH") == E.KING
    assert parse_kind("10") == parse_kind("T") == parse_kind("10c") == E.TEN
    assert parse_kind("jk") == E.JOKER and parse_kind("2s") == E.TWO
    assert parse_kind("3h") == parse_kind("3r") == E.RED_THREE
    assert parse_kind("3S") == parse_kind("3b") == E.BLACK_THREE
    for bad in ("Z", "1", "KX", "JKH", "", "77"):
        with pytest.raises(CanastaError, match="bad card"):
            parse_kind(bad)


def test_meld_operations_one_per_rank_wild_meld_and_DEAL_4_MELD_1():
    """One engine meld operation per rank (MELD-3), wild cards only = the wild meld (MELD-8),
    threes refused (DEAL-4); wild cards with two ranks need a comma."""
    assert meld_operations("7 7 7, K K JK") == [(E.SEVEN, 3, 0, 0), (E.KING, 2, 0, 1)]
    assert meld_operations("9 9 9 Q Q Q") == [(E.QUEEN, 3, 0, 0), (E.NINE, 3, 0, 0)]
    assert meld_operations("2 2 JK") == [(E.WILD_MELD, 0, 2, 1)]


@pytest.mark.parametrize(
    ("command", "refusal"),
    [
        ("3H 3D 3H", "DEAL-4"),
        ("K K 2 9 9 9", "which meld do the wild cards"),
        (" , ", "meld what"),
    ],
)
def test_meld_operations_refused_in_one_line(command, refusal):
    """Threes (DEAL-4), wild cards beside two ranks without a comma, nothing to meld."""
    with pytest.raises(CanastaError, match=refusal):
        meld_operations(command)


# --- a whole hand from a pipe ---------------------------------------------------------
def test_scripted_hand_is_the_bots_hand_and_scores_it(monkeypatch, capsys):
    """``auto`` plays what the partner's bot would: a hand of autos from seat 0 with heuristic
    bots is the hand ``Game.play(heuristic, heuristic)`` plays (same deal, same rng), and the
    itemised score printed at the end is that hand's (SCORE-*, OUT-3)."""
    code, out, err = play_cli(monkeypatch, capsys, AUTO_HAND, "--seed", "3")
    assert code == 0 and err == ""
    ref = Game(seed=3)
    ref.play(["heuristic", "heuristic"])
    scores = ref.scores()
    total = re.search(r"^total\s+(-?[\d,]+)\s+(-?[\d,]+)$", out, re.M)
    assert total, out[-2000:]
    got = [int(x.replace(",", "")) for x in total.groups()]
    assert got == [scores[0]["total"], scores[1]["total"]]
    for item in E.SCORE_ITEMS:  # canasta score's breakdown, item by item
        row = re.search(rf"^{item}\s+(-?[\d,]+)\s+(-?[\d,]+)$", out, re.M)
        assert [int(x.replace(",", "")) for x in row.groups()] == [
            scores[0][item],
            scores[1][item],
        ]
    assert f"-- hand over: {ref.end_reason} (END-1)" in out
    assert "you win" in out or "you lose" in out or "a tie" in out


def test_other_players_draws_are_hidden(monkeypatch, capsys):
    """A bot's drawn, replacement and bonus cards are not shown; the human's own are."""
    code, out, _ = play_cli(monkeypatch, capsys, AUTO_HAND, "--seed", "5", "--seat", "1")
    assert code == 0
    card = r"(?:[2-9AKQJ]|10)[SHDC]|JK"
    for line in out.splitlines():
        if line.startswith("P") and "draw" in line:
            assert "draws a card" in line and not re.search(card + "$", line), line
    assert re.search(rf"^you: draw (?:{card})$", out, re.M)
    assert "seat 1 (team 1)" in out


def test_garbage_between_commands_never_crashes_and_eof_ends_cleanly(monkeypatch, capsys):
    """Bad commands anywhere (unknown words, bad cards, wrong phase, TURN-1) print one refusal
    each and the hand goes on; the script ends, the hand is over; or EOF leaves it."""
    text = "\n".join(g for a in ["auto"] * 400 for g in (*GARBAGE[:8], a, *GARBAGE[8:])) + "\n"
    code, out, err = play_cli(monkeypatch, capsys, text, "--seed", "3", "--seat", "2")
    assert code == 0 and "Traceback" not in out + err
    assert "-- hand over" in out and re.search(r"^total ", out, re.M)
    assert "unknown command 'xyzzy'" in out
    # EOF in the middle of the hand
    code, out, err = play_cli(monkeypatch, capsys, "\n".join(GARBAGE), "--seed", "3")
    assert code == 0 and err == ""
    assert out.rstrip().endswith("the hand is left unfinished; nothing is scored")
    # quit
    code, out, _ = play_cli(monkeypatch, capsys, "draw\nquit\ndraw\n", "--seed", "3")
    assert code == 0 and "you left the hand at turn 0" in out


def test_refusals_name_the_rule_and_what_is_allowed_PILE_2_OPEN_1_MELD_2_TURN_1():
    """A refused command prints explain()'s sentence (rule ID first) and the allowed moves."""
    s, lines = session(seed=3)
    s.run([])  # prints the table of seat 0's first turn (seat 0 starts hand 0, DEAL-1)
    lines.clear()
    s.command("pile")
    assert lines == [
        f"refused: take the discard pile: {E.explain(E.R_PILE_EMPTY)}",
        "you may: draw",
    ]
    lines.clear()
    s.command("discard 10")
    assert lines[0] == f"refused: discard 10: {E.explain(E.R_WRONG_PHASE)}"
    s.command("draw")
    lines.clear()
    s.command("meld 9 9 9 9 9 9 9 9")
    assert lines[0] == f"refused: {E.explain(E.R_MELD_TOO_LONG)}"
    assert lines[1].startswith("you may: meld") and "discard" in lines[1]
    lines.clear()
    s.command("meld 9 9 9 9")  # part of an opening: pending until the count is reached
    s.command("discard 10")
    # the points so far and the way on, as the web table says them (one seat)
    assert any(x.startswith(f"refused: discard 10: {E.explain(E.R_OPEN_MINIMUM)} (") for x in lines)
    lines.clear()
    s.command("meld 5 5 5 5 5")
    assert lines[0].startswith("refused: meld 5 5 5 5 5: ")  # holds fewer fives
    assert E.explain(E.R_NOT_HELD) in lines[0]


def test_threes_step_keep_or_lay_DEAL_4_DEAL_5_TURN_1():
    """Seed 0: seat 0 starts holding one black three and may keep it toward a Straight."""
    s, lines = session(seed=0)
    s.run([])
    assert s.game.phase == "threes" and lines[-2].startswith("you may: lay, keep 3b")
    lines.clear()
    s.command("draw")
    assert lines[0] == f"refused: draw from the stock: {E.explain(E.R_WRONG_PHASE)}"
    lines.clear()
    s.command("keep 3r")
    assert lines[0].startswith("refused: keep one 3r toward a Straight")
    assert E.explain(E.R_NOT_HELD) in lines[0]
    s.command("keep")
    assert s.game.phase == "draw" and s.game.current_player == 0
    assert s.game.view(0).hand[E.BLACK_THREE] == 1
    s.command("draw")
    lines.clear()
    s.command("declare")  # 14 cards, but no special hand
    assert lines[0].startswith("refused: declare a special hand: SPECIAL-")


def test_record_of_a_human_hand_replays(monkeypatch, capsys, tmp_path):
    """``--record`` with ``--human``: the hand as played, replayable (Game.replay)."""
    rec = tmp_path / "hand.json"
    code, out, _ = play_cli(monkeypatch, capsys, AUTO_HAND, "--seed", "4", "--record", str(rec))
    assert code == 0
    g = Game.replay(rec.read_text())
    assert g.is_over
    total = re.search(r"^total\s+(-?[\d,]+)\s+(-?[\d,]+)$", out, re.M)
    assert [int(x.replace(",", "")) for x in total.groups()] == [
        g.scores()[0]["total"],
        g.scores()[1]["total"],
    ]


def test_meld_command_is_applied_whole_or_not_at_all_OPEN_2():
    """Several operations from one command: a refusal leaves the game as it was."""
    s, lines = session(seed=3)
    s.run([])
    s.command("draw")
    before = s.game.state.copy()
    s.command("meld 9 9 9 2, Q Q JK JK")  # no natural meld from hand: OPEN-2
    assert any(E.explain(E.R_OPEN_NO_NATURAL_MELD) in x for x in lines)
    assert np.array_equal(before, s.game.state)
    s.command("meld Q Q JK, 9 9 9 9")
    hand = s.game.view(0).hand
    assert hand[E.NINE] == 0 and hand[E.QUEEN] == 0


# --- the hint ------------------------------------------------------------------------
def fake_advice(decision: str) -> SimpleNamespace:
    def choice(label, mean, diff):
        return SimpleNamespace(
            label=label,
            melds=[],
            discard=None,
            mean=mean,
            ci_low=mean - 40,
            ci_high=mean + 40,
            diff_from_best=diff,
            diff_low=diff - 10,
            diff_high=diff + 10,
            n=123,
            rates={},
        )

    return SimpleNamespace(
        decision=decision, choices=[choice("draw", 310.0, 0.0), choice("take the pile", 250, -60)]
    )


def test_hint_gives_advise_the_position_before_the_draw_and_formats_it():
    """At the draw step advise(pos); after a stock draw advise(pos before the draw, drawn=card):
    the same hand plus the card, one card more in the stock (TURN-1)."""
    calls = []

    def advise(pos, **kw):
        calls.append((pos, kw))
        return fake_advice("draw" if kw["drawn"] is None else "play")

    s, lines = session(seed=3, advise=advise)
    s.run([])
    s.command("hint")
    pos0, kw0 = calls[-1]
    assert kw0["drawn"] is None and kw0["budget"] == HINT_BUDGET and kw0["n"] == HINT_N
    assert "  1. draw               +310 [+270, +350]  best  (n=123)" in lines
    assert "  2. take the pile      +250 [+210, +290]  -60 [-70, -50] vs best  (n=123)" in lines
    s.command("draw")
    s.command("hint")
    pos1, kw1 = calls[-1]
    drawn = kw1["drawn"]  # a token, e.g. "5D" (the advise contract)
    assert isinstance(drawn, str)
    after = np.bincount(E.CARD_KIND[pos1.hand], minlength=E.N_KINDS)
    after[parse_kind(drawn)] += 1
    assert np.array_equal(after, s.game.view(0).hand)
    assert np.array_equal(np.sort(pos1.hand), np.sort(pos0.hand))  # before the draw: as at the draw
    assert drawn not in format_cards(pos1.hand).split()  # a suit the hand does not name


def test_hint_refusals_are_printed_and_the_session_goes_on():
    """advise's CanastaError is one line; so are positions a hint does not cover."""

    def refusing(pos, **kw):
        raise CanastaError("advise: not this one")

    s, lines = session(seed=3, advise=refusing)
    s.run([])
    s.command("hint")
    assert lines[-1] == "hint: advise: not this one"
    s.command("draw")
    s.command("meld 9 9 9 9")
    s.command("hint")
    assert lines[-1] == "hint: ask before melding: the advice covers the whole turn"
    s.command("meld Q Q JK")
    assert not s.game.is_over


@pytest.mark.parametrize(("seed", "seat"), [(11, 1), (0, 0)])
def test_position_for_is_an_engine_position_at_every_decision(seed, seat):
    """At every decision of a whole hand, the hint's position is one the engine accepts
    (``position_arrays``: CARD-1, MELD-*, sizes adding up to 108) and shows what the player
    sees: hand, melds, the pile and its top, the sizes. (Seed 0, seat 0 keeps a three, DEAL-5.)"""
    from sim.engine.position import position_arrays

    s, _ = session(seed=seed, seat=seat)
    s.run([])
    if seed == 0:
        s.command("keep 3b")
    checked = 0
    while not s.game.is_over:
        g = s.game
        v = g.view(seat)
        if v.phase == E.PH_DRAW or (v.phase == E.PH_PLAY and v.drew_stock and not v.melded):
            pos, drawn = position_for(g, seat)
            position_arrays(pos, "policy")
            hand = np.bincount(E.CARD_KIND[pos.hand], minlength=E.N_KINDS)
            if drawn is not None:  # one more copy than the position holds (CARD-1)
                hand[parse_kind(drawn)] += 1
                taken = np.zeros(E.N_CARDS, dtype=np.bool_)
                taken[pos.hand] = True
                for ms in pos.melds.values():
                    for m in ms:
                        taken[m] = True
                taken[pos.pile] = True
                if pos.pile_top >= 0:
                    taken[pos.pile_top] = True
                parse_cards(drawn, taken)
            assert np.array_equal(hand, v.hand)
            assert pos.pile_size == v.pile_n
            assert (pos.pile_top >= 0) == (v.pile_top >= 0)
            n_melded = sum(m.size for ms in pos.melds.values() for m in ms)
            assert n_melded == v.melds.sum()
            checked += 1
        s.command("auto")
    assert checked >= 10


def test_hint_end_to_end_with_advise(monkeypatch, capsys):
    """The real ``analysis.advise``: a scripted hand with hints plays through."""
    text = "help\nhint\nauto\nhint\n" + "auto\n" * 400
    code, out, err = play_cli(monkeypatch, capsys, text, "--seed", "3")
    assert code == 0 and "Traceback" not in err
    assert re.search(r"^hint \((draw|play)\): ", out, re.M)
    assert re.search(r"^  1\. .+ best  \(n=\d+\)$", out, re.M)
    assert re.search(r"^total ", out, re.M)


def test_pipe_from_a_shell(tmp_path):
    """``printf ... | canasta play --human``: a real pipe, garbage included, ends cleanly."""
    script = "help\nhint\nxyzzy\nmeld ZZ\n" + "auto\nshow\n" * 300
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "canasta", "play", "--human", "--seed", "3", "--seat", "3"],
        input=script,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert re.search(r"^total ", done.stdout, re.M)


def test_human_flags_are_checked(monkeypatch, capsys):
    code, _, err = play_cli(monkeypatch, capsys, "", "--seat", "4")
    assert code == 2 and err.startswith("canasta: error: --seat") and err.count("\n") == 1
    code, _, err = play_cli(monkeypatch, capsys, "", "--partner", "nosuch")
    assert code == 2 and "unknown policy 'nosuch'" in err


# --- --load MODULE ---------------------------------------------------------------------
@pytest.fixture
def unregister_mypolicy():
    yield
    from sim.policies import names, unregister

    if "mypolicy" in names():
        unregister("mypolicy")
    sys.modules.pop("canasta_user_mypolicy", None)


def test_load_a_py_file_then_compare(capsys, unregister_mypolicy):
    """``--load tests/data/mypolicy.py`` registers ``mypolicy``; compare names it (jobs 1)."""
    code = main(["compare", "mypolicy", "heuristic", "-n", "20", "--load", str(MYPOLICY)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert out.out.startswith("mypolicy vs heuristic: 20 duplicate deals")
    assert "--jobs 1" in out.err or out.err == ""


def test_load_a_dotted_module_then_play(capsys, monkeypatch, unregister_mypolicy):
    monkeypatch.syspath_prepend(str(ROOT))
    code = main(["play", "--load", "tests.data.mypolicy", "--policies", "mypolicy,heuristic"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "team 0 (seats 0, 2) mypolicy" in out.out


def test_load_errors_are_one_line_exit_2(capsys, tmp_path):
    bad = tmp_path / "broken.py"
    bad.write_text("raise RuntimeError('boom\\nsecond line')\n")
    for target, message in (
        ("no_such_module_xyz", "--load no_such_module_xyz: cannot import it (ModuleNotFoundError"),
        (str(tmp_path / "missing.py"), "no such file"),
        (str(bad), "cannot import it (RuntimeError: boom)"),
    ):
        code = main(["compare", "random", "heuristic", "-n", "2", "--load", target])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("canasta: error: --load ") and message in err
        assert err.count("\n") == 1
    # an unknown policy after a good load still names the policy
    assert main(["simulate", "-n", "2", "--policies", "nosuch,random", "--load", "json"]) == 2
    assert "unknown policy 'nosuch'" in capsys.readouterr().err
