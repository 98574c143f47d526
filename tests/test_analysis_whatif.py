"""analysis.whatif and `canasta whatif`: positions (CARD-1, DEAL-4, MELD-1, PILE-1/2 checks),
paired comparison of choices on a fake engine with known outcome probabilities."""

import json

import numpy as np
import pytest

from analysis import synthetic as syn
from analysis import whatif as wi
from canasta import main
from sim.errors import CanastaError

HAND = "7H 7S 7D 7C KS KD 9H 8C 6S 5D 4H 4C QS"
P_COMPLETE, P_PENALTY = 0.6, 0.3  # the fake engine's outcome probabilities


def fake_play(n, pos, choice, seed=0, policies=("heuristic", "heuristic"), n_jobs=1, ruleset=None):
    """Same deals (luck) for every choice; meld_sevens completes with P_COMPLETE (+/-2500),
    hold_sevens pays the sevens in-hand penalty with P_PENALTY (-1500)."""
    rec = syn.synthetic_records(n, seed=seed, policies=policies)
    t = pos.team
    rng = np.random.default_rng([seed, len(choice)])
    u = rng.random(n)
    luck = rec[f"score_team{t}"].to_numpy()
    if choice == "meld_sevens":
        done = u < P_COMPLETE
        rec[f"team{t}_sevens_started_turn"] = 0
        rec[f"team{t}_sevens_completed"] = done.astype(int)
        rec[f"team{t}_sevens_penalty_players"] = 0
        rec[f"score_team{t}"] = luck + np.where(done, 2500, -2500)
    else:
        pen = u < P_PENALTY
        rec[f"team{t}_sevens_started_turn"] = -1
        rec[f"team{t}_sevens_completed"] = 0
        rec[f"team{t}_sevens_penalty_players"] = pen.astype(int)
        rec[f"score_team{t}"] = luck - 1500 * pen
    return rec


def test_whatif_recovers_known_outcomes():
    """Completion 0.6 and penalty 0.3 within 5 SE; points difference hold - meld has truth
    -1500*0.3 - 2500*(2*0.6 - 1) = -950, recovered within 5 SE of the paired difference."""
    n = 4000
    pos = wi.position(HAND, seat=1)
    t = wi.whatif(pos, ["meld_sevens", "hold_sevens"], n, seed=3, play=fake_play)
    t = t.set_index("choice")
    m, h = t.loc["meld_sevens"], t.loc["hold_sevens"]
    assert m["diff_vs_first"] == 0.0 and m["sevens_started"] == n
    assert abs(m["sevens_completion"] - P_COMPLETE) <= 5 * np.sqrt(0.24 / n)
    assert abs(h["sevens_penalty"] - P_PENALTY) <= 5 * np.sqrt(0.21 / n)
    se = (h["diff_high"] - h["diff_low"]) / (2 * 1.959964)
    assert abs(h["diff_vs_first"] - (-950.0)) <= 5 * se
    assert "Wilson score interval" in t["interval"].iloc[0]


def test_card_1_and_deal_4_position_checks():
    """CARD-1: a third copy of a card is refused across hand and melds; DEAL-4: no melded three."""
    with pytest.raises(CanastaError, match="CARD-1"):
        wi.position("7H 7H", melds={0: "7H 7S 7D"})
    with pytest.raises(CanastaError, match="DEAL-4"):
        wi.position("KS", melds={1: "3S 3C 3S"})
    with pytest.raises(CanastaError, match="seat"):
        wi.position("KS", seat=4)


def test_meld_1_and_pile_1_choice_checks():
    """MELD-1: melding sevens needs 3 sevens; PILE-1/PILE-2: taking the pile needs a top card
    that is natural and a natural pair of it."""
    pos = wi.position("7H 7S KD KS 4C", pile_top="KH")
    with pytest.raises(CanastaError, match="MELD-1"):
        wi.check_choice(pos, "meld_sevens")
    wi.check_choice(pos, "take_pile")
    with pytest.raises(CanastaError, match="PILE-1"):
        wi.check_choice(wi.position("7H KS KD", pile_top="7C"), "take_pile")
    with pytest.raises(CanastaError, match="PILE-2"):
        wi.check_choice(wi.position("2H 2S KD", pile_top="2C"), "take_pile")
    with pytest.raises(CanastaError, match="DEAL-2"):
        wi.check_choice(wi.position("7H KS KD"), "take_pile")
    wi.check_choice(wi.position("7H KS KD", turn=1), "take_pile")  # top card from the deal
    with pytest.raises(CanastaError, match="unknown choice"):
        wi.check_choice(pos, "fold")


def test_cli_whatif_with_fake_engine(monkeypatch, capsys):
    monkeypatch.setattr(wi, "resolve_play", lambda play=None: fake_play)
    argv = ["whatif", "--hand", HAND, "--compare", "meld_sevens,hold_sevens", "-n", "200"]
    assert main([*argv, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["choice"] for r in out["choices"]] == ["meld_sevens", "hold_sevens"]
    assert main(argv) == 0
    assert "hold_sevens" in capsys.readouterr().out


def test_cli_whatif_errors_and_choices(capsys):
    assert main(["whatif", "--hand", "7H 7S", "--compare", "meld_sevens", "-n", "10"]) == 2
    assert "MELD-1" in capsys.readouterr().err
    assert main(["whatif", "--list-choices"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == list(wi.CHOICES)


def test_cli_help_names_every_choice():
    """The help's list of choices is the module's list."""
    from canasta import build_parser

    text = build_parser()._subparsers._group_actions[0].choices["whatif"].format_help()
    for name in wi.CHOICES:
        assert name in text


@pytest.mark.slow
def test_whatif_on_the_real_engine():
    """Compiled positions: a hand that can open (OPEN-1: 7777 AAAA KKK = 130) can always meld
    its sevens at once (applied share 1); 'policy' against itself is exactly paired (0); the
    runner path gives the same rows; fixed melds and a pile top are played (no restriction)."""
    pos = wi.position("7H 7S 7D 7C AS AD AC AH KS KD KH JK QS")
    t = wi.whatif(pos, ["policy", "meld_sevens", "hold_sevens"], 300, seed=1).set_index("choice")
    assert t.loc["meld_sevens", "applied"] == 1.0
    assert t.loc["policy", "diff_vs_first"] == 0.0
    again = wi.whatif(pos, ["policy"], 300, seed=1, n_jobs=2)  # same rows whatever the jobs
    assert again.loc[0, "points"] == t.loc["policy", "points"]
    later = wi.position(
        "KH KH 7H 7S 7D 5S 6D", seat=1, turn=9, melds={1: ["QS QS QD QD QH QH QC"]}, pile_top="KS"
    )
    t = wi.whatif(later, ["draw", "take_pile"], 200, seed=2).set_index("choice")
    assert t.loc["take_pile", "applied"] == 1.0 and t.loc["draw", "applied"] == 1.0
