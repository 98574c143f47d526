"""What a player sees: the observation of an engine state (layout ``OBS_FIELDS``).

An observation is all a policy and the validator (``sim.engine.judge``) ever read: the
player's own hand, everything public (melds, threes, the pile, the discard history, hand and
stock sizes, scores, the turn's flags, the public card memory ``known``: the cards each seat
is known to hold since it took them with the pile), own team first and seats counted from the
player.
"""

from __future__ import annotations

from numba import njit

from sim import encoding as E
from sim._views import copy_words
from sim.legality import opening_min_state

__all__ = ["observe"]


@njit(cache=True, inline="always")
def _observe_seat(st, p, obs):
    """The seat-relative part of an observation (own hand, hand sizes, own team's melds,
    threes, scores first), of the oracle ``observe_table`` (``observe`` copies its blocks of
    words by ``copy_words``)."""
    team = p % E.N_TEAMS
    obs[E.OB_SEAT] = p
    pile_n = st[E.ST_PILE_N]
    obs[E.OB_PILE_TOP] = st[E.ST_PILE + pile_n - 1] if pile_n > 0 else -1
    obs[E.OB_OPEN_MIN] = opening_min_state(st, team)
    obs[E.OB_KEPT] = st[E.ST_KEPT + p]
    for k in range(E.N_KINDS):
        obs[E.OB_HAND + k] = st[E.ST_HANDS + p * E.N_KINDS + k]
    for i in range(E.N_PLAYERS):
        q = (p + i) % E.N_PLAYERS
        n = 0
        for k in range(E.N_KINDS):
            n += st[E.ST_HANDS + q * E.N_KINDS + k]
            obs[E.OB_KNOWN + i * E.N_KINDS + k] = st[E.ST_KNOWN + q * E.N_KINDS + k]
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


assert E.N_PLAYERS == 4  # observe sums the four hand sizes unrolled


@njit(cache=True, _nrt=False)
def observe(st, p, obs):
    """Fill ``obs`` with what player ``p`` can see (layout OBS_FIELDS): own team first.
    The fields of ``SEEN_FIELDS`` are copied one by one with fixed bounds (a loop over the
    table's rows of variable widths cost ~0.1 µs more an observation), the blocks of words
    (the pile by kind, the discards, the cards aside, the pending melds, the own hand, each
    team's melds) each by one ``copy_words``: vector moves, where a loop between two arrays
    that may overlap copies a word at a time. The same words as
    ``observe_table`` (tests/test_observe_fastpaths.py)."""
    obs[E.OB_PHASE] = st[E.ST_PHASE]
    obs[E.OB_TURN] = st[E.ST_TURN]
    obs[E.OB_STOCK_N] = st[E.ST_STOCK_N]
    obs[E.OB_PILE_N] = st[E.ST_PILE_N]
    obs[E.OB_TURN_CARD_DRAWN] = st[E.ST_TURN_CARD_DRAWN]
    obs[E.OB_DREW_STOCK] = st[E.ST_DREW_STOCK]
    obs[E.OB_TOOK_PILE] = st[E.ST_TOOK_PILE]
    obs[E.OB_OPENING_TURN] = st[E.ST_OPENING_TURN]
    obs[E.OB_PILE_KIND] = st[E.ST_PILE_KIND]
    obs[E.OB_MELDED] = st[E.ST_MELDED]
    copy_words(obs, E.OB_PILE_COUNTS, st, E.ST_PILE_COUNTS, E.N_KINDS)
    copy_words(obs, E.OB_DISCARDS, st, E.ST_DISCARDS, E.N_KINDS)
    copy_words(obs, E.OB_ASIDE, st, E.ST_ASIDE, E.N_KINDS)
    for c in range(E.N_MELD_COLS):  # copies of 16 words are inlined, longer ones call memcpy
        copy_words(obs, E.OB_PENDING + c * E.N_KINDS, st, E.ST_PENDING + c * E.N_KINDS, E.N_KINDS)
    # the seat-relative part (``_observe_seat``, the oracle's), its blocks by ``copy_words``
    team = p % E.N_TEAMS
    obs[E.OB_SEAT] = p
    pile_n = st[E.ST_PILE_N]
    obs[E.OB_PILE_TOP] = st[E.ST_PILE + pile_n - 1] if pile_n > 0 else -1
    obs[E.OB_OPEN_MIN] = opening_min_state(st, team)
    copy_words(obs, E.OB_OPEN_RULES, st, E.ST_OPEN_RULES, 3)  # OPEN-1/2 variants in force
    obs[E.OB_KEPT] = st[E.ST_KEPT + p]
    copy_words(obs, E.OB_HAND, st, E.ST_HANDS + p * E.N_KINDS, E.N_KINDS)
    # the hand sizes from the player on, each summed before any is written (sums between
    # stores to an array that may overlap are not interleaved)
    h0 = E.ST_HANDS + p * E.N_KINDS
    h1 = E.ST_HANDS + (p + 1) % E.N_PLAYERS * E.N_KINDS
    h2 = E.ST_HANDS + (p + 2) % E.N_PLAYERS * E.N_KINDS
    h3 = E.ST_HANDS + (p + 3) % E.N_PLAYERS * E.N_KINDS
    s0, s1, s2, s3 = 0, 0, 0, 0
    for k in range(E.N_KINDS):
        s0 += st[h0 + k]
        s1 += st[h1 + k]
        s2 += st[h2 + k]
        s3 += st[h3 + k]
    obs[E.OB_HAND_SIZES] = s0
    obs[E.OB_HAND_SIZES + 1] = s1
    obs[E.OB_HAND_SIZES + 2] = s2
    obs[E.OB_HAND_SIZES + 3] = s3
    for i in range(E.N_PLAYERS):  # the public card memory, seats from the player on
        q = (p + i) % E.N_PLAYERS
        copy_words(obs, E.OB_KNOWN + i * E.N_KINDS, st, E.ST_KNOWN + q * E.N_KINDS, E.N_KINDS)
    width = E.N_KINDS * E.N_MELD_COLS
    for i in range(E.N_TEAMS):
        t = (team + i) % E.N_TEAMS
        obs[E.OB_OPENED + i] = st[E.ST_OPENED + t]
        obs[E.OB_SCORES + i] = st[E.ST_SCORES + t]
        for c in range(E.N_MELD_COLS):
            at = c * E.N_KINDS
            copy_words(obs, E.OB_MELDS + i * width + at, st, E.ST_MELDS + t * width + at, E.N_KINDS)
        obs[E.OB_THREES + 2 * i] = st[E.ST_THREES + 2 * t]
        obs[E.OB_THREES + 2 * i + 1] = st[E.ST_THREES + 2 * t + 1]


@njit(cache=True, _nrt=False)
def observe_after_meld(st, p, obs, slot):
    """``observe(st, p, obs)`` when ``obs`` already holds player ``p``'s observation from
    before the meld operation on ``slot`` that p has just made (``apply_action``; the policy
    returned the observation as it found it, ``sim.engine.contract``): only the words such an
    operation changes are copied again (~30 of a heuristic hand's ~73
    observations follow a meld of the same player). A meld operation changes the player's
    hand, the team's meld of ``slot``, the turn's pending melds on ``slot`` (OPEN-1..4) and
    the turn's melded flag, and when the opening then stands the cards aside join the hand
    (PILE-1/2), and the table's memory of the player's own hand (its row of ``known``):
    nothing else seen (the phase, the turn, the pile, the other seats, scores).
    The same words as ``observe`` (tests/test_observe_fastpaths.py, every such step of real
    hands)."""
    obs[E.OB_MELDED] = st[E.ST_MELDED]
    copy_words(obs, E.OB_HAND, st, E.ST_HANDS + p * E.N_KINDS, E.N_KINDS)
    copy_words(obs, E.OB_ASIDE, st, E.ST_ASIDE, E.N_KINDS)
    copy_words(obs, E.OB_KNOWN, st, E.ST_KNOWN + p * E.N_KINDS, E.N_KINDS)
    n = 0
    for k in range(E.N_KINDS):
        n += st[E.ST_HANDS + p * E.N_KINDS + k]
    obs[E.OB_HAND_SIZES] = n
    team = p % E.N_TEAMS
    at = slot * E.N_MELD_COLS
    width = E.N_KINDS * E.N_MELD_COLS
    for c in range(E.N_MELD_COLS):
        obs[E.OB_MELDS + at + c] = st[E.ST_MELDS + team * width + at + c]
        obs[E.OB_PENDING + at + c] = st[E.ST_PENDING + at + c]


@njit(cache=True, _nrt=False)
def observe_table(st, p, obs):
    """``observe`` driven by the table ``SEEN_FIELDS``: the oracle the unrolled ``observe``
    is tested against (tests/test_observe_fastpaths.py, every step of real hands)."""
    for f in range(E.SEEN_FIELDS.shape[0]):  # the fields seen as they are
        o, s = E.SEEN_FIELDS[f, 0], E.SEEN_FIELDS[f, 1]
        for j in range(E.SEEN_FIELDS[f, 2]):
            obs[o + j] = st[s + j]
    _observe_seat(st, p, obs)


@njit(cache=True, _nrt=False)
def bonus_owed(obs):
    """OPEN-5/DEAL-3: a player melding in the opening turn will be owed bonus cards after the
    discard: not after taking the pile, not once the turn card has been drawn."""
    return (
        obs[E.OB_OPENING_TURN] == 1 and obs[E.OB_TOOK_PILE] == 0 and obs[E.OB_TURN_CARD_DRAWN] == 0
    )
