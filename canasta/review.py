"""``canasta review RECORD.json``: every decision of a seat, what it cost, and the luck."""

from __future__ import annotations

import argparse
import json
import math

from canasta import flags

__all__ = ["decisions", "run"]

HELP = "review a played hand or game: each decision's cost, the luck, an error rate"
DESCRIPTION = """
Replay a record (docs/record.md) and, for each decision of the chosen seats (each draw where
the pile could be taken, and each play step right after a stock draw), rank every choice over
paired deals (as canasta advise does) and print the move made, the best move, what the move
cost in points and in the team's chance of winning the game (through the equity table, from
the hand's scores), and a tag (doubtful, error, blunder) by that cost. Per seat: the error
rate (thousandths of a game lost per decision), the luck of each stock draw, and the team's
points with the luck taken out. --html writes the same as a small page with a figure of the
chance of winning through the game.
"""  # argparse reflows it
EPILOG = """example:
  canasta play --hands 1 --record game.json
  canasta review game.json --seat 0 --html review.html
"""


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "review",
        help=HELP,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("record", metavar="RECORD.json", help="a hand or game record")
    p.add_argument(
        "--seat", default="0", help="the seat(s) to review: 0-3, a list '0,2', or 'all' (default 0)"
    )
    p.add_argument("-n", type=int, default=64, help="deals per choice at most (default 64)")
    p.add_argument(
        "--budget", type=float, default=1.0, help="seconds of advice per decision (default 1)"
    )
    p.add_argument(
        "--policies", help="team policies 'A,B' playing on (default: the strongest fast one)"
    )
    p.add_argument(
        "--no-game",
        action="store_true",
        help="points only: no equity table (otherwise built on first use, then cached)",
    )
    p.add_argument("--html", metavar="FILE", help="also write the review as an HTML page")
    flags.add(p, "seed", "jobs", "format", "load")
    p.set_defaults(func=run)


def _seats(text: str) -> list[int]:
    from sim.errors import CanastaError

    if text.strip().lower() == "all":
        return [0, 1, 2, 3]
    try:
        seats = sorted({int(x) for x in text.split(",")})
    except ValueError:
        seats = [-1]
    if not seats or any(not 0 <= s <= 3 for s in seats):
        raise CanastaError(f"--seat {text}: expected seats 0-3, a list like 0,2, or all")
    return seats


def decisions(games, seats) -> list:
    """The ``analysis.review.Decision`` of each decision of ``seats`` in the played hands
    ``games``: a draw step (marked forced when only the draw is allowed, PILE-1/2: reviewed for
    the luck of the card), and the play step right after a stock draw, before any meld (the
    advice covers the whole turn)."""
    from analysis.review import Decision
    from canasta._hint import position_for
    from canasta._seat import hands_before
    from sim import encoding as E

    out = []
    move = 0
    for k, g in enumerate(games, 1):
        prev = None
        for i, seat, a, h in hands_before(g):
            if seat in seats:
                v = h.view(seat)
                draw = v.phase == E.PH_DRAW
                play = (
                    v.phase == E.PH_PLAY
                    and prev == (seat, E.A_DRAW)
                    and not v.took_pile
                    and not v.melded
                )
                if draw or play:
                    pos, drawn = position_for(h, seat)
                    # PILE-1/2: only the draw allowed (the turn loop's forced step)
                    forced = next(h.turns((None,) * E.N_PLAYERS)).forced
                    acts = tuple(int(x) for x in g.actions[i:])
                    out.append(Decision(k, move + i + 1, seat, pos, drawn, acts, forced))
            prev = (seat, int(a))
        move += len(g.actions)
    return out


def match(actions, adv):
    from canasta._hint import made_choice

    return made_choice(actions, 0, -1, None, adv)


def _check(args):
    from sim.errors import CanastaError
    from sim.limits import MAX_HANDS, check_count, check_jobs, check_seed

    check_count("-n", args.n, MAX_HANDS, low=2)
    check_jobs(args.jobs, "--jobs")
    check_seed(args.seed, "--seed")
    if not (math.isfinite(args.budget) and args.budget > 0):
        raise CanastaError(f"--budget {args.budget}: expected a positive number of seconds")
    if args.html is not None:
        from pathlib import Path

        where = Path(args.html)
        if where.is_dir() or not where.parent.is_dir():
            raise CanastaError(f"--html {args.html}: not a file in an existing directory")
    return _seats(args.seat)


def run(args: argparse.Namespace) -> int:
    from analysis.review import band_for, review
    from sim.record import replay

    seats = _check(args)
    games = replay(args.record)
    ruleset = games[0].ruleset
    equity = None
    if not args.no_game:
        from analysis.equity import equity_table

        policies = args.policies.split(",") if args.policies else None
        equity = equity_table(ruleset, policies, n_jobs=args.jobs)
    rev = review(
        decisions(games, seats),
        match,
        equity=equity,
        ruleset=ruleset,
        n=args.n,
        budget=args.budget,
        seed=args.seed,
        policies=args.policies,
        n_jobs=args.jobs,
    )
    rev.meta["points"] = {
        s: int(sum(g.scores()[s % 2]["total"] for g in games if g.is_over)) for s in seats
    }
    rev.meta["ruleset"] = ruleset.label
    rev.meta["record"] = str(args.record)
    if args.html:
        from reports.review import write_html

        try:
            write_html(rev, args.html)
        except OSError as exc:
            from sim.errors import CanastaError

            raise CanastaError(f"--html {args.html}: cannot write it ({exc})") from None
    if args.format == "json":
        print(json.dumps(rev.to_json()))
    else:
        print(format_text(rev, band_for(ruleset, args.policies)))
    return 0


def format_text(rev, band: dict | None = None) -> str:
    """The review as text; each seat's error rate placed in ``band`` (the reference band,
    ``analysis.review.band_for``) when one is given."""
    from analysis.review import standing, summary

    d = rev.decisions
    lines = [
        f"review of {rev.meta.get('record', 'a record')} under {rev.meta.get('ruleset', '?')}: "
        f"advice on up to {rev.meta['n']} paired deals a choice",
        "  cost: paired difference from the best (points for the team; game: chance of winning "
        "the game, percentage points); tags need a 95% interval wholly above 0",
    ]
    if rev.meta.get("skipped"):
        lines.append(f"  {rev.meta['skipped']} decision(s) the advice refuses (END-1) left out")
    for r in d.to_dict(orient="records"):
        cost = "" if math.isnan(r["cost_points"]) else f"  cost {r['cost_points']:+.0f} points"
        if not math.isnan(r["cost_game"]):
            cost += f", {round(100 * r['cost_game'], 2) + 0.0:+.2f} pp of the game"
        made = r["made"] or "(a move outside the listed plans)"
        tag = f"  [{r['tag']}]" if r["tag"] else ""
        lines.append(
            f"#{r['move']:4d} hand {r['hand']} P{r['seat']} {r['decision']}: {made}{tag}\n"
            f"       best: {r['best']} (confidence {r['best_confidence']:.0%}){cost}"
        )
    for s in summary(rev).to_dict(orient="records"):
        rate = (
            "n/a"
            if math.isnan(s["error_rate"])
            else f"{s['error_rate']:.1f} [{s['rate_low']:.1f}, {s['rate_high']:.1f}]"
        )
        adj = ""
        if "points" in s:
            adj = (
                f"; team points {s['points']:+,} ({s['luck_adjusted_points']:+,.0f} luck-adjusted)"
            )
        lines.append(
            f"P{s['seat']}: {s['decisions']} decisions, error rate {rate} thousandths of a game "
            f"a decision over {s['rated']}; doubtful {s['doubtful']}, error {s['error']}, "
            f"blunder {s['blunder']}; luck of {s['draws']} draws {s['luck_points']:+.0f} "
            f"(SE {s['luck_points_se']:.0f}) points{_game_luck(s)}{adj}"
        )
        where = standing(float(s["error_rate"]), band or {})
        if where:
            lines.append(
                f"    the rate stands {where} (reference band: {band['on']} playing on, "
                "docs/advise.md)"
            )
    return "\n".join(lines)


def _game_luck(s: dict) -> str:
    """The luck in game chance, when the review had game chances."""
    if math.isnan(s["luck_game"]):
        return ""
    g, se = round(100 * s["luck_game"], 2) + 0.0, 100 * s["luck_game_se"]
    return f", {g:+.2f} (SE {se:.2f}) pp of the game"
