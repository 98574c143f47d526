"""``canasta train``: learn the ``strong`` policy (analysis.training, analysis.distill).

Two stages, reproducible from ``--seed``: ``tune``, black-box tuning of the heuristic kernel's
parameters on duplicate deals against a pool of opponents (the heuristic and the optimizer's
current policy); ``distill``, expert iteration that fits the evaluator of candidate moves to
the search's values (from the tuned parameters of ``--base``, or of the tune stage with
``--stage all``). Writes the data file ``strong`` reads (``sim/policies/data/strong.json``'s
layout) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys

from canasta import flags

__all__ = ["run"]

HELP = "learn the strong policy on duplicate deals and from search (writes its data file)"
DESCRIPTION = """
Stage tune: the heuristic kernel's parameters with a diagonal cross-entropy evolution
strategy: each generation plays POPSIZE candidates against a pool (the heuristic, and the
current mean) on --deals fresh duplicate deals shared by every candidate, and moves toward the
better half. Stage distill: --iterations rounds of expert iteration: --hands hands of the
current strong, a --label-share of its decisions with candidate moves valued by the expert's
search over its own rollouts (--samples x --rollouts positions each), and the evaluator's
weights refitted to all the data (ridge regression of the candidates' advantages). Stage all
(the default) runs both; distill alone starts from the tuned parameters of --base (default:
the shipped data file). Stage distill2 fits strong_v2's wider evaluator (every legal discard,
opening now or waiting) at the frozen reference's (strong_2026_12's) parameters, against a
pool of the heuristic, strong_2026_12 and the current policy; its folder of rounds beside
--out is kept, so a rerun with more --iterations goes on from it (copy the result to
sim/policies/data/strong_v2.json to ship it). The result (parameters, weights, settings,
commands, margins on fresh deals and the histories) is written as JSON to --out; copy it to
sim/policies/data/strong.json to ship it. The same --seed gives the same result for any --jobs.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("train", help=HELP, description=DESCRIPTION)
    flags.number(p, "--generations", 60, "optimizer generations")
    flags.number(p, "--deals", 2000, "duplicate deals per generation")
    flags.number(
        p,
        "--validation-deals",
        10_000,
        "fresh duplicate deals measuring the result against the heuristic",
    )
    p.add_argument(
        "--stage",
        choices=("all", "tune", "distill", "distill2"),
        default="all",
        help="tune, distill, or both in turn (default all); distill2: strong_v2's evaluator "
        "from the frozen reference's parameters (writes strong_v2.json's layout)",
    )
    p.add_argument(
        "--base",
        metavar="FILE.json",
        help="distill: the data file whose tuned parameters to start from (default: shipped)",
    )
    flags.number(p, "--iterations", 3, "distill rounds")
    flags.number(p, "--hands", 3000, "hands per distill round")
    p.add_argument(
        "--label-share",
        type=float,
        default=1.0,
        help="share of the decisions with candidates valued by search (default 1: all)",
    )
    flags.number(p, "--samples", 24, "search: deals of the unseen cards")
    flags.number(p, "--rollouts", 2, "search: stock orders per deal")
    p.add_argument("--out", required=True, metavar="FILE.json", help="where to write the result")
    flags.add(p, "seed", "jobs", "quiet", seed="training seed (default 0)")
    p.set_defaults(func=run)


def _check_out(out: str) -> None:
    """``--out`` can be written: not a folder, in a folder that exists and is writable."""
    import os
    from pathlib import Path

    from sim.errors import CanastaError

    path = Path(out)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise CanastaError(f"--out {out}: is a folder; give a file such as strong.json")
    if not parent.is_dir():
        raise CanastaError(f"--out {out}: no such folder {str(parent)!r}")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CanastaError(f"--out {out}: not writable")


def _write(out: str, data: dict) -> None:
    try:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
    except OSError as exc:
        from sim.errors import CanastaError

        raise CanastaError(f"--out {out}: {exc.strerror or exc}") from None


def _command(args: argparse.Namespace, flags: list[str]) -> str:
    return "canasta train " + " ".join(shlex.quote(a) for a in flags)


def _tune(args: argparse.Namespace) -> dict:
    """The tune stage: the data file of its result (evaluator off)."""
    from analysis.training import data_file, train

    # every finished generation is kept beside --out; a rerun of the same command goes on
    checkpoint = args.out + ".partial.json"
    done = 0
    if os.path.exists(checkpoint):
        try:
            with open(checkpoint, encoding="utf-8") as f:
                done = min(len(json.load(f).get("history", [])), args.generations)
        except (OSError, ValueError, AttributeError):
            done = 0  # train() names the problem
        if not args.quiet:
            print(f"going on from {checkpoint} ({done} generations done)", file=sys.stderr)
    bar = None
    if not args.quiet:
        from tqdm import tqdm

        bar = tqdm(total=args.generations, initial=done, desc="tune", unit="gen", file=sys.stderr)

    def progress(row: dict) -> None:
        if bar is not None:
            bar.set_postfix(best=f"{row['best']:+.0f}", vs_h=f"{row['best_vs_heuristic']:+.0f}")
            bar.update(1)

    result = train(
        seed=args.seed,
        generations=args.generations,
        deals=args.deals,
        n_jobs=args.jobs,
        validation_deals=args.validation_deals,
        progress=progress,
        checkpoint=checkpoint,
    )
    if bar is not None:
        bar.close()
    flags = [
        f"--seed={args.seed}",
        "--stage=tune",
        f"--generations={args.generations}",
        f"--deals={args.deals}",
        f"--validation-deals={args.validation_deals}",
        f"--jobs={args.jobs}",
        f"--out={args.out}",
    ]
    if os.path.exists(checkpoint):
        os.remove(checkpoint)  # the stage is done
    v = result.validation
    if not args.quiet:
        print(
            f"tuned: margin over heuristic on {v['deals']} fresh duplicate deals "
            f"{v['mean_diff']:+.1f} points a hand",
            file=sys.stderr,
        )
    return data_file(result, _command(args, flags))


def _base_data(path: str | None) -> dict:
    """The data file the distill stage starts from (its tuned parameters)."""
    from sim.errors import CanastaError
    from sim.policies.strong import load_data

    if path is None:
        return load_data()
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as exc:
        raise CanastaError(f"--base {path}: not a readable data file ({exc})") from None
    return load_data(data, source=f"--base {path}")


def _distill(args: argparse.Namespace, data: dict) -> dict:
    """The distill stage from ``data``'s tuned parameters: the data file with the evaluator
    (stage distill2: strong_v2's)."""
    import numpy as np

    from analysis.distill import distill, validate, validate_v2, with_evaluator
    from sim.policies.strong import NEUTRAL

    v2 = args.stage == "distill2"
    folder = args.out + (".distill2" if v2 else ".distill")

    named = np.array([float(data["parameters"][n]) for n in NEUTRAL])
    bars = {}

    def progress(stage: str, done: int, total: int) -> None:
        if args.quiet:
            return
        from tqdm import tqdm

        if stage not in bars:
            for b in bars.values():
                b.close()
            bars[stage] = tqdm(total=total, desc=f"distill {stage}", unit="hand", file=sys.stderr)
        bars[stage].update(done)

    result = distill(
        named,
        seed=args.seed,
        iterations=args.iterations,
        hands=args.hands,
        p_label=args.label_share,
        n_jobs=args.jobs,
        samples=args.samples,
        rollouts=args.rollouts,
        checkpoint=folder,
        progress=progress,
        evaluator=2 if v2 else 1,
        round_done=(lambda it, p: _round_file(folder, it, data, p)) if v2 else None,
    )
    for b in bars.values():
        b.close()
    from sim.policies.strong import N_STRONG, S_EVALUATOR

    policy = np.concatenate([named[:N_STRONG], result.weights])
    policy[S_EVALUATOR] = 2.0 if v2 else 1.0
    check = validate_v2 if v2 else validate
    validation = check(policy, args.seed, args.validation_deals, args.jobs)
    flags = [
        f"--seed={args.seed}",
        "--stage=distill2" if v2 else "--stage=distill",
        *([f"--base={args.base}"] if args.base else []),
        f"--iterations={args.iterations}",
        f"--hands={args.hands}",
        f"--label-share={args.label_share:g}",
        f"--samples={args.samples}",
        f"--rollouts={args.rollouts}",
        f"--validation-deals={args.validation_deals}",
        f"--jobs={args.jobs}",
        f"--out={args.out}",
    ]
    if not v2:  # the stage is done (distill2 keeps its rounds: more --iterations go on)
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
    return with_evaluator(data, result, validation, _command(args, flags), 2 if v2 else 1)


def _round_file(folder: str, it: int, data: dict, policy) -> None:
    """strong_v2's data file after round ``it`` (``round{it}.json`` in the rounds' folder),
    its parameters ``data``'s: each round can be played and measured on its own."""
    from sim.policies.strong import N_STRONG
    from sim.policies.strong_v2_features import FEATURE_NAMES_V2

    out = json.loads(json.dumps(data))
    out["parameters"]["evaluator"] = 2.0
    weights = [round(float(w), 6) for w in policy[N_STRONG:]]
    out["evaluator"] = {"features": list(FEATURE_NAMES_V2), "weights": weights, "round": it}
    _write(os.path.join(folder, f"round{it}.json"), out)


def run(args: argparse.Namespace) -> int:
    from sim.errors import CanastaError
    from sim.limits import MAX_HANDS, check_count, check_jobs, check_seed

    # every number is checked before any work starts (sim.limits)
    check_seed(args.seed, "--seed")
    check_jobs(args.jobs, "--jobs")
    check_count("--generations", args.generations, 10_000)
    check_count("--deals", args.deals, MAX_HANDS, low=2)
    check_count("--validation-deals", args.validation_deals, MAX_HANDS, low=2)
    check_count("--iterations", args.iterations, 100)
    check_count("--hands", args.hands, MAX_HANDS)
    check_count("--samples", args.samples, 10_000)
    check_count("--rollouts", args.rollouts, 10_000)
    if not 0.0 < args.label_share <= 1.0:
        raise CanastaError(f"--label-share: a share in (0, 1], got {args.label_share:g}")
    if args.base is not None and args.stage != "distill":  # distill2: the frozen reference
        raise CanastaError("--base: only with --stage distill (stage all distills its own tune)")
    _check_out(args.out)  # before the run: a bad path must not cost an hour of training
    if args.stage == "distill2":
        from sim.policies.strong import FROZEN_FILE, load_data

        data = load_data(source=FROZEN_FILE)  # strong_v2 plays the frozen reference's values
    elif args.stage == "distill":
        data = _base_data(args.base)
    else:
        data = _tune(args)
    if args.stage != "tune":
        data = _distill(args, data)
    _write(args.out, data)
    line = f"{'strong_v2' if args.stage == 'distill2' else 'strong'} written to {args.out}"
    if args.stage == "distill2":
        v = data["evaluator"]["training"]["validation"]
        line += (
            f"; on {v['deals']} fresh duplicate deals (tournament rules): "
            f"{v['over_strong_2026_12']:+.1f} points a hand over strong_2026_12, "
            f"{v['over_heuristic']:+.1f} over heuristic"
        )
    elif args.stage != "tune":
        v = data["evaluator"]["training"]["validation"]
        line += (
            f"; on {v['deals']} fresh duplicate deals: {v['over_heuristic']:+.1f} points a hand "
            f"over heuristic, {v['over_base']:+.1f} over its base (evaluator off)"
        )
    else:
        v = data["training"]["validation"]
        line += (
            f"; margin over heuristic on {v['deals']} fresh duplicate deals: "
            f"{v['mean_diff']:+.1f} points a hand"
        )
    print(line)
    return 0
