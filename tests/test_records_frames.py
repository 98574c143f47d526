"""The frames the analyses read, checked against their definitions (docs/records.md) by plain
Python twins built row by row from the kernel's rows and the engine's state:

- ``sim.engine.frames.records_frame``: the record header's columns in order with the policy
  labels after ``hand_id``, every cell the kernel's int64 (codes named for ``end_reason`` and
  ``special_hand``), with rows, one row and none;
- ``analysis.schema.team_view``: one row per (hand, team), team 0's hands then team 1's, the
  team's fields without prefix, its opponents' policy and score beside its own (SCORE-1..8),
  on engine records and synthetic ones;
- ``analysis.decisions.snapshot``: the Position holds exactly the cards the state says (the
  hand, both teams' melds, the pile in order, CARD-1: no card twice), and the features read
  from it agree with the state, at every turn start of real hands (lazy or not).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from pandas.api.types import is_numeric_dtype

from analysis import decisions as D
from analysis.schema import team_view
from sim import encoding as E
from sim.encoding import END_NAMES, RECORD_COLUMNS, SPECIAL_NAMES
from sim.engine.frames import POLICY_COLUMNS, records_frame

NAMED = {"end_reason": END_NAMES, "special_hand": SPECIAL_NAMES}  #: code columns, by name


@pytest.fixture(scope="module")
def engine_records():
    import sim

    return sim.simulate(400, seed=12, policies=("heuristic", "special_chaser"), progress=False)


def _rows(records: pd.DataFrame) -> np.ndarray:
    """The kernel's int64 rows back from a records frame (names to codes)."""
    rows = np.zeros((len(records), len(RECORD_COLUMNS)), dtype=np.int64)
    for i, c in enumerate(RECORD_COLUMNS):
        v = records[c]
        if c in NAMED:
            v = v.map({n: j for j, n in enumerate(NAMED[c])})
        rows[:, i] = v.to_numpy()
    return rows


def _frame_twin(rows: np.ndarray, labels: tuple[str, str]) -> list[dict]:
    """The records frame's rows as the schema defines them, one dict a hand."""
    out = []
    for row in rows.tolist():
        cells = {
            c: NAMED[c][v] if c in NAMED else v for c, v in zip(RECORD_COLUMNS, row, strict=True)
        }
        out.append({**cells, POLICY_COLUMNS[0]: labels[0], POLICY_COLUMNS[1]: labels[1]})
    return out


def test_records_frame_is_the_kernels_rows_named(engine_records):
    rows = _rows(engine_records)
    labels = ("heuristic", "special_chaser:wild_bias=2")
    order = [RECORD_COLUMNS[0], *POLICY_COLUMNS, *RECORD_COLUMNS[1:]]
    for part in (rows, rows[:1], rows[:0], rows[::7]):
        got = records_frame(part, *labels)
        assert list(got.columns) == order and len(got) == len(part)
        for c in order:  # numbers stay the kernel's int64; names and labels are text
            named = c in NAMED or c in POLICY_COLUMNS
            assert (not is_numeric_dtype(got[c])) if named else got[c].dtype == np.int64, c
        assert got.to_dict("records") == _frame_twin(part, labels)
    # the engine's own frame is the one made of its rows
    again = records_frame(rows, "heuristic", "special_chaser")
    pd.testing.assert_frame_equal(engine_records, again, check_exact=True)


def _team_view_twin(records: pd.DataFrame) -> list[dict]:
    """One dict per (hand, team), team 0's hands first, each as docs/records.md defines it."""
    cols = list(records.columns)
    fields = sorted(
        {c[6:] for c in cols if c.startswith("team0_")}
        & {c[6:] for c in cols if c.startswith("team1_")}
    )
    out = []
    for t in range(E.N_TEAMS):
        o = 1 - t
        for r in records.to_dict("records"):
            row = {
                "hand_id": r["hand_id"],
                "team": t,
                "policy": r[f"policy_team{t}"],
                "opp_policy": r[f"policy_team{o}"],
                "first_player": r["first_player"],
                "turns": r["turns"],
                "end_reason": r["end_reason"],
                "score": r[f"score_team{t}"],
                "opp_score": r[f"score_team{o}"],
                "went_out": r["out_team"] == t,
            }
            for f in fields:  # the team's SCORE-8 item is its special-hand award
                row["special_award" if f == "special_hand" else f] = r[f"team{t}_{f}"]
            if "special_team" in r:
                declared = r["special_team"] == t
            else:
                declared = "special_hand" in fields and r[f"team{t}_special_hand"] > 0
            row["declared_special"] = declared
            row["net"] = row["score"] - row["opp_score"]
            row["won"] = 1.0 if row["net"] > 0 else 0.5 if row["net"] == 0 else 0.0
            row["special_name"] = str(r["special_hand"]) if declared else ""
            out.append(row)
    return out


def test_team_view_is_one_row_per_team_and_hand(engine_records):
    from analysis.synthetic import synthetic_records

    synthetic = synthetic_records(300, 4, ("heuristic", "random"), p_special={"heuristic": 0.05})
    for records in (engine_records, synthetic, engine_records.iloc[:1], engine_records.iloc[:0]):
        got = team_view(records)
        want = _team_view_twin(records)
        assert len(got) == 2 * len(records)
        if want:
            assert set(got.columns) == set(want[0])
        got_rows = got.to_dict("records")
        assert [{k: r[k] for k in w} for r, w in zip(got_rows, want, strict=True)] == want
        assert got["won"].dtype == np.float64 and got["team"].dtype == np.int64


def _kinds(cards) -> list[int]:
    return sorted(int(E.CARD_KIND[c]) for c in cards)


def _check_snapshot(snap: dict, game) -> None:
    """The snapshot of ``game`` at a turn start against the state it was read from."""
    from sim.engine.views import st_hands, st_melds, st_threes
    from sim.play.table import TableView
    from sim.policies.builtin import special_targets

    st = game.state
    hands, melds, threes = st_hands(st), st_melds(st), st_threes(st)
    p = int(game.current_player)
    team = p % E.N_TEAMS
    n_pile = int(st[E.ST_PILE_N])
    pile = TableView(st).pile_kinds.tolist()
    pos = snap["position"]
    # the cards: the hand, every meld, the pile in order, none twice (CARD-1)
    assert _kinds(pos.hand) == [k for k in range(E.N_KINDS) for _ in range(int(hands[p, k]))]
    sizes = []  # sizes[team][slot]: cards in the meld, from the Position
    for t in range(E.N_TEAMS):
        want = [tuple(int(x) for x in melds[t, s, :3]) for s in range(E.N_KINDS)]
        got = [(0, 0, 0)] * E.N_KINDS
        for group in pos.melds.get(t, ()):
            ks = [int(E.CARD_KIND[c]) for c in group]
            wilds = ks.count(E.TWO), ks.count(E.JOKER)
            natural = [k for k in ks if k not in (E.TWO, E.JOKER)]
            slot = natural[0] if natural else E.WILD_MELD
            assert got[slot] == (0, 0, 0) and set(natural) <= {slot}
            got[slot] = (len(natural), *wilds)
        assert got == want, t
        sizes.append([sum(g) for g in got])
    shown = [*pos.pile, pos.pile_top] if n_pile else []
    assert [int(E.CARD_KIND[c]) for c in shown] == pile
    assert pos.pile_size == n_pile and (pos.pile_top == -1) == (n_pile == 0)
    cards = [*pos.hand, *pos.pile, *(c for g in pos.melds.values() for m in g for c in m)]
    cards += [pos.pile_top] if n_pile else []
    assert len(set(cards)) == len(cards)
    assert (pos.seat, pos.turn) == (p, int(st[E.ST_TURN]))
    assert pos.scores == tuple(int(x) for x in TableView(st).scores)
    assert pos.stock == int(st[E.ST_STOCK_N]) + int(threes.sum())  # laid threes are unseen
    assert pos.hand_sizes == tuple(int(x) for x in hands.sum(axis=1))
    # the features: the counts from the Position just checked, the rest from the observation
    obs = game.observation(p)
    held = np.bincount(_kinds(pos.hand), minlength=E.N_KINDS)
    own = sizes[team]
    canasta = [[n >= E.CANASTA for n in sizes[t]] for t in range(E.N_TEAMS)]  # MELD-10
    need = np.zeros((3, E.N_KINDS), dtype=np.int64)
    distance = special_targets(np.ascontiguousarray(hands[p]), need[0], need[1], need[2])
    want = {
        "went_out": False,
        "special_distance": int(min(distance)),
        "can_take": n_pile > 0 and game.reason(E.A_TAKE_PILE) == E.R_OK,
        "aces_dead": canasta[0][E.ACE] or canasta[1][E.ACE],  # MELD-9
        "sevens_dead": canasta[0][E.SEVEN] or canasta[1][E.SEVEN],
        "wild_meld": own[E.WILD_MELD] > 0,
        "aces_meld": own[E.ACE] > 0,
        "sevens_meld": own[E.SEVEN] > 0,
        "canastas": sum(canasta[team]),
        "opened": int(obs[E.OB_OPENED]),
        "wilds": int(held[E.TWO]) + int(held[E.JOKER]),
        "aces": int(held[E.ACE]),
        "sevens": int(held[E.SEVEN]),
        "pile": int(obs[E.OB_PILE_N]),
        "stock": int(obs[E.OB_STOCK_N]),
        "turn": int(obs[E.OB_TURN]),
        "team": team,
        "seat": p,
    }
    for k, v in want.items():
        assert snap[k] == v and type(snap[k]) is type(v), k


def test_snapshot_holds_the_states_cards_and_features():
    """Every turn start of 12 hands of heuristic play (melds of both teams, piles of every
    size), the snapshot taken eagerly and lazily."""
    import sim

    seen = 0
    for h in range(12):
        g = sim.Hand(seed=9, hand_id=h)
        for _ in g.turns(("heuristic", "heuristic")):  # each step before its action
            if g.phase == "draw":
                _check_snapshot(D.snapshot(g), g)
                _check_snapshot(D.snapshot(g, lazy=True), g)
                seen += 1
    assert seen > 200


def test_records_frame_follows_the_string_option(engine_records):
    """The names and labels take the type pandas infers for strings under its option
    ``future.infer_string`` at the time of the call (the type is kept for each value of the
    option, never for good), with the same cells either way."""
    import warnings

    rows = _rows(engine_records)
    labels = ("heuristic", "special_chaser")
    inferred = records_frame(rows, *labels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the option is deprecated in pandas 3
        with pd.option_context("future.infer_string", False):
            text = pd.Series(["x"]).dtype
            got = records_frame(rows, *labels)
    for c in ("end_reason", "special_hand", *POLICY_COLUMNS):
        assert got[c].dtype == text, c
    assert got.to_dict("records") == inferred.to_dict("records")
    assert (
        records_frame(rows, *labels)[POLICY_COLUMNS[0]].dtype == inferred[POLICY_COLUMNS[0]].dtype
    )
