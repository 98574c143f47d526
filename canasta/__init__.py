"""The ``canasta`` command line (``python -m canasta``): thin parsing and printing over the
library. A face over ``sim``, ``analysis`` and ``reports``, so it is its own top-level package:
``sim`` never imports it (docs/architecture.md, layers; tests/test_layers.py).

Each sub-command is a module in this package exposing ``add_parser(subparsers)``, which
registers the command and sets ``func`` (called with the parsed args, returning an exit code);
its one-line ``HELP`` and its ``DESCRIPTION`` are module constants (argparse reflows the text).
Flags shared by several commands come from ``canasta.flags``. Command modules keep their
top-level imports light (argparse, stdlib) and import numba-backed code inside ``func``, so
``canasta --help`` stays instant.

Holds one module a sub-command (``advise``, ``check_meld``, ``compare``, ``equity``,
``experiment``, ``odds``, ``play``, ``replay``, ``report``, ``review``, ``rules``, ``score``,
``serve``, ``simulate``, ``train``, ``verify``, ``whatif``), ``flags`` (the shared flags),
``_seat`` (the human's seat, which both faces drive), ``_human`` (its terminal face,
``canasta play --human``) and the web table's package ``web`` (its web face).

Exit codes: 0 success, 1 a rule check said no (e.g. ``check-meld``), 2 bad input.
Every user error is one line on stderr: ``canasta: error: ...``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys

__all__ = ["PROG", "build_parser", "main"]

PROG = "canasta"


#: a value that starts with a minus sign and a digit, such as ``-1500,6500`` or ``-1500,-20``
#: (team scores, the first negative): argparse's own pattern takes only ``-1500`` for a value
#: and reads ``-1500,6500`` as an unknown flag; no flag of ours starts with a digit
_NEGATIVE_VALUE = re.compile(r"^-\d[\d,-]*$|^-\d*\.\d+$")


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line on stderr (exit 2), and reads a value
    starting with a minus sign and a digit as a value (``--scores -1500,6500``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = _NEGATIVE_VALUE

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Monte Carlo simulation and analytics for Modern American Canasta.",
    )
    from sim import __version__

    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        # a package (canasta.web) and the shared flags are no command
        if info.name.startswith("_") or info.ispkg or info.name == "flags":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from sim.errors import CanastaError

    args = build_parser().parse_args(argv)
    try:
        from canasta.flags import load_modules

        load_modules(args)  # --load: user policies registered before any name is resolved
        return int(args.func(args) or 0)
    except CanastaError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
