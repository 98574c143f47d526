"""``canasta serve``: the web table, on 127.0.0.1 unless ``--host`` says otherwise (extra
``web``: pip install -e '.[web]')."""

from __future__ import annotations

import ipaddress

from canasta import flags

__all__ = ["run"]

HELP = "play at a table in the browser: strong bots, hints, undo, records (extra 'web')"
DESCRIPTION = """
Start a local web app on 127.0.0.1 and print its address: open it in a browser to play a hand,
or a whole game to 8,500, against bots of the registry (default strong), with a Hint button
(the ranked choices of canasta advise with their intervals and a sentence of why), undo, the
itemised score and a review of your decisions at the end, and the hand record to download
and replay. Tables are saved in --state and resume after a restart; an idle one expires after
12 hours. By default a local table: it listens on 127.0.0.1 only, and no response shows a card
your seat cannot see (docs/web.md, threat model). To host a club's tables, put it behind a
reverse proxy with TLS and read docs/web.md's deployment note (--host, --name, --trust-proxy).
"""  # argparse reflows it

DEPLOYMENT = "docs/web.md, 'Hosting a club's tables'"


def loopback(host: str) -> bool:
    """Does ``host`` (an address or ``localhost``) reach this machine only?"""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("serve", help=HELP, description=DESCRIPTION)
    p.add_argument("--port", type=int, default=8765, help="port to listen on (default 8765)")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="address to listen on (default 127.0.0.1, this machine only; another one warns: "
        f"see {DEPLOYMENT})",
    )
    p.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="HOST",
        help="a host name the server answers to besides 127.0.0.1 and localhost (the name the "
        "players' browsers use, e.g. the reverse proxy's; repeatable)",
    )
    p.add_argument(
        "--trust-proxy",
        action="store_true",
        help="count each client by the address a reverse proxy in front puts last in "
        "X-Forwarded-For (only when every request comes through that proxy)",
    )
    flags.add(p, "rules", rules="a ruleset (TOML) offered first on the page")
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
    host = str(args.host).strip()
    if not host or (not loopback(host) and not _address(host)):
        raise CanastaError(f"--host {args.host!r}: expected an IP address of this machine")
    names = []
    for name in args.name:
        name = str(name).strip().lower()
        if not name or len(name) > 253 or any(c in name for c in "/ :@"):
            raise CanastaError(f"--name {name!r}: expected a host name (no port, no scheme)")
        names.append(name)
    try:
        import uvicorn

        from canasta.web.app import create_app
    except ImportError as exc:
        raise CanastaError(
            f"canasta serve needs the extra 'web' (pip install -e '.[web]'): {exc.name} is missing"
        ) from None
    from sim.api import resolve_policies
    from sim.policies.registry import check_table_policy

    # an unknown bot or ruleset: refused before the server starts
    check_table_policy(resolve_policies([args.bot])[0][2])
    if args.rules is not None:
        from sim.ruleset import Ruleset

        Ruleset.from_toml(args.rules)
    state = Path(args.state) if args.state else Path.home() / ".canasta-sim" / "tables"
    try:
        state.mkdir(parents=True, exist_ok=True, mode=0o700)  # running decks: the server's own
        state.chmod(0o700)
    except OSError as exc:
        raise CanastaError(f"--state {state}: cannot use it ({exc.strerror})") from None
    from canasta.web.guard import HOSTS

    hosts = (*HOSTS, *names) + (() if loopback(host) else (_bracket(host),))
    app = create_app(
        args.rules, state, default_bot=args.bot, hosts=hosts, trust_proxy=args.trust_proxy
    )
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") or loopback(host) else _bracket(host)
    url = f"http://{shown}:{args.port}/"
    print(f"canasta table at {url}  (Ctrl-C stops it; tables saved in {state})", flush=True)
    if not loopback(host):
        print(
            f"warning: --host {host} lets other machines reach this server, with no login and "
            f"no TLS of its own: put it behind a reverse proxy with TLS ({DEPLOYMENT})",
            flush=True,
        )
    print("preparing the bots and the hint in the background (the page shows progress)", flush=True)
    # proxy_headers off: only --trust-proxy decides whether X-Forwarded-For names the client
    uvicorn.run(app, host=host, port=args.port, log_level="warning", proxy_headers=False)
    return 0


def _address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _bracket(host: str) -> str:
    """An address as a Host header names it (IPv6 in brackets)."""
    return f"[{host.strip('[]')}]" if ":" in host else host
