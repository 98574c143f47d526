"""The game-aware bot ``game_strong`` (sim/policies/game_strong.py): its mechanics, not its
strength (benchmarks/bench_game_bot.py measures that in whole games), and the derivation of
its table (``analysis.game_styles``).

- registered as a trusted built-in with strong's parameters and ``style``, offered at tables;
- style 0 (and ``style=1``) is strong's play, decision for decision (same records);
- the shipped table is read by the hand's scores (GAME-1's race: own score first): a cell of
  style 0 plays strong, a cell of style k plays as ``style=k+1``, and under rules the table
  was not derived for (another target, GAME-1; OPEN-1 by hand) it plays strong;
- a start bias moves the starts of sevens/aces/wild melds (MELD-6/7/8, SCORE-2/3) the way
  it says, a take bias the piles taken (PILE-1);
- the shipped table is read from its file once, not at every parse of a policy spec;
- the tier-pair selection of the derivation (``choose_tiers``) gives each OPEN-1 tier pair
  the style its pooled gain names, and the default where no style beats it by the margin;
- judged, it proposes no illegal action (the trusted built-ins' promise).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import sim
from analysis import game_styles
from sim.engine.contract import is_builtin
from sim.errors import CanastaError
from sim.policies import get, names, parse
from sim.policies.game_strong import G_STYLE, load_data, style_at
from sim.policies.registry import table_names
from sim.ruleset import Ruleset

DATA = load_data()
STYLES = [s["name"] for s in DATA["styles"]]
CELLS = np.asarray(DATA["cells"])
LOW, STEP = DATA["grid"]["low"], DATA["grid"]["step"]
#: the record columns compared between two runs (everything but the policies' labels)
SAME = ["score_team0", "score_team1", "turns", "decisions", "end_reason", "team0_canastas"]


def _hands(policies, scores=(0, 0), n=150, seed=47, rules=None):
    df = sim.simulate_games(n, policies, seed=seed, scores=scores, max_hands=1, ruleset=rules)
    return df.sort_values("game_id")[["score_team0", "score_team1", "hands", "winner"]]


def test_registered_as_a_trusted_table_bot_with_strongs_parameters():
    spec = get("game_strong")
    assert "game_strong" in names() and "game_strong" in table_names()
    assert is_builtin(spec.decide)  # tests/test_trusted_builtins.py plays it judged
    strong = get("strong")
    assert spec.param_names == (*strong.param_names, "style")
    assert dict(spec.params)["style"] == 0
    assert all(dict(spec.params)[n] == v for n, v in strong.params)
    assert spec.param_names.index("style") == G_STYLE
    assert spec.tail[: len(strong.tail)] == strong.tail  # the same evaluator weights


def test_style_parameter_is_checked():
    for bad in (len(STYLES) + 1, 1.5):
        with pytest.raises(CanastaError, match="'style'"):
            parse(f"game_strong:style={bad}")
    parse(f"game_strong:style={len(STYLES)}")
    for gone in ("play_on", "open_wait"):  # removed: measured no gain, or a loss
        with pytest.raises(CanastaError, match=gone):
            parse(f"game_strong:{gone}=1")


def test_the_shipped_table_is_read_once(monkeypatch):
    """Parsing specs and building the tail read no file once the table is loaded."""
    from sim.policies import game_strong

    game_strong.shipped_data()
    reads = []
    monkeypatch.setattr(game_strong, "read_data", lambda *a, **k: reads.append(a))
    for k in range(1, len(STYLES) + 1):
        parse(f"game_strong:style={k}")
    game_strong.game_tail()
    assert reads == []


def test_bad_data_is_refused_by_name():
    with pytest.raises(CanastaError, match="version"):
        load_data({**DATA, "version": 99})
    with pytest.raises(CanastaError, match="cells"):
        load_data({**DATA, "cells": DATA["cells"][:-1]})
    biased = [{**DATA["styles"][0], "start_bias": 5}, *DATA["styles"][1:]]
    with pytest.raises(CanastaError, match="style 0"):
        load_data({**DATA, "styles": biased})


def test_style_one_is_strong_decision_for_decision():
    a = sim.simulate(200, policies=("game_strong:style=1", "strong"), seed=11)
    b = sim.simulate(200, policies=("strong", "strong"), seed=11)
    assert (a[SAME].to_numpy() == b[SAME].to_numpy()).all()
    assert (a.policy_errors == 0).all()


def test_style_at_reads_the_cell_of_the_scores_and_only_under_its_rules():
    _, params, _ = parse("game_strong")
    rules = Ruleset().to_array()
    for i, j in ((0, 0), (30, 80), (104, 3), (50, 50)):
        own, opp = LOW + STEP * i + 5, LOW + STEP * j + 95  # anywhere in the cell
        assert style_at(params, rules, own, opp) == CELLS[i, j]
    assert style_at(params, rules, -9000, LOW) == CELLS[0, 0]  # below the grid: its first cell
    other = dataclasses.replace(Ruleset(), target=5000).to_array()  # GAME-1 variant
    by_hand = dataclasses.replace(Ruleset(), opening_minimum="hand").to_array()  # OPEN-1
    for r in (other, by_hand):
        assert style_at(params, r, 8000, 0) == 0 and style_at(params, r, 0, 8000) == 0
    _, forced, _ = parse("game_strong:style=3")
    assert style_at(forced, rules, 0, 0) == 2


@pytest.fixture(scope="module")
def halves():
    """game_strong's kernel with a table of two halves (own score below 3,000: style 0;
    from 3,000: starts+1000), registered for this module (a user policy: judged)."""
    from sim.policies import register, unregister
    from sim.policies.game_strong import game_strong_decide, game_tail

    k = STYLES.index("starts+1000")
    cells = np.zeros_like(CELLS)
    cells[(3000 - LOW) // STEP :, :] = k
    spec = get("game_strong")
    register(
        "test_game_halves",
        game_strong_decide,
        dict(spec.params),
        tail=game_tail({**DATA, "cells": cells.tolist()}),
    )
    yield k
    unregister("test_game_halves")


def test_a_cell_of_style_zero_plays_strong(halves):
    for scores in ((0, 0), (2900, 8000), (-3000, 4000)):
        a = _hands(("test_game_halves", "strong"), scores)
        assert (a.to_numpy() == _hands(("strong", "strong"), scores).to_numpy()).all()


def test_a_cell_of_another_style_plays_that_style_as_either_team(halves):
    """The bot reads its own team's score first, seated as team 0 or team 1."""
    forced = f"game_strong:style={halves + 1}"
    own, opp = 3000, 0
    a = _hands(("test_game_halves", "strong"), (own, opp))
    assert (a.to_numpy() == _hands((forced, "strong"), (own, opp)).to_numpy()).all()
    b = _hands(("strong", "test_game_halves"), (opp, own))
    assert (b.to_numpy() == _hands(("strong", forced), (opp, own)).to_numpy()).all()
    strong = _hands(("strong", "strong"), (own, opp))
    assert (a.to_numpy() != strong.to_numpy()).any()  # the style changed some hand


def test_the_shipped_table_is_played_by_the_scores():
    for own, opp in ((0, 0), (6000, 8200)):
        k = CELLS[(own - LOW) // STEP, (opp - LOW) // STEP]
        a = _hands(("game_strong", "strong"), (own, opp))
        assert (
            a.to_numpy() == _hands((f"game_strong:style={k + 1}", "strong"), (own, opp)).to_numpy()
        ).all()


def test_under_other_rules_it_plays_strong_everywhere():
    rules = dataclasses.replace(Ruleset(), target=5000)
    for scores in ((0, 0), (4000, 2000)):
        a = _hands(("game_strong", "strong"), scores, rules=rules)
        b = _hands(("strong", "strong"), scores, rules=rules)
        assert (a.to_numpy() == b.to_numpy()).all()
    assert (CELLS[: (4000 - LOW) // STEP + 1] > 0).any()  # (the shipped table would differ)


def _starts(df, team=0):
    cols = [f"team{team}_{m}_started_turn" for m in ("sevens", "aces", "wild")]
    return int((df[cols].to_numpy() >= 0).sum())


def _style(name):
    return f"game_strong:style={STYLES.index(name) + 1}"


def test_the_start_bias_moves_the_starts_of_sevens_aces_and_wild_melds():
    """MELD-6/7/8: on the same 400 deals (seed 12), a start bias of +1,000 starts more of
    them than strong and -1,000 fewer (a same-play pair would start exactly as many)."""

    def starts(p):
        return _starts(sim.simulate(400, policies=(p, "strong"), seed=12))

    base = starts("strong")
    assert starts(_style("starts+1000")) > base > starts(_style("starts-1000"))


def test_each_bias_changes_only_the_decisions_it_names_and_in_its_direction():
    """Stepping hands with strong (Game), every decision is asked of strong and of the four
    one-sided styles: a take bias changes only draws (PILE-1: +300 takes where strong draws,
    -300 draws where strong takes), a start bias only play steps (+1,000 starts a sevens,
    aces or wild meld where strong does not, -1,000 does not start one strong starts), and
    each changes at least one decision of these hands."""
    from sim import encoding as E
    from sim.play import Hand as Game
    from sim.policies.strong import risky_slot

    specs = {
        n: parse(_style(n))[:2] for n in ("take+300", "take-300", "starts+1000", "starts-1000")
    }
    strong = parse("strong")[:2]
    changed = dict.fromkeys(specs, 0)
    for hand in range(12):
        g = Game(seed=3, hand_id=hand)
        while not g.is_over:
            obs = g.observation()
            a = g.decide(*strong, obs=obs)
            phase = obs[E.OB_PHASE]
            for name, spec in specs.items():
                b = g.decide(*spec, obs=obs.copy())
                if b == a:
                    continue
                changed[name] += 1
                if name.startswith("take"):
                    assert phase == E.PH_DRAW
                    take = (b, a) if name == "take+300" else (a, b)
                    assert take == (E.A_TAKE_PILE, E.A_DRAW)
                else:
                    assert phase == E.PH_PLAY
                    start = b if name == "starts+1000" else a
                    assert risky_slot(obs, start) >= 0
            g.apply(a)
    assert all(changed.values()), changed


def test_choose_tiers_picks_a_style_per_opening_tier_pair():
    """The derivation's tier-pair rule on made-up gains (3 styles, scores in the three OPEN-1
    tiers): style 1 is best pooled over all cells (the default); style 2 beats it in the tier
    pair (2, 2) by more than the margin, and by less than it in (0, 1), which keeps the
    default; the pair's cells all get the choice."""
    scores = np.array([0, 1000, 3000, 4000, 5000, 8000])
    mean = np.zeros((3, 6, 6))
    mean[1] = 0.002
    mean[2, 4:, 4:] = 0.005  # (2, 2): +0.003 over the default
    mean[2, :2, 2:4] = 0.0025  # (0, 1): +0.0005
    se = np.full_like(mean, 0.0005)
    default, cells = game_styles.choose_tiers(np.stack([mean, se]), 2.0, scores)
    assert default == 1
    expect = np.ones((6, 6), dtype=int)
    expect[4:, 4:] = 2
    assert (cells == expect).all()
    _, loose = game_styles.choose_tiers(np.stack([mean, se]), 0.0, scores)
    assert (loose[:2, 2:4] == 2).all() and (loose[4:, 4:] == 2).all()


def test_game_1_special_10_the_derivations_reading_of_a_hand_is_after_hand():
    """The derivation's compiled reading of a hand's end (``game_styles.cell_sums``, one value
    at a time) is ``analysis.equity.after_hand``'s on every cell and hand: SPECIAL-10's
    winner, GAME-1's end (a tie at or over the target: the tie value) and the table,
    clamped below its lowest score. Checked through ``cell_sums`` with base hands that score 0
    (whose chance is the table's own cell or the end at the start)."""
    from analysis.equity import after_hand, synthetic_table

    table = synthetic_table()
    V = np.asarray(table.values[0], dtype=np.float64)
    tie = np.asarray(table.meta["tie"], dtype=np.float64)
    rng = np.random.default_rng(7)
    k = 400
    alt = np.column_stack(
        [
            rng.integers(-300, 700, k) * 5,
            rng.integers(-300, 700, k) * 5,
            rng.choice([-1, -1, -1, -1, 0, 1], k),
        ]
    ).astype(np.int64)
    alt[:20, :2] = 0  # ties at the target from a tie of starts below it
    alt[20:40, 1] = alt[20:40, 0]
    nf = rng.integers(0, 2, k).astype(np.int64)
    S0 = np.array([-12000, -2000, 0, 4995, 8000, 8495])
    S1 = np.array([-500, 3000, 8495, 8000])
    zero = np.zeros_like(alt)
    zero[:, 2] = -1
    sums = game_styles.cell_sums(
        V, tie, table.low, table.resolution, table.target, S0, S1, zero, alt, nf
    )
    for i, s0 in enumerate(S0):
        for j, s1 in enumerate(S1):
            want = sum(
                after_hand(
                    table, (s0, s1), f, alt[nf == f, 0], alt[nf == f, 1], alt[nf == f, 2]
                ).sum()
                - after_hand(table, (s0, s1), f, [0], [0], [-1])[0] * (nf == f).sum()
                for f in (0, 1)
            )
            assert sums[i, j, 0] == pytest.approx(want, abs=1e-9), (s0, s1)


def test_the_bend_is_convex_far_behind_and_concave_far_ahead():
    """On a made-up table (a logistic in the lead, analysis.equity.synthetic_table) a +/-2,500
    gamble's bend is positive far behind (the logistic's convex tail: a gamble pays in
    games), negative far ahead (concave), rises as the opponents' score does, and lies
    within [-1, 1]."""
    from analysis.equity import synthetic_table

    scores = np.array([-2000, 0, 2000, 4000])
    b = game_styles.bend(synthetic_table(), scores)
    assert b[0, 3] > 0.1 and b[3, 0] < -0.1  # -2,000 against 4,000; 4,000 against -2,000
    assert np.all(np.diff(b, axis=1) > 0) and np.all(np.abs(b) <= 1)


def test_choose_shape_follows_the_bend_where_the_gains_do():
    """The shape rule on made-up gains: start biases 0, +300, +600 and a take style; +600
    gains where the made-up bend is high, +300 elsewhere: the fit puts +600 exactly on the
    high-bend cells (k > 0), and never the take style."""
    styles = [
        {"start_bias": 0, "take_bias": 0},
        {"start_bias": 300, "take_bias": 0},
        {"start_bias": 600, "take_bias": 0},
        {"start_bias": 0, "take_bias": 300},
    ]
    shape = np.zeros((4, 4))
    shape[2:, 2:] = 0.8
    mean = np.zeros((4, 4, 4))
    mean[1] = 0.002
    mean[2] = np.where(shape > 0, 0.004, -0.002)
    mean[3] = 0.003
    default, cells, fit = game_styles.choose_shape(np.stack([mean, mean]), styles, shape)
    assert default == 3 and fit["k"] > 0  # the default is the pooled best, take included
    assert (cells == np.where(shape > 0, 2, 1)).all()


def test_judged_it_proposes_only_legal_actions():
    df = sim.simulate(60, policies=("game_strong:style=3", "game_strong"), seed=5, debug=True)
    assert (df.policy_errors == 0).all()
