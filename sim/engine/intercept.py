"""What the hand loop does instead of asking a policy: the intercept (``sim.engine.play``).

One int64 array of ``IC_SIZE`` words tells the engine's one hand loop where it stops asking the
policies and what it does there; its inputs come first, then its progress, reset per hand:

- ``IK_NONE``: plain play, every decision the policy's;
- ``IK_CHOICE``: at seat ``IC_SEAT``'s turn ``IC_TURN`` the ``IC_CHOICE`` of ``CHOICES`` is
  forced on the policy's decisions (``forced_choice``; what-if positions, ``sim.engine.position``);
- ``IK_SCRIPT``: at that seat and turn the ``IC_N`` actions of ``IC_SCRIPT`` are made in order
  while the rules accept them, then the policy decides (plans, ``sim.engine.script``);
- ``IK_PAUSE``: the loop returns ``PAUSED`` at each decision of team ``IC_TEAM`` before asking
  its policy, the observation filled in; called again it asks the policy and plays on
  (``strong``'s labelling reads those decisions, ``sim.policies.strong_train``).

``IC_APPLIED`` says whether the choice was made (or every script step); ``IC_ACTIVE`` whether the
script is still being played, or a pause is armed. The callers fill the array themselves
(``sim.engine.position``, ``sim.engine.script``, ``sim.policies.strong_train``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import encoding as E
from sim.engine.judge import action_ok
from sim.engine.observe import bonus_owed
from sim.engine.validate import opening_possible
from sim.engine.views import tmp_plan
from sim.special import catalogue_row, nearest_hand

#: choice name -> what the fixed player does at the position (then the policies play on)
CHOICES = {
    "policy": "let the seat's policy decide (the baseline)",
    "meld_sevens": "meld all the sevens held now (needs 3+ sevens, MELD-1/MELD-6)",
    "hold_sevens": "meld no seven this turn; the policy decides everything else",
    "meld_aces": "meld all the aces held now (needs 3+ aces, MELD-1/MELD-7)",
    "hold_aces": "meld no ace this turn; the policy decides everything else",
    "take_pile": "take the discard pile where the rules allow it (PILE-1/2)",
    "draw": "draw from the stock instead of taking the pile",
    # added for the decision experiments (analysis.decisions); the numbers above are unchanged
    "meld_aces_wild": "meld all the aces held now with up to 2 wilds (MELD-7: opening turn only)",
    "meld_wilds": "start a wild meld with all the wilds held now (up to 7, MELD-8)",
    "hold_wilds": "start no wild meld this turn; the policy decides everything else",
    "stay_in": "do not go out this turn: a meld that would leave no card to hold is refused",
    # the keep-or-lay decision of the turn's start (DEAL-5), added for claim L
    "keep_three": "keep one three in hand toward a Straight (DEAL-5: team not melded)",
    "lay_three": "lay every three held and replace it (DEAL-4), keeping none",
    # choices that last the rest of the hand (the fixed turn's part, then the lasting part):
    # the chase of a special hand as a decision on top of the seat's policy
    "chase": "the team chases the nearest special hand from this turn on (CHASE_DISTANCE)",
    "keep_three_chase": "keep_three, and the team chases the nearest special hand",
    "lay_three_chase": "lay_three, and the team chases the nearest special hand",
    # the opening from hand (OPEN-1..4) now, or waiting for the pile
    "open_from_hand": "draw from the stock (never the pile), then make the best legal opening "
    "from the hand at this turn's play step",
    **{
        f"wait_pile_{n}": f"the team opens from hand only once the pile holds {n}+ cards or "
        "the turn card is drawn (DEAL-3); the pile may be taken to open at any time"
        for n in range(2, 21)
    },
}
CH_POLICY, CH_MELD_SEVENS, CH_HOLD_SEVENS, CH_MELD_ACES, CH_HOLD_ACES, CH_TAKE_PILE, CH_DRAW = (
    range(7)
)
CH_MELD_ACES_WILD, CH_MELD_WILDS, CH_HOLD_WILDS, CH_STAY_IN = range(7, 11)
CH_KEEP_THREE, CH_LAY_THREE = range(11, 13)
CH_CHASE, CH_KEEP_THREE_CHASE, CH_LAY_THREE_CHASE, CH_OPEN_FROM_HAND = range(13, 17)
CH_WAIT_PILE = 17  #: wait_pile_N is CH_WAIT_PILE + N - WAIT_PILE_MIN
WAIT_PILE_MIN, WAIT_PILE_MAX = 2, 20
#: the lasting choices' reach: the fixed seat's team (the chase, the wait for the pile)
CHASE_DISTANCE = 4  #: chase while fewer cards than this are missing (special_chaser's default)


NO_ACTION = -1  #: pads a script row (scripts of several lengths share one array)
MAX_SCRIPT = 24  #: actions in one script (a draw, meld operations and the discard)

#: the intercept's words: (name, width); inputs, then the progress ``reset_intercept`` sets
INTERCEPT_FIELDS = (
    ("kind", 1),  # IK_*
    ("seat", 1),  # the fixed seat (choice, script)
    ("turn", 1),  # its fixed turn
    ("choice", 1),  # CH_* (choice)
    ("team", 1),  # the team whose decisions pause the loop (pause)
    ("n", 1),  # script length
    ("script", MAX_SCRIPT),  # action ids, padded with NO_ACTION
    ("applied", 1),  # 1 if the choice was made, or every script step
    ("active", 1),  # the script still playing; a pause armed
    ("step", 1),  # the next script step
    ("first_play", 1),  # the fixed turn's first play decision is still to come (choice)
)
_IC, IC_SIZE = E.layout(INTERCEPT_FIELDS)
IC_KIND, IC_SEAT, IC_TURN, IC_CHOICE = _IC["kind"], _IC["seat"], _IC["turn"], _IC["choice"]
IC_TEAM, IC_N, IC_SCRIPT = _IC["team"], _IC["n"], _IC["script"]
IC_APPLIED, IC_ACTIVE, IC_STEP = _IC["applied"], _IC["active"], _IC["step"]
IC_FIRST_PLAY = _IC["first_play"]
IK_NONE, IK_CHOICE, IK_SCRIPT, IK_PAUSE = range(4)  #: the kinds of intercept
PAUSED = -1  #: the hand loop's code at a paused decision (0: the hand is over; > 0: INV_*)


@njit(cache=True, _nrt=False)
def reset_intercept(icpt):
    """The progress words at the start of a hand: nothing applied yet (a script of no step is
    applied at once), the script playing, a pause armed, the first play decision to come."""
    n = icpt[IC_N] if icpt[IC_KIND] == IK_SCRIPT else 0
    icpt[IC_APPLIED] = 1 if icpt[IC_KIND] == IK_SCRIPT and n == 0 else 0
    icpt[IC_ACTIVE] = 1 if icpt[IC_KIND] != IK_SCRIPT or n > 0 else 0
    icpt[IC_STEP] = 0
    icpt[IC_FIRST_PLAY] = 1


@njit(cache=True, inline="always")
def at_intercept(st, icpt):
    """Does the intercept take the step of the player to act (its kind is not ``IK_NONE``)?"""
    if icpt[IC_KIND] == IK_PAUSE:
        return st[E.ST_PLAYER] % E.N_TEAMS == icpt[IC_TEAM]
    if icpt[IC_ACTIVE] != 1:
        return False
    c = icpt[IC_CHOICE]
    if icpt[IC_KIND] == IK_CHOICE and c >= CH_CHASE and c != CH_OPEN_FROM_HAND:
        if st[E.ST_TURN] < icpt[IC_TURN]:
            return False
        # the team's turns: a wait that bound the seat alone left its partner to open from
        # hand, and then the team had not waited
        return st[E.ST_PLAYER] % E.N_TEAMS == icpt[IC_SEAT] % E.N_TEAMS
    return st[E.ST_PLAYER] == icpt[IC_SEAT] and st[E.ST_TURN] == icpt[IC_TURN]


@njit(cache=True, inline="always")
def _step_choice(st, icpt):
    """The choice in force at this step of the intercept: the fixed choice at the fixed seat's
    fixed turn; the lasting part of a lasting choice elsewhere (the chase, the wait)."""
    c = icpt[IC_CHOICE]
    if st[E.ST_PLAYER] == icpt[IC_SEAT] and st[E.ST_TURN] == icpt[IC_TURN]:
        return c
    if c == CH_KEEP_THREE_CHASE or c == CH_LAY_THREE_CHASE:
        return CH_CHASE
    return c


@njit(cache=True, _nrt=False)
def _hold_discard(obs, kind, rules, tmp):
    """In place of melding ``kind``: the legal discard of the kind held fewest times (then the
    lowest value, then the lowest kind), never of ``kind``; -1 if none."""
    best = -1
    for k in range(E.N_KINDS):
        if k == kind or obs[E.OB_HAND + k] == 0:
            continue
        if not action_ok(obs, E.A_DISCARD + k, rules, tmp):
            continue
        if best < 0:
            best = k
            continue
        h, hb = obs[E.OB_HAND + k], obs[E.OB_HAND + best]
        if h < hb or (h == hb and E.KIND_VALUE[k] < E.KIND_VALUE[best]):
            best = k
    return -1 if best < 0 else E.A_DISCARD + best


@njit(cache=True, _nrt=False)
def _meld_with_wilds(obs, slot, naturals, max_wilds, rules, tmp):
    """The legal meld op putting ``naturals`` of ``slot`` down with as many of the wilds held as
    the rules allow, up to ``max_wilds`` (jokers first), and at least one wild; -1 if none."""
    twos, jokers = obs[E.OB_HAND + E.TWO], obs[E.OB_HAND + E.JOKER]
    for w in range(min(max_wilds, twos + jokers), 0, -1):
        j = min(jokers, w)
        t = w - j
        if naturals + t + j > E.CANASTA:
            continue
        a = E.MELD_ACTION[slot, naturals, t, j]
        if a >= 0 and action_ok(obs, a, rules, tmp):
            return a
    return -1


@njit(cache=True, _nrt=False)
def _goes_out(obs, proposed):
    """Does the meld op ``proposed`` leave no card to hold (OUT-2: that is going out)?"""
    if proposed < 0 or E.ACTION_TABLE[proposed, E.AC_TYPE] != E.AT_MELD:
        return False
    total = 0
    for k in range(E.N_KINDS):
        total += obs[E.OB_HAND + k]
    used = (
        E.ACTION_TABLE[proposed, E.AC_NAT]
        + E.ACTION_TABLE[proposed, E.AC_TWO]
        + E.ACTION_TABLE[proposed, E.AC_JOKER]
    )
    left = total - used
    return left == 0 or (left == 1 and not bonus_owed(obs))  # OPEN-5: owed cards still come


@njit(cache=True, _nrt=False)
def _forced_three(obs, choice, proposed, rules, tmp):
    """``forced_choice`` for ``keep_three``/``lay_three`` at the keep-or-lay decision of the
    turn's start (PH_THREES, DEAL-5): keep a red three if held, else a black one (the rules
    judge it: R_KEEP_THREE once the team has melded); or lay them all (DEAL-4). Elsewhere the
    proposal stands, not applied."""
    if obs[E.OB_PHASE] != E.PH_THREES:
        return proposed, 0
    if choice == CH_LAY_THREE:
        return E.A_LAY_THREES, 1
    for a in (E.A_KEEP_RED_THREE, E.A_KEEP_BLACK_THREE):
        if action_ok(obs, a, rules, tmp):
            return a, 1
    return proposed, 0


@njit(cache=True, _nrt=True)
def _chase_move(obs, proposed, rules, tmp):
    """SPECIAL-1..9, the chase on top of the policy: while the team has not melded and the
    hand is fewer than ``CHASE_DISTANCE`` cards from the nearest hand of the list in force
    (``sim.special.nearest_hand``, counting the card to come at the draw), draw from the stock
    (SPECIAL-1: never after taking the pile), keep a three only for a hand that has one
    (DEAL-5), declare when it can, else discard the card most in excess of the hand's needs
    (the policy's discard if none is); elsewhere the policy's ``proposed``. Returns (action,
    1 if the chase decided it)."""
    if rules[E.RS_CATALOGUE_N] == 0 or obs[E.OB_OPENED] == 1 or obs[E.OB_MELDED] == 1:
        return proposed, 0
    need = np.zeros(E.N_KINDS, dtype=np.int64)
    miss, code = nearest_hand(obs[E.OB_HAND : E.OB_HAND + E.N_KINDS], rules, need)
    phase = obs[E.OB_PHASE]
    if phase == E.PH_DRAW:
        if miss - 1 < CHASE_DISTANCE and action_ok(obs, E.A_DRAW, rules, tmp):
            return E.A_DRAW, 1
        return proposed, 0
    if miss >= CHASE_DISTANCE:
        return proposed, 0
    if phase == E.PH_THREES:
        if rules[catalogue_row(code) + E.CH_THREES] == 0:
            return E.A_LAY_THREES, 1  # DEAL-5: a three is kept only for a hand that has one
        for a in (E.A_KEEP_RED_THREE, E.A_KEEP_BLACK_THREE):
            if action_ok(obs, a, rules, tmp):
                return a, 1
        return proposed, 0
    if phase != E.PH_PLAY:
        return proposed, 0
    if action_ok(obs, E.A_DECLARE, rules, tmp):
        return E.A_DECLARE, 1
    best_a, best_x = -1, 0
    for k in range(E.N_KINDS):
        x = obs[E.OB_HAND + k] - need[k]
        if x > best_x and action_ok(obs, E.A_DISCARD + k, rules, tmp):
            best_a, best_x = E.A_DISCARD + k, x
    if best_a >= 0:
        return best_a, 1
    if proposed >= 0 and E.ACTION_TABLE[proposed, E.AC_TYPE] == E.AT_DISCARD:
        return proposed, 1
    a = _hold_discard(obs, -1, rules, tmp)  # no meld while chasing: it would end the chase
    return (proposed, 0) if a < 0 else (a, 1)


@njit(cache=True, _nrt=True)
def _opening_move(obs, rules, tmp):
    """OPEN-1..4: the next meld operation of the best opening from the hand at this play
    step (the engine's opening search, ``opening_possible``: its plan, natural melds first,
    the wild meld last), or -1 if no opening can be made or completed."""
    if obs[E.OB_OPENED] == 1 or obs[E.OB_TOOK_PILE] == 1 or obs[E.OB_OPENING_TURN] == 0:
        return -1
    if not opening_possible(obs, rules, tmp):
        return -1
    plan = tmp_plan(tmp).copy()  # the judge below reuses the temporaries
    for slot in range(E.N_KINDS - 1, -1, -1):
        nat = plan[slot, E.NATURALS] if slot != E.WILD_MELD else 0
        two, joker = plan[slot, E.TWOS], plan[slot, E.JOKERS]
        if nat + two + joker > 0:
            a = E.MELD_ACTION[slot, nat, two, joker]
            if a >= 0 and action_ok(obs, a, rules, tmp):
                return a
    return -1


@njit(cache=True, _nrt=True)
def _forced_lasting(obs, choice, proposed, rules, tmp):
    """``forced_choice`` for the chase, the opening from hand (the draw, then the opening)
    and the wait for the pile (at every turn of the team from the fixed one)."""
    if choice == CH_KEEP_THREE_CHASE or choice == CH_LAY_THREE_CHASE:
        if obs[E.OB_PHASE] == E.PH_THREES:
            base = CH_KEEP_THREE if choice == CH_KEEP_THREE_CHASE else CH_LAY_THREE
            return _forced_three(obs, base, proposed, rules, tmp)
        choice = CH_CHASE
    if choice == CH_CHASE:
        a, _ = _chase_move(obs, proposed, rules, tmp)
        return a, 0  # applied says whether the fixed turn's part was made
    if choice == CH_OPEN_FROM_HAND and obs[E.OB_PHASE] == E.PH_DRAW:
        # from the hand: the stock, not the pile (taking it would open with the pile); not
        # yet applied, which the opening says
        if obs[E.OB_OPENED] == 0 and action_ok(obs, E.A_DRAW, rules, tmp):
            return E.A_DRAW, 0
        return proposed, 0
    if obs[E.OB_PHASE] != E.PH_PLAY:
        return proposed, 0
    if choice == CH_OPEN_FROM_HAND:
        if obs[E.OB_MELDED] == 1 and obs[E.OB_OPENING_TURN] == 1:
            a = _opening_move(obs, rules, tmp)  # the rest of the opening begun
            return (proposed, 1) if a < 0 else (a, 1)
        a = _opening_move(obs, rules, tmp)
        return (proposed, 0) if a < 0 else (a, 1)
    # wait_pile_N: no opening from hand before the pile holds N or the turn card is drawn
    n = choice - CH_WAIT_PILE + WAIT_PILE_MIN
    if obs[E.OB_PILE_N] >= n or obs[E.OB_TURN_CARD_DRAWN] == 1:
        return proposed, 1
    if (
        obs[E.OB_OPENED] == 1
        or obs[E.OB_TOOK_PILE] == 1
        or obs[E.OB_MELDED] == 1
        or proposed < 0
        or E.ACTION_TABLE[proposed, E.AC_TYPE] != E.AT_MELD
    ):
        return proposed, 1
    a = _hold_discard(obs, -1, rules, tmp)
    return (proposed, 0) if a < 0 else (a, 1)


@njit(cache=True, _nrt=False)
def _forced_new(obs, choice, proposed, first_play, rules, tmp):
    """``forced_choice`` for the choices added after ``draw`` (same contract)."""
    if choice >= CH_CHASE:
        return _forced_lasting(obs, choice, proposed, rules, tmp)
    if choice >= CH_KEEP_THREE:
        return _forced_three(obs, choice, proposed, rules, tmp)
    if obs[E.OB_PHASE] != E.PH_PLAY:
        return proposed, 0
    if choice == CH_MELD_ACES_WILD:  # MELD-7: wilds join aces only in the initial meld
        if not first_play or obs[E.OB_OPENED] == 1:
            return proposed, 0
        a = _meld_with_wilds(obs, E.ACE, min(obs[E.OB_HAND + E.ACE], E.CANASTA), 2, rules, tmp)
        if a < 0:
            return proposed, 0
        return a, 1
    if choice == CH_MELD_WILDS:  # MELD-8: a meld of wild cards only
        if not first_play:
            return proposed, 0
        a = _meld_with_wilds(obs, E.WILD_MELD, 0, E.CANASTA, rules, tmp)
        if a < 0:
            return proposed, 0
        return a, 1
    if choice == CH_HOLD_WILDS:
        if (
            E.ACTION_TABLE[proposed, E.AC_TYPE] != E.AT_MELD
            or E.ACTION_TABLE[proposed, E.AC_SLOT] != E.WILD_MELD
            or obs[E.OB_MELDS + E.WILD_MELD * E.N_MELD_COLS + E.TWOS]
            + obs[E.OB_MELDS + E.WILD_MELD * E.N_MELD_COLS + E.JOKERS]
            > 0  # adding to a wild meld already started is not starting one
        ):
            return proposed, 1
        a = _hold_discard(obs, E.WILD_MELD, rules, tmp)
        return (proposed, 0) if a < 0 else (a, 1)
    # CH_STAY_IN: refuse the going-out meld, end the turn with a discard instead; applied
    # (1) only when it refused one, so the paired deals where the policy would go out are known
    if not _goes_out(obs, proposed):
        return proposed, 0
    a = _hold_discard(obs, -1, rules, tmp)
    return (proposed, 0) if a < 0 else (a, 1)


@njit(cache=True, _nrt=False)
def forced_choice(obs, choice, proposed, first_play, rules, tmp):
    """The fixed player's action in its fixed turn instead of ``proposed`` (-1 in ``proposed``:
    no proposal, at a draw the engine would force), and 1 if the choice was made or confirmed,
    0 if the rules refuse it here (then ``proposed`` stands)."""
    phase = obs[E.OB_PHASE]
    if choice >= CH_MELD_ACES_WILD:
        return _forced_new(obs, choice, proposed, first_play, rules, tmp)
    if choice == CH_DRAW or choice == CH_TAKE_PILE:
        if phase != E.PH_DRAW:
            return proposed, 0
        a = E.A_DRAW if choice == CH_DRAW else E.A_TAKE_PILE
        if action_ok(obs, a, rules, tmp):
            return a, 1
        return proposed, 0
    if choice == CH_POLICY or phase != E.PH_PLAY:
        return proposed, 0
    kind = E.SEVEN if choice == CH_MELD_SEVENS or choice == CH_HOLD_SEVENS else E.ACE
    if choice == CH_MELD_SEVENS or choice == CH_MELD_ACES:
        if not first_play:
            return proposed, 0
        a = E.MELD_ACTION[kind, min(obs[E.OB_HAND + kind], E.CANASTA), 0, 0]
        if a >= 0 and action_ok(obs, a, rules, tmp):
            return a, 1
        return proposed, 0
    # hold: never meld the rank this turn; in its place end the turn with a discard
    if (
        E.ACTION_TABLE[proposed, E.AC_TYPE] != E.AT_MELD
        or E.ACTION_TABLE[proposed, E.AC_SLOT] != kind
    ):
        return proposed, 1
    a = _hold_discard(obs, kind, rules, tmp)
    if a < 0:
        return proposed, 0
    return a, 1


__all__ = ["CHOICES", "NO_ACTION"]

assert list(CHOICES).index("wait_pile_2") == CH_WAIT_PILE and len(CHOICES) == CH_WAIT_PILE + (
    WAIT_PILE_MAX - WAIT_PILE_MIN + 1
)
