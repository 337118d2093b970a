"""The openings page in a real browser: Debian's chromium driven by Playwright, against ``tavli serve``
(the launch of tests/test_web_browser.py)."""

from __future__ import annotations

import os
import re

import pytest

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect
from serve_process import Server

from tavli import Dice, Position
from tavli.study.openings import OPENING_ROLLS, shipped
from tests.test_web_browser import PHONE, SCREENSHOTS, board_shows_position, english_words


def shown(page: Page, game: str, roll: str, play: str) -> None:
    page.wait_for_function("([g, r, p]) => window.tavliOpenings && window.tavliOpenings.game === g && "
                           "window.tavliOpenings.roll === r && window.tavliOpenings.play === p", arg=[game, roll, play])


@pytest.mark.slow
def test_the_openings_page(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(shared_server.url + "/")
        page.click("[data-testid=openings-link]")
        shown(page, "portes", "1-1", shipped().summary("portes", Dice(1, 1))[0].play)
        expect(page).to_have_url(re.compile(r"/openings#portes/1-1/0$"))
        rolls = page.locator("[data-testid=rolls] tbody tr")
        expect(rolls).to_have_count(21)
        for i, dice in enumerate(OPENING_ROLLS):  # each roll's best play, as the library ranks it
            expect(rolls.nth(i).locator("td").nth(1)).to_have_text(shipped().summary("portes", dice)[0].play)
        expect(page.locator("[data-testid=mean]")).to_contain_text(f"{shipped().mean('portes'):+.3f}")

        # another game keeps the roll; a row picks a roll, then a play
        page.click("[data-testid=games] button[data-game=plakoto]")
        plakoto = shipped().summary("plakoto", Dice(6, 5))
        shown(page, "plakoto", "1-1", shipped().summary("plakoto", Dice(1, 1))[0].play)
        rolls.nth(OPENING_ROLLS.index(Dice(6, 5))).click()
        shown(page, "plakoto", "6-5", plakoto[0].play)
        expect(page.locator("[data-testid=game-name]")).to_have_text("Plakoto")
        expect(page.locator("[data-testid=roll-title]")).to_have_text("Plakoto, 6-5: the starter's plays")
        expect(page.locator("[data-testid=plays] tbody tr")).to_have_count(len(plakoto))
        expect(page.locator("[data-testid=status]")).to_contain_text("the best by rollouts")
        page.locator("[data-testid=plays] tbody tr").nth(1).click()
        shown(page, "plakoto", "6-5", plakoto[1].play)
        second = plakoto[1]
        expect(page.locator("[data-testid=status]")).to_contain_text(
            f"{second.play}, −{abs(second.diff):.3f} ± {second.diff_ci95:.3f} against the best")
        expect(page.locator("[data-testid=plays] tbody tr.played")).to_have_count(1)
        board_shows_position(page, Position.start("plakoto").play(second.play, Dice(6, 5)))
        expect(page.locator("[data-die]")).to_have_count(2)
        expect(page).to_have_url(re.compile(r"#plakoto/6-5/1$"))

        # the keys: → the next roll, ↑ ↓ the plays; ▶ stops at the last roll
        page.keyboard.press("ArrowRight")
        shown(page, "plakoto", "6-6", shipped().summary("plakoto", Dice(6, 6))[0].play)
        expect(page.locator("[data-testid=forward]")).to_be_disabled()
        page.keyboard.press("ArrowDown")
        shown(page, "plakoto", "6-6", shipped().summary("plakoto", Dice(6, 6))[1].play)
        expect(page.locator("[data-die]")).to_have_count(4)  # doubles are drawn as four dice

        # an address opens what it names; one that names nothing known opens the first roll
        page.goto(shared_server.url + "/openings#fevga/5-5/1")
        shown(page, "fevga", "5-5", "24/4")
        expect(page.locator("[data-testid=status]")).to_contain_text("24/4")
        expect(page.locator("[data-testid=roll-note]")).to_contain_text("rollout trials per play")
        board_shows_position(page, Position.start("fevga").play("24/4", Dice(5, 5)))
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "openings-1366x768.png"), animations="disabled")
        page.goto(shared_server.url + "/openings#chess/9-9/x")
        shown(page, "portes", "1-1", shipped().summary("portes", Dice(1, 1))[0].play)
        page.goto(shared_server.url + "/openings#plakoto/3-1")
        page.reload()
        shown(page, "plakoto", "3-1", shipped().summary("plakoto", Dice(3, 1))[0].play)
        assert errors == []
    finally:
        ctx.close()


def test_the_openings_page_on_a_phone(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(**PHONE)
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/openings#fevga/5-5/1")
        shown(page, "fevga", "5-5", "24/4")
        # the board first, then the plays; the 2-ply column gives way, and nothing is wider than the screen
        board = page.locator("[data-testid=board]").bounding_box()
        plays = page.locator("[data-testid=plays]").bounding_box()
        assert board and plays and board["y"] + board["height"] <= plays["y"]
        expect(page.locator("[data-testid=plays] thead th").nth(3)).to_be_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.locator("[data-testid=rolls] tbody tr").nth(OPENING_ROLLS.index(Dice(6, 5))).tap()
        shown(page, "fevga", "6-5", "24/13")
        page.screenshot(path=str(SCREENSHOTS / "openings-390x844.png"), full_page=True, animations="disabled")
    finally:
        ctx.close()


def test_the_openings_page_in_greek(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="el-GR")
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/")
        expect(page.locator("[data-testid=openings-link]")).to_have_text("Ανοίγματα")
        assert english_words(page) == set()
        page.goto(shared_server.url + "/openings#plakoto/6-5/1")
        shown(page, "plakoto", "6-5", shipped().summary("plakoto", Dice(6, 5))[1].play)
        expect(page.locator("[data-testid=game-name]")).to_have_text("Πλακωτό")
        assert english_words(page) == set()
        page.select_option("[data-testid=lang]", "en")
        expect(page.locator("[data-testid=game-name]")).to_have_text("Plakoto")
        assert {"Openings", "Value"} <= english_words(page)
    finally:
        ctx.close()


def test_the_openings_page_says_when_the_tables_cannot_be_loaded(browser: Browser, shared_server: Server) -> None:
    page = browser.new_page()
    try:
        page.route("**/api/openings/**", lambda route: route.fulfill(status=500, body="{}"))
        page.goto(shared_server.url + "/openings")
        expect(page.locator("[data-testid=bad-link]")).to_be_visible()
        expect(page.locator("[data-testid=bad-link-text]")).to_have_text("The opening tables could not be loaded.")
    finally:
        page.close()
