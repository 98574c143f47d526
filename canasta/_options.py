"""Flags shared by several commands, each defined once (type, default, help).

``add(parser, "seed", "jobs", ...)`` adds the named flags in the order given; a keyword gives a
command its own help text for a flag (``seed="seed of the sampled deals (default 0)"``).
Every value is range-checked by the command before any work (``sim.validate``).
"""

from __future__ import annotations

import argparse


def _seed(p: argparse.ArgumentParser, help: str | None) -> None:
    p.add_argument("--seed", type=int, default=0, help=help or "run seed (default 0)")


def _jobs(p: argparse.ArgumentParser, help: str | None) -> None:
    from sim.jobs import default_jobs, jobs_help  # every core; results never depend on it

    p.add_argument(
        "--jobs", type=int, default=default_jobs(), help=help or jobs_help(", -1 = every core")
    )


def _format(p: argparse.ArgumentParser, help: str | None) -> None:
    p.add_argument("--format", choices=("table", "json"), default="table", help=help)


def _rules(p: argparse.ArgumentParser, help: str | None) -> None:
    p.add_argument("--rules", metavar="FILE.toml", help=help or "ruleset overrides (TOML)")


def _quiet(p: argparse.ArgumentParser, help: str | None) -> None:
    p.add_argument("--quiet", action="store_true", help=help or "no progress bar")


FLAGS = {"seed": _seed, "jobs": _jobs, "format": _format, "rules": _rules, "quiet": _quiet}


def add(p: argparse.ArgumentParser, *names: str, **helps: str) -> None:
    """Add the shared flags ``names`` (keys of ``FLAGS``) to ``p``; ``helps`` by flag name."""
    for name in names:
        FLAGS[name](p, helps.get(name))
