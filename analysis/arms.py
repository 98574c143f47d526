"""Playing a decision experiment's two arms at a position, on the same deals.

Each experiment has two arms: a what-if choice of ``sim.play.position.CHOICES`` (or a
script of ``analysis.specs.SCRIPT_STEPS``) and the policies the two teams play for the rest
of the hand. Both arms replay a position on the same ``deals`` deals of its unseen cards (the
deal depends only on the seed and the deal number, ``sim.play_position``), so the per-deal
difference of the player's team's outcome (``net``: own minus opponents' points in the hand)
is paired. Deals where the rules refused an arm's forced choice (the record's ``applied``)
are left out of that position's difference, for both arms (the deal decides it, not the arm).
Each result also keeps the used deals' outcomes per arm (``outcomes``: the team's points, the
opponents' points, and +1/−1 when the team/the opponents declared a hand that wins the game,
SPECIAL-10), so that they can be read in game terms (``analysis.decisions_game``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from analysis.experiment_set import STRONG, Experiment
from sim import encoding as E

__all__ = ["hidden_values"]


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
    hidden = hidden_values(snap, exp.hidden, deals, seed, ruleset) if exp.hidden else None
    if exp.scripts:
        return _play_scripts(snap, exp, deals, seed, strong, ruleset, hidden)
    wins = _game_winners(ruleset)
    points = []
    for choice, arm_policy in exp.arms:
        policies = _policies(team, arm_policy, strong)
        if play is None and not wins:  # the engine's arrays: no records frame to build
            from sim.api import position_outcomes

            scores, done = position_outcomes(
                deals, pos, choice, seed=seed, policies=policies, ruleset=ruleset
            )
            points.append(_points(scores[:, team], scores[:, 1 - team], None, team))
            nets.append(_outcome(exp.outcome, scores[:, team], scores[:, 1 - team]))
            applied.append(done)
            continue
        rec = resolve_play(play)(
            deals, pos, choice, seed=seed, policies=policies, ruleset=ruleset
        ).sort_values("hand_id")
        own, opp = rec[f"score_team{team}"].to_numpy(), rec[f"score_team{1 - team}"].to_numpy()
        points.append(_points(own, opp, _winner(rec, wins), team))
        nets.append(_outcome(exp.outcome, own, opp))
        applied.append(rec["applied"].to_numpy(dtype=bool))
    return _paired(nets, applied, exp.conditioned, deals, hidden, exp.information, points)


def _game_winners(ruleset) -> frozenset:
    """The names of the hands that win the game under ``ruleset`` (SPECIAL-10)."""
    from sim.ruleset import as_ruleset

    return frozenset(h.name for h in as_ruleset(ruleset).catalogue if h.wins_game)


def _winner(rec, wins: frozenset):
    """The team whose declared hand won the game, per record row (-1: none; SPECIAL-10)."""
    if not wins or "special_hand" not in rec.columns:
        return None
    special = rec["special_hand"].isin(wins).to_numpy()
    return np.where(special, rec["special_team"].to_numpy(), -1)


def _points(own, opp, winner, team: int) -> np.ndarray:
    """int64[deals, 3]: the team's points, the opponents' points, +1 if the team declared a
    hand that wins the game, −1 if the opponents did, 0 otherwise (SPECIAL-10)."""
    won = np.zeros(len(own), dtype=np.int64)
    if winner is not None:
        w = np.asarray(winner, dtype=np.int64)
        won = np.where(w == team, 1, np.where(w >= 0, -1, 0))
    return np.column_stack([np.asarray(own), np.asarray(opp), won]).astype(np.int64)


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
        elif step == "take pile":
            a = E.A_TAKE_PILE
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


def hidden_values(snap: dict, feature: str, deals: int, seed: int, ruleset=None) -> np.ndarray:
    """The true-state ``feature`` (``analysis.specs.TRUE_STATE``) in each of the ``deals``
    deals of ``snap``'s position from ``seed`` (deal i as ``sim.play_position`` deals it: the
    same unseen cards for every arm), int64[deals]. Not seen by the player: it groups deals,
    or is told to an information arm."""
    from sim.play.position import PositionDeals
    from sim.play.table import TableView

    deals_of = PositionDeals(snap["position"], ruleset=ruleset, seed=seed)
    partner = (snap["seat"] + 2) % E.N_PLAYERS
    kinds = {
        "partner_sevens": (E.SEVEN,),
        "partner_aces": (E.ACE,),
        "partner_wilds": (E.TWO, E.JOKER),
    }[feature]
    out = np.empty(deals, dtype=np.int64)
    for h in range(deals):
        held = TableView(deals_of.hand(h).state).hands[partner]
        out[h] = sum(int(held[k]) for k in kinds)
    return out


def _play_scripts(snap, exp, deals, seed, strong, ruleset, hidden=None) -> dict:
    """``play_arms`` for scripted arms: both scripts on the same deals (``sim.play_script``,
    one row per deal and script); only deals where every step of both was made count."""
    from sim.api import play_script
    from sim.play.position import script_rows

    team = snap["team"]
    rows = [script_actions(snap, s) for s in exp.scripts]
    if any(r is None for r in rows):
        return {
            "diff": np.nan,
            "net_a": np.nan,
            "net_b": np.nan,
            "deals": 0,
            "offered": deals,
            "applied": 0.0,
            "outcomes": np.zeros((2, 0, 3), dtype=np.int32),
        }
    scripts = script_rows(rows)
    policies = _policies(team, exp.arms[0][1], strong)
    rec = play_script(
        deals, snap["position"], scripts, seed=seed, policies=policies, ruleset=ruleset
    ).sort_values(["hand_id", "script"])
    own = rec[f"score_team{team}"].to_numpy().reshape(deals, 2)
    opp = rec[f"score_team{1 - team}"].to_numpy().reshape(deals, 2)
    done = rec["applied"].to_numpy(dtype=bool).reshape(deals, 2)
    winner = _winner(rec, _game_winners(ruleset))
    winner = None if winner is None else winner.reshape(deals, 2)
    points = [
        _points(own[:, i], opp[:, i], None if winner is None else winner[:, i], team)
        for i in range(2)
    ]
    nets = [_outcome(exp.outcome, own[:, i], opp[:, i]) for i in range(2)]
    return _paired(
        nets, [done[:, 0], done[:, 1]], exp.conditioned, deals, hidden, exp.information, points
    )


def _paired(
    nets, applied, conditioned, deals: int, hidden=None, information=None, points=None
) -> dict:
    """The mean paired difference A − B (and each arm's mean) over the deals where the
    ``conditioned`` arms' choices were made (``applied``, per arm). With ``hidden`` (a true-
    state value per deal), also ``split``: the same per value the deals hold, whether or not
    the choice was made in any of them (``offered``: its deals, the share's denominator, so
    a situation's share of deals where the choice was made pools them); with ``information``
    (``analysis.specs.InformationSpec``), ``info_a``/``info_b``: the informed arm (A where
    the value lies in its range, else B) minus arm A, minus arm B."""
    mask = np.ones(deals, dtype=bool)
    for k in conditioned:
        mask &= applied[k]
    out = _means(nets, mask, deals, hidden, information)
    if points is not None:
        out["outcomes"] = _kept(points, mask)
    if hidden is not None:
        out["split"] = [
            {
                "value": int(v),
                **_means(nets, mask & (hidden == v), int((hidden == v).sum()), hidden, information),
            }
            | ({} if points is None else {"outcomes": _kept(points, mask & (hidden == v))})
            for v in np.unique(hidden)
        ]
    return out


def _kept(points, mask) -> np.ndarray:
    """int32[2, used deals, 3]: both arms' outcomes (``_points``) at the used deals."""
    return np.stack([p[mask] for p in points]).astype(np.int32)


def _means(nets, mask, offered, hidden, information) -> dict:
    """Each arm's mean and their paired difference over the deals ``mask``, which were made
    among ``offered`` deals (the share ``applied``)."""
    used = int(mask.sum())

    def m(x):
        return float(x[mask].mean()) if used else float("nan")

    out = {
        "diff": m(nets[0] - nets[1]),
        "net_a": m(nets[0]),
        "net_b": m(nets[1]),
        "deals": used,
        "offered": offered,
        "applied": used / offered if offered else 0.0,
    }
    if information is not None:
        knows = (hidden >= information.low) & (hidden <= information.high)
        informed = np.where(knows, nets[0], nets[1])
        out |= {"info_a": m(informed - nets[0]), "info_b": m(informed - nets[1])}
    return out


def _outcome(name: str, own, opp) -> np.ndarray:
    """The spec's outcome column per deal (``analysis.specs.OUTCOMES``)."""
    x = {"net": lambda: own - opp, "own": lambda: own, "opp": lambda: opp}[name]()
    return np.asarray(x, dtype=np.float64)


def play_arms_task(snap, exp, deals, seed, strong, ruleset, play) -> dict:
    """:func:`play_arms` for a worker (the experiment is data: its spec travels)."""
    return play_arms(snap, exp, deals, seed, strong, ruleset, play)
