"""``python -m sim`` is not the command line: that is ``canasta`` (``python -m canasta``).
``sim`` never imports the command line (docs/architecture.md, layers)."""

import sys

__all__: list[str] = []

sys.exit("canasta: the command line is `canasta` or `python -m canasta` (not `python -m sim`)")
