"""The start page in a real browser (Debian's chromium, Playwright, ``tavli serve``): on a laptop
(1366×768) a new match, the lobby and the study tools are all on the first screen, side by side;
on a phone upright and held sideways the cards stand in one column, the lobby first; no size
scrolls sideways (a tablet's two columns included); in English and Greek, photographed under
artifacts/screenshots/ (``home-*``)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

from tests.browser_screens import SHOTS

SIZES = {"laptop": (1366, 768), "phone": (390, 844), "landscape": (844, 390), "tablet": (820, 1180)}
CARDS = {"new match": "#new-match", "lobby": "[data-testid=lobby]", "open matches": "[data-testid=open-matches]",
         "study": "[data-testid=study]"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    yield s
    s.stop(signal.SIGKILL)


def start_page(browser: Browser, server: Server, lang: str, size: str) -> Page:
    """The start page of a new visitor who reads ``lang``, once every word is in (the page holds
    the lobby's WebSocket open, so it is never idle)."""
    width, height = SIZES[size]
    phone = size in ("phone", "landscape")
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone,
                              locale="el-GR" if lang == "el" else "en-GB")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.add_init_script(f"localStorage.setItem('tavli:lang', '{lang}')")
    page.goto(server.url + "/")
    page.wait_for_function("document.querySelector('[data-i18n]:empty') === null")
    expect(page.get_by_test_id("lobby-counts")).not_to_be_empty()
    expect(page.get_by_test_id("opponent").locator("option")).not_to_have_count(0)
    return page


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    page.screenshot(path=str(SHOTS / f"{name}-full.png"), full_page=True)


def sideways(page: Page) -> int:
    """How far the page scrolls sideways (0: not at all)."""
    return int(page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth"))


@pytest.mark.parametrize("lang", ["en", "el"])
def test_on_a_laptop_play_lobby_and_study_are_all_on_the_first_screen(
        browser: Browser, server: Server, lang: str) -> None:
    page = start_page(browser, server, lang, "laptop")
    try:
        shoot(page, f"home-{lang}-laptop")
        boxes = {name: page.locator(selector).bounding_box() for name, selector in CARDS.items()}
        for name, box in boxes.items():
            assert box is not None and box["y"] < 768, (name, box)
        for name, selector in CARDS.items():  # each card's heading whole on the first screen
            heading = page.locator(f"{selector} h2").first.bounding_box()
            assert heading is not None and heading["y"] + heading["height"] <= 768, (name, heading)
        # side by side: the play options, the lobby and the study tools each a column of their own
        play, lobby, study = boxes["new match"], boxes["lobby"], boxes["study"]
        assert play and lobby and study and play["x"] + play["width"] <= lobby["x"] <= study["x"] - lobby["width"]
        # the first rows too: a new match can be started, a seek posted, a study page opened at once
        for testid in ("start", "opponent", "seek-play-now", "seek-post", "openings-link", "position-link"):
            box = page.get_by_test_id(testid).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 768, (testid, box)
        assert sideways(page) == 0
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize("size", ["phone", "landscape"])
def test_on_a_phone_the_cards_stand_in_one_column_the_lobby_first(
        browser: Browser, server: Server, lang: str, size: str) -> None:
    page = start_page(browser, server, lang, size)
    try:
        shoot(page, f"home-{lang}-{size}")
        assert sideways(page) == 0
        width = SIZES[size][0]
        tops = []
        for name, selector in CARDS.items():
            box = page.locator(selector).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
            tops.append((box["y"], name))
        assert sorted(tops)[0][1] == "lobby"  # a person on the go plays now: the lobby first
        play_now = page.get_by_test_id("seek-play-now").bounding_box()
        assert play_now is not None and play_now["y"] + play_now["height"] <= SIZES[size][1]  # on the first screen
    finally:
        page.context.close()


def test_no_size_scrolls_sideways_with_the_house_rules_open_and_a_long_open_match(
        browser: Browser, server: Server) -> None:
    server.post("/api/matches", {"opponent": "anyone", "name": "Αικατερίνη Παπαδοπούλου", "games": "fevga,portes",
                                 "mother_pin": "off", "prime_limits": False})
    for size in SIZES:
        for lang in ("en", "el"):
            page = start_page(browser, server, lang, size)
            try:
                page.get_by_test_id("house-rules").click()
                expect(page.get_by_test_id("open-list").locator("li")).to_have_count(1)
                shoot(page, f"home-open-match-{lang}-{size}")
                assert sideways(page) == 0, (size, lang)
                if size == "tablet":  # a new match and the lobby side by side, study under them
                    play, lobby, study = (page.locator(CARDS[name]).bounding_box()
                                          for name in ("new match", "lobby", "study"))
                    assert play and lobby and study and play["x"] + play["width"] <= lobby["x"]
                    assert abs(play["y"] - lobby["y"]) < 2 and study["y"] > lobby["y"] + lobby["height"]
            finally:
                page.context.close()


def test_a_match_made_private_on_the_start_page_is_private(browser: Browser, server: Server) -> None:
    page = start_page(browser, server, "el", "laptop")
    try:
        page.select_option("[data-testid=opponent]", "anyone")
        expect(page.get_by_test_id("private")).to_be_hidden()  # an open match can always be watched
        page.select_option("[data-testid=opponent]", "friend")
        page.get_by_test_id("private").check()
        page.click("[data-testid=start]")
        page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
        assert page.evaluate("window.tavliState.settings.private") is True
    finally:
        page.context.close()


@pytest.mark.parametrize("lang, alone", [("en", "1 player online · 0 matches in play"),
                                         ("el", "1 παίκτης συνδεδεμένος · 0 αγώνες σε εξέλιξη")])
def test_the_lobby_counts_a_lone_visitor_in_the_singular(browser: Browser, tmp_path: Path, lang: str,
                                                         alone: str) -> None:
    server = Server(tmp_path / "tavli.db")  # nobody else here: the visitor alone, no match in play
    try:
        page = start_page(browser, server, lang, "laptop")
        expect(page.get_by_test_id("lobby-counts")).to_have_text(alone)
        page.context.close()
    finally:
        server.stop(signal.SIGKILL)
