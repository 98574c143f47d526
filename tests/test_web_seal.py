"""Records that cannot be relabelled, the hint's words, and ``canasta serve --host``:

- a finished record relabelled ``practice_seed: false`` with an invented entropy replayed as
  genuine: now a finished record carries the server's HMAC (``canasta.web.seal``), checked on
  replay; unsigned or altered records replay marked unverified;
- the hint's "why" said "-0 points, 95% interval -0 to -0" where its table showed +850 against
  +852 (game mode ranks by the chance of winning, the paired differences are from the points'
  best): now every figure is rounded as the table rounds it, and the sentence fits the order;
- ``--host`` listens elsewhere than 127.0.0.1, with a warning pointing to the deployment note.
"""

from __future__ import annotations

import json
import math
import stat

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from analysis.advise import Advice, Choice, why
from canasta.web.app import create_app
from canasta.web.seal import KEY_FILE, Seal
from canasta.web.table import move_for, why_text
from tests.web_client import BASE, BOT, TestClient, table_of


def _finished_record(c, seed=None) -> dict:
    body = {} if seed is None else {"seed": seed}
    assert c.post("/api/new", json=body).status_code == 200
    t = table_of(c)
    while not t.game.is_over:
        c.post("/api/move", json={**move_for(t.game.policy_action(BOT)), "move_no": t.move_no})
    return json.loads(c.get("/api/record").text)


def test_a_relabelled_record_replays_unverified(tmp_path):
    """A finished hand's record is signed; it replays verified. Relabelled as a secret deal
    (``practice_seed: false``, entropy invented), altered by one action, or unsigned, it still
    replays, marked unverified."""
    app = create_app(state_dir=tmp_path, warm=False, default_bot=BOT)
    c = TestClient(app, base_url=BASE)
    rec = _finished_record(c, seed=77)
    assert rec["table"]["practice_seed"] is True and rec["signature"]["alg"] == "HMAC-SHA256"
    ok = c.post("/api/replay", json=rec).json()
    assert ok["verified"] is True and ok["authenticity"].startswith("verified")

    forged = json.loads(json.dumps(rec))
    forged["table"]["practice_seed"] = False
    forged["table"]["deal_entropy"] = "0123456789abcdef0123456789abcdef"
    forged["seed"] = None
    altered = json.loads(json.dumps(rec))
    altered["players"][1] = "expert"
    unsigned = {k: v for k, v in rec.items() if k != "signature"}
    for bad in (forged, altered, unsigned):
        r = c.post("/api/replay", json=bad)
        assert r.status_code == 200
        out = r.json()
        assert out["verified"] is False and out["authenticity"].startswith("unverified")

    # the key is the server's state: 0600, the same after a restart, another server's differs
    key = tmp_path / KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    again = TestClient(create_app(state_dir=tmp_path, warm=False, default_bot=BOT), base_url=BASE)
    assert again.post("/api/replay", json=rec).json()["verified"] is True
    other = TestClient(create_app(warm=False, default_bot=BOT), base_url=BASE)
    assert other.post("/api/replay", json=rec).json()["verified"] is False


def test_a_running_record_is_not_signed():
    """Only a finished record is signed: one of a running hand lacks its deck, not a record
    to vouch for."""
    c = TestClient(create_app(warm=False, default_bot=BOT), base_url=BASE)
    c.post("/api/new", json={"seed": 5})
    assert "signature" not in json.loads(c.get("/api/record").text)


def test_seal_signs_the_canonical_record():
    s = Seal()
    rec = {"format": "x", "hands": [{"actions": [1, 2]}], "table": {"practice_seed": False}}
    signed = s.sign(rec)
    assert s.check(signed)[0]
    assert s.check(json.loads(json.dumps(signed, indent=3)))[0]  # layout does not matter
    assert not s.check(signed | {"hands": [{"actions": [1, 3]}]})[0]
    assert not s.check(signed | {"signature": "nonsense"})[0]
    assert not Seal().check(signed)[0]  # another key


def _ch(label, mean, diff, lo, hi, n=64, game=None):
    return Choice(label, [], None, mean, mean - 40, mean + 40, diff, lo, hi, n, {}, game=game or {})


def _no_signed_zero(text: str) -> bool:
    return "-0 " not in text and "+0 " not in text and "-0)" not in text and "+0)" not in text


def test_why_in_game_mode_fits_the_table():
    """Game mode: the first choice by the chance of winning scored +850, the runner-up +852
    and is the points' best (its paired difference 0, interval 0 to 0): the sentence compares
    the chances and says the first scores 2 fewer points, with no "-0"."""
    game_a = {"win": 0.61, "ci_low": 0.6, "ci_high": 0.62, "diff_from_best": 0.0}
    game_b = {"win": 0.58, "ci_low": 0.57, "ci_high": 0.59, "diff_from_best": -0.03}
    a = _ch("discard 7S", 850.0, -2.0, -9.0, 5.0, game=game_a)
    b = _ch("discard 9H", 852.0, 0.0, 0.0, 0.0, game=game_b)
    adv = Advice("play", [a, b])
    assert not _no_signed_zero(why(adv))  # what the page said before
    text = why_text(adv, why)
    assert _no_signed_zero(text)
    assert "61% against 58%" in text and "2 fewer points" in text
    assert "+850 against +852" in text


def test_why_rounds_as_the_table_rounds():
    """By points: a paired difference under half a point is "about the same" with 0, never
    "-0"; a clear lead keeps analysis.advise.why's sentence."""
    best = _ch("meld 9 9 9", 500.0, 0.0, 0.0, 0.0)
    tiny = _ch("discard 4", 499.7, -0.3, -0.3, -0.3)
    text = why_text(Advice("play", [best, tiny]), why)
    assert _no_signed_zero(text) and "about the same (0 points" in text
    assert "95% interval 0 to 0" in text
    clear = _ch("discard K", 400.0, -100.0, -150.0, -50.0)
    adv = Advice("play", [best, clear])
    assert why_text(adv, why) == why(adv)
    nan = _ch("discard Q", 400.0, math.nan, math.nan, math.nan)
    assert why_text(Advice("play", [best, nan]), why) == why(Advice("play", [best, nan]))


def test_serve_host_warns_off_loopback(monkeypatch, capsys, tmp_path):
    """``--host`` binds where asked (loopback by default); off loopback it warns, naming the
    deployment note, answers to the ``--name`` given, and never lets uvicorn read proxy headers
    itself; a bad address is one line, exit 2."""
    import uvicorn

    from canasta import main

    seen = {}

    def fake_run(app, **kw):
        seen.update(kw, app=app)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.setattr("canasta.web.app._warm", lambda *a: None)  # no warm-up: never served
    assert main(["serve", "--state", str(tmp_path), "--bot", BOT, "--port", "8799"]) == 0
    out = capsys.readouterr().out
    assert seen["host"] == "127.0.0.1" and "warning" not in out
    assert seen["proxy_headers"] is False
    args = ["serve", "--state", str(tmp_path), "--bot", BOT, "--host", "0.0.0.0"]
    assert main([*args, "--name", "club.example", "--trust-proxy"]) == 0
    out = capsys.readouterr().out
    assert seen["host"] == "0.0.0.0"
    assert "warning" in out and "docs/web.md" in out and "reverse proxy with TLS" in out
    c = TestClient(seen["app"], base_url="http://club.example")
    assert c.get("/api/options").status_code == 200
    assert TestClient(seen["app"], base_url="http://evil.example").get("/").status_code == 400
    assert main(["serve", "--host", "not an address"]) == 2
    assert "--host" in capsys.readouterr().err
    assert main(["serve", "--bot", "peeking_strong"]) == 2
    assert "measuring reference" in capsys.readouterr().err
