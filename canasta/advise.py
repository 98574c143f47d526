"""``canasta advise``: rank every distinct choice of one decision from a fixed position."""

from __future__ import annotations

import argparse
import json
import math

from canasta import flags

__all__ = ["run"]

HELP = "rank every choice of a decision (draw, or the play after --drawn) over paired deals"
DESCRIPTION = """
Fix one player's hand at the start of its turn (the same position flags as whatif). Without
--drawn the decision is the draw: draw from the stock or take the pile. With --drawn CARD it is
the play step after drawing that card: every distinct whole-turn plan (which ranks to meld, wild
cards placed in a few canonical ways, which kind to discard, going out, a special hand). Each
choice is played forward on the same sampled deals of the unseen cards (paired), every seat
continuing with the strongest fast policy, spending deals on the close choices (racing) within
-n deals per choice or --budget seconds. The table lists the choices best first: expected
points per hand for the team with a 95% interval, the paired difference from the best, and
meld completion and in-hand penalty rates.
"""  # argparse reflows it
EPILOG = """example:
  canasta advise --hand 'AS AH AD JK 2C KS KH KD 7H 7S 9C 9D 5S' --turn 4 --pile-top 8D \\
      --drawn KC -n 200
"""


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "advise",
        help=HELP,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    flags.add_position(p)
    p.add_argument("--drawn", help="the card just drawn from the stock: rank the play step")
    p.add_argument("-n", type=int, default=400, help="deals per choice at most (default 400)")
    p.add_argument("--budget", type=float, help="seconds to spend at most (default: no limit)")
    p.add_argument(
        "--policies", help="team policies 'A,B' playing on (default: the strongest fast one)"
    )
    p.add_argument(
        "--record", metavar="FILE", help="a hand record (docs/record.md): open one of its decisions"
    )
    p.add_argument(
        "--decision",
        type=int,
        metavar="N",
        help="with --record: the move numbered N by canasta replay (a draw, or the play after it)",
    )
    p.add_argument(
        "--game",
        action="store_true",
        help="also score each choice by the team's chance of winning the game after the hand, "
        "from --scores (the equity table of the rules and policies: canasta equity; built "
        "on first use, then cached)",
    )
    p.add_argument(
        "--luck",
        action="store_true",
        help="take the luck of the play-outs' draws out of the points (a control variate with "
        "frozen card values, docs/advise.md; plays in one process)",
    )
    flags.add(p, "seed", "jobs", "format", "load")
    p.set_defaults(func=run)


def record_position(path: str, decision: int | None):
    """``(Position, drawn token or None, ruleset, text)`` of decision ``decision`` of a record:
    the position before its move ``#decision`` (``canasta replay``'s numbers), as the acting
    seat sees it (canasta._seat.position_for). Only a draw, or the play step right after a
    stock draw before any meld, can be opened (the advice covers the whole turn)."""
    from canasta._seat import position_for
    from sim.errors import CanastaError
    from sim.play.words import describe_action
    from sim.record import load, replay

    rec = load(path)
    counts = [len(h.get("actions", [])) for h in rec["hands"]]
    total = sum(counts)
    if decision is None:
        raise CanastaError("--record needs --decision N (the move numbers of canasta replay)")
    if not 1 <= decision <= total:
        raise CanastaError(f"--decision {decision}: the record has moves 1..{total}")
    hand, before = 1, decision - 1
    while before >= counts[hand - 1]:
        before -= counts[hand - 1]
        hand += 1
    game = replay(rec, upto=(hand, before))[-1]
    seat = game.current_player
    nxt = replay(rec, upto=(hand, before + 1))[-1].actions[-1]
    try:
        pos, drawn = position_for(game, seat)
    except CanastaError as exc:
        why = str(exc).removeprefix("hint: ")
        raise CanastaError(
            f"--decision {decision} (P{seat}: {describe_action(nxt)}): cannot be opened: {why}; "
            "open the draw of a turn or the play right after a stock draw"
        ) from None
    what = f"decision #{decision} of {path}: P{seat} was to {describe_action(nxt)}"
    return pos, drawn, game.ruleset, what


def _check(args):
    from sim.errors import CanastaError
    from sim.limits import MAX_HANDS, check_count, check_jobs, check_seed

    check_count("-n", args.n, MAX_HANDS, low=2)
    check_jobs(args.jobs, "--jobs")
    check_seed(args.seed, "--seed")
    if args.budget is not None and not (math.isfinite(args.budget) and args.budget > 0):
        raise CanastaError(f"--budget {args.budget}: expected a positive number of seconds")


def _fmt(x: float) -> str:
    return "    nan" if math.isnan(x) else f"{x:+7.1f}"


def format_table(advice, pos) -> str:
    """The advice as text: best first by points; with the game column each choice is also
    ranked by the chance of winning the game and compared with the best by that chance."""
    lines = [f"{advice.decision} decision at seat {pos.seat} (team {pos.team}), turn {pos.turn}"]
    lines.append(
        "  points per hand for the team, 95% interval; diff: paired, vs the best by points; "
        "conf: the chance it is the best (paired bootstrap)"
        + ("; points corrected for the draws' luck" if advice.luck else "")
    )
    game = any(c.game for c in advice.choices)
    if game:
        lines.append(
            f"  game: the team's chance of winning the game after the hand from "
            f"{pos.scores[0]:,} to {pos.scores[1]:,}; diff: paired, vs the best by game chance"
        )
    for i, c in enumerate(advice.choices, 1):
        marks = []
        if game and c.rank == 1:
            marks.append("best by points")
        if game and c.game.get("best"):
            marks.append("best by game chance")
        if c.policy_pick:
            marks.append("the policy's own choice")
        mark = f"  <- {', '.join(marks)}" if marks else ""
        lines.append(
            f"{i:3d}. {c.label}{mark}\n"
            f"     points {_fmt(c.mean)} [{_fmt(c.ci_low)}, {_fmt(c.ci_high)}]  "
            f"diff {_fmt(c.diff_from_best)} [{_fmt(c.diff_low)}, {_fmt(c.diff_high)}]  "
            f"n {c.n}  conf {_pct(c.confidence)}"
        )
        rates = "  ".join(f"{k} {v:.2f}" for k, v in c.rates.items())
        if rates:
            lines.append(f"     {rates}")
        if c.game:
            g = c.game
            lines.append(
                f"     game  {g['win']:.4f} [{g['ci_low']:.4f}, {g['ci_high']:.4f}]  diff "
                f"{g['diff_from_best']:+.4f} [{g['diff_low']:+.4f}, {g['diff_high']:+.4f}]  "
                f"rank {int(g['rank'])}  conf {_pct(g['confidence'])}"
            )
    return "\n".join(lines)


def _pct(x: float) -> str:
    return "  nan" if math.isnan(x) else f"{x:4.0%}"


def run(args: argparse.Namespace) -> int:
    from analysis.advise import advise

    _check(args)
    ruleset = None
    if args.record is not None:
        pos, drawn, ruleset, what = record_position(args.record, args.decision)
        if args.format != "json":
            print(what)
    else:
        if args.decision is not None:
            from sim.errors import CanastaError

            raise CanastaError("--decision needs --record FILE")
        pos, drawn = flags.parse_position(args), args.drawn
    equity = None
    if args.game:
        from analysis.equity import equity_table

        policies = args.policies.split(",") if args.policies else None
        equity = equity_table(ruleset, policies, n_jobs=args.jobs)
    advice = advise(
        pos,
        equity=equity,
        drawn=drawn,
        ruleset=ruleset,
        n=args.n,
        budget=args.budget,
        policies=args.policies,
        luck=args.luck,
        **flags.run(args),
    )
    if args.format == "json":
        print(json.dumps(advice.to_json()))
        return 0
    print(format_table(advice, pos))
    return 0
