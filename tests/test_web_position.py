"""The position page in a real browser: Debian's chromium driven by Playwright, against ``tavli serve``
(the launch of tests/test_web_browser.py)."""

from __future__ import annotations

import os
import re
from urllib.parse import urlencode

import pytest

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect
from serve_process import Server

from tavli import Dice, Position
from tavli.server.coach.position_analysis import position_json
from tests.test_web_browser import PHONE, SCREENSHOTS, board_shows_position, english_words

PLAKOTO = "plakoto 15b................1w1w....13w b 0:0 0:0"
# docs/match-equity.md, "Gammon-go: the trailer hits": Black to play 5-1, trailing 1-2 in a match to 3
GAMMON_GO = "portes 2w2w3w.2w3w3b..1b.2b2w1b..1w.4b.2b.2b. b 0:0 0:0"


def shown(page: Page, position: str, dice: str, play: str | None) -> None:
    page.wait_for_function("([p, d, k]) => window.tavliPosition && window.tavliPosition.position === p && "
                           "window.tavliPosition.dice === d && window.tavliPosition.play === k",
                           arg=[position, dice, play], timeout=30_000)


def board_after(page: Page, position: Position, play: str, dice: Dice) -> None:
    board_shows_position(page, position.play(play, dice))


@pytest.mark.slow
def test_the_position_page(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(shared_server.url + "/")
        page.click("[data-testid=position-link]")
        # with nothing asked, the start of Portes and 3-1 at 1 ply: every play, the best drawn
        start = Position.start("portes")
        expected = position_json(str(start), "31", 1)
        shown(page, str(start), "3-1", "8/5 6/5")
        rows = page.locator("[data-testid=plays] tbody tr")
        expect(rows).to_have_count(expected["legal"])
        expect(rows.first).to_have_class("played")
        expect(page.locator("[data-testid=plays-title]")).to_have_text("White to play 3-1")
        expect(page.locator("[data-testid=position-text]")).to_contain_text("4HPwATDgc/ABMA")
        expect(page.locator("[data-testid=opening-link]")).to_have_attribute("href", "/openings#portes/3-1/0")
        board_after(page, start, "8/5 6/5", Dice(3, 1))
        # the arrow keys and a click choose the play drawn, and the address keeps it
        page.keyboard.press("ArrowDown")
        second = expected["plays"][1]["play"]
        shown(page, str(start), "3-1", second)
        board_after(page, start, second, Dice(3, 1))
        behind = f"{expected['plays'][1]['loss']:.3f} points behind"
        expect(page.locator("[data-testid=status]")).to_contain_text(behind)
        rows.nth(4).click()
        shown(page, str(start), "3-1", expected["plays"][4]["play"])
        assert "play=4" in page.url
        # any position: Black to play in Plakoto, 2 plies deep, the board from his side
        page.fill("[data-testid=position]", PLAKOTO)
        page.fill("[data-testid=dice]", "46")
        page.select_option("[data-testid=depth]", "2")
        page.click("[data-testid=analyse]")
        plakoto = position_json(PLAKOTO, "64", 2)
        shown(page, PLAKOTO, "6-4", plakoto["plays"][0]["play"])
        expect(page.locator("[data-testid=game-name]")).to_have_text("Plakoto")
        expect(page.locator("[data-testid=opening-link]")).to_be_hidden()
        expect(page.locator("[data-testid=plays] tbody tr")).to_have_count(plakoto["legal"])
        expect(page.locator("[data-testid=plays] tbody tr").first.locator("td").nth(5)).to_have_text("2-ply")
        board_after(page, Position.from_string(PLAKOTO), plakoto["plays"][0]["play"], Dice(6, 4))
        page.screenshot(path=str(SCREENSHOTS / "position-1366x768.png"), animations="disabled")
        # at a match score: ranked for the match, with each play's chance of winning it
        page.fill("[data-testid=position]", GAMMON_GO)
        page.fill("[data-testid=dice]", "5-1")
        expect(page.locator("[data-testid=white]")).to_be_hidden()
        page.select_option("[data-testid=length]", "3")
        page.fill("[data-testid=white]", "2")
        page.fill("[data-testid=black]", "1")
        page.click("[data-testid=analyse]")
        shown(page, GAMMON_GO, "5-1", "13/8* 11/10")
        at_score = position_json(GAMMON_GO, "51", 2, length=3, white=2, black=1)
        cells = page.locator("[data-testid=plays] tbody tr").first.locator("td")
        expect(cells.nth(4)).to_have_text(f"{100 * at_score['plays'][0]['mwc']:.1f}%")
        expect(page.locator("[data-testid=chances]")).to_contain_text("In a match to 3 at 2–1 (game 1)")
        assert "length=3" in page.url and "white=2" in page.url
        page.screenshot(path=str(SCREENSHOTS / "position-match-1366x768.png"), animations="disabled")
        page.select_option("[data-testid=length]", "0")  # and for points again
        page.click("[data-testid=analyse]")
        shown(page, GAMMON_GO, "5-1", "15/10 11/10")
        expect(page.locator("[data-testid=plays] thead th").nth(4)).to_be_hidden()
        # a malformed position: a one-line error, and what was shown stays
        page.fill("[data-testid=position]", "plakoto 15b w")
        page.click("[data-testid=analyse]")
        expect(page.locator("[data-testid=error]")).to_have_text(re.compile(r"^Not analysed: .*5 fields"))
        expect(page.locator("[data-testid=analyse]")).to_be_enabled()
        shown(page, GAMMON_GO, "5-1", "15/10 11/10")
        page.fill("[data-testid=position]", PLAKOTO)
        page.fill("[data-testid=dice]", "7-1")
        page.click("[data-testid=analyse]")
        expect(page.locator("[data-testid=error]")).to_contain_text("dice must be two numbers from 1 to 6")
        # a start button, and the address of what is shown opens it again
        page.fill("[data-testid=dice]", "6-4")
        page.click("[data-testid=start-fevga]")
        fevga = Position.start("fevga")
        shown(page, str(fevga), "6-4", position_json(str(fevga), "64", 2)["plays"][0]["play"])
        expect(page.locator("[data-testid=error]")).to_have_text("")
        address = page.url
        page.goto(shared_server.url + "/")
        page.goto(address)
        shown(page, str(fevga), "6-4", position_json(str(fevga), "64", 2)["plays"][0]["play"])
        assert errors == []
    finally:
        ctx.close()


def test_the_position_page_on_a_phone_and_in_greek(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(**PHONE, locale="el-GR")
    try:
        page = ctx.new_page()
        # a roll that cannot be played
        shut = "portes ......3b.....12w.....2b2b2b2b2b2b w 3:0 0:0"
        page.goto(shared_server.url + "/position#" + urlencode({"position": shut, "dice": "6-5"}))
        shown(page, shut, "6-5", None)
        expect(page.locator("[data-testid=status]")).to_have_text("Τα Λευκά δεν μπορούν να παίξουν 6-5: η σειρά περνά.")
        page.goto(shared_server.url + "/position#" + urlencode({"position": PLAKOTO, "dice": "6-4", "depth": "1"}))
        best = position_json(PLAKOTO, "64", 1)["plays"][0]["play"]
        shown(page, PLAKOTO, "6-4", best)
        assert english_words(page) == set()
        # the board first, then the form and the plays; the plies give way, nothing is wider than the screen
        board = page.locator("[data-testid=board]").bounding_box()
        plays = page.locator("[data-testid=plays]").bounding_box()
        assert board and plays and board["y"] + board["height"] <= plays["y"]
        expect(page.locator("[data-testid=plays] thead th.ply")).to_be_hidden()
        expect(page.locator("[data-testid=plays] thead th").nth(3)).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(SCREENSHOTS / "position-390x844.png"), full_page=True, animations="disabled")
        # a malformed position: the page's words with the library's reason, in the language chosen
        page.fill("[data-testid=position]", "plakoto 15b w")
        page.click("[data-testid=analyse]")
        expect(page.locator("[data-testid=error]")).to_have_text(
            "Δεν αναλύθηκε: το κείμενο θέσης έχει 5 πεδία (παιχνίδι, ταμπλό, σειρά, μπάρα W:B, μαζεμένα W:B), όχι 3")
        # a reason within a reason: a Position ID whose sides share a point
        page.fill("[data-testid=position]", "AACABAAAAAAAAA")
        page.click("[data-testid=analyse]")
        error = page.locator("[data-testid=error]")
        expect(error).to_have_text(re.compile(r"^Δεν αναλύθηκε: 'AACABAAAAAAAAA': [^a-z]+$"))
        page.select_option("[data-testid=lang]", "en")
        expect(page.locator("[data-testid=error]")).to_have_text(re.compile(r"^Not analysed: 'AACABAAAAAAAAA': [a-z]"))
        page.fill("[data-testid=position]", "plakoto 15b w")
        page.click("[data-testid=analyse]")
        expect(page.locator("[data-testid=error]")).to_have_text(re.compile(r"^Not analysed: .*5 fields"))
        expect(page.locator("[data-testid=plays-title]")).to_have_text("Black to play 6-4")
        assert {"Position", "Analyse", "Roll"} <= english_words(page)
    finally:
        ctx.close()


@pytest.mark.slow
def test_a_position_set_up_on_the_board(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(shared_server.url + "/position")
        shown(page, str(Position.start("portes")), "3-1", "8/5 6/5")
        page.click("[data-testid=setup]")
        expect(page.locator("[data-testid=setup-bar]")).to_be_visible()
        page.click("[data-testid=setup-clear]")
        setup = "window.tavliSetup"
        assert page.evaluate(setup) == "portes " + "." * 24 + " w 0:0 15:15"

        def put(point: int, times: int = 1) -> None:
            for _ in range(times):
                page.locator(f"[data-point='{point}']").click()

        put(6, 3)
        page.click("[data-testid=brush-black]")
        put(19, 2)
        put(6)  # a Portes point holds one side's checkers
        expect(page.locator("[data-testid=status]")).to_contain_text("cannot go there")
        put(25)  # the bar
        assert page.evaluate(setup) == "portes .....3w............2b..... w 0:1 12:12"
        page.click("[data-testid=brush-remove]")
        put(25)
        racing = "portes .....3w............2b..... w 0:0 12:13"
        assert page.evaluate(setup) == racing
        expect(page.locator("[data-testid=position]")).to_have_value(racing)
        board_shows_position(page, Position.from_string(racing))
        page.click("[data-testid=analyse]")
        shown(page, racing, "3-1", position_json(racing, "31", 1)["plays"][0]["play"])
        expect(page.locator("[data-testid=setup-bar]")).to_be_hidden()
        # in Plakoto a checker put on a lone opposing one pins it; Black to play
        page.click("[data-testid=start-plakoto]")
        shown(page, str(Position.start("plakoto")), "3-1", position_json(str(Position.start("plakoto")), "31", 1)[
            "plays"][0]["play"])
        page.click("[data-testid=setup]")
        put(24)  # White's fifteen are all on the board
        expect(page.locator("[data-testid=status]")).to_contain_text("fifteen checkers")
        page.click("[data-testid=setup-clear]")
        put(10)
        put(20, 2)
        page.click("[data-testid=brush-black]")
        put(10)
        put(5)
        page.click("[data-testid=setup-turn]")
        expect(page.locator("[data-testid=setup-turn]")).to_have_text("Black to play")
        pinned = "plakoto ....1b....1bw.........2w.... b 0:0 12:13"
        assert page.evaluate(setup) == pinned
        page.click("[data-testid=analyse]")
        shown(page, pinned, "3-1", position_json(pinned, "31", 1)["plays"][0]["play"])
        expect(page.locator("[data-point='10'] [data-pinned]")).to_have_count(1)
        assert errors == []
    finally:
        ctx.close()
