"""The one text renderer of a hand for every face: the deal, the transcript, each team's
melds, threes and hands, and the itemised score table.

``canasta play``, the human seat of ``canasta play --human``, ``canasta replay``, the web
table and ``sim.env``'s ``ansi`` render print these lines, so a hand reads the same
everywhere. Every function takes a ``sim.engine.game.Game`` (or a ``scores()`` dict) and
returns lines without a trailing newline; none prints.
"""

from __future__ import annotations

from collections.abc import Callable

from sim import encoding as E

__all__ = ["deal_lines", "end_lines", "hand_lines", "score_lines", "status_line"]


def _seat_name(p: int) -> str:
    return f"P{p}"


def deal_lines(game) -> list[str]:
    """The four hands dealt and the turn card (DEAL-1, DEAL-3): the whole deal, so only for a
    finished hand or a face that may show every card."""
    from sim.cards import format_cards

    lines = ["deal (DEAL-1; no up-card, DEAL-2):"]
    for p in range(E.N_PLAYERS):
        cards = game.deck[p * E.HAND_SIZE : (p + 1) * E.HAND_SIZE]
        lines.append(f"  P{p}: {format_cards(sorted(cards.tolist()))}")
    turn_card = game.deck[E.N_PLAYERS * E.HAND_SIZE + 8]
    lines.append(f"  turn card (DEAL-3, 9th from the stock's bottom): {format_cards([turn_card])}")
    return lines


def end_lines(game, name: Callable[[int], str] = _seat_name, verb: str = "holds") -> list[str]:
    """The special hand declared (SPECIAL-1), each team's melds and threes laid, and what
    each player holds (``name``: a seat's label, ``verb``: 'holds' or 'held')."""
    from sim.cards import format_counts, format_melds
    from sim.engine.views import st_hands, st_melds, st_threes

    melds, threes, hands = st_melds(game.state), st_threes(game.state), st_hands(game.state)
    lines = []
    special, special_team = game.special_hand
    if special:
        lines.append(f"team {special_team} declared a special hand: {special} (SPECIAL-1)")
    for t in range(E.N_TEAMS):
        lines.append(
            f"team {t} melds: {format_melds(melds[t])}; threes laid: "
            f"{int(threes[t, 0])} red, {int(threes[t, 1])} black"
        )
        for p in (t, t + E.N_TEAMS):
            lines.append(f"  {name(p)} {verb}: {format_counts(hands[p]) or '(nothing)'}")
    return lines


def score_lines(scores: dict) -> list[str]:
    """The itemised score table of a hand (``Game.scores()``: SCORE-1..8, OUT-3), one item a
    line, the totals last (plain integers, so a reader can split the line)."""
    items = [k for k in scores[0] if k != "total"]
    width = max(len(i) for i in [*items, "score"])
    lines = [f"{'score':<{width}} {'team 0':>8} {'team 1':>8}"]
    for item in [*items, "total"]:
        lines.append(f"{item:<{width}} {scores[0][item]:>8} {scores[1][item]:>8}")
    return lines


def status_line(game) -> str:
    """Where a running hand stands, from the acting player's observation: the pile, the stock
    and who is to act."""
    obs = game.observation()
    top = int(obs[E.OB_PILE_TOP])
    return (
        f"pile: {int(obs[E.OB_PILE_N])} cards, top {E.KIND_NAMES[top] if top >= 0 else '-'}; "
        f"stock: {int(obs[E.OB_STOCK_N])} cards; turn {game.turn}: P{game.current_player} "
        f"to act ({game.phase})"
    )


def hand_lines(game, header: str | None = None) -> list[str]:
    """The whole hand as one text: a header line, the deal, every draw, pickup, meld, discard
    and three so far, the melds and hands, then the score table once it is over (while it
    runs, the status line instead)."""
    if header is None:
        header = (
            f"seed {game.seed}, hand {game.hand_id}: team 0 (seats 0, 2), team 1 (seats 1, 3); "
            f"seat {game.first_player} plays first (DEAL-1); scores at the start "
            f"{game.start_scores[0]}, {game.start_scores[1]}"
        )
    lines = [header, *deal_lines(game), *game.transcript(), *end_lines(game)]
    if not game.is_over:
        return [*lines, status_line(game)]
    return lines + score_lines(game.scores())
