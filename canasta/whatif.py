"""``canasta whatif``: fix a hand, deal the rest at random, compare choices by their outcome."""

from __future__ import annotations

import argparse
import json

from canasta import _options


def add_parser(subparsers) -> None:
    epilog = (
        "choices (--list-choices describes them): policy, meld_sevens, hold_sevens, "
        "meld_aces, hold_aces, take_pile, draw, meld_aces_wild, meld_wilds, hold_wilds, "
        "stay_in\n\nexample:\n"
        "  canasta whatif --hand '7H 7S 7D 7C KS KD 9H 8C 6S 5D 4H 4C QS' "
        "--compare meld_sevens,hold_sevens -n 20000"
    )
    p = subparsers.add_parser(
        "whatif",
        help="compare choices from a fixed hand over simulated deals of the unseen cards",
        description=(
            "Fix one player's hand at the start of its turn (and optionally the turn, team "
            "scores, melds, the pile and the sizes of the other hands, the pile and the stock), "
            "deal the unseen cards at random N times, and compare the choices by the fixed "
            "team's expected points per hand, meld completion and in-hand penalty rates, with "
            "95% intervals; every choice is played on the same deals (paired)."
        ),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--hand", help="the fixed player's cards, e.g. '7H 7S 7D AS JK' (required)")
    p.add_argument("--compare", help="comma-separated choices to compare (required)")
    p.add_argument("--list-choices", action="store_true", help="describe the choices and exit")
    p.add_argument("-n", type=int, default=10_000, help="simulated hands per choice")
    p.add_argument("--seat", type=int, default=0, help="the fixed player's seat 0..3 (default 0)")
    p.add_argument("--turn", type=int, default=0, help="turn number of the position (default 0)")
    p.add_argument("--scores", default="0,0", help="cumulative team scores 'T0,T1' (OPEN-1)")
    p.add_argument(
        "--meld",
        action="append",
        default=[],
        metavar="TEAM:CARDS",
        help="one meld of a team, e.g. '0:KS KD KH' or '1:7H 7S 7D 7C' (repeatable)",
    )
    p.add_argument("--pile-top", help="the card on top of the discard pile")
    p.add_argument("--pile", help="the cards below the pile's top (default: random)")
    p.add_argument(
        "--pile-size", type=int, help="cards in the pile (default: one discard per turn)"
    )
    p.add_argument("--stock", type=int, help="cards in the stock (default: what is left)")
    p.add_argument(
        "--hand-sizes", help="the four seats' hand sizes 'A,B,C,D' (default 13 for the others)"
    )
    p.add_argument("--policies", default="heuristic,heuristic", help="team policies 'A,B'")
    _options.add(p, "seed", "jobs", "format", "load")
    p.set_defaults(func=run)


def _parse(args):
    from sim.errors import CanastaError
    from sim.validate import (
        MAX_HANDS,
        check_cards,
        check_count,
        check_jobs,
        check_seat,
        check_seed,
        check_turn,
        parse_ints,
        parse_scores,
    )

    # every number is checked before any work starts (sim.validate), naming its flag
    scores = parse_scores(args.scores, "--scores")
    check_count("-n", args.n, MAX_HANDS, low=2)
    check_jobs(args.jobs, "--jobs")
    check_seed(args.seed, "--seed")
    check_seat(args.seat, "--seat")
    check_turn(args.turn, "--turn")
    for flag, value in (("--pile-size", args.pile_size), ("--stock", args.stock)):
        if value is not None:
            check_cards(value, flag)
    melds: dict[int, list[str]] = {}
    for spec in args.meld:
        team, sep, cards = spec.partition(":")
        if not sep or team.strip() not in ("0", "1"):
            raise CanastaError(f"--meld {spec!r}: expected TEAM:CARDS with TEAM 0 or 1")
        melds.setdefault(int(team), []).append(cards)
    from sim.api import resolve_policies
    from sim.policies.registry import split_list

    policies = tuple(split_list(args.policies))
    if len(policies) != 2:
        raise CanastaError(f"--policies {args.policies!r}: expected two policies 'A,B'")
    resolve_policies(policies)  # unknown names: refused before any work
    choices = [c.strip() for c in args.compare.split(",") if c.strip()]
    if not choices:
        raise CanastaError(f"--compare {args.compare!r}: give one or more choices")
    sizes = None
    if args.hand_sizes is not None:
        sizes = parse_ints(args.hand_sizes, "--hand-sizes", 4)
        sizes = tuple(check_cards(x, f"--hand-sizes (seat {i})") for i, x in enumerate(sizes))
    return scores, melds, policies, choices, sizes


def run(args: argparse.Namespace) -> int:
    from analysis.whatif import CHOICES, position, whatif
    from sim.errors import CanastaError

    if args.list_choices:
        for name, text in CHOICES.items():
            print(f"{name:<12} {text}")
        return 0
    if not args.hand or not args.compare:
        raise CanastaError("whatif needs --hand CARDS and --compare CHOICE,CHOICE")
    scores, melds, policies, choices, sizes = _parse(args)
    pos = position(
        args.hand,
        args.seat,
        args.turn,
        scores,
        melds,
        args.pile_top,
        args.pile,
        args.pile_size,
        args.stock,
        sizes,
    )
    table = whatif(pos, choices, args.n, args.seed, policies, args.jobs)
    if args.format == "json":
        print(json.dumps({"team": pos.team, "choices": table.to_dict(orient="records")}))
        return 0
    print(f"fixed hand at seat {pos.seat} (team {pos.team}), turn {pos.turn}; {args.n} deals")
    for _, r in table.iterrows():
        print(
            f"  {r['choice']:<12} points {r['points']:+8.1f} [{r['points_low']:+.1f}, "
            f"{r['points_high']:+.1f}]  vs {choices[0]}: {r['diff_vs_first']:+.1f} "
            f"[{r['diff_low']:+.1f}, {r['diff_high']:+.1f}]"
        )
        if "applied" in r and r["choice"] != "policy":
            print(
                f"  {'':<12} choice made in {r['applied']:.3f} [{r['applied_low']:.3f}, "
                f"{r['applied_high']:.3f}] of deals (elsewhere the rules refused it)"
            )
        for meld in ("sevens", "aces"):
            if f"{meld}_completion" in r and r.get(f"{meld}_started", 0):
                print(
                    f"  {'':<12} {meld} completed {r[f'{meld}_completion']:.3f} "
                    f"[{r[f'{meld}_completion_low']:.3f}, {r[f'{meld}_completion_high']:.3f}]"
                    f" of {r[f'{meld}_started']}"
                )
            if f"{meld}_penalty" in r:
                print(
                    f"  {'':<12} {meld} in-hand penalty paid {r[f'{meld}_penalty']:.3f} "
                    f"[{r[f'{meld}_penalty_low']:.3f}, {r[f'{meld}_penalty_high']:.3f}]"
                )
    print(f"  intervals: {table.attrs['interval']}")
    return 0
