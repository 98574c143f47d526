"""``python -m canasta``: the command line (``canasta.main``)."""

import sys

from canasta import main

__all__: list[str] = []

sys.exit(main())
