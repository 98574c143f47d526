"""The report's default sizes (no heavy imports: the CLI's --help reads them)."""

DEFAULT_HANDS = 20_000  #: deals per run (each pair of policies plays them twice)
DEFAULT_DEALS = 100_000_000  #: dealt-odds Monte Carlo deals
DEFAULT_POLICIES = ("heuristic", "special_chaser", "random")  #: compared on duplicate deals
