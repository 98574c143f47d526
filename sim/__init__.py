"""canasta-sim: Monte Carlo simulation and analytics for Modern American Canasta."""

from sim.errors import CanastaError, RuleViolation
from sim.ruleset import DEFAULT_RULESET, Ruleset

__version__ = "0.1.0"

__all__ = ["DEFAULT_RULESET", "CanastaError", "RuleViolation", "Ruleset", "__version__"]
