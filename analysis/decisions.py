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
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from analysis import intervals as iv
from analysis import multiple
from sim import encoding as E

ALPHA = 0.05  #: family-wise error rate of the Holm correction
MIN_HANDS = 5  #: a situation with fewer sampled hands is shown but not tested
CORRECTION = "holm"
STRONG = "strong"  #: placeholder in an arm: the strongest fast policy of the registry


# ---------------------------------------------------------------------------------------
# What is tested
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Grouping:
    """Situations of one experiment: bins of one feature of the position."""

    key: str
    feature: str
    bins: tuple[tuple[int, int, str], ...]  #: (low, high, label), in order
    phrase: str  #: "holding {label} sevens": the situation in words
    until: str = ""  #: "until you hold {low}": a threshold in words (ordered features)


@dataclass(frozen=True)
class Experiment:
    key: str
    title: str
    do: str  #: arm A in the imperative: "start a sevens meld now"
    dont: str  #: arm B: "hold your sevens"
    do_ing: str  #: arm A as a gerund: "starting a sevens meld now"
    dont_ing: str  #: arm B as a gerund: "holding the sevens"
    arms: tuple[tuple[str, str], tuple[str, str]]  #: (choice, the team's policy) per arm
    conditioned: tuple[int, ...]  #: arms whose choice must have been made in a deal
    select: Callable[[dict], bool] = field(repr=False)
    groupings: tuple[Grouping, ...] = ()

    @property
    def table(self) -> str:
        return f"decision_{self.key}"


STOCK = Grouping(
    "stock",
    "stock",
    ((40, 999, "40+"), (20, 39, "20–39"), (0, 19, "0–19")),
    "with {label} cards left in the stock",
)
TURN = Grouping(
    "turn",
    "turn",
    ((0, 11, "0–11"), (12, 23, "12–23"), (24, 999, "24+")),
    "on turns {label} of the hand",
    "until turn {low}",
)
OPENED = Grouping(
    "opened",
    "opened",
    ((0, 0, "not opened"), (1, 1, "opened")),
    "when your team has {label}",
)


def _held(rank: str, feature: str) -> Grouping:
    bins = ((3, 3, "3"), (4, 4, "4"), (5, 99, "5+"))
    return Grouping(f"held_{feature}", feature, bins, f"holding {{label}} {rank}",
                    f"until you hold {{low}} {rank}")  # fmt: skip


def _natural(kind_key: str, meld: str):
    def select(f: dict) -> bool:
        return f[kind_key] >= 3 and not f[f"{meld}_meld"] and not f[f"{meld}_dead"]

    return select


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "sevens",
        "Start a sevens meld now, or hold the sevens",
        "start a sevens meld now",
        "hold your sevens",
        "starting a sevens meld now",
        "holding the sevens",
        (("meld_sevens", STRONG), ("hold_sevens", STRONG)),
        (0, 1),
        _natural("sevens", "sevens"),
        (_held("sevens", "sevens"), STOCK, TURN),
    ),
    Experiment(
        "aces",
        "Start an aces meld now, or hold the aces",
        "start an aces meld now",
        "hold your aces",
        "starting an aces meld now",
        "holding the aces",
        (("meld_aces", STRONG), ("hold_aces", STRONG)),
        (0, 1),
        _natural("aces", "aces"),
        (_held("aces", "aces"), STOCK, TURN),
    ),
    Experiment(
        "aces_wild",
        "Open with aces and wilds (MELD-7), or with the aces alone",
        "put wilds in your opening aces meld",
        "open with natural aces",
        "putting wilds in the opening aces meld",
        "opening with natural aces",
        (("meld_aces_wild", STRONG), ("meld_aces", STRONG)),
        (0, 1),
        lambda f: f["aces"] >= 3 and f["wilds"] >= 1 and not f["opened"] and not f["aces_meld"],
        (
            Grouping(
                "wilds_held",
                "wilds",
                ((1, 1, "1 wild"), (2, 99, "2+ wilds")),
                "holding {label}",
                "until you hold {low} wilds",
            ),
        ),
    ),
    Experiment(
        "pile",
        "Take the pile, or draw, when the rules allow the pile",
        "take the pile",
        "draw from the stock",
        "taking the pile",
        "drawing",
        (("take_pile", STRONG), ("draw", STRONG)),
        (0, 1),
        lambda f: f["can_take"],
        (
            Grouping(
                "pile_size",
                "pile",
                ((1, 5, "1–5"), (6, 10, "6–10"), (11, 999, "11+")),
                "with {label} cards in the pile",
                "until the pile holds {low}",
            ),
            OPENED,
        ),
    ),
    Experiment(
        "go_out",
        "Go out now, or keep playing",
        "go out as soon as you can",
        "keep playing",
        "going out at once",
        "playing on",
        (("policy", STRONG), ("stay_in", STRONG)),
        (1,),
        lambda f: f["went_out"],
        (STOCK, TURN),
    ),
    Experiment(
        "special",
        "Chase a special hand 1–3 cards away, or play normally",
        "chase the special hand",
        "play normally",
        "chasing the special hand",
        "playing normally",
        (("policy", "special_chaser"), ("policy", STRONG)),
        (),
        lambda f: not f["opened"] and 1 <= f["special_distance"] <= 3,
        (
            Grouping(
                "distance",
                "special_distance",
                ((1, 1, "1 card"), (2, 2, "2 cards"), (3, 3, "3 cards")),
                "{label} from a special hand",
            ),
        ),
    ),
    Experiment(
        "wild",
        "Start a wild meld, or not",
        "start a wild meld",
        "keep your wilds out of a wild meld",
        "starting a wild meld",
        "not starting one",
        (("meld_wilds", STRONG), ("hold_wilds", STRONG)),
        (0, 1),
        lambda f: f["wilds"] >= 3 and not f["wild_meld"],
        (
            Grouping(
                "wilds_held",
                "wilds",
                ((3, 3, "3 wilds"), (4, 99, "4+ wilds")),
                "holding {label}",
                "until you hold {low} wilds",
            ),
            OPENED,
        ),
    ),
)
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
    from sim.legality import canastas, is_dead
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
        }
    )
    snap.cards = cards
    if not lazy:
        snap["position"] = _position(*cards)
    return snap


def sample_positions(
    hands: int, seed: int = 0, policy: str | None = None, ruleset=None, n_jobs: int = 1
) -> list[Snapshot]:
    """Snapshots of every turn start of ``hands`` hands of ``policy`` (default the strongest
    fast one) against itself; hand ``h`` is ``sim.Game(seed, hand_id=h)``. Each snapshot's
    ``hand`` is h and ``went_out`` is set when the player went out (not by a special hand)
    in that turn. ``n_jobs``: blocks of hands in parallel (``sim.runner.parallel_map``); the
    snapshots are the same, in the same order, for any number. Their Positions are made when
    read (:class:`Snapshot`): sent back from a worker as Positions, ~40 a hand at ~0.1 ms
    each, they had cost more than the play (issue 12)."""
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
    return [snap for part in parallel_map(_sample_hands, tasks, n_jobs) for snap in part]


def _sample_hands(hand_ids: range, seed: int, policy: str, ruleset) -> list[Snapshot]:
    """:func:`sample_positions` of the hands ``hand_ids``, in this process (``ruleset``: a
    ``Ruleset``, as :func:`sample_positions` made it)."""
    import sim
    from sim.engine.judge import forced_action
    from sim.policies.registry import parse

    specials = ruleset.to_array()[E.RS_CATALOGUE_N] > 0  # SPECIAL-7: a list in force
    spec, params, _ = parse(policy)
    out = []
    for h in hand_ids:
        g = sim.Game(seed=seed, hand_id=h, rules=ruleset)
        last_turn, current = -1, None
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
            g.apply(a if a >= 0 else g.decide(spec, params, obs))
        went = g.out_team
        if current is not None and went == current["team"] and g.special_hand[1] < 0:
            current["went_out"] = int(g.state[E.ST_PLAYER]) == current["seat"]
    return out


def choose(snaps: Sequence[dict], exp: Experiment, positions: int, seed: int) -> list[dict]:
    """Up to ``positions`` snapshots where ``exp``'s decision arises, drawn at random."""
    pool = [s for s in snaps if exp.select(s)]
    rng = np.random.default_rng([seed, EXPERIMENTS.index(exp)])
    order = rng.permutation(len(pool))
    return [pool[i] for i in order[:positions]]


# ---------------------------------------------------------------------------------------
# Playing the arms
# ---------------------------------------------------------------------------------------
def _policies(team: int, arm_policy: str, strong: str) -> tuple[str, str]:
    mine = strong if arm_policy == STRONG else arm_policy
    return (mine, strong) if team == 0 else (strong, mine)


def position_seed(seed: int, exp: Experiment, i: int) -> int:
    """The seed of position ``i`` of ``exp``: both arms use it (paired deals)."""
    return (seed * 1_000_003 + EXPERIMENTS.index(exp) * 10_007 + i) % (2**31)


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
    for choice, arm_policy in exp.arms:
        policies = _policies(team, arm_policy, strong)
        if play is None:  # the engine's arrays: no records frame to build and sort
            from sim.api import position_outcomes

            scores, done = position_outcomes(deals, pos, choice, seed=seed, policies=policies,
                                             ruleset=ruleset)  # fmt: skip
            nets.append((scores[:, team] - scores[:, 1 - team]).astype(np.float64))
            applied.append(done)
            continue
        rec = resolve_play(play)(deals, pos, choice, seed=seed, policies=policies,
                                 ruleset=ruleset).sort_values("hand_id")  # fmt: skip
        own, opp = rec[f"score_team{team}"], rec[f"score_team{1 - team}"]
        nets.append((own - opp).to_numpy(dtype=np.float64))
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


def _play_arms_task(snap, key, deals, seed, strong, ruleset, play) -> dict:
    """:func:`play_arms` for a worker (the experiment by its key: a name travels, not code)."""
    return play_arms(snap, BY_KEY[key], deals, seed, strong, ruleset, play)


FEATURES = ("turn", "stock", "pile", "sevens", "aces", "wilds", "opened", "special_distance")


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
    chosen = [BY_KEY[k] for k in experiments] if experiments else list(EXPERIMENTS)
    n_hands = sample_hands or max(100, 6 * positions)
    if progress:
        progress(f"decision experiments: sampling positions from {n_hands:,} hands of {strong}")
    snaps = sample_positions(n_hands, seed, strong, ruleset, n_jobs)
    rows = []
    for exp in chosen:
        picked = choose(snaps, exp, positions, seed)
        if progress:
            progress(f"decision experiment {exp.key}: {len(picked)} positions × {deals} deals × 2")
        tasks = [(snap, exp.key, deals, position_seed(seed, exp, i), strong, ruleset, play)
                 for i, snap in enumerate(picked)]  # fmt: skip
        for snap, r in zip(picked, parallel_map(_play_arms_task, tasks, n_jobs), strict=True):
            rows.append({"experiment": exp.key, "hand": snap["hand"], "seat": snap["seat"],
                         **{f: snap[f] for f in FEATURES}, **r})  # fmt: skip
    cols = ["experiment", "hand", "seat", *FEATURES, "diff", "net_a", "net_b", "deals", "applied"]
    out = pd.DataFrame(rows, columns=cols)
    out.attrs |= {"policy": strong, "deals": deals, "positions": positions, "seed": seed,
                  "sample_hands": n_hands}  # fmt: skip
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
) -> dict[str, pd.DataFrame]:
    """One table per experiment (``decision_<key>``): an ``all`` row, then a row per situation
    of each grouping; p-values adjusted across every row of every table."""
    out = {}
    for exp in EXPERIMENTS:
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
    if not out:
        return out
    p_all = np.concatenate([_p_values(t) for t in out.values()])
    adj = multiple.adjust(p_all, correction)
    i = 0
    method = multiple.METHODS[correction]
    for key, t in out.items():
        n = len(t)
        t["p"], t["p_adj"] = p_all[i : i + n], adj[i : i + n]
        i += n
        t["verdict"] = verdicts(t["estimate"], t["p_adj"], alpha)
        exp = BY_KEY[key.removeprefix("decision_")]
        t["better"] = [{1: exp.do, -1: exp.dont}.get(int(x), "no clear difference")
                       for x in t["verdict"]]  # fmt: skip
        t.attrs["interval"] = f"{iv.statement(iv.NORMAL, confidence)} over sampled hands"
        t.attrs["correction"] = f"{method}, alpha {alpha:g}, across {len(p_all)} situations"
        out[key] = t[list(TABLE_COLUMNS)]
        out[key].attrs.update(t.attrs)
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


def rules_of_thumb(tabs: dict[str, pd.DataFrame]) -> list[Rule]:
    """One rule per experiment and grouping whose table is present, in ``EXPERIMENTS`` order."""
    out = []
    for exp in EXPERIMENTS:
        t = tabs.get(exp.table)
        if t is None:
            continue
        out += [rule_of_thumb(exp, g, t) for g in exp.groupings]
    return out


# ---------------------------------------------------------------------------------------
# A stand-in with known effects (tests, and reports built without the engine)
# ---------------------------------------------------------------------------------------
def synthetic_raw(
    effects: dict[str, Callable[[dict], float]] | None = None,
    positions: int = 60,
    deals: int = 40,
    sd: float = 400.0,
    seed: int = 0,
) -> pd.DataFrame:
    """Rows shaped like :func:`run_experiments`' with a known effect per position
    (``effects[key](features)``, default 0) and normal noise of ``sd`` per deal."""
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
            }
            mu = effects.get(exp.key, lambda _f: 0.0)(f)
            d = rng.normal(mu, sd, deals)
            rows.append({"experiment": exp.key, "hand": i, "seat": i % 4, **f,
                         "diff": float(d.mean()), "net_a": float(d.mean()), "net_b": 0.0,
                         "deals": deals, "applied": 1.0})  # fmt: skip
    out = pd.DataFrame(rows)
    out.attrs |= {"policy": "synthetic", "deals": deals, "positions": positions, "seed": seed,
                  "sample_hands": positions}  # fmt: skip
    return out
