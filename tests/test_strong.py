"""The ``strong`` policy: the heuristic's kernel with learned parameters, its data
file, the training command, and its strength against the heuristic on duplicate deals."""

import json

import numpy as np
import pytest

from analysis import training
from canasta import main
from sim.api import play_hands
from sim.encoding import OB_SEAT, OBS_SIZE, SCRATCH_SIZE, STATE_SIZE
from sim.engine.observe import observe
from sim.engine.search import WORK_SIZE, determinize
from sim.errors import CanastaError
from sim.policies import get, parse, strongest_fast
from sim.policies.builtin import HEURISTIC_TABLE, heuristic_decide
from sim.policies.registry import STRENGTH_ORDER
from sim.policies.strong import EXTRA_TABLE, NEUTRAL, load_data, strong_decide
from sim.rng import run_key
from tests.test_expert import RULES, real_positions
from tests.test_policies import duplicate_difference


def test_strong_registered_with_the_shipped_parameters():
    """The registry's defaults are the data file's values, in the heuristic's order, each
    overridable by spec; strong ranks after strong_v2 among the fast policies (the
    strongest fast policy when strong_v2 is not registered)."""
    data = load_data()
    spec = get("strong")
    assert spec.param_names == tuple(n for n, _, _ in (*HEURISTIC_TABLE, *EXTRA_TABLE))
    assert dict(spec.params) == data["parameters"]
    order = STRENGTH_ORDER
    assert order.index("strong_v2") < order.index("strong") < order.index("heuristic")
    assert strongest_fast() != "strong"  # strong_v2 is registered (tests/test_strong_v2.py)
    _, arr, _ = parse("strong:sevens_threshold=6")
    n = len(spec.param_names)
    assert arr[0] == 6.0 and list(arr[1:n]) == [data["parameters"][k] for k in spec.param_names[1:]]
    assert list(arr[n:]) == data["evaluator"]["weights"]  # the evaluator's, after the names
    t = data["training"]
    for key in ("seed", "generations", "deals", "command", "validation", "date", "history"):
        assert key in t, key
    assert t["command"].startswith("canasta train ")


def _decisions(params: np.ndarray, decide, seeds=(0, 1, 2)) -> list[int]:
    out = []
    for seed in seeds:
        for _st, obs in real_positions(seed, hands=4):
            rng = np.array([1, 2, 3, 4], dtype=np.uint64)
            scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
            out.append(decide(obs, params, rng, RULES, scratch))
    return out


def test_strong_at_neutral_values_is_the_heuristic():
    """strong's kernel with the heuristic's defaults and EXTRA_TABLE's neutral values decides
    exactly as heuristic_decide at every decision of 12 heuristic-played hands (so the
    training's baseline opponent is the heuristic)."""
    _, hp, _ = parse("heuristic")
    neutral = np.array(list(NEUTRAL.values()))
    a, b = _decisions(hp, heuristic_decide), _decisions(neutral, strong_decide)
    assert len(a) > 500 and a == b


@pytest.mark.parametrize(
    ("name", "value"),
    [("new_meld_min", 4.0), ("pair_keep", 40.0), ("meld_keep", 0.0), ("early_dump", 2.0)],
)
def test_each_extra_parameter_changes_decisions(name, value):
    """Each of the four kernel parameters the heuristic leaves neutral and strong tunes is read:
    moved from its neutral value it changes some
    of the decisions of 12 real hands (and not most of them: the rest is the heuristic's)."""
    neutral = np.array(list(NEUTRAL.values()))
    moved = neutral.copy()
    moved[list(NEUTRAL).index(name)] = value
    a, b = _decisions(neutral, strong_decide), _decisions(moved, strong_decide)
    differ = sum(x != y for x, y in zip(a, b, strict=True))
    assert 0 < differ < len(a) // 2, (name, differ, len(a))


def test_strong_same_observation_different_hidden_cards_same_decisions():
    """Uses only what its player could see: positions with the same observation but the other
    hands and the stock dealt anew (sim.engine.search.determinize) get the same decision."""
    _, params, _ = parse("strong")
    srng = np.array([7, 0, 0, 0], dtype=np.uint64)
    other = np.zeros(STATE_SIZE, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    obs2 = np.zeros(OBS_SIZE, dtype=np.int64)
    checked = 0
    for _st, obs in real_positions(13, hands=3):
        assert determinize(obs, other, srng, work)
        observe(other, obs[OB_SEAT], obs2)
        np.testing.assert_array_equal(obs2, obs)
        rng = np.array([1, 2, 3, 4], dtype=np.uint64)
        a = strong_decide(obs, params, rng.copy(), RULES, np.zeros(SCRATCH_SIZE, dtype=np.int64))
        b = strong_decide(obs2, params, rng.copy(), RULES, np.zeros(SCRATCH_SIZE, dtype=np.int64))
        assert a == b
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("other", ["strong", "heuristic", "random", "special_chaser"])
def test_strong_never_proposes_an_illegal_action(other):
    """Over 600 real hands per seating (invariants checked after every action, debug), no
    proposal of either team is refused and replaced (policy_errors, sim.engine.judge)."""
    for pair in (("strong", other), (other, "strong")):
        df = play_hands(run_key(31), 0, 600, pair, debug=True)
        assert (df.policy_errors == 0).all(), pair
        assert set(df.end_reason) <= {"out", "special", "stock"}


def test_training_is_reproducible_from_its_seed():
    """Same seed -> same parameters and history, whatever the number of jobs; another seed
    searches elsewhere."""
    kw = {"generations": 2, "deals": 8, "validation_deals": 8, "popsize": 4}
    a = training.train(seed=5, n_jobs=1, **kw)
    b = training.train(seed=5, n_jobs=2, **kw)
    c = training.train(seed=6, n_jobs=1, **kw)
    assert a.parameters == b.parameters and a.history == b.history
    assert a.validation == b.validation
    assert a.parameters != c.parameters
    lo, hi = training._scale()
    vals = np.array(list(a.parameters.values()))
    assert (vals >= lo).all() and (vals <= hi).all()


def test_train_command_writes_a_loadable_data_file(tmp_path, capsys):
    out = tmp_path / "strong.json"
    argv = ["train", "--stage", "tune", "--generations", "1", "--deals", "4"]
    argv += ["--validation-deals", "4"]
    assert main([*argv, "--jobs", "1", "--seed", "2", "--out", str(out), "--quiet"]) == 0
    data = json.loads(out.read_text())
    assert data["version"] == load_data()["version"]
    assert set(data["parameters"]) == set(get("strong").param_names)
    assert load_data(data) == data
    assert data["parameters"]["evaluator"] == 0.0  # the tune stage alone: no evaluator
    assert data["training"]["command"].startswith("canasta train --seed=2 --stage=tune")
    assert "margin over heuristic" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deals", "1"], "--deals"),
        (["--generations", "0"], "--generations"),
        (["--seed", "-1"], "--seed"),
    ],
)
def test_train_bad_input_is_one_line(tmp_path, capsys, args, message):
    out = str(tmp_path / "x.json")
    assert main(["train", *args, "--out", out, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta: error:") and message in err and "Traceback" not in err


def test_strong_beats_heuristic_on_duplicate_deals():
    """strong scores more than heuristic per hand over 4,000 duplicate deals (seed 4242): the
    mean difference minus 4.5 standard errors of the mean over deals is above zero."""
    d = duplicate_difference("strong", "heuristic", 4_000, seed=4242)
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert d.mean() - 4.5 * se > 0, (d.mean(), se)


def test_training_resumes_from_its_checkpoint(tmp_path):
    """An interrupted run loses no finished generation: one generation with a checkpoint,
    then the same run to two generations, equals the uninterrupted two-generation run; a
    checkpoint of another run is refused, not overwritten."""
    kw = {"seed": 5, "deals": 8, "validation_deals": 8, "popsize": 4, "n_jobs": 1}
    whole = training.train(generations=2, **kw)
    ck = tmp_path / "run.partial.json"
    training.train(generations=1, checkpoint=ck, **kw)
    assert len(json.loads(ck.read_text())["history"]) == 1
    seen = []
    resumed = training.train(generations=2, checkpoint=ck, progress=seen.append, **kw)
    assert [r["generation"] for r in seen] == [1]  # generation 0 was not played again
    assert resumed.parameters == whole.parameters and resumed.history == whole.history
    with pytest.raises(CanastaError, match="another run"):
        training.train(generations=2, checkpoint=ck, **(kw | {"seed": 6}))


#: Game(3, 95): the actions up to a team's opening turn where another player (expert_strong's
#: search, as a human seat could) melded 3x7, 3x6, 3x4 towards a minimum of 125, leaving
#: JK 2 5 5 9: only 2x5+2+JK completes it, leaving the 9 alone to discard (bonus cards follow)
_BEGUN_BY_ANOTHER = [2, 0, 188, 177, 168, 492, 15, 2, 0, 15, 1, 18, 0, 12, 0, 10, 0, 14, 0, 18]
_BEGUN_BY_ANOTHER += [0, 15, 0, 18, 0, 18, 0, 16, 0, 20, 0, 19, 0, 2, 16, 0, 14, 0, 16, 0, 18, 0]
_BEGUN_BY_ANOTHER += [16, 0, 12, 0, 16, 0, 472, 13, 0, 14, 0, 13, 0, 18, 0, 13, 0, 16, 0, 19, 0]
_BEGUN_BY_ANOTHER += [16, 0, 19, 0, 256, 197, 79]


@pytest.mark.parametrize("name", ["heuristic", "strong"])
def test_opening_begun_by_another_is_completed_with_bonus_cards_open_1_open_5_out_2(name):
    """OPEN-1 (a begun opening must stand), OPEN-5/OUT-2 (a player owed bonus cards needs only
    the card to discard): the policy completes an opening it did not plan, through the plan
    that leaves a single card; it used to propose no action (-1) here."""
    from sim.encoding import OB_MELDED, OB_OPENED
    from sim.engine.observe import bonus_owed
    from sim.play import Hand as Game
    from sim.play.view import SeatView

    g = Game(3, 95)
    for a in _BEGUN_BY_ANOTHER:
        g.apply(a)
    obs = g.observation()
    assert obs[OB_MELDED] == 1 and obs[OB_OPENED] == 0 and bonus_owed(obs)
    assert list(SeatView.from_observation(obs).hand) == [
        1,
        1,
        0,
        0,
        0,
        2,
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        0,
        0,
    ]
    seat = g.current_player
    for _ in range(4):  # meld until the opening stands, then discard the 9
        a = g.policy_action(name)
        assert a >= 0 and g.reason(a) == 0, (a, g.legal_actions_described())
        g.apply(a)
        if g.current_player != seat:
            break
    assert g.actions[-1] == 15  # discard 9: the opening stood (else the turn could not end)
    assert g.observation(seat)[OB_OPENED] == 1


#: SPECIAL-9: a club list of one easy hand (seven pairs, natural or matching wild)
EASY_LIST = [{"name": "easy_pairs", "award": 2500, "groups": [{"size": 2, "kind": "either"}] * 7}]


def test_special_8_9_strong_chases_the_nearest_hand_of_the_list_in_force():
    """SPECIAL-8/9: under a list with one easy hand, 800 fixed-seed hands of strong vs strong
    make it more often with the shipped chase_distance than with the chase off (0). Counts
    ~Poisson: the difference must exceed 4 standard errors, sqrt(on + off) (measured at
    writing: 30-odd off, 100-odd on)."""
    import sim
    from sim.ruleset import Ruleset

    rules = Ruleset(special_hands=EASY_LIST)
    assert load_data()["parameters"]["chase_distance"] > 0

    def made(spec):
        df = sim.simulate(800, (spec, spec), seed=32, ruleset=rules, n_jobs=1)
        return int((df["special_hand"].astype(str) == "easy_pairs").sum())

    on, off = made("strong"), made("strong:chase_distance=0")
    assert on - off > 4 * np.sqrt(on + off), (on, off)


def test_special_7_tournament_list_keeps_strong_s_play_without_the_chase():
    """SPECIAL-7: under the tournament list (the default) chase_distance changes nothing:
    the same records whatever its value (the chase reads only the other lists)."""
    import sim

    a = sim.simulate(60, ("strong", "strong"), seed=4)
    b = sim.simulate(60, ("strong:chase_distance=0", "strong:chase_distance=0"), seed=4)
    cols = [c for c in a.columns if not c.startswith("policy")]
    assert a[cols].equals(b[cols])
