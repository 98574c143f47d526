"""Special-hand catalogues as data (SPECIAL-8..10): the `cla` preset, the rulebook's examples,
and a club's list read from TOML."""

import tomllib
from pathlib import Path

import numpy as np
import pytest

from sim import encoding as E
from sim.catalogue import CLA, PRESETS, best_hand, catalogue_from
from sim.errors import CanastaError
from sim.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[1]


def counts_of(pairs):
    c = np.zeros(E.N_KINDS, dtype=np.int64)
    for kind, n in pairs.items():
        c[kind] += n
    return c


def test_special_8_cla_list_has_eleven_hands_of_14_cards():
    """SPECIAL-8: eleven hands, each 14 cards; two win the game (SPECIAL-10)."""
    assert len(CLA) == 11 and all(h.size == 14 for h in CLA)
    assert [h.name for h in CLA if h.wins_game] == ["dream_hand_plus_4", "dream_hand_plus_5"]


def test_special_8_examples_of_the_rulebook():
    """SPECIAL-8 examples: Zip Code 8-8 JK-JK Q-Q-Q K-K-K 4-4-4-4; Blast Off K5 Q4 8x3 2-2."""
    names = [h.name for h in CLA]
    zip_code = counts_of({E.EIGHT: 2, E.JOKER: 2, E.QUEEN: 3, E.KING: 3, E.FOUR: 4})
    assert names[best_hand(CLA, zip_code)] == "zip_code"
    blast = counts_of({E.KING: 5, E.QUEEN: 4, E.EIGHT: 3, E.TWO: 2})
    assert names[best_hand(CLA, blast)] == "blast_off"
    two_wild = counts_of({E.EIGHT: 2, E.JOKER: 2, E.QUEEN: 3, E.TWO: 3, E.FOUR: 4})
    assert best_hand(CLA, two_wild) == -1  # Zip Code: at most one matching wild group


def test_special_9_club_example_file_reads():
    """SPECIAL-9: the example club list reads, and its jokers pair hand matches."""
    import tomllib

    from sim.catalogue import matches

    data = tomllib.loads((ROOT / "rules" / "club-example.toml").read_text())
    hands = catalogue_from(data["special_hands"])
    c = counts_of({E.ACE: 2, E.SEVEN: 2, E.JOKER: 2, E.KING: 2, E.QUEEN: 2, E.FOUR: 2, E.NINE: 2})
    assert [matches(h, c) for h in hands] == [False, True, False]


def test_special_9_impossible_list_refused_in_one_line_naming_the_key():
    """SPECIAL-9: a hand that is not 14 cards is refused in one line naming the key."""
    import pytest

    from sim.errors import CanastaError

    with pytest.raises(CanastaError) as err:
        catalogue_from([{"name": "x", "award": 1, "groups": [{"size": 7}]}])
    assert "\n" not in str(err.value) and str(err.value).startswith("ruleset key")


@pytest.mark.parametrize(
    "value, key",
    [
        ([{"name": "x", "award": 1, "groups": [{"size": 9}, {"size": 5}]}], ".size"),
        ([{"name": "x", "award": 1, "groups": [{"size": 2}] * 6}], "groups"),
        ([{"name": "x", "award": 1, "groups": [{"size": 7, "kind": "odd"}] * 2}], ".kind"),
        ([{"name": "x", "award": 1, "groups": [{"size": 7, "rank": "3"}] * 2}], ".rank"),
        (
            [
                {
                    "name": "x",
                    "award": 1,
                    "groups": [{"size": 5, "kind": "wild"}] * 2 + [{"size": 4}],
                }
            ],
            "groups",
        ),
        ([{"name": "x", "award": -1, "groups": [{"size": 7}] * 2}], ".award"),
        ([{"name": "x", "award": 1, "colour": 1, "groups": [{"size": 7}] * 2}], ".colour"),
        ("club", "'special_hands'"),
    ],
)
def test_special_9_impossible_lists_refused_in_one_line_naming_the_key(value, key):
    """SPECIAL-9: a group larger than its kind's copies, not 14 cards, an unknown kind or rank,
    two wild groups of 5 (only 4 jokers): a one-line CanastaError naming the key."""
    with pytest.raises(CanastaError) as err:
        catalogue_from(value)
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("ruleset key") and key in msg


@pytest.mark.parametrize("name", ["tournament", "cla"])
def test_special_7_preset_files_write_out_the_presets(name):
    """SPECIAL-7: the shipped <preset>.toml writes out the preset list exactly."""
    data = tomllib.loads((ROOT / "rules" / f"{name}.toml").read_text())
    assert catalogue_from(data["special_hands"]) == tuple(
        h.__class__(h.name, h.groups, h.award, h.wins_game, h.max_wild_groups)
        for h in PRESETS[name]
    )


@pytest.mark.parametrize("name", ["tournament", "cla", "club-example"])
def test_special_7_9_ruleset_files_load_and_round_trip(name):
    """SPECIAL-7/9: each shipped file loads as a Ruleset (a preset written out is the preset),
    and to_dict reads back to the same ruleset."""
    rules = Ruleset.from_toml(ROOT / "rules" / f"{name}.toml")
    if name in PRESETS:
        assert rules.special_hands == name and rules.catalogue == PRESETS[name]
    else:
        assert len(rules.catalogue) == 3 and rules.label == "Example club"
    assert Ruleset.from_dict(rules.to_dict()) == rules


def test_special_9_bad_list_in_a_ruleset_is_one_line_naming_the_key():
    """SPECIAL-9: an impossible hand in a ruleset's list is refused in one line naming it."""
    bad = [{"name": "big", "award": 1, "groups": [{"size": 9}, {"size": 5}]}]
    with pytest.raises(CanastaError) as err:
        Ruleset(special_hands=bad)
    assert "\n" not in str(err.value) and "special_hands[0] (big).groups[0].size" in str(err.value)
    with pytest.raises(CanastaError, match="ruleset key 'special_hands'"):
        Ruleset(special_hands="club")
    with pytest.raises(CanastaError, match="at most 16 hands"):
        Ruleset(special_hands=[dict(h, name=f"p{i}") for i, h in enumerate([PAIRS] * 17)])


PAIRS = {"name": "p", "award": 1, "groups": [{"size": 2}] * 7}


def test_special_7_shipped_files_are_package_data_and_rules_links_to_them(tmp_path, monkeypatch):
    """SPECIAL-7: the shipped ruleset files live in the package (sim/rulesets/*.toml); a
    clone's rules/ names the same files; outside a clone ``rules/cla.toml``, ``cla.toml`` and
    ``club-example`` load the package's files."""
    from sim.ruleset import RULESETS_DIR, as_ruleset, shipped_rulesets

    files = shipped_rulesets()
    assert sorted(files) == ["cla", "club-example", "tournament"]
    assert all(p.parent == RULESETS_DIR for p in files.values())
    for name, path in files.items():
        assert (ROOT / "rules" / f"{name}.toml").resolve() == path.resolve()
    monkeypatch.chdir(tmp_path)  # no rules/ here: the package's files
    assert as_ruleset("rules/cla.toml") == as_ruleset(files["cla"]) == Ruleset(special_hands="cla")
    assert as_ruleset("cla.toml").name == "cla"
    assert as_ruleset("club-example").label == "Example club"
    assert as_ruleset("none") == Ruleset(special_hands="none")
    with pytest.raises(CanastaError, match="not found"):
        as_ruleset("rules/house.toml")


@pytest.mark.slow
def test_special_7_shipped_files_are_in_the_wheel(tmp_path):
    """SPECIAL-7: a wheel built from the tree holds the shipped ruleset files (a zipfile
    listing, nothing installed; ~15 s: pip builds in an isolated environment)."""
    import glob
    import subprocess
    import sys
    import zipfile

    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(ROOT), "-w", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = glob.glob(str(tmp_path / "canasta_sim-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"sim/rulesets/{n}.toml" for n in ("cla", "club-example", "tournament")} <= names
    # PEP 561: the packages say they ship their annotations
    assert {f"{p}/py.typed" for p in ("sim", "analysis", "reports", "canasta")} <= names
