"""``canasta odds --exact``: ODDS-1 exact odds on the command line."""

import json
from fractions import Fraction

import pytest

from canasta import main
from sim.odds import MODEL, NAMES, exact_odds


def run_json(capsys, *argv):
    assert main(["odds", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_odds_1_exact_json_has_every_hand(capsys):
    out = run_json(capsys, "--exact")
    assert list(out) == list(NAMES)
    exact = exact_odds()
    for name, row in out.items():
        assert Fraction(row["fraction"]) == exact[name]
        assert row["exact"] == pytest.approx(float(exact[name]), rel=1e-12)
        assert row["one_in"] == round(1 / exact[name])


def test_odds_1_exact_is_the_default_mode(capsys):
    assert run_json(capsys) == run_json(capsys, "--exact")


def test_odds_1_table_states_the_model(capsys):
    assert main(["odds", "--exact"]) == 0
    out = capsys.readouterr().out
    assert " ".join(out.split()).startswith(" ".join(MODEL.split()))
    for name in NAMES:
        assert name in out


def test_special_7_rules_file_turns_specials_off(capsys, tmp_path):
    toml = tmp_path / "r.toml"
    toml.write_text('special_hands = "none"\n')
    out = run_json(capsys, "--rules", str(toml))
    assert all(row["exact"] == 0 and row["one_in"] is None for row in out.values())
    assert main(["odds", "--rules", str(toml)]) == 0
    assert "SPECIAL-7" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "not found"), ("special_hands = 'classic'\n", "special_hands"), ("x = [", "TOML")],
)
def test_bad_rules_file_is_one_line_exit_2(capsys, tmp_path, content, message):
    toml = tmp_path / "r.toml"
    if content is not None:
        toml.write_text(content)
    assert main(["odds", "--rules", str(toml)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("canasta: error:") and message in err


def test_bad_format_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["odds", "--format", "xml"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_odds_1_sampled_json_adds_estimates_beside_exact(capsys):
    """ODDS-1 `canasta odds -n`: the --exact keys, each adding hits, deals, estimate and a 95%
    interval; the same seed gives the same counts whatever --jobs is."""
    import json

    from analysis.intervals import wilson_bounds
    from canasta import main

    assert main(["odds", "-n", "400000", "--seed", "5", "--format", "json", "--quiet"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert set(one) == {"straight", "pairs", "pairs_twos_sevens_aces", "garbage", "any"}
    for row in one.values():
        assert {"exact", "fraction", "hits", "deals", "estimate", "ci_low", "ci_high"} <= set(row)
        assert row["deals"] == 400_000
        # the printed estimate and interval are those of the printed counts (95% Wilson)
        assert row["estimate"] == pytest.approx(row["hits"] / row["deals"], rel=1e-12, abs=0)
        _, low, high = wilson_bounds(row["hits"], row["deals"])
        assert (row["ci_low"], row["ci_high"]) == pytest.approx((float(low), float(high)), rel=1e-9)
    argv = ["odds", "-n", "400000", "--seed", "5", "--jobs", "2", "--format", "json", "--quiet"]
    assert main(argv) == 0
    two = json.loads(capsys.readouterr().out)
    assert {k: v["hits"] for k, v in one.items()} == {k: v["hits"] for k, v in two.items()}


def test_odds_sampled_bad_input_is_one_line(capsys):
    from canasta import main

    for argv in (
        ["odds", "-n", "0"],
        ["odds", "-n", "10", "--jobs", "0"],
        ["odds", "--exact", "-n", "10"],
        ["odds", "--max-deals", "5"],
        ["odds", "--rel-error", "2"],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("canasta: error:") and err.count("\n") == 1, err


def test_odds_1_model_sentence_describes_the_list_in_force(capsys):
    """ODDS-1: under the cla list the model names that list and its hands (a three's hand,
    the Straight, apart), not the tournament's; the tournament keeps MODEL."""
    import textwrap

    from sim.catalogue import CLA
    from sim.odds import model_statement

    text = model_statement("cla")
    assert "Special-hand list: cla (11 hands)" in text and "twos-sevens-aces" not in text
    assert all(h.name in text for h in CLA)
    assert model_statement(None) == MODEL and "off" in model_statement("none")
    assert main(["odds", "--rules", "cla"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert " ".join(textwrap.wrap(text, 92)) in out and "twos-sevens-aces" not in out
