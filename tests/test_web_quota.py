"""A server a club can host (docs/web.md, limits and threat model), each attack replayed through
the HTTP API and shown to fail:

- a flood of new tables from one client (64 made in half a second) evicted every idle table,
  from memory and disk: now a client has a rate and a number of tables, and a full server
  refuses new tables (503) rather than take one used within its idle limit;
- nothing limited a client's requests: now a rate a minute (429 with Retry-After), each client
  counted by its address (behind ``--trust-proxy``, the address the proxy forwards);
- a page on another local port planted the session cookie (cookies ignore ports): now a table
  also needs its key, kept in the page's own storage;
- the state folder was made 0755 and each save's temporary file 0644 while it held the deck.
"""

from __future__ import annotations

import os
import stat

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from canasta.web.app import create_app
from canasta.web.guard import Quotas, client_of
from tests.web_client import BASE, BOT, TestClient, table_of


def _app(tmp_path=None, **kw):
    kw.setdefault("default_bot", BOT)
    return create_app(state_dir=tmp_path, warm=False, hint_budget=0.2, review_budget=0.05, **kw)


def _as(app, address: str) -> TestClient:
    """A client at ``address`` (the server trusts a proxy that forwards it)."""
    c = TestClient(app, base_url=BASE, raise_server_exceptions=False)
    c.headers["x-forwarded-for"] = address
    return c


def test_a_flood_of_new_tables_evicts_no_table_in_use(tmp_path):
    """1,000 ``POST /api/new`` with no cookie from one client: the tables of five other
    players, each used moments before, all stay (memory, disk, the same move), the flood gets
    at most its minute's tables and then one-line 429s, never a 5xx."""
    app = _app(tmp_path, trust_proxy=True, max_tables=64)
    players = [_as(app, f"10.0.0.{k}") for k in range(1, 6)]
    for k, p in enumerate(players):
        assert p.post("/api/new", json={"seed": k}).status_code == 200
    before = {k: p.get("/api/state").json()["move_no"] for k, p in enumerate(players)}
    files = set(tmp_path.glob("*.json"))
    flood = _as(app, "10.6.6.6")
    codes: dict[int, int] = {}
    for _ in range(1000):
        flood.cookies.clear()
        flood.table_key = None
        r = flood.post("/api/new", json={})
        codes[r.status_code] = codes.get(r.status_code, 0) + 1
        if r.status_code != 200:
            assert set(r.json()) == {"error"} and "\n" not in r.json()["error"]
    assert set(codes) <= {200, 429}, codes
    assert codes[200] <= app.state.tables.per_client  # its tables, then refused
    assert codes[429] >= 1000 - app.state.tables.per_client
    for k, p in enumerate(players):
        r = p.get("/api/state")
        assert r.status_code == 200 and r.json()["move_no"] == before[k]
    assert files <= set(tmp_path.glob("*.json"))  # no other player's file removed


def test_a_full_server_refuses_new_tables_rather_than_evict(tmp_path):
    """With every quota lifted the cap still holds: past ``max_tables`` a new table is a 503
    with one line, and no table used within its idle limit goes (the old rule evicted the
    longest idle). A table idle past its limit does make room."""
    app = _app(tmp_path, max_tables=4, tables_per_client=100, quotas=Quotas(10**6, 10**6))
    kept = [TestClient(app, base_url=BASE) for _ in range(4)]
    for k, c in enumerate(kept):
        assert c.post("/api/new", json={"seed": k}).status_code == 200
    for _ in range(50):
        r = TestClient(app, base_url=BASE).post("/api/new", json={})
        assert r.status_code == 503 and "most tables (4)" in r.json()["error"]
    assert all(c.get("/api/state").status_code == 200 for c in kept)
    # a session's new table replaces its own last one: no room needed
    assert kept[0].post("/api/new", json={"seed": 9}).status_code == 200
    app.state.tables.idle_ttl = 0.0  # every table now idle past its limit
    assert TestClient(app, base_url=BASE).post("/api/new", json={}).status_code == 200


def test_tables_per_client():
    """One client holds at most ``tables_per_client`` tables (429 past it, one line); another
    client is not affected, and a session replacing its own table is."""
    app = _app(trust_proxy=True, tables_per_client=2)
    a1, a2, a3 = (_as(app, "10.0.0.1") for _ in range(3))
    assert a1.post("/api/new", json={}).status_code == 200
    assert a2.post("/api/new", json={}).status_code == 200
    r = a3.post("/api/new", json={})
    assert r.status_code == 429 and "already holds 2 tables" in r.json()["error"]
    assert a1.post("/api/new", json={"seed": 3}).status_code == 200  # replaces its own
    assert _as(app, "10.0.0.2").post("/api/new", json={}).status_code == 200


def test_request_rate_per_client_and_minute():
    """Past its requests a minute a client gets 429 with Retry-After; another client does not.
    X-Forwarded-For counts only behind a trusted proxy: otherwise a client could name itself
    anew with each request."""
    app = _app(trust_proxy=True, quotas=Quotas(requests=20, tables=5))
    a, b = _as(app, "10.0.0.1"), _as(app, "10.0.0.2")
    assert all(a.get("/api/options").status_code == 200 for _ in range(20))
    r = a.get("/api/state")
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    assert r.json()["error"].startswith("too many requests from this client")
    assert b.get("/api/options").status_code == 200
    assert a.get("/").status_code == 200  # the page itself is not an API request
    plain = _app(quotas=Quotas(requests=20, tables=5))  # no proxy trusted
    spoofs = [_as(plain, f"10.9.0.{k}") for k in range(25)]
    codes = [c.get("/api/options").status_code for c in spoofs]
    assert codes.count(200) == 20 and codes.count(429) == 5


def test_client_of_reads_the_proxy_only_when_trusted():
    scope = {
        "client": ("127.0.0.1", 5000),
        "headers": [(b"x-forwarded-for", b"6.6.6.6, 203.0.113.7")],
    }
    assert client_of(scope) == "127.0.0.1"
    assert client_of(scope, trust_proxy=True) == "203.0.113.7"  # the hop the proxy appended
    assert client_of({"client": ("::1", 1), "headers": []}, trust_proxy=True) == "::1"
    assert client_of({"headers": []}) == "unknown"


def test_quotas_remember_a_bounded_number_of_clients():
    """A flood of client addresses (spoofed behind a proxy) keeps the quota's memory bounded."""
    q = Quotas(requests=5, tables=5, max_clients=100)
    for k in range(5000):
        assert q.take("requests", f"c{k}") == 0.0
    assert len(q._buckets) <= 100
    for _ in range(5):
        q.take("tables", "x")
    assert q.take("tables", "x") > 0  # the sixth in the minute waits


def test_a_planted_cookie_reaches_no_table():
    """Attack: a page on another port of this host set the session cookie (cookies ignore
    ports) to a table its owner made with curl, so the player's moves went to a table the
    attacker could read. Now the table also needs its key (sent once, kept in the page's own
    origin's storage): a cookie without it is no table, and the player's new table leaves the
    attacker's alone."""
    app = _app()
    attacker = TestClient(app, base_url=BASE)
    assert attacker.post("/api/new", json={"seed": 5}).status_code == 200
    tid = attacker.cookies["canasta_table"]
    victim = TestClient(app, base_url=BASE, raise_server_exceptions=False)
    victim.cookies.set("canasta_table", tid)
    assert victim.get("/api/state").status_code == 404
    assert victim.get("/api/record").status_code == 404
    assert victim.post("/api/move", json={"move_no": 1, "move": "draw"}).status_code == 404
    victim.table_key = "x" * 24  # a guessed key
    assert victim.get("/api/state").status_code == 404
    victim.table_key = None
    r = victim.post("/api/new", json={})
    assert r.status_code == 200 and r.cookies["canasta_table"] != tid
    assert attacker.get("/api/state").status_code == 200  # not replaced by the victim's
    # the record link carries the key as a query (a download sends no header)
    key = attacker.table_key
    attacker.table_key = None
    assert attacker.get(f"/api/record?key={key}").status_code == 200
    assert attacker.get("/api/record").status_code == 404


def test_over_https_the_cookie_is_host_prefixed_and_secure():
    """Behind a TLS proxy the cookie is ``__Host-`` (only this host, over HTTPS, sets it) and
    Secure; the plain name is then not read."""
    app = _app(trust_proxy=True)
    c = TestClient(app, base_url=BASE)
    r = c.post("/api/new", json={}, headers={"x-forwarded-proto": "https"})
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("__Host-canasta_table=")
    for attr in ("Secure", "HttpOnly", "SameSite=strict", "Path=/"):
        assert attr.lower() in cookie.lower()
    assert "domain" not in cookie.lower()
    plain = TestClient(app, base_url=BASE)
    plain.post("/api/new", json={})
    tid = plain.cookies["canasta_table"]
    plain.cookies.clear()
    plain.cookies.set("canasta_table", tid)
    assert plain.get("/api/state", headers={"x-forwarded-proto": "https"}).status_code == 404
    assert plain.get("/api/state").status_code == 200


def test_state_folder_0700_and_saves_0600_from_their_first_byte(tmp_path, monkeypatch):
    """The saved tables hold the running deck: the folder is 0700 even if it existed wider, and
    each save's temporary file is 0600 when it is created, whatever the umask."""
    state = tmp_path / "state"
    state.mkdir(mode=0o755)
    os.chmod(state, 0o755)
    app = _app(state)
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    modes = []
    real_replace = os.replace

    def spy(src, dst, *a, **kw):
        modes.append(stat.S_IMODE(os.stat(src).st_mode))
        return real_replace(src, dst, *a, **kw)

    old = os.umask(0)
    try:
        monkeypatch.setattr(os, "replace", spy)
        c = TestClient(app, base_url=BASE)
        assert c.post("/api/new", json={"seed": 2}).status_code == 200
    finally:
        os.umask(old)
    assert modes and all(m == 0o600 for m in modes)
    files = list(state.glob("*.json"))
    assert files and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    assert table_of(c) is not None


def test_a_measuring_reference_is_no_bot_of_the_api():
    """``peeking_strong`` sees every hand: the API refuses it as partner or opponents (one line,
    400, as the terminal refuses it) and does not offer it."""
    c = TestClient(_app(), base_url=BASE, raise_server_exceptions=False)
    assert "peeking_strong" not in c.get("/api/options").json()["bots"]
    for key in ("partner", "opponents"):
        r = c.post("/api/new", json={key: "peeking_strong"})
        assert r.status_code == 400 and "measuring reference" in r.json()["error"]
    assert "canasta_table" not in c.cookies
