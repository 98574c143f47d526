"""Train a small agent against ``heuristic`` through the PettingZoo environment, then compare it.

A linear softmax policy over hand-made features of each legal action (its type, the cards a
meld operation uses, what a discard gives away), trained by REINFORCE (numpy only) as team 0
(``player_0`` and ``player_2``, one shared set of weights) against the built-in ``heuristic``
as team 1, one hand per episode, reward = the hand's score margin (in thousands of points).
Then the trained agent is registered with ``sim.env.python_policy`` and compared with
``heuristic`` on duplicate deals (``analysis.compare.duplicate``: every deal played twice, the
seats swapped), with a 95% interval.

    pip install 'canasta-sim[rl]'
    python examples/train_agent.py --hands 300 --deals 200 --seed 1

A few hundred hands teach it little (the heuristic wins by thousands of points a hand); the
example shows the loop, not a strong agent. Needs the ``rl`` extra (pettingzoo, gymnasium).
"""

from __future__ import annotations

import argparse

import numpy as np

from sim import encoding as E
from sim.env import env, python_policy
from sim.play import SeatView

LEARNERS = ("player_0", "player_2")  #: team 0 learns; team 1 plays the heuristic
N_FEATURES = len(E.ACTION_TYPE_NAMES) + 6


def features(obs: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """float[len(ids), N_FEATURES]: one row per legal action id."""
    tbl = E.ACTION_TABLE[ids]
    kind, slot = tbl[:, E.AC_TYPE], tbl[:, E.AC_SLOT]
    nat, wild = tbl[:, E.AC_NAT], tbl[:, E.AC_TWO] + tbl[:, E.AC_JOKER]
    v = SeatView.from_observation(obs)  # the observation by name
    hand, own_melds = v.hand, v.melds[0]
    size = np.where(slot >= 0, own_melds[np.maximum(slot, 0)].sum(axis=1), 0)
    is_meld, is_discard = kind == E.AT_MELD, kind == E.AT_DISCARD
    held = np.where(slot >= 0, hand[np.maximum(slot, 0)], 0)
    pile = v.pile_counts
    out = np.zeros((len(ids), N_FEATURES))
    out[np.arange(len(ids)), kind] = 1.0  # the action's type
    j = len(E.ACTION_TYPE_NAMES)
    out[:, j] = is_meld * nat / E.CANASTA  # naturals melded
    out[:, j + 1] = is_meld * wild / 3.0  # wild cards melded
    out[:, j + 2] = is_meld * (size + nat + wild >= E.CANASTA)  # completes a canasta (MELD-10)
    out[:, j + 3] = is_discard * (slot <= 1)  # discards a wild card (freezes the pile)
    out[:, j + 4] = is_discard * (held - 1) / 4.0  # copies of the kind kept in hand
    out[:, j + 5] = is_discard * np.where(slot >= 0, pile[np.maximum(slot, 0)], 0) / 4.0
    return out


class LinearAgent:
    """Softmax over ``features(obs, legal) @ weights``; REINFORCE with a running baseline."""

    def __init__(self, seed: int = 0, lr: float = 0.05):
        self.w = np.zeros(N_FEATURES)
        self.rng = np.random.default_rng(seed)
        self.lr = lr
        self.baseline = 0.0

    def probabilities(self, obs, mask):
        ids = np.flatnonzero(mask)
        phi = features(obs, ids)
        z = phi @ self.w
        p = np.exp(z - z.max())
        return ids, phi, p / p.sum()

    def act(self, obs, mask, greedy: bool = False):
        """(action id, score-function gradient of its log-probability)."""
        ids, phi, p = self.probabilities(obs, mask)
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(ids), p=p))
        return int(ids[i]), phi[i] - p @ phi

    def update(self, grads, ret: float) -> None:
        if grads:
            self.w += self.lr * (ret - self.baseline) * np.sum(grads, axis=0) / len(grads)
        self.baseline += 0.05 * (ret - self.baseline)


def train(agent: LinearAgent, hands: int, seed: int) -> list[float]:
    """``hands`` hands of run ``seed`` through the env; the learners' margin per hand."""
    e = env()
    margins = []
    for h in range(hands):
        e.reset(seed=seed) if h == 0 else e.reset()
        grads, ret = [], 0.0
        for name in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                if name == LEARNERS[0]:
                    ret = float(reward)  # the team's margin (player_2 gets the same)
                e.step(None)
            elif name in LEARNERS:
                a, g = agent.act(obs["observation"], obs["action_mask"])
                grads.append(g)
                e.step(a)
            else:
                e.step(e.unwrapped.policy_action("heuristic"))
        agent.update(grads, ret / 1000.0)
        margins.append(ret)
    return margins


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300, help="training hands (default 300)")
    ap.add_argument("--deals", type=int, default=200, help="duplicate deals to compare (200)")
    ap.add_argument("--seed", type=int, default=1, help="training run seed (default 1)")
    args = ap.parse_args(argv)

    from analysis.compare import duplicate

    agent = LinearAgent(seed=args.seed)
    margins = train(agent, args.hands, args.seed)
    half = max(1, len(margins) // 2)
    print(f"trained on {len(margins)} hands: mean margin first half {np.mean(margins[:half]):.0f}")
    print(f"  second half {np.mean(margins[half:] or [np.nan]):.0f}; weights {agent.w.round(2)}")

    # the trained agent as a policy of the runner (Python speed), on fresh deals (seed + 1)
    python_policy(lambda obs, mask: agent.act(obs, mask, greedy=True)[0], "linear", replace=True)
    c = duplicate("linear", "heuristic", args.deals, seed=args.seed + 1)
    s = c.summary
    print(
        f"linear vs heuristic over {s['deals']} duplicate deals: {s['mean_diff']:+.0f} points a "
        f"hand (95% CI {s['ci_low']:+.0f} .. {s['ci_high']:+.0f}), win rate {s['win_rate_a']:.2f}"
    )
    return {"margins": margins, "weights": agent.w, "comparison": s}


if __name__ == "__main__":
    main()
