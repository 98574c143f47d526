"""Flags shared by several commands, each defined once (type, default, help).

``add(parser, "seed", "jobs", ...)`` adds the named flags in the order given; a keyword gives a
command its own help text for a flag (``seed="seed of the sampled deals (default 0)"``).
``number(parser, "--hands", 10_000, "deals per run")`` adds a command's own integer flag with
its default in the help.
Every value is range-checked by the command before any work (``sim.limits``).
"""

from __future__ import annotations

import argparse

__all__ = ["add", "number", "run", "scores"]


def run(args: argparse.Namespace) -> dict:
    """The ``seed`` and ``jobs`` flags as the keywords of a run (``seed``, ``n_jobs``)."""
    return {"seed": args.seed, "n_jobs": args.jobs}


def number(
    p, flag: str, default: int | None, help: str, metavar: str = "N", **kw
) -> argparse.Action:
    """Add an integer flag whose help ends with its default (``(default 10,000)``), unless
    ``default`` is None (the help then says what happens without it)."""
    if default is not None:
        help = f"{help} (default {default:,})"
    return p.add_argument(flag, type=int, default=default, metavar=metavar, help=help, **kw)


#: how every --scores is written, said in its help
SCORES_FORM = "written A,B, a negative score as is: --scores -1500,6500"


def scores(p, help: str, default: str | None = None) -> argparse.Action:
    """Add a command's ``--scores A,B`` (team 0's, team 1's) with ``help`` and the form
    (``SCORES_FORM``); the parser reads ``-1500,6500`` as a value (``canasta._Parser``)."""
    return p.add_argument("--scores", metavar="A,B", default=default, help=f"{help}; {SCORES_FORM}")


def _seed(p: argparse.ArgumentParser, help: str | None) -> None:
    p.add_argument("--seed", type=int, default=0, help=help or "run seed (default 0)")


def _jobs(p: argparse.ArgumentParser, help: str | None) -> None:
    from sim.jobs import default_jobs, jobs_help  # every core; results never depend on it

    p.add_argument(
        "--jobs", type=int, default=default_jobs(), help=help or jobs_help(", -1 = every core")
    )


def _format(p: argparse.ArgumentParser, help: str | None) -> None:
    p.add_argument("--format", choices=("table", "json"), default="table", help=help)


def _rules(p: argparse.ArgumentParser, help: str | None) -> None:
    p.add_argument("--rules", metavar="FILE.toml", help=help or "ruleset overrides (TOML)")


def _quiet(p: argparse.ArgumentParser, help: str | None) -> None:
    p.add_argument("--quiet", action="store_true", help=help or "no progress bar")


def _load(p: argparse.ArgumentParser, help: str | None) -> None:
    p.add_argument(
        "--load",
        action="append",
        default=[],
        metavar="MODULE",
        help=help
        or "import MODULE (a dotted name or a .py file) first, so the policies it registers "
        "can be named; repeatable; its policies play in this process (--jobs 1)",
    )


FLAGS = {"seed": _seed, "jobs": _jobs, "format": _format, "rules": _rules, "quiet": _quiet}
FLAGS["load"] = _load


def load_modules(args: argparse.Namespace) -> list[str]:
    """Import the ``--load`` modules of ``args`` (before any policy name is resolved).

    A module registers policies on import (``sim.policies.register``, or
    ``sim.env.python_policy``). Registered policies exist in this process only (joblib's
    workers import ``sim`` afresh), so a command that loaded a module runs with ``--jobs 1``.
    A module that cannot be imported is a ``CanastaError`` (one line, exit 2)."""
    import importlib
    import importlib.util
    import sys
    from pathlib import Path

    from sim.errors import CanastaError

    loaded = []
    for name in getattr(args, "load", None) or []:
        try:
            if name.endswith(".py") or "/" in name or "\\" in name:
                path = Path(name)
                if not path.is_file():
                    raise CanastaError(f"--load {name}: no such file")
                mod_name = f"canasta_user_{path.stem}"
                spec = importlib.util.spec_from_file_location(mod_name, path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[mod_name] = module
                try:
                    spec.loader.exec_module(module)
                except BaseException:
                    del sys.modules[mod_name]
                    raise
            else:
                importlib.import_module(name)
        except CanastaError as exc:
            msg = str(exc)
            raise CanastaError(
                msg if msg.startswith("--load") else f"--load {name}: {msg}"
            ) from None
        except SystemExit:
            raise CanastaError(f"--load {name}: the module called sys.exit") from None
        except Exception as exc:  # whatever the module raises: one line, exit 2
            what = f"{type(exc).__name__}: {exc}".splitlines()[0]
            raise CanastaError(f"--load {name}: cannot import it ({what})") from None
        loaded.append(name)
    if loaded and getattr(args, "jobs", 1) != 1:
        print(
            "canasta: note: --load: loaded policies play in this process, so --jobs 1",
            file=sys.stderr,
        )
        args.jobs = 1
    return loaded


def add(p: argparse.ArgumentParser, *names: str, **helps: str) -> None:
    """Add the shared flags ``names`` (keys of ``FLAGS``) to ``p``; ``helps`` by flag name."""
    for name in names:
        FLAGS[name](p, helps.get(name))


def add_position(p: argparse.ArgumentParser) -> None:
    """The flags of a what-if position (``analysis.whatif.position``), as ``canasta whatif``
    names them: hand, seat, turn, scores, melds, pile and sizes."""
    p.add_argument("--hand", help="the fixed player's cards, e.g. '7H 7S 7D AS JK' (required)")
    p.add_argument("--seat", type=int, default=0, help="the fixed player's seat 0..3 (default 0)")
    p.add_argument("--turn", type=int, default=0, help="turn number of the position (default 0)")
    scores(p, "cumulative team scores, default 0,0 (OPEN-1)", "0,0")
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
    p.add_argument(
        "--hand-number",
        type=int,
        default=1,
        help='the hand\'s number in its game (OPEN-1 under opening_minimum = "hand"; default 1)',
    )
    p.add_argument(
        "--threes",
        action="append",
        default=[],
        metavar="TEAM:RED,BLACK",
        help="a team's threes laid face up, e.g. '0:1,2' (DEAL-4: out of play, never dealt; "
        "repeatable, once a team; default none)",
    )


def parse_position(args: argparse.Namespace):
    """The position of ``add_position``'s flags, every value checked (``sim.limits``,
    ``analysis.whatif.position``): CanastaError naming the flag."""
    from analysis.whatif import position
    from sim.errors import CanastaError
    from sim.limits import (
        check_cards,
        check_hand_number,
        check_seat,
        check_turn,
        parse_ints,
        parse_scores,
        shown,
    )

    if not args.hand:
        raise CanastaError("give the fixed player's cards with --hand")
    scores = parse_scores(args.scores, "--scores")
    check_seat(args.seat, "--seat")
    check_turn(args.turn, "--turn")
    check_hand_number(args.hand_number, "--hand-number")
    for flag, value in (("--pile-size", args.pile_size), ("--stock", args.stock)):
        if value is not None:
            check_cards(value, flag)
    melds: dict[int, list[str]] = {}
    for spec in args.meld:
        team, sep, cards = spec.partition(":")
        if not sep or team.strip() not in ("0", "1"):
            raise CanastaError(f"--meld {spec!r}: expected TEAM:CARDS with TEAM 0 or 1")
        melds.setdefault(int(team), []).append(cards)
    threes = None
    for spec in getattr(args, "threes", []):
        team, sep, counts = spec.partition(":")
        if not sep or team.strip() not in ("0", "1"):
            raise CanastaError(f"--threes {shown(spec)}: expected TEAM:RED,BLACK with TEAM 0 or 1")
        threes = threes or [[0, 0], [0, 0]]
        if any(threes[int(team)]):
            raise CanastaError(f"--threes: team {int(team)}'s threes given twice")
        red, black = parse_ints(counts, "--threes", 2)
        threes[int(team)] = [
            check_cards(red, "--threes (red)"),
            check_cards(black, "--threes (black)"),
        ]
    sizes = None
    if args.hand_sizes is not None:
        sizes = parse_ints(args.hand_sizes, "--hand-sizes", 4)
        sizes = tuple(check_cards(x, f"--hand-sizes (seat {i})") for i, x in enumerate(sizes))
    return position(
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
        args.hand_number,
        threes=threes,
    )
