"""Special-hand catalogues as data (SPECIAL-8..10): the `cla` preset, the rulebook's examples,
and a club's list read from TOML."""

from pathlib import Path

import numpy as np

from sim import encoding as E
from sim.catalogue import CLA, best_hand, catalogue_from

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
