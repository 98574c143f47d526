"""What the report says: its sections, the captions, and the facts the Methods section states.
The columns of each table are in ``reports.columns``; how it looks is in ``reports/templates``
(``reports.html`` renders).

Captions are plain text with ``{placeholders}`` filled from :func:`caption_numbers`, so the
prose reads as prose and every number in it comes from the run. The Methods prose is in
``templates/methods.html.j2``; :func:`methods` gathers the values it states.
"""

from __future__ import annotations

from analysis.decisions import EXPERIMENTS, MIN_HANDS
from reports import fmt

__all__ = ["command", "ladder", "layout", "methods", "ruleset_label"]

SECTIONS = (
    ("advice", "What to do"),
    ("say", "What the numbers say"),
    ("claims", "Claims checked"),
    ("numbers", "First numbers"),
    ("decisions", "Decision experiments"),
    ("dealt", "Dealt special-hand odds"),
    ("play", "Special hands made during play"),
    ("risk", "Sevens and aces: meld risk and penalties"),
    ("wild", "Wild melds"),
    ("compare", "Policy comparison on duplicate deals"),
    ("scores", "Score distributions"),
    ("game", "Game score"),
    ("methods", "Methods"),
)


# ---------------------------------------------------------------------------------------
# Sections: blocks in order, ("text", "", paragraph) or (kind, key, caption)
# ---------------------------------------------------------------------------------------
SAY_INTRO = (
    "Each sentence is generated from the tables of this run; the numbers are the cited "
    "tables' cells (all 95% intervals)."
)
ADVICE_INTRO = (
    "What to do, the most valuable first. Each line was measured by playing real positions "
    "both ways on the same cards ({policy} playing every seat), and gives a direction only "
    "where the difference holds up after allowing for the {tests} situations tested at once "
    "(Methods says how). A lead is a difference whose 95% range is clear of zero but does not "
    "hold up after that allowance. Points are your team's points in the hand minus the other "
    "team's; the ranges in brackets are 95% intervals."
)
ADVICE_MISSING = "the decision experiments were not run (--positions 0)."
DECISIONS_INTRO = (
    "Each table compares two choices, A and B, at up to {positions} positions sampled from "
    "{sample_hands} hands of {policy} against itself{more_hands}, each replayed on "
    "{deals_per_position} deals "
    "per choice (paired: the same unseen cards for A and B). A row is a situation: its estimate is "
    "the mean over sampled hands of A − B in the team's net points, with the normal interval "
    "over hands; 'adjusted p' is its p-value (Student's t over hands; not tested below 5 "
    "hands) adjusted for every row of every table tested at once (Methods); 'choice "
    "made' is the share of the situation's deals in which the rules let both forced choices "
    "be made (only those deals count), pooled over its positions."
)


def _decision_blocks() -> tuple[tuple[str, str, str], ...]:
    out = [("text", "", DECISIONS_INTRO)]
    for e in EXPERIMENTS:
        arms = f"A = {e.do}, B = {e.dont}"
        out.append(("table", e.table, f"{e.title} ({arms}; {{n_{e.table}}} positions)."))
    return tuple(out)


CLAIMS_INTRO = (
    "What players, teachers and strategy writers of Modern American Canasta say, each with its "
    "source, checked against the decision experiments below (analysis.claims). A claim is "
    "supported when at least one of its situations favours the choice it advises and none the "
    "other, after allowing for all {tests} situations of the report tested at once (Methods); "
    "contradicted in the mirror case; mixed when both occur; no clear difference "
    "when nothing passes; not tested (N hands) when none of its situations has the sampled "
    "hands a test needs ({min_hands}), and then no effect is quoted. 'Hands it rests on' sums the "
    "sampled hands of the situations tested (a hand may count in two). The effect is the "
    "gain of following the claim (G: the share of hands "
    "the first-pickup team wins), pooled over its situations, with its plain 95% interval: "
    "an interval clear of zero with no verdict is a lead, not confirmed. 'What differs' says "
    "what the two arms of its experiment do differently (everything else is the same play). "
    "Where a claim names a threshold, 'tested as' says where the fitted effect changes sign. "
    "A claim no experiment measures yet says what it needs."
)
NUMBERS_INTRO = (
    "Figures of the modern game nobody has published, measured here: {numbers_hands} hands of "
    "{policy} against itself (the hands the decision experiments sample their positions from) "
    "and {numbers_games} whole games to the target, all {ruleset}. Each figure has its 95% "
    "interval, its sample size and how the interval was made; the minutes per game assume ~16 "
    "minutes a hand of club play. A team-hand is one team's result in one hand."
)
GAME_INTRO = (
    "Players play to the target, and the score changes both the rules (the opening minimum "
    "rises at 3,000 and 5,000, OPEN-1) and what a hand is worth. The chance of winning the "
    "game from every pair of scores is the equity table (analysis.equity, docs/equity.md): "
    "{equity_source}. Every value below is a percentage point of that chance with its 95% "
    "interval (a paired bootstrap over the measured hands); the widest 95% interval among "
    "the heat map's cells (every 250 points from −2,000) is ±{equity_widest} points."
)
LAYOUT: dict[str, tuple[tuple[str, str, str], ...]] = {
    "numbers": (
        ("text", "", NUMBERS_INTRO),
        ("table", "first_numbers", "First numbers of the modern game ({ruleset})."),
        (
            "table",
            "first_pickup",
            "Claim G: the share of hands won (more points in the hand) by the team that took "
            "the pile first, by the pile's size then; tested against one half, adjusted with "
            "the decision experiments ({ruleset}).",
        ),
    ),
    "claims": (
        ("text", "", CLAIMS_INTRO),
        ("table", "claims", "Published strategy claims and their verdicts."),
    ),
    "decisions": _decision_blocks(),
    "dealt": (
        (
            "text",
            "",
            "The odds that the player who plays first is dealt a special hand, under the "
            "ODDS-1 model (Methods). Exact values by counting; the Monte Carlo estimate samples "
            "{deals} real deals.",
        ),
        (
            "table",
            "dealt_odds",
            "Dealt special hands: exact odds beside the Monte Carlo estimate over {deals} deals "
            "(seed {seed}).",
        ),
        (
            "figure",
            "dealt_odds",
            "Exact probability (×) and Monte Carlo estimate (dot, 95% Wilson interval) per "
            "deal, log scale; n = {deals} deals.",
        ),
    ),
    "play": (
        (
            "table",
            "special_frequency",
            "Share of team-hands in which the team declared each special hand, by policy "
            "(n = team-hands each policy played; {team_hands} team-hands in all).",
        ),
        (
            "figure",
            "special_by_turn",
            "Cumulative share of team-hands with a special hand declared by each turn of the "
            "hand, by policy, with 95% Wilson bands; n = {special_n} team-hands.",
        ),
    ),
    "risk": (
        (
            "text",
            "",
            "A team 'starts' a meld of sevens or of natural aces when it first melds that "
            "rank; it is completed if it is a canasta at the end of the hand (SCORE-2: +2,500 "
            "completed, −2,500 incomplete). Aces melds that took wilds in the initial meld "
            "(MELD-7) are ordinary mixed melds and are reported apart.",
        ),
        (
            "table",
            "sevens_by_turn",
            "Sevens melds by the turn they were started (n = {n_sevens_by_turn} melds started).",
        ),
        (
            "table",
            "aces_by_turn",
            "Natural aces melds by the turn they were started "
            "(n = {n_aces_by_turn} melds started).",
        ),
        (
            "figure",
            "meld_completion",
            "Completion rate of sevens and natural aces melds by turn started, per policy "
            "(95% Wilson intervals; n per panel in its title, per policy and turn in the "
            "tables above).",
        ),
        (
            "table",
            "sevens_by_held",
            "Sevens melds by the number of sevens the starting player held "
            "(n = {n_sevens_by_held}).",
        ),
        (
            "table",
            "aces_by_held",
            "Natural aces melds by the number of aces the starting player held "
            "(n = {n_aces_by_held}).",
        ),
        (
            "figure",
            "meld_points",
            "Expected value of the meld's own bonus or penalty, 2,500·(2c − 1) for completion "
            "rate c, by the count held (interval from the Wilson interval of c); n per panel "
            "in its title, per policy and count in the tables above.",
        ),
        (
            "table",
            "penalties",
            "In-hand penalties (SCORE-4): team-hands in which at least one player held 3+ "
            "sevens (or aces) at the end, and the cost per team-hand.",
        ),
        (
            "figure",
            "penalties",
            "Share of team-hands paying each in-hand penalty, by policy, with 95% Wilson "
            "intervals; n in the legend.",
        ),
        ("table", "mixed_aces", "Aces melds that took wilds in the initial meld (MELD-7)."),
    ),
    "wild": (
        (
            "table",
            "wild_by_turn",
            "Wild melds (MELD-8) by the turn they were started (n = {n_wild_by_turn} melds "
            "started; SCORE-3 bonus if completed, penalty if not).",
        ),
        (
            "figure",
            "wild_completion",
            "Completion rate of wild melds by turn started, per policy (95% Wilson intervals; "
            "n in the panel title, per policy and turn in the table above).",
        ),
    ),
    "compare": (
        (
            "text",
            "",
            "Each deal is played twice with the same cards: policy A as team 0 against B, then "
            "the policies swapped. Luck of the deal cancels in the per-deal difference; the "
            "interval is the normal interval of its mean over deals.",
        ),
        ("table", "comparison", "Duplicate-deal comparison of every pair of policies."),
        (
            "figure",
            "comparison",
            "A's points per hand minus B's, per pair, with 95% normal intervals over deals; "
            "n = deals per pair on the axis.",
        ),
    ),
    "scores": (
        ("table", "scores", "Mean team score per hand by policy ({team_hands} team-hands in all)."),
        ("table", "net", "Mean net score per hand (own minus opponents') by policy."),
        (
            "figure",
            "scores",
            "Distribution of a team's score per hand, by policy (share of team-hands per bin); "
            "n in the legend.",
        ),
        ("table", "end_reasons", "How hands end, by matchup (Wilson intervals; n = hands)."),
    ),
}
# the Game score section last before Methods: the tables and figures before it keep their numbers
LAYOUT["game"] = (
    ("text", "", GAME_INTRO),
    (
        "figure",
        "game_chance",
        "Team 0's chance of winning the game from each pair of scores, team 0 to play "
        "first; lines at the opening tiers' edges ({equity_label}).",
    ),
    (
        "table",
        "game_tiers",
        "What crossing an opening tier's edge costs: team 0's chance just below the edge "
        "minus just above it, the opponent's score fixed, team 0 or team 1 to play first "
        "({equity_label}).",
    ),
    (
        "table",
        "game_points",
        "What 100 points are worth: team 0's chance at its score + 100 minus at its "
        "score, by the opponent's score, team 0 to play first ({equity_label}).",
    ),
    (
        "table",
        "game_first",
        "The advantage of playing first: at equal scores, the chance of the team to play "
        "first minus one half ({equity_label}).",
    ),
    (
        "table",
        "game_decisions",
        "Decisions in game terms: each decision experiment's deals read through the "
        "equity table at every pair of scores (your team's × the opponents', each of "
        "{game_levels}) in the opening tiers its positions were played in, A − B in the "
        "chance of winning the game; cells tested and how many favour each choice after "
        "{game_correction}; the largest confirmed effect each way ({equity_label}).",
    ),
    (
        "table",
        "game_claim_j",
        "Claim J across the whole score grid: the gain in the chance of winning the game "
        "of milking the hand (playing on) over going out, by region (ahead, behind, level), "
        "{j_correction}; claim J's verdict over the cells where it says something: "
        "{j_verdict} ({equity_label}).",
    ),
)

TITLE = "Modern American Canasta: strategy report"
PREVIEW = " (a preview: a quick run, few positions, wide intervals)"


def title(results) -> str:
    """The page's title; a ``--quick`` report says it is a preview."""
    return TITLE + (PREVIEW if getattr(results.settings, "preview", False) else "")


def _n_total(df, col="n") -> str:
    return fmt.count(int(df[col].sum())) if df is not None and col in df.columns else "0"


def caption_numbers(results) -> dict[str, str]:
    """The values the captions' placeholders name, formatted."""
    t = results.tables
    d = t.get("dealt_odds")
    deals = (
        fmt.count(int(d["n"].dropna().iloc[0]))
        if d is not None and "n" in d.columns and d["n"].notna().any()
        else "0"
    )
    sf = t.get("special_frequency")
    if sf is None:
        special_n = "0"
    else:
        per_policy = sf[sf["special_hand"] == "any"][["policy", "n"]].itertuples(index=False)
        special_n = ", ".join(f"{p} {fmt.count(n)}" for p, n in per_policy)
    hands = sum(len(r.records) for r in results.runs)
    meld_tables = ("sevens_by_turn", "aces_by_turn", "sevens_by_held", "aces_by_held")
    dec = results.meta.get("decisions") or {}
    decided = {}
    for e in EXPERIMENTS:
        d = t.get(e.table)
        decided[f"n_{e.table}"] = fmt.count(int(d["positions"].iloc[0])) if d is not None else "0"
    tests = sum(len(t[e.table]) for e in EXPERIMENTS if e.table in t)
    if "first_pickup" in t:
        tests += len(t["first_pickup"])
    fn = t.get("first_numbers")
    return {
        **_game_numbers(results),
        "numbers_hands": fmt.count(fn.attrs.get("hands", 0)) if fn is not None else "0",
        "numbers_games": fmt.count(fn.attrs.get("games", 0)) if fn is not None else "0",
        "ruleset": "measured under " + ruleset_label(results),
        **decided,
        "positions": fmt.count(int(dec.get("positions", 0))),
        "sample_hands": fmt.count(int(dec.get("sample_hands", 0))),
        "more_hands": _more_hands(dec),
        "deals_per_position": fmt.count(int(dec.get("deals", 0))),
        "policy": str(dec.get("policy", "")),
        "tests": str(tests),
        "min_hands": str(MIN_HANDS),
        "deals": deals,
        "seed": str(results.settings.seed),
        "team_hands": fmt.count(2 * hands),
        "special_n": special_n,
        **{f"n_{k}": _n_total(t.get(k)) for k in (*meld_tables, "wild_by_turn")},
    }


def _game_numbers(results) -> dict[str, str]:
    """The Game score section's placeholders: the equity table's source and labels."""
    from analysis.decisions_game import LEVELS

    t = results.tables
    pts = t.get("game_points")
    a = pts.attrs if pts is not None else {}
    s = results.settings
    quick = " (a smaller table: --quick)" if getattr(s, "preview", False) else ""
    # the table is built for the report's own ruleset (reports.build: engine.equity)
    ruleset = ruleset_label(results)
    source = (
        f"{a.get('policies', '')} for both teams, {fmt.count(a.get('hands', 0))} hands measured "
        f"under {ruleset}, a {getattr(s, 'equity_resolution', 10)}-point grid, seed 0{quick}"
        if a
        else "not available in this run"
    )
    widest = "—"
    chance = t.get("game_chance")
    if chance is not None and len(chance):
        widest = f"{100 * 1.959963984540054 * float(chance['se'].max()):.2f}"
    dec = t.get("game_decisions")
    j = t.get("game_claim_j")
    return {
        "equity_source": source,
        "equity_label": f"measured under {ruleset}{quick}" if a else "not measured",
        "equity_widest": widest,
        "game_levels": ", ".join(f"{x:,}" for x in LEVELS),
        "game_correction": dec.attrs.get("correction", "") if dec is not None else "",
        "j_correction": j.attrs.get("correction", "") if j is not None else "",
        "j_verdict": str(j.attrs.get("verdict", "")) if j is not None else "not measured",
    }


def _more_hands(dec: dict) -> str:
    """The experiments whose rare positions were drawn from more sampled hands, in words."""
    base = int(dec.get("sample_hands", 0))
    more = {k: n for k, n in (dec.get("experiment_hands") or {}).items() if n > base}
    if not more:
        return ""
    said = ", ".join(f"{k}: {fmt.count(n)}" for k, n in more.items())
    return f" (the experiments whose positions are rare, from more hands: {said})"


def layout(results) -> dict[str, list[tuple[str, str, str]]]:
    """Section -> blocks (kind 'table'/'figure'/'text', key, caption or text), captions filled."""
    values = caption_numbers(results)
    return {
        sec: [(kind, key, text.format_map(values)) for kind, key, text in blocks]
        for sec, blocks in LAYOUT.items()
    }


def ruleset_label(results) -> str:
    """The ruleset the report was measured under, named: the ``--rules`` file (or, loaded runs,
    the stored ruleset) and every field that differs from the tournament default."""
    from pathlib import Path

    from sim.ruleset import DEFAULT_RULESET

    used, default = results.ruleset.to_dict(), DEFAULT_RULESET.to_dict()
    used["special_hands"] = results.ruleset.list_name  # SPECIAL-7: a preset, or "a list of N"
    changed = [f"{k} = {v}" for k, v in used.items() if v != default[k]]
    s = results.settings
    name = f"ruleset file {Path(s.rules).name}" if s.rules else "the tournament ruleset"
    if not changed:
        return name if s.rules else f"{name} (defaults)"
    return f"{name} ({', '.join(changed)})"


def policies_played(results) -> str:
    """The policies the runs measured, and which of them play with the public card memory."""
    from sim.policies.heuristic_params import plays_with_memory

    names = list(dict.fromkeys(p for r in results.runs for p in r.policies))
    mem = [p for p in names if plays_with_memory(p)]
    said = (
        f"playing with the public card memory: {', '.join(mem)}"
        if mem
        else "none playing with the public card memory"
    )
    return f", policies {', '.join(names)} ({said})"


def subtitle(results) -> str:
    s = results.settings
    hands = sum(len(r.records) for r in results.runs)
    variant = f", measured under {ruleset_label(results)}"
    if s.positions:
        variant += f", decision experiments at {fmt.count(s.positions)} positions each"
    variant += policies_played(results)
    return (
        f"{fmt.count(hands)} simulated hands in {len(results.runs)} runs, "
        f"{fmt.count(s.deals)} sampled deals, seed {s.seed}{variant}; "
        f"generated {results.meta['date']}."
    )


# ---------------------------------------------------------------------------------------
# Methods: the values templates/methods.html.j2 states
# ---------------------------------------------------------------------------------------
def command(s) -> str:
    """The canasta command that rebuilds this report."""
    import shlex

    parts = ["canasta", "report"]
    if s.from_dirs:
        for d in s.from_dirs:
            parts += ["--from", d]
    else:
        parts += ["--hands", str(s.hands), "--policies", ",".join(s.policies)]
    parts += ["--deals", str(s.deals), "--seed", str(s.seed)]
    parts += ["--positions", str(s.positions), "--decision-deals", str(s.decision_deals)]
    if s.rules:
        parts += ["--rules", str(s.rules)]
    from reports.defaults import DEFAULT_EQUITY_HANDS, DEFAULT_EQUITY_RESOLUTION

    if getattr(s, "equity_hands", DEFAULT_EQUITY_HANDS) != DEFAULT_EQUITY_HANDS:
        parts += ["--equity-hands", str(s.equity_hands)]
    if getattr(s, "equity_resolution", DEFAULT_EQUITY_RESOLUTION) != DEFAULT_EQUITY_RESOLUTION:
        parts += ["--equity-resolution", str(s.equity_resolution)]
    return shlex.join(parts)


def _timing(m: dict) -> str:
    timing = f"built in {m['seconds']:.1f} s"
    if "simulation_seconds" in m:
        timing += f" (simulation {m['simulation_seconds']:.1f} s"
        timing += (
            f", dealt-odds sampling {m['dealt_odds_seconds']:.1f} s"
            if "dealt_odds_seconds" in m
            else ""
        )
        if "decisions_seconds" in m:
            timing += f", decision experiments {m['decisions_seconds']:.1f} s"
        timing += ")"
    return timing


def methods(results) -> dict:
    """Ruleset rows, runs, sample sizes, notes, versions and the rebuild command."""
    from sim.ruleset import DEFAULT_RULESET

    s = results.settings
    used = results.ruleset.to_dict()
    used["special_hands"] = results.ruleset.list_name  # SPECIAL-7: a preset, or "a list of N"
    default = DEFAULT_RULESET.to_dict()
    variants = [k for k, v in used.items() if v != default[k]]
    d = results.tables.get("dealt_odds")
    m = results.meta
    return {
        "settings": s,
        "ruleset_rows": [(k, v, default[k], v != default[k]) for k, v in used.items()],
        "variants": ", ".join(f"{k} = {used[k]}" for k in variants) or "none",
        "ruleset_label": ruleset_label(results),
        "rules_text": results.rules_text,
        "runs": [
            (r.policies[0], r.policies[1], r.seed, fmt.count(len(r.records)), r.source)
            for r in results.runs
        ],
        "source": m.get("simulate", "sim.simulate"),
        "hands": fmt.count(s.hands),
        "deals": fmt.count(s.deals),
        "model": d.attrs.get("model", "") if d is not None else "",
        "dealt_odds_note": m.get("dealt_odds"),
        "notes": sorted(results.notes.items()),
        "versions": ", ".join(f"{k} {x}" for k, x in m["versions"].items()),
        "machine": m["machine"],
        "date": m["date"],
        "timing": _timing(m),
        "command": command(s),
        "decisions": m.get("decisions"),
        "ladder": ladder(),
    }


def ladder() -> dict:
    """The shipped strength ladder (``sim.policies.ladder``) as the Methods show it:
    the margin matrix of the fast policies, their ranking, and the search policies' matches."""
    from sim.policies.ladder import load_ladder

    data = load_ladder()
    names = data["policies"]
    cell = {}
    for r in data["pairs"]:
        half = (r["ci_high"] - r["ci_low"]) / 2
        cell[r["a"], r["b"]] = f"{fmt.points(r['mean_diff'])} ± {half:,.0f}"
        cell[r["b"], r["a"]] = f"{fmt.points(-r['mean_diff'])} ± {half:,.0f}"
    return {
        "command": data["command"],
        "date": data["date"],
        "deals": fmt.count(data["deals"]),
        "seed": data["seed"],
        "names": names,
        "rows": [(a, [cell.get((a, b), "") for b in names]) for a in names],
        "ranking": ", ".join(
            f"{r['policy']} {fmt.points(r['mean_margin'])}" for r in data["ranking"]
        ),
        "search": [
            (
                r["a"],
                r["b"],
                fmt.count(r["deals"]),
                fmt.points_ci(r["mean_diff"], r["ci_low"], r["ci_high"]),
            )
            for r in data["search"]
        ],
    }
