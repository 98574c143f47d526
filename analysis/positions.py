"""Positions of the decision experiments: turn starts of real play, and generated ones.

1. **Sampled.** :func:`sample_positions` steps hands of the strongest fast policy against
   itself (``sim.Hand``) and keeps, at the start of every turn (the draw step), the position
   the player faces (:func:`snapshot`: an ``analysis.whatif.Position`` — its hand, both teams'
   melds, the pile (top and contents), the stock and hand sizes, the scores and the turn — and
   the features the experiments condition on). Laid red threes and the discard history are
   not part of a position: the threes go back among the unseen cards (so sizes add up), the
   same for every choice. One :func:`hand_summary` a hand feeds ``analysis.numbers``.
2. **Chosen.** :func:`choose` draws an experiment's positions among the sampled ones (its
   ``where`` filter, optionally balanced over a feature); :func:`scored` gives them the game
   scores of the spec (``positions.scores``).
3. **Generated.** A spec with ``positions.generate`` (``analysis.specs.GENERATORS``) gets its
   positions from fresh deals instead (:func:`generate_positions`): ``dealt_three``, the
   keep-or-lay decision (DEAL-5) of the first seat of a hand dealt a three while its team
   has not melded.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np

from analysis.specs import ExperimentSpec as Experiment
from sim import encoding as E
from sim.play.table import TableView

__all__ = ["choose", "generate_positions", "scored"]


@functools.cache
def _card_ids() -> tuple[tuple[int, ...], ...]:
    """The card ids of each kind, in id order (made once)."""
    out: list[list[int]] = [[] for _ in range(E.N_KINDS)]
    for c, k in enumerate(E.CARD_KIND.tolist()):
        out[k].append(c)
    return tuple(tuple(ids) for ids in out)


class Snapshot(dict):
    """A turn start's features (a dict, as :func:`snapshot` describes). Its ``position`` key,
    the ``analysis.whatif.Position``, is made from the cards kept with it when first read: a
    sample keeps ~40 turn starts a hand and the experiments play a few hundred of them, and
    a Position costs more to make and to send to a worker than the rest."""

    def __missing__(self, key):
        if key != "position":
            raise KeyError(key)
        self["position"] = pos = _position(*self.cards)
        return pos


_HAND_WORDS = E.N_PLAYERS * E.N_KINDS
_MELD_WORDS = E.N_TEAMS * E.N_KINDS * E.N_MELD_COLS


def _position(p, turn, scores, counts, stock):
    """The ``Position`` of a turn start from its cards by kind as :func:`snapshot` keeps them
    (``counts``: the four hands, both meld tables and the pile's kinds, one byte each): card
    ids assigned in id order, kind by kind."""
    from analysis.whatif import Position

    a = np.frombuffer(counts, dtype=np.int8).tolist()
    hands = [a[i : i + E.N_KINDS] for i in range(0, _HAND_WORDS, E.N_KINDS)]
    flat = a[_HAND_WORDS : _HAND_WORDS + _MELD_WORDS]
    melds = [
        [
            flat[o : o + E.N_MELD_COLS]
            for o in range(t, t + E.N_KINDS * E.N_MELD_COLS, E.N_MELD_COLS)
        ]
        for t in range(0, _MELD_WORDS, E.N_KINDS * E.N_MELD_COLS)
    ]
    pile_kinds = a[_HAND_WORDS + _MELD_WORDS :]
    ids = _card_ids()
    used = [0] * E.N_KINDS

    def take(kind: int, n: int) -> list[int]:
        got = ids[kind][used[kind] : used[kind] + n]
        used[kind] += n
        return list(got)

    own = hands[p]
    hand = [c for k in range(E.N_KINDS) for c in take(k, own[k])]
    fixed = {}
    for t, team_melds in enumerate(melds):
        groups = []
        for slot, (nat, two, joker) in enumerate(team_melds):
            if nat + two + joker:
                natural = take(slot, nat) if slot != E.WILD_MELD else []
                groups.append(np.array(natural + take(E.TWO, two) + take(E.JOKER, joker)))
        if groups:
            fixed[t] = tuple(groups)
    pile = []
    for k in pile_kinds:  # one card at a time, inline (a pile holds up to ~60)
        pile.append(ids[k][used[k]])
        used[k] += 1
    return Position(
        np.array(hand, dtype=np.int64),
        seat=p,
        turn=turn,
        scores=scores,
        melds=fixed,
        pile_top=pile[-1] if pile else -1,
        pile=np.array(pile[:-1], dtype=np.int64),
        pile_size=len(pile_kinds),
        stock=stock,
        hand_sizes=tuple(sum(h) for h in hands),
    )


_MELD_FLAGS = (("sevens", E.SEVEN), ("aces", E.ACE), ("wild", E.WILD_MELD))
#: the kinds of the ranks A, 2, 4 … K (a three is either kind of three; a joker is no rank)
_RANK_KINDS = tuple(k for k in range(E.TWO, E.N_KINDS) if k not in E.THREE_KINDS)


def distinct_ranks(hand) -> int:
    """Ranks A, 2, 3 … K held (counts per kind): a Straight holds all 13 (SPECIAL-3)."""
    threes = int(hand[E.RED_THREE] + hand[E.BLACK_THREE]) > 0
    return int(sum(1 for k in _RANK_KINDS if hand[k] > 0)) + threes


def snapshot(game, special_rules: bool = True, lazy: bool = False) -> Snapshot:
    """The position the current player of ``game`` faces at the start of its turn (the draw
    step), as an ``analysis.whatif.Position`` (key ``position``) and its features. ``lazy``:
    the Position is made when the key is first read (:class:`Snapshot`)."""
    from sim.legality import canastas, is_dead, opening_min
    from sim.policies.builtin import special_targets

    t = TableView(game.state)
    p = t.player
    team = p % E.N_TEAMS
    # writable copies: the kernels below take plain arrays (a read-only one compiles anew)
    hands = np.array(t.hands)
    melds = np.array(t.melds)
    n_pile = t.pile_n
    laid = int(t.threes.sum())
    stock = t.stock_n
    pile_kinds = t.pile_kinds
    scores, opened = t.scores, t.opened
    # the counts as bytes: one object to pickle (lists of lists made a sample's return from
    # a worker slow to unpickle, ~60-90 us a snapshot)
    counts = np.concatenate((hands.ravel(), melds.ravel(), pile_kinds))
    cards = (
        p,
        t.turn,
        (int(scores[0]), int(scores[1])),
        counts.astype(np.int8).tobytes(),
        stock + laid,  # the laid threes rejoin the unseen cards (a Position has no threes)
    )
    h = hands[p]
    need = np.zeros((3, E.N_KINDS), dtype=np.int64)
    distance = min(special_targets(np.ascontiguousarray(h), need[0], need[1], need[2]))
    m = np.ascontiguousarray(melds)
    opp = 1 - team
    sevens_pile = int(np.count_nonzero(pile_kinds == E.SEVEN))
    aces_pile = int(np.count_nonzero(pile_kinds == E.ACE))
    triples = [k for k in range(E.FIRST_NATURAL, E.ACE) if k != E.SEVEN and h[k] >= 3]
    own_score, opp_score = int(scores[team]), int(scores[opp])
    # the team's own melds of sevens, aces and wilds, and the ranks no longer meldable
    flags = {f"{name}_meld": bool(melds[team, k].sum()) for name, k in _MELD_FLAGS}
    flags |= {f"{name}_dead": bool(is_dead(m, k)) for name, k in _MELD_FLAGS[:2]}
    mc = int(opening_min(game.rules, own_score, game.hand_number))
    snap = Snapshot(seat=p, team=team, turn=t.turn, stock=stock, pile=n_pile)
    snap |= {name: int(h[k]) for name, k in (("sevens", E.SEVEN), ("aces", E.ACE))}
    snap |= {
        "wilds": int(h[E.TWO] + h[E.JOKER]),
        "opened": int(opened[team]),
        "canastas": int(canastas(m, team)),
        **flags,
        "can_take": n_pile > 0 and game.reason(E.A_TAKE_PILE) == E.R_OK,
        "special_distance": int(distance) if special_rules else 99,
        "went_out": False,
        # what else a player can count at the table (analysis.specs.FEATURES)
        "hand_size": int(h.sum()),
        "opp_opened": int(opened[opp]),
        "opp_canastas": int(canastas(m, opp)),
        "sevens_pile": sevens_pile,
        "aces_pile": aces_pile,
        "sevens_gone": sevens_pile + int(melds[opp, E.SEVEN, 0]),
        "aces_gone": aces_pile + int(melds[opp, E.ACE, 0]),
        "natural_triple": int(bool(triples)),
        "natural_six": int(
            any(
                melds[team, k, 0] == 6 and not melds[team, k, 1:].sum()
                for k in range(E.FIRST_NATURAL, E.ACE)
                if k != E.SEVEN
            )
        ),
        "margin": own_score - opp_score,
        "min_meld": mc,
        "distinct_ranks": distinct_ranks(h),
        "can_open_now": int(not opened[team] and _can_open(h, m, team, game, mc)),
        "points_in_hand": int(np.dot(h, E.KIND_VALUE)),
        "turn_card_drawn": t.turn_card_drawn,
        "other_team_opened": int(opened[opp]),
    }
    snap.cards = cards
    if not lazy:
        snap["position"] = _position(*cards)
    return snap


def _can_open(hand, melds, team: int, game, mc: int) -> bool:
    """OPEN-1..4: does the hand alone make a legal opening now, keeping a card to discard
    (the engine's opening search, no pile card)?"""
    from sim.legality import opening_count_bound, opening_search_alloc

    own = np.ascontiguousarray(melds[[team, 1 - team]])
    hand = np.ascontiguousarray(hand, dtype=np.int64)
    pending = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    if opening_count_bound(hand, pending, own, game.rules) < mc:
        return False
    plan = np.zeros((E.N_KINDS, E.N_MELD_COLS), dtype=np.int64)
    return opening_search_alloc(hand, pending, own, -1, 0, game.rules, plan) >= mc


def sample_positions(
    hands: int,
    seed: int = 0,
    policy: str | None = None,
    ruleset=None,
    n_jobs: int = 1,
    summaries: list | None = None,
) -> list[Snapshot]:
    """Snapshots of every turn start of ``hands`` hands of ``policy`` (default the strongest
    fast one) against itself; hand ``h`` is ``sim.Hand(seed, hand_id=h)``. Each snapshot's
    ``hand`` is h and ``went_out`` is set when the player went out (not by a special hand)
    in that turn. ``n_jobs``: blocks of hands in parallel (``sim.runner.parallel_map``); the
    snapshots are the same, in the same order, for any number. Their Positions are made when
    read (:class:`Snapshot`): sent back from a worker as Positions, ~40 a hand at ~0.1 ms
    each, they had cost more than the play. ``summaries``: a list that gets one
    :func:`hand_summary` per hand, in hand order."""
    from sim.policies.registry import parse, strongest_fast
    from sim.ruleset import as_ruleset
    from sim.runner import check_jobs, parallel_map

    n_jobs = check_jobs(n_jobs)
    name = policy or strongest_fast()
    parse(name)  # an unknown policy or a bad ruleset is refused here, not in a worker
    ruleset = as_ruleset(ruleset)
    block = max(1, -(-hands // (4 * n_jobs)))  # a few blocks a worker: even finishing times
    tasks = [(range(b, min(b + block, hands)), seed, name, ruleset) for b in range(0, hands, block)]
    parts = list(parallel_map(_sample_hands, tasks, n_jobs))
    if summaries is not None:
        summaries.extend(row for _, rows in parts for row in rows)
    return [snap for part, _ in parts for snap in part]


def hand_summary(g, h: int, first_take: tuple[int, int]) -> dict:
    """What a played hand shows a table (``analysis.numbers``): its score items per team, the
    canastas of each kind, the special hand, and the first pickup of the pile (team, size)."""
    table = TableView(g.state)
    items = g.score_items()
    melds = table.melds
    row = {
        "hand": h,
        "turns": table.turn,
        "end_reason": g.end_reason,
        "out_team": g.out_team,
        "special": g.special_hand[0],
        "special_team": g.special_hand[1],
        "first_take_team": first_take[0],
        "first_take_size": first_take[1],
    }
    for t in range(E.N_TEAMS):
        for i, name in enumerate(E.SCORE_ITEMS):
            row[f"team{t}_{name}"] = int(items[t, i])
        row[f"team{t}_score"] = int(items[t].sum())
        kinds = dict.fromkeys(("natural", "mixed", "sevens", "aces", "wild"), 0)
        for k in range(E.N_KINDS):
            nat, two, joker = (int(x) for x in melds[t, k])
            if nat + two + joker < E.CANASTA:
                continue
            if k == E.WILD_MELD:
                kinds["wild"] += 1
            elif k in (E.SEVEN, E.ACE):
                kinds["sevens" if k == E.SEVEN else "aces"] += 1
            else:
                kinds["natural" if two + joker == 0 else "mixed"] += 1
        for kind, n in kinds.items():
            row[f"team{t}_canasta_{kind}"] = n
    return row


def _sample_hands(hand_ids: range, seed: int, policy: str, ruleset):
    """:func:`sample_positions` of the hands ``hand_ids``, in this process (``ruleset``: a
    ``Ruleset``, as :func:`sample_positions` made it)."""
    from sim.play import Hand, seat_policies

    specials = ruleset.to_array()[E.RS_CATALOGUE_N] > 0  # SPECIAL-7: a list in force
    seats = seat_policies([policy])  # resolved once for every hand
    out, summaries = [], []
    for h in hand_ids:
        g = Hand(seed=seed, hand_id=h, rules=ruleset)
        last_turn, current, first_take = -1, None, (-1, 0)
        for t in g.turns(seats):  # each turn met before its action is applied
            v = g.view(t.seat)
            if v.phase == E.PH_DRAW and v.turn != last_turn:
                last_turn = v.turn
                if v.stock_n > 0:
                    current = snapshot(g, specials, lazy=True)
                    current["hand"] = h
                    out.append(current)
                else:
                    current = None
            if t.action == E.A_TAKE_PILE and first_take[0] < 0:
                first_take = (t.seat % E.N_TEAMS, v.pile_n)
        summaries.append(hand_summary(g, h, first_take))
        went = g.out_team
        if current is not None and went == current["team"] and g.special_hand[1] < 0:
            current["went_out"] = int(g.state[E.ST_PLAYER]) == current["seat"]
    return out, summaries


def choose(snaps: Sequence[dict], exp: Experiment, positions: int, seed: int) -> list[dict]:
    """Up to ``positions`` snapshots where ``exp``'s decision arises, drawn at random."""
    pool = [s for s in snaps if exp.select(s)]
    rng = np.random.default_rng([seed, exp.number])
    order = rng.permutation(len(pool))
    if not exp.balance:
        return [pool[i] for i in order[:positions]]
    # positions.balance: taken in turn from each value of the feature (rare values get their
    # share while they last), each value's positions in the random order
    groups: dict[int, list[int]] = {}
    for i in order:
        groups.setdefault(int(pool[i][exp.balance]), []).append(i)
    queues = [groups[v] for v in sorted(groups)]
    out: list[int] = []
    while len(out) < min(positions, len(pool)):
        for q in queues:
            if q and len(out) < positions:
                out.append(q.pop(0))
    return [pool[i] for i in out]


def scored(snap: Snapshot, exp: Experiment, i: int) -> Snapshot:
    """Position ``i`` of ``exp`` with the game scores of its spec given in turn
    (``positions.scores``: a generator of positions over the sampled ones); as is without."""
    if not exp.scores:
        return snap
    from sim.legality import opening_min
    from sim.ruleset import DEFAULT_RULESET

    team = snap["team"]
    mine, theirs = exp.scores[i % len(exp.scores)]
    scores = (mine, theirs) if team == 0 else (theirs, mine)
    out = Snapshot({k: v for k, v in snap.items() if k != "position"})
    out.cards = (*snap.cards[:2], scores, *snap.cards[3:])
    out["margin"], out["min_meld"] = (
        mine - theirs,
        int(opening_min(DEFAULT_RULESET.to_array(), mine)),
    )
    return out


#: hand ids of generated deals start here (past any sample of real play: distinct deals)
GENERATED_HANDS = 1 << 40


def generate_positions(
    exp: Experiment, positions: int, seed: int, policy: str, ruleset=None
) -> list[Snapshot]:
    """Up to ``positions`` positions of ``exp``'s generator (``positions.generate``,
    ``analysis.specs.GENERATORS``) passing its ``where``, from fresh deals: deal ``h`` is
    ``sim.Hand(seed, hand_id=GENERATED_HANDS + exp.number * 2**20 + h)``, played by ``policy``
    up to the position; at most ``20 * positions + 100`` deals are tried. In this process (the
    deals are short): the same positions, in the same order, for any number of jobs.

    ``dealt_three``: the first seat of the hand's first round whose turn starts with the
    keep-or-lay decision of DEAL-5 (a three dealt while its team has not melded). Its
    position keeps the three in hand: replayed, the turn starts at the same decision."""
    from sim.play import Hand, seat_policies
    from sim.ruleset import as_ruleset

    if exp.generate != "dealt_three":
        raise ValueError(f"unknown position generator {exp.generate!r}")
    ruleset = as_ruleset(ruleset)
    specials = ruleset.to_array()[E.RS_CATALOGUE_N] > 0  # SPECIAL-7: a list in force
    seats = seat_policies([policy])  # resolved once for every deal
    base = GENERATED_HANDS + exp.number * 2**20
    out: list[Snapshot] = []
    for h in range(20 * positions + 100):
        if len(out) >= positions:
            break
        g = Hand(seed=seed, hand_id=base + h, rules=ruleset)
        for _ in g.turns(seats):
            if g.turn >= E.N_PLAYERS:
                break
            if g.phase == "threes" and g.resume_phase == "draw":  # DEAL-5 at a turn's start
                snap = snapshot(g, specials, lazy=True)
                snap["hand"] = h
                if exp.select(snap):
                    out.append(snap)
                break
    return out
