"""``canasta experiment FILE.toml``: run a decision experiment declared in a spec file.

The spec (``analysis.specs``; a worked example in docs/report.md and
``experiments/example_sevens_late.toml``) names the positions, the two choices, the groupings and
the outcome; this command samples the positions from hands of the strongest fast policy, plays
both choices on the same deals at each, and prints the experiment's table (every row with its
95% interval and Holm-adjusted p-value across the table's rows) and the rule it supports.
With ``--scores A,B`` (the positions given those game scores) or ``--game`` (at the positions'
own scores), each choice is also scored by the team's chance of winning the game after the
hand, through the equity table (``analysis.decisions_game``), with the verdict at every pair of
scores in the same opening tiers (``analysis.decisions_game.by_score``).
"""

from __future__ import annotations

import argparse
import re

from canasta import flags

__all__ = ["run"]

HELP = "run a decision experiment declared in a TOML spec file"
DESCRIPTION = """
Run the decision experiment of FILE.toml (positions, the two choices, groupings, outcome: see
docs/report.md) on positions of real hands of the strongest fast policy, both choices on the
same deals, and print its table: each situation's effect (arm A minus arm B) with its 95%
interval and Holm-adjusted p-value, the verdict, and the rule of thumb it supports. With
--scores A,B (the positions given those game scores: your team's, the opponents') or --game
(at the positions' own scores), each choice is also scored by your team's chance of winning
the game after the hand (the equity table, canasta equity; built once, minutes, then cached),
with the verdict at every pair of scores of the same opening tiers.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("experiment", help=HELP, description=DESCRIPTION)
    p.add_argument("spec", metavar="FILE.toml", help="the experiment's spec file")
    flags.number(p, "--positions", 80, "positions to play")
    flags.number(p, "--deals", 32, "paired deals per position and choice")
    flags.number(
        p,
        "--hands",
        None,
        "hands sampled for positions (default 6 a position, 100+, or the spec's "
        "positions.hands_per_position)",
    )
    p.add_argument("--csv", metavar="FILE", help="also write the table as CSV")
    game = p.add_mutually_exclusive_group()
    flags.scores(
        game,
        "give every position these game scores (your team's, the opponents') and also score "
        "each choice by the chance of winning the game",
    )
    game.add_argument(
        "--game",
        action="store_true",
        help="also score each choice by the chance of winning the game, at the "
        "positions' own scores",
    )
    flags.add(p, "seed", "jobs", "rules", "quiet")
    p.set_defaults(func=run)


def _hands(attrs: dict, exp) -> int:
    """The sampled hands ``exp``'s positions were drawn from (its spec may ask for more)."""
    return int((attrs.get("experiment_hands") or {}).get(exp.key, attrs["sample_hands"]))


def format_table(exp, table, ruleset_name: str, attrs: dict) -> str:
    from analysis.decisions import rules_of_thumb, threshold_text
    from analysis.rules_of_thumb import worth_text

    lines = [
        f"{exp.title} — {exp.do} (A) vs {exp.dont} (B); outcome: {exp.outcome} points a hand, "
        f"A minus B; measured under {ruleset_name}",
        f"  {attrs.get('positions_found', 0):,} positions found in {_hands(attrs, exp):,} "
        f"hands of {attrs['policy']} (seed {attrs['seed']}), {attrs['deals']} paired deals each",
    ]
    cols = ("pos", "hands", "A − B", "95% CI", "adj. p")
    head = "  ".join(f"{c:>{w}}" for c, w in zip(cols, (5, 5, 8, 17, 7), strict=True))
    lines.append(f"  {'situation':<28} {head}  better")
    for _, r in table.iterrows():
        where = "all positions" if r["grouping"] == "all" else f"{r['grouping']}: {r['situation']}"
        ci = f"[{r['ci_low']:+,.0f}, {r['ci_high']:+,.0f}]" if r["hands"] > 1 else "—"
        p = "—" if r["p_adj"] != r["p_adj"] else f"{r['p_adj']:.3f}"
        est = f"{r['estimate']:+,.0f}" if r["hands"] else "—"
        lines.append(
            f"  {where:<28} {int(r['positions']):>5} {int(r['hands']):>5} {est:>8} "
            f"{ci:>17} {p:>7}  {r['better']}"
        )
    lines.append(
        f"  intervals: {table.attrs.get('interval', '')}; "
        f"correction: {table.attrs.get('correction', '')}"
    )
    seen = set()
    for rule in rules_of_thumb({exp.table: table}, [exp]):
        # a rule that says what another grouping's says, with other numbers, is not repeated
        gist = re.sub(r"\[[^\]]*\]|[−+]?\d[\d,.]*", "", rule.text)
        if gist not in seen:
            seen.add(gist)
            lines.append(f"  rule: {rule.text}")
    for t in threshold_text(exp, attrs.get("raw")):
        lines.append(f"  threshold: {t}")
    if table.attrs.get("information_worth"):
        lines.append(f"  information: {worth_text(table.attrs['information_worth'])}")
    return "\n".join(lines)


def format_game(exp, table, cells, attrs: dict) -> str:
    """The game-terms lines: the table (percentage points of the chance of winning the game,
    A − B, beside the points) and the verdict at each pair of scores (``cells``:
    ``analysis.decisions_game.by_score``)."""
    from analysis.rules_of_thumb import worth_text

    lines = [f"  in game terms: {table.attrs.get('game', '')}; A − B in percentage points"]
    head = "  ".join(
        f"{c:>{w}}"
        for c, w in zip(("hands", "A − B", "95% CI", "adj. p"), (5, 7, 15, 7), strict=True)
    )
    lines.append(f"  {'situation':<28} {head}  better")
    for _, r in table.iterrows():
        where = "all positions" if r["grouping"] == "all" else f"{r['grouping']}: {r['situation']}"
        if not r["hands"]:
            continue
        ci = f"[{100 * r['ci_low']:+.2f}, {100 * r['ci_high']:+.2f}]" if r["hands"] > 1 else "—"
        p = "—" if r["p_adj"] != r["p_adj"] else f"{r['p_adj']:.3f}"
        lines.append(
            f"  {where:<28} {int(r['hands']):>5} {100 * r['estimate']:>+7.2f} "
            f"{ci:>15} {p:>7}  {r['better']}"
        )
    played = cells[cells["hands"] > 0]
    if len(played):
        lines.append(
            f"  by score (your team's × the opponents', the opening tiers played; "
            f"{cells.attrs.get('correction', '')}): A − B, percentage points, "
            "* favours A, ° favours B"
        )
        opps = sorted(played["score_opp"].unique())
        lines.append("  " + "own / opp".rjust(10) + "".join(f"{o:>9,}" for o in opps))
        for own, part in played.groupby("score_own"):
            got = dict(
                zip(
                    part["score_opp"],
                    zip(part["estimate"], part["verdict"], strict=True),
                    strict=True,
                )
            )
            cells_txt = ""
            for o in opps:
                if o not in got:
                    cells_txt += f"{'':>9}"
                    continue
                e, v = got[o]
                mark = {1: "*", -1: "°"}.get(int(v), " ")
                cells_txt += f"{100 * e:>+8.2f}{mark}"
            lines.append(f"  {own:>10,}{cells_txt}")
    if table.attrs.get("information_worth"):
        w = dict(table.attrs["information_worth"])
        for k in ("estimate", "ci_low", "ci_high"):
            w[k] = 100 * w[k]
        lines.append(f"  information: {worth_text(w, 'percentage points', digits=2)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from analysis import decisions, specs
    from sim.errors import CanastaError
    from sim.limits import check_count, check_jobs, check_seed
    from sim.ruleset import as_ruleset

    exp = specs.load(args.spec)
    check_count("--positions", args.positions, 100_000, low=1)
    check_count("--deals", args.deals, 1_000_000, low=2)
    if args.hands is not None:
        check_count("--hands", args.hands, 1_000_000, low=1)
    check_seed(args.seed, "--seed")
    check_jobs(args.jobs, "--jobs")
    if args.csv is not None and not Path(args.csv).resolve().parent.is_dir():
        raise CanastaError(f"--csv {args.csv}: not a file in an existing directory")
    ruleset = as_ruleset(args.rules)
    scores = None
    if args.scores is not None:
        import dataclasses

        from sim.limits import parse_scores

        scores = parse_scores(args.scores, "--scores")
        if max(scores) >= ruleset.target:
            raise CanastaError(
                f"--scores {args.scores}: each score must be below the "
                f"target {ruleset.target:,} (GAME-1: a team at the target has "
                "won)"
            )
        exp = dataclasses.replace(exp, scores=(scores,))
    name = f"ruleset file {Path(args.rules).name}" if args.rules else "the tournament ruleset"
    say = None if args.quiet else (lambda text: print(f"canasta experiment: {text}", flush=True))
    raw = decisions.run_experiments(
        args.positions,
        args.deals,
        seed=args.seed,
        ruleset=ruleset,
        sample_hands=args.hands,
        experiments=[exp],
        progress=say,
        n_jobs=args.jobs,
    )
    tabs = decisions.tables(raw, experiments=[exp])
    if exp.table not in tabs:
        print(
            f"{exp.title}: no position matched positions.where in "
            f"{_hands(raw.attrs, exp):,} hands, measured under {name}"
        )
        return 0
    attrs = dict(raw.attrs) | {"positions_found": len(raw), "raw": raw}
    print(format_table(exp, tabs[exp.table], name, attrs))
    if scores is not None or args.game:
        from analysis import decisions_game
        from analysis.equity import equity_table

        if say:
            say("the equity table (built once for these rules, then read from the cache)")
        table = equity_table(ruleset, n_jobs=args.jobs)
        game = decisions_game.game_tables(raw, table, ruleset, scores)
        cells = decisions_game.by_score(raw, table, ruleset, experiments=[exp])
        if exp.table in game:
            print(format_game(exp, game[exp.table], cells, attrs))
    if args.csv:
        tabs[exp.table].to_csv(args.csv, index=False)
    return 0
