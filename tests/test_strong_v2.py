"""strong_v2 (strong's kernel with evaluator=2): its features against the pure-Python twins at
every candidate of real positions, its candidates legal, the compiled choice against a Python
evaluation of the weights, its registry entry and data file, and its training (a tiny run
twice gives the same weights; resuming equals the uninterrupted run)."""

import json

import numpy as np
import pytest

from analysis import distill
from sim.encoding import (
    A_DISCARD,
    A_DRAW,
    A_TAKE_PILE,
    ACTION_TABLE,
    OB_PHASE,
    PH_DRAW,
    R_OK,
    SCRATCH_SIZE,
    TMP_SIZE,
)
from sim.engine.judge import action_reason
from sim.errors import CanastaError
from sim.policies import get, parse
from sim.policies.strong import (
    N_STRONG,
    S_EVALUATOR,
    strong_base_decide,
    strong_decide,
    v2_candidates,
)
from sim.policies.strong_features import K_DISCARD, K_PICKUP, K_START, context
from sim.policies.strong_v2 import load_v2
from sim.policies.strong_v2_features import (
    FEATURE_NAMES_V2,
    K_OPEN,
    N_FEATURES_V2,
    V2_MAX_CANDIDATES,
    check_layout_v2,
    v2_features,
)
from tests.test_expert import RULES, real_positions
from tests.twins import strong_features_twin as twin
from tests.twins import strong_v2_features_twin as twin2


def _v2():
    _, params, _ = parse("strong_v2")
    return params


def _candidates(obs, params):
    """strong_v2's candidates and their features (twice: nothing carried in the scratch)."""
    out = []
    for _ in range(2):
        scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
        rng = np.array([1, 2, 3, 4], dtype=np.uint64)
        a0 = strong_base_decide(obs, params, rng, RULES, scratch)
        cands = np.full(V2_MAX_CANDIDATES, -1, dtype=np.int64)
        aux = np.zeros(V2_MAX_CANDIDATES, dtype=np.int64)
        keeps = np.zeros(V2_MAX_CANDIDATES)
        n, kind = v2_candidates(obs, params, rng, RULES, scratch, a0, cands, aux, keeps)
        phi = np.full((n, N_FEATURES_V2), np.nan)
        ctx = context(obs, params)
        for c in range(n):
            v2_features(obs, ctx, kind, c, cands, aux, keeps, phi[c])
        out.append((a0, n, kind, cands[:n].copy(), aux[:n].copy(), keeps[:n].copy(), phi))
    first, again = out
    assert first[1:3] == again[1:3]
    np.testing.assert_array_equal(first[3], again[3])
    np.testing.assert_array_equal(first[6], again[6])
    return first


def _twin_phi(obs, params, kind, cands, aux, keeps):
    """The twins' feature vectors of the candidates (discard ranks and keep values, the base
    policy's own numbers, read back from the kernel's)."""
    out = np.zeros((len(cands), N_FEATURES_V2))
    for c, a in enumerate(cands):
        row = {}
        nat, two, jk = (int(v) for v in ACTION_TABLE[a, 2:5]) if a >= A_DISCARD else (0, 0, 0)
        if kind == K_PICKUP:
            if a == A_TAKE_PILE:
                row = twin.pickup(obs, params, base_takes=cands[0] == A_TAKE_PILE)
        elif kind == K_OPEN:
            if c == 0:
                row = twin2.opening(obs, params, nat, two, jk)
        elif kind == K_START:
            if c == 0:
                row = twin.start(obs, params, ACTION_TABLE[a, 1], nat + two + jk, False)
        elif A_DISCARD <= a < A_DISCARD + 15:
            row = twin2.discard(obs, params, a - A_DISCARD, aux[c], keeps[c])
        else:
            row = twin.start(obs, params, ACTION_TABLE[a, 1], nat + two + jk, True)
        for name, value in row.items():
            out[c, FEATURE_NAMES_V2.index(name)] = value
    return out


def test_features_agree_with_the_twins_at_every_candidate_of_real_hands():
    """Every feature of every candidate at every decision of 24 heuristic-played hands equals
    the twins' (all four kinds of decision present, the opening among them)."""
    params = _v2()
    seen = {K_PICKUP: 0, K_DISCARD: 0, K_START: 0, K_OPEN: 0}
    for seed in (0, 1, 2, 3):
        for _st, obs in real_positions(seed, hands=6):
            _, n, kind, cands, aux, keeps, phi = _candidates(obs, params)
            if n < 2:
                continue
            seen[kind] += 1
            expect = _twin_phi(obs, params, kind, cands, aux, keeps)
            np.testing.assert_allclose(phi, expect, atol=1e-12)
    assert seen[K_PICKUP] > 10 and seen[K_DISCARD] > 200 and seen[K_OPEN] > 5, seen


def test_candidates_are_legal_every_discard_and_the_base_move_first():
    """cands[0] is the base move; every candidate is legal (action_reason); a discard
    decision lists every legal discard (DISCARD-*); a takeable pile both draw choices."""
    params = _v2()
    tmp = np.zeros(TMP_SIZE, dtype=np.int64)
    checked = 0
    for _st, obs in real_positions(5, hands=6):
        a0, n, kind, cands, *_ = _candidates(obs, params)
        assert cands[0] == a0 and len(set(cands.tolist())) == n
        for a in cands:
            assert action_reason(obs, a, RULES, tmp) == R_OK, (a, cands)
        if n >= 2 and obs[OB_PHASE] == PH_DRAW:
            assert sorted(cands.tolist()) == [A_DRAW, A_TAKE_PILE]
        if kind == K_DISCARD and ACTION_TABLE[a0, 0] == ACTION_TABLE[A_DISCARD, 0]:
            legal = {A_DISCARD + k for k in range(15)}
            legal = {a for a in legal if action_reason(obs, a, RULES, tmp) == R_OK}
            assert legal <= set(cands.tolist())
        checked += n >= 2
    assert checked > 100


def test_compiled_choice_equals_python_evaluation_of_the_weights():
    """strong_decide with evaluator=2 plays the candidate whose twin-computed score (weights @
    phi, in Python) is highest, ties to the base move, for the shipped and random weights."""
    rng = np.random.default_rng(3)
    for weights in (None, rng.normal(0.0, 300.0, N_FEATURES_V2)):
        params = _v2().copy()
        if weights is not None:
            params[N_STRONG:] = weights
        w = params[N_STRONG:]
        changed = 0
        for _st, obs in real_positions(7, hands=5):
            a0, n, kind, cands, aux, keeps, _ = _candidates(obs, params)
            scores = _twin_phi(obs, params, kind, cands, aux, keeps) @ w
            expect = cands[int(np.argmax(scores))] if n > 1 else a0
            scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
            got = strong_decide(obs, params, np.array([1, 2, 3, 4], np.uint64), RULES, scratch)
            assert got == expect
            changed += got != a0
        if weights is not None:
            assert changed > 10


def test_registered_with_the_frozen_references_parameters():
    """strong_v2 is strong's kernel with evaluator=2, the frozen reference's other values and
    its shipped weights as the tail; canasta's --list names it; it is the strongest fast
    policy (advice, decision experiments, the equity table and the report play it)."""
    from sim.policies import names, strongest_fast

    spec, frozen = get("strong_v2"), get("strong_2026_12")
    assert spec.decide is frozen.decide and spec.param_names == frozen.param_names
    ours, theirs = dict(spec.params), dict(frozen.params)
    assert ours.pop("evaluator") == 2.0 and theirs.pop("evaluator") == 1.0
    assert ours == theirs
    assert "strong_v2" in names()
    assert strongest_fast() == "strong_v2"
    data = load_v2()
    np.testing.assert_array_equal(_v2()[N_STRONG:], data["evaluator"]["weights"])


def test_data_file_is_checked():
    data = load_v2()
    check_layout_v2(FEATURE_NAMES_V2)
    with pytest.raises(CanastaError, match="retrain"):
        check_layout_v2(FEATURE_NAMES_V2[:-1])
    bad = json.loads(json.dumps(data))
    bad["parameters"]["evaluator"] = 1.0
    with pytest.raises(CanastaError, match="evaluator"):
        load_v2(bad)
    bad = json.loads(json.dumps(data))
    bad["evaluator"]["weights"] = bad["evaluator"]["weights"][:-1]
    with pytest.raises(CanastaError, match="weights"):
        load_v2(bad)


def test_pool_holds_the_heuristic_the_frozen_reference_and_the_policy():
    """Not the policy alone: its training rounds play and search against the heuristic, the
    frozen reference and itself, a third of the hands each."""
    policy = _v2()
    rows = distill.pool(policy)
    assert rows.shape == (3, len(policy))
    assert rows[0, S_EVALUATOR] == 0.0 and rows[1, S_EVALUATOR] == 1.0
    np.testing.assert_array_equal(rows[2], policy)
    frozen = parse("strong_2026_12")[1]
    np.testing.assert_array_equal(rows[1, : len(frozen)], frozen)


def test_distill2_is_reproducible_and_resumes(tmp_path):
    """A tiny strong_v2 distillation twice gives identical weights; one round with a
    checkpoint then the same run to two equals the uninterrupted two-round run."""
    base = _v2()[:N_STRONG]
    kw = {"seed": 4, "hands": 3, "p_label": 0.3, "samples": 2, "rollouts": 1, "evaluator": 2}
    whole = distill.distill(base, iterations=2, **kw)
    again = distill.distill(base, iterations=2, **kw)
    np.testing.assert_array_equal(whole.weights, again.weights)
    assert len(whole.weights) == N_FEATURES_V2 and whole.history[0]["decisions"] > 5
    ck = tmp_path / "ck"
    distill.distill(base, iterations=1, checkpoint=ck, **kw)
    resumed = distill.distill(base, iterations=2, checkpoint=ck, **kw)
    np.testing.assert_array_equal(resumed.weights, whole.weights)


def test_train_distill2_writes_a_loadable_data_file(tmp_path, capsys):
    """canasta train --stage distill2: a strong_v2 data file (evaluator 2, the frozen
    reference's parameters, the v2 layout) and each round's file in the kept folder."""
    from canasta import main
    from sim.policies.strong import FROZEN_FILE, load_data

    out = tmp_path / "strong_v2.json"
    argv = ["train", "--stage", "distill2", "--iterations", "1", "--hands", "2"]
    argv += ["--label-share", "0.3", "--samples", "2", "--rollouts", "1"]
    argv += ["--validation-deals", "4", "--jobs", "1", "--seed", "3", "--out", str(out)]
    assert main([*argv, "--quiet"]) == 0
    data = json.loads(out.read_text())
    assert load_v2(data) == data
    frozen = load_data(source=FROZEN_FILE)["parameters"]
    assert {k: v for k, v in data["parameters"].items() if k != "evaluator"} == {
        k: v for k, v in frozen.items() if k != "evaluator"
    }
    record = data["evaluator"]["training"]
    assert record["command"].startswith("canasta train --seed=3 --stage=distill2")
    assert set(record["validation"]) >= {"over_heuristic", "over_strong_2026_12", "deals"}
    assert "over strong_2026_12" in capsys.readouterr().out
    assert load_v2(json.loads((tmp_path / "strong_v2.json.distill2" / "round0.json").read_text()))
