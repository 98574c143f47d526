"""A fuzz of every route of the web table: 1,200 bounded requests from a fixed seed,
with random and junk bodies (random JSON of any shape, bytes, deep nesting, huge numbers,
TOML junk, moves that are nearly right), methods, content types, origins, hosts and cookies,
mixed with real play so the deeper code paths are reached. Every answer must be under 500, and
every error a JSON object with one line and no traceback."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from canasta.web.app import create_app
from canasta.web.table import move_for
from sim import encoding as E
from tests.web_client import BASE, BOT, TestClient

N_REQUESTS = 1200
#: paths besides the app's own routes: static files, a path outside them, no route at all
EXTRA_PATHS = ["/static/app.js", "/static/../app.py", "/api/nowhere"]
MOVES = ["draw", "pile", "meld", "out", "discard", "declare", "lay", "keep_red", "keep_black"]
CARDS = [*E.KIND_NAMES, "Z", "", "10S", "jk", "3R"]
CTYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "",
]


def _value(rng: random.Random, depth: int = 0):
    """A random JSON value (bounded)."""
    kinds = ["int", "float", "str", "bool", "null", "list", "dict", "big"]
    k = rng.choice(kinds if depth < 4 else kinds[:5])
    if k == "int":
        return rng.randint(-(2**70), 2**70)
    if k == "float":
        return rng.choice([0.5, -1e308, 1e308, 3.0])
    if k == "str":
        return rng.choice(
            [
                "",
                "x" * rng.randint(0, 400),
                "<img src=x onerror=alert(1)>",
                "../" * 9,
                "\u0000\u202e",
            ]
        )
    if k == "bool":
        return rng.random() < 0.5
    if k == "null":
        return None
    if k == "big":
        return 10**60
    if k == "list":
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {
        rng.choice(["move", "cards", "rules", "seed", "mode", "x"]): _value(rng, depth + 1)
        for _ in range(rng.randint(0, 4))
    }


def _body(rng: random.Random, path: str, move_no: int | None) -> bytes:
    r = rng.random()
    if r < 0.08:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))
    if r < 0.12:
        d = rng.randint(30, 3000)
        return (
            ("[" * d + "]" * d).encode()
            if rng.random() < 0.5
            else ('{"a":' * d + "1" + "}" * d).encode()
        )
    if r < 0.16:
        return b'{"move_no": 1' + b"9" * rng.randint(10, 6000) + b"}"
    if r < 0.30:
        return json.dumps(_value(rng)).encode()
    body: dict = {}
    if path == "/api/new":
        body = {
            "mode": rng.choice(["hand", "game", "match", 3, None]),
            "partner": rng.choice([BOT, BOT, "nobody", 5, ["x"]]),
            "opponents": rng.choice([BOT, BOT, {"a": 1}]),
        }
        if rng.random() < 0.3:
            body["seed"] = rng.choice([1, -1, 2**64, "7", 3.5, True])
        if rng.random() < 0.3:
            body["rules"] = rng.choice(["tournament (default)", "nope", ["a"], {"b": 2}, 4])
        if rng.random() < 0.25:
            body["rules_toml"] = rng.choice(
                [
                    "rule_of_five = false",
                    "a = " + "[" * rng.randint(1, 400),
                    "x = {" * rng.randint(1, 200),
                    "target = 'high'",
                    "[ruleset]\ntarget = -5",
                    '"""' * 7,
                    "\\" * 300,
                    5,
                    ["a"],
                ]
            )
            body["rules_name"] = rng.choice(["club.toml", "<b>x</b>", 7, None])
    elif path == "/api/move":
        body = {"move": rng.choice([*MOVES, "fly", ["draw"], {"m": 1}, None])}
        if rng.random() < 0.6:
            body["cards"] = [rng.choice(CARDS) for _ in range(rng.randint(0, 8))]
        if rng.random() < 0.2:
            body["cards"] = _value(rng)
        if rng.random() < 0.3:
            body["target"] = rng.choice([*CARDS, "wild", 3, ["K"], None])
    elif path == "/api/replay":
        body = {
            "format": "canasta-sim record",
            "version": rng.choice([1, 2, "1"]),
            "hands": _value(rng),
            "ruleset": _value(rng),
        }
    if move_no is not None and rng.random() < 0.8:
        body["move_no"] = move_no + rng.choice([0, 0, 0, -1, 1])
    return json.dumps(body).encode()


def test_fuzz_every_route_no_5xx_no_traceback():
    rng = random.Random(43)
    app = create_app(
        warm=False, default_bot=BOT, hint_budget=0.05, review_budget=0.01, max_tables=8
    )
    clients = [TestClient(app, base_url=BASE, raise_server_exceptions=False) for _ in range(3)]
    # every route of the app (a route added later is fuzzed too), then the paths besides
    real = [r for r in app.routes if getattr(r, "methods", None)]
    routes = [r.path for r in real] + EXTRA_PATHS
    posts = {r.path for r in real if "POST" in r.methods}
    assert {"/", "/api/state", "/api/move"} < set(routes) and "/api/move" in posts
    seen: dict[int, int] = {}
    routes_hit = set()
    for i in range(N_REQUESTS):
        c = rng.choice(clients)
        t = app.state.tables.get(c.cookies.get("canasta_table"))
        if t is None and rng.random() < 0.3:
            r = c.post("/api/new", json={"seed": rng.randrange(1000)})
        elif t is not None and rng.random() < 0.35 and not t.game.is_over:
            # real play between the junk: deeper positions, finished hands, reviews
            a = t.game.policy_action(BOT)
            r = c.post("/api/move", json=move_for(a) | {"move_no": t.move_no})
        else:
            path = rng.choice(routes)
            post = path in posts
            u = rng.random()
            method = (
                ("POST" if post else "GET")
                if u < 0.8
                else rng.choice(["GET", "POST", "PUT", "DELETE"])
            )
            headers = {
                "content-type": "application/json" if rng.random() < 0.7 else rng.choice(CTYPES)
            }
            if rng.random() < 0.15:
                headers["origin"] = rng.choice(["http://evil.example", BASE, "null", ""])
            if rng.random() < 0.1:
                headers["sec-fetch-site"] = rng.choice(
                    ["cross-site", "same-site", "none", "same-origin"]
                )
            if rng.random() < 0.05:
                headers["host"] = rng.choice(
                    ["evil.example", "127.0.0.1:1", "[::1]:5", "localhost"]
                )
            if rng.random() < 0.1:
                junk = rng.choice(["x" * 300, "abc", "A" * 16, "%00" * 5, "-" * 40, "a;b=c"])
                headers["cookie"] = f"canasta_table={junk}"
            content = (
                _body(rng, path, None if t is None else t.move_no) if method != "GET" else None
            )
            r = c.request(method, path, content=content, headers=headers)
            routes_hit.add(path)
        seen[r.status_code] = seen.get(r.status_code, 0) + 1
        assert r.status_code < 500, (i, r.status_code, r.text[:300])
        assert "Traceback" not in r.text
        if r.status_code >= 400 and r.headers.get("content-type", "").startswith(
            "application/json"
        ):
            err = r.json()["error"]
            assert isinstance(err, str) and err and "\n" not in err
    print("fuzz statuses:", dict(sorted(seen.items())))
    assert sum(seen.values()) == N_REQUESTS and routes_hit == set(routes)
    assert seen.get(200, 0) > 100 and sum(v for k, v in seen.items() if 400 <= k < 500) > 300
