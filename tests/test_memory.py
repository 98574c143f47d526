"""The public card memory (``ST_KNOWN``, the observation's ``OB_KNOWN``): the cards each seat
is known to hold since it took them with the pile (PILE-1), less as many of a kind as it has
since melded (MELD-*), discarded (DISCARD-*) or laid (DEAL-4). Checked against a pure-Python
twin on real hands, as a lower bound of every hand, seat-relative in every observation; and
the determinizations of a search (``sim.engine.search.determinize``) that respect it: none
contradicts the public record, and on a small deck the unseen cards are dealt as an exact
enumeration says (chi-square, fixed seed)."""

import itertools
import math

import numpy as np
import pytest

from sim import encoding as E
from sim.engine.search import WORK_SIZE, determinize, unseen_counts
from sim.engine.state import apply_action, clear_state
from sim.play import Hand as Game
from sim.play.table import TableView
from sim.play.view import obs_fields
from sim.ruleset import Ruleset
from tests.twins.memory_twin import Memory

PAIRS = [("strong", "heuristic"), ("greedy", "random"), ("heuristic", "greedy")]


def _twin_moves(events, start):
    """The engine's event log from ``start`` in the twin's words."""
    for name, p, a, _top in events[start:]:
        if name == "action":
            kind = E.ACTION_TABLE[a, E.AC_TYPE]
            slot = int(E.ACTION_TABLE[a, E.AC_SLOT])
            if kind == E.AT_DISCARD:
                yield ("discard", p, slot)
            elif kind == E.AT_TAKE_PILE:
                yield ("take", p)
            elif kind == E.AT_MELD:
                nat, two = int(E.ACTION_TABLE[a, E.AC_NAT]), int(E.ACTION_TABLE[a, E.AC_TWO])
                yield ("meld", p, slot, nat, two, int(E.ACTION_TABLE[a, E.AC_JOKER]))
        elif name == "lay_three":
            yield ("lay", p, a)
        elif name == "pile_joins":
            yield ("joins", p)


def _known(st):
    return TableView(st).known


def _hands(st):
    return TableView(st).hands


def _real_games(pair, seed, hands):
    for hand_id in range(hands):
        g = Game(seed=seed, hand_id=hand_id)
        for t in g.turns(pair):  # each action before it is applied
            yield g, t.action
        yield g, -1


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: ",".join(p))
def test_memory_kernel_equals_twin_and_bounds_every_hand(pair):
    """After every action of real hands the state's memory is the twin's, never more than a
    hand holds (a lower bound: CARD-1), and every observation shows it seat-relative."""
    taken = 0
    twin, seen, last = None, 0, None
    for g, _ in _real_games(pair, seed=3, hands=12):
        if g is not last:
            twin, seen, last = Memory(), 0, g
        events = g.events()
        for move in _twin_moves(events, seen):
            twin.play(move)
            taken += move[0] == "joins"
        seen = len(events)
        known = _known(g.state)
        for p in range(E.N_PLAYERS):
            assert list(known[p]) == twin.counts(p, E.N_KINDS), (g.turn, p)
        assert (known <= _hands(g.state)).all()
        p = g.current_player
        seen_by_p = g.view().known  # relative seats: p itself, left, partner, right
        for i in range(E.N_PLAYERS):
            assert (seen_by_p[i] == known[(p + i) % E.N_PLAYERS]).all()
    assert taken >= 5  # piles were taken and joined hands: the memory was exercised


def test_memory_scenario_pile_taken_then_melded_and_discarded():
    """A transcript: seat 1 takes a pile holding two queens below its top (PILE-1); the table
    now knows two queens in its hand; it melds one queen, then one is still known; a discard
    of a queen leaves none known."""
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    clear_state(st)
    rules = np.ascontiguousarray(Ruleset().to_array())
    log = np.zeros(1, dtype=np.int64)
    w = TableView.writable(st)  # the scenario is written into the state by name
    hands = w.hands
    hands[1, E.KING] = 2  # the pair of the pile's top card
    hands[1, E.FIVE] = 3
    hands[1, E.QUEEN] = 1  # one queen of its own, which the table does not know
    for k in (E.QUEEN, E.QUEEN, E.FIVE, E.KING):  # the pile, top card last
        w.pile[w.pile_n] = k
        w.pile_n += 1
        w.pile_counts[k] += 1
    w.opened[1] = 1  # opened: the pile's rest joins the hand at once
    w.player = 1
    w.phase = E.PH_DRAW
    w.stock_n = 40
    apply_action(st, E.A_TAKE_PILE, rules, log)
    assert _known(st)[1, E.QUEEN] == 2 and _known(st)[1, E.FIVE] == 1
    assert _known(st)[1].sum() == 3 and _hands(st)[1, E.QUEEN] == 3
    meld_q = next(
        a
        for a in range(E.N_ACTIONS)
        if E.ACTION_TABLE[a, E.AC_TYPE] == E.AT_MELD
        and E.ACTION_TABLE[a, E.AC_SLOT] == E.QUEEN
        and E.ACTION_TABLE[a, E.AC_NAT] == 1
        and E.ACTION_TABLE[a, E.AC_TWO] + E.ACTION_TABLE[a, E.AC_JOKER] == 0
    )
    w.melds[1, E.QUEEN, E.NATURALS] = 3  # a queens meld to join
    apply_action(st, meld_q, rules, log)
    assert _known(st)[1, E.QUEEN] == 1  # which queen went is not known: one is still known
    apply_action(st, E.A_DISCARD + E.QUEEN, rules, log)
    assert _known(st)[1, E.QUEEN] == 0 and _hands(st)[1, E.QUEEN] == 1


def test_determinized_deals_never_contradict_the_public_record():
    """At the decisions of real hands, every determinization (with memory) gives each other
    seat its known cards (a hand holds at least what the table knows), keeps hand and stock
    sizes and all 108 cards (CARD-1), and copies the memory into the sampled state."""
    srng = np.array([1, 2, 3, 4], dtype=np.uint64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    checked = 0
    for g, a in _real_games(("strong", "heuristic"), seed=5, hands=10):
        if a < 0 or g.phase not in ("draw", "play"):
            continue
        obs = g.observation()
        v = g.view()
        p = g.current_player
        if v.known[1:].sum() == 0:
            continue
        for _ in range(3):
            assert determinize(obs, st, srng, work, True)
            hands = _hands(st)
            for i in range(1, E.N_PLAYERS):
                q = (p + i) % E.N_PLAYERS
                assert (hands[q] >= v.known[i]).all()
                assert hands[q].sum() == v.hand_sizes[i]
            assert (hands[p] == _hands(g.state)[p]).all()
            assert TableView(st).stock_n == v.stock_n
            assert (_known(st) == _known(g.state)).all()
            counts = np.zeros(E.N_KINDS, dtype=np.int64)
            unseen_counts(obs, counts)
            dealt = hands.sum(axis=0) - hands[p]
            stock = np.bincount(E.CARD_KIND[TableView(st).stock_cards], minlength=E.N_KINDS)
            assert (dealt + stock == counts).all()  # CARD-1
            checked += 1
    assert checked >= 30


def _small_deck_obs():
    """An observation late in a hand on a "small deck": every card seen but 7 (the pile holds
    the rest), 3 queens, 2 kings, a nine and a joker unseen; the next player holds 3 cards, of
    which the table knows a queen and a king, the partner 2, the previous player 1 (a known
    nine), the stock 1."""
    obs = np.zeros(E.OBS_SIZE, dtype=np.int64)
    obs[E.OB_PHASE] = E.PH_DRAW
    obs[E.OB_SEAT] = 0
    obs[E.OB_PILE_TOP] = E.FIVE
    obs[E.OB_KEPT] = -1
    obs[E.OB_PILE_KIND] = -1
    hand = {E.FOUR: 2}
    unseen = {E.QUEEN: 3, E.KING: 2, E.NINE: 1, E.JOKER: 1}
    f = obs_fields(obs)
    for k in range(E.N_KINDS):
        f.hand[k] = hand.get(k, 0)
        f.pile_counts[k] = E.KIND_COPIES[k] - hand.get(k, 0) - unseen.get(k, 0)
    obs[E.OB_PILE_N] = f.pile_counts.sum()
    obs[E.OB_STOCK_N] = 1
    sizes = (2, 3, 2, 1)
    for i, n in enumerate(sizes):
        f.hand_sizes[i] = n
    f.known[1, E.QUEEN] = 1
    f.known[1, E.KING] = 1
    f.known[3, E.NINE] = 1
    return obs, unseen, sizes


def _exact_distribution(free, room):
    """P(assignment) of the ``free`` cards (kind -> copies) dealt uniformly at random, card by
    card, into slots of sizes ``room``: the multivariate hypergeometric law, enumerated."""
    kinds = sorted(free)
    total = math.factorial(sum(room))
    for r in room:
        total //= math.factorial(r)  # the ways to fill the slots with distinct cards, by slot
    out = {}

    def splits(n, parts):
        if parts == 1:
            yield (n,)
            return
        for first in range(n + 1):
            for rest in splits(n - first, parts - 1):
                yield (first, *rest)

    for combo in itertools.product(*(list(splits(free[k], len(room))) for k in kinds)):
        if any(sum(c[j] for c in combo) != room[j] for j in range(len(room))):
            continue
        ways = 1
        for k, c in zip(kinds, combo, strict=True):
            w = math.factorial(free[k])
            for x in c:
                w //= math.factorial(x)
            ways *= w
        out[tuple((k, c) for k, c in zip(kinds, combo, strict=True))] = ways / total
    return out


def _chi2_quantile(df, z):
    """Wilson-Hilferty: the chi-square quantile at the normal quantile ``z``."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_unseen_cards_dealt_as_the_exact_enumeration_says():
    """On a small deck (7 unseen cards, 3 of them known to the table), 20,000 determinizations
    (fixed seed): the known cards always in their holders' hands, and the other 4 dealt to the
    3 free places in hands and the stock with the frequencies of the exact enumeration
    (chi-square below its 0.9999 quantile, z = 3.72: a correct sampler fails 1 run in 10,000)."""
    obs, unseen, sizes = _small_deck_obs()
    free = dict(unseen)
    known = {1: {E.QUEEN: 1, E.KING: 1}, 3: {E.NINE: 1}}
    for row in known.values():
        for k, c in row.items():
            free[k] -= c
    free = {k: c for k, c in free.items() if c > 0}
    room = [sizes[i] - sum(known.get(i, {}).values()) for i in (1, 2, 3)] + [1]
    expected = _exact_distribution(free, room)
    srng = np.array([11, 22, 33, 44], dtype=np.uint64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    n = 20_000
    seen = dict.fromkeys(expected, 0)
    hands = _hands(st)  # follows st as determinize deals into it
    for _ in range(n):
        assert determinize(obs, st, srng, work, True)
        for i, row in known.items():
            for k, c in row.items():
                assert hands[i, k] >= c
        slots = [hands[i].copy() for i in (1, 2, 3)]
        for i, row in known.items():
            for k, c in row.items():
                slots[i - 1][k] -= c
        stock = np.bincount(E.CARD_KIND[TableView(st).stock_cards], minlength=E.N_KINDS)
        slots.append(stock)
        key = tuple((k, tuple(int(s[k]) for s in slots)) for k in sorted(free))
        seen[key] += 1  # a key outside the enumeration fails here
    chi2 = sum((seen[a] - n * p) ** 2 / (n * p) for a, p in expected.items())
    df = len(expected) - 1
    assert df >= 5
    assert chi2 < _chi2_quantile(df, 3.72), (chi2, df)


def test_determinize_without_memory_deals_every_unseen_card_at_random():
    """``memory`` False: the search without memory (the default expert's): the known queen of
    the small deck's next player is sometimes elsewhere, and the sampled state knows nothing."""
    obs, _, _ = _small_deck_obs()
    srng = np.array([5, 6, 7, 8], dtype=np.uint64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    st = np.zeros(E.STATE_SIZE, dtype=np.int64)
    missing = 0
    for _ in range(400):
        assert determinize(obs, st, srng, work, False)
        missing += _hands(st)[1, E.QUEEN] == 0
        assert _known(st).sum() == 0
    assert missing > 0
