"""The report's default sizes (no heavy imports: the CLI's --help reads them)."""

__all__ = [
    "DEFAULT_DEALS",
    "DEFAULT_DECISION_DEALS",
    "DEFAULT_EQUITY_HANDS",
    "DEFAULT_EQUITY_RESOLUTION",
    "DEFAULT_GAMES",
    "DEFAULT_HANDS",
    "DEFAULT_POLICIES",
    "DEFAULT_POSITIONS",
    "QUICK",
    "default_policies",
]

DEFAULT_HANDS = 20_000  #: deals per run (each pair of policies plays them twice)
DEFAULT_DEALS = 100_000_000  #: dealt-odds Monte Carlo deals
#: compared on duplicate deals: the strongest fast policy (``sim.policies.strongest_fast()``,
#: resolved when the report is built) and heuristic; ``--policies`` overrides
DEFAULT_POLICIES = ("strongest_fast", "heuristic")
DEFAULT_POSITIONS = 160  #: positions per decision experiment (analysis.decisions)
DEFAULT_DECISION_DEALS = 64  #: paired deals per position and choice
DEFAULT_GAMES = 200  #: whole games to the target of the strongest fast policy (First numbers)
#: the Game score section's equity table (``analysis.equity``, cached): hands per pair of
#: opening minima (0 leaves the section out) and its grid's resolution in points
DEFAULT_EQUITY_HANDS = 40_000
DEFAULT_EQUITY_RESOLUTION = 10
#: ``--quick``: a first look in under a minute warm (wider intervals; the same sections; a
#: smaller equity table, labelled as such)
QUICK = {
    "hands": 2_000,
    "deals": 2_000_000,
    "positions": 32,
    "decision_deals": 16,
    "games": 40,
    "equity_hands": 4_000,
    "equity_resolution": 50,
}


def default_policies(names=DEFAULT_POLICIES) -> tuple[str, ...]:
    """``names`` with ``strongest_fast`` resolved to the registry's strongest fast policy;
    a repeat that this makes is dropped (while that policy is ``heuristic`` the default is
    heuristic alone), a repeat given by name is kept (and refused by ``Settings``)."""
    from sim.policies.registry import strongest_fast

    out = []
    for n in names:
        name = strongest_fast() if n == "strongest_fast" else n
        if n == "strongest_fast" and name in names:
            continue
        out.append(name)
    return tuple(out)
