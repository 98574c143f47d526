"""``canasta simulate -n N``: play hands at scale, optionally into a resumable Parquet run.

With ``--out DIR`` each finished chunk is written to DIR as its own Parquet file, so an
interrupted run keeps what it finished and the same command resumes it; without ``--out`` a
short summary is printed. The same ``--seed`` gives the same hands whatever ``--jobs``,
``--chunk-size`` or ``--backend``.
"""

from __future__ import annotations

import argparse

from canasta import flags

__all__ = ["run"]

HELP = "play N hands (parallel, resumable Parquet output with --out)"
DESCRIPTION = """
Play N hands between two policies (team 0, team 1), one row per hand. Hand i depends only on
(seed, i), so the rows are identical for any --jobs, --chunk-size or --backend. With --out DIR,
every finished chunk is written atomically as DIR/chunk-NNNNNN.parquet beside
DIR/_canasta_run.json (settings, versions); rerunning the same command resumes an interrupted
run, and a DIR made with other settings is refused. Read a run with sim.load(DIR) or
pandas.read_parquet(DIR).
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("simulate", help=HELP, description=DESCRIPTION)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("-n", type=int, metavar="N", help="number of hands (one row per hand)")
    what.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="number of whole games to the target (GAME-1), one row per game: winner, hands, "
        "final scores",
    )
    p.add_argument(
        "--policies",
        default="heuristic,random",
        metavar="A,B",
        help="policies of team 0 and team 1, e.g. heuristic,greedy (default heuristic,random)",
    )
    flags.scores(
        p,
        "with --games: the teams' scores at the start of every game, default 0,0 (GAME-1: "
        "no team may have won already; a tie at or over the target plays on)",
    )
    p.add_argument(
        "--first-player",
        type=int,
        metavar="SEAT",
        help="with --games: the seat (0..3) that plays first in each game's first hand; the "
        "deal then rotates (default: game g's first player is g %% 4)",
    )
    flags.add(p, "seed", "jobs")
    flags.number(
        p, "--chunk-size", None, "hands (or games) per chunk (default 10,000)", metavar="C"
    )
    p.add_argument("--out", metavar="DIR", help="write the run to DIR (Parquet, resumable)")
    flags.add(p, "rules")
    p.add_argument(
        "--backend",
        choices=("loky", "dask"),
        default="loky",
        help="local processes (default) or a Dask cluster (needs --scheduler)",
    )
    p.add_argument("--scheduler", metavar="ADDR", help="Dask scheduler address, tcp://host:port")
    flags.add(p, "quiet", "load")
    p.set_defaults(func=run)


def _games_summary(df, policies: tuple[str, str], start: dict) -> str:
    from analysis.intervals import mean, proportion

    w = proportion(int((df["winner"] == 0).sum()), len(df))
    h = mean(df["hands"])
    where = ""
    if start:
        s0, s1 = start.get("scores", (0, 0))
        seat = start.get("first_player")
        where = f", from {s0:,} to {s1:,}" + ("" if seat is None else f", seat {seat} first")
    return "\n".join(
        [
            f"{len(df):,} games played{where}, {policies[0]} (team 0) vs {policies[1]} (team 1)",
            f"  team 0 wins: {w.estimate:.4f}  [{w.ci_low:.4f}, {w.ci_high:.4f}]  ({w.interval})",
            f"  hands per game: {h.estimate:.2f}  [{h.ci_low:.2f}, {h.ci_high:.2f}]  "
            f"({h.interval})",
        ]
    )


def _summary(df, policies: tuple[str, str]) -> str:
    from analysis.intervals import mean

    lines = [f"{len(df):,} hands played, {policies[0]} (team 0) vs {policies[1]} (team 1)"]
    for t in (0, 1):
        e = mean(df[f"score_team{t}"])
        lines.append(
            f"  team {t} points per hand: {e.estimate:.1f}  [{e.ci_low:.1f}, {e.ci_high:.1f}]"
        )
    lines.append(f"  intervals: {e.interval}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import sim
    from sim.api import GAME_ROW_BYTES, ROW_BYTES
    from sim.errors import CanastaError
    from sim.limits import (
        MAX_GAMES,
        MAX_HANDS,
        check_chunks,
        check_count,
        check_in_memory,
        check_jobs,
        check_out_dir,
        check_seed,
        parse_scores,
    )
    from sim.policies.registry import split_list
    from sim.runner import DEFAULT_CHUNK_SIZE, check_backend

    # every number is checked before any work starts (sim.limits): a count no run could
    # finish is refused at once, naming the limit
    games = args.games is not None
    if games:
        count = check_count("--games", args.games, MAX_GAMES)
    else:
        count = check_count("-n", args.n, MAX_HANDS)
    check_seed(args.seed, "--seed")
    check_jobs(args.jobs, "--jobs")
    start = {}
    if not games and (args.scores is not None or args.first_player is not None):
        raise CanastaError("--scores and --first-player go with --games")
    if args.scores is not None:
        start["scores"] = parse_scores(args.scores, "--scores")
    if args.first_player is not None:
        from sim.limits import check_seat

        start["first_player"] = check_seat(args.first_player, "--first-player")
    if args.chunk_size is not None:
        check_chunks(count, args.chunk_size, "--chunk-size")
    else:
        check_chunks(count, DEFAULT_CHUNK_SIZE, "the default --chunk-size")
    if args.out is not None:
        check_out_dir(args.out, "--out")
    else:
        unit = "games" if games else "hands"
        row = GAME_ROW_BYTES if games else ROW_BYTES
        check_in_memory(count, row, unit, ": write the run to disk with --out DIR")
    if args.scheduler and args.backend != "dask":
        raise CanastaError("--scheduler goes with --backend dask")
    check_backend(args.backend, args.scheduler)
    policies = split_list(args.policies)
    options = {
        "chunk_size": args.chunk_size or DEFAULT_CHUNK_SIZE,
        "backend": args.backend,
        "scheduler": args.scheduler,
        "quiet": args.quiet,
    }
    if args.out is not None:
        options["out"] = args.out
    try:
        if games:
            from sim.api import simulate_games

            result = simulate_games(
                count,
                policies=policies,
                **flags.run(args),
                ruleset=args.rules,
                **start,
                **options,
            )
        else:
            result = sim.simulate(
                count,
                policies=policies,
                **flags.run(args),
                ruleset=args.rules,
                **options,
            )
    except KeyboardInterrupt:
        if not args.out:
            raise
        import sys

        print(
            f"canasta: interrupted; the finished chunks are kept in {args.out}: rerun the same "
            "command to resume",
            file=sys.stderr,
        )
        return 130
    unit = "games" if games else "hands"
    if args.out:
        print(
            f"{count:,} {unit} in {result} (read with sim.load('{result}') or pandas.read_parquet)"
        )
    else:
        labels = tuple((policies * 2)[:2] if len(policies) == 1 else policies)
        print(_games_summary(result, labels, start) if games else _summary(result, labels))
    return 0
