"""The decision experiments' Python layer made cheaper, with the same
outputs. The oracles are the functions as they were before (commit 35ca48d), copied below:

- ``sim.engine.records.records_frame`` builds the frame in one constructor call (it inserted
  the policy labels and assigned the names column by column, ~1 ms a small frame): the same
  columns, values and column types, with rows, one row and none;
- ``analysis.records.team_view`` builds each team's frame in one constructor call (~60
  column insertions before): the same frame on engine records and synthetic ones;
- ``analysis.decisions.snapshot`` reads the state as Python ints and takes pile cards inline:
  the same Position (hand, melds, pile, sizes) and features at every turn start of real hands.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis import decisions as D
from analysis.records import HAND_COLUMNS, N_TEAMS, require, team_view
from sim import encoding as E
from sim.encoding import END_NAMES, RECORD_COLUMNS, SPECIAL_NAMES
from sim.engine.records import POLICY_COLUMNS, records_frame


def records_frame_before(rows: np.ndarray, policy_team0: str, policy_team1: str) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=list(RECORD_COLUMNS))
    df.insert(1, POLICY_COLUMNS[0], policy_team0)
    df.insert(2, POLICY_COLUMNS[1], policy_team1)
    df["end_reason"] = np.asarray(END_NAMES, dtype=object)[df["end_reason"].to_numpy()]
    df["special_hand"] = np.asarray(SPECIAL_NAMES, dtype=object)[df["special_hand"].to_numpy()]
    return df


def team_view_before(records: pd.DataFrame) -> pd.DataFrame:
    """One row per (hand, team): the team's fields without prefix, plus

    ``team``, ``policy``, ``opp_policy``, ``score``, ``opp_score``, ``net`` (score minus the
    opponents'), ``won`` (1, 0.5 for a tie, 0), ``went_out`` and ``declared_special`` (the team
    scored a special-hand award, SCORE-8).
    """
    require(records, HAND_COLUMNS, "a team view")
    fields = sorted(
        {c[6:] for c in records.columns if c.startswith("team0_")}
        & {c[6:] for c in records.columns if c.startswith("team1_")}
    )
    parts = []
    for t in range(N_TEAMS):
        o = 1 - t
        part = pd.DataFrame(
            {
                "hand_id": records["hand_id"].to_numpy(),
                "team": t,
                "policy": records[f"policy_team{t}"].to_numpy(),
                "opp_policy": records[f"policy_team{o}"].to_numpy(),
                "first_player": records["first_player"].to_numpy(),
                "turns": records["turns"].to_numpy(),
                "end_reason": records["end_reason"].to_numpy(),
                "score": records[f"score_team{t}"].to_numpy(),
                "opp_score": records[f"score_team{o}"].to_numpy(),
                "went_out": (records["out_team"] == t).to_numpy(),
            }
        )
        for f in fields:
            part[f] = records[f"team{t}_{f}"].to_numpy()
        if "special_team" in records.columns:  # the engine names the declaring team
            part["declared_special"] = (records["special_team"] == t).to_numpy()
        parts.append(part)
    view = pd.concat(parts, ignore_index=True)
    view["net"] = view["score"] - view["opp_score"]
    view["won"] = np.sign(view["net"]).map({1: 1.0, 0: 0.5, -1: 0.0}).astype(np.float64)
    if "special_hand" in view.columns:  # the SCORE-8 award item, per team
        if "declared_special" not in view.columns:
            view["declared_special"] = view["special_hand"] > 0
        view = view.rename(columns={"special_hand": "special_award"})
    elif "declared_special" not in view.columns:
        view["declared_special"] = False
    # rows are team 0's then team 1's, each in the records' order (hand ids may repeat
    # when several runs are concatenated, so align by position, not by id)
    name = np.tile(records["special_hand"].astype(str).to_numpy(), N_TEAMS)
    view["special_name"] = np.where(view["declared_special"], name, "")
    return view


def _card_ids_before() -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(E.N_KINDS)]
    for c, k in enumerate(E.CARD_KIND.tolist()):
        out[k].append(c)
    return out


def snapshot_before(game, special_rules: bool = True) -> dict:
    """The position the current player of ``game`` faces at the start of its turn (the draw
    step), as an ``analysis.whatif.Position`` (key ``position``) and its features."""
    from analysis.whatif import Position
    from sim.legality import canastas, is_dead
    from sim.policies.builtin import special_targets

    st = game.state
    p = int(st[E.ST_PLAYER])
    team = p % E.N_TEAMS
    ids = _card_ids_before()
    used = [0] * E.N_KINDS

    def take(kind: int, n: int) -> list[int]:
        got = ids[kind][used[kind] : used[kind] + n]
        used[kind] += n
        return got

    hands = st[E.ST_HANDS : E.ST_HANDS + E.N_PLAYERS * E.N_KINDS].reshape(E.N_PLAYERS, E.N_KINDS)
    melds = st[E.ST_MELDS : E.ST_MELDS + E.N_TEAMS * E.N_KINDS * E.N_MELD_COLS].reshape(
        E.N_TEAMS, E.N_KINDS, E.N_MELD_COLS
    )
    hand = [c for k in range(E.N_KINDS) for c in take(k, int(hands[p, k]))]
    fixed = {}
    for t in range(E.N_TEAMS):
        groups = []
        for slot in range(E.N_KINDS):
            nat, two, joker = (int(x) for x in melds[t, slot])
            if nat + two + joker:
                natural = take(slot, nat) if slot != E.WILD_MELD else []
                groups.append(np.array(natural + take(E.TWO, two) + take(E.JOKER, joker)))
        if groups:
            fixed[t] = tuple(groups)
    n_pile = int(st[E.ST_PILE_N])
    pile_kinds = st[E.ST_PILE : E.ST_PILE + n_pile].tolist()
    pile = [take(k, 1)[0] for k in pile_kinds]
    laid = int(st[E.ST_THREES : E.ST_THREES + 2 * E.N_TEAMS].sum())
    stock = int(st[E.ST_STOCK_N])
    pos = Position(
        np.array(hand, dtype=np.int64),
        seat=p,
        turn=int(st[E.ST_TURN]),
        scores=(int(st[E.ST_SCORES]), int(st[E.ST_SCORES + 1])),
        melds=fixed,
        pile_top=pile[-1] if pile else -1,
        pile=np.array(pile[:-1], dtype=np.int64),
        pile_size=n_pile,
        stock=stock + laid,  # the laid threes rejoin the unseen cards (a Position has no threes)
        hand_sizes=tuple(int(x) for x in hands.sum(axis=1)),
    )
    h = hands[p]
    need = np.zeros((3, E.N_KINDS), dtype=np.int64)
    distance = min(special_targets(np.ascontiguousarray(h), need[0], need[1], need[2]))
    m = np.ascontiguousarray(melds)
    return {
        "position": pos,
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


@pytest.fixture(scope="module")
def engine_records():
    import sim

    return sim.simulate(400, seed=12, policies=("heuristic", "special_chaser"), progress=False)


def _rows(records: pd.DataFrame) -> np.ndarray:
    """The kernel's int64 rows back from a records frame (names to codes)."""
    rows = np.zeros((len(records), len(RECORD_COLUMNS)), dtype=np.int64)
    codes = {"end_reason": END_NAMES, "special_hand": SPECIAL_NAMES}
    for i, c in enumerate(RECORD_COLUMNS):
        v = records[c]
        if c in codes:
            v = v.map({n: j for j, n in enumerate(codes[c])})
        rows[:, i] = v.to_numpy()
    return rows


def test_records_frame_equals_the_column_by_column_frame(engine_records):
    rows = _rows(engine_records)
    for part in (rows, rows[:1], rows[:0], rows[::7]):
        want = records_frame_before(part, "heuristic", "special_chaser:wild_bias=2")
        got = records_frame(part, "heuristic", "special_chaser:wild_bias=2")
        pd.testing.assert_frame_equal(got, want, check_exact=True)
        assert list(got.dtypes) == list(want.dtypes)
    # and the engine's frame is the one the old builder made of its rows
    want = records_frame_before(rows, "heuristic", "special_chaser")
    pd.testing.assert_frame_equal(engine_records, want, check_exact=True)


def test_team_view_equals_the_column_by_column_view(engine_records):
    from analysis.synthetic import synthetic_records

    synthetic = synthetic_records(300, 4, ("heuristic", "random"), p_special={"heuristic": 0.05})
    for records in (engine_records, synthetic, engine_records.iloc[:1], engine_records.iloc[:0]):
        pd.testing.assert_frame_equal(team_view(records), team_view_before(records),
                                      check_exact=True)  # fmt: skip


def _same_snapshot(a: dict, b: dict) -> None:
    assert b.keys() <= a.keys()  # the snapshot now has more features (issue 34), not fewer
    for k in b:
        if k != "position":
            assert a[k] == b[k] and type(a[k]) is type(b[k]), k
            continue
        pa, pb = a[k], b[k]
        for f in ("hand", "seat", "turn", "scores", "pile_top", "pile", "pile_size", "stock",
                  "hand_sizes"):  # fmt: skip
            x, y = getattr(pa, f), getattr(pb, f)
            if isinstance(x, np.ndarray):
                assert x.dtype == y.dtype and np.array_equal(x, y), f
            else:
                assert x == y and type(x) is type(y), f
        assert pa.melds.keys() == pb.melds.keys()
        for t in pa.melds:
            assert len(pa.melds[t]) == len(pb.melds[t])
            for g, h in zip(pa.melds[t], pb.melds[t], strict=True):
                assert g.dtype == h.dtype and np.array_equal(g, h)


def test_snapshot_equals_the_snapshot_before():
    """Every turn start of 12 hands of heuristic play (melds of both teams, piles of every
    size), snapshot by both functions at the same moment."""
    import sim
    from sim.engine.judge import forced_action

    seen = 0
    for h in range(12):
        g = sim.Game(seed=9, hand_id=h)
        while not g.is_over:
            if int(g.state[E.ST_PHASE]) == E.PH_DRAW:
                _same_snapshot(D.snapshot(g), snapshot_before(g))
                seen += 1
            a = int(forced_action(g.observation()))
            g.apply(a if a >= 0 else g.policy_action("heuristic"))
    assert seen > 200
