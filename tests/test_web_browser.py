"""The web table in a real browser (issue 35): Playwright driving Debian's Chromium, headless.
One hand is played by clicks to its score: a move refused with its rule ID, a hint shown with
its sentence of why, an undo, then the record downloaded and replayed on the page. Screenshots
at desktop (1280 px) and phone (390 px) widths go to $CANASTA_SCREENSHOTS (else a temporary
directory; looked at by hand, not compared). Bots are ``heuristic`` here for speed (the default
is strong)."""

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
from sim import encoding as E  # noqa: E402
from sim import record as R  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: where the screenshots go: $CANASTA_SCREENSHOTS, else the test's temporary directory
SHOTS_ENV = os.environ.get("CANASTA_SCREENSHOTS")
BOT = "heuristic"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(state_dir=tmp_path_factory.mktemp("tables"), default_bot=BOT, warm=False)
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
    page.wait_for_function(
        f"Number(document.body.dataset.answered || 0) > {before}", timeout=timeout
    )
    return resp.value


def _click_action(page, a: int) -> None:
    """The clicks a player makes for the engine action ``a``."""
    kind, slot, nat, two, joker = (int(x) for x in E.ACTION_TABLE[a])
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
    if kind == E.AT_DISCARD:
        cards = [E.KIND_NAMES[slot]]
    else:
        cards = [E.KIND_NAMES[slot]] * (nat if slot != E.WILD_MELD else 0)
        cards += ["2"] * two + ["JK"] * joker
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


def test_a_hand_by_clicks(server, browser, tmp_path):
    app, url = server
    shots = Path(SHOTS_ENV) if SHOTS_ENV else tmp_path / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url)
    page.wait_for_selector("#start:enabled")
    assert page.input_value("#partner") == BOT  # the server's default bot is preselected
    page.fill("#seed", "21")
    _post(page, "new", lambda: page.click("#start"))
    page.wait_for_selector("#hand .card")
    table = _table(app, page)
    assert "tournament" in page.inner_text("#rules-shown")

    # a refused move: the pile after drawing (TURN-1), nothing lost
    hand_before = page.locator("#hand .card").count()
    assert page.is_disabled("#b-pile")  # the page offers only what the phase allows...
    page.evaluate("document.getElementById('b-pile').disabled = false")  # ...so force it
    _post(page, "move", lambda: page.click("#b-pile"))
    expect = sync_api.expect  # retries until the page has drawn the answer
    expect(page.locator("#message")).to_contain_text("TURN-1")
    assert "Not allowed" in page.inner_text("#message")
    assert page.locator("#hand .card").count() == hand_before

    # a hint with its sentence of why
    # (a cold numba cache compiles the hint's simulation first: minutes, not the hint's seconds)
    _post(page, "hint", lambda: page.click("#b-hint"), timeout=600_000)
    page.wait_for_selector("[data-testid=hint-why]")
    why = page.inner_text("[data-testid=hint-why]")
    assert why.startswith("Why: ") and "points" in why
    assert page.locator("#hint table tr").count() >= 2
    page.screenshot(path=str(shots / "desktop-1280-hint.png"), full_page=True)

    # undo: one move, then back to the same hand
    before = page.inner_text("#hand")
    _click_action(page, table.game.policy_action(BOT))
    _post(page, "undo", lambda: page.click("#b-undo"))
    expect(page.locator("#hand")).to_have_text(before)

    moves = 0
    while not table.game.is_over:
        assert table.game.current_player == table.seat
        _click_action(page, table.game.policy_action(BOT))
        table = _table(app, page)
        moves += 1
        assert moves < 300
    page.wait_for_selector("#end:not([hidden])")
    assert "total" in page.inner_text("#score-table")
    g = table.game
    total = g.scores()[0]["total"]
    assert str(total) in page.inner_text("#score-table")
    page.screenshot(path=str(shots / "desktop-1280-end.png"), full_page=True)

    # the record downloaded, then replayed on the page
    with page.expect_download() as dl:
        page.click("#b-record")
    path = tmp_path / "hand.json"
    dl.value.save_as(path)
    rec = json.loads(path.read_text())
    assert R.replay(rec)[0].scores() == g.scores()
    _post(page, "replay", lambda: page.set_input_files("#replay-file", str(path)))
    page.wait_for_selector("#replay-view:not([hidden])")
    assert "step 0 of" in page.inner_text("#r-where")
    page.click("#r-next")
    assert "step 1 of" in page.inner_text("#r-where")
    assert "P" in page.inner_text("#r-move")

    # the phone width: the same table, narrow
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(url)
    phone.wait_for_selector("#start:enabled")
    phone.fill("#seed", "5")
    _post(phone, "new", lambda: phone.click("#start"))
    phone.wait_for_selector("#hand .card")
    phone.screenshot(path=str(shots / "phone-390.png"), full_page=True)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 392  # nothing wider than the screen
    print(f"browser test: {time.perf_counter() - t0:.1f} s")
