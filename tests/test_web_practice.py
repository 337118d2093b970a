"""The openings practice in a real browser: Debian's chromium driven by Playwright, against ``tavli serve``
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
from tavli.server.coach.openings_view import practice_json
from tests.test_web_browser import PHONE, SCREENSHOTS, board_shows_position, english_words


def practising(page: Page, game: str, roll: str, answered: bool = False) -> dict[str, object]:
    page.wait_for_function("([g, r, a]) => window.tavliPractice && window.tavliPractice.game === g && "
                           "window.tavliPractice.roll === r && window.tavliPractice.answered === a",
                           arg=[game, roll, answered], timeout=30_000)
    shown: dict[str, object] = page.evaluate("window.tavliPractice")
    return shown


def move(page: Page, *steps: tuple[int, int]) -> None:
    for src, dst in steps:
        page.click(f"[data-point='{src}']")
        page.click(f"[data-point='{dst}']")


@pytest.mark.slow
def test_practising_the_openings(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(shared_server.url + "/")
        page.click("[data-testid=practice-link]")
        page.wait_for_function("window.tavliPractice && window.tavliPractice.game === 'portes'")
        first = str(page.evaluate("window.tavliPractice.roll"))
        assert re.fullmatch(r"[1-6]-[1-6]", first) and first[0] >= first[2]  # a random roll, higher die first
        assert page.url.endswith(f"/practice#portes/{first}")
        # 3-1: a step, taken back, then the best play, confirmed
        page.goto(shared_server.url + "/practice#portes/3-1")
        practising(page, "portes", "3-1")
        start = Position.start("portes")
        board_shows_position(page, start)
        expect(page.locator("[data-testid=status]")).to_have_text(
            "Play 3-1 on the board: pick up a checker, then choose where it goes.")
        move(page, (8, 5))
        expect(page.locator("[data-testid=confirm]")).to_be_hidden()
        page.click("[data-testid=undo]")
        board_shows_position(page, start)
        move(page, (8, 5), (6, 5))
        expect(page.locator("[data-testid=status]")).to_have_text("Confirm 8/5 6/5?")
        page.click("[data-testid=confirm]")
        assert practising(page, "portes", "3-1", True) == {"game": "portes", "roll": "3-1", "play": "8/5 6/5",
                                                            "answered": True, "loss": 0}
        expect(page.locator("[data-testid=verdict]")).to_have_text("8/5 6/5: The best play.")
        expect(page.locator("[data-testid=switch]")).to_be_hidden()
        expect(page.locator("[data-testid=in-tables]")).to_have_attribute("href", "/openings#portes/3-1/0")
        expect(page.locator("[data-testid=tally]")).to_have_text("Portes: 1 played, 1 best, 0.000 points given up "
                                                                 "(0.000 a roll).")
        # 6-1 played badly: what it gives up, the best drawn on request
        quiz = practice_json("portes", "6-1")
        k = quiz["legal"]["plays"].index("8/2 6/5")
        loss = quiz["losses"][k]
        page.goto(shared_server.url + "/practice#portes/6-1")
        practising(page, "portes", "6-1")
        move(page, (8, 2), (6, 5))
        page.keyboard.press("Enter")
        assert practising(page, "portes", "6-1", True)["loss"] == loss
        expect(page.locator("[data-testid=verdict]")).to_have_text(
            f"8/2 6/5: A {quiz['skills'][k]}: {loss:.3f} points lost. The best: {quiz['best']['play']}.")
        expect(page.locator("[data-testid=verdict]")).to_have_class(f"verdict {quiz['skills'][k]}")
        board_shows_position(page, start.play("8/2 6/5", Dice(6, 1)))
        page.click("[data-testid=switch]")
        board_shows_position(page, start.play(quiz["best"]["play"], Dice(6, 1)))
        expect(page.locator("[data-testid=switch]")).to_have_text("Show mine")
        expect(page.locator("[data-testid=tally]")).to_have_text(
            f"Portes: 2 played, 1 best, {loss:.3f} points given up ({loss / 2:.3f} a roll).")
        page.screenshot(path=str(SCREENSHOTS / "practice-1366x768.png"), animations="disabled")
        # the same roll again, and this time the best play
        page.click("[data-testid=again]")
        practising(page, "portes", "6-1")
        board_shows_position(page, start)
        move(page, *[(src, dst) for src, dst, _ in quiz["best"]["steps"]])
        page.click("[data-testid=confirm]")
        practising(page, "portes", "6-1", True)
        expect(page.locator("[data-testid=verdict]")).to_have_text(f"{quiz['best']['play']}: The best play.")
        expect(page.locator("[data-testid=again]")).to_be_hidden()
        expect(page.locator("[data-testid=tally]")).to_have_text(
            f"Portes: 3 played, 2 best, {loss:.3f} points given up ({loss / 3:.3f} a roll).")
        expect(page.locator("[data-testid=missed]")).to_have_text("")  # played best at last
        # a roll missed is kept, and dealt again on request until it is played best
        legal = start.legal_plays(Dice(3, 2))
        losses = practice_json("portes", "3-2")["losses"]
        worst = legal[max(range(len(legal)), key=lambda i: losses[i])]
        page.goto(shared_server.url + "/practice#portes/3-2")
        practising(page, "portes", "3-2")
        move(page, *[(step.src, step.dst) for step in worst.steps])
        page.click("[data-testid=confirm]")
        practising(page, "portes", "3-2", True)
        expect(page.locator("[data-testid=missed]")).to_have_text("To practise again (1): 3-2.")
        page.check("[data-testid=missed-only]")
        page.click("[data-testid=next]")
        practising(page, "portes", "3-2")
        # the count is kept per game and can start again
        page.click("[data-testid=games] [data-game=fevga]")
        page.wait_for_function("window.tavliPractice.game === 'fevga' && !window.tavliPractice.answered")
        expect(page.locator("[data-testid=tally]")).to_have_text("Fevga: no rolls played yet.")
        page.click("[data-testid=games] [data-game=portes]")
        expect(page.locator("[data-testid=tally]")).to_contain_text("Portes: 4 played")
        page.click("[data-testid=reset]")
        expect(page.locator("[data-testid=tally]")).to_have_text("Portes: no rolls played yet.")
        # a count saved that is not one counts as nothing
        for saved in ["not json", '{"portes": "x", "fevga": {"played": 1}}', '{"portes": {"played": 1, "best": 0, '
                      '"lost": 0.5, "missed": ["9-9", 3]}}']:
            page.evaluate("text => localStorage.setItem('tavli:practice', text)", saved)
            page.reload()  # the page reads the count when it opens
            page.wait_for_function("window.tavliPractice && window.tavliPractice.game === 'portes'")
            if "missed" in saved:
                expect(page.locator("[data-testid=tally]")).to_contain_text("Portes: 1 played, 0 best, 0.500")
                expect(page.locator("[data-testid=missed-choice]")).to_be_hidden()  # no roll in it
            else:
                expect(page.locator("[data-testid=tally]")).to_have_text("Portes: no rolls played yet.")
        # a roll that is not one: the page says so
        page.goto(shared_server.url + "/practice#portes/9-9")
        expect(page.locator("[data-testid=bad-link]")).to_be_visible()
        # from the openings page, the game shown
        page.goto(shared_server.url + "/openings#plakoto/6-5/0")
        expect(page.locator("[data-testid=practice-link]")).to_have_attribute("href", "/practice#plakoto")
        assert errors == []
    finally:
        ctx.close()


def test_practising_on_a_phone_in_greek(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(**PHONE, locale="el-GR")
    try:
        page = ctx.new_page()
        # Plakoto's 5-5: the checkers moved on the board by taps
        page.goto(shared_server.url + "/practice#plakoto/5-5")
        practising(page, "plakoto", "5-5")
        assert english_words(page) == set()
        quiz = practice_json("plakoto", "5-5")
        for _ in range(4):
            page.locator(".point.source").first.tap()
            page.locator(".point.target").first.tap()
        played = str(practising(page, "plakoto", "5-5")["play"])
        assert played in quiz["legal"]["plays"]
        page.click("[data-testid=confirm]")
        practising(page, "plakoto", "5-5", True)
        k = quiz["legal"]["plays"].index(played)
        expect(page.locator("[data-testid=verdict]")).to_contain_text(played)
        if k == quiz["best"]["index"]:
            expect(page.locator("[data-testid=verdict]")).to_contain_text("Η καλύτερη κίνηση.")
        else:
            expect(page.locator("[data-testid=verdict]")).to_contain_text(f"Η καλύτερη: {quiz['best']['play']}.")
        assert english_words(page) == set()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SCREENSHOTS / "practice-390x844.png"), full_page=True, animations="disabled")
    finally:
        ctx.close()
