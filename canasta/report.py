"""``canasta report``: the strategy report, one self-contained HTML file.

Runs the simulations the report needs (every pair of ``--policies`` on duplicate deals, plus the
dealt-odds sampler), or reuses run directories of ``canasta simulate`` (``--from DIR``, may be
repeated), computes every table with the ``analysis`` functions and writes one HTML file with
the figures embedded (``reports``). See docs/report.md for how to read and check it.
"""

from __future__ import annotations

import argparse

from canasta import flags

__all__ = ["run"]

HELP = "write the strategy report: one self-contained HTML file"
DESCRIPTION = """
Simulate every pair of POLICIES on duplicate deals (or reuse run directories), sample the dealt
special-hand odds, run the decision experiments, and write one self-contained HTML report: advice
(rules of thumb from the decision experiments), dealt odds (exact and Monte Carlo),
special hands in play, sevens/aces/wild meld risk, penalties, policy comparison, score
distributions, 'what the numbers say' and methods. Every number carries its 95% interval and
sample size.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    from reports import defaults as D

    p = subparsers.add_parser("report", help=HELP, description=DESCRIPTION)
    flags.number(
        p, "--hands", D.DEFAULT_HANDS, "deals per run; each pair of policies plays them both ways"
    )
    flags.number(
        p, "--deals", D.DEFAULT_DEALS, "deals sampled for the dealt odds; 0 shows exact odds only"
    )
    p.add_argument(
        "--policies",
        default=",".join(D.DEFAULT_POLICIES),
        metavar="A,B,...",
        help="policies to compare, by registry name (default "
        f"{','.join(D.DEFAULT_POLICIES)}: strongest_fast is the strongest fast policy registered)",
    )
    flags.number(
        p,
        "--positions",
        D.DEFAULT_POSITIONS,
        "positions per decision experiment, for the Advice section; 0 leaves them out",
    )
    flags.number(
        p,
        "--games",
        D.DEFAULT_GAMES,
        "whole games of the strongest fast policy for the First numbers (hands and minutes a "
        "game); 0 leaves them out",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="a first look in under a minute warm: "
        + ", ".join(f"--{k.replace('_', '-')} {v:,}" for k, v in D.QUICK.items())
        + " unless given (the same sections, wider intervals)",
    )
    flags.number(
        p, "--decision-deals", D.DEFAULT_DECISION_DEALS, "paired deals per position and choice"
    )
    flags.number(
        p,
        "--equity-hands",
        D.DEFAULT_EQUITY_HANDS,
        "hands per pair of opening minima of the Game score section's equity table (cached; "
        "built once, minutes); 0 leaves the section out",
    )
    flags.number(
        p,
        "--equity-resolution",
        D.DEFAULT_EQUITY_RESOLUTION,
        "points between the equity table's scores",
        metavar="POINTS",
    )
    flags.add(p, "seed", "jobs")
    p.add_argument(
        "--from",
        dest="from_dirs",
        action="append",
        default=[],
        metavar="DIR",
        help="reuse a run directory of 'canasta simulate --out DIR' instead of simulating "
        "(repeat for several; a run and its mirror with the same seed give the comparison)",
    )
    flags.add(p, "rules", rules="ruleset of a house variant (TOML)")
    p.add_argument("--out", default="report.html", help="HTML file to write (default report.html)")
    p.add_argument("--figures", metavar="DIR", help="also write each figure as PNG and SVG here")
    flags.add(p, "quiet", "load")
    p.set_defaults(func=run)


def parse_policies(text: str) -> tuple[str, ...]:
    from sim.errors import CanastaError

    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise CanastaError("--policies: give at least one policy name")
    return names


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from reports.build import Settings, build
    from reports.html import assemble, write
    from sim.api import ROW_BYTES
    from sim.errors import CanastaError
    from sim.limits import (
        MAX_DEALS,
        MAX_HANDS,
        MAX_SEED,
        check_count,
        check_in_memory,
        check_int,
        check_jobs,
    )
    from sim.policies.registry import resolve

    if args.quick:  # the quick sizes, where the user gave none of their own
        from reports import defaults

        for key, value in defaults.QUICK.items():
            if getattr(args, key) == getattr(defaults, f"DEFAULT_{key.upper()}"):
                setattr(args, key, value)
    # every number and path is checked before the simulations start (sim.limits)
    hands = check_count("--hands", args.hands, MAX_HANDS, low=0 if args.from_dirs else 2)
    check_in_memory(2 * hands, ROW_BYTES, "hands", ": ask for fewer --hands")  # a pair's runs
    check_count("--deals", args.deals, MAX_DEALS, low=0)
    from reports.defaults import default_policies

    policies = default_policies(parse_policies(args.policies))
    check_count("--positions", args.positions, 100_000, low=0)
    check_count("--decision-deals", args.decision_deals, 1_000_000, low=2)
    check_count("--games", args.games, 1_000_000, low=0)
    for name in policies:
        resolve(name)  # unknown names: refused before the first run
    # pair k of the policies plays with seed + k (reports.build.plan): all must be seeds
    pairs = len(policies) * (len(policies) - 1) // 2
    check_int("--seed", args.seed, 0, MAX_SEED - max(pairs - 1, 0))
    check_jobs(args.jobs, "--jobs")
    out = Path(args.out)
    if out.is_dir() or not out.parent.is_dir():
        raise CanastaError(f"--out {args.out}: not a file in an existing directory")
    if args.figures is not None and Path(args.figures).exists() and not Path(args.figures).is_dir():
        raise CanastaError(f"--figures {args.figures}: exists and is not a directory")
    for d in args.from_dirs:
        if not Path(d).is_dir():
            raise CanastaError(f"--from {d}: no such run directory")
    settings = Settings(
        hands=args.hands,
        deals=args.deals,
        policies=policies,
        seed=args.seed,
        jobs=args.jobs,
        from_dirs=tuple(args.from_dirs),
        rules=args.rules,
        quiet=args.quiet,
        positions=args.positions,
        decision_deals=args.decision_deals,
        games=args.games,
        preview=bool(args.quick),
        equity_hands=args.equity_hands,
        equity_resolution=args.equity_resolution,
    )
    results = build(settings)
    report = assemble(results)
    written = write(report, args.out, args.figures)
    size = written[0].stat().st_size
    print(
        f"wrote {written[0]} ({size / 1024:,.0f} KiB; {len(results.tables)} tables, "
        f"{len(report.figures)} figures, {len(report.advice)} advice items, "
        f"{len(report.sentences)} findings) in "
        f"{results.meta['seconds']:.0f} s"
        + (f"; figures in {args.figures}" if args.figures else "")
    )
    return 0
