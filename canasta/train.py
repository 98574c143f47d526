"""``canasta train``: learn the ``strong`` policy's parameters (analysis.training).

Black-box tuning of the heuristic kernel's parameters on duplicate deals against a pool of
opponents (the heuristic and the optimizer's current policy), reproducible from ``--seed``.
Writes the data file ``strong`` reads (``sim/policies/data/strong.json``'s layout) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys

from canasta import _options

HELP = "learn the strong policy's parameters on duplicate deals (writes its data file)"
DESCRIPTION = """
Tune the heuristic kernel's parameters with a diagonal cross-entropy evolution strategy: each
generation plays POPSIZE candidates against a pool (the heuristic, and the current mean) on
--deals fresh duplicate deals shared by every candidate, and moves toward the better half. The
result (parameters, settings, command, the margin over the heuristic on fresh deals, and the
history) is written as JSON to --out; copy it to sim/policies/data/strong.json to ship it.
The same --seed gives the same parameters for any --jobs.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("train", help=HELP, description=DESCRIPTION)
    p.add_argument("--generations", type=int, default=60, help="optimizer generations (default 60)")
    p.add_argument(
        "--deals", type=int, default=2000, help="duplicate deals per generation (default 2000)"
    )
    p.add_argument(
        "--validation-deals",
        type=int,
        default=10_000,
        help="fresh duplicate deals measuring the result against the heuristic (default 10000)",
    )
    p.add_argument("--out", required=True, metavar="FILE.json", help="where to write the result")
    _options.add(p, "seed", "jobs", "quiet", seed="training seed (default 0)")
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


def run(args: argparse.Namespace) -> int:
    from analysis.training import data_file, train
    from sim.validate import MAX_HANDS, check_count, check_jobs, check_seed

    # every number is checked before any work starts (sim.validate)
    check_seed(args.seed, "--seed")
    check_jobs(args.jobs, "--jobs")
    check_count("--generations", args.generations, 10_000)
    check_count("--deals", args.deals, MAX_HANDS, low=2)
    check_count("--validation-deals", args.validation_deals, MAX_HANDS, low=2)
    _check_out(args.out)  # before the run: a bad path must not cost an hour of training
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

        bar = tqdm(total=args.generations, initial=done, desc="train", unit="gen", file=sys.stderr)

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
    command = "canasta train " + " ".join(
        shlex.quote(a)
        for a in [
            f"--seed={args.seed}",
            f"--generations={args.generations}",
            f"--deals={args.deals}",
            f"--validation-deals={args.validation_deals}",
            f"--jobs={args.jobs}",
            f"--out={args.out}",
        ]
    )
    data = data_file(result, command)
    try:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
    except OSError as exc:
        from sim.errors import CanastaError

        raise CanastaError(f"--out {args.out}: {exc.strerror or exc}") from None
    if os.path.exists(checkpoint):
        os.remove(checkpoint)  # the result is written: the run is complete
    v = result.validation
    print(
        f"strong parameters written to {args.out}; margin over heuristic on {v['deals']} fresh "
        f"duplicate deals: {v['mean_diff']:+.1f} points a hand"
    )
    return 0
