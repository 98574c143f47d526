"""What a hint and the review ask of a hand, from one seat's view: the position the seat
faces as an ``analysis.whatif.Position`` (``position_for``: the advice's input), the card its
last stock draw brought (``last_draw``), the advice's choice a player's actions made
(``made_choice``) and an advice label without suits (``plain``). The human's seat
(``canasta._seat``) and ``canasta review`` use them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from sim import encoding as E
from sim.errors import CanastaError

__all__ = ["last_draw", "made_choice", "plain", "position_for"]


def position_for(game, seat: int):
    """``(Position, drawn card token or None)``: what ``seat`` sees, as an
    ``analysis.whatif.Position`` for ``analysis.advise.advise``.

    At the draw step the position is now (drawn None). At the play step after drawing from the
    stock it is the position before that draw, with the card drawn (a token such as ``"KS"``,
    of a suit the position does not already name when one is free): the advice covers the
    whole turn. Built from the player's observation only: their hand, the public table (both
    teams' melds, the pile, which every player saw discarded, the sizes), the scores and the
    public card memory (``SeatView.known``: the cards the others took with the pile and have not
    shown since, which the advice puts in their hands in every deal) and the threes laid
    (DEAL-4: out of play, never dealt; they count at the hand's end). Card suits are chosen (the
    engine counts cards by kind, and so does the advice)."""
    from analysis.whatif import position

    v = game.view(seat)
    if v.phase == E.PH_THREES:
        raise CanastaError("hint: decide on your threes first (keep or lay, DEAL-5)")
    if v.phase == E.PH_OVER:
        raise CanastaError("hint: the hand is over")
    if v.phase == E.PH_PLAY and v.took_pile:
        raise CanastaError("hint: no advice after taking the pile (only before the draw)")
    if v.phase == E.PH_PLAY and v.melded:
        raise CanastaError("hint: ask before melding: the advice covers the whole turn")
    hand = np.array(v.hand)
    drawn_kind = None
    if v.phase == E.PH_PLAY:
        card = last_draw(game, seat)
        if card is None:  # pragma: no cover - the play step follows a draw or a pickup
            raise CanastaError("hint: no draw found this turn")
        drawn_kind = int(E.CARD_KIND[card])
        hand[drawn_kind] -= 1
    pools = {k: [int(c) for c in np.flatnonzero(E.CARD_KIND == k)] for k in range(E.N_KINDS)}

    def cards(counts) -> list[str]:
        from sim.cards import format_card

        out = []
        for k in range(E.N_KINDS):
            for _ in range(int(counts[k])):
                out.append(format_card(pools[k].pop(0)))
        return out

    melds = {}
    for i in range(E.N_TEAMS):  # relative teams: own, opponents
        groups = []
        for slot in range(E.N_KINDS):
            nat, two, joker = (int(x) for x in v.melds[i, slot])
            if nat + two + joker:
                c = np.zeros(E.N_KINDS, dtype=np.int64)
                c[slot] += nat
                c[E.TWO] += two
                c[E.JOKER] += joker
                groups.append(" ".join(cards(c)))
        if groups:
            melds[v.team_at(i)] = groups
    pile_counts = np.array(v.pile_counts)
    top = v.pile_top
    pile_top = None
    if top >= 0:
        pile_counts[top] -= 1
        pile_top = cards(np.eye(E.N_KINDS, dtype=np.int64)[top])[0]
    below = cards(pile_counts)
    sizes = [0] * E.N_PLAYERS
    for i in range(E.N_PLAYERS):  # relative seats: self, left, partner, right
        sizes[v.seat_at(i)] = int(v.hand_sizes[i])
    if drawn_kind is not None:
        sizes[seat] -= 1  # the position is before the draw
    scores = [0, 0]
    for i in range(E.N_TEAMS):
        scores[v.team_at(i)] = int(v.scores[i])
    known = {}  # the public card memory: what the others took with the pile, not shown since
    for i in range(1, E.N_PLAYERS):
        if v.known[i].any():
            known[v.seat_at(i)] = np.array(v.known[i])
    threes = [[0, 0], [0, 0]]  # DEAL-4: laid face up, out of play
    for i in range(E.N_TEAMS):
        threes[v.team_at(i)] = [int(x) for x in v.threes[i]]
    pos = position(
        " ".join(cards(hand)),
        seat=seat,
        turn=v.turn,
        scores=tuple(scores),
        melds=melds,
        pile_top=pile_top,
        pile=" ".join(below),
        pile_size=v.pile_n,
        hand_sizes=sizes,
        hand_number=v.hand_number,  # OPEN-1: the hand's number, 0 reads 1
        known=known or None,
        threes=threes,
    )
    return pos, None if drawn_kind is None else _free_token(pos, drawn_kind)


def _free_token(pos, kind: int) -> str:
    """A token of ``kind`` for a card the position does not hold, preferring a suit it does
    not name at all (the notation names a card, the pack is the first free copy, CARD-1)."""
    from collections import Counter

    from sim.cards import format_card

    used = set(pos.hand.tolist()) | set(pos.pile.tolist() if pos.pile is not None else [])
    used |= {int(c) for ms in pos.melds.values() for m in ms for c in m.tolist()}
    used |= {pos.pile_top} if pos.pile_top >= 0 else set()
    named = Counter(format_card(c) for c in used)
    free = [int(c) for c in np.flatnonzero(E.CARD_KIND == kind) if int(c) not in used]
    return format_card(min(free, key=lambda c: named[format_card(c)]))


def last_draw(game, seat: int) -> int | None:
    """Card id that ``seat``'s last draw from the stock brought into the hand: the card drawn,
    or, when that was a three laid down at once (DEAL-4), the last replacement card."""
    card = None
    for name, p, a, b in game.events():
        if p != seat:
            continue
        if name == "action" and a == E.A_DRAW:
            card = -1
        elif name in ("draw", "replace") and card is not None:
            card = b
    return None if card is None or card < 0 else card


_SUIT = re.compile(r"\b(10|[2-9AJQK])[SHDC]\b")


def plain(label: str) -> str:
    """An advice label without the suits it chose (the faces show cards by rank: suits never
    matter to the rules), e.g. 'meld 9S 9H 9D' -> 'meld 9 9 9'."""
    return _SUIT.sub(r"\1", label)


def made_choice(actions: Sequence[int], i: int, seat: int, h, adv):
    """The Choice of ``adv`` that the human's actions from index ``i`` made (matched by the
    kinds melded and discarded in the turn), or None."""
    a = actions[i]
    if adv.decision == "draw":
        label = "take the pile" if a == E.A_TAKE_PILE else "draw"
        return next((c for c in adv.choices if c.label == label), None)
    melded, discard = [], None
    for b in actions[i:]:
        kind = int(E.ACTION_TABLE[b, E.AC_TYPE])
        if kind == E.AT_MELD:
            _, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[b])
            melded += [slot] * (nat if slot != E.WILD_MELD else 0) + [E.TWO] * two
            melded += [E.JOKER] * joker
        elif kind == E.AT_DISCARD:
            discard = int(E.ACTION_TABLE[b, E.AC_SLOT])
            break
        elif kind == E.AT_DECLARE:
            return next((c for c in adv.choices if c.label.startswith("declare")), None)
    from sim.cards import parse_cards

    want = sorted(melded)
    for c in adv.choices:
        kinds = sorted(int(E.CARD_KIND[x]) for m in c.melds for x in parse_cards(" ".join(m)))
        d = int(E.CARD_KIND[parse_cards(c.discard)[0]]) if c.discard else None
        if kinds == want and d == discard:
            return c
    return None
