"""What a player sees: the observation of an engine state (layout ``OBS_FIELDS``).

An observation is all a policy and the validator (``sim.engine.judge``) ever read: the
player's own hand, everything public (melds, threes, the pile, the discard history, hand and
stock sizes, scores, the turn's flags), own team first and seats counted from the player.
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim.legality import opening_min


@njit(cache=True)
def observe(st, p, obs):
    """Fill ``obs`` with what player ``p`` can see (layout OBS_FIELDS): own team first."""
    for f in range(E.SEEN_FIELDS.shape[0]):  # the fields seen as they are
        o, s = E.SEEN_FIELDS[f, 0], E.SEEN_FIELDS[f, 1]
        for j in range(E.SEEN_FIELDS[f, 2]):
            obs[o + j] = st[s + j]
    team = p % E.N_TEAMS
    obs[E.OB_SEAT] = p
    pile_n = st[E.ST_PILE_N]
    obs[E.OB_PILE_TOP] = st[E.ST_PILE + pile_n - 1] if pile_n > 0 else -1
    obs[E.OB_OPEN_MIN] = opening_min(st[E.ST_SCORES + team])
    obs[E.OB_KEPT] = st[E.ST_KEPT + p]
    for k in range(E.N_KINDS):
        obs[E.OB_HAND + k] = st[E.ST_HANDS + p * E.N_KINDS + k]
    for i in range(E.N_PLAYERS):
        q = (p + i) % E.N_PLAYERS
        n = 0
        for k in range(E.N_KINDS):
            n += st[E.ST_HANDS + q * E.N_KINDS + k]
        obs[E.OB_HAND_SIZES + i] = n
    width = E.N_KINDS * E.N_MELD_COLS
    for i in range(E.N_TEAMS):
        t = (team + i) % E.N_TEAMS
        obs[E.OB_OPENED + i] = st[E.ST_OPENED + t]
        obs[E.OB_SCORES + i] = st[E.ST_SCORES + t]
        for j in range(width):
            obs[E.OB_MELDS + i * width + j] = st[E.ST_MELDS + t * width + j]
        obs[E.OB_THREES + 2 * i] = st[E.ST_THREES + 2 * t]
        obs[E.OB_THREES + 2 * i + 1] = st[E.ST_THREES + 2 * t + 1]


@njit(cache=True)
def bonus_owed(obs):
    """OPEN-5/DEAL-3: a player melding in the opening turn will be owed bonus cards after the
    discard: not after taking the pile, not once the turn card has been drawn."""
    return (
        obs[E.OB_OPENING_TURN] == 1 and obs[E.OB_TOOK_PILE] == 0 and obs[E.OB_TURN_CARD_DRAWN] == 0
    )
