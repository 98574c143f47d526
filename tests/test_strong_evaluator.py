"""strong's evaluator: its features against the pure-Python twin, the compiled
choice against a Python evaluation of the same weights, its candidate moves, the neutral
switch, and the distillation's training data (reproducible for any split, a fit that finds
known weights, a checkpoint that resumes)."""

import numpy as np
import pytest

from analysis import distill
from sim.encoding import (
    A_DISCARD,
    A_DRAW,
    A_TAKE_PILE,
    OB_PHASE,
    PH_DRAW,
    R_OK,
    SCRATCH_SIZE,
    TMP_SIZE,
)
from sim.engine.judge import action_reason
from sim.errors import CanastaError
from sim.policies import parse
from sim.policies.strong import (
    MAX_CANDIDATES,
    N_STRONG,
    S_EVALUATOR,
    evaluator_on,
    strong_base_decide,
    strong_candidates,
    strong_decide,
)
from sim.policies.strong_features import (
    D_FIRST,
    FEATURE_NAMES,
    K_DISCARD,
    K_PICKUP,
    K_START,
    N_FEATURES,
    P_FIRST,
    S_FIRST,
    check_layout,
)
from tests.test_expert import RULES, real_positions
from tests.twins import strong_features_twin as twin


def _strong():
    _, params, _ = parse("strong")
    return params


def _candidates(obs, params):
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    rng = np.array([1, 2, 3, 4], dtype=np.uint64)
    a0 = strong_base_decide(obs, params, rng, RULES, scratch)
    cands = np.full(MAX_CANDIDATES, -1, dtype=np.int64)
    phi = np.full((MAX_CANDIDATES, N_FEATURES), np.nan)
    n, kind = strong_candidates(obs, params, rng, RULES, scratch, a0, cands, phi)
    again = np.full(MAX_CANDIDATES, -1, dtype=np.int64)
    phi2 = np.full((MAX_CANDIDATES, N_FEATURES), np.nan)
    fresh = np.zeros(SCRATCH_SIZE, dtype=np.int64)  # nothing left by the base move's call
    assert strong_candidates(obs, params, rng, RULES, fresh, a0, again, phi2) == (n, kind)
    np.testing.assert_array_equal(again[:n], cands[:n])  # no state carried in the scratch
    np.testing.assert_array_equal(phi2[:n], phi[:n])
    return a0, n, kind, cands[:n], phi[:n]


def _twin_phi(obs, params, kind, cands, phi):
    """The twin's feature vectors of the candidates, the discard ranks and keep values read
    back from the kernel's rows (they are the base policy's own numbers, tested apart)."""
    out = np.zeros((len(cands), N_FEATURES))
    for c, a in enumerate(cands):
        row = {}
        if kind == K_START and c > 0:
            pass  # holding instead of starting: the zero vector
        elif a == A_TAKE_PILE:
            row = twin.pickup(obs, params, base_takes=cands[0] == A_TAKE_PILE)
        elif A_DISCARD <= a < A_DISCARD + 15:
            f = phi[c, D_FIRST:S_FIRST]
            rank = 1 if f[1] else 2 if f[2] else 3 if f[3] else 0
            row = twin.discard(obs, params, a - A_DISCARD, rank, f[4] * 100)
        elif phi[c, S_FIRST] == 1.0:
            from sim.encoding import ACTION_TABLE

            slot, nat, two, jk = ACTION_TABLE[a, 1:5]
            row = twin.start(obs, params, slot, nat + two + jk, at_discard=kind == K_DISCARD)
        for name, value in row.items():
            out[c, FEATURE_NAMES.index(name)] = value
    return out


def test_features_agree_with_the_twin_at_every_candidate_of_real_hands():
    """Every feature of every candidate at every decision of 24 heuristic-played hands equals
    the twin's (the three blocks, the kinds of decision all present)."""
    params = _strong()
    seen = {K_PICKUP: 0, K_DISCARD: 0, K_START: 0}
    for seed in (0, 1, 2, 3):
        for _st, obs in real_positions(seed, hands=6):
            _, n, kind, cands, phi = _candidates(obs, params)
            if n < 2:
                continue
            seen[kind] += 1
            np.testing.assert_allclose(phi, _twin_phi(obs, params, kind, cands, phi), atol=1e-12)
    assert seen[K_PICKUP] > 10 and seen[K_DISCARD] > 200, seen


def test_candidates_are_legal_and_start_with_the_base_move():
    """cands[0] is the base move; every candidate is legal (action_reason); a takeable pile
    lists both draw choices (PILE-1/2), a discard up to four discards first."""
    params = _strong()
    tmp = np.zeros(TMP_SIZE, dtype=np.int64)
    checked = 0
    for _st, obs in real_positions(5, hands=6):
        a0, n, _, cands, _ = _candidates(obs, params)
        assert cands[0] == a0
        assert len(set(cands.tolist())) == n
        for a in cands:
            assert action_reason(obs, a, RULES, tmp) == R_OK, (a, cands)
        if n >= 2 and obs[OB_PHASE] == PH_DRAW:
            assert sorted(cands.tolist()) == [A_DRAW, A_TAKE_PILE]
        checked += n >= 2
    assert checked > 100


def test_compiled_choice_equals_python_evaluation_of_the_weights():
    """strong_decide plays the candidate whose twin-computed score (weights @ phi, in Python)
    is highest, ties to the base move, at every evaluator decision of real hands, for the
    shipped weights and for random ones."""
    rng = np.random.default_rng(3)
    for weights in (None, rng.normal(0.0, 300.0, N_FEATURES)):
        params = _strong().copy()
        params[S_EVALUATOR] = 1.0
        if weights is not None:
            params[N_STRONG:] = weights
        w = params[N_STRONG:]
        changed = 0
        for _st, obs in real_positions(7, hands=5):
            a0, n, kind, cands, phi = _candidates(obs, params)
            scores = _twin_phi(obs, params, kind, cands, phi) @ w
            expect = cands[int(np.argmax(scores))] if n > 1 else a0
            scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
            got = strong_decide(obs, params, np.array([1, 2, 3, 4], np.uint64), RULES, scratch)
            assert got == expect
            changed += got != a0
        if weights is not None:
            assert changed > 10


def test_evaluator_off_is_the_base_policy():
    """evaluator=0, or a parameter array without the weights (the tuning stage's), plays the
    base move at every decision."""
    on = _strong().copy()
    on[S_EVALUATOR] = 1.0
    on[N_STRONG:] = np.random.default_rng(1).normal(0.0, 300.0, N_FEATURES)
    off = on.copy()
    off[S_EVALUATOR] = 0.0
    short = on[:N_STRONG].copy()
    assert evaluator_on(on) and not evaluator_on(off) and not evaluator_on(short)
    for _st, obs in real_positions(9, hands=3):
        r = np.array([1, 2, 3, 4], np.uint64)
        base = strong_base_decide(obs, on, r.copy(), RULES, np.zeros(SCRATCH_SIZE, np.int64))
        for p in (off, short):
            s = np.zeros(SCRATCH_SIZE, np.int64)
            assert strong_decide(obs, p, r.copy(), RULES, s) == base


def test_data_file_layout_is_checked():
    check_layout(FEATURE_NAMES)
    with pytest.raises(CanastaError, match="retrain"):
        check_layout(FEATURE_NAMES[:-1])
    assert P_FIRST == 0 and D_FIRST < S_FIRST < N_FEATURES


def test_labels_are_the_same_for_any_chunk_and_jobs():
    """The training rows depend only on the seed: one chunk per hand on two jobs, or all the
    hands in one chunk, give the same rows; every decision's values are the search's means."""
    params = _strong().copy()
    params[S_EVALUATOR] = 1.0
    kw = {"hands": 4, "seed": (3, 0), "p_label": 0.2, "samples": 2, "rollouts": 1}
    a = distill.label(params, n_jobs=1, chunk=4, **kw)
    b = distill.label(params, n_jobs=2, chunk=1, **kw)
    assert a.decisions > 5
    np.testing.assert_array_equal(a.x, b.x)
    np.testing.assert_array_equal(a.v, b.v)
    np.testing.assert_array_equal(a.meta, b.meta)


def test_fit_finds_known_weights_from_noisy_advantages():
    """Synthetic decisions whose values are w_true @ phi plus noise: the ridge fit of the
    advantages finds w_true (4 standard errors of each coordinate, from the noise)."""
    from sim.policies.strong_train import N_ROW_COLUMNS, R_CANDIDATE, R_N

    rng = np.random.default_rng(0)
    k = 6
    w_true = rng.normal(0.0, 100.0, N_FEATURES)
    w_true[k:] = 0.0
    x, v, meta = [], [], []
    for _ in range(6000):
        n = 2  # (independent errors across rows: the SE below is exact)
        phi = np.zeros((n, N_FEATURES))
        phi[:, :k] = rng.random((n, k))
        x.append(phi)
        v.append(phi @ w_true + rng.normal(0.0, 50.0, n))
        m = np.zeros((n, N_ROW_COLUMNS), np.int64)
        m[:, R_CANDIDATE] = np.arange(n)
        m[:, R_N] = n
        meta.append(m)
    data = distill.Labels(np.concatenate(x), np.concatenate(v), np.concatenate(meta))
    w = distill.fit(data, ridge=1e-6)
    dx, _, _ = distill.advantages(data)
    cov = np.linalg.pinv(dx[:, :k].T @ dx[:, :k]) * (2 * 50.0**2)  # var of v_c - v_0
    se = np.sqrt(np.diag(cov))
    assert np.all(np.abs(w[:k] - w_true[:k]) < 4 * se), (w[:k], w_true[:k], se)
    assert distill.offline_gain(w, data)["all"]["decisions"] == 6000


def test_distill_resumes_from_its_checkpoint(tmp_path):
    """An interrupted distillation loses no finished iteration: one iteration with a
    checkpoint, then the same run to two, equals the uninterrupted two-iteration run (the
    first iteration's rows are not labelled again); another run's checkpoint is refused."""
    base = _strong()[:N_STRONG]
    kw = {"seed": 4, "hands": 2, "p_label": 0.3, "samples": 2, "rollouts": 1}
    whole = distill.distill(base, iterations=2, **kw)
    ck = tmp_path / "ck"
    distill.distill(base, iterations=1, checkpoint=ck, **kw)
    seen = []
    resumed = distill.distill(
        base, iterations=2, checkpoint=ck, progress=lambda s, d, t: seen.append(s), **kw
    )
    assert seen and all(s.startswith("iteration 2/") for s in seen)
    np.testing.assert_array_equal(resumed.weights, whole.weights)

    # the same record, but for each iteration's labelling wall time (0.0 or 0.1 s here)
    def untimed(history):
        return [{k: v for k, v in h.items() if k != "label_seconds"} for h in history]

    assert untimed(resumed.history) == untimed(whole.history)
    with pytest.raises(CanastaError, match="another run"):
        distill.distill(base, iterations=2, checkpoint=ck, **(kw | {"seed": 5}))


def test_train_distill_stage_writes_a_loadable_data_file(tmp_path, capsys):
    """canasta train --stage distill: the evaluator switched on, its weights and record added
    to the base's tuned parameters; the file loads as strong's data."""
    import json

    from canasta import main
    from sim.policies.strong import load_data

    out = tmp_path / "strong.json"
    argv = ["train", "--stage", "distill", "--iterations", "1", "--hands", "2"]
    argv += ["--label-share", "0.3", "--samples", "2", "--rollouts", "1"]
    argv += ["--validation-deals", "4", "--jobs", "1", "--seed", "3", "--out", str(out)]
    assert main([*argv, "--quiet"]) == 0
    data = json.loads(out.read_text())
    assert load_data(data) == data and data["parameters"]["evaluator"] == 1.0
    shipped = load_data()
    tuned = {k: v for k, v in data["parameters"].items() if k != "evaluator"}
    assert tuned == {k: v for k, v in shipped["parameters"].items() if k != "evaluator"}
    record = data["evaluator"]["training"]
    assert record["command"].startswith("canasta train --seed=3 --stage=distill")
    assert set(record["validation"]) >= {"over_heuristic", "over_base", "deals"}
    assert "over heuristic" in capsys.readouterr().out
    assert not (tmp_path / "strong.json.distill").exists()  # the checkpoint is gone


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--label-share", "0"], "--label-share"),
        (["--label-share", "1.5"], "--label-share"),
        (["--iterations", "0"], "--iterations"),
        (["--stage", "tune", "--base", "x.json"], "--base"),
        (["--stage", "distill", "--base", "/nonexistent.json"], "--base"),
    ],
)
def test_train_distill_bad_input_is_one_line(tmp_path, capsys, args, message):
    from canasta import main

    out = str(tmp_path / "x.json")
    assert main(["train", *args, "--out", out, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta: error:") and message in err and "Traceback" not in err


def test_train_all_stages_tunes_then_distills_from_its_own_tune(tmp_path):
    """The default --stage all: the tune stage's parameters (not the shipped ones) with the
    distill stage's evaluator on top, both records kept."""
    import json

    from canasta import main
    from sim.policies.strong import load_data

    out = tmp_path / "strong.json"
    argv = ["train", "--generations", "1", "--deals", "4", "--iterations", "1", "--hands", "2"]
    argv += ["--label-share", "0.3", "--samples", "2", "--rollouts", "1"]
    argv += ["--validation-deals", "4", "--jobs", "1", "--seed", "3", "--out", str(out)]
    assert main([*argv, "--quiet"]) == 0
    data = json.loads(out.read_text())
    assert load_data(data) == data and data["parameters"]["evaluator"] == 1.0
    assert data["training"]["command"].startswith("canasta train --seed=3 --stage=tune")
    assert data["evaluator"]["training"]["command"].startswith("canasta train --seed=3 --stage=dis")
    shipped = load_data()["parameters"]
    assert data["parameters"]["sevens_threshold"] != shipped["sevens_threshold"]
