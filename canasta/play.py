"""``canasta play``: one hand as a readable transcript, to check rules and bots by eye."""

from __future__ import annotations

from canasta import flags

__all__ = ["run", "transcript"]

HELP = "play one hand (bots only, as a transcript; or --human: you play a seat)"
DESCRIPTION = """
Deal one hand from the seed and hand number and let two policies play it (team 0 = seats 0 and 2
plays the first policy). Prints the deal, every draw, pickup, meld, discard and three, the end
of the hand and each team's itemised score. With --human you play one seat (--seat) against
bots (--partner, --opponents), one command a line on standard input (a terminal or a pipe):
help, hint, undo, draw, pile, meld CARDS, discard CARD, keep, lay, declare, show, quit.
--human --game plays a whole game to the target, hand after hand. At the end of each hand and
of the game, the review of your decisions (as canasta review prints it) is offered in a
terminal, and always printed with --review.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("play", help=HELP, description=DESCRIPTION)
    flags.add(p, "seed")
    p.add_argument("--hand", type=int, default=0, help="hand number within the run (default 0)")
    p.add_argument(
        "--policies",
        default="heuristic,heuristic",
        help="team policies 'A,B', each NAME or NAME:param=value,... (default heuristic,heuristic)",
    )
    flags.add(p, "rules", rules="ruleset variants (default: tournament)")
    flags.scores(p, "cumulative team scores, default 0,0 (OPEN-1)", "0,0")
    p.add_argument(
        "--record", metavar="FILE", help="also write the hand record (JSON, docs/record.md)"
    )
    p.add_argument(
        "--human", action="store_true", help="you play one seat, commands on standard input"
    )
    p.add_argument("--seat", type=int, default=0, help="with --human: your seat 0..3 (default 0)")
    p.add_argument(
        "--partner", default="heuristic", help="with --human: your partner's policy (heuristic)"
    )
    p.add_argument(
        "--opponents", default="heuristic", help="with --human: the opponents' policy (heuristic)"
    )
    p.add_argument(
        "--game",
        action="store_true",
        help="with --human: a whole game to the target (--hand: the game's number)",
    )
    p.add_argument(
        "--review",
        action="store_true",
        help="with --human: print the review of your decisions after each hand and the game",
    )
    flags.add(p, "load")
    p.set_defaults(func=run)


def transcript(game, policies) -> list[str]:
    """Lines of a finished game: deal, events, final table and itemised scores
    (sim.play.words)."""
    from sim.play.words import hand_lines

    header = (
        f"seed {game.seed}, hand {game.hand_id}: team 0 (seats 0, 2) {policies[0]}; "
        f"team 1 (seats 1, 3) {policies[1]}; seat {game.first_player} plays first (DEAL-1); "
        f"ruleset: {game.ruleset.label}"
    )
    return hand_lines(game, header)


def run(args) -> int:
    from pathlib import Path

    from sim.api import resolve_policies
    from sim.errors import CanastaError
    from sim.limits import check_hand_id, check_seat, check_seed, parse_scores
    from sim.play import Hand
    from sim.policies.registry import check_table_policy
    from sim.ruleset import as_ruleset

    # every number is range-checked before it reaches a kernel (sim.limits)
    seed = check_seed(args.seed, "--seed")
    hand = check_hand_id(args.hand, "--hand")
    scores = parse_scores(args.scores, "--scores")
    resolved = resolve_policies(args.policies)
    labels = [r[2] for r in resolved]
    # --human's flags, checked with or without it (before the first line is read)
    args.seat = check_seat(args.seat, "--seat")
    args.partner, args.opponents = (r[2] for r in resolve_policies([args.partner, args.opponents]))
    for label in (*labels, args.partner, args.opponents):
        check_table_policy(label)  # a measuring reference (peeking_strong) is no table's bot
    rules = as_ruleset(args.rules)  # a file, or a shipped file's or preset's name (cla)
    record = Path(args.record) if args.record else None
    if record is not None and (record.is_dir() or not record.parent.is_dir()):
        raise CanastaError(f"--record {args.record}: not a file in an existing directory")
    game = Hand(seed=seed, hand_id=hand, rules=rules, scores=scores)
    if args.human:
        code, hands = _human(game, args)  # the hands as they ended (an undo replays one)
        kind = "game" if args.game else "hand"
        _write_record(hands, record, args.record, _seat_labels(args), kind)
        return code
    if args.game or args.review:
        raise CanastaError("--game and --review go with --human (a bots' game: canasta simulate)")
    game.play(labels)
    _write_record([game], record, args.record, [labels[p % 2] for p in range(4)])
    print("\n".join(transcript(game, labels)))
    return 0


def _seat_labels(args) -> list[str]:
    """Who played each seat with --human: 'you' and the bots' policies."""
    seat = args.seat
    policies = [args.partner if p % 2 == seat % 2 else args.opponents for p in range(4)]
    policies[seat] = "you"
    return policies


def _write_record(hands, record, name, players, kind: str = "hand") -> None:
    from sim.errors import CanastaError
    from sim.record import dumps, from_games

    if record is not None:
        try:
            record.write_text(dumps(from_games(hands, players=players, kind=kind)))
        except OSError as exc:
            raise CanastaError(f"--record {name}: cannot write it ({exc})") from None


def _human(game, args):
    """``--human``: the human plays ``--seat``, bots the others (canasta._human); returns the
    exit code and the hands as played (one, or the game's with ``--game``)."""
    import sys

    from canasta._human import Session
    from sim.game import GameDriver

    seat = args.seat
    policies = _seat_labels(args)

    def out(line: str) -> None:
        print(line, flush=True)  # a pipe sees each line as it happens

    lines = sys.stdin
    if sys.stdin.isatty():  # a terminal: a prompt and line editing; a pipe: plain lines

        def prompted():
            while True:
                try:
                    yield input("> ")
                except EOFError:
                    print()
                    return

        lines = prompted()
    ask = None
    if sys.stdin.isatty():

        def ask(question: str) -> bool:
            try:
                return input(question).strip().lower() in ("y", "yes")
            except EOFError:
                return False

    driver = None
    if args.game:
        driver = GameDriver(
            seed=game.seed, game_id=args.hand, rules=game.ruleset, scores=game.start_scores
        )
    session = Session(game, seat, policies, out=out, driver=driver, review=args.review, ask=ask)
    return session.run(lines), list(session.human.hands)
