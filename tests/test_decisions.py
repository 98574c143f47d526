"""Decision experiments: paired seeding, real positions that the engine accepts, experiments as
data, and the report's Advice section (the statistics: tests/test_decision_rules.py)."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import decisions as D
from sim.errors import CanastaError
from tests.test_decision_rules import thumb_rules

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------
# Paired seeding and real positions
# ---------------------------------------------------------------------------------------
def test_arms_use_the_same_seed_and_deals():
    """Both arms of a position are played with the same seed and number of deals (paired);
    different positions get different seeds."""
    calls = []

    def play(n, pos, choice, seed=0, policies=None, ruleset=None, **kw):
        calls.append((n, choice, seed, policies))
        return pd.DataFrame(
            {
                "hand_id": range(n),
                "score_team0": [10] * n,
                "score_team1": [0] * n,
                "applied": [True] * n,
            }
        )

    exp = D.BY_KEY["special"]
    snap = {"position": None, "team": 1}
    out = D.play_arms(snap, exp, 6, D.position_seed(3, exp, 0), "heuristic", play=play)
    (n1, c1, s1, p1), (n2, c2, s2, p2) = calls
    assert n1 == n2 == 6 and s1 == s2 and (c1, c2) == ("chase", "policy")
    assert p1 == p2 == ("heuristic", "heuristic")  # the same play after the choice
    assert out["diff"] == 0.0 and out["net_a"] == -10.0  # team 1's net: 0 - 10
    assert D.position_seed(3, exp, 0) != D.position_seed(3, exp, 1)
    assert D.position_seed(3, exp, 0) != D.position_seed(3, D.BY_KEY["wild"], 0)


@pytest.fixture(scope="module")
def snaps():
    return D.sample_positions(6, seed=2)


def test_snapshots_are_positions_the_engine_accepts(snaps):
    """Every turn start of real play becomes a what-if position the engine checks and accepts
    (CARD-1 card counts, MELD-* melds, sizes adding up to 108), with the player's hand."""
    from sim import encoding as E
    from sim.engine.position import position_arrays

    assert len(snaps) > 50
    for s in snaps:
        template, _pos, unseen = position_arrays(s["position"], "policy")
        hand = np.bincount(E.CARD_KIND[s["position"].hand], minlength=E.N_KINDS)
        assert hand[E.SEVEN] == s["sevens"] and hand[E.ACE] == s["aces"]
        assert (
            template.size
            and unseen.size
            == 108
            - s["position"].hand.size
            - sum(m.size for ms in s["position"].melds.values() for m in ms)
            - s["pile"]
        )


def test_same_choice_twice_gives_zero_difference(snaps):
    """Paired deals, checked in the engine: an experiment whose two arms are the same choice
    gives a difference of exactly 0 on every deal; two seeds give different outcomes."""
    exp = dataclasses.replace(
        D.BY_KEY["pile"], arms=(("policy", D.STRONG), ("policy", D.STRONG)), conditioned=()
    )
    snap = snaps[len(snaps) // 2]
    r = D.play_arms(snap, exp, 20, 5, "heuristic")
    assert r["diff"] == 0.0 and r["deals"] == 20
    import sim

    a = sim.play_position(20, snap["position"], "policy", seed=5, policies=("heuristic",) * 2)
    b = sim.play_position(20, snap["position"], "policy", seed=6, policies=("heuristic",) * 2)
    assert not np.array_equal(a["score_team0"], b["score_team0"])


def test_run_experiments_is_deterministic():
    """Same seed, same rows; the table has an 'all' row and a row per situation."""
    kw = dict(positions=2, deals=4, seed=1, sample_hands=12, experiments=["sevens", "pile"])
    a, b = D.run_experiments(**kw), D.run_experiments(**kw)
    pd.testing.assert_frame_equal(a, b)
    assert set(a["experiment"]) <= {"sevens", "pile"} and len(a) <= 4
    t = D.tables(a)
    assert len(t.pop("first_pickup")) == 4  # the sampled hands' first pickups (claim G)
    for key, tab in t.items():
        exp = D.BY_KEY[key.removeprefix("decision_")]
        assert len(tab) == 1 + sum(len(g.cells()) for g in exp.groupings)


def test_run_experiments_rows_do_not_depend_on_jobs():
    """Positions played in two worker processes (``n_jobs=2``) give the rows of one
    process, in the same order: each position has its own seed."""
    kw = dict(positions=3, deals=4, seed=4, sample_hands=20, experiments=["sevens", "pile", "wild"])
    one, two = D.run_experiments(**kw), D.run_experiments(**kw, n_jobs=2)
    assert len(one) >= 4
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    assert one.attrs == two.attrs


def test_position_outcomes_are_play_position_s_hands(snaps):
    """``sim.api.position_outcomes`` (the decision experiments' arrays) gives the
    team scores and ``applied`` flags of ``sim.play_position``'s records, hand by hand, for
    several positions, choices, seeds and policy pairs."""
    import sim
    from sim.api import position_outcomes

    cases = [
        (snaps[3], "policy", 1, ("heuristic", "greedy")),
        (snaps[len(snaps) // 2], "draw", 2, ("heuristic", "heuristic")),
        (snaps[-5], "policy", 3, ("random", "heuristic")),
    ]
    for snap, choice, seed, pair in cases:
        rec = sim.play_position(24, snap["position"], choice, seed=seed, policies=pair)
        scores, applied = position_outcomes(24, snap["position"], choice, seed=seed, policies=pair)
        assert rec["hand_id"].tolist() == list(range(24))
        np.testing.assert_array_equal(scores, rec[["score_team0", "score_team1"]].to_numpy())
        np.testing.assert_array_equal(applied, rec["applied"].to_numpy(dtype=bool))
    with pytest.raises(CanastaError):
        position_outcomes(-1, snaps[3]["position"])


def test_run_experiments_rows_equal_the_records_path():
    """The experiments' arms from ``position_outcomes`` arrays (the default) give the rows of
    the records path (``play=``, the engine's ``sim.play_position`` frames)."""
    from analysis.whatif import resolve_play

    kw = dict(positions=3, deals=6, seed=6, sample_hands=20, experiments=["sevens", "pile", "wild"])
    arrays, frames = D.run_experiments(**kw), D.run_experiments(**kw, play=resolve_play(None))
    assert len(arrays) >= 4
    pd.testing.assert_frame_equal(arrays, frames, check_exact=True)


@pytest.mark.parametrize("bad", [0, "2", 2.0])
def test_run_experiments_refuses_bad_jobs(bad):
    with pytest.raises(CanastaError, match="jobs"):
        D.run_experiments(positions=1, deals=2, sample_hands=1, n_jobs=bad)


def test_new_choices_are_checked():
    """MELD-7 / MELD-8: the new forced choices refuse a hand that cannot make them."""
    from analysis.whatif import check_choice, position

    p = position("AS AH AD 5C 6C 8C 9C 10C JC QC KC 4H 4D", turn=4)
    with pytest.raises(CanastaError, match="MELD-7"):
        check_choice(p, "meld_aces_wild")
    with pytest.raises(CanastaError, match="MELD-8"):
        check_choice(p, "meld_wilds")
    check_choice(p, "stay_in")
    check_choice(p, "hold_wilds")


def test_stay_in_refuses_going_out(snaps):
    """stay_in: over the deals where it refused a going-out meld (applied), the player's team
    did not go out on that turn, so it never ends the hand there; the policy arm on the same
    deals goes out at that turn (OUT-1/OUT-2)."""
    import sim

    outs = [s for s in D.sample_positions(30, seed=4) if s["went_out"]]
    assert outs, "no going out in 30 hands"
    s = outs[0]
    pos = s["position"]
    kw = dict(seed=9, policies=("heuristic", "heuristic"))
    stay = sim.play_position(30, pos, "stay_in", **kw).sort_values("hand_id")
    base = sim.play_position(30, pos, "policy", **kw).sort_values("hand_id")
    hit = stay["applied"].to_numpy(bool)
    assert hit.any()
    assert (base["turns"].to_numpy()[hit] == pos.turn + 1).all()
    assert (stay["turns"].to_numpy()[hit] > pos.turn + 1).all()


# ---------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------
def test_report_opens_with_advice():
    """The Advice section comes first (id 'advice'), holds one rule per decision
    (the groupings go to the detail table), each linked to its decision table; the default report
    runs the experiments and plays the strongest fast policy and heuristic."""
    from reports.build import Settings, build
    from reports.content import SECTIONS
    from reports.defaults import DEFAULT_POLICIES, DEFAULT_POSITIONS, default_policies
    from reports.html import assemble
    from sim.policies.registry import strongest_fast

    assert SECTIONS[0] == ("advice", "What to do")
    assert DEFAULT_POSITIONS > 0 and Settings().positions == DEFAULT_POSITIONS
    assert "random" not in DEFAULT_POLICIES
    assert Settings().policies == default_policies() and strongest_fast() in Settings().policies

    def decide(positions, deals, seed=0, ruleset=None, progress=None):
        return D.synthetic_raw({"go_out": lambda f: 300.0}, positions, deals, seed=seed)

    s = Settings(
        hands=40, deals=0, policies=("random",), quiet=True, positions=20, decision_deals=10
    )
    from analysis.backend import RecordsEngine

    fake = RecordsEngine(
        lambda n, policies, seed, ruleset: _simulate(n, policies, seed),
        decide=lambda p, d, seed, ruleset: decide(p, d, seed=seed),
    )
    results = build(s, fake)
    page = assemble(results).html
    i = page.index('<section id="advice"><h2>What to do</h2>')
    assert i < page.index("simulated hands in")  # the advice first, the run's bookkeeping after
    assert i < page.index('<section id="say">')
    block = page[i : page.index("</section>", i)]
    items = re.findall(r"<li>(.*?)</li>", block, re.S)
    assert len(items) == len({e.decision for e in D.EXPERIMENTS}) >= 10
    for item in items:
        key = re.search(r'href="#table-(decision_\w+)"', item).group(1)
        assert f'id="table-{key}"' in page
    assert any("Go out as soon as you can rather than keep playing" in x for x in items)
    keys = [re.search(r'href="#table-(decision_\w+)"', x).group(1) for x in items]
    assert len(set(keys)) == len(keys)  # each decision once
    assert keys[0] == "decision_go_out"  # most valuable first: the one confirmed direction


def test_advice_says_each_decision_once_with_its_flip():
    """Sevens: melding costs 800 with 3 or 4 held and gains 800 with 5+: one sevens item, the
    threshold rule; pile: +500 when opened, −500 when not: the overall row and where it flips;
    a null decision: no clear difference, once."""
    tabs, _ = thumb_rules(
        {
            "sevens": lambda f: -800.0 if f["sevens"] < 5 else 800.0,
            "pile": lambda f: 500.0 if f["opened"] else -500.0,
        }
    )
    items = {r.experiment: r for r in D.advice(tabs)}
    assert list(items) == list(dict.fromkeys(e.decision for e in D.EXPERIMENTS))
    assert items["sevens"].text.startswith("Hold your sevens until you hold 5 sevens; then")
    pile = items["pile"].text
    assert "when your team has opened" in pile and "when your team has not opened" in pile
    assert items["aces"].text.startswith("Start an aces meld now or hold your aces: no clear")
    assert "flips" not in items["aces"].text and "but" not in items["aces"].text


def _simulate(n, policies, seed=0, n_jobs=1, ruleset=None):
    from analysis.synthetic import synthetic_records

    return synthetic_records(n, seed=seed, policies=tuple(policies))


# ---------------------------------------------------------------------------------------
# The notebook
# ---------------------------------------------------------------------------------------
def test_notebook_committed_without_outputs():
    nbformat = pytest.importorskip("nbformat")
    book = nbformat.read(ROOT / "analysis" / "notebooks" / "decisions.ipynb", as_version=4)
    for cell in book.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


@pytest.mark.slow
def test_notebook_executes_and_asserts(monkeypatch):
    """decisions.ipynb end to end at a small size (its asserts are its conclusions)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("CANASTA_NB_N", "12")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    book = nbformat.read(ROOT / "analysis" / "notebooks" / "decisions.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        book, timeout=900, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()
    assert os.environ["CANASTA_NB_N"] == "12"


def test_sampled_snapshots_do_not_depend_on_jobs_and_make_their_positions_when_read():
    """``sample_positions(n_jobs=2)`` gives the snapshots of ``n_jobs=1``, in the
    same order; a sampled snapshot makes its Position when first read, the same Position as
    :func:`analysis.decisions.snapshot` makes at once (keys, features and cards)."""
    import pickle

    one = D.sample_positions(9, seed=7)
    two = D.sample_positions(9, seed=7, n_jobs=2)
    assert len(one) == len(two) > 100
    for a, b in zip(one, two, strict=True):
        assert "position" not in a and "position" not in b  # not made yet
        assert dict(a) == dict(b)
        pa, pb = a["position"], pickle.loads(pickle.dumps(b))["position"]
        for f in (
            "hand",
            "pile",
            "seat",
            "turn",
            "scores",
            "pile_top",
            "pile_size",
            "stock",
            "hand_sizes",
        ):
            assert np.array_equal(getattr(pa, f), getattr(pb, f)), f
        assert pa.melds.keys() == pb.melds.keys()
        for t in pa.melds:
            for g, h in zip(pa.melds[t], pb.melds[t], strict=True):
                assert np.array_equal(g, h)
    with pytest.raises(CanastaError, match="policy"):
        D.sample_positions(2, policy="no_such_policy", n_jobs=2)


# ---------------------------------------------------------------------------------------
# Experiments as data: spec files, a user's file end to end, malformed ones refused
# ---------------------------------------------------------------------------------------
EXAMPLE = ROOT / "experiments" / "example_sevens_late.toml"


def test_the_report_experiments_are_the_spec_files():
    """Every experiment of the report comes from a spec file of the ``experiments`` package,
    seeded by its own ``number`` (not its place in a list)."""
    from analysis import specs

    files = sorted(
        p.name for p in (ROOT / "experiments").glob("*.toml") if not p.name.startswith("example")
    )
    assert sorted(e.source for e in D.EXPERIMENTS) == files
    assert len({e.number for e in D.EXPERIMENTS}) == len(D.EXPERIMENTS)
    for e in D.EXPERIMENTS:
        assert specs.load(ROOT / "experiments" / e.source) == e
        for g in e.groupings:
            # a grouping reads what a player counts, or the true state marked as hidden
            for f in g.features:
                assert f in specs.FEATURES or (f in specs.TRUE_STATE and g.hidden)


def test_spec_filters_read_the_conditions():
    from analysis import specs

    c = specs.condition("2 <= pile <= 5", "t")
    assert [c({"pile": n}) for n in (1, 2, 5, 6)] == [False, True, True, False]
    assert specs.condition("not opened", "t")({"opened": 0})
    assert not specs.condition("opened", "t")({"opened": 0})
    assert specs.condition("wilds > 4", "t")({"wilds": 5})
    assert not specs.condition("wilds > 4", "t")({"wilds": 4})


BAD_SPECS = [
    ("key = 3", "key 'key'"),
    ("colour = 'red'", "unknown key 'colour'"),
    ("[positions]\nwhere = ['sevens >> 3']", "positions.where"),
    ("[positions]\nwhere = ['hidden_cards >= 3']", "unknown feature 'hidden_cards'"),
    ("[[groupings]]\nkey='g'\nfeature='went_out'\nbins=[[0,0,'a']]\nphrase='x'", "'feature'"),
    ("[[groupings]]\nkey='g'\nfeature='stock'\nbins=[[5,1,'a']]\nphrase='x'", "'bins'"),
    ("outcome = 'win'", "key 'outcome'"),
    (
        "[[groupings]]\nkey='g'\nfeature='partner_hearts'\nbins=[[0,0,'a']]\nphrase='x'",
        "unknown feature 'partner_hearts'",
    ),
    (
        "[[groupings]]\nkey='g'\nfeatures=['pile','stock','turn']\nbins=[[[0,0,'a']],[[0,0,'b']],"
        "[[0,0,'c']]]\nphrase='x'",
        "key 'features': a cross table reads exactly two",
    ),
    ("[information]\nlabel='knowing'", "key 'information.knows'"),
    ("[information]\nknows='sevens'\ndo_when=[1,2]", "key 'information.knows' 'sevens'"),
    ("[information]\nknows='partner_aces'", "key 'information.do_when'"),
    ("[positions]\nhands_per_position=-1", "key 'positions.hands_per_position'"),
    ("[positions]\nhands_per_position=2.5", "key 'positions.hands_per_position'"),
]


@pytest.mark.parametrize("edit,named", BAD_SPECS)
def test_malformed_spec_is_refused_in_one_line_naming_the_key(tmp_path, edit, named):
    import tomllib

    from analysis import specs

    data = tomllib.loads(EXAMPLE.read_text())
    extra = tomllib.loads(edit)
    for k, v in extra.items():
        if isinstance(v, list) and k in data:
            data[k] = data[k] + v
        elif isinstance(v, dict) and k in data:
            data[k] = data[k] | v
        else:
            data[k] = v
    with pytest.raises(specs.SpecError) as err:
        specs.parse(data, "mine.toml")
    msg = str(err.value)
    assert "\n" not in msg and named in msg and msg.startswith("mine.toml")


def test_malformed_arm_choice_from_the_command_line(tmp_path, capsys):
    from canasta import main

    bad = tmp_path / "bad.toml"
    bad.write_text(EXAMPLE.read_text().replace('choice = "hold_sevens"', 'choice = "sulk"'))
    assert main(["experiment", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "arms[1]" in err and "'choice'" in err and "sulk" in err
    (tmp_path / "notoml.toml").write_text("key = ")
    assert main(["experiment", str(tmp_path / "notoml.toml")]) == 2
    assert "not TOML" in capsys.readouterr().err


def test_a_user_spec_runs_end_to_end(tmp_path, capsys):
    """``canasta experiment FILE.toml`` on the worked example: a table with the ruleset named,
    every grouping's rows, and its CSV the rows of ``decisions.tables`` for the same run."""
    from canasta import main

    out = tmp_path / "t.csv"
    args = [
        "experiment",
        str(EXAMPLE),
        "--positions",
        "12",
        "--deals",
        "4",
        "--hands",
        "60",
        "--jobs",
        "1",
        "--quiet",
        "--csv",
        str(out),
    ]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "measured under the tournament ruleset" in text
    assert "sevens_gone: no" in text and "opp_canastas: 2+" in text and "rule:" in text
    table = pd.read_csv(out)
    assert list(table["grouping"].unique()) == ["all", "sevens_gone", "opp_canastas"]
    from analysis import specs

    exp = specs.load(EXAMPLE)
    raw = D.run_experiments(12, 4, sample_hands=60, experiments=[exp])
    assert (raw["stock"] <= 30).all() and (raw["sevens"] >= 3).all()
    np.testing.assert_allclose(D.tables(raw)[exp.table]["estimate"], table["estimate"])


def test_score_generator_gives_the_positions_game_scores():
    """``positions.scores`` gives the sampled positions game scores in turn: the margin and the
    opening minimum (OPEN-1) follow, and the played Position carries them."""
    exp = _spec(
        positions={"where": ["not opened"], "scores": [[0, 0], [3500, 0], [0, 5200]]},
        arms=[{"choice": "policy"}, {"choice": "draw"}],
    )
    snaps = [s for s in D.sample_positions(4, seed=2) if exp.select(s)][:3]
    got = [D.scored(s, exp, i) for i, s in enumerate(snaps)]
    assert [g["margin"] for g in got] == [0, 3500, -5200]
    assert [g["min_meld"] for g in got] == [125, 155, 125]
    for g in got:
        mine = g["position"].scores[g["team"]]
        assert mine - g["position"].scores[1 - g["team"]] == g["margin"]


def test_scripted_arms_resolve_at_the_position_and_pair_their_deals(snaps):
    """A scripted arm's steps become the position's action ids (draw, then the discard of a
    seven held); the same script on both arms differs by exactly 0 on every deal, and the
    claim A experiment plays both scripts on the same deals."""
    import dataclasses as dc

    from sim import encoding as E

    # (turn 0: the script's draw is refused in these deals, the position counts no deal)
    snap = next(s for s in snaps if s["sevens"] >= 1 and not s["sevens_dead"] and s["turn"])
    exp = D.BY_KEY["discard_seven"]
    assert D.script_actions(snap, exp.scripts[0]) == [E.A_DRAW, E.A_DISCARD + E.SEVEN]
    other = D.script_actions(snap, exp.scripts[1])
    assert other[0] == E.A_DRAW and other[1] - E.A_DISCARD not in (E.SEVEN, E.ACE, E.TWO)
    same = dc.replace(exp, scripts=(exp.scripts[0], exp.scripts[0]))
    r = D.play_arms(snap, same, 6, seed=3, strong="heuristic")
    assert r["deals"] > 0 and r["diff"] == 0.0
    r = D.play_arms(snap, exp, 6, seed=3, strong="heuristic")
    assert r["deals"] > 0 and np.isfinite(r["diff"])
    # a step with nothing to act on leaves the position out (no deal counted)
    none = dict(snap)
    none["position"] = dc.replace(
        snap["position"], hand=snap["position"].hand[E.CARD_KIND[snap["position"].hand] != E.SEVEN]
    )
    assert D.script_actions(none, exp.scripts[0]) is None


def _spec(**over):
    from analysis import specs

    data = {
        "key": "m",
        "title": "t",
        "do": "a",
        "dont": "b",
        "do_ing": "a",
        "dont_ing": "b",
        "arms": [{"choice": "take_pile"}, {"script": ["draw", "discard seven"]}],
    }
    return specs.parse(data | over, "mine.toml")


def test_arms_play_one_policy_unless_the_spec_compares_policies():
    """After the choice both arms play the experiment's policy; different policies are refused
    in one line naming 'arms' unless ``compares = 'policies'`` says the experiment compares bots."""
    from analysis import specs

    arms = [{"choice": "policy", "policy": "heuristic"}, {"choice": "policy"}]
    with pytest.raises(specs.SpecError) as err:
        _spec(arms=arms)
    assert "key 'arms'" in str(err.value) and "compares" in str(err.value)
    exp = _spec(arms=arms, compares="policies")
    assert "a comparison of bots" in exp.differs


def test_take_pile_pairs_with_a_scripted_arm():
    """A choice that is the turn's first step (take_pile, draw, policy) pairs with a scripted
    arm as that script; another choice is refused naming it."""
    from analysis import specs

    exp = _spec()
    assert exp.scripts == (("take pile",), ("draw", "discard seven"))
    assert "only the turn: take pile vs draw, discard seven" in exp.differs
    with pytest.raises(specs.SpecError) as err:
        _spec(arms=[{"choice": "meld_sevens"}, {"script": ["draw"]}])
    assert "arms[0]" in str(err.value) and "meld_sevens" in str(err.value)


def test_cross_grouping_and_hidden_feature_in_the_table():
    """A cross of two features gives a row per pair of bins; a true-state grouping splits each
    position's deals (its rows weighted by deals); the information rows price the signal."""
    exp = D.BY_KEY["two_cards_block"]
    assert exp.hidden == "partner_sevens" and exp.information.knows == "partner_sevens"
    assert [g.hidden for g in exp.groupings] == [True, False]
    cross = D.BY_KEY["open_or_wait"].groupings[0]
    assert len(cross.cells()) == 6 and cross.cells()[1][0] == "pile 0–3 · they have opened"
    raw = D.synthetic_raw(positions=30)
    t = D.tables(raw)["decision_two_cards_block"]
    assert list(t["grouping"]).count("information") == 2
    assert t[t["grouping"] == "partner_sevens"]["positions"].sum() == 30


def test_hidden_values_are_the_deals_partner_counts(snaps):
    """The partner's sevens in each replayed deal: fixed by (seed, deal), varying over deals,
    never more than the sevens the player cannot see."""
    from sim import encoding as E

    snap = next(s for s in snaps if s["hand_size"] >= 8 and s["stock"] > 30)
    a = D.hidden_values(snap, "partner_sevens", 40, 7)
    assert (a == D.hidden_values(snap, "partner_sevens", 40, 7)).all()
    pos = snap["position"]
    seen = int(np.sum(E.CARD_KIND[pos.hand] == E.SEVEN))
    seen += sum(int(np.sum(E.CARD_KIND[m] == E.SEVEN)) for ms in pos.melds.values() for m in ms)
    assert a.min() >= 0 and a.max() <= 8 - seen and len(set(a.tolist())) > 1


def test_lasting_choices_leave_play_alone_where_they_do_not_apply(snaps):
    """The chase with no special-hand list in force (SPECIAL-7) and the wait for the pile once
    the turn card is drawn (DEAL-3) are the policy's own play on every deal; where they apply
    they change it."""
    from sim import Ruleset
    from sim.api import position_outcomes

    pols = ("heuristic", "heuristic")
    snap = next(s for s in snaps if not s["opened"] and s["stock"] > 30)
    off = Ruleset(special_hands="none")
    a, _ = position_outcomes(30, snap["position"], "chase", seed=3, policies=pols, ruleset=off)
    b, _ = position_outcomes(30, snap["position"], "policy", seed=3, policies=pols, ruleset=off)
    assert (a == b).all()
    late = next(s for s in snaps if s["turn_card_drawn"])
    a, _ = position_outcomes(30, late["position"], "wait_pile_20", seed=3, policies=pols)
    b, _ = position_outcomes(30, late["position"], "policy", seed=3, policies=pols)
    assert (a == b).all()
    near = [s for s in snaps if not s["opened"] and 1 <= s["special_distance"] <= 3][:3]
    changed = 0
    for s in near:
        a, _ = position_outcomes(30, s["position"], "chase", seed=3, policies=pols)
        b, _ = position_outcomes(30, s["position"], "policy", seed=3, policies=pols)
        changed += int((a != b).any())
    assert changed > 0


def test_open_from_hand_is_made_where_the_hand_can_open(snaps):
    """``open_from_hand`` at a turn start whose hand alone can open (OPEN-1..4): the opening is
    made (applied) on most deals (the drawn card never takes a legal opening away); where the
    hand cannot open it is never made."""
    from sim.api import position_outcomes

    pols = ("heuristic", "heuristic")
    can = [s for s in snaps if s["can_open_now"]][:3]
    cannot = [s for s in snaps if not s["opened"] and not s["can_open_now"]][:3]
    assert can and cannot
    for s in can:
        _, applied = position_outcomes(20, s["position"], "open_from_hand", seed=1, policies=pols)
        assert applied.mean() > 0.5
    for s in cannot:
        _, applied = position_outcomes(20, s["position"], "open_from_hand", seed=1, policies=pols)
        assert applied.mean() < 1.0
