"""One side of ``bench_ab.py``: a process that imports one tree's code, warms it, then times calls.

Run by ``bench_ab.py`` as ``python -P _ab_worker.py CONFIG_JSON`` with ``PYTHONPATH`` set to the
tree alone and the tree as working directory (``-P``: this file's directory, which belongs to
another tree, is not put on ``sys.path``). Only the standard library is imported at the top: the
tree's packages are imported inside :func:`main`, after which every loaded module of the
project's packages, and every numba cache directory of ``sim``, must lie inside the tree (an
editable install of another checkout would otherwise answer for a package the tree lacks).

Protocol (one JSON object a line on stdout): ``{"imports": ...}`` after the imports; then one
untimed call of the job at the timed size (compiling, or loading numba's on-disk cache) and
``{"ready": ..., "warm_cpu": ...}``; then one ``{"cpu": ..., "units": ..., "digest": ...}``
for each line ``run`` read on stdin. ``cpu`` is this process's CPU time for the call.

Jobs (``job`` in the config):

* ``hands``: ``sim.api.play_hands`` of hands ``0..size-1`` of one run key, ``spec`` a pair of
  policy specs; units: hands.
* ``expert``: the searched decisions (more than one candidate) of the expert's team in ``size``
  hands of ``spec`` against the heuristic, collected once before the warm-up; each call
  decides all of them again (``expert_decide``, the generator state as collected); units:
  searched decisions; the digest covers the actions chosen, so both trees can be seen to
  make the same decisions.
* ``label``: ``analysis.distill.label`` of ``size`` hands of strong's parameters ``spec`` with
  the distilled evaluator on (p_label 0.5, 24 samples x 2 rollouts, one chunk, one core);
  units: hands; the digest covers the labelled rows.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import time

PACKAGES = ("sim", "analysis", "canasta", "reports", "experiments")  #: the project's packages


def _inside(path: str | None, tree: str) -> bool:
    return path is not None and os.path.realpath(path).startswith(tree + os.sep)


def module_files(tree: str) -> dict:
    """Every loaded module of the project's packages: {name: file}, and those outside ``tree``."""
    files = {}
    for name, mod in list(sys.modules.items()):
        if name.split(".")[0] in PACKAGES:
            f = getattr(mod, "__file__", None)
            if f is None:  # a namespace package: its search path instead
                f = next(iter(getattr(mod, "__path__", []) or []), None)
            files[name] = f
    outside = sorted(n for n, f in files.items() if not _inside(f, tree))
    return {"sim": files.get("sim"), "modules": len(files), "outside": outside}


def cache_dirs() -> list[str]:
    """numba's cache directory of every cached dispatcher in a loaded module of ``sim``."""
    dirs = set()
    for name, mod in list(sys.modules.items()):
        if name.split(".")[0] != "sim":
            continue
        for obj in list(vars(mod).values()):
            path = getattr(getattr(obj, "_cache", None), "_cache_path", None)
            if isinstance(path, str):
                dirs.add(path)
    return sorted(dirs)


def _hands_job(spec, size):
    from sim.api import play_hands
    from sim.rng import run_key

    pair = tuple(spec)

    def call():
        return play_hands(run_key(2), 0, size, pair)

    def digest(df):
        scores = df[["score_team0", "score_team1"]].to_numpy(dtype="int64").tobytes()
        return len(df), hashlib.sha256(scores).hexdigest()[:16]

    return call, digest


def _expert_positions(spec, hands):
    """(observation, generator state) at each non-forced decision of team 0 in ``hands`` hands
    of ``spec`` against the heuristic (as ``bench_expert.py`` collects them). The engine's own
    loop, not ``sim.play.Hand.turns``: the worker imports either tree of a comparison, and an
    older one may have no ``sim.play``."""
    import numpy as np

    from sim import encoding as E
    from sim.engine import play
    from sim.engine.judge import forced_action
    from sim.engine.observe import observe
    from sim.engine.state import apply_action, deal
    from sim.policies import parse
    from sim.policies.builtin import heuristic_decide
    from sim.policies.expert import expert_decide
    from sim.rng import run_key, seed_hand
    from sim.ruleset import as_ruleset

    new_deck = getattr(play, "new_deck", None) or play.new_deck  # renamed private later
    rules = np.ascontiguousarray(as_ruleset(None).to_array())
    _, ep, _ = parse(spec)
    _, hp, _ = parse("heuristic")
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    scratch = np.zeros(E.SCRATCH_SIZE, dtype=np.int64)
    rng = np.zeros(4, dtype=np.uint64)
    deck = np.zeros(E.N_CARDS, dtype=np.int64)
    log = np.zeros(1, dtype=np.int64)
    out = []
    for h in range(hands):
        seed_hand(run_key(1), h, rng)
        new_deck(rng, deck)
        deal(st, deck, h % 4, 0, 0, rules, log)
        while st[E.ST_PHASE] != E.PH_OVER:
            p = st[E.ST_PLAYER]
            observe(st, p, obs)
            a = forced_action(obs)
            if a < 0:
                if p % 2 == 0:
                    out.append((obs.copy(), rng.copy()))
                    a = expert_decide(obs, ep, rng, rules, scratch)
                else:
                    a = heuristic_decide(obs, hp, rng, rules, scratch)
            apply_action(st, a, rules, log)
    return out, ep, rules, scratch


def _expert_job(spec, size):
    import numpy as np

    from sim.policies.expert import MAX_CANDIDATES, candidates, expert_decide

    positions, ep, rules, scratch = _expert_positions(spec, size)
    cands = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    searched = [
        (obs, rng)
        for obs, rng in positions
        if candidates(obs, ep, rng.copy(), rules, scratch, cands) > 1
    ]

    def call():
        return [expert_decide(obs, ep, rng.copy(), rules, scratch) for obs, rng in searched]

    def digest(actions):
        return len(actions), hashlib.sha256(np.array(actions, dtype=np.int64)).hexdigest()[:16]

    return call, digest


def _label_job(spec, size):
    from analysis import distill
    from sim.policies.registry import resolve
    from sim.policies.strong import S_EVALUATOR

    _, params, _ = resolve(spec)
    params = params.copy()
    params[S_EVALUATOR] = 1.0
    kw = {"seed": (5, 0), "p_label": 0.5, "samples": 24, "rollouts": 2}

    def call():
        return distill.label(params, hands=size, n_jobs=1, chunk=size, **kw)

    def digest(lab):
        rows = lab.x.tobytes() + lab.v.tobytes() + lab.meta.tobytes()
        return size, hashlib.sha256(rows).hexdigest()[:16]

    return call, digest


JOBS = {"hands": _hands_job, "expert": _expert_job, "label": _label_job}


def _say(obj) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def main(argv=None) -> int:
    cfg = json.loads((argv or sys.argv)[1])
    tree = os.path.realpath(cfg["tree"])
    found = importlib.util.find_spec("sim")
    origin = found.origin if found is not None else None
    if not _inside(origin, tree):  # another checkout's sim: stop before running any of it
        _say({"imports": {"sim": origin, "modules": 0, "outside": ["sim"]}})
        return 1
    import sim  # noqa: F401 (the check below reads where it came from)

    _say({"imports": module_files(tree)})
    c0 = time.process_time()
    call, digest = JOBS[cfg["job"]](cfg["spec"], cfg["size"])
    call()  # the warm-up: the first call compiles or loads the cache, outside the timing
    warm = time.process_time() - c0
    _say(
        {
            "ready": True,
            "warm_cpu": warm,
            "imports": module_files(tree),
            "caches": cache_dirs(),
            "pid": os.getpid(),
        }
    )
    for line in sys.stdin:
        if line.strip() != "run":
            break
        c0 = time.process_time()
        out = call()
        cpu = time.process_time() - c0
        units, d = digest(out)
        _say({"cpu": cpu, "units": units, "digest": d})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
