"""``canasta verify DIR``: is a run directory intact? (without loading its data)"""

from __future__ import annotations

import argparse

__all__ = ["report", "run"]

_UNITS = {"hands": "hands", "games": "games"}


HELP = "check a run directory's chunks against their records (exit 0 intact, 1 not, 2 not a run)"
DESCRIPTION = """
Check a run directory written by canasta simulate --out (or any run with out=DIR) without
loading it: every chunk file against the size, row count and sha256 recorded when it was
written, and its Parquet footer. Lists each missing, unrecorded, damaged or foreign file on its
own line and says how to repair the run (rerunning the same command replays exactly the chunks
that are not trusted). Exit 0 intact, 1 not intact (damaged or unfinished), 2 not a run
directory or unreadable metadata. Runs written before checksums (schema 1) are checked by their
footers (row count, id range) only.
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("verify", help=HELP, description=DESCRIPTION)
    p.add_argument("dir", metavar="DIR", help="the run directory")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.set_defaults(func=run)


def report(check) -> dict:
    """The outcome of ``sim.store.check_run`` as a JSON-able dict."""
    s = check.meta["settings"]
    return {
        "path": str(check.path),
        "schema_version": check.schema_version,
        "kind": s.get("kind"),
        "n_chunks": check.n_chunks,
        "intact_chunks": len(check.good),
        "rows": check.rows,
        "checksums": check.schema_version >= 2,
        "intact": check.intact,
        "problems": [{"file": p.file, "kind": p.kind, "detail": p.detail} for p in check.problems],
        "repair": check.repair() or None,
    }


def format_text(rep: dict) -> str:
    unit = _UNITS.get(rep["kind"], "rows")
    lines = [f"{p['kind']}: {p['file']}: {p['detail']}" for p in rep["problems"]]
    counted = f"{rep['intact_chunks']} of {rep['n_chunks']} chunks intact, {rep['rows']:,} {unit}"
    if rep["checksums"]:
        how = f"schema {rep['schema_version']}, sha256 checked"
    else:
        how = (
            f"schema {rep['schema_version']}: no checksums recorded, footers checked only; "
            "rerun the same command to record them"
        )
    if rep["intact"]:
        lines.append(f"ok: {rep['path']}: {counted} ({how})")
    else:
        lines.append(f"not intact: {rep['path']}: {counted} ({how}); to repair it, {rep['repair']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import json

    from sim.store import check_run

    rep = report(check_run(args.dir))
    print(json.dumps(rep, indent=2) if args.format == "json" else format_text(rep))
    return 0 if rep["intact"] else 1
