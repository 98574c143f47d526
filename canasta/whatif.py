"""``canasta whatif``: fix a hand, deal the rest at random, compare choices by their outcome."""

from __future__ import annotations

import argparse
import json

from canasta import flags

__all__ = ["run"]


def add_parser(subparsers) -> None:
    epilog = (
        "choices (--list-choices describes them): policy, meld_sevens, hold_sevens, "
        "meld_aces, hold_aces, take_pile, draw, meld_aces_wild, meld_wilds, hold_wilds, "
        "stay_in, keep_three, lay_three, chase, keep_three_chase, lay_three_chase, "
        "open_from_hand, " + ", ".join(f"wait_pile_{n}" for n in range(2, 21)) + "\n\nexample:\n"
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
    flags.add_position(p)
    p.add_argument("--compare", help="comma-separated choices to compare (required)")
    p.add_argument("--list-choices", action="store_true", help="describe the choices and exit")
    p.add_argument("-n", type=int, default=10_000, help="simulated hands per choice")
    p.add_argument("--policies", default="heuristic,heuristic", help="team policies 'A,B'")
    flags.add(p, "seed", "jobs", "format", "load")
    p.set_defaults(func=run)


def _parse(args):
    """(position, policies, choices): every value checked before any work starts
    (``sim.limits``), each error naming its flag."""
    from sim.errors import CanastaError
    from sim.limits import MAX_HANDS, check_count, check_jobs, check_seed

    check_count("-n", args.n, MAX_HANDS, low=2)
    check_jobs(args.jobs, "--jobs")
    check_seed(args.seed, "--seed")
    pos = flags.parse_position(args)
    from sim.api import resolve_policies
    from sim.policies.registry import split_list

    policies = tuple(split_list(args.policies))
    if len(policies) != 2:
        raise CanastaError(f"--policies {args.policies!r}: expected two policies 'A,B'")
    resolve_policies(policies)  # unknown names: refused before any work
    choices = [c.strip() for c in args.compare.split(",") if c.strip()]
    if not choices:
        raise CanastaError(f"--compare {args.compare!r}: give one or more choices")
    return pos, policies, choices


def run(args: argparse.Namespace) -> int:
    from analysis.whatif import CHOICES, whatif
    from sim.errors import CanastaError

    if args.list_choices:
        for name, text in CHOICES.items():
            print(f"{name:<12} {text}")
        return 0
    if not args.hand or not args.compare:
        raise CanastaError("whatif needs --hand CARDS and --compare CHOICE,CHOICE")
    pos, policies, choices = _parse(args)
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
