"""Scenario tests: short commented transcripts of the tricky rules, played through the step API
on stacked decks (``deck_for``): the bonus cards (OPEN-5), the turn card (DEAL-3), the pickup
when the team's meld holds five (PILE-2), discards onto an empty pile (DISCARD-3), the last stock
card being a three (END-1), a special hand declared on the first turn (SPECIAL-1), keeping a
three for a Straight (DEAL-5), threes laid and replaced (DEAL-4) and going out blocked by an
unfinished sevens meld (OUT-1).
"""

import numpy as np

from sim.cards import parse_cards
from sim.encoding import (
    A_DECLARE,
    A_DISCARD,
    A_DRAW,
    A_KEEP_RED_THREE,
    A_LAY_THREES,
    A_TAKE_PILE,
    ACE,
    BLACK_THREE,
    EIGHT,
    FIVE,
    FOUR,
    JACK,
    KIND_VALUE,
    KING,
    MELD_ACTION,
    N_CARDS,
    NATURALS,
    NINE,
    PH_PLAY,
    QUEEN,
    R_DISCARD_EMPTY_PILE,
    R_OK,
    R_OPEN_MIXED_CANASTA,
    R_OPEN_NO_NATURAL_MELD,
    R_OUT_CANASTAS,
    R_OUT_INCOMPLETE_SEVENS,
    R_PILE_MELD_FULL,
    RED_THREE,
    SEVEN,
    SIX,
    ST_DREW_STOCK,
    ST_OPENED,
    ST_OPENING_TURN,
    ST_PHASE,
    ST_PLAYER,
    ST_STOCK_N,
    ST_TURN_CARD_DRAWN,
)
from sim.engine.views import st_hands, st_melds
from sim.play import Hand as Game
from sim.play.table import TableView


def deck_for(hands, stock_top="", stock_bottom=""):
    """A deck dealing ``hands[p]`` (13 tokens) to seat p; ``stock_top`` tokens are drawn first
    (in order), ``stock_bottom`` tokens lie at the bottom of the stock (first = bottom card).
    The other cards fill the middle, the threes among them 20 cards above the bottom (so the
    last cards of the stock hold none)."""
    taken = np.zeros(N_CARDS, dtype=np.bool_)
    dealt = [parse_cards(h, taken) for h in hands]
    assert all(len(d) == 13 for d in dealt)
    top = parse_cards(stock_top, taken)
    bottom = parse_cards(stock_bottom, taken)
    rest = [c for c in range(N_CARDS) if not taken[c]]
    threes = [c for c in rest if c % 52 % 13 == 2]
    plain = [c for c in rest if c % 52 % 13 != 2]
    rest = plain[:20] + threes + plain[20:]
    deck = np.concatenate([*dealt, bottom, rest, top[::-1]]).astype(np.int64)
    assert sorted(deck.tolist()) == list(range(N_CARDS))
    return deck


def meld(game, slot, nat, two=0, joker=0):
    game.apply(int(MELD_ACTION[slot, nat, two, joker]))


def hand_size(game, p):
    return int(st_hands(game.state)[p].sum())


def first_draw(hands, stock_top="", stock_bottom=""):
    """The game dealt from ``deck_for(hands, ...)`` with P0 first, after P0's draw."""
    g = Game(deck=deck_for(hands, stock_top, stock_bottom), first_player=0)
    g.apply(A_DRAW)
    return g


JUNK = ["4C 5C 6C 8C 9C 10C JC QC KC 4D 5D 6D 8D", "4H 5H 6H 8H 9H 10H JH QH KH 4S 5S 6S 8S"]


def drive(game, stop, keep=()):
    """Every player draws from the stock and discards (never the kinds in ``keep``, never the
    pile) until ``stop(game)`` holds at the start of a decision."""
    while not game.is_over and not stop(game):
        if game.phase == "threes":
            game.apply(A_LAY_THREES)
        elif game.phase == "draw":
            game.apply(A_DRAW)
        else:
            legal = [a for a in game.legal_actions() if A_DISCARD <= a < A_DISCARD + 15]
            held = st_hands(game.state)[game.current_player]
            spare = [a for a in legal if a - A_DISCARD in keep and held[a - A_DISCARD] > 3]
            free = [a for a in legal if a - A_DISCARD not in keep] or spare or legal
            game.apply(free[-1])


def test_open_5_bonus_cards_four_then_three_none_after_pile():
    """OPEN-5: the first team to open takes 4 bonus cards after its discard, the second 3."""
    g = first_draw(
        [
            "AS AH AD KS KH KD QS QH QD JS JH JD 5S",  # P0: AAA KKK QQQ JJJ = 150
            "AC AC AH KC KC KH QC QC QH JC JC JH 6H",  # P1: the same opening, second copies
            "4C 5C 6C 8C 9C 10C 4D 5D 6D 8D 9D 10D 7C",
            "4H 5H 6H 8H 9H 10H 4S 6S 8S 9S 10S 7H 7D",
        ],
        stock_top="9D 9H 10D 10S 4H 7C 7D 7H 8H 9S 10H",
    )  # P0 draws 9D
    for k in (ACE, KING, QUEEN, JACK):
        meld(g, k, 3)
    g.apply(A_DISCARD + FIVE)  # the opening stands: 150 >= 125 (OPEN-1)
    assert TableView.of(g).bonus_cards[0] == 4 and hand_size(g, 0) == 1 + 4  # 9D + four bonus cards
    assert any("bonus card" in line for line in g.transcript())
    g.apply(A_DRAW)  # P1
    for k in (ACE, KING, QUEEN, JACK):
        meld(g, k, 3)
    g.apply(A_DISCARD + SIX)
    assert TableView.of(g).bonus_cards[1] == 3  # the other team had opened
    assert TableView.of(g).opened[0] == 1 and TableView.of(g).opened[1] == 1


def nines_for_the_pile():
    """P0 draws and discards 9S; P1 holds the pair 9H 9D (to take the pile) and AAA KKK QQQ."""
    g = first_draw(
        [
            "9S 4C 5C 6C 8C 10C JS JD 4D 5D 6D 8D 10D",  # P0 will discard 9S
            "9H 9D AC AC AH KC KC KH QC QC QH 6H 6D",  # P1: 99 + AAA KKK QQQ from hand
            JUNK[1],
            "4S 5S 6S 8S 10S JS QS KS 10H 10D 8H 5H JH",
        ],
        stock_top="10S",
    )
    g.apply(A_DISCARD + NINE)
    return g


def test_open_5_no_bonus_when_opening_with_the_pile():
    """OPEN-5/PILE-1: P1 opens by taking the pile with a pair of nines: no bonus cards."""
    g = nines_for_the_pile()
    assert A_TAKE_PILE in g.legal_actions()  # PILE-2: the opening can be completed
    g.apply(A_TAKE_PILE)  # pair 9H 9D + top 9S melded at once (PILE-1)
    assert st_melds(g.state)[1, NINE, NATURALS] == 3
    for k in (ACE, KING, QUEEN):
        meld(g, k, 3)
    g.apply(A_DISCARD + SIX)
    assert TableView.of(g).bonus_cards[1] == 0 and hand_size(g, 1) == 1


def test_deal_3_turn_card_stops_bonus_cards():
    """DEAL-3/OPEN-5: once the turn card (9th from the stock's bottom) has been drawn, the
    opener gets no bonus cards."""
    opening = "AS AH AD KS KH KD QS QH QD JS JH JD 5S"
    g = Game(deck=deck_for([opening, JUNK[0], JUNK[1], "7S 7H 7D 8S 8H 9S 9H 10S 10H 4H 4S 5H 6S"]))
    g = Game(deck=g.deck, first_player=0)
    keep = (ACE, KING, QUEEN, JACK)
    drive(
        g, lambda x: x.current_player == 0 and x.phase == "play" and x.state[ST_STOCK_N] < 9, keep
    )
    assert g.state[ST_TURN_CARD_DRAWN] == 1  # the stock is down to 8 cards or fewer
    for k in keep:
        meld(g, k, min(int(st_hands(g.state)[0, k]), 7))
    before = hand_size(g, 0)
    legal = [a for a in g.legal_actions() if A_DISCARD <= a < A_DISCARD + 15]
    g.apply(legal[0])
    assert TableView.of(g).opened[0] == 1
    assert TableView.of(g).bonus_cards[0] == 0 and hand_size(g, 0) == before - 1


def test_pile_2_pair_refused_when_team_meld_holds_five():
    """PILE-2: P2 holds a pair of kings but team 0's kings meld already holds five."""
    g = first_draw(
        [
            "KS KH KD KC KS AS AH AD 7S 7H 7D 4S 5S",  # P0: KKKKK 50 + AAA 60 + 777 15 = 125
            "KH 4C 5C 6C 8C 9C 10C JC QC 4D 5D 6D 8D",  # P1 will discard a king
            "KD KC 9H 10H JH QH 4H 5H 6H 8H 9D 10D JD",  # P2: the last two kings
            "4S 5S 6S 8S 9S 10S JS QS 6D 8D 9D 10D JD",
        ],
        stock_top="QD QS 9S 9C 10C 10S JS 6H",
    )
    meld(g, KING, 5)
    meld(g, ACE, 3)
    meld(g, SEVEN, 3)
    g.apply(A_DISCARD + FOUR)  # P0 opened (bonus cards follow)
    g.apply(A_DRAW)  # P1
    g.apply(A_DISCARD + KING)  # a king on top of the pile
    assert g.current_player == 2 and g.phase == "draw"
    assert g.reason(A_TAKE_PILE) == R_PILE_MELD_FULL
    assert A_TAKE_PILE not in g.legal_actions()


def test_discard_3_swad_empty_pile_restricts_seven_ace_wild():
    """DISCARD-3: onto the empty pile (the first discard of the hand) a seven or an ace may not
    be discarded while another legal discard exists; when the hand holds only sevens, aces and
    wild cards, a seven may go."""
    deck = deck_for(
        [
            "7S 7H AS AH 9S 9H 5S 2S JK 4C 5C 6C 8C",
            *JUNK,
            "9D 10D JD QD KD 4H 5H 6H 8H 9C 10C JC QC",
        ],
        "6D",
    )
    g = Game(deck=deck, first_player=0)
    g.apply(A_DRAW)
    assert g.reason(A_DISCARD + SEVEN) == R_DISCARD_EMPTY_PILE
    assert g.reason(A_DISCARD + ACE) == R_DISCARD_EMPTY_PILE
    assert g.reason(A_DISCARD + FIVE) == R_OK
    g = first_draw(
        [
            "7S 7H 7D 7C 7S 7H 7D 7C AS AH AD AC JK",
            *JUNK,
            "9D 10D JD QD KD 4H 5H 6H 8H 9C 10C JC QC",
        ],
        "2S",
    )  # draws a two: sevens, aces and wilds only
    assert g.reason(A_DISCARD + SEVEN) == R_OK
    assert g.reason(A_DISCARD + ACE) == R_OK


def test_end_1_last_stock_card_a_three_ends_hand_and_stays_in_hand():
    """END-1: the stock's last card is a three: the hand ends at once, the three stays in the
    drawer's hand and counts 5 against the team (CARD-3, SCORE-5)."""
    deck = deck_for(
        [
            JUNK[0],
            JUNK[1],
            "4C 5C 6C 8C 9C 10C JC QC KC 4D 5D 6D 8D",
            "4H 5H 6H 8H 9H 10H JH QH KH 4S 5S 6S 8S",
        ],
        stock_bottom="3H",
    )
    g = Game(deck=deck, first_player=0)
    drive(g, lambda x: False)
    assert g.is_over and g.end_reason == "stock" and g.state[ST_STOCK_N] == 0
    p = g.current_player
    hands = st_hands(g.state)
    assert hands[p, RED_THREE] == 1
    team = p % 2
    held = sum(int((hands[q] * KIND_VALUE).sum()) for q in (team, team + 2))
    assert g.scores()[team]["cards_in_hand"] == -held
    assert "-- hand over: stock (END-1)" in g.transcript()


def test_special_1_pairs_declared_on_the_first_turn():
    """SPECIAL-1/SCORE-8: P0 draws to seven pairs on the first turn and declares: the hand
    ends, team 0 scores only the award, team 1 scores normally (cards in hand against)."""
    g = first_draw(
        [
            "4S 4H 5S 5H 6S 6H 8S 8H 9S 9H 10S 10H JS",
            *JUNK,
            "QD QS KD KS 4D 5D 6D 8D 9D 10D JD 9C 10C",
        ],
        "JH",
    )
    assert A_DECLARE in g.legal_actions()
    g.apply(A_DECLARE)
    assert g.is_over and g.end_reason == "special" and g.special_hand == ("pairs", 0)
    s = g.scores()
    assert s[0]["total"] == s[0]["special_hand"] == 2500
    assert s[1]["cards_in_hand"] < 0


def test_deal_5_keep_a_three_for_a_straight_then_declare():
    """DEAL-4/DEAL-5: P0 keeps its red three (not laid down) and draws the joker: Straight."""
    deck = deck_for(
        [
            "AS 2S 3H 4S 5S 6S 7S 8S 9S 10S JS QS KS",
            *JUNK,
            "QD QH KD KH 4D 5D 6D 8D 9D 10D JD 9C 10C",
        ],
        "JK",
    )
    g = Game(deck=deck, first_player=0)
    assert g.phase == "threes" and A_KEEP_RED_THREE in g.legal_actions()
    g.apply(A_KEEP_RED_THREE)
    assert st_hands(g.state)[0, RED_THREE] == 1
    g.apply(A_DRAW)
    g.apply(A_DECLARE)
    assert g.special_hand == ("straight", 0) and g.scores()[0]["total"] == 3000


def test_deal_4_threes_laid_and_replaced_at_turn_start():
    """DEAL-4: a three held at the start of the turn is laid face up and replaced."""
    deck = deck_for(
        [
            "3C 4S 5S 6S 8S 9S 10S JS QS KS 4H 5H 6H",
            *JUNK,
            "QD QH KD KH 4D 5D 6D 8D 9D 10D JD 9C 10C",
        ],
        "7C",
    )
    g = Game(deck=deck, first_player=0, rules={"special_hands": "none"})  # no DEAL-5 choice
    assert g.phase == "draw"
    assert st_hands(g.state)[0, BLACK_THREE] == 0 and hand_size(g, 0) == 13
    assert g.state[ST_STOCK_N] == 108 - 52 - 1


def test_out_1_going_out_blocked_by_unfinished_sevens_meld():
    """OUT-1/OUT-2: team 0 has two canastas, but an unfinished sevens meld: the meld that would
    leave one card to discard (going out) is refused; without the sevens it is legal."""
    for with_sevens in (True, False):
        g = Game(seed=1, first_player=0)
        st = g.state
        hands, melds = st_hands(st), st_melds(st)
        hands[0] = 0
        hands[0, FOUR] = 3
        hands[0, NINE] = 1
        melds[0, KING, NATURALS] = 7  # two natural canastas
        melds[0, JACK, NATURALS] = 7
        if with_sevens:
            melds[0, SEVEN, NATURALS] = 3  # unfinished sevens
        st[ST_OPENED] = 1
        st[ST_OPENING_TURN] = 0
        st[ST_PLAYER] = 0
        st[ST_PHASE] = PH_PLAY
        st[ST_DREW_STOCK] = 1
        code = g.reason(int(MELD_ACTION[FOUR, 3, 0, 0]))
        if with_sevens:
            assert code == R_OUT_INCOMPLETE_SEVENS
        else:
            assert code == R_OK
            meld(g, FOUR, 3)
            g.apply(A_DISCARD + NINE)  # the last card: going out (OUT-2)
            assert g.is_over and g.end_reason == "out" and g.out_team == 0
            assert g.scores()[0]["going_out"] == 100  # OUT-3


def test_open_4_natural_canasta_in_the_opening_then_more_melds():
    """OPEN-4: a natural canasta may be completed in the opening turn; the kings are then dead
    (MELD-9) but the opening goes on: K x7 (70) + a wild meld 2 2 2 (60) = 130 >= 125."""
    g = first_draw(
        [
            "KS KH KD KC KS KH KD 2S 2H 2D 10C 7C 6C",
            "4C 5C 6C 8C 9C 10C 4D 5D 6D 8D 9D 10D 7C",
            "4H 5H 6H 8H 9H 10H 4S 6S 8S 9S 10S 7H 7D",
            "QD QS 4D 5D 6D 8D 9D 10D JD 9C 10S JS QC",
        ],
        "5H",
    )
    meld(g, KING, 7)
    assert g.legal_actions()  # the opening can still be completed
    meld(g, 0, 0, 3, 0)  # the wild meld of three twos (MELD-8)
    g.apply(A_DISCARD + 10)
    assert TableView.of(g).opened[0] == 1 and TableView.of(g).bonus_cards[0] == 4


def test_records_started_held_and_stock_meld_1_from_hand():
    """MELD-1 risk columns: P0 draws (stock 56 -> 55) and starts aces from hand holding three;
    after P0's 4 bonus cards (OPEN-5) P1 draws (50) and starts sevens and aces holding four of
    each. The columns land in the record row."""
    from sim.encoding import N_SCORE_ITEMS, RECORD_COLUMNS, RECORD_WIDTH
    from sim.engine.play import write_record_row

    g = first_draw(
        [
            "AS AH AD KS KH KD QS QH QD JS JH JD 5S",  # P0: AAA KKK QQQ JJJ = 150
            "AC AC AS AD 7C 7C 7H 7D KS KD KC 6H 6D",  # P1: AAAA 7777 KKK = 130
            JUNK[0],
            JUNK[1],
        ],
        stock_top="9D",
    )
    for k in (ACE, KING, QUEEN, JACK):
        meld(g, k, 3)
    g.apply(A_DISCARD + FIVE)  # the opening stands; P0 takes 4 bonus cards (OPEN-5)
    g.apply(A_DRAW)  # P1 draws: stock 56 - 1 - 4 - 1 = 50
    for k, n in ((SEVEN, 4), (ACE, 4), (KING, 3)):
        meld(g, k, n)
    st = g.state
    assert TableView(st).started_held.ravel().tolist() == [-1, 3, 4, 4]
    assert TableView(st).started_stock.ravel().tolist() == [-1, 55, -1, 50, 50, -1]
    row = np.zeros(RECORD_WIDTH, dtype=np.int64)
    write_record_row(st, 0, np.zeros((2, N_SCORE_ITEMS), dtype=np.int64), row)
    rec = dict(zip(RECORD_COLUMNS, row.tolist(), strict=True))
    assert rec["team0_aces_started_held"] == 3 and rec["team0_aces_started_stock"] == 55
    assert rec["team1_sevens_started_held"] == 4 and rec["team1_sevens_started_stock"] == 50
    assert rec["team0_sevens_started_held"] == -1 and rec["team1_wild_started_stock"] == -1


def test_records_started_held_after_taking_the_pile_pile_1():
    """PILE-1: P1 takes the pile with a pair of nines, then starts its aces holding three; the
    stock is the one after P0's draw (taking the pile draws nothing)."""
    g = nines_for_the_pile()
    g.apply(A_TAKE_PILE)
    meld(g, ACE, 3)
    st = g.state
    assert TableView(st).started_held[1, 1] == 3  # team 1's aces: three held
    assert TableView(st).started_stock[1, 1] == 55  # P1 took the pile: no draw since P0's


# --- the opening turn: the rule that refuses is the one named ----------------
OTHERS = [*JUNK, "9D 10D JD QD KD 4H 5H 6H 8H 9C 10C JC QC"]


def test_open_2_named_when_180_points_are_meldable_without_a_clean_triple():
    """OPEN-2, not OPEN-1: KS KH QS QH JS JH 2C 2D JK JK 2S 8S 5S, drew 4C: about 180 points
    are meldable but no natural meld of three exists, so melding KS KH JK JK is refused under
    OPEN-2; and so is the discard after it, as the melds are no opening."""
    g = first_draw(["KS KH QS QH JS JH 2C 2D JK JK 2S 8S 5S", *OTHERS], "4C")
    assert g.reason(int(MELD_ACTION[KING, 2, 0, 2])) == R_OPEN_NO_NATURAL_MELD
    assert g.reason(int(MELD_ACTION[QUEEN, 2, 1, 0])) == R_OPEN_NO_NATURAL_MELD
    assert g.legal_actions() == sorted(
        A_DISCARD + k for k in (FOUR, FIVE, EIGHT, KING, QUEEN, JACK)
    )


def test_open_4_named_when_the_kings_with_two_wilds_make_a_mixed_canasta():
    """OPEN-4, not OPEN-1: KS KH KD KC KS 2C JK QS QH QD 9S 8S 5S, drew 6S: the five kings
    with both wilds are a mixed canasta, refused under OPEN-4 though with the queens the count
    would reach 150; the kings with the joker alone (K 100 + Q 30 = 130) are legal."""
    g = first_draw(["KS KH KD KC KS 2C JK QS QH QD 9S 8S 5S", *OTHERS], "6S")
    assert g.reason(int(MELD_ACTION[KING, 5, 1, 1])) == R_OPEN_MIXED_CANASTA
    assert g.reason(int(MELD_ACTION[KING, 5, 0, 1])) == R_OK
    meld(g, KING, 5, 0, 1)
    assert g.reason(int(MELD_ACTION[KING, 0, 1, 0])) == R_OPEN_MIXED_CANASTA  # the two after it
    meld(g, QUEEN, 3)
    g.apply(A_DISCARD + FIVE)
    assert TableView.of(g).opened[0] == 1


OPENER = "AS AH AD KS KH KD QS QH QD JS JH JD"  # AAA KKK QQQ JJJ = 150


def test_out_2_opener_owed_bonus_cards_melds_down_to_one_card():
    """OUT-2/OPEN-5: an opener owed bonus cards melds down to one card (nobody goes out: no
    OUT-1 refusal), discards it and takes the 4 bonus cards; the hand goes on."""
    g = first_draw([OPENER + " JS", *OTHERS], "9D")  # 14 cards: the opening leaves only the 9
    for k in (ACE, KING, QUEEN):
        meld(g, k, 3)
    assert g.reason(int(MELD_ACTION[JACK, 4, 0, 0])) == R_OK  # leaves the 9 alone
    meld(g, JACK, 4)
    assert g.reason(A_DISCARD + NINE) == R_OK
    g.apply(A_DISCARD + NINE)
    assert not g.is_over and g.out_team == -1
    assert (
        TableView.of(g).bonus_cards[0] == 4
        and hand_size(g, 0) == 4
        and TableView.of(g).opened[0] == 1
    )
    assert g.current_player == 1


def test_out_2_kept_three_and_no_three_alike_for_an_opener_owed_bonus_cards():
    """OUT-2 as written: with a kept red three (DEAL-5) or without it, an opener owed bonus
    cards may meld down to one card to discard (the old reading let only the three through)."""
    g = Game(deck=deck_for(["3H " + OPENER, *OTHERS], "9D"), first_player=0)
    g.apply(A_KEEP_RED_THREE)
    g.apply(A_DRAW)  # 3H + the opening + 9D
    for k in (ACE, KING, QUEEN, JACK):
        meld(g, k, 3)
    g.apply(A_DISCARD + NINE)  # holds only the three, then the bonus cards
    assert not g.is_over and TableView.of(g).bonus_cards[0] == 4
    assert st_hands(g.state)[0, RED_THREE] == 1 and hand_size(g, 0) == 5


def test_out_1_one_card_left_without_bonus_cards_means_going_out():
    """OUT-1/OUT-2: the same opening once the turn card is drawn (no bonus cards, DEAL-3): the
    meld leaving one card would make the discard a going out, which needs two canastas."""
    g = Game(seed=3, first_player=0)
    st = g.state
    hands = st_hands(st)
    hands[0] = 0
    for k, n in ((ACE, 3), (KING, 3), (QUEEN, 3), (JACK, 4), (NINE, 1)):
        hands[0, k] = n
    st[ST_PLAYER], st[ST_PHASE], st[ST_DREW_STOCK] = 0, PH_PLAY, 1
    st[ST_OPENED], st[ST_OPENING_TURN], st[ST_TURN_CARD_DRAWN] = 0, 1, 1
    for k in (ACE, KING, QUEEN):
        meld(g, k, 3)
    assert g.reason(int(MELD_ACTION[JACK, 4, 0, 0])) == R_OUT_CANASTAS
    assert g.reason(int(MELD_ACTION[JACK, 3, 0, 0])) == R_OK


def test_out_2_opener_owed_bonus_cards_goes_out_when_out_1_allows():
    """OUT-1/OUT-2/OPEN-5: an opener owed bonus cards who melds two natural canastas and
    discards the last card goes out (the hand ends; no bonus cards)."""
    g = Game(seed=3, first_player=0)
    st = g.state
    hands = st_hands(st)
    hands[0] = 0
    hands[0, KING], hands[0, QUEEN], hands[0, NINE] = 7, 7, 1
    st[ST_PLAYER], st[ST_PHASE], st[ST_DREW_STOCK] = 0, PH_PLAY, 1
    st[ST_OPENED], st[ST_OPENING_TURN], st[ST_TURN_CARD_DRAWN] = 0, 1, 0
    meld(g, KING, 7)
    meld(g, QUEEN, 7)
    g.apply(A_DISCARD + NINE)
    assert g.is_over and g.end_reason == "out" and g.out_team == 0
    assert TableView.of(g).bonus_cards[0] == 0
