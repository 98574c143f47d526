"""The web table against the attacks of its threat model (docs/web.md), each replayed
through the HTTP API (Starlette's test client) and shown to fail:

- the seed gave every hidden card away (in every response, the record, its file name; 31 bits);
- /api/replay read server files (a path; /dev/zero; a named pipe);
- undo peeked at the stock (draw, undo, draw) and worked after the hand ended;
- an uploaded ruleset's name ran as HTML; another site's form made a table and replaced the
  cookie; the session id was in every body and the record;
- a 200 MB body was read whole before the 413; tables never expired; two requests at once both
  applied;
- 500s from a long cookie, ``rules``/``move`` as a list or object, deep JSON, deep TOML.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
import time
import tracemalloc

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.exceptions import HTTPException
from starlette.requests import Request

from canasta.web import guard
from canasta.web.app import create_app
from canasta.web.table import ENTROPY_BITS, Table, hand_seed, move_for
from sim import encoding as E
from sim import record as R
from tests.test_web import counterfactual
from tests.web_client import BASE, BOT, JSON, TestClient, table_of

#: keys whose value would rebuild a deal or reach a table: never set while a game runs
SECRET_KEYS = {"seed", "deck", "rng", "entropy", "deal_entropy", "session", "state"}


def _client(tmp_path=None, **kw) -> TestClient:
    kw.setdefault("default_bot", BOT)
    app = create_app(state_dir=tmp_path, warm=False, hint_budget=0.2, review_budget=0.05, **kw)
    return TestClient(app, base_url=BASE, raise_server_exceptions=False)


def _at(c, body=None) -> dict:
    return {**(body or {}), "move_no": table_of(c).move_no}


def _walk(node, path=""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield f"{path}.{k}", k, v
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, f"{path}[{i}]")


def _secrets_of(t: Table) -> list[str]:
    """Strings that would give the deal or the table away if a response held them."""
    out = [t.id]
    if t._entropy is not None:
        out += [f"{t._entropy:032x}", str(t._entropy)]
        for k in range(len(t.hands)):
            out.append(str(hand_seed(t._entropy, k).entropy))
    return out


def _check_response(t: Table, text: str, running: bool) -> None:
    """No seed, entropy, RNG state, session id or deck of a running hand in ``text``; no
    card id of a hidden card (the API names cards by rank, never by id)."""
    for secret in _secrets_of(t) if running else [t.id]:  # once over: the deal may be shown
        assert secret not in text
    body = json.loads(text)
    for where, key, value in _walk(body):
        if key in SECRET_KEYS and running:
            assert value is None or (key == "deck" and ".hands[" in where), (where, value)
    if running and isinstance(body, dict) and "hands" in body:  # a record
        assert body["hands"][-1]["deck"] is None or t.game.is_over  # a finished hand's deck
        assert body["seed"] is None and "deal_entropy" not in body["table"]


def _every_route(c, log: list) -> None:
    """GET every read route and POST hint, review and replay; each answer checked."""
    t = table_of(c)
    running = not t.finished()
    for method, path, body in (
        ("GET", "/api/state", None),
        ("GET", "/api/options", None),
        ("GET", "/api/ready", None),
        ("GET", "/api/record", None),
        ("POST", "/api/hint", {}),
        ("POST", "/api/review", {}),
    ):
        r = c.request(method, path, json=body)
        assert r.status_code < 500, (path, r.text)
        _check_response(t, r.text, running)
        log.append(path)


def test_a_hand_and_a_game_through_every_route_keep_the_deal_secret():
    """Attack: the seed in every response, the record and its file name rebuilt every hand.
    Now: hand by hand, no response carries a seed, the entropy, a hand's seed, the session
    id or the running hand's deck; the record's file name names neither; once the game is
    over the record gives the entropy and every deck, which reproduce the deals."""
    for mode in ("hand", "game"):
        c = _client()
        r = c.post("/api/new", json={"mode": mode})
        assert r.status_code == 200
        t = table_of(c)
        assert t.seed is None and t._entropy is not None
        log: list = []
        hands = 0
        for _ in range(20000):
            t = table_of(c)
            _check_response(t, r.text, not t.finished())
            if not t.game.is_over:  # the view depends on nothing the seat cannot see
                assert r.json() == t.view()
                assert t.view(t.game) == t.view(counterfactual(t.game, t.seat))
            if len(log) < 40 or t.game.is_over:
                _every_route(c, log)
            if t.game.is_over:
                hands += 1
                if t.finished():
                    break
                r = c.post("/api/next", json=_at(c))
                continue
            a = t.game.policy_action(BOT)
            r = c.post("/api/move", json=_at(c, move_for(a)))
            assert r.status_code == 200, r.text
        rec = c.get("/api/record")
        assert "canasta-" in rec.headers["content-disposition"]
        for secret in _secrets_of(t):
            assert secret not in rec.headers["content-disposition"]
        body = json.loads(rec.text)
        assert t.finished()  # the whole hand, the whole game (GAME-1)
        # the whole record once it is over: the decks come from the entropy
        ent = int(body["table"]["deal_entropy"], 16)
        for k, h in enumerate(body["hands"]):
            g = R.game_hand(hand_seed(ent, k), 0, k, h["scores"], t.ruleset)
            assert g.deck.tolist() == h["deck"]
        assert hands >= 1 and {"/api/hint", "/api/record"} <= set(log)


def test_deal_entropy_is_128_bits_and_hands_are_seeded_apart():
    """Attack: 31-bit seeds searched from one's own 14 cards. Now 128 bits from the OS per
    table, each hand's seed a keyed hash of them (a finished hand's deck says nothing of the
    next); tables never share entropy."""
    ents = {Table(partner=BOT, opponents=BOT)._entropy for _ in range(8)}
    assert len(ents) == 8 and ENTROPY_BITS == 128
    assert max(e.bit_length() for e in ents) > 120  # all 8 under 2**120: chance 2**-64
    e = ents.pop()
    a, b = hand_seed(e, 0), hand_seed(e, 1)
    assert a.entropy != b.entropy and hand_seed(e, 0).entropy == a.entropy
    assert R.game_hand(a, 0, 0, (0, 0)).deck.tolist() != R.game_hand(b, 0, 0, (0, 0)).deck.tolist()


@pytest.mark.parametrize(
    "body", ['"/etc/passwd"', '"/dev/zero"', '"tables/x.json"', '["/etc/passwd"]', "5"]
)
def test_replay_never_reads_a_path(body, tmp_path):
    """Attack: a JSON string taken as a path (file exists or not, /dev/zero, a FIFO). Now
    only a JSON object is a record: anything else is a 400 at once, the same for any path."""
    c = _client()
    r = c.post("/api/replay", content=body, headers=JSON)
    assert r.status_code == 400 and "record itself" in r.json()["error"]


def test_replay_of_a_fifo_path_does_not_block(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    c = _client()
    t0 = time.perf_counter()
    r = c.post("/api/replay", json=str(fifo))
    assert r.status_code == 400 and time.perf_counter() - t0 < 5


def _request(body_chunks, headers=()):
    """A Starlette request whose body arrives in ``body_chunks`` (counted as they are read)."""
    pulled = []

    async def receive():
        chunk = next(body_chunks, None)
        pulled.append(chunk)
        return {"type": "http.request", "body": chunk or b"", "more_body": chunk is not None}

    scope = {"type": "http", "method": "POST", "path": "/api/move", "headers": list(headers)}
    return Request(scope, receive), pulled


def test_a_body_is_cut_off_while_it_streams():
    """Attack: a 200 MB POST read whole before the 413. Now a declared length over the limit
    is refused before a byte is read, and an undeclared one as it passes the limit."""

    def endless():
        while True:
            yield b"x" * 65536

    req, pulled = _request(endless())
    with pytest.raises(HTTPException) as exc:
        asyncio.run(guard.read_json(req))
    assert exc.value.status_code == 413
    assert len(pulled) <= guard.MAX_BODY // 65536 + 1  # 5 chunks of 64 KiB, not 3,200
    req, pulled = _request(endless(), [(b"content-length", b"209715200")])
    with pytest.raises(HTTPException) as exc:
        asyncio.run(guard.read_json(req))
    assert exc.value.status_code == 413 and pulled == []


def _new(c, **kw):
    r = c.post("/api/new", json={"seed": 3, **kw})
    assert r.status_code == 200, r.text
    return r


DEEP_JSON = "[" * 100_000 + "]" * 100_000
DEEP_TOML = "a = " + "[" * 5000 + "]" * 5000


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/new", {"rules": ["tournament (default)"]}),
        ("/api/new", {"rules": {"a": 1}}),
        ("/api/new", {"rules_toml": DEEP_TOML}),
        ("/api/new", {"rules_toml": "x = {" * 3000}),
        ("/api/new", {"rules_toml": "a = 1\n" * 5000}),
        ("/api/new", {"rules_name": {"x": 1}, "rules_toml": "rule_of_five = false"}),
        ("/api/move", {"move": ["draw"]}),
        ("/api/move", {"move": {"draw": 1}}),
        ("/api/move", {"move": "meld", "cards": ["K"], "target": ["K"]}),
        ("/api/move", {"move_no": [1]}),
        ("/api/move", '{"move": "draw", "move_no": 1' + "0" * 5000 + "}"),
    ],
)
def test_inputs_that_made_500s_get_one_line_4xx(path, body):
    """Attack: 13 HTTP 500s from five inputs. Now each is a 4xx with one JSON line."""
    c = _client()
    _new(c)
    if isinstance(body, dict) and path == "/api/move" and "move_no" not in body:
        body = _at(c, body)
    r = c.post(path, content=body if isinstance(body, str) else json.dumps(body), headers=JSON)
    assert 400 <= r.status_code < 500, r.text
    err = r.json()["error"]
    assert err and "\n" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    "path", ["/api/new", "/api/move", "/api/undo", "/api/next", "/api/hint", "/api/replay"]
)
def test_deeply_nested_json_on_every_route(path):
    c = _client()
    _new(c)
    r = c.post(path, content=DEEP_JSON, headers=JSON)
    assert r.status_code == 400 and "deeper" in r.json()["error"]
    r = c.post(path, content=b'{"a": 1' + b"9" * 5000 + b"}", headers=JSON)
    assert 400 <= r.status_code < 500


def test_a_long_or_odd_cookie_is_no_table(tmp_path):
    c = _client(tmp_path)
    for value in ["x" * 251, "a" * 5000, "../../etc/passwd", "%00", "%C3%A9" * 10, ""]:
        c.cookies.set("canasta_table", value)
        for method, path in (("GET", "/api/state"), ("GET", "/api/record")):
            r = c.request(method, path)
            assert r.status_code == 404, (value[:10], r.text)
        r = c.post("/api/move", json={"move": "draw", "move_no": 1})
        assert r.status_code == 404


def test_undo_never_reveals_a_stock_card_nor_undoes_a_finished_hand():
    """Attack: draw, undo, draw showed the stock's top before choosing stock or pile; undo
    worked once the hand was over. Now neither is allowed (409-free 400, one line)."""
    c = _client()
    checked_draw = False
    for seed in range(3, 40):
        _new(c, seed=seed)
        for _ in range(400):
            t = table_of(c)
            if t.game.is_over:
                break
            a = t.game.policy_action(BOT)
            r = c.post("/api/move", json=_at(c, move_for(a)))
            assert r.status_code == 200
            if a == E.A_DRAW and not r.json()["over"]:
                assert not r.json()["can_undo"]
                u = c.post("/api/undo", json=_at(c))
                assert u.status_code == 400 and "stock" in u.json()["error"]
                checked_draw = True
        assert table_of(c).game.is_over
        assert not c.get("/api/state").json()["can_undo"]
        u = c.post("/api/undo", json=_at(c))
        assert u.status_code == 400 and "over" in u.json()["error"]
        if checked_draw:
            return
    pytest.fail("no stock draw in 37 hands")


def test_cross_site_requests_are_refused():
    """Attack: another site's page auto-posted a form that made a table and replaced the
    cookie. Now a state change must be JSON (a form cannot send it without a preflight, which
    this server never grants) from this origin; another host name is refused (DNS
    rebinding); the cookie is HttpOnly and SameSite=Strict."""
    c = _client()
    form = {"content-type": "application/x-www-form-urlencoded"}
    r = c.post("/api/new", content=b"mode=hand", headers=form)
    assert r.status_code == 415 and "canasta_table" not in r.cookies
    r = c.post("/api/new", content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    for h in ({"origin": "http://evil.example"}, {"sec-fetch-site": "cross-site"}):
        r = c.post("/api/new", json={}, headers=h)
        assert r.status_code == 403 and "canasta_table" not in r.cookies
    r = c.post("/api/new", json={}, headers={"host": "evil.example:8765"})
    assert r.status_code == 400 and "127.0.0.1" in r.json()["error"]
    r = c.post("/api/new", json={}, headers={"origin": BASE, "sec-fetch-site": "same-origin"})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    tid = c.cookies["canasta_table"]
    assert tid not in r.text and tid not in c.get("/api/record").text


def test_the_page_runs_no_script_from_data():
    """Attack: an uploaded ruleset's name (``<img src=x onerror=…>.toml``) ran as HTML on Hint.
    Now the page never writes HTML from data (no innerHTML, no inline script or handler) and
    the Content-Security-Policy allows scripts from the server's files only; the name comes
    back as plain data."""
    from canasta.web.app import STATIC

    js = (STATIC / "app.js").read_text()
    html = (STATIC / "index.html").read_text()
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js and "eval(" not in js
    assert "<script>" not in html and not re.search(r"\son[a-z]+\s*=", html)  # no onclick=
    assert "style=" not in html and "style=" not in js
    c = _client()
    bad = '<img src=x onerror="alert(1)">.toml'
    r = c.post("/api/new", json={"rules_toml": "rule_of_five = false", "rules_name": bad})
    assert r.status_code == 200 and r.json()["ruleset"]["name"] == bad + " (uploaded)"
    csp = c.get("/").headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert c.get("/api/state").headers["x-frame-options"] == "DENY"


def test_stale_or_repeated_moves_get_409():
    """Attack: two requests sent at once both applied, the second to the next turn. Now a
    move names the table's move number: a repeated or stale one is refused (409), also when
    the two race."""
    c = _client()
    _new(c)
    t = table_of(c)
    body = _at(c, move_for(t.game.policy_action(BOT)))
    assert c.post("/api/move", json=body).status_code == 200
    r = c.post("/api/move", json=body)
    assert r.status_code == 409 and "stale" in r.json()["error"]
    assert c.post("/api/move", json={"move": "draw"}).status_code == 400  # no number at all
    # two at once: exactly one applies
    for _ in range(3):
        t = table_of(c)
        if t.game.is_over:
            break
        body = _at(c, move_for(t.game.policy_action(BOT)))
        codes: list[int] = []

        def send(body=body, codes=codes):
            codes.append(c.post("/api/move", json=body).status_code)

        threads = [threading.Thread(target=send) for _ in range(2)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert sorted(codes) == [200, 409]


def test_idle_tables_expire_from_memory_and_disk(tmp_path):
    """Attack: tables never expired (1,000 made in 2.5 s, never freed or deleted). Now an
    idle table goes after ``idle_ttl``, from memory and disk, and its cookie finds nothing."""
    c = _client(tmp_path, idle_ttl=0.5)
    _new(c)
    assert len(list(tmp_path.glob("*.json"))) == 1
    old = c.cookies["canasta_table"]
    time.sleep(0.7)
    other = _client(tmp_path, idle_ttl=0.5)  # another server over the same directory
    other.post("/api/new", json={"seed": 4})
    assert len(list(tmp_path.glob("*.json"))) == 1  # the expired file removed
    assert c.get("/api/state").status_code == 404
    assert old not in c.app.state.tables.tables


def test_a_flood_of_tables_stays_bounded(tmp_path):
    """A cap on live tables: past it a new table is refused (503), none in use is evicted
    (tests/test_web_quota.py); memory after 150 refused tables is about that after 30 (each
    client a new session, every quota lifted)."""
    from canasta.web.guard import Quotas

    app = create_app(
        state_dir=tmp_path, warm=False, default_bot=BOT, max_tables=6, tables_per_client=10**6,
        quotas=Quotas(10**6, 10**6),
    )  # fmt: skip
    keep = TestClient(app, base_url=BASE)
    keep.post("/api/new", json={"seed": 1})

    def flood(n):
        for i in range(n):
            cl = TestClient(app, base_url=BASE)
            assert cl.post("/api/new", json={"seed": i}).status_code in (200, 503)

    flood(30)
    tracemalloc.start()
    flood(30)
    base, _ = tracemalloc.get_traced_memory()
    flood(120)
    after, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    tables = app.state.tables
    assert len(tables.tables) <= 6 and len(list(tmp_path.glob("*.json"))) <= 6
    assert keep.get("/api/state").status_code == 200
    # 120 more tables of ~100 KiB each would add ~12 MB; a bounded store adds noise only
    assert after - base < 2_000_000, (base, after)
