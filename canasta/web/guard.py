"""The web table's defences at the HTTP edge (docs/web.md, threat model), apart from the routes:

- :func:`read_json`: a request body cut off at its limit while it streams in (the declared
  ``Content-Length`` first, then the bytes counted as they arrive), its JSON nesting bounded
  before it is parsed; every fault a 4xx with one line;
- :func:`rules_text`: an uploaded ruleset's TOML bounded in size and nesting;
- :func:`check_post`: a request that changes state comes from the page itself: its body is
  ``application/json`` (a form on another site cannot send that without asking), its
  ``Origin`` and ``Sec-Fetch-Site`` (when the browser sends them) name this site;
- :class:`Guard`: an ASGI layer that answers only requests for this host (a DNS-rebinding
  page reaches 127.0.0.1 under another name) and adds the security headers to every
  response: a Content-Security-Policy that runs no inline script, no framing, no sniffing,
  no referrer, no caching of the API.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from sim.errors import CanastaError
from sim.limits import nesting
from sim.ruleset import parse_toml

__all__ = ["rules_text"]

MAX_BODY = 256 * 1024  #: bytes a request body may hold (a record of a long game fits)
MAX_DEPTH = 32  #: nesting of JSON arrays and objects a body may have (a record needs 4)
MAX_TOML = 16 * 1024  #: characters of an uploaded ruleset (the shipped ones are under 2 KiB)
HOSTS = ("127.0.0.1", "localhost", "[::1]")  #: the names the server answers to
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
# escapes go first, then strings hold no quote: each pattern matches in one pass (no
# backtracking over a body of quotes and backslashes)
_ESCAPE = re.compile(rb"\\.", re.S)
_JSON_STRING = re.compile(rb'"[^"]*"')


def valid_table_id(value: str | None) -> str | None:
    """A cookie's table id if it has the shape the server gives (else None: no table)."""
    return value if isinstance(value, str) and _TABLE_ID.fullmatch(value) else None


async def read_json(request: Request, limit: int = MAX_BODY) -> Any:
    """The request's JSON body ({} when empty), read at most ``limit`` bytes: 413 past it
    (the declared length refused at once, the stream stopped as it passes the limit), 400 for
    what is not JSON or nests deeper than :data:`MAX_DEPTH`."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit() or len(declared) > 12:
            raise HTTPException(400, "bad Content-Length")
        if int(declared) > limit:
            raise HTTPException(413, f"request body over {limit // 1024} KiB")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HTTPException(413, f"request body over {limit // 1024} KiB")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    if nesting(_JSON_STRING.sub(b"", _ESCAPE.sub(b"", raw))) > MAX_DEPTH:
        raise HTTPException(400, f"the request body nests deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # JSONDecodeError, bad UTF-8, a 5,000-digit number
        raise HTTPException(400, "the request body is not JSON") from None


def rules_text(text: Any) -> dict:
    """An uploaded ruleset's TOML parsed, bounded in size (:data:`MAX_TOML`) and nesting
    (``sim.ruleset.parse_toml``)."""
    if not isinstance(text, str):
        raise CanastaError("rules_toml: expected the text of a TOML file")
    if len(text) > MAX_TOML:
        raise CanastaError(f"the rules file is over {MAX_TOML // 1024} KiB")
    data = parse_toml(text, "the rules file")  # bounded in nesting, as a file on the disk
    if set(data) == {"ruleset"} and isinstance(data["ruleset"], dict):
        data = data["ruleset"]
    return data


def check_post(request: Request) -> None:
    """A state-changing request must come from the page (module docstring): 415 for another
    content type, 403 for another site."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise HTTPException(415, "expected a JSON body (Content-Type: application/json)")
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise HTTPException(403, f"a request from another site ({site[:20]}) is refused")
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "")
        if origin not in (f"http://{host}", f"https://{host}"):
            raise HTTPException(403, f"a request from another origin ({origin[:60]}) is refused")


def _host_name(host: str) -> str:
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if ":" in host else host


class Guard:
    """ASGI layer: requests for another host name are refused (400, one JSON line), and every
    response gets the security headers (module docstring)."""

    def __init__(self, app, hosts: tuple[str, ...] = HOSTS):
        self.app = app
        self.hosts = tuple(h.lower() for h in hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        host = ""
        for k, v in scope.get("headers", []):
            if k == b"host":
                host = v.decode("latin-1")
                break
        api = scope.get("path", "").startswith("/api/")

        async def send_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + _HEADERS
                if api:
                    headers.append((b"cache-control", b"no-store"))
                message = message | {"headers": headers}
            await send(message)

        if _host_name(host.lower()) not in self.hosts:
            resp = JSONResponse(
                {"error": f"this server answers for 127.0.0.1 only, not {host[:60]!r}"},
                status_code=400,
            )
            return await resp(scope, receive, send_headers)
        return await self.app(scope, receive, send_headers)
