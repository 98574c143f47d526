"""The peeking references (``peeking_strong`` and the narrower scopes of
``sim.engine.contract.PEEK_*``, bounds of what the public card memory is worth): what each
sees (``sim.engine.play.peek_hands``, on real hands against the true hands and the memory),
the engine's mode bits that carry the scope, and that the sight reaches the policy's play."""

import numpy as np
import pytest

from sim import encoding as E
from sim.api import simulate
from sim.engine import contract as C
from sim.engine.play import peek_hands
from sim.play.table import TableView
from sim.policies import strong
from sim.policies.registry import get
from tests.real_hands import games

ROWS = slice(E.OB_KNOWN + E.N_KINDS, E.OB_KNOWN + E.N_PLAYERS * E.N_KINDS)


def _observed(hands=6, seed=3):
    """(true hands of seats p+1..p+3, memory rows, observation) at every decision of real
    hands of strong self-play."""
    for g, obs in games(("strong", "strong"), seed, range(hands), None):
        p = g.current_player
        true = np.array(
            [
                TableView(g.state).hands[q]
                for q in ((p + i) % E.N_PLAYERS for i in range(1, E.N_PLAYERS))
            ]
        )
        yield g, p, true, obs[ROWS].reshape(3, E.N_KINDS).copy(), obs


def test_each_scope_sees_what_it_says():
    """PEEK_HANDS: every other hand; PEEK_KINDS: the true count where the memory knows a card
    of the kind, the memory (0) elsewhere; PEEK_WHEN: every hand where the memory holds a card,
    else the memory; PEEK_NEXT / PEEK_OTHERS: the next player's row / the other two, the rest
    the memory; PEEK_NEXT_WHEN: PEEK_NEXT where the memory holds a card. The memory is a
    lower bound of every hand, so each sees at least it."""
    seen_when = seen_kinds = 0
    for g, p, true, mem, obs in _observed():
        assert (mem <= true).all()
        out = {}
        for scope in range(C.PEEK_NEXT_WHEN + 1):
            o = obs.copy()
            peek_hands(g.state, p, o, scope)
            out[scope] = o[ROWS].reshape(3, E.N_KINDS)
            assert (o[: ROWS.start] == obs[: ROWS.start]).all()  # nothing else changes
            assert (o[ROWS.stop :] == obs[ROWS.stop :]).all()
        assert (out[C.PEEK_HANDS] == true).all()
        assert (out[C.PEEK_KINDS] == np.where(mem > 0, true, 0)).all()
        assert (out[C.PEEK_WHEN] == (true if mem.any() else mem)).all()
        assert (out[C.PEEK_NEXT] == np.vstack([true[:1], mem[1:]])).all()
        assert (out[C.PEEK_OTHERS] == np.vstack([mem[:1], true[1:]])).all()
        nxt = np.vstack([true[:1], mem[1:]]) if mem.any() else mem
        assert (out[C.PEEK_NEXT_WHEN] == nxt).all()
        seen_when += bool(mem.any())
        seen_kinds += bool((out[C.PEEK_KINDS] > mem).any())
    assert seen_when > 0 and seen_kinds > 0  # the hands exercised the narrow scopes


def test_engine_mode_carries_each_peeking_teams_scope():
    s = get("strong").decide
    k = strong.peek_kinds_strong_decide
    n = strong.peek_next_strong_decide
    get("peeking_strong")  # the registry marks the references on import
    trust = C.MODE_TRUST0 | C.MODE_TRUST1
    assert C.engine_mode((s, s), False) == trust
    assert C.engine_mode((k, s), False) == trust | C.MODE_PEEK0 | C.PEEK_KINDS << 5
    assert C.engine_mode((s, n), False) == trust | C.MODE_PEEK1 | C.PEEK_NEXT << 8
    assert C.engine_mode((s, n), True) == C.MODE_DEBUG | C.MODE_PEEK1 | C.PEEK_NEXT << 8
    assert C.MODE_SCOPE_SHIFT == 5
    with pytest.raises(ValueError, match="scope"):
        C.mark_peeking(k, 9)


def test_peeking_reaches_the_play():
    """peeking_strong plays strong:memory_weight=1 but reads the true hands: on the same
    deals, its team's results differ from strong:memory_weight=1's on some hands (and the
    opponents' policy is the same)."""
    a = simulate(60, ("peeking_strong", "strong"), seed=5)
    b = simulate(60, ("strong:memory_weight=1", "strong"), seed=5)
    c = simulate(60, ("strong:memory_weight=1", "strong"), seed=5)
    assert (b["score_team0"].to_numpy() == c["score_team0"].to_numpy()).all()
    assert (a["score_team0"].to_numpy() != b["score_team0"].to_numpy()).any()


@pytest.mark.parametrize(
    ("spec", "want"),
    [
        ("strong", True),  # its shipped parameters read the memory (docs/policies.md)
        ("strong:memory_weight=0", False),
        ("strong:memory_weight=1", True),
        ("game_strong", True),  # strong's shipped parameters
        ("heuristic:memory_weight=0.5", True),
        ("heuristic", False),
        ("expert", True),  # its determinizations place the memory's cards by default
        ("expert:memory=0", False),
        ("expert:memory=1", True),
        ("peeking_strong", True),
        ("peeking_strong:memory_weight=0", True),  # sees the hands, whatever it reads
        ("random", False),
        ("no_such_policy", None),
    ],
)
def test_plays_with_memory(spec, want):
    from sim.policies.heuristic_params import plays_with_memory

    assert plays_with_memory(spec) is want


def test_report_subtitle_names_the_policies_and_their_memory():
    from types import SimpleNamespace

    from reports.content import policies_played

    runs = [
        SimpleNamespace(policies=("strong:memory_weight=1", "heuristic")),
        SimpleNamespace(policies=("heuristic", "strong:memory_weight=1")),
    ]
    said = policies_played(SimpleNamespace(runs=runs))
    assert said == (
        ", policies strong:memory_weight=1, heuristic "
        "(playing with the public card memory: strong:memory_weight=1)"
    )
    runs = [SimpleNamespace(policies=("strong:memory_weight=0", "heuristic"))]
    assert policies_played(SimpleNamespace(runs=runs)).endswith(
        "(none playing with the public card memory)"
    )
    runs = [SimpleNamespace(policies=("strong", "heuristic"))]
    assert policies_played(SimpleNamespace(runs=runs)).endswith(
        "(playing with the public card memory: strong)"
    )


def test_the_step_api_peeks_as_the_engine_does():
    """Game.policy_action("peeking_strong") is strong:memory_weight=1 on the observation with
    the true hands (peek_hands), and differs from it on the plain observation somewhere."""
    from sim.policies.registry import parse

    spec, params, _ = parse("strong:memory_weight=1")
    differ = 0
    for g, p, _true, _mem, obs in _observed(hands=4, seed=8):
        o = obs.copy()
        peek_hands(g.state, p, o, C.PEEK_HANDS)
        rng = g.rng.copy()
        want = int(spec.decide(o, params, rng, g.rules, g._scratch))
        plain = int(spec.decide(obs, params, g.rng.copy(), g.rules, g._scratch))
        assert g.policy_action("peeking_strong") == want
        assert (g.observation() == obs).all()  # the game's own observation is not touched
        differ += want != plain
    assert differ > 0
