"""The web table in a real browser: Playwright driving Debian's Chromium,
headless. One hand is played by clicks and one by the keyboard, each to its score: a move
refused with its rule ID and the moves allowed, a hint shown with its sentence of why, an undo
of a meld (and none after a stock draw), the review's table, then the record downloaded and
replayed on the page; no console error (the Content-Security-Policy refuses nothing the page
does). On a 390 px phone the hand and the buttons are on the first screen. Screenshots at
desktop (1280 px) and phone (390 px) widths go to $CANASTA_SCREENSHOTS (else a temporary
directory; looked at by hand, not compared). Bots are ``heuristic`` here for speed (the
default is strong)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

from canasta.web.app import create_app  # noqa: E402
from canasta.web.table import move_for  # noqa: E402
from sim import encoding as E  # noqa: E402
from sim import record as R  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: where the screenshots go: $CANASTA_SCREENSHOTS, else the test's temporary directory
SHOTS_ENV = os.environ.get("CANASTA_SCREENSHOTS")
BOT = "heuristic"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
)


def served(app):
    """Serve ``app`` on a free port of 127.0.0.1 in a thread: yields ``(app, url)``, stops after
    (the browser tests' server fixtures)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(5)


def finish_by_bot(app, table, page) -> None:
    """``table``'s hand played to its end by the bot on the server (the human's seat too), the
    page reloaded to its end of hand."""
    with app.state.tables.lock(table.id):
        while not table.game.is_over:
            table.move(move_for(table.game.policy_action(BOT)))
    page.reload()
    page.wait_for_selector("#end:not([hidden])")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app(state_dir=tmp_path_factory.mktemp("tables"), default_bot=BOT, warm=False)
    yield from served(app)


@pytest.fixture(scope="module")
def browser():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pw = sync_api.sync_playwright().start()
    b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
    yield b
    b.close()
    pw.stop()


def _table(app, page):
    cookie = next(c for c in page.context.cookies() if c["name"] == "canasta_table")
    return app.state.tables.get(cookie["value"])


def _post(page, what: str, click, timeout: float = 30_000):
    """Click and wait for the API's answer to that click, and for the page to draw it (the
    page counts the answers it has drawn in ``body[data-answered]``)."""
    before = page.evaluate("Number(document.body.dataset.answered || 0)")
    with page.expect_response(lambda r: f"/api/{what}" in r.url, timeout=timeout) as resp:
        click()
    # polled from here: the page's CSP refuses wait_for_function's eval of a string
    deadline = time.monotonic() + timeout / 1000
    while page.evaluate("Number(document.body.dataset.answered || 0)") <= before:
        assert time.monotonic() < deadline, f"the page drew no answer to /api/{what}"
        time.sleep(0.02)
    return resp.value


def _cards_of(a: int) -> tuple[int, int, list[str]]:
    kind, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[a])
    if kind == E.AT_DISCARD:
        return kind, slot, [E.KIND_NAMES[slot]]
    cards = [E.KIND_NAMES[slot]] * (nat if slot != E.WILD_MELD else 0)
    return kind, slot, cards + ["2"] * two + ["JK"] * joker


def _click_action(page, a: int) -> None:
    """The clicks a player makes for the engine action ``a``."""
    kind, slot, cards = _cards_of(a)
    buttons = {
        E.AT_DRAW: "#b-draw",
        E.AT_TAKE_PILE: "#b-pile",
        E.AT_LAY_THREES: "#b-lay",
        E.AT_DECLARE: "#b-declare",
    }
    if kind in buttons:
        _post(page, "move", lambda: page.click(buttons[kind]))
        return
    if kind == E.AT_KEEP_THREE:
        sel = "#b-keep-red" if slot == E.RED_THREE else "#b-keep-black"
        _post(page, "move", lambda: page.click(sel))
        return
    for c in cards:
        page.locator(f'#hand .card[data-card="{c}"]:not(.sel)').first.click()
    if kind == E.AT_DISCARD:
        _post(page, "move", lambda: page.click("#b-discard"))
        return
    rank = "wild" if slot == E.WILD_MELD else E.KIND_NAMES[slot]
    target = page.locator(f'#us-melds .meld[data-rank="{rank}"]')
    if target.count():
        _post(page, "move", lambda: target.first.click())
    else:
        _post(page, "move", lambda: page.click("#b-meld"))


KEY = {"10": "t", "JK": "z", "3b": "3", "3r": "3"}


def _key_action(page, a: int) -> None:
    """The keys a player types for the engine action ``a`` (the page's keyboard play)."""
    kind, slot, cards = _cards_of(a)
    keys = {E.AT_DRAW: "d", E.AT_TAKE_PILE: "p", E.AT_LAY_THREES: "l"}
    if kind in keys:
        _post(page, "move", lambda: page.keyboard.press(keys[kind]))
        return
    if kind in (E.AT_KEEP_THREE, E.AT_DECLARE):  # no key of their own: Tab to the button
        sel = {E.AT_DECLARE: "#b-declare"}.get(kind) or (
            "#b-keep-red" if slot == E.RED_THREE else "#b-keep-black"
        )
        page.focus(sel)
        _post(page, "move", lambda: page.keyboard.press("Enter"))
        return
    for c in cards:
        page.keyboard.press(KEY.get(c, c.lower()))
    assert page.locator("#hand .card.sel").count() == len(cards)
    if kind == E.AT_DISCARD:
        _post(page, "move", lambda: page.keyboard.press("x"))
        return
    rank = "wild" if slot == E.WILD_MELD else E.KIND_NAMES[slot]
    target = page.locator(f'#us-melds .meld[data-rank="{rank}"]')
    if target.count() and (slot == E.WILD_MELD or not any(c == rank for c in cards)):
        target.first.focus()  # wild cards alone join the meld focused (Tab, then Enter)
        _post(page, "move", lambda: page.keyboard.press("Enter"))
    else:
        _post(page, "move", lambda: page.keyboard.press("m"))


def _new_page(browser, url, width=1280, height=900, pace="0", **kw):
    """A page at the start panel; ``pace``: how the bots' turns are shown ("0": all at once,
    as these tests play; "650": one by one, the page's default)."""
    page = browser.new_page(viewport={"width": width, "height": height}, **kw)
    errors = []
    # a refused request (a 4xx the test asks for) logs "Failed to load resource": not a fault
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#start:enabled")
    page.select_option("#pace", pace)
    return page, errors


def _play(app, page, act, shots: Path, name: str) -> None:
    """Play the hand dealt on ``page`` to its end with ``act`` (clicks or keys): a refusal,
    a hint, an undo of a meld and none after a stock draw, then the review."""
    expect = sync_api.expect  # retries until the page has drawn the answer
    table = _table(app, page)
    # a refused move: forced past the page's disabled button, answered with rule and remedy
    hand_before = page.locator("#hand .card").count()
    assert page.is_disabled("#b-pile")  # the page offers only what the phase allows...
    page.evaluate("document.getElementById('b-pile').disabled = false")  # ...so force it
    _post(page, "move", lambda: page.click("#b-pile"))
    expect(page.locator("#message")).to_contain_text("TURN-1")
    assert "Not allowed" in page.inner_text("#message")
    assert "allowed now: " in page.inner_text("#message")
    assert page.locator("#hand .card").count() == hand_before

    # a hint with its sentence of why
    # (a cold numba cache compiles the hint's simulation first: minutes, not the hint's seconds)
    hint = (lambda: page.keyboard.press("h")) if act is _key_action else None
    _post(page, "hint", hint or (lambda: page.click("#b-hint")), timeout=600_000)
    page.wait_for_selector("[data-testid=hint-why]")
    why = page.inner_text("[data-testid=hint-why]")
    assert why.startswith("Why: ") and "points" in why
    assert page.locator("#hint table tr").count() >= 2
    assert "-0" not in page.inner_text("#hint table")
    page.screenshot(path=str(shots / f"{name}-hint.png"), full_page=True)

    undone = drew = False
    moves = 0
    while not table.game.is_over:
        assert table.game.current_player == table.seat
        a = table.game.policy_action(BOT)
        kind = int(E.ACTION_TABLE[a, E.AC_TYPE])
        before = page.inner_text("#hand")
        act(page, a)
        table = _table(app, page)
        moves += 1
        assert moves < 300
        if table.game.is_over:
            break
        if kind == E.AT_DRAW and not drew:  # the drawn card is marked; no undo of a draw
            drew = True
            assert page.is_disabled("#b-undo")
            if table.game.phase == "play":
                assert page.locator("#hand .card.drawn").count() == 1
        if kind == E.AT_MELD and not undone and page.is_enabled("#b-undo"):
            undone = True
            undo = (lambda: page.keyboard.press("u")) if act is _key_action else None
            _post(page, "undo", undo or (lambda: page.click("#b-undo")))
            expect(page.locator("#hand")).to_have_text(before)
            table = _table(app, page)
            act(page, a)
            table = _table(app, page)
    page.wait_for_selector("#end:not([hidden])")
    assert page.is_disabled("#b-undo")  # nothing after the hand ends
    assert "total" in page.inner_text("#score-table")
    g = table.game
    assert str(g.scores()[0]["total"]) in page.inner_text("#score-table")
    # the log numbers turns as the review cites them
    assert page.locator("#log li .turn").first.inner_text().startswith("Turn ")
    _post(page, "review", lambda: page.click("#b-review"), timeout=600_000)
    assert page.locator("#review [data-testid=review-table] tr").count() >= 2
    assert "points only" in page.inner_text("#review")  # this server offers no game chance
    page.screenshot(path=str(shots / f"{name}-end.png"), full_page=True)
    return undone, drew


def test_a_hand_by_clicks_and_one_by_keys(server, browser, tmp_path):
    app, url = server
    shots = Path(SHOTS_ENV) if SHOTS_ENV else tmp_path / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    undone = []
    for name, act, seed in (("clicks", _click_action, "21"), ("keys", _key_action, "8")):
        page, errors = _new_page(browser, url)
        assert page.input_value("#partner") == BOT  # the server's default bot is preselected
        page.fill("#seed", seed)
        _post(page, "new", lambda page=page: page.click("#start"))
        page.wait_for_selector("#hand .card")
        assert "tournament" in page.inner_text("#rules-shown")
        undone.append(_play(app, page, act, shots, f"desktop-1280-{name}"))
        table = _table(app, page)
        g = table.game

        # the record downloaded, then replayed on the page
        with page.expect_download() as dl:
            page.click("#b-record")
        path = tmp_path / f"hand-{name}.json"
        dl.value.save_as(path)
        rec = json.loads(path.read_text())
        assert R.replay(rec)[0].scores() == g.scores()
        _post(
            page,
            "replay",
            lambda page=page, path=path: page.set_input_files("#replay-file", str(path)),
        )
        page.wait_for_selector("#replay-view:not([hidden])")
        assert "step 0 of" in page.inner_text("#r-where")
        page.click("#r-next")
        assert "step 1 of" in page.inner_text("#r-where")
        assert "P" in page.inner_text("#r-move")
        assert errors == [], errors  # no script error, nothing the CSP refused
        page.close()
    assert any(u for u, _ in undone), "no meld was undone in either hand"
    assert any(d for _, d in undone), "no stock draw in either hand"

    # the phone width: the same table, narrow; the hand and the buttons on the first screen
    phone, errors = _new_page(browser, url, 390, 844, is_mobile=True)
    phone.fill("#seed", "5")
    _post(phone, "new", lambda: phone.click("#start"))
    phone.wait_for_selector("#hand .card")
    phone.screenshot(path=str(shots / "phone-390.png"))
    phone.screenshot(path=str(shots / "phone-390-full.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 392  # nothing wider than the screen
    for sel in ("#hand", "#you .buttons", "#b-hint", "#b-discard"):
        box = phone.locator(sel).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, (sel, box)
    assert errors == [], errors
    print(f"browser test: {time.perf_counter() - t0:.1f} s")


def test_an_uploaded_rules_name_is_text_not_html(server, browser):
    """An injection: a ruleset file named ``<img src=x onerror=…>.toml`` ran script
    on Hint. Now its name is shown as text, in the rules line and the hint, and nothing runs."""
    _, url = server
    page, errors = _new_page(browser, url)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    name = '<img src=x onerror="alert(document.cookie)">.toml'
    page.set_input_files(
        "#rules-file",
        files=[{"name": name, "mimeType": "text/plain", "buffer": b"rule_of_five = false\n"}],
    )
    page.fill("#seed", "21")
    _post(page, "new", lambda: page.click("#start"))
    page.wait_for_selector("#hand .card")
    assert name in page.inner_text("#rules-shown")
    _post(page, "hint", lambda: page.click("#b-hint"), timeout=600_000)
    assert name in page.inner_text("#hint")
    assert page.locator("img").count() == 0
    assert dialogs == [] and errors == []
    page.close()
