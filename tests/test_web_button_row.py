"""The board page's row of buttons (Abort, Resign…, the coach's hint, Undo and the slot of Roll and
Confirm) in a real browser (Debian's chromium, Playwright, ``tavli serve``), on a phone upright
(390×844, and a narrower 360×740) and held sideways (844×390) and on a laptop (1366×768), in
English and Greek: while the player rolls and moves, and on the match-over card, every button shown
lies whole on the screen and none over another; the board and the buttons to move are on the first
screen; the button to roll or to confirm stays big. Each state is photographed under
artifacts/screenshots/ (``buttons-*``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, FloatRect, Page, ViewportSize, expect

from tests.browser_screens import SHOTS, new_page

DEVICES = {"phone": [(390, 844), (360, 740), (844, 390)], "laptop": [(1366, 768)]}
"""The sizes of each device: a phone upright (and a narrower one), then turned sideways; a laptop."""
ROW = ".buttons > button, .buttons > .main-slot > button"
"""The row's buttons: the quiet ones, Undo, and whichever of the main slot is shown."""
CARD = "#match-over .row > button, #match-over .row > a"
"""The match-over card's buttons: a rematch, the review, a new match, the board."""
PRIMARY = ("roll", "confirm")


def state(page: Page) -> dict[str, Any]:
    """The page's last state of the match, as the server sent it."""
    return dict(page.evaluate("window.tavliState"))


def player_page(browser: Browser, made: list[BrowserContext], lang: str, width: int, height: int) -> Page:
    """A new page of a player who reads ``lang``, on a touch screen where it is a phone's size."""
    return new_page(browser, made, lang, width, height, timeout=30_000)


def shown_boxes(page: Page, selector: str) -> dict[str, FloatRect]:
    """The boxes of the buttons ``selector`` finds that are shown, by test id (or text), on the
    first screen: the page scrolled back to its top left corner."""
    page.evaluate("window.scrollTo(0, 0)")
    boxes: dict[str, FloatRect] = {}
    for button in page.locator(selector).all():
        box = button.bounding_box()
        if button.is_visible() and box is not None:
            boxes[button.get_attribute("data-testid") or button.inner_text()] = box
    return boxes


def inside(box: FloatRect, size: ViewportSize) -> bool:
    """Whether ``box`` lies whole on the screen of ``size``."""
    return box["x"] >= -0.5 and box["y"] >= -0.5 and box["x"] + box["width"] <= size["width"] + 0.5 \
        and box["y"] + box["height"] <= size["height"] + 0.5


def overlap(a: FloatRect, b: FloatRect) -> bool:
    """Whether two boxes share more than a rounding's width."""
    across = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    down = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return across > 0.5 and down > 0.5


def check_buttons(page: Page, selector: str, where: str, expected: tuple[str, ...] = ()) -> dict[str, FloatRect]:
    """Every button ``selector`` finds that is shown lies whole on the first screen, none over
    another, nothing scrolls sideways, and the ``expected`` ones are among them."""
    size = page.viewport_size
    assert size is not None
    boxes = shown_boxes(page, selector)
    assert set(expected) <= set(boxes), (where, sorted(boxes))
    for name, box in boxes.items():
        assert inside(box, size), (where, name, box, size)
    for (one, a), (two, b) in combinations(boxes.items(), 2):
        assert not overlap(a, b), (where, one, a, two, b)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), where
    return boxes


def check_row(page: Page, where: str, expected: tuple[str, ...]) -> None:
    """The row of buttons as ``check_buttons`` wants it, and the board over it on the first screen;
    on a phone a finger hits every button (40 px tall or more) and the primary one is the widest."""
    size = page.viewport_size
    assert size is not None
    boxes = check_buttons(page, ROW, where, expected)
    board = page.locator("#board").bounding_box()
    assert board is not None and inside(board, size), (where, board)
    if min(size["width"], size["height"]) < 500:
        for name, box in boxes.items():
            assert box["height"] >= 40, (where, name, box)
        primary = [boxes[name] for name in PRIMARY if name in boxes]
        for name, box in boxes.items():
            assert all(main["width"] >= box["width"] for main in primary), (where, name, box, primary)


def shoot(page: Page, name: str) -> None:
    """The first screen as the player sees it, kept to be looked at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"buttons-{name}.png"), animations="disabled")


def step(page: Page) -> None:
    """One checker moved by clicks: a checker that may move, then where it goes."""
    if page.locator(".point.selected").count() == 0:
        page.locator(".point.source").first.click()
    page.locator(".point.target").first.click()


def turned(page: Page, width: int, height: int) -> None:
    """The page at ``width`` × ``height`` (a phone turned), once it has laid the board out anew."""
    if page.viewport_size != {"width": width, "height": height}:
        page.set_viewport_size({"width": width, "height": height})
    upright = "true" if width < 700 and height > width * 1.1 else "false"  # board.js's portraitScreen
    page.wait_for_function(f"innerWidth === {width} && innerHeight === {height}"
                           f" && document.body.classList.contains('portrait') === {upright}")
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def at_each_size(page: Page, sizes: list[tuple[int, int]], lang: str, where: str,
                 check: Callable[[str], object], shot: bool = False) -> None:
    """``check`` (told where it is) at each of ``sizes`` in turn (``shot``: photographed there)."""
    for width, height in sizes:
        turned(page, width, height)
        name = f"{where}-{width}x{height}-{lang}"
        if shot:  # before the checks: a failure's picture is kept too
            shoot(page, name)
        check(name)


@pytest.mark.parametrize("lang", ["el", "en"])
@pytest.mark.parametrize("device", ["phone", "laptop"])
def test_the_button_row_fits_the_screen(shared_server: Server, browser: Browser, contexts: list[BrowserContext],
                                        device: str, lang: str) -> None:
    sizes = DEVICES[device]
    # a 1-point match against a bot, with the coach (a bot's match has it): every button of the row
    links = shared_server.post("/api/matches", {"opponent": "beginner", "length": 1, "games": "portes"})
    page = player_page(browser, contexts, lang, *sizes[0])
    page.goto(shared_server.url + links["play"])
    page.wait_for_function("(s => s && (s.can_roll || s.can_play))(window.tavliState)", timeout=60_000)
    if state(page)["can_roll"]:  # the player rolls first (else the bot has, and the dice are his now)
        at_each_size(page, sizes, lang, "rolling", lambda where: check_row(page, where, ("abort", "resign", "roll")))
        page.get_by_test_id("roll").click()
        page.wait_for_function("window.tavliState.can_play", timeout=60_000)
    step(page)
    expect(page.get_by_test_id("undo")).to_be_visible()  # the slot of Confirm kept, still empty
    at_each_size(page, sizes, lang, "stepped",
                 lambda where: check_row(page, where, ("abort", "resign", "hint", "undo")))
    for _ in range(4):  # the rest of the move, until it can be confirmed
        if page.get_by_test_id("confirm").is_visible():
            break
        step(page)
    expect(page.get_by_test_id("confirm")).to_be_visible()
    at_each_size(page, sizes, lang, "moving",
                 lambda where: check_row(page, where, ("abort", "resign", "hint", "undo", "confirm")), shot=True)
    # the match resigned: the match-over card's buttons
    page.get_by_test_id("resign").click()
    page.get_by_test_id("resign-match").click()
    page.get_by_test_id("resign-match-yes").click()
    expect(page.get_by_test_id("match-over")).to_be_visible()
    at_each_size(page, sizes, lang, "match-over",
                 lambda where: check_buttons(page, CARD, where, ("rematch", "review-link", "see-board")), shot=True)
