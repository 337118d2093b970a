"""The chances of winning the match on the match page, in a real browser: on for spectators, a
choice (off at first, remembered) for a player against a bot. The launch of tests/test_web_browser.py."""

from __future__ import annotations

import os

import pytest

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect
from serve_process import Server

from tests.test_web_browser import SCREENSHOTS, english_words, start_match, state, take_turn


def shown(page: Page) -> tuple[float, float]:
    """The percentages the page shows for White and Black (a decimal comma in Greek)."""
    white = page.locator("[data-testid=chances-white]").text_content() or ""
    black = page.locator("[data-testid=chances-black]").text_content() or ""
    return tuple(float(text.split()[-1].rstrip("%").replace(",", ".")) for text in (white, black))  # type: ignore[return-value]


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_spectators_see_the_chances_and_players_choose(browser: Browser, shared_server: Server,
                                                        width: int, height: int) -> None:
    player_ctx = browser.new_context(viewport={"width": width, "height": height})
    watch_ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        player = player_ctx.new_page()
        errors: list[str] = []
        player.on("pageerror", lambda exc: errors.append(str(exc)))
        start_match(player, shared_server.url, "advanced", length="3", games="tavli")
        # a player against a bot: the option is there, off at first, and nothing is shown or sent
        expect(player.locator("[data-testid=chances-toggle]")).to_be_visible()
        expect(player.locator("[data-testid=chances-toggle]")).not_to_be_checked()
        expect(player.locator("[data-testid=chances]")).to_be_hidden()
        watch_link = player.locator("[data-testid=share-watch]").input_value()

        watcher = watch_ctx.new_page()
        watcher.on("pageerror", lambda exc: errors.append(str(exc)))
        watcher.goto(watch_link)
        watcher.wait_for_function("window.tavliState !== undefined && window.tavliChances !== undefined")
        expect(watcher.locator("[data-testid=chances]")).to_be_visible()
        expect(watcher.locator("[data-testid=chances]")).to_contain_text("Chance of winning the match")
        white, black = shown(watcher)
        assert 5 < white < 95 and white + black == pytest.approx(100.0, abs=0.11)
        chances = watcher.evaluate("window.tavliChances")
        assert white == pytest.approx(100 * chances["white"], abs=0.051)

        # the match goes on: the spectator's chances follow it
        first = chances["seq"]
        for _ in range(3):
            take_turn(player)
        watcher.wait_for_function(f"window.tavliChances.seq > {first}", timeout=30_000)
        assert player.evaluate("window.tavliChances === undefined")

        # the player turns them on: shown at once, and still on after a reload
        player.click("[data-testid=chances-toggle]")
        player.wait_for_function("window.tavliChances !== undefined")
        expect(player.locator("[data-testid=chances]")).to_be_visible()
        mine = player.evaluate("window.tavliChances")
        # the page rounds each chance to a tenth (JavaScript's toFixed, which may round a half
        # the other way from Python's round)
        assert shown(player) == (pytest.approx(100 * mine["white"], abs=0.051),
                                 pytest.approx(100 * mine["black"], abs=0.051))
        player.reload()
        player.wait_for_function("window.tavliChances !== undefined")
        expect(player.locator("[data-testid=chances-toggle]")).to_be_checked()
        expect(player.locator("[data-testid=chances]")).to_be_visible()

        # in Greek, every word of it
        watcher.select_option("[data-testid=lang]", "el")
        expect(watcher.locator("[data-testid=chances]")).to_contain_text("Πιθανότητα νίκης στον αγώνα")
        expect(watcher.locator("[data-testid=chances-white]")).to_contain_text("Λευκά")
        assert english_words(watcher) == set()
        assert "," in (watcher.locator("[data-testid=chances-white]").text_content() or "")  # 54,2%: Greek's comma
        assert sum(shown(watcher)) == pytest.approx(100.0, abs=0.11)
        watcher.select_option("[data-testid=lang]", "en")

        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for who, page in (("spectator", watcher), ("player", player)):
            page.screenshot(path=str(SCREENSHOTS / f"chances-{who}-{width}x{height}.png"), full_page=True,
                            animations="disabled")

        # and off again
        player.click("[data-testid=chances-toggle]")
        expect(player.locator("[data-testid=chances]")).to_be_hidden()
        assert player.evaluate("localStorage.getItem('tavli:chances')") == "0"
        assert state(watcher)["you"] == "spectator" and errors == []
    finally:
        player_ctx.close()
        watch_ctx.close()
