"""``canasta rules FILE`` (SPECIAL-7..10 in words) and ``--rules`` for ``canasta score`` and
``canasta check-meld``: every face takes the ruleset and names it."""

import json
from pathlib import Path

import pytest

from canasta import main
from sim.catalogue import CLA

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_special_7_rules_command_says_what_the_cla_file_means(capsys):
    """SPECIAL-7/8/10: the cla file in words: its name, special_hands changed, the eleven
    hands with awards, and the two that win the game."""
    code, out, _ = run(capsys, "rules", str(ROOT / "rules" / "cla.toml"))
    assert code == 0
    assert out.startswith("Ruleset: cla")
    assert "* special_hands" in out and "SPECIAL-7" in out
    for h in CLA:
        assert f"  {h.name}: " in out and f"{h.award:,}" in out
    assert out.count("wins the game (SPECIAL-10)") == 2


def test_special_9_rules_command_json_for_a_club_file(capsys):
    """SPECIAL-9: a club's file as JSON: its name, keys with rule IDs, its three hands."""
    code, out, _ = run(
        capsys, "rules", str(ROOT / "rules" / "club-example.toml"), "--format", "json"
    )
    info = json.loads(out)
    assert code == 0 and info["name"] == "Example club"
    assert [h["name"] for h in info["special_hands"]] == ["pairs", "pairs_with_jokers", "garbage"]
    assert info["keys"]["target"] == {
        "value": 8500,
        "rule": "GAME-1",
        "meaning": "the score that wins a game",
        "default": 8500,
    }
    assert info["changed"] == ["special_hands"]


def test_special_7_rules_command_preset_names_and_defaults(capsys):
    """SPECIAL-7: a preset name reads without a file; the default says every key is default."""
    code, out, _ = run(capsys, "rules", "tournament")
    assert code == 0 and "Every key has its default value" in out and "straight: " in out
    code, out, _ = run(capsys, "rules", "none")
    assert code == 0 and "Special hands: none (SPECIAL-7)." in out


@pytest.mark.parametrize(
    "content, key",
    [
        (
            '[[special_hands]]\nname = "x"\naward = 1\ngroups = [{size = 7}]\n',
            "special_hands[0] (x).groups",
        ),
        ('special_hands = "club"\n', "'special_hands'"),
        (
            '[[special_hands]]\nname = "x"\naward = 1\ngroups = [{size = 14, kind = "odd"}]\n',
            ".kind",
        ),
    ],
)
def test_special_9_malformed_list_refused_in_one_line_naming_the_key(
    capsys, tmp_path, content, key
):
    """SPECIAL-9: a malformed list is one line on stderr naming the key, exit 2."""
    path = tmp_path / "bad.toml"
    path.write_text(content)
    code, out, err = run(capsys, "rules", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1 and key in err


def test_score_8_cla_award_with_rules_file(capsys, tmp_path):
    """SCORE-8 under --rules rules/cla.toml: a declared Zip Code scores 2,500 (not a special
    hand of the tournament list), and the output names the ruleset."""
    zip_code = "8S 8H JK JK QS QH QD KS KH KD 4S 4H 4D 4C".split()
    data = {
        "teams": [
            {
                "melds": [],
                "threes": [],
                "hands": [[], ["5S"]],
                "went_out": False,
                "special_hand": zip_code,
            },
            {"melds": [], "threes": [], "hands": [["6S"], ["9S"]], "went_out": False},
        ]
    }
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data))
    code, out, err = run(
        capsys, "score", str(path), "--rules", str(ROOT / "rules" / "cla.toml"), "--format", "json"
    )
    assert code == 0, err
    got = json.loads(out)
    assert got["ruleset"] == "cla" and got["teams"][0]["breakdown"]["special_hand"] == 2500
    code, _, err = run(capsys, "score", str(path), "--format", "json")
    assert code == 2 and "SPECIAL-" in err  # the tournament list has no Zip Code


def test_open_1_open_2_variants_shown_validated_and_recorded(capsys, tmp_path):
    """OPEN-1/OPEN-2 house variants: ``canasta rules`` shows both keys with their rule IDs; a
    bad value is refused in one line naming the key; the keys are written to records."""
    from sim.errors import CanastaError
    from sim.play import Hand as Game
    from sim.ruleset import Ruleset

    f = tmp_path / "house.toml"
    f.write_text('name = "house"\nopening_minimum = "hand"\nopening_natural = false\n')
    code, out, _ = run(capsys, "rules", str(f), "--format", "json")
    info = json.loads(out)
    assert code == 0 and sorted(info["changed"]) == ["opening_minimum", "opening_natural"]
    assert info["keys"]["opening_minimum"]["rule"] == "OPEN-1"
    assert info["keys"]["opening_natural"]["rule"] == "OPEN-2"
    for bad, key in [
        ({"opening_minimum": "turn"}, "opening_minimum"),
        ({"opening_natural": "no"}, "opening_natural"),
    ]:
        with pytest.raises(CanastaError, match=f"ruleset key '{key}'"):
            Ruleset.from_dict(bad)
    f.write_text('opening_minimum = "hands"\n')
    code, _, err = run(capsys, "rules", str(f))
    assert code != 0 and "opening_minimum" in err and len(err.strip().splitlines()) == 1
    rec = Game(seed=1, rules={"opening_natural": False}).record()
    assert rec["ruleset"]["opening_natural"] is False
    assert rec["ruleset"]["opening_minimum"] == "score"
