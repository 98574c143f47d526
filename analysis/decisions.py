"""Decision experiments: real positions, each choice played forward on the same deals.

1. **Positions.** Hands of the strongest fast policy against itself (``sim.policies.
   strongest_fast()``) are stepped turn by turn (``sim.Game``). At the start of every turn (the
   draw step) the position the player faces is kept as an ``analysis.whatif.Position`` — its
   hand, both teams' melds, the pile (top and contents), the stock and hand sizes, the scores
   and the turn — with the features the experiments condition on (sevens, aces and wilds held,
   stock left, turn, pile size, team opened, cards from a special hand, whether the player went
   out in that turn). Laid red threes and the discard history are not part of a position: the
   threes go back among the unseen cards (so sizes add up), the same for every choice.
2. **Choices, paired.** Each experiment (``EXPERIMENTS``) has two arms: a what-if choice of
   ``sim.engine.position.CHOICES`` and the policies the two teams play for the rest of the
   hand. Both arms replay a position on the same ``deals`` deals of its unseen cards (the deal
   depends only on the seed and the deal number, ``sim.play_position``), so the per-deal
   difference of the player's team's **net points** (own minus opponents' in the hand) is
   paired. Deals where the rules refused an arm's forced choice (the record's ``applied``) are
   left out of that position's difference, for both arms (the deal decides it, not the arm).
3. **Situations, intervals.** A position's effect is the mean paired difference over its deals.
   Positions taken from the same sampled hand are not independent, so the unit is the sampled
   hand: a situation's estimate is the mean over sampled hands (each hand: the mean of its
   positions in the situation) with the normal interval over hands. Its two-sided p-value is
   Student's t with (hands − 1) degrees of freedom (few hands: the normal law would understate
   the tails); fewer than ``MIN_HANDS`` hands: not tested. The p-values of every row of every
   table are adjusted together by Holm's step-down method (family-wise error rate 5%,
   ``analysis.multiple``). A row's verdict is the arm its adjusted p-value (≤ 0.05) and sign
   favour, else "no clear difference".
4. **Rules of thumb** (:func:`rules_of_thumb`): one sentence per experiment and grouping,
   generated from the table's rows (direction from the verdicts, numbers from the intervals).

Readings where the issue leaves room: "go out now or keep playing" compares the strongest
policy going out (as it did in the sampled hand) with ``stay_in`` (the going-out meld refused,
a discard instead), over the replayed deals where the policy again went out; "chase a special
hand" is the player's team playing ``special_chaser`` for the rest of the hand against the
team playing the strongest policy, from positions where the team has not opened and the hand
is 1–3 cards from a Straight, Pairs or Garbage (``special_chaser``'s own count).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis import multiple, specs
from sim import encoding as E

ALPHA = 0.05  #: family-wise error rate of the Holm correction
MIN_HANDS = 5  #: a situation with fewer sampled hands is shown but not tested
CORRECTION = "holm"
STRONG = "strong"  #: placeholder in an arm: the strongest fast policy of the registry


# ---------------------------------------------------------------------------------------
# What is tested: the spec files of the ``experiments`` package (``analysis.specs``)
# ---------------------------------------------------------------------------------------
Grouping = specs.GroupingSpec
Experiment = specs.ExperimentSpec
EXPERIMENTS: tuple[Experiment, ...] = specs.builtin()
BY_KEY = {e.key: e for e in EXPERIMENTS}


# ---------------------------------------------------------------------------------------
# Positions from real play
# ---------------------------------------------------------------------------------------
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
    a Position costs more to make and to send to a worker than the rest (issue 12)."""

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


def snapshot(game, special_rules: bool = True, lazy: bool = False) -> Snapshot:
    """The position the current player of ``game`` faces at the start of its turn (the draw
    step), as an ``analysis.whatif.Position`` (key ``position``) and its features. ``lazy``:
    the Position is made when the key is first read (:class:`Snapshot`)."""
    from sim.legality import canastas, is_dead, opening_min
    from sim.policies.builtin import special_targets

    st = game.state
    p = int(st[E.ST_PLAYER])
    team = p % E.N_TEAMS
    hands = st[E.ST_HANDS : E.ST_HANDS + E.N_PLAYERS * E.N_KINDS].reshape(E.N_PLAYERS, E.N_KINDS)
    melds = st[E.ST_MELDS : E.ST_MELDS + E.N_TEAMS * E.N_KINDS * E.N_MELD_COLS].reshape(
        E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS
    )
    n_pile = int(st[E.ST_PILE_N])
    laid = int(st[E.ST_THREES : E.ST_THREES + 2 * E.N_TEAMS].sum())
    stock = int(st[E.ST_STOCK_N])
    # the counts as bytes: one object to pickle (lists of lists made a sample's return from
    # a worker slow to unpickle, ~60-90 us a snapshot)
    counts = np.concatenate((hands.ravel(), melds.ravel(), st[E.ST_PILE : E.ST_PILE + n_pile]))
    cards = (
        p,
        int(st[E.ST_TURN]),
        (int(st[E.ST_SCORES]), int(st[E.ST_SCORES + 1])),
        counts.astype(np.int8).tobytes(),
        stock + laid,  # the laid threes rejoin the unseen cards (a Position has no threes)
    )
    h = hands[p]
    need = np.zeros((3, E.N_KINDS), dtype=np.int64)
    distance = min(special_targets(np.ascontiguousarray(h), need[0], need[1], need[2]))
    m = np.ascontiguousarray(melds)
    opp = 1 - team
    pile_kinds = st[E.ST_PILE : E.ST_PILE + n_pile]
    sevens_pile = int(np.count_nonzero(pile_kinds == E.SEVEN))
    aces_pile = int(np.count_nonzero(pile_kinds == E.ACE))
    triples = [k for k in range(E.FIRST_NATURAL, E.ACE) if k != E.SEVEN and h[k] >= 3]
    own_score, opp_score = int(st[E.ST_SCORES + team]), int(st[E.ST_SCORES + opp])
    snap = Snapshot(
        {
            "seat": p,
            "team": team,
            "turn": int(st[E.ST_TURN]),
            "stock": stock,
            "pile": n_pile,
            "sevens": int(h[E.SEVEN]),
            "aces": int(h[E.ACE]),
            "wilds": int(h[E.TWO] + h[E.JOKER]),
            "opened": int(st[E.ST_OPENED + team]),
            "canastas": int(canastas(m, team)),
            "sevens_meld": bool(melds[team, E.SEVEN].sum()),
            "aces_meld": bool(melds[team, E.ACE].sum()),
            "wild_meld": bool(melds[team, E.WILD_MELD].sum()),
            "sevens_dead": bool(is_dead(m, E.SEVEN)),
            "aces_dead": bool(is_dead(m, E.ACE)),
            "can_take": n_pile > 0 and game.reason(E.A_TAKE_PILE) == E.R_OK,
            "special_distance": int(distance) if special_rules else 99,
            "went_out": False,
            # what else a player can count at the table (analysis.specs.FEATURES)
            "hand_size": int(h.sum()),
            "opp_opened": int(st[E.ST_OPENED + opp]),
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
            "min_meld": int(opening_min(game.rules, own_score, game.hand_number)),
        }
    )
    snap.cards = cards
    if not lazy:
        snap["position"] = _position(*cards)
    return snap


def sample_positions(
    hands: int,
    seed: int = 0,
    policy: str | None = None,
    ruleset=None,
    n_jobs: int = 1,
    summaries: list | None = None,
) -> list[Snapshot]:
    """Snapshots of every turn start of ``hands`` hands of ``policy`` (default the strongest
    fast one) against itself; hand ``h`` is ``sim.Game(seed, hand_id=h)``. Each snapshot's
    ``hand`` is h and ``went_out`` is set when the player went out (not by a special hand)
    in that turn. ``n_jobs``: blocks of hands in parallel (``sim.runner.parallel_map``); the
    snapshots are the same, in the same order, for any number. Their Positions are made when
    read (:class:`Snapshot`): sent back from a worker as Positions, ~40 a hand at ~0.1 ms
    each, they had cost more than the play (issue 12). ``summaries``: a list that gets one
    :func:`hand_summary` per hand, in hand order."""
    from sim.policies.registry import parse, strongest_fast
    from sim.ruleset import as_ruleset
    from sim.runner import check_jobs, parallel_map

    n_jobs = check_jobs(n_jobs)
    name = policy or strongest_fast()
    parse(name)  # an unknown policy or a bad ruleset is refused here, not in a worker
    ruleset = as_ruleset(ruleset)
    block = max(1, -(-hands // (4 * n_jobs)))  # a few blocks a worker: even finishing times
    tasks = [(range(b, min(b + block, hands)), seed, name, ruleset)
             for b in range(0, hands, block)]  # fmt: skip
    parts = list(parallel_map(_sample_hands, tasks, n_jobs))
    if summaries is not None:
        summaries.extend(row for _, rows in parts for row in rows)
    return [snap for part, _ in parts for snap in part]


def hand_summary(g, h: int, first_take: tuple[int, int]) -> dict:
    """What a played hand shows a table (``analysis.numbers``): its score items per team, the
    canastas of each kind, the special hand, and the first pickup of the pile (team, size)."""
    st = g.state
    items = g.score_items()
    melds = st[E.ST_MELDS : E.ST_MELDS + E.N_TEAMS * E.N_KINDS * E.N_MELD_COLS].reshape(
        E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS
    )
    row = {"hand": h, "turns": int(st[E.ST_TURN]), "end_reason": g.end_reason,
           "out_team": g.out_team, "special": g.special_hand[0],
           "special_team": g.special_hand[1], "first_take_team": first_take[0],
           "first_take_size": first_take[1]}  # fmt: skip
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
    import sim
    from sim.engine.judge import forced_action
    from sim.policies.registry import parse

    specials = ruleset.to_array()[E.RS_CATALOGUE_N] > 0  # SPECIAL-7: a list in force
    spec, params, _ = parse(policy)
    out, summaries = [], []
    for h in hand_ids:
        g = sim.Game(seed=seed, hand_id=h, rules=ruleset)
        last_turn, current, first_take = -1, None, (-1, 0)
        while not g.is_over:
            st = g.state
            if int(st[E.ST_PHASE]) == E.PH_DRAW and int(st[E.ST_TURN]) != last_turn:
                last_turn = int(st[E.ST_TURN])
                if int(st[E.ST_STOCK_N]) > 0:
                    current = snapshot(g, specials, lazy=True)
                    current["hand"] = h
                    out.append(current)
                else:
                    current = None
            obs = g.observation()  # one for both: Game.policy_action would observe again
            a = int(forced_action(obs))
            a = a if a >= 0 else g.decide(spec, params, obs)
            if a == E.A_TAKE_PILE and first_take[0] < 0:
                first_take = (int(st[E.ST_PLAYER]) % E.N_TEAMS, int(st[E.ST_PILE_N]))
            g.apply(a)
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


# ---------------------------------------------------------------------------------------
# Playing the arms
# ---------------------------------------------------------------------------------------
def _policies(team: int, arm_policy: str, strong: str) -> tuple[str, str]:
    mine = strong if arm_policy == STRONG else arm_policy
    return (mine, strong) if team == 0 else (strong, mine)


def position_seed(seed: int, exp: Experiment, i: int) -> int:
    """The seed of position ``i`` of ``exp``: both arms use it (paired deals)."""
    return (seed * 1_000_003 + exp.number * 10_007 + i) % (2**31)


def play_arms(
    snap: dict,
    exp: Experiment,
    deals: int,
    seed: int,
    strong: str,
    ruleset=None,
    play: Callable | None = None,
) -> dict:
    """Both arms of ``exp`` at one position on the same ``deals`` deals: the mean paired
    difference of net points (A − B) over the deals where the conditioned choices were made.
    Without ``play`` the engine's arrays (``sim.api.position_outcomes``) are read; with it,
    the records ``play`` returns (``analysis.whatif.resolve_play``): the same rows."""
    from analysis.whatif import resolve_play

    pos, team = snap["position"], snap["team"]
    nets, applied = [], []
    if exp.scripts:
        return _play_scripts(snap, exp, deals, seed, strong, ruleset)
    for choice, arm_policy in exp.arms:
        policies = _policies(team, arm_policy, strong)
        if play is None:  # the engine's arrays: no records frame to build and sort
            from sim.api import position_outcomes

            scores, done = position_outcomes(deals, pos, choice, seed=seed, policies=policies,
                                             ruleset=ruleset)  # fmt: skip
            nets.append(_outcome(exp.outcome, scores[:, team], scores[:, 1 - team]))
            applied.append(done)
            continue
        rec = resolve_play(play)(deals, pos, choice, seed=seed, policies=policies,
                                 ruleset=ruleset).sort_values("hand_id")  # fmt: skip
        own, opp = rec[f"score_team{team}"], rec[f"score_team{1 - team}"]
        nets.append(_outcome(exp.outcome, own.to_numpy(), opp.to_numpy()))
        applied.append(rec["applied"].to_numpy(dtype=bool))
    mask = np.ones(deals, dtype=bool)
    for k in exp.conditioned:
        mask &= applied[k]
    diff = nets[0] - nets[1]
    used = int(mask.sum())
    return {
        "diff": float(diff[mask].mean()) if used else float("nan"),
        "net_a": float(nets[0][mask].mean()) if used else float("nan"),
        "net_b": float(nets[1][mask].mean()) if used else float("nan"),
        "deals": used,
        "applied": used / deals,
    }


def script_actions(snap: dict, steps: Sequence[str]) -> list[int] | None:
    """The action ids of a scripted arm's ``steps`` (``analysis.specs.SCRIPT_STEPS``) at
    ``snap``'s position, from the player's hand and the team's melds; None if a step has no
    card to act on here."""
    pos, team = snap["position"], snap["team"]
    held = np.bincount(E.CARD_KIND[pos.hand], minlength=E.N_KINDS)
    melded = np.zeros((E.N_KINDS, 3), dtype=np.int64)
    for group in pos.melds.get(team, ()):
        kinds = E.CARD_KIND[np.asarray(group)]
        nat = [k for k in kinds.tolist() if k not in (E.TWO, E.JOKER)]
        slot = nat[0] if nat else E.WILD_MELD
        melded[slot] += (len(nat), int(np.sum(kinds == E.TWO)), int(np.sum(kinds == E.JOKER)))
    plain = [k for k in range(E.FIRST_NATURAL, E.ACE) if k != E.SEVEN]
    out = []
    for step in steps:
        a = -1
        if step == "draw":
            a = E.A_DRAW
        elif step in ("discard seven", "discard ace"):
            k = E.SEVEN if step == "discard seven" else E.ACE
            a = E.A_DISCARD + k if held[k] else -1
        elif step == "discard other":
            have = [k for k in plain if held[k]]
            if have:
                a = E.A_DISCARD + min(have, key=lambda k: (held[k], E.KIND_VALUE[k], k))
        elif step == "meld triple":
            have = [k for k in plain if held[k] >= 3 and not melded[k].sum()]
            if have:
                a = int(E.MELD_ACTION[max(have, key=lambda k: (held[k], k)), 3, 0, 0])
        elif step == "add wild":
            six = [k for k in plain if melded[k, 0] == 6 and not melded[k, 1:].sum()]
            if six and held[E.TWO] + held[E.JOKER]:
                two = 1 if held[E.TWO] else 0
                a = int(E.MELD_ACTION[six[0], 0, two, 1 - two])
        if a < 0:
            return None
        out.append(a)
    return out


def _play_scripts(snap, exp, deals, seed, strong, ruleset) -> dict:
    """``play_arms`` for scripted arms: both scripts on the same deals (``sim.play_script``,
    one row per deal and script); only deals where every step of both was made count."""
    from sim.api import play_script
    from sim.engine.intercept import NO_ACTION

    team = snap["team"]
    rows = [script_actions(snap, s) for s in exp.scripts]
    if any(r is None for r in rows):
        return {"diff": np.nan, "net_a": np.nan, "net_b": np.nan, "deals": 0, "applied": 0.0}
    width = max(1, *(len(r) for r in rows))
    scripts = np.full((2, width), NO_ACTION, dtype=np.int64)
    for i, r in enumerate(rows):
        scripts[i, : len(r)] = r
    policies = _policies(team, exp.arms[0][1], strong)
    rec = play_script(deals, snap["position"], scripts, seed=seed, policies=policies,
                      ruleset=ruleset).sort_values(["hand_id", "script"])  # fmt: skip
    own = rec[f"score_team{team}"].to_numpy().reshape(deals, 2)
    opp = rec[f"score_team{1 - team}"].to_numpy().reshape(deals, 2)
    done = rec["applied"].to_numpy(dtype=bool).reshape(deals, 2)
    nets = [_outcome(exp.outcome, own[:, i], opp[:, i]) for i in range(2)]
    mask = np.ones(deals, dtype=bool)
    for k in exp.conditioned:
        mask &= done[:, k]
    diff = nets[0] - nets[1]
    used = int(mask.sum())
    return {
        "diff": float(diff[mask].mean()) if used else float("nan"),
        "net_a": float(nets[0][mask].mean()) if used else float("nan"),
        "net_b": float(nets[1][mask].mean()) if used else float("nan"),
        "deals": used,
        "applied": used / deals,
    }


def _outcome(name: str, own, opp) -> np.ndarray:
    """The spec's outcome column per deal (``analysis.specs.OUTCOMES``)."""
    x = {"net": lambda: own - opp, "own": lambda: own, "opp": lambda: opp}[name]()
    return np.asarray(x, dtype=np.float64)


def _play_arms_task(snap, exp, deals, seed, strong, ruleset, play) -> dict:
    """:func:`play_arms` for a worker (the experiment is data: its spec travels)."""
    return play_arms(snap, exp, deals, seed, strong, ruleset, play)


def resolve(experiments) -> list[Experiment]:
    """Experiments by key (the report's, ``BY_KEY``) or as specs (``analysis.specs``)."""
    out = []
    for e in experiments:
        if isinstance(e, Experiment):
            out.append(e)
        elif e in BY_KEY:
            out.append(BY_KEY[e])
        else:
            raise specs.SpecError(f"unknown experiment {e!r}: choose from {', '.join(BY_KEY)}")
    keys = [e.key for e in out]
    if len(set(keys)) != len(keys):
        raise specs.SpecError(f"experiments: a key is repeated ({', '.join(keys)})")
    return out


def experiments_of(raw: pd.DataFrame) -> list[Experiment]:
    """The experiments of :func:`run_experiments` rows, in the order they were run."""
    known = raw.attrs.get("specs") or {}
    out = []
    for key in dict.fromkeys(raw["experiment"]) if len(raw) else ():
        exp = known.get(key) or BY_KEY.get(key)
        if exp is None:
            raise specs.SpecError(f"rows of experiment {key!r}, whose spec is unknown")
        out.append(exp)
    return out


FEATURES = ("turn", "stock", "pile", "sevens", "aces", "wilds", "opened", "special_distance",
            "hand_size", "opp_opened", "canastas", "opp_canastas", "sevens_pile", "aces_pile",
            "sevens_gone", "aces_gone", "natural_triple", "natural_six", "margin",
            "min_meld")  # fmt: skip


def run_experiments(
    positions: int,
    deals: int,
    seed: int = 0,
    ruleset=None,
    policy: str | None = None,
    sample_hands: int | None = None,
    experiments: Sequence[str] | None = None,
    play: Callable | None = None,
    progress: Callable[[str], None] | None = None,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Every experiment at up to ``positions`` positions, ``deals`` paired deals each: one
    row per (experiment, position) with its features, hand and mean paired difference.
    ``n_jobs``: the sampling of positions and the positions' arms in parallel
    (``sim.runner.parallel_map``); every hand and every position has its own seed, so the rows
    are the same for any number."""
    from sim.policies.registry import strongest_fast
    from sim.runner import check_jobs, parallel_map
    from sim.validate import check_count, check_seed

    positions = check_count("positions per experiment", positions, 100_000, low=1)
    deals = check_count("deals per position", deals, 1_000_000, low=2)
    seed = check_seed(seed)
    n_jobs = check_jobs(n_jobs)
    strong = policy or strongest_fast()
    chosen = resolve(experiments) if experiments else list(EXPERIMENTS)
    n_hands = sample_hands or max(100, 6 * positions)
    if progress:
        progress(f"decision experiments: sampling positions from {n_hands:,} hands of {strong}")
    summaries: list[dict] = []
    snaps = sample_positions(n_hands, seed, strong, ruleset, n_jobs, summaries)
    rows = []
    for exp in chosen:
        picked = [scored(s, exp, i) for i, s in enumerate(choose(snaps, exp, positions, seed))]
        if progress:
            progress(f"decision experiment {exp.key}: {len(picked)} positions × {deals} deals × 2")
        tasks = [(snap, exp, deals, position_seed(seed, exp, i), strong, ruleset, play)
                 for i, snap in enumerate(picked)]  # fmt: skip
        for snap, r in zip(picked, parallel_map(_play_arms_task, tasks, n_jobs), strict=True):
            rows.append({"experiment": exp.key, "hand": snap["hand"], "seat": snap["seat"],
                         **{f: snap[f] for f in FEATURES}, **r})  # fmt: skip
    cols = ["experiment", "hand", "seat", *FEATURES, "diff", "net_a", "net_b", "deals", "applied"]
    out = pd.DataFrame(rows, columns=cols)
    out.attrs |= {"policy": strong, "deals": deals, "positions": positions, "seed": seed,
                  "sample_hands": n_hands, "specs": {e.key: e for e in chosen},
                  "hands": summaries}  # fmt: skip
    return out


# ---------------------------------------------------------------------------------------
# Tables: situations with intervals, Holm across all of them
# ---------------------------------------------------------------------------------------
TABLE_COLUMNS = (
    "grouping",
    "situation",
    "low",
    "positions",
    "hands",
    "deals",
    "applied",
    "net_a",
    "net_b",
    "estimate",
    "ci_low",
    "ci_high",
    "se",
    "p",
    "p_adj",
    "verdict",
    "better",
)


def _situation(part: pd.DataFrame, confidence: float) -> dict:
    """Mean over sampled hands of the hand's mean difference (a hand is the unit)."""
    part = part[np.isfinite(part["diff"])]
    per_hand = part.groupby("hand")[["diff", "net_a", "net_b"]].mean()
    e = iv.mean(per_hand["diff"], confidence)
    return {
        "positions": len(part),
        "hands": len(per_hand),
        "deals": int(part["deals"].sum()),
        "applied": float(part["applied"].mean()) if len(part) else float("nan"),
        "net_a": float(per_hand["net_a"].mean()) if len(part) else float("nan"),
        "net_b": float(per_hand["net_b"].mean()) if len(part) else float("nan"),
        "estimate": e.estimate,
        "ci_low": e.ci_low,
        "ci_high": e.ci_high,
        "se": e.se,
    }


def tables(
    raw: pd.DataFrame,
    confidence: float = iv.CONFIDENCE,
    correction: str = CORRECTION,
    alpha: float = ALPHA,
    experiments=None,
) -> dict[str, pd.DataFrame]:
    """One table per experiment (``decision_<key>``): an ``all`` row, then a row per situation
    of each grouping; p-values adjusted across every row of every table. ``experiments``
    (keys or specs): default those of the rows (:func:`experiments_of`)."""
    chosen = experiments_of(raw) if experiments is None else resolve(experiments)
    hands = raw.attrs.get("hands")
    raw = raw.copy(deep=False)
    raw.attrs = {}  # every filtered copy would deep-copy the hand summaries
    out = {}
    by_table = {}
    for exp in chosen:
        by_table[exp.table] = exp
        part = raw[raw["experiment"] == exp.key]
        if part.empty:
            continue
        rows = [{"grouping": "all", "situation": "all positions", "low": 0,
                 **_situation(part, confidence)}]  # fmt: skip
        for g in exp.groupings:
            for low, high, label in g.bins:
                sel = part[(part[g.feature] >= low) & (part[g.feature] <= high)]
                rows.append({"grouping": g.key, "situation": label, "low": low,
                             **_situation(sel, confidence)})  # fmt: skip
        out[exp.table] = pd.DataFrame(rows)
    pickup = None
    if hands:  # claim G's statistic joins the family: one correction across the report
        from analysis.numbers import first_pickup

        pickup = first_pickup(pd.DataFrame(hands))
    if not out and pickup is None:
        return out
    parts = [_p_values(t) for t in out.values()]
    if pickup is not None:
        parts.append(pickup["p"].to_numpy(dtype=np.float64))
    p_all = np.concatenate(parts)
    adj = multiple.adjust(p_all, correction)
    i = 0
    method = multiple.METHODS[correction]
    family = f"{method}, alpha {alpha:g}, across {len(p_all)} situations"
    if pickup is not None:
        n = len(pickup)
        pickup["p_adj"] = adj[len(p_all) - n :]
        pickup["verdict"] = verdicts(pickup["estimate"] - 0.5, pickup["p_adj"], alpha)
        said = {1: "the first-pickup team wins more", -1: "the other team wins more"}
        pickup["better"] = [said.get(int(x), "no clear difference") for x in pickup["verdict"]]
        pickup.attrs["correction"] = family
    for key, t in out.items():
        n = len(t)
        t["p"], t["p_adj"] = p_all[i : i + n], adj[i : i + n]
        i += n
        t["verdict"] = verdicts(t["estimate"], t["p_adj"], alpha)
        exp = by_table[key]
        t["better"] = [{1: exp.do, -1: exp.dont}.get(int(x), "no clear difference")
                       for x in t["verdict"]]  # fmt: skip
        t.attrs["interval"] = f"{iv.statement(iv.NORMAL, confidence)} over sampled hands"
        t.attrs["correction"] = family
        out[key] = t[list(TABLE_COLUMNS)]
        out[key].attrs.update(t.attrs)
    if pickup is not None:
        out["first_pickup"] = pickup
    return out


def _p_values(t: pd.DataFrame) -> np.ndarray:
    """Student's t p-values with (hands − 1) degrees of freedom; untested (NaN) below
    ``MIN_HANDS`` hands: too few for the spread to be judged."""
    p = multiple.t_p(t["estimate"], t["se"], t["hands"] - 1)
    p[t["hands"].to_numpy() < MIN_HANDS] = np.nan
    return p


def verdicts(estimate, p_adj, alpha: float = ALPHA) -> np.ndarray:
    """+1 (arm A better), −1 (arm B better) where the adjusted p-value is at most ``alpha``;
    0 (no clear difference) elsewhere, and where there is nothing to test."""
    est = np.asarray(estimate, dtype=np.float64)
    p = np.asarray(p_adj, dtype=np.float64)
    sig = np.isfinite(p) & (p <= alpha)
    return np.where(sig, np.sign(est), 0).astype(np.int64)


# ---------------------------------------------------------------------------------------
# Rules of thumb
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    text: str  #: the rule itself, with the pooled estimate and interval it rests on
    detail: str  #: every situation's estimate and interval, in words
    table: str  #: the table key it is read from
    experiment: str
    grouping: str
    verdicts: tuple[int, ...]  #: the situations' verdicts, in order


def _pts(x: float) -> str:
    return f"{x:+,.0f}".replace("-", "−")


def _ci(r) -> str:
    if not (np.isfinite(r["ci_low"]) and np.isfinite(r["ci_high"])):
        return f"[no interval: {int(r['hands'])} hand]"
    lo, hi = (f"{v:,.0f}".replace("-", "−") for v in (r["ci_low"], r["ci_high"]))
    return f"[{lo}, {hi}]"


def _pooled(rows: pd.DataFrame) -> tuple[float, float, float]:
    """The hand-weighted mean of independent situations and its normal interval."""
    w = rows["hands"].to_numpy(dtype=np.float64)
    w = w / w.sum()
    est = float(np.sum(w * rows["estimate"]))
    se = float(np.sqrt(np.sum((w * rows["se"]) ** 2)))
    z = iv.z_value(iv.CONFIDENCE)
    return est, est - z * se, est + z * se


def rule_of_thumb(exp: Experiment, grouping: Grouping, table: pd.DataFrame) -> Rule:
    """One sentence from the rows of ``grouping`` in ``exp``'s table: which arm to choose in
    which situations (decided by the adjusted verdicts), with the estimates and intervals."""
    rows = table[table["grouping"] == grouping.key].reset_index(drop=True)
    rows = rows[rows["hands"] > 0].reset_index(drop=True)
    v = tuple(int(x) for x in rows["verdict"])
    unit = "net points a hand"

    def where(r) -> str:
        return grouping.phrase.format(label=r["situation"], low=r["low"])

    def clause(r) -> str:
        return f"{where(r)}: {_pts(r['estimate'])} {_ci(r)}"

    detail = "; ".join(clause(r) for _, r in rows.iterrows())
    head = f"{exp.do_ing[0].upper()}{exp.do_ing[1:]} minus {exp.dont_ing}"
    detail = f"({head}, {unit}, 95% intervals — {detail}.)" if len(rows) else ""
    cap = exp.do[0].upper() + exp.do[1:]
    dont_cap = exp.dont[0].upper() + exp.dont[1:]
    plus = [i for i, x in enumerate(v) if x > 0]
    minus = [i for i, x in enumerate(v) if x < 0]
    if not rows.empty and not plus and not minus:
        text = f"{cap} or {exp.dont}: no clear difference in any situation tested. {detail}"
    elif rows.empty:
        text = f"{cap} or {exp.dont}: not enough positions to say."
    elif minus and plus and grouping.until and max(minus) < min(plus):
        cut = rows.iloc[min(plus)]
        est, lo, hi = _pooled(rows.iloc[: min(plus)])
        text = (
            f"{dont_cap} {grouping.until.format(low=cut['low'], label=cut['situation'])}; "
            f"then {exp.do}. Before that, {exp.do_ing} costs {_pts(-est)[1:]} {unit} "
            f"[{_fmt(-hi)}, {_fmt(-lo)}]. {detail}"
        )
    elif minus and plus and grouping.until and max(plus) < min(minus):
        cut = rows.iloc[min(minus)]
        text = (
            f"{cap} {grouping.until.format(low=cut['low'], label=cut['situation'])}; "
            f"from then on, {exp.dont}. {detail}"
        )
    elif plus and not minus:
        conds = _conds(rows, plus, where)
        est, lo, hi = _pooled(rows.iloc[plus])
        rest = "; elsewhere no clear difference" if len(plus) < len(rows) else ""
        text = (
            f"{cap} rather than {exp.dont} ({conds}): it gains {_pts(est)} {unit} "
            f"[{_fmt(lo)}, {_fmt(hi)}]{rest}. {detail}"
        )
    elif minus and not plus:
        conds = _conds(rows, minus, where)
        est, lo, hi = _pooled(rows.iloc[minus])
        rest = "; elsewhere no clear difference" if len(minus) < len(rows) else ""
        text = (
            f"{dont_cap} rather than {exp.do} ({conds}): {exp.do_ing} costs {_fmt(-est)} "
            f"{unit} [{_fmt(-hi)}, {_fmt(-lo)}]{rest}. {detail}"
        )
    else:
        a = ", ".join(where(rows.iloc[i]) for i in plus)
        b = ", ".join(where(rows.iloc[i]) for i in minus)
        text = f"It depends: {exp.do} {a}; {exp.dont} {b}. {detail}"
    return Rule(text.replace(detail, "").strip(), detail, exp.table, exp.key, grouping.key, v)


def _conds(rows: pd.DataFrame, idx: list[int], where) -> str:
    """The situations ``idx`` in words, or 'in every situation tested' when they are all."""
    if len(idx) == len(rows):
        return "in every situation tested"
    return ", ".join(where(rows.iloc[i]) for i in idx)


def _fmt(x: float) -> str:
    return f"{x:,.0f}".replace("-", "−")


def rules_of_thumb(tabs: dict[str, pd.DataFrame], experiments=None) -> list[Rule]:
    """One rule per experiment and grouping whose table is present, in ``experiments`` order
    (default ``EXPERIMENTS``)."""
    out = []
    for exp in EXPERIMENTS if experiments is None else resolve(experiments):
        t = tabs.get(exp.table)
        if t is None:
            continue
        out += [rule_of_thumb(exp, g, t) for g in exp.groupings]
    return out


def advice(tabs: dict[str, pd.DataFrame], experiments=None) -> list[Rule]:
    """One rule per decision (the report's Advice): the choice over all positions with its
    effect and interval, and the situations, of any grouping, where the verdict flips; a
    grouping whose verdicts change sign once along an ordered feature gives the rule its
    threshold ("hold your sevens until you hold 5"). The groupings' detail stays in the table."""
    out = []
    groups: dict[str, list[Experiment]] = {}
    for e in EXPERIMENTS if experiments is None else resolve(experiments):
        if e.table in tabs:
            groups.setdefault(e.decision or e.key, []).append(e)
    for same in groups.values():
        exp, t = same[0], tabs[same[0].table]
        per = [rule_of_thumb(exp, g, t) for g in exp.groupings]
        cut = [r for r in per if r.text.split(" ")[0] != "It" and " until " in r.text
               and len(set(r.verdicts) - {0}) == 2]  # fmt: skip
        head = t[t["grouping"] == "all"].iloc[0]
        v = int(head["verdict"])
        verdicts_all = tuple(int(x) for x in t["verdict"])
        n = int(head["positions"])
        overall = f"{_pts(head['estimate'])} {_ci(head)} over all {n:,} positions"
        if cut:
            text = cut[0].text
        elif v > 0:
            text = (f"{exp.do[0].upper()}{exp.do[1:]} rather than {exp.dont}: it gains "
                    f"{_pts(head['estimate'])[1:]} net points a hand {_ci(head)} over all "
                    f"{n:,} positions")  # fmt: skip
        elif v < 0:
            text = (f"{exp.dont[0].upper()}{exp.dont[1:]} rather than {exp.do}: "
                    f"{exp.do_ing} costs {_fmt(-head['estimate'])} net points a hand "
                    f"[{_fmt(-head['ci_high'])}, {_fmt(-head['ci_low'])}] over all {n:,} "
                    "positions")  # fmt: skip
        else:
            text = (f"{exp.do[0].upper()}{exp.do[1:]} or {exp.dont}: no clear difference "
                    f"({exp.do_ing} minus {exp.dont_ing}: {overall})")  # fmt: skip
        said = []
        for other in same if not cut else same[1:]:
            ot = tabs[other.table]
            orows = ot[(ot["grouping"] != "all") & (ot["hands"] > 0)]
            flips = orows[(orows["verdict"] != 0) & (orows["verdict"] != v)]
            by_key = {g.key: g for g in other.groupings}
            for _, r in flips.iterrows():
                g = by_key[r["grouping"]]
                arm = other.do if r["verdict"] > 0 else other.dont
                where = g.phrase.format(label=r["situation"], low=r["low"])
                said.append(f"{arm} {where} ({_pts(r['estimate'])} {_ci(r)})")
        if said:
            lead = "but" if v == 0 and not cut else "it flips:"
            text = text.rstrip(".") + f"; {lead} " + "; ".join(dict.fromkeys(said))
        detail = ""  # the situations are the table's rows (the item cites it)
        out.append(Rule(text.rstrip(".") + ".", detail, exp.table, exp.key, "all", verdicts_all))
    return out


# ---------------------------------------------------------------------------------------
# Thresholds: where the effect changes sign along an ordered feature
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Threshold:
    """The zero of a straight line fitted to the positions' effects along ``feature``
    (least squares, each sampled hand's positions weighted 1/k so a hand counts once), with a
    95% interval from resampling hands (``reps`` bootstrap draws, fixed seed)."""

    experiment: str
    grouping: str
    feature: str
    at: float  #: the fitted sign change (nan: the line does not cross zero in the range)
    ci_low: float
    ci_high: float
    slope_sure: float  #: share of resamples whose slope has the fitted slope's sign
    low: int  #: the range of the feature seen
    high: int
    hands: int
    slope: float  #: points a hand per unit of the feature


def _line(x, y, w):
    sw = w.sum()
    mx, my = (w * x).sum() / sw, (w * y).sum() / sw
    vx = (w * (x - mx) ** 2).sum()
    if vx <= 0:
        return np.nan, np.nan
    b = (w * (x - mx) * (y - my)).sum() / vx
    return my - b * mx, b


def threshold(exp: Experiment, grouping: Grouping, raw: pd.DataFrame, reps: int = 400,
              seed: int = 0) -> Threshold | None:  # fmt: skip
    """Where ``exp``'s effect changes sign along ``grouping``'s feature (None: too few)."""
    part = raw[(raw["experiment"] == exp.key) & np.isfinite(raw["diff"])]
    if grouping.feature not in part.columns or part["hand"].nunique() < MIN_HANDS:
        return None
    x = part[grouping.feature].to_numpy(dtype=np.float64)
    y = part["diff"].to_numpy(dtype=np.float64)
    hands = part["hand"].to_numpy()
    uniq, inv, k = np.unique(hands, return_inverse=True, return_counts=True)
    w = 1.0 / k[inv]
    a, b = _line(x, y, w)
    lo, hi = int(x.min()), int(x.max())
    if not np.isfinite(b) or lo == hi:
        return None
    at = -a / b if b != 0 else np.nan
    rng = np.random.default_rng([seed, exp.number, 7])
    rows = [np.flatnonzero(inv == i) for i in range(len(uniq))]
    zeros, same = [], 0
    for _ in range(reps):
        pick = np.concatenate([rows[i] for i in rng.integers(0, len(uniq), len(uniq))])
        ra, rb = _line(x[pick], y[pick], w[pick])
        if np.isfinite(rb) and rb != 0:
            same += np.sign(rb) == np.sign(b)
            zeros.append(-ra / rb)
    z = np.array(zeros)
    inside = np.isfinite(at) and lo - 0.5 <= at <= hi + 0.5
    q = np.quantile(z, [0.025, 0.975]) if len(z) else (np.nan, np.nan)
    at = float(at) if inside else np.nan
    return Threshold(exp.key, grouping.key, grouping.feature, at, float(q[0]), float(q[1]),
                     same / reps, lo, hi, len(uniq), float(b))  # fmt: skip


def thresholds(raw: pd.DataFrame, experiments=None) -> list[Threshold]:
    """:func:`threshold` of every ordered grouping (one with ``until``) of the experiments."""
    out = []
    for exp in experiments_of(raw) if experiments is None else resolve(experiments):
        for g in exp.groupings:
            if g.until:
                t = threshold(exp, g, raw)
                if t is not None:
                    out.append(t)
    return out


def describe_threshold(t: Threshold, exp: Experiment) -> str:
    """A threshold in words."""
    gain = (
        f"{abs(t.slope):,.0f} points a hand per unit; the slope's sign in "
        f"{t.slope_sure:.0%} of resamples"
    )
    if np.isfinite(t.at):
        side = exp.do_ing if t.slope > 0 else exp.dont_ing
        return (f"{exp.do_ing} minus {exp.dont_ing} changes sign at {t.feature} ≈ {t.at:.1f} "
                f"(95% interval {t.ci_low:.1f} to {t.ci_high:.1f}, resampling {t.hands} hands); "
                f"above it {side} is ahead ({gain})")  # fmt: skip
    return (f"{exp.do_ing} minus {exp.dont_ing} does not change sign for {t.feature} "
            f"{t.low}–{t.high} (a fitted line, {gain})")  # fmt: skip


def threshold_text(exp: Experiment, raw: pd.DataFrame | None) -> list[str]:
    if raw is None or raw.empty:
        return []
    return [describe_threshold(t, exp) for t in thresholds(raw, [exp])]


# ---------------------------------------------------------------------------------------
# A stand-in with known effects (tests, and reports built without the engine)
# ---------------------------------------------------------------------------------------
def synthetic_raw(
    effects: dict[str, Callable[[dict], float]] | None = None,
    positions: int = 60,
    deals: int = 40,
    sd: float = 400.0,
    seed: int = 0,
    pickup_share: float | None = None,
) -> pd.DataFrame:
    """Rows shaped like :func:`run_experiments`' with a known effect per position
    (``effects[key](features)``, default 0) and normal noise of ``sd`` per deal; with
    ``pickup_share``, hand summaries too (:func:`synthetic_hands`)."""
    rng = np.random.default_rng(seed)
    effects = effects or {}
    rows = []
    for exp in EXPERIMENTS:
        for i in range(positions):
            f = {
                "turn": int(rng.integers(0, 40)),
                "stock": int(rng.integers(0, 56)),
                "pile": int(rng.integers(1, 20)),
                "sevens": int(rng.integers(3, 7)),
                "aces": int(rng.integers(3, 7)),
                "wilds": int(rng.integers(1, 6)),
                "opened": int(rng.integers(0, 2)),
                "special_distance": int(rng.integers(1, 4)),
                "hand_size": int(rng.integers(2, 16)),
                "opp_opened": int(rng.integers(0, 2)),
                "canastas": int(rng.integers(0, 4)),
                "opp_canastas": int(rng.integers(0, 4)),
                "sevens_pile": int(rng.integers(0, 6)),
                "aces_pile": int(rng.integers(0, 6)),
                "natural_triple": int(rng.integers(0, 2)),
                "natural_six": 1,
                "margin": int(rng.choice([-4000, 0, 4000])),
                "min_meld": int(rng.choice([125, 155, 180])),
            }
            f["wilds"] = 3 + i % 5 if exp.key == "wild" else f["wilds"]
            f["sevens_gone"] = f["sevens_pile"] + int(rng.integers(0, 2))
            f["aces_gone"] = f["aces_pile"] + int(rng.integers(0, 2))
            mu = effects.get(exp.key, lambda _f: 0.0)(f)
            d = rng.normal(mu, sd, deals)
            rows.append({"experiment": exp.key, "hand": i, "seat": i % 4, **f,
                         "diff": float(d.mean()), "net_a": float(d.mean()), "net_b": 0.0,
                         "deals": deals, "applied": 1.0})  # fmt: skip
    out = pd.DataFrame(rows)
    out.attrs |= {"policy": "synthetic", "deals": deals, "positions": positions, "seed": seed,
                  "sample_hands": positions}  # fmt: skip
    if pickup_share is not None:
        out.attrs["hands"] = synthetic_hands(4 * positions, pickup_share, seed)
    return out


def synthetic_hands(n: int, pickup_share: float = 0.5, seed: int = 0) -> list[dict]:
    """Hand summaries shaped like :func:`hand_summary`'s: the team of the first pickup wins the
    hand with probability ``pickup_share``; scores, canastas and penalties drawn at random."""
    rng = np.random.default_rng([seed, 77])
    out = []
    kinds = ("natural", "mixed", "sevens", "aces", "wild")
    for h in range(n):
        first = int(rng.integers(-1, 2))  # -1: nobody took the pile
        win, lose = int(rng.integers(500, 4000)), int(rng.integers(-500, 2000))
        wins = rng.random() < pickup_share
        winner = first if (first >= 0 and wins) else (1 - first if first >= 0 else 0)
        row = {"hand": h, "turns": int(rng.integers(10, 60)), "end_reason": "out",
               "out_team": winner, "special": "straight" if rng.random() < 0.01 else "",
               "special_team": -1, "first_take_team": first,
               "first_take_size": int(rng.integers(1, 25)) if first >= 0 else 0}  # fmt: skip
        for t in range(E.N_TEAMS):
            for name in E.SCORE_ITEMS:
                row[f"team{t}_{name}"] = -int(rng.integers(0, 2)) * 100 if "pen" in name else 0
            row[f"team{t}_score"] = win if t == winner else min(lose, win - 1)
            for kind in kinds:
                row[f"team{t}_canasta_{kind}"] = int(rng.integers(0, 3))
        out.append(row)
    return out
