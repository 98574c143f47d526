"""The review in a real browser (Playwright driving Debian's Chromium, headless): a short game
(an uploaded ruleset with target 2,500: two hands from seed 4) played to its end, the review
of its first hand opened when that hand ends, then the game's review when the game ends; each
shows its summary (the error rate), the table of decisions and the figure of the chance of
winning, drawn by the page from the numbers (SVG), with no console error. The moves are
played on the server (the clicks themselves are tests/test_web_browser.py's); the reviews run
at tiny sizes in a thread pool, the game chances come from a made-up equity table."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")
sync_api = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")

import tests.test_web_browser as W  # noqa: E402
from canasta.web.app import create_app  # noqa: E402
from canasta.web.pool import AdvicePool  # noqa: E402
from tests.test_web_review import RULES, FixedChance  # noqa: E402

browser = W.browser
BOT, _new_page, _post, _table = W.BOT, W._new_page, W._post, W._table
SHOTS_ENV = os.environ.get("CANASTA_SCREENSHOTS")

pytestmark = W.pytestmark


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app(
        state_dir=tmp_path_factory.mktemp("tables"),
        default_bot=BOT,
        warm=False,
        review_budget=0.02,
        review_n=4,
        pool=AdvicePool(executor=ThreadPoolExecutor(1)),
        chance=FixedChance(2500),
    )
    yield from W.served(app)


def _finish_hand(app, page) -> None:
    """The human's seat played to the hand's end by the bot, on the server; the page reloaded."""
    W.finish_by_bot(app, _table(app, page), page)


def _check_review(page, hands: int) -> None:
    expect = sync_api.expect
    box = page.locator("#review")
    expect(box.locator("[data-testid=review-table]")).to_be_visible()
    rows = box.locator("[data-testid=review-table] tr")
    assert rows.count() >= 3  # the header and at least two decisions
    assert rows.first.inner_text().split("\t")[:3] == ["hand", "turn", "decision"]
    summary = page.inner_text("[data-testid=review-summary]")
    assert "error rate" in summary and "Luck of your" in summary and "short" in summary
    fig = box.locator("svg[data-testid=review-figure]")
    expect(fig).to_be_visible()
    assert fig.locator("polyline").count() == 1
    assert fig.locator("circle").count() == rows.count() - 1  # a dot a decision
    assert fig.locator("line[stroke-dasharray]").count() == hands - 1  # a line a new hand
    box_size = fig.bounding_box()
    assert box_size is not None and box_size["width"] > 200 and box_size["height"] > 50


def test_the_review_of_a_hand_and_of_the_game(server, browser, tmp_path):
    app, url = server
    shots = Path(SHOTS_ENV) if SHOTS_ENV else tmp_path / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page, errors = _new_page(browser, url)
    page.select_option("#mode", "game")
    page.set_input_files(
        "#rules-file",
        files=[{"name": "short.toml", "mimeType": "text/plain", "buffer": RULES.encode()}],
    )
    page.fill("#seed", "4")
    _post(page, "new", lambda: page.click("#start"))
    page.wait_for_selector("#hand .card")
    _finish_hand(app, page)
    assert page.locator("#b-review-game").is_hidden()  # the game goes on
    _post(page, "review", lambda: page.click("#b-review"), timeout=120_000)
    _check_review(page, 1)
    assert "Review of hand 1" in page.inner_text("#review")
    page.screenshot(path=str(shots / "review-hand.png"), full_page=True)
    _post(page, "next", lambda: page.click("#b-next"))
    page.wait_for_selector("#hand .card")
    _finish_hand(app, page)
    table = _table(app, page)
    assert table.finished() and len(table.hands) == 2
    assert page.locator("#b-review-game").is_visible()
    _post(page, "review", lambda: page.click("#b-review-game"), timeout=120_000)
    _check_review(page, 2)
    assert "Review of the game (2 hands)" in page.inner_text("#review")
    page.screenshot(path=str(shots / "review-game.png"), full_page=True)
    assert errors == [], errors
    page.close()
