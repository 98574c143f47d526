"""The club player's controls in a real browser (Playwright driving Debian's Chromium,
headless, as tests/test_web_browser.py): the running score shown and each row explained with
its rules (SCORE-*), the bots' turns shown one by one in play order and skippable, leaving a
hand or a game, and a question before "New table" throws a game in progress away; no console
error under the Content-Security-Policy in any of them. Screenshots go to
$CANASTA_SCREENSHOTS (else the test's temporary directory; looked at by hand)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")

import tests.test_web_browser as W  # noqa: E402

# the browser tests' harness: the server (heuristic bots, a temporary state), the browser
server, browser = W.server, W.browser
BOT, _click_action, _new_page, _post, _table = (
    W.BOT,
    W._click_action,
    W._new_page,
    W._post,
    W._table,
)

SHOTS_ENV = os.environ.get("CANASTA_SCREENSHOTS")


def _shots(tmp_path) -> Path:
    shots = Path(SHOTS_ENV) if SHOTS_ENV else tmp_path / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def _deal(page, seed: str, mode: str = "hand") -> None:
    page.select_option("#mode", mode)
    page.fill("#seed", seed)
    _post(page, "new", lambda: page.click("#start"))
    page.wait_for_selector("#hand .card")


def test_score_1_to_8_running_score_shown_and_each_row_explained(server, browser, tmp_path):
    """SCORE-1..8: the running score is on the page from the deal, each row with the rules it
    follows, your own hand beside it; once something is on the table its rows appear; at the
    hand's end every row of the final score carries its explanation."""
    app, url = server
    expect = sync_api.expect
    page, errors = _new_page(browser, url)
    _deal(page, "21")
    expect(page.locator("#running")).to_be_visible()
    assert "This hand so far" in page.inner_text("#running-line")
    assert "SCORE-5" in page.inner_text("#running-hand")
    table = _table(app, page)
    for _ in range(300):  # play on until a row other than the total is shown
        if page.locator("#running-table tr[data-item]:not([data-item=total])").count():
            break
        _click_action(page, table.game.policy_action(BOT))
        table = _table(app, page)
        assert not table.game.is_over
    rows = page.locator("#running-table tr[data-item]:not([data-item=total])")
    assert rows.count() >= 1
    for i in range(rows.count()):
        why = rows.nth(i).locator("td.why").inner_text()
        assert "SCORE-" in why or "OUT-" in why, why
    total = page.locator("#running-table tr[data-item=total]").inner_text()
    v = table.view()["running"]["rows"][-1]
    assert f"{abs(v['you']):,}" in total
    page.screenshot(path=str(_shots(tmp_path) / "club-running-score.png"), full_page=True)
    while not table.game.is_over:
        _click_action(page, table.game.policy_action(BOT))
        table = _table(app, page)
    page.wait_for_selector("#end:not([hidden])")
    assert page.locator("#running").is_hidden()
    for row in page.locator("#score-table tr[data-item]:not([data-item=total])").all():
        assert "SCORE-" in row.inner_text() or "OUT-" in row.inner_text()
    assert errors == [], errors
    page.close()


def test_the_bots_turns_are_shown_one_by_one_and_can_be_skipped(server, browser):
    """TURN-1, DEAL-1: after your move the bots' turns appear one at a time, in play order
    (left, partner, right), the status naming whose turn is shown; S skips to the table as it
    is now, with its buttons back."""
    app, url = server
    page, errors = _new_page(browser, url, pace="650")
    _deal(page, "21")
    table = _table(app, page)
    seen_many = False
    for _ in range(60):
        if table.game.is_over:
            break
        a = table.game.policy_action(BOT)
        before = page.evaluate("Number(document.body.dataset.answered || 0)")
        _click_action_nowait(page, a)
        counts = set()
        deadline = time.monotonic() + 60
        while page.evaluate("Number(document.body.dataset.answered || 0)") <= before:
            counts.add(page.locator("#turns li").count())
            assert time.monotonic() < deadline
            time.sleep(0.05)
        table = _table(app, page)
        frames = table.view()["bot_turns"]
        if len(frames) >= 3 and table.mark and max(counts) == len(frames):
            assert 1 in counts, counts  # not all at once
            seen_many = True
            break
    assert seen_many, "no move was followed by three bots' turns"
    seats = [f["seat"] for f in frames]
    left = (table.seat + 1) % 4
    assert seats[:3] == [left, (left + 1) % 4, (left + 2) % 4]
    # the next move's turns skipped at once with S
    for _ in range(60):
        a = table.game.policy_action(BOT)
        before = page.evaluate("Number(document.body.dataset.answered || 0)")
        _click_action_nowait(page, a)
        deadline = time.monotonic() + 60
        skipped = False
        while page.evaluate("Number(document.body.dataset.answered || 0)") <= before:
            if not skipped and page.locator("#b-skip:not([hidden])").count():
                assert "played (turn" in page.inner_text("#status")
                page.keyboard.press("s")
                skipped = True
            assert time.monotonic() < deadline
            time.sleep(0.02)
        table = _table(app, page)
        if skipped:
            break
    assert skipped
    assert page.locator("#turns").is_hidden() and page.locator("#b-skip").is_hidden()
    assert "played (turn" not in page.inner_text("#status")  # the table as it is now
    if not table.game.is_over:
        assert page.locator("#status.you").count() == 1 and page.is_enabled("#b-hint")
    assert errors == [], errors
    page.close()


def _click_action_nowait(page, a: int) -> None:
    """``_click_action`` without waiting for the page to draw the answer (its bots' turns
    are then watched as they are shown)."""
    from sim import encoding as E

    kind = int(E.ACTION_TABLE[a, E.AC_TYPE])
    if kind in (E.AT_DRAW, E.AT_TAKE_PILE, E.AT_LAY_THREES):
        sel = {E.AT_DRAW: "#b-draw", E.AT_TAKE_PILE: "#b-pile", E.AT_LAY_THREES: "#b-lay"}[kind]
        page.click(sel)
        return
    if kind == E.AT_DISCARD:
        card = E.KIND_NAMES[int(E.ACTION_TABLE[a, E.AC_SLOT])]
        page.locator(f'#hand .card[data-card="{card}"]:not(.sel)').first.click()
        page.click("#b-discard")
        return
    # anything else: the ordinary clicks, drawn before the next step
    _click_action(page, a)


def test_leaving_a_game_asks_first_then_ends_the_table(server, browser, tmp_path):
    app, url = server
    page, errors = _new_page(browser, url)
    _deal(page, "4", mode="game")
    assert page.inner_text("#b-leave") == "Leave the game"
    page.click("#b-leave")
    page.wait_for_selector("#confirm:not([hidden])")
    assert "abandoned" in page.inner_text("#confirm-text")
    page.screenshot(path=str(_shots(tmp_path) / "club-leave-confirm.png"), full_page=True)
    page.click("#confirm-no")  # no: the game goes on
    assert page.locator("#confirm").is_hidden() and page.locator("#table").is_visible()
    assert _table(app, page) is not None
    page.click("#b-leave")
    cookie = next(c for c in page.context.cookies() if c["name"] == "canasta_table")["value"]
    _post(page, "leave", lambda: page.click("#confirm-yes"))
    assert page.locator("#setup").is_visible() and page.locator("#table").is_hidden()
    assert "abandoned" in page.inner_text("#setup-note")
    assert not [c for c in page.context.cookies() if c["name"] == "canasta_table"]
    assert app.state.tables.get(cookie) is None  # gone from the server
    _deal(page, "5")  # and a new one deals
    assert page.inner_text("#b-leave") == "Leave the hand"
    assert errors == [], errors
    page.close()


def test_new_table_asks_before_throwing_a_game_away(server, browser):
    """GAME-1: between hands of a game the game is still in progress: New table asks first;
    No keeps it, Back returns to it; a finished single hand is left without a question."""
    app, url = server
    page, errors = _new_page(browser, url)
    _deal(page, "4", mode="game")
    table = _table(app, page)
    first_id = table.id
    W.finish_by_bot(app, table, page)  # the hand played to its end on the server
    page.click("#b-new")
    page.wait_for_selector("#confirm:not([hidden])")
    assert "thrown away" in page.inner_text("#confirm-text")
    assert "game in progress" in page.inner_text("#confirm-text")
    page.click("#confirm-no")
    assert page.locator("#table").is_visible() and page.locator("#setup").is_hidden()
    page.click("#b-new")
    page.click("#confirm-yes")
    assert page.locator("#setup").is_visible() and page.locator("#b-back").is_visible()
    page.click("#b-back")  # changed one's mind: the same table
    assert page.locator("#table").is_visible()
    assert _table(app, page).id == first_id
    page.click("#b-new")
    page.click("#confirm-yes")
    _deal(page, "3")  # a single hand replaces the game
    assert _table(app, page).id != first_id
    W.finish_by_bot(app, _table(app, page), page)
    page.click("#b-new")  # a finished single hand: nothing to throw away, no question
    assert page.locator("#confirm").is_hidden() and page.locator("#setup").is_visible()
    assert errors == [], errors
    page.close()
