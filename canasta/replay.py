"""``canasta replay FILE``: print a hand record (sim.record) as the text of the hand."""

from __future__ import annotations

__all__ = ["run"]

HELP = "print a hand record (JSON: one hand or a game), checked action by action"
DESCRIPTION = """
Read a hand record (docs/record.md: written by canasta play --record, the web table of
canasta serve, or sim.record.from_games; or typed by hand), replay every hand through the rules
and print it as canasta play does: the deal, every move numbered (the numbers canasta advise
--record FILE --decision N opens), the melds and hands, the itemised score. A move the rules
refuse stops it with the hand, the action, the seat and the rule ID with its sentence.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("replay", help=HELP, description=DESCRIPTION)
    p.add_argument("file", metavar="FILE", help="the record (JSON)")
    p.set_defaults(func=run)


def numbered_moves(games, players=None) -> list[list[str]]:
    """Per hand, one line per recorded action: its number over the whole record (the
    decision numbers of ``canasta advise --record``), the seat and the move."""
    from sim.play.words import describe_action

    out, n = [], 0
    for g in games:
        lines = []
        for seat, a in g.history:
            n += 1
            who = f"P{seat}" + (f" ({players[seat]})" if players else "")
            lines.append(f"  #{n} {who}: {describe_action(a)}")
        out.append(lines)
    return out


def run(args) -> int:
    import json

    from sim.play.words import hand_lines
    from sim.record import load, replay

    rec = load(args.file)
    games = replay(rec)
    players = rec.get("players")
    who = ", ".join(f"P{p} {players[p]}" for p in range(4)) if players else "seats P0..P3"
    print(
        f"record: {rec.get('kind', 'hand')} of {len(games)} hand(s), seed {rec.get('seed')}; "
        f"{who}; ruleset {json.dumps(games[0].ruleset.to_dict())}"
    )
    for k, (g, moves) in enumerate(zip(games, numbered_moves(games, players), strict=True), 1):
        print(f"== hand {k} of {len(games)} ==")
        print("\n".join(hand_lines(g)))
        print("moves (numbers for canasta advise --record FILE --decision N):")
        print("\n".join(moves) if moves else "  (none)")
    if len(games) > 1 or rec.get("kind") == "game":
        last = games[-1]
        items = last.score_items()
        totals = [int(last.start_scores[t]) + int(items[t].sum()) for t in range(2)]
        print(f"game totals after {len(games)} hand(s): team 0 {totals[0]:,}, team 1 {totals[1]:,}")
    return 0
