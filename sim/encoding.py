"""The one module that owns every encoding in canasta-sim.

Everything that turns cards, ranks, melds, reasons and rulesets into integers lives here;
every other module imports these names instead of repeating a number.

Cards (CARD-1)
    108 card ids. ids 0..103 are the two 52-card packs, ``id = pack*52 + suit*13 + rank``
    with ``rank`` 0..12 for A 2 3 ... K and ``suit`` 0..3 for S H D C; ids 104..107 are
    the four jokers. The two packs are indistinguishable in play; ids only keep suits
    (the colour of a three matters, DEAL-4/SCORE-7) and make transcripts and replays exact.

Kinds (rank codes)
    The engine keeps hands, melds and piles as *counts per kind*, 15 kinds:
    ``JOKER=0, TWO=1, RED_THREE=2, BLACK_THREE=3, FOUR=4 ... TEN=10, JACK=11, QUEEN=12,
    KING=13, ACE=14``. Natural kinds are the contiguous range 4..14 (CARD-2), so a kind
    code of a natural equals its face value for 4..10 and aces rank high.

Melds
    ``melds[team, slot, col]`` counts cards in a team's meld: ``slot`` is the natural kind
    (4..14) or ``WILD_MELD`` (0) for the meld made only of wild cards (MELD-8); ``col`` is
    ``NATURALS``, ``TWOS`` or ``JOKERS``. A meld exists when its total is > 0 (MELD-3: at
    most one meld per rank per team, so this table can hold every legal position).

Reasons
    Rule checks return an int reason: ``R_OK`` (0) when legal, otherwise a code whose
    rule ID and message are in ``REASONS``. ``explain(code)`` renders it.

Ruleset array
    ``Ruleset.to_array()`` packs the variants into an int64 array indexed by ``RS_*`` so
    compiled kernels receive them as an argument (numba freezes globals at compile time).
"""

from __future__ import annotations

import numpy as np

# fmt: off
__all__ = [
    "ACTION_TABLE", "ACTION_TYPE_NAMES", "AC_JOKER", "AC_NAT", "AC_SLOT", "AC_TWO", "AC_TYPE",
    "AT_DECLARE", "AT_DISCARD", "AT_DRAW", "AT_KEEP_THREE", "AT_LAY_THREES", "AT_MELD",
    "AT_TAKE_PILE", "A_DECLARE", "A_DISCARD", "A_DRAW", "A_KEEP_BLACK_THREE", "A_KEEP_RED_THREE",
    "A_LAY_THREES", "A_TAKE_PILE", "CANASTA", "END_NAMES", "END_NONE", "EVENT_WIDTH",
    "GAME_HAND_STRIDE", "HAND_SIZE", "JOKERS", "MAX_OP_WILDS", "MELD_ACTION", "NATURALS",
    "N_ACTIONS", "N_MELD_COLS", "N_PLAYERS", "N_RS", "N_TEAMS", "OBS_FIELDS", "OBS_SIZE",
    "OB_ASIDE", "OB_DREW_STOCK", "OB_HAND", "OB_HAND_SIZES", "OB_KNOWN", "OB_MELDED", "OB_MELDS",
    "OB_OPENED", "OB_OPENING_TURN", "OB_OPEN_MIN", "OB_OPEN_RULES", "OB_PENDING", "OB_PHASE",
    "OB_PILE_COUNTS", "OB_PILE_N", "OB_PILE_TOP", "OB_SCORES", "OB_STOCK_N", "OB_THREES",
    "OB_TOOK_PILE", "OB_TURN", "PC_SIZE", "PC_VALID", "PHASE_NAMES", "PH_DRAW", "PH_OVER",
    "PH_PLAY", "PH_THREES", "RC_SCORE0", "RC_SCORE1", "RECORD_COLUMNS", "RECORD_HEADER",
    "RECORD_WIDTH", "RISK_RECORD_ITEMS", "RS_CATALOGUE_N", "SCORE_ITEMS", "SCRATCH_HINT",
    "SCRATCH_LEGAL", "SCRATCH_MEMO", "SCRATCH_SIZE", "SCRATCH_TMP", "SPECIAL_HAND_SIZE",
    "SPECIAL_NAMES", "STATE_SIZE", "ST_DECISIONS", "ST_HANDS", "ST_HAND_NUMBER", "ST_KNOWN",
    "ST_MELDS", "ST_OPENED", "ST_PHASE", "ST_PILE", "ST_PILE_N", "ST_PLAYER", "ST_RESUME",
    "ST_SCORES", "ST_STOCK_N", "ST_THREES", "ST_TURN", "ST_TURN_CARD_DRAWN", "TEAM_RECORD_ITEMS",
    "TMP_SIZE", "TWOS", "WILD_MELD", "layout", "team_of",
]
# fmt: on

# ---------------------------------------------------------------------------------------
# Kinds and card ids (``sim.kinds``, every name re-exported)
# ---------------------------------------------------------------------------------------
from sim.kinds import *  # noqa: F403

# ---------------------------------------------------------------------------------------
# Melds
# ---------------------------------------------------------------------------------------
WILD_MELD = JOKER  #: meld slot of the all-wild meld (MELD-8); natural melds use their kind
NATURALS, TWOS, JOKERS = 0, 1, 2  #: columns of melds[team, slot, col]
MELD_COLUMNS = ("naturals", "twos", "jokers")
N_MELD_COLS = len(MELD_COLUMNS)  #: 3
MIN_MELD = 3  #: MELD-1 smallest meld
CANASTA = 7  #: MELD-10 cards in a canasta; MELD-2 largest meld
N_TEAMS = 2
N_PLAYERS = 4
HAND_SIZE = 13  #: DEAL-1
TURN_CARD_FROM_BOTTOM = 9  #: DEAL-3: the stock's 9th card from the bottom


def team_of(player: int) -> int:
    """Team of a seat: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return player % N_TEAMS


# ---------------------------------------------------------------------------------------
# Reasons: what a rule check says when it refuses (``sim.reasons``, every name re-exported)
# ---------------------------------------------------------------------------------------
from sim.reasons import *  # noqa: E402, F403

# ---------------------------------------------------------------------------------------
# Ruleset array layout (see sim.ruleset.Ruleset.to_array)
# ---------------------------------------------------------------------------------------
RS_ALLOW_LONG_MELD_GOING_OUT = 0  #: MELD-2 variant, 0/1
RS_MAX_WILDS_MIXED = 1  #: MELD-4 variant
RS_RULE_OF_FIVE = 2  #: MELD-5 variant, 0/1
RS_WILD_PENALTY_FOUR_JOKERS = 3  #: SCORE-3 variant, points
RS_GARBAGE_AWARD = 4  #: SPECIAL-6 variant, points
RS_SPECIAL_HANDS = 5  #: SPECIAL-7 variant, index into SPECIAL_HANDS_MODES
RS_TARGET = 6  #: GAME-1 variant, points
RS_CATALOGUE_N = 7  #: SPECIAL-7/9 hands in the special-hand list in force (0: specials off)
#: ODDS-1 bounds the sampler stops on, from the list in force (``sim.special.catalogue_bounds``):
RS_CAT_MAX_DISTINCT = 8  #: most kinds a hand without a three holds (above: no such hand)
RS_CAT_MIN_KINDS3 = 9  #: fewest non-three kinds of a hand with a three (none: > 14)
RS_CAT_MAX_KINDS3 = 10  #: most non-three kinds of a hand with a three
RS_OPENING_MINIMUM = 11  #: OPEN-1 variant, index into OPENING_MINIMUM_MODES
RS_OPENING_WILD = 12  #: OPEN-2 variant, 0/1: 1 a wild meld of 3+ may stand in (0 default)
RS_CATALOGUE = 16  #: first word of the special-hand table (MAX_CATALOGUE rows of CH_WIDTH words)
SPECIAL_HANDS_MODES = ("tournament", "none", "cla", "list")  #: SPECIAL-7 values, by RS code
#: OPEN-1 values, by RS code: by the team's score (the rulebook), or by the hand's number in the
#: game (timed tournament play: docs/rules.md)
OPENING_MINIMUM_MODES = ("score", "hand")

# One row of the special-hand table (SPECIAL-9, ``sim.catalogue.Hand``), read by
# ``sim.special.hand_matches``. A group naming a rank fixes that kind's count; the other groups
# are counted by size and kind, to be matched to the kinds held (SPECIAL-8: one kind a group).
MAX_CATALOGUE = 16  #: SPECIAL-9 most hands a list holds
MAX_GROUP = 8  #: CARD-1 most cards of one kind (a group's largest size)
CH_AWARD = 0  #: SCORE-8 award of the hand, points
CH_WINS_GAME = 1  #: SPECIAL-10 1 if the hand wins the game
CH_MAX_WILD = 2  #: matching wild groups allowed (0..2)
CH_THREES = 3  #: SPECIAL-2 threes the hand holds (0, or 1 for a Straight's)
CH_ANY_WILD = 4  #: size of its any-mix wild group, -1 if none
CH_SIZES = 5  #: bit s set: a group of size s names no rank
CH_FIXED = 6  #: N_KINDS words: the count of each kind a group names by rank, -1 if none
CH_NATURAL = CH_FIXED + N_KINDS  #: MAX_GROUP + 1 words: natural groups naming no rank, by size
CH_WILD = CH_NATURAL + MAX_GROUP + 1  #: matching wild groups naming no rank, by size
CH_EITHER = CH_WILD + MAX_GROUP + 1  #: natural-or-matching-wild groups, by size
CH_WIDTH = CH_EITHER + MAX_GROUP + 1  #: words of one row (48)
N_RS = RS_CATALOGUE + MAX_CATALOGUE * CH_WIDTH  #: words of the ruleset array

# ---------------------------------------------------------------------------------------
# Special hands (SPECIAL-3..6)
# ---------------------------------------------------------------------------------------
SPECIAL_NONE = 0  #: not a special hand
SPECIAL_STRAIGHT = 1  #: SPECIAL-3
SPECIAL_PAIRS = 2  #: SPECIAL-4
SPECIAL_PAIRS_TWOS_SEVENS_ACES = 3  #: SPECIAL-5
SPECIAL_GARBAGE = 4  #: SPECIAL-6
#: names used in JSON, tables and records, indexed by the codes above (the tournament list,
#: the default; under another list a code is the hand's place in that list + 1, SPECIAL-9)
SPECIAL_NAMES = ("", "straight", "pairs", "pairs_twos_sevens_aces", "garbage")
SPECIAL_HAND_SIZE = 14  #: SPECIAL-1

# ---------------------------------------------------------------------------------------
# Score breakdown (SCORE-1..8, OUT-3): one item per entry; a team's total is their sum
# ---------------------------------------------------------------------------------------
SCORE_ITEMS = (
    "canasta_bonus",  #: SCORE-1/2/3 bonuses of completed canastas
    "going_out",  #: OUT-3
    "melded_cards",  #: SCORE-6
    "threes",  #: SCORE-7
    "cards_in_hand",  #: SCORE-5 (negative)
    "incomplete_melds",  #: SCORE-2/3 penalties for unfinished sevens, aces, wild melds
    "hand_penalties",  #: SCORE-4 sevens/aces held in hand
    "special_hand",  #: SCORE-8 award
)
(
    S_CANASTA_BONUS,
    S_GOING_OUT,
    S_MELDED_CARDS,
    S_THREES,
    S_CARDS_IN_HAND,
    S_INCOMPLETE_MELDS,
    S_HAND_PENALTIES,
    S_SPECIAL_HAND,
) = range(len(SCORE_ITEMS))
N_SCORE_ITEMS = len(SCORE_ITEMS)

# ---------------------------------------------------------------------------------------
# Engine (sim/engine): phases, actions, state, observation, scratch and record layouts
# ---------------------------------------------------------------------------------------
#: phases of a turn (TURN-1): threes (DEAL-4/5 keep-or-lay decision), draw, play, hand over
PHASE_NAMES = ("threes", "draw", "play", "over")
PH_THREES, PH_DRAW, PH_PLAY, PH_OVER = range(len(PHASE_NAMES))

#: how a hand ended (END-1); index is the code; names used in records
END_NAMES = ("", "out", "special", "stock", "limit")
END_NONE, END_OUT, END_SPECIAL, END_STOCK, END_LIMIT = range(len(END_NAMES))

#: action types, column AC_TYPE of ACTION_TABLE
ACTION_TYPE_NAMES = ("draw", "take_pile", "lay_threes", "keep_three", "declare", "discard", "meld")
AT_DRAW, AT_TAKE_PILE, AT_LAY_THREES, AT_KEEP_THREE, AT_DECLARE, AT_DISCARD, AT_MELD = range(
    len(ACTION_TYPE_NAMES)
)
#: columns of ACTION_TABLE: type, slot/kind, naturals, twos, jokers
AC_TYPE, AC_SLOT, AC_NAT, AC_TWO, AC_JOKER = range(5)
N_AC_COLS = 5
MAX_OP_WILDS = 3  #: wild cards in one meld operation on a natural slot (max_wilds_mixed <= 3)
MAX_WILD_MELD_JOKERS = N_JOKERS  #: jokers in one operation on the wild meld


def _build_action_table():
    rows = [
        (AT_DRAW, -1, 0, 0, 0),
        (AT_TAKE_PILE, -1, 0, 0, 0),
        (AT_LAY_THREES, -1, 0, 0, 0),
        (AT_KEEP_THREE, RED_THREE, 0, 0, 0),
        (AT_KEEP_THREE, BLACK_THREE, 0, 0, 0),
        (AT_DECLARE, -1, 0, 0, 0),
    ]
    rows += [(AT_DISCARD, k, 0, 0, 0) for k in range(N_KINDS)]
    for two in range(CANASTA + 1):  # the wild meld (MELD-8)
        for joker in range(MAX_WILD_MELD_JOKERS + 1):
            if 1 <= two + joker <= CANASTA:
                rows.append((AT_MELD, WILD_MELD, 0, two, joker))
    for slot in NATURAL_KINDS:
        for nat in range(CANASTA + 1):
            for two in range(MAX_OP_WILDS + 1):
                for joker in range(MAX_OP_WILDS + 1 - two):
                    if 1 <= nat + two + joker <= CANASTA:
                        rows.append((AT_MELD, slot, nat, two, joker))
    return np.array(rows, dtype=np.int64)


#: the fixed action table: one row (AC_* columns) per action id
ACTION_TABLE = _build_action_table()
N_ACTIONS = ACTION_TABLE.shape[0]  #: number of action ids
A_DRAW, A_TAKE_PILE, A_LAY_THREES, A_KEEP_RED_THREE, A_KEEP_BLACK_THREE, A_DECLARE = range(6)
A_DISCARD = 6  #: action id of discarding kind k is A_DISCARD + k
A_FIRST_MELD = A_DISCARD + N_KINDS  #: first meld-operation action id


def _build_meld_index():
    index = np.full((N_KINDS, CANASTA + 1, CANASTA + 1, MAX_WILD_MELD_JOKERS + 1), -1, np.int64)
    for a in range(A_FIRST_MELD, N_ACTIONS):
        _, slot, nat, two, joker = ACTION_TABLE[a]
        index[slot, nat, two, joker] = a
    return index


#: MELD_ACTION[slot, naturals, twos, jokers] -> action id of that meld operation, or -1
MELD_ACTION = _build_meld_index()


def layout(fields):
    """Offsets of consecutive named fields ((name, width), ...) and the total width."""
    offsets, pos = {}, 0
    for name, width in fields:
        offsets[name] = pos
        pos += width
    return offsets, pos


_MELD_CELLS = N_TEAMS * N_KINDS * N_MELD_COLS
_PLAN_CELLS = N_KINDS * N_MELD_COLS
#: the engine's whole state of a hand: one int64 array; (name, width) in order
STATE_FIELDS = (
    ("hands", N_PLAYERS * N_KINDS),  # counts per kind, [player, kind]
    ("melds", _MELD_CELLS),  # [team, slot, col]
    ("threes", N_TEAMS * 2),  # [team, red|black] laid down
    ("stock", N_CARDS),  # card ids, bottom first; the top is at stock_n - 1
    ("pile", N_CARDS),  # kinds, bottom first; the top is at pile_n - 1
    ("pile_counts", N_KINDS),  # the pile by kind
    ("discards", N_KINDS),  # every discard of the hand by kind (public)
    ("pending", _PLAN_CELLS),  # [slot, col] cards melded from hand in this opening turn
    ("aside", N_KINDS),  # PILE-1/2: a taken pile's rest, joining the hand once the opening stands
    ("kept", N_PLAYERS),  # DEAL-5 kind of the three a player keeps, -1 if none
    ("opened", N_TEAMS),  # OPEN: the team has made its initial meld
    ("scores", N_TEAMS),  # cumulative game score at the start of the hand (OPEN-1)
    ("started", N_TEAMS * 3),  # turn each team started its sevens, aces, wild meld; -1 never
    ("player", 1),  # whose turn it is
    ("phase", 1),  # PH_*
    ("resume", 1),  # phase to go on with after a PH_THREES decision
    ("turn", 1),  # turns begun in this hand (0-based index of the current turn)
    ("stock_n", 1),
    ("pile_n", 1),
    ("turn_card_drawn", 1),  # DEAL-3
    ("first_player", 1),  # DEAL-1
    ("drew_stock", 1),  # this turn's draw was from the stock (SPECIAL-1)
    ("took_pile", 1),  # this turn took the pile (OPEN-5)
    ("opening_turn", 1),  # the team had not opened when this turn began
    ("pile_kind", 1),  # OPEN-3 kind of the taken pile's top card this turn, -1 if none
    ("melded", 1),  # a meld was made this turn
    ("end_reason", 1),  # END_*
    ("out_team", 1),  # team that went out, -1
    ("special", 1),  # SPECIAL_* code declared
    ("special_team", 1),  # team that declared, -1
    ("errors", 1),  # illegal actions proposed by policies (replaced by a legal one)
    ("decisions", 1),  # policy decisions taken
    ("bonus_cards", 2),  # OPEN-5 cards given to each team
    ("started_held", N_TEAMS * 2),  # sevens, aces the starting player held then; -1 never
    ("started_stock", N_TEAMS * 3),  # stock size when sevens, aces, wild were started; -1
    # OPEN-1/2 the opening's rules for this hand, set by the deal (``deal_hand``): the hand's
    # number in the game (1 first; a single hand: 1), the ruleset's RS_OPENING_MINIMUM and
    # RS_OPENING_WILD (seen by the players as they are: OB_OPEN_RULES)
    ("open_rules", 3),
    # the public card memory [player, kind]: cards known to be in each hand (those it took
    # with the pile, less as many of the kind as it has since melded, discarded or laid), a
    # lower bound of its hand that every player can work out (docs/records.md)
    ("known", N_PLAYERS * N_KINDS),
)
_ST, STATE_SIZE = layout(STATE_FIELDS)
ST_HANDS = _ST["hands"]  #: offset of hands[N_PLAYERS, N_KINDS]
ST_MELDS = _ST["melds"]  #: offset of melds[N_TEAMS, N_KINDS, N_MELD_COLS]
ST_THREES = _ST["threes"]  #: offset of threes[N_TEAMS, 2]
ST_STOCK = _ST["stock"]  #: offset of the stock's card ids
ST_PILE = _ST["pile"]  #: offset of the pile's kinds
ST_PILE_COUNTS = _ST["pile_counts"]  #: offset of the pile by kind
ST_DISCARDS = _ST["discards"]  #: offset of the discard history by kind
ST_PENDING = _ST["pending"]  #: offset of pending[N_KINDS, N_MELD_COLS]
ST_ASIDE = _ST["aside"]  #: offset of the taken pile's rest held aside
ST_KEPT = _ST["kept"]  #: offset of kept[N_PLAYERS]
ST_OPENED = _ST["opened"]  #: offset of opened[N_TEAMS]
ST_SCORES = _ST["scores"]  #: offset of scores[N_TEAMS]
ST_STARTED = _ST["started"]  #: offset of started[N_TEAMS, 3] (sevens, aces, wild)
ST_PLAYER = _ST["player"]  #: current player
ST_PHASE = _ST["phase"]  #: current phase
ST_RESUME = _ST["resume"]  #: phase after a threes decision
ST_TURN = _ST["turn"]  #: turn index
ST_STOCK_N = _ST["stock_n"]  #: cards in the stock
ST_PILE_N = _ST["pile_n"]  #: cards in the pile
ST_TURN_CARD_DRAWN = _ST["turn_card_drawn"]  #: DEAL-3 flag
ST_FIRST_PLAYER = _ST["first_player"]  #: DEAL-1 first player
ST_DREW_STOCK = _ST["drew_stock"]  #: SPECIAL-1 flag
ST_TOOK_PILE = _ST["took_pile"]  #: OPEN-5 flag
ST_OPENING_TURN = _ST["opening_turn"]  #: OPEN-1 flag
ST_PILE_KIND = _ST["pile_kind"]  #: OPEN-3 kind or -1
ST_MELDED = _ST["melded"]  #: a meld this turn
ST_END_REASON = _ST["end_reason"]  #: END_* code
ST_OUT_TEAM = _ST["out_team"]  #: team that went out or -1
ST_SPECIAL = _ST["special"]  #: SPECIAL_* code
ST_SPECIAL_TEAM = _ST["special_team"]  #: declaring team or -1
ST_ERRORS = _ST["errors"]  #: policy errors
ST_DECISIONS = _ST["decisions"]  #: decisions
ST_BONUS = _ST["bonus_cards"]  #: OPEN-5 cards given per team
ST_STARTED_HELD = _ST["started_held"]  #: offset of started_held[N_TEAMS, 2] (sevens, aces)
ST_STARTED_STOCK = _ST["started_stock"]  #: offset of started_stock[N_TEAMS, 3]
ST_OPEN_RULES = _ST["open_rules"]  #: offset of the opening's rules [hand number, OPEN-1, OPEN-2]
ST_HAND_NUMBER = ST_OPEN_RULES  #: OPEN-1 hand's number in the game (1-based; 0 reads as 1)
ST_OPEN_BY = ST_OPEN_RULES + 1  #: OPEN-1 variant code (OPENING_MINIMUM_MODES) in force
ST_OPEN_WILD = ST_OPEN_RULES + 2  #: OPEN-2 variant (RS_OPENING_WILD) in force
ST_KNOWN = _ST["known"]  #: offset of known[N_PLAYERS, N_KINDS], the public card memory
STARTED_SLOTS = (SEVEN, ACE, WILD_MELD)  #: the meld slot of each column of started[team, :]
STARTED_SEVENS, STARTED_ACES, STARTED_WILD = range(len(STARTED_SLOTS))  #: its columns

#: what a player sees (all relative: "own" team first, seats counted from the player)
OBS_FIELDS = (
    ("phase", 1),  # PH_*
    ("seat", 1),  # the player's absolute seat
    ("turn", 1),  # turn index in the hand
    ("stock_n", 1),
    ("pile_n", 1),
    ("pile_top", 1),  # kind of the pile's top card, -1 if empty
    ("turn_card_drawn", 1),  # DEAL-3
    ("opened", N_TEAMS),  # own, opponents
    ("scores", N_TEAMS),  # cumulative scores at the start of the hand, own first
    ("open_min", 1),  # OPEN-1 minimum for the own team
    ("hand_sizes", N_PLAYERS),  # self, next (left) opponent, partner, previous opponent
    ("drew_stock", 1),
    ("took_pile", 1),
    ("opening_turn", 1),
    ("pile_kind", 1),
    ("melded", 1),
    ("kept", 1),  # kind of the three the player keeps (DEAL-5), -1
    ("hand", N_KINDS),  # own hand by kind
    ("pile_counts", N_KINDS),  # the pile by kind (public: every discard was seen)
    ("discards", N_KINDS),  # all discards of the hand by kind
    ("aside", N_KINDS),  # the taken pile's rest held aside (PILE-1/2)
    ("pending", _PLAN_CELLS),  # cards melded from hand this opening turn [slot, col]
    ("melds", _MELD_CELLS),  # [own|opp, slot, col]
    ("threes", N_TEAMS * 2),  # [own|opp, red|black]
    ("open_rules", 3),  # OPEN-1/2 hand number, RS_OPENING_MINIMUM, RS_OPENING_WILD (state's)
    ("known", N_PLAYERS * N_KINDS),  # the public card memory by relative seat, as hand_sizes
)
_OB, OBS_SIZE = layout(OBS_FIELDS)
OB_PHASE = _OB["phase"]  #: phase
OB_SEAT = _OB["seat"]  #: absolute seat
OB_TURN = _OB["turn"]  #: turn index
OB_STOCK_N = _OB["stock_n"]  #: stock size
OB_PILE_N = _OB["pile_n"]  #: pile size
OB_PILE_TOP = _OB["pile_top"]  #: top kind or -1
OB_TURN_CARD_DRAWN = _OB["turn_card_drawn"]  #: DEAL-3
OB_OPENED = _OB["opened"]  #: opened flags, own first
OB_SCORES = _OB["scores"]  #: cumulative scores, own first
OB_OPEN_MIN = _OB["open_min"]  #: OPEN-1 minimum
OB_HAND_SIZES = _OB["hand_sizes"]  #: hand sizes by relative seat
OB_DREW_STOCK = _OB["drew_stock"]  #: SPECIAL-1
OB_TOOK_PILE = _OB["took_pile"]  #: OPEN-5
OB_OPENING_TURN = _OB["opening_turn"]  #: OPEN-1
OB_PILE_KIND = _OB["pile_kind"]  #: OPEN-3
OB_MELDED = _OB["melded"]  #: a meld this turn
OB_KEPT = _OB["kept"]  #: DEAL-5 kept three kind
OB_HAND = _OB["hand"]  #: own hand
OB_PILE_COUNTS = _OB["pile_counts"]  #: pile by kind
OB_DISCARDS = _OB["discards"]  #: discard history by kind
OB_ASIDE = _OB["aside"]  #: pile rest held aside
OB_PENDING = _OB["pending"]  #: pending opening melds
OB_MELDS = _OB["melds"]  #: melds, own team first
OB_THREES = _OB["threes"]  #: threes laid, own team first
OB_OPEN_RULES = _OB["open_rules"]  #: OPEN-1/2 the opening's rules (ST_OPEN_RULES)
OB_HAND_NUMBER = OB_OPEN_RULES  #: OPEN-1 hand's number in the game
OB_OPEN_WILD = OB_OPEN_RULES + 2  #: OPEN-2 variant: 1 a wild meld of 3+ may stand in
OB_KNOWN = _OB["known"]  #: known[relative seat, kind]: cards the table knows each hand holds
#: the fields an observation copies from the state as they are (the same name in both layouts;
#: the rest is the player's own or counted from the own team); rows (obs offset, state offset,
#: width), for ``sim.engine.observe.observe`` and its inverse ``sim.engine.search._copy_known``
_AS_SEEN = ("phase", "turn", "stock_n", "pile_n", "turn_card_drawn", "drew_stock", "took_pile")
_AS_SEEN += ("opening_turn", "pile_kind", "melded", "pile_counts", "discards", "aside", "pending")
_AS_SEEN += ("open_rules",)
SEEN_FIELDS = np.array([(_OB[n], _ST[n], dict(OBS_FIELDS)[n]) for n in _AS_SEEN], dtype=np.int64)
assert all(dict(OBS_FIELDS)[n] == dict(STATE_FIELDS)[n] for n in _AS_SEEN)

#: per-hand record written by the engine kernel, one int64 row; team blocks follow the header
RECORD_HEADER = (
    "hand_id",
    "first_player",
    "turns",
    "end_reason",  # END_* code, named in the DataFrame
    "out_team",
    "special_hand",  # SPECIAL_* code, named in the DataFrame
    "special_team",
    "score_team0",
    "score_team1",
    "policy_errors",
    "decisions",
)
TEAM_RECORD_ITEMS = (
    *SCORE_ITEMS,
    "sevens_started_turn",
    "aces_started_turn",
    "wild_started_turn",
    "sevens_completed",
    "aces_completed",
    "wild_completed",
    "aces_mixed",
    "sevens_penalty_players",
    "aces_penalty_players",
    "canastas",
    "opened",
    "bonus_cards",
)
(
    RC_HAND_ID,
    RC_FIRST_PLAYER,
    RC_TURNS,
    RC_END_REASON,
    RC_OUT_TEAM,
    RC_SPECIAL,
    RC_SPECIAL_TEAM,
    RC_SCORE0,
    RC_SCORE1,
    RC_ERRORS,
    RC_DECISIONS,
) = range(len(RECORD_HEADER))
RC_TEAM_BASE = len(RECORD_HEADER)  #: first column of team 0's block
RC_TEAM_WIDTH = len(TEAM_RECORD_ITEMS)  #: columns per team block
TR_SEVENS_STARTED = TEAM_RECORD_ITEMS.index("sevens_started_turn")  #: offsets in a team block
TR_SEVENS_COMPLETED = TEAM_RECORD_ITEMS.index("sevens_completed")
TR_ACES_MIXED = TEAM_RECORD_ITEMS.index("aces_mixed")
TR_SEVENS_PENALTY = TEAM_RECORD_ITEMS.index("sevens_penalty_players")
TR_ACES_PENALTY = TEAM_RECORD_ITEMS.index("aces_penalty_players")
TR_CANASTAS = TEAM_RECORD_ITEMS.index("canastas")
TR_OPENED = TEAM_RECORD_ITEMS.index("opened")
TR_BONUS = TEAM_RECORD_ITEMS.index("bonus_cards")
#: risk columns after both team blocks (the earlier offsets never moved): per team, how many
#: sevens / aces the starting player held just before starting the meld, and the stock size
#: when the sevens, aces, wild meld was started; -1 if never started
RISK_RECORD_ITEMS = (
    "sevens_started_held",
    "aces_started_held",
    "sevens_started_stock",
    "aces_started_stock",
    "wild_started_stock",
)
RC_RISK_BASE = RC_TEAM_BASE + N_TEAMS * RC_TEAM_WIDTH  #: first risk column of team 0
RC_RISK_WIDTH = len(RISK_RECORD_ITEMS)  #: risk columns per team
#: every record column, in order ("team0_canasta_bonus", ...)
RECORD_COLUMNS = (
    *RECORD_HEADER,
    *(f"team{t}_{item}" for t in range(N_TEAMS) for item in TEAM_RECORD_ITEMS),
    *(f"team{t}_{item}" for t in range(N_TEAMS) for item in RISK_RECORD_ITEMS),
)
RECORD_WIDTH = len(RECORD_COLUMNS)  #: int64 columns of a record row
MAX_TURNS = 400  #: safety bound on the turns of one hand (END_LIMIT; never reached in play)

#: transcript events the engine logs (EV_*), each as (event, player, a, b) in a flat log
EVENT_NAMES = ("action", "draw", "replace", "bonus", "lay_three", "pile_joins", "end")
EV_ACTION, EV_DRAW, EV_REPLACE, EV_BONUS, EV_LAY_THREE, EV_PILE_JOINS, EV_END = range(
    len(EVENT_NAMES)
)
EVENT_WIDTH = 4  #: int64 words per logged event; log[0] holds the number of events

#: states of the opening search (``sim.legality.opening_search``) with every wild card of the
#: deck in hand: wilds placed (0..12) x OPEN-2 flag (2) x naturals left (3) x canastas (3) x
#: an unfinished sevens/aces meld (2)
OPEN_SEARCH_STATES = (int(KIND_COPIES[JOKER] + KIND_COPIES[TWO]) + 1) * 2 * 3 * 3 * 2
#: words of the rules core's work area (``sim.legality.SEARCH_WORK_FIELDS``): the search's
#: back pointers per natural rank and its two layers of values and of reached states, then
#: a hand, two [slot, col] tables and a meld table (PILE-1/2)
SEARCH_WORK_SIZE = (N_KINDS - FIRST_NATURAL + 5) * OPEN_SEARCH_STATES + N_KINDS + 4 * _PLAN_CELLS

#: best counts of an opening turn per (natural rank, naturals from hand, wild cards) on that
#: rank, at least that many (``sim.legality.opening_op_counts``; ``legal_actions`` answers every
#: candidate meld operation of an opening turn from it): ranks x 0..8 naturals x 0..3 wilds
OP_AX_SHAPE = (
    N_KINDS - FIRST_NATURAL,
    int(KIND_COPIES[FIRST_NATURAL:].max()) + 1,
    MAX_OP_WILDS + 1,
)
OP_AX_SIZE = OP_AX_SHAPE[0] * OP_AX_SHAPE[1] * OP_AX_SHAPE[2]

#: temporaries of the engine's checks from an observation (``sim.engine.judge``,
#: ``sim.engine.invariants``), int64[TMP_SIZE]; named views in ``sim.engine.views``
TMP_FIELDS = (
    ("hand", N_KINDS),  # the hand after a meld operation; card totals (invariants)
    ("leave", N_KINDS),  # OUT-2: the hand the player will hold; the pile by kind (invariants)
    ("melds", _MELD_CELLS),  # an empty meld table (invariants)
    ("pending", _PLAN_CELLS),  # the turn's opening melds after the operation (OPEN-1..4)
    ("plan", _PLAN_CELLS),  # the opening search's plan from there (read by check_action)
    ("search", SEARCH_WORK_SIZE),  # the opening search's tables, PILE-1/2's copies (legality)
    ("gen_ax", OP_AX_SIZE),  # legal_actions: an opening turn's best counts (OP_AX_SHAPE)
    ("gen_wm", CANASTA + 1),  # legal_actions: the same after a wild meld operation of w cards
)
_TM, TMP_SIZE = layout(TMP_FIELDS)
TM_HAND = _TM["hand"]  #: offset of hand[N_KINDS]
TM_LEAVE = _TM["leave"]  #: offset of leave[N_KINDS]
TM_MELDS = _TM["melds"]  #: offset of melds[N_TEAMS, N_KINDS, N_MELD_COLS]
TM_PENDING = _TM["pending"]  #: offset of pending[N_KINDS, N_MELD_COLS]
TM_PLAN = _TM["plan"]  #: offset of plan[N_KINDS, N_MELD_COLS]
TM_SEARCH = _TM["search"]  #: offset of the rules core's work area (SEARCH_WORK_SIZE words)
TM_GEN_AX = _TM["gen_ax"]  #: offset of best_ax[OP_AX_SHAPE] (legal_actions)
TM_GEN_WM = _TM["gen_wm"]  #: offset of best_wm[CANASTA + 1] (legal_actions)

#: the engine's cache of an opening plan (``sim.engine.judge.check_action``), int64[PC_SIZE]
PLAN_CACHE_FIELDS = (
    ("valid", 1),  # 1: the plan below holds for the hand below
    ("aside", 1),  # the taken pile's rest (cards) the plan was made with
    ("hand", N_KINDS),  # the hand the plan was made for
    ("plan", _PLAN_CELLS),  # the rest of the plan [slot, col]
)
_PC, PC_SIZE = layout(PLAN_CACHE_FIELDS)
PC_VALID = _PC["valid"]  #: valid flag
PC_ASIDE = _PC["aside"]  #: aside total
PC_HAND = _PC["hand"]  #: offset of hand[N_KINDS]
PC_PLAN = _PC["plan"]  #: offset of plan[N_KINDS, N_MELD_COLS]

#: words of the scratch array free for a policy's own use (the built-ins': their work fields,
#: ``sim.policies.common.POLICY_WORK_FIELDS``, then strong's evaluator's,
#: ``sim.policies.strong.EVALUATOR_WORK_FIELDS``)
POLICY_FREE = 1024
#: words the built-in policies keep from one call to the next: the last opening search's
#: inputs and plan (``sim.policies.common.OPENING_MEMO_FIELDS``); a policy of its own leaves
#: them alone (a built-in it calls reads them, checked against its inputs)
POLICY_MEMO = 128
#: scratch array a policy receives (``sim.engine.contract``), int64[SCRATCH_SIZE]
SCRATCH_FIELDS = (
    ("legal", N_ACTIONS),  # a legal-action list
    ("tmp", TMP_SIZE),  # the temporaries of the legality checks (TMP_FIELDS)
    ("free", POLICY_FREE),  # the policy's own (the built-ins: POLICY_WORK_FIELDS)
    ("memo", POLICY_MEMO),  # the built-ins' memo of the opening search (zeros: empty)
)
_SC, SCRATCH_SIZE = layout(SCRATCH_FIELDS)
SCRATCH_LEGAL = _SC["legal"]  #: offset of a legal-action list (N_ACTIONS ids)
SCRATCH_TMP = _SC["tmp"]  #: offset of the temporaries (TMP_FIELDS)
SCRATCH_FREE = _SC["free"]  #: offset of the words free for the policy's own use
SCRATCH_MEMO = _SC["memo"]  #: offset of the built-ins' memo (POLICY_MEMO words)
#: the first free words: an opening plan [slot, col] (PLAN_CELLS words) that a policy may
#: leave there for its proposal, the further cards it means to meld from the position it saw
#: (the built-ins' ``work_plan``). The engine reads it only as a hint it verifies exactly
#: (``sim.engine.judge.check_action``): whatever the words hold, its answer is the rules'.
SCRATCH_HINT = SCRATCH_FREE


#: per-game record (GAME-1) written by the engine's game kernel, one int64 row
GAME_RECORD_COLUMNS = ("game_id", "hands", "score_team0", "score_team1", "winner", "policy_errors")
GR_GAME_ID, GR_HANDS, GR_SCORE0, GR_SCORE1, GR_WINNER, GR_ERRORS = range(len(GAME_RECORD_COLUMNS))
GAME_RECORD_WIDTH = len(GAME_RECORD_COLUMNS)  #: int64 columns of a game record
GAME_HAND_STRIDE = 1024  #: hand k of game g is seeded as hand g * stride + k (and capped there)

#: debug-mode invariant failures (sim.engine), index = code; 0 means every invariant holds
INVARIANT_NAMES = ("", "cards", "meld", "pile", "negative", "stuck")
INV_OK = 0  #: invariants hold
INV_CARDS = 1  #: CARD-1: the 108 cards are not all accounted for exactly once
INV_MELD = 2  #: MELD-*: a meld on the table is not a legal meld
INV_PILE = 3  #: the pile's kinds and its counts disagree
INV_NEGATIVE = 4  #: a negative count
INV_STUCK = 5  #: no legal action exists (a bug: the rules always leave one)
SPECIALS_ON = SPECIAL_HANDS_MODES.index("tournament")  #: RS_SPECIAL_HANDS code of the default list
SPECIALS_OFF = SPECIAL_HANDS_MODES.index("none")  #: RS_SPECIAL_HANDS code with specials off
SPECIALS_CLA = SPECIAL_HANDS_MODES.index("cla")  #: RS_SPECIAL_HANDS code of the CLA list
