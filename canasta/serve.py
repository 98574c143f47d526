"""``canasta serve``: the web table on 127.0.0.1 (extra ``web``: pip install -e '.[web]')."""

from __future__ import annotations

from canasta import _options

__all__ = ["run"]

HELP = "play at a table in the browser: strong bots, hints, undo, records (extra 'web')"
DESCRIPTION = """
Start a local web app on 127.0.0.1 and print its address: open it in a browser to play a hand,
or a whole game to 8,500, against bots of the registry (default strong), with a Hint button
(the ranked choices of canasta advise with their intervals and a sentence of why), undo, the
itemised score and a review of your decisions at the end, and the hand record to download
and replay. Tables are saved in --state and resume after a restart; an idle one expires after
12 hours. A local table for one person: it answers 127.0.0.1 only, and no response shows a
card your seat cannot see (docs/web.md, threat model).
"""  # argparse reflows it


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("serve", help=HELP, description=DESCRIPTION)
    p.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765)")
    _options.add(p, "rules", rules="a ruleset (TOML) offered first on the page")
    p.add_argument(
        "--state",
        metavar="DIR",
        help="where tables are saved (default ~/.canasta-sim/tables)",
    )
    p.add_argument("--bot", default="strong", help="the bots offered first (default strong)")
    p.set_defaults(func=run)


def run(args) -> int:
    from pathlib import Path

    from sim.errors import CanastaError

    if not 1 <= args.port <= 65535:
        raise CanastaError(f"--port {args.port}: expected 1..65535")
    try:
        import uvicorn

        from canasta.web.app import create_app
    except ImportError as exc:
        raise CanastaError(
            f"canasta serve needs the extra 'web' (pip install -e '.[web]'): {exc.name} is missing"
        ) from None
    from sim.api import resolve_policies

    resolve_policies([args.bot])  # an unknown bot or ruleset: refused before the server starts
    if args.rules is not None:
        from sim.ruleset import Ruleset

        Ruleset.from_toml(args.rules)
    state = Path(args.state) if args.state else Path.home() / ".canasta-sim" / "tables"
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CanastaError(f"--state {state}: cannot use it ({exc.strerror})") from None
    app = create_app(args.rules, state, default_bot=args.bot)
    url = f"http://127.0.0.1:{args.port}/"
    print(f"canasta table at {url}  (Ctrl-C stops it; tables saved in {state})", flush=True)
    print("preparing the bots and the hint in the background (the page shows progress)", flush=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")
    return 0
