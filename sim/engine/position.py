"""What-if positions, compiled: deal the unseen cards around a fixed position and play it out.

A position fixes, at the start of one player's turn ``turn`` (before the draw): that player's
hand (any size), the team scores, the teams' melds, the pile (its top and contents) and the
stock size. Everything else is *unseen*: the other players' hands and the stock, plus any pile
cards not fixed. Hand ``i`` shuffles the unseen cards with the generator ``seed_hand(run_key(S),
i)`` and deals them (the unfixed pile cards, then the other hands in seat order, then the stock),
then plays on from the same generator, so the unseen cards depend only on (S, i): every choice
meets the same deals (common random numbers).

The *choice* (``CHOICES``, ``sim.engine.intercept``) forces the fixed player's first
decision(s) in that turn through the engine's one hand loop (``play_hand_loop``'s intercept);
the policies play everything else. A forced action the rules refuse in a deal is not made
there (the policy decides) and the record's ``applied`` column is 0.

Kernel: ``play_position_kernel``; Python: ``position_arrays`` (check a position, build the
template) and ``play_position_arrays`` (compiled policies in, record arrays out). Policy names,
the runner and DataFrames are ``sim.api``'s (``sim.play_position``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit, types

from sim import encoding as E
from sim._views import copy_into
from sim.engine.intercept import (
    CH_POLICY,
    CHOICES,
    IC_APPLIED,
    IC_CHOICE,
    IC_KIND,
    IC_SEAT,
    IC_SIZE,
    IC_TURN,
    IK_CHOICE,
)
from sim.engine.play import chunk_kernel, finish_hand, hand_arrays, play_hand_loop
from sim.engine.state import begin_turn, clear_state
from sim.errors import CanastaError
from sim.limits import (
    check_cards,
    check_hand_number,
    check_int,
    check_scores,
    check_seat,
    check_turn,
)
from sim.rng import seed_hand, shuffle

#: the position array handed to the kernel (besides the template state and the unseen cards)
(PS_SEAT, PS_TURN, PS_CHOICE, PS_PILE_RANDOM, PS_TOP_RANDOM, PS_PILE_N, PS_STOCK_N) = range(7)
PS_SIZES = 7  #: hand sizes of the four seats (the fixed seat's included)
PS_WIDTH = PS_SIZES + E.N_PLAYERS


# ---------------------------------------------------------------------------------------
# The kernel
# ---------------------------------------------------------------------------------------
@njit(cache=True)
def _position_intercept(pos):
    """The intercept of the position's choice (``sim.engine.intercept``): forced at the fixed
    seat's fixed turn; none for the ``policy`` choice."""
    icpt = np.zeros(IC_SIZE, dtype=np.int64)
    if pos[PS_CHOICE] != CH_POLICY:
        icpt[IC_KIND] = IK_CHOICE
        icpt[IC_SEAT] = pos[PS_SEAT]
        icpt[IC_TURN] = pos[PS_TURN]
        icpt[IC_CHOICE] = pos[PS_CHOICE]
    return icpt


@njit(cache=True)
def deal_position(st, template, pos, unseen, rng, log, rules):
    """Copy the fixed ``template`` state and deal the ``unseen`` card ids (shuffled in place
    from ``rng``) to the unfixed pile cards (never a three: threes are never discarded, DEAL-4), the
    other seats (each up to its size beyond its known cards, already in the template) and the
    stock; then the fixed player's turn begins (TURN-1, DEAL-4/5)."""
    copy_into(st, template)
    shuffle(rng, unseen)
    seat = pos[PS_SEAT]
    # the pile first: random cards below the top, then the top (fixed in the template or
    # random); threes met on the way are passed over (moved to the front) for the hands
    n_pile = pos[PS_PILE_RANDOM] + pos[PS_TOP_RANDOM]
    top_fixed = pos[PS_PILE_N] > 0 and pos[PS_TOP_RANDOM] == 0
    base = pos[PS_PILE_N] - n_pile - (1 if top_fixed else 0)
    skipped = 0
    placed = 0
    j = 0
    while placed < n_pile:
        c = unseen[j]
        k = E.CARD_KIND[c]
        if k == E.RED_THREE or k == E.BLACK_THREE:  # DEAL-4: threes are never discarded
            unseen[j] = unseen[skipped]
            unseen[skipped] = c
            skipped += 1
        else:
            st[E.ST_PILE + base + placed] = k
            st[E.ST_PILE_COUNTS + k] += 1
            st[E.ST_DISCARDS + k] += 1
            placed += 1
        j += 1
    st[E.ST_PILE_N] = pos[PS_PILE_N]
    for m in range(skipped):  # the passed-over threes rejoin the cards still to deal
        unseen[j - skipped + m] = unseen[m]
    i = j - skipped
    # then the other seats' hands, each beyond the cards the public card memory already put
    # there (the template's), then the stock (its top last)
    for q in range(E.N_PLAYERS):
        if q == seat:
            continue
        placed = 0
        for k in range(E.N_KINDS):
            placed += template[E.ST_HANDS + q * E.N_KINDS + k]
        for _ in range(pos[PS_SIZES + q] - placed):
            st[E.ST_HANDS + q * E.N_KINDS + E.CARD_KIND[unseen[i]]] += 1
            i += 1
    n = 0
    for m in range(i, unseen.shape[0]):
        st[E.ST_STOCK + n] = unseen[m]
        n += 1
    st[E.ST_STOCK_N] = n
    st[E.ST_TURN_CARD_DRAWN] = 1 if n <= E.TURN_CARD_FROM_BOTTOM - 1 else 0  # DEAL-3
    st[E.ST_PLAYER] = seat
    st[E.ST_TURN] = pos[PS_TURN] - 1
    begin_turn(st, rules, log)


#: a position's kernel inputs after the chunk's own: template state, position array, unseen ids
POSITION_ARGS = (types.int64[::1], types.int64[::1], types.int64[::1])
#: the kernels' outputs: records, applied flags, status
RESULT_ARGS = (types.int64[:, ::1], types.int64[::1], types.int64[::1])


# fmt: off
@chunk_kernel(*POSITION_ARGS, *RESULT_ARGS)
def play_position_kernel(key, start, stop, pol0, pol1, params0, params1, rules,
                         template, pos, unseen, out, applied, status):
    # fmt: on
    """Hands ``start..stop-1`` from the position (``template`` state, ``pos`` array, ``unseen``
    card ids): hand ``h`` deals the unseen cards and plays from ``seed_hand(key, h)``. Records
    go to ``out[h - start]``, the choice's ``applied`` flag to ``applied[h - start]``."""
    st, obs, scratch, rng, items, log = hand_arrays()
    cards = np.empty(unseen.shape[0], dtype=np.int64)
    cache = np.zeros(E.PC_SIZE, dtype=np.int64)  # the opening plan of check_action
    icpt = _position_intercept(pos)
    for h in range(start, stop):
        seed_hand(key, h, rng)
        # the same starting order for every hand: the deal depends on (key, h)
        copy_into(cards, unseen)
        deal_position(st, template, pos, cards, rng, log, rules)
        code = play_hand_loop(
            st, obs, pol0, pol1, params0, params1, rng, rules, scratch, cache, log, 0, icpt
        )
        if finish_hand(st, code, h, rules, items, out[h - start], status) != 0:
            return code
        applied[h - start] = icpt[IC_APPLIED]
    return 0


# ---------------------------------------------------------------------------------------
# The Python layer: check the position, build the template, run the kernel
# ---------------------------------------------------------------------------------------
def _ids(cards, what: str, taken: np.ndarray | None = None) -> np.ndarray:
    """Card ids (int64) of a fixed part of the position, given as ids or in card notation
    (``taken``: the copies already named, so a second '7C' is the second copy)."""
    if cards is None:
        return np.zeros(0, dtype=np.int64)
    if isinstance(cards, str):
        from sim.cards import parse_cards

        return parse_cards(cards, taken)
    items = np.asarray(cards).reshape(-1)
    if items.size and not (
        np.issubdtype(items.dtype, np.integer)
        or (items.dtype == object and all(isinstance(c, int | np.integer) for c in items))
    ):
        raise CanastaError(f"{what}: expected card ids 0..{E.N_CARDS - 1} or cards like 'AS JK'")
    if items.size and (min(items) < 0 or max(items) >= E.N_CARDS):
        raise CanastaError(f"{what}: card ids are 0..{E.N_CARDS - 1}")
    return items.astype(np.int64)


def _melds_of(position, taken) -> dict[int, list[np.ndarray]]:
    """team -> list of melds (card ids); a team's entry may be one array (one meld per rank,
    wilds to a wild meld only when no natural is given) or a list of melds."""
    melds = getattr(position, "melds", None) or {}
    if not isinstance(melds, Mapping):
        raise CanastaError("melds: expected a mapping team -> cards")
    out = {}
    for team, cards in melds.items():
        if team not in range(E.N_TEAMS):
            raise CanastaError(f"bad team {team}: teams are 0 and 1")
        if isinstance(cards, str) or (
            isinstance(cards, np.ndarray) and cards.ndim == 1 and cards.dtype != object
        ):
            groups = [cards]
        else:
            groups = list(cards)
        out[int(team)] = [_ids(g, f"team {team}'s melds", taken) for g in groups]
    return out


def position_arrays(position, choice: str, ruleset=None):
    """Check ``position`` and return ``(template, pos, unseen)`` for the kernel.

    ``position`` has the attributes of ``analysis.whatif.Position``: ``hand`` (card ids or
    notation), ``seat``, ``turn``, ``scores``, ``melds`` (team -> one meld's cards or a list of
    melds), ``pile_top`` (card id, -1 if not fixed) and optionally ``pile`` (the cards below
    the top), ``pile_size``, ``stock``, ``hand_sizes`` (the four seats' hand sizes; default
    13 for the others), ``hand_number`` (the hand's number in its game, default 1) and
    ``known`` (the public card memory: int64[4, N_KINDS], the cards known to be in each other
    seat's hand by kind, absolute seats; None: no memory). Known cards go to their holders in
    every deal (and to the state's memory, ``ST_KNOWN``); only the rest is dealt at random. The
    template is a whole hand's state: its hand number and the ruleset's opening variants
    (OPEN-1, OPEN-2) are set as ``deal_hand`` sets them. Impossible positions raise
    CanastaError naming the problem."""
    from sim.cards import format_card
    from sim.encoding import explain
    from sim.finished import check_table
    from sim.legality import meld_reason, meld_slot

    rules = np.ascontiguousarray(_ruleset(ruleset).to_array())
    if choice not in CHOICES:
        raise CanastaError(f"unknown choice {choice!r}: choose from {', '.join(CHOICES)}")
    seat = check_seat(getattr(position, "seat", 0))
    turn = check_turn(getattr(position, "turn", 0))
    hand_number = check_hand_number(getattr(position, "hand_number", 1))
    scores = check_scores(getattr(position, "scores", (0, 0)))
    taken = np.zeros(E.N_CARDS, dtype=np.bool_)
    hand = _ids(getattr(position, "hand", None), "the fixed hand", taken)
    taken[hand] = True
    if hand.size == 0:
        raise CanastaError("the fixed hand is empty")
    top = getattr(position, "pile_top", None)
    if top is not None:
        top = check_int("pile_top (a card id, -1: not fixed)", top, -1, E.N_CARDS - 1)
    top = -1 if top is None else top
    if top >= 0 and not taken[top]:
        taken[top] = True  # named before the melds' notation picks copies
    melds = _melds_of(position, taken)
    below = _ids(getattr(position, "pile", None), "the pile", taken)
    fixed = [("the fixed hand", hand), ("the pile", below)]
    fixed += [(f"team {t}'s melds", m) for t, ms in melds.items() for m in ms]
    if top >= 0:
        fixed.append(("the pile top", np.array([top], dtype=np.int64)))
    seen = {}
    for what, ids in fixed:  # CARD-1: each card once
        for c in ids.tolist():
            if c in seen:
                raise CanastaError(
                    f"CARD-1: {format_card(c)} (card id {c}) is fixed twice ({seen[c]}, {what})"
                )
            seen[c] = what
    counts = np.zeros(E.N_KINDS, dtype=np.int64)
    for c in seen:
        counts[E.CARD_KIND[c]] += 1
    laid = _threes_of(getattr(position, "threes", None), counts)
    for j, kind in enumerate((E.RED_THREE, E.BLACK_THREE)):  # DEAL-4: out of play, never dealt
        free = [c for c in np.flatnonzero(E.CARD_KIND == kind).tolist() if c not in seen]
        for c in free[: int(laid[:, j].sum())]:
            seen[c] = "the threes laid"
            counts[kind] += 1
    over = np.flatnonzero(counts > E.KIND_COPIES)
    if over.size:
        raise CanastaError(f"CARD-1: more copies of kind {int(over[0])} than two packs hold")

    template = np.zeros(E.STATE_SIZE, dtype=np.int64)
    clear_state(template)  # no kept three, no meld started, no team out (the -1 fields)
    # OPEN-1/OPEN-2: the hand's number and the opening's variants, as deal_hand sets them
    template[E.ST_HAND_NUMBER] = hand_number
    template[E.ST_OPEN_BY] = rules[E.RS_OPENING_MINIMUM]
    template[E.ST_OPEN_WILD] = rules[E.RS_OPENING_WILD]
    t_melds = template[E.ST_MELDS : E.ST_MELDS + E.N_TEAMS * E.N_KINDS * E.N_MELD_COLS].reshape(
        (E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS)
    )
    n_melded = 0
    for team, ms in melds.items():
        for m in ms:
            if m.size == 0:
                raise CanastaError(f"team {team}'s melds: an empty meld (MELD-1: nothing to meld)")
            c = np.bincount(E.CARD_KIND[m], minlength=E.N_KINDS).astype(np.int64)
            slot, code = meld_slot(c)
            if code != E.R_OK:
                raise CanastaError(f"team {team}'s meld {_fmt(m)}: {explain(code)}")
            if slot != E.WILD_MELD:
                t_melds[team, slot, E.NATURALS] += c[slot]
            t_melds[team, slot, E.TWOS] += c[E.TWO]
            t_melds[team, slot, E.JOKERS] += c[E.JOKER]
            n_melded += m.size
        empty = np.zeros_like(t_melds)
        for slot in range(E.N_KINDS):
            nat, two, joker = (int(x) for x in t_melds[team, slot])
            if nat + two + joker == 0:
                continue
            code = meld_reason(empty, team, slot, nat, two, joker, True, False, rules)
            if code != E.R_OK:
                cards = " ".join(f"{x}" for x in (nat, two, joker))
                raise CanastaError(
                    f"team {team}'s meld in slot {slot} (naturals, twos, jokers = {cards}) "
                    f"is not legal: {explain(code)}"
                )
    check_table(t_melds)  # MELD-9: never a canasta of one rank on both sides (sim.finished)
    if turn == 0 and n_melded:
        raise CanastaError("OPEN-1: no team has melded before the first turn (turn 0)")

    # sizes: the other hands (default 13), the pile (default one discard a turn, or what the
    # fixed stock leaves) and the stock (default what is left) must add up to the 108 cards
    sizes = getattr(position, "hand_sizes", None)
    if sizes is None:
        sizes = [E.HAND_SIZE] * E.N_PLAYERS
    elif isinstance(sizes, str) or not hasattr(sizes, "__len__") or len(sizes) != E.N_PLAYERS:
        raise CanastaError(f"hand_sizes: give {E.N_PLAYERS} sizes, one per seat")
    else:
        sizes = [check_cards(x, f"hand_sizes[{i}]") for i, x in enumerate(sizes)]
    sizes[seat] = hand.size
    others = sum(sizes) - hand.size
    n_fixed_pile = below.size + (1 if top >= 0 else 0)
    left = E.N_CARDS - hand.size - n_melded - others - int(laid.sum())  # pile and stock
    pile_size = getattr(position, "pile_size", None)
    stock = getattr(position, "stock", None)
    if pile_size is not None:
        pile_size = check_cards(pile_size, "pile_size")
    if stock is not None:
        stock = check_cards(stock, "stock")
    if pile_size is None:
        if stock is None:
            pile_size = min(max(turn, n_fixed_pile), max(left, n_fixed_pile))
        else:
            pile_size = left - int(stock)
    pile_size = int(pile_size)
    stock = left - pile_size if stock is None else int(stock)
    if stock < 0 or pile_size < 0 or pile_size + stock != left:
        raise CanastaError(
            f"sizes do not add up: fixed hand {hand.size} + melds {n_melded} + other hands "
            f"{others} leave {left} of the {E.N_CARDS} cards for the pile and the stock, not "
            f"pile {pile_size} + stock {stock}"
        )
    if turn == 0 and pile_size > 0:
        raise CanastaError("DEAL-2: the pile is empty on the first turn of a hand (turn 0)")
    if pile_size < n_fixed_pile:
        raise CanastaError(f"pile size {pile_size} is below its {n_fixed_pile} fixed cards")
    pile_kinds = E.CARD_KIND[np.append(below, [top] if top >= 0 else []).astype(np.int64)]
    if np.any(E.IS_THREE[pile_kinds]):
        raise CanastaError("DEAL-4: a three is never in the pile (threes are never discarded)")
    top_random = 1 if (pile_size > n_fixed_pile and top < 0) else 0
    pile_random = pile_size - n_fixed_pile - top_random
    unseen = np.array(sorted(set(range(E.N_CARDS)) - set(seen)), dtype=np.int64)
    known = _known_of(getattr(position, "known", None), seat, sizes, unseen)
    unseen = _without_known(unseen, known)
    if pile_random + top_random > int(np.sum(~E.IS_THREE[E.CARD_KIND[unseen]])):
        raise CanastaError("DEAL-4: too few unseen cards other than threes for the pile")

    # the template state: what every hand starts from before the unseen cards are dealt
    template[E.ST_HANDS + seat * E.N_KINDS : E.ST_HANDS + (seat + 1) * E.N_KINDS] = np.bincount(
        E.CARD_KIND[hand], minlength=E.N_KINDS
    )
    for q in range(E.N_PLAYERS):  # the public card memory: known cards are in their hands
        template[E.ST_HANDS + q * E.N_KINDS : E.ST_HANDS + (q + 1) * E.N_KINDS] += known[q]
        template[E.ST_KNOWN + q * E.N_KINDS : E.ST_KNOWN + (q + 1) * E.N_KINDS] = known[q]
    for t in range(E.N_TEAMS):
        template[E.ST_SCORES + t] = scores[t]
        template[E.ST_THREES + t * 2 : E.ST_THREES + t * 2 + 2] = laid[t]
        template[E.ST_OPENED + t] = 1 if t_melds[t].sum() > 0 else 0
    for i, k in enumerate(E.CARD_KIND[below].tolist()):
        template[E.ST_PILE + i] = k
        template[E.ST_PILE_COUNTS + k] += 1
        template[E.ST_DISCARDS + k] += 1
    if top >= 0:
        k = int(E.CARD_KIND[top])
        template[E.ST_PILE + pile_size - 1] = k
        template[E.ST_PILE_COUNTS + k] += 1
        template[E.ST_DISCARDS + k] += 1
    for t in range(E.N_TEAMS):  # a fixed meld was started before the position: at its turn
        for j, slot in enumerate(E.STARTED_SLOTS):
            if t_melds[t, slot].sum() > 0:
                template[E.ST_STARTED + t * 3 + j] = turn
                template[E.ST_STARTED_STOCK + t * 3 + j] = stock
    template[E.ST_FIRST_PLAYER] = (seat - turn) % E.N_PLAYERS
    pos = np.zeros(PS_WIDTH, dtype=np.int64)
    pos[PS_SEAT], pos[PS_TURN], pos[PS_CHOICE] = seat, turn, list(CHOICES).index(choice)
    pos[PS_PILE_RANDOM], pos[PS_TOP_RANDOM], pos[PS_PILE_N] = pile_random, top_random, pile_size
    pos[PS_STOCK_N] = stock
    pos[PS_SIZES : PS_SIZES + E.N_PLAYERS] = sizes
    return template, pos, unseen


def _threes_of(threes, counts: np.ndarray) -> np.ndarray:
    """The threes laid face up (DEAL-4) of a position: int64[N_TEAMS, 2] (red, black), all zero
    when ``threes`` is None, checked against the copies two packs hold beside ``counts`` (the
    fixed cards by kind)."""
    out = np.zeros((E.N_TEAMS, 2), dtype=np.int64)
    if threes is None:
        return out
    arr = np.asarray(threes)
    if arr.shape != out.shape or not all(isinstance(x, int | np.integer) for x in arr.flat):
        raise CanastaError(
            "threes: give each team's threes laid as two counts, [[red, black], [red, black]]"
        )
    out[:] = arr
    if np.any(out < 0):
        raise CanastaError("threes: counts of threes laid are 0 or more")
    for j, (kind, name) in enumerate(((E.RED_THREE, "red"), (E.BLACK_THREE, "black"))):
        copies = int(E.KIND_COPIES[kind])
        if int(out[:, j].sum()) + int(counts[kind]) > copies:
            raise CanastaError(
                f"CARD-1: {int(out[:, j].sum())} {name} threes laid and {int(counts[kind])} "
                f"fixed elsewhere: two packs hold {copies}"
            )
    return out


def _known_of(known, seat: int, sizes, unseen: np.ndarray) -> np.ndarray:
    """The public card memory of a position: int64[N_PLAYERS, N_KINDS], the cards known to be
    in each seat's hand (absolute seats; all zero when ``known`` is None), checked against the
    seat, the hand sizes and the ``unseen`` card ids."""
    from sim.kinds import KIND_NAMES

    out = np.zeros((E.N_PLAYERS, E.N_KINDS), dtype=np.int64)
    if known is None:
        return out
    arr = np.asarray(known)
    if arr.shape != out.shape or not (
        np.issubdtype(arr.dtype, np.integer)
        or (arr.dtype == object and all(isinstance(x, int | np.integer) for x in arr.flat))
    ):
        raise CanastaError(
            f"known: give {E.N_PLAYERS} rows (the seats) of {E.N_KINDS} card counts (by kind)"
        )
    out[:] = arr
    if np.any(out < 0):
        raise CanastaError("known: card counts are 0 or more")
    if out[seat].any():
        raise CanastaError(f"known: seat {seat} is the fixed player, whose hand is given whole")
    if out[:, E.RED_THREE].any() or out[:, E.BLACK_THREE].any():
        raise CanastaError(
            "DEAL-4: no three is known in a hand (threes are never discarded, so never taken "
            "with the pile)"
        )
    for q in range(E.N_PLAYERS):
        if int(out[q].sum()) > sizes[q]:
            raise CanastaError(
                f"known: seat {q} is known to hold {int(out[q].sum())} cards but holds {sizes[q]}"
            )
    free = np.bincount(E.CARD_KIND[unseen], minlength=E.N_KINDS)
    for k in range(E.N_KINDS):
        n = int(out[:, k].sum())
        if n > int(free[k]):
            raise CanastaError(
                f"CARD-1: {n} of kind {KIND_NAMES[k]} are known in other hands but only "
                f"{int(free[k])} are unseen (not in the fixed hand, the melds or the pile)"
            )
    return out


def _without_known(unseen: np.ndarray, known: np.ndarray) -> np.ndarray:
    """The unseen card ids less a copy for each known card (the highest ids of its kind: card
    notation names the lowest free copy, so a drawn card named after the position stays
    unseen where a copy is left); only the rest is dealt at random."""
    if not known.any():
        return unseen
    keep = np.ones(unseen.size, dtype=np.bool_)
    for k in np.flatnonzero(known.sum(axis=0)):
        at = np.flatnonzero(E.CARD_KIND[unseen] == k)
        keep[at[at.size - int(known[:, k].sum()) :]] = False
    return unseen[keep]


def _fmt(ids) -> str:
    from sim.cards import format_cards

    return format_cards(ids)


def _ruleset(ruleset):
    from sim.ruleset import as_ruleset

    return as_ruleset(ruleset)


def play_position_arrays(
    key: np.ndarray, start: int, stop: int, players, arrays: tuple
) -> tuple[np.ndarray, np.ndarray]:
    """Hands ``start..stop-1`` from a checked position (``arrays``: ``position_arrays``' template,
    pos and unseen) with compiled policies (``sim.engine.hands.Players``): ``(records int64[n,
    RECORD_WIDTH], applied bool[n])`` (``applied``: the forced choice was made, always true for the
    ``policy`` choice)."""
    from sim.engine.hands import call_kernel, check_range

    start, stop = check_range(start, stop, "hand")
    out = np.zeros((stop - start, E.RECORD_WIDTH), dtype=np.int64)
    applied = np.zeros(stop - start, dtype=np.int64)
    inputs = tuple(np.ascontiguousarray(a, dtype=np.int64) for a in arrays)
    call_kernel(play_position_kernel, key, start, stop, players, inputs, (out, applied))
    return out, applied.astype(bool) | (arrays[1][PS_CHOICE] == CH_POLICY)


__all__ = ["CHOICES", "deal_position", "play_position_arrays", "position_arrays"]
