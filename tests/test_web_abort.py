"""Aborting a match in a real browser (Debian's chromium, Playwright, ``tavli serve``): A makes a
friend match, B joins, A aborts before both have played, and both pages say the match was
aborted, with the way to a new match; on a laptop in English and a phone in Greek, photographed
under artifacts/screenshots/ (``board-abort*``, ``board-aborted*``)."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser_screens import SHOTS, new_page

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
ABORTED = {"en": "The match was aborted", "el": "Ο αγώνας ακυρώθηκε"}
ABORT = {"en": "Abort", "el": "Ακύρωση"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    yield s
    s.stop(signal.SIGKILL)



def person(browser: Browser, made: list[BrowserContext], lang: str, size: str) -> Page:
    return new_page(browser, made, lang, *SIZES[size], touch=False)


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize(("lang", "size"), [("en", "laptop"), ("el", "phone")])
def test_a_friend_match_aborted_says_so_on_both_pages(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str, size: str) -> None:
    a, b = person(browser, contexts, lang, size), person(browser, contexts, lang, size)
    a.goto(server.url + "/")
    a.wait_for_function("document.querySelector('[data-i18n]:empty') === null")
    links = a.evaluate("""async () => (await fetch('/api/matches', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({opponent: 'friend', length: 3, games: 'portes'})})).json()""")
    a.goto(server.url + links["play"])
    b.goto(server.url + links["friend"])
    for page in (a, b):  # both here, nobody has played: either may abort
        expect(page.get_by_test_id("abort")).to_be_visible()
        expect(page.get_by_test_id("abort")).to_have_text(ABORT[lang])
    shoot(a, f"board-abort-button-{lang}-{size}")
    a.get_by_test_id("abort").click()
    expect(a.get_by_test_id("abort-confirm")).to_be_visible()  # one line to confirm
    a.get_by_test_id("abort-yes").click()
    for page in (a, b):
        expect(page.get_by_test_id("match-over")).to_be_visible()
        expect(page.get_by_test_id("match-over-title")).to_have_text(ABORTED[lang])
        expect(page.get_by_test_id("rematch")).to_be_hidden()
        expect(page.locator("#match-over a[href='/']")).to_be_visible()  # on to a new match
    shoot(a, f"board-aborted-{lang}-{size}")
    shoot(b, f"board-aborted-other-{lang}-{size}")
    b.get_by_test_id("see-board").click()
    expect(b.get_by_test_id("status")).to_have_text(ABORTED[lang])
    expect(b.get_by_test_id("abort")).to_be_hidden()
    a.locator("#match-over a[href='/']").click()
    a.wait_for_url(server.url + "/")
