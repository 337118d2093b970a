"""Challenges in a real browser (Debian's chromium, Playwright, ``tavli serve``), two people signed in
as two accounts, each in a browser of his own: A challenges B from B's page while B sits on another
page of the café (the leaderboard); the card reaches B at once, he accepts, and both are on one
board; a challenge sent from the lobby's list of players online and declined is told to A in
words. At 1366×768, 390×844 and 844×390, in English and Greek, photographed under
artifacts/screenshots/ (``challenge-*``). Names are shown as text."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser_screens import SETTLED, each_size_once, new_page, shoot, sideways

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    yield s
    s.stop(signal.SIGKILL)


def signed_in(server: Server, browser: Browser, made: list[BrowserContext], name: str, lang: str,
              width: int, height: int) -> Page:
    """A browser of the new account ``name``, signed in, reading ``lang`` at ``width``×``height``."""
    cookie = server.sign_up(name)
    page = new_page(browser, made, lang, width, height)
    key, value = cookie.split("=", 1)
    page.context.add_cookies([{"name": key, "value": value, "url": server.url}])
    return page


def wait_online(server: Server, name: str) -> None:
    """Until the lobby lists ``name`` among the players online (his page's connection is open)."""
    deadline = time.monotonic() + 30
    while name not in json.load(urllib.request.urlopen(server.url + "/api/seeks", timeout=30))["players"]:
        assert time.monotonic() < deadline, f"{name} never came online"
        time.sleep(0.05)


def card_fits(page: Page, testid: str) -> None:
    """The card is on the screen, whole, its words text (no markup), and nothing scrolls sideways."""
    card = page.get_by_test_id(testid)
    expect(card).to_be_visible()
    box, size = card.bounding_box(), page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, box
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1, box
    assert card.evaluate("el => [...el.querySelectorAll('p')].every((p) => p.children.length === 0)")
    assert sideways(page) == 0


@each_size_once()
def test_a_challenge_from_a_players_page_is_accepted_on_another_page_and_both_are_on_the_board(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str, width: int, height: int) -> None:
    names = ("Ελένη", "Νίκος") if lang == "el" else ("Eleni", "Nikos")
    a_name, b_name = (f"{n}{width}" for n in names)
    a = signed_in(server, browser, contexts, a_name, lang, width, height)
    b = signed_in(server, browser, contexts, b_name, lang, width, height)
    b.goto(server.url + "/leaderboard", wait_until="commit")  # B is on another page of the café
    b.wait_for_function(SETTLED)
    wait_online(server, b_name)  # B's page is connected: he is online
    a.goto(f"{server.url}/@/{quote(b_name)}", wait_until="commit")
    a.get_by_test_id("challenge-open").click()
    a.select_option("[data-testid=challenge-length]", "5")
    a.select_option("[data-testid=challenge-games]", "tavli")
    a.select_option("[data-testid=challenge-clock]", "kafeneio")
    a.check("[data-testid=challenge-rated]")
    shoot(a, f"challenge-form-{lang}-{width}x{height}")
    a.get_by_test_id("challenge-send").click()
    expect(a.get_by_test_id("challenge-sent")).to_contain_text(b_name)
    card = b.get_by_test_id("challenge-card")
    expect(card).to_contain_text(a_name)
    words = {"en": ["5 points of Tavli", "Kafeneio", "rated"],
             "el": ["Τάβλι στους 5 πόντους", "Καφενείο", "με βαθμολογία"]}
    for word in words[lang]:
        expect(card).to_contain_text(word)
    card_fits(b, "challenge-card")
    card_fits(a, "challenge-sent")
    shoot(b, f"challenge-card-{lang}-{width}x{height}")
    shoot(a, f"challenge-sent-{lang}-{width}x{height}")
    b.get_by_test_id("challenge-accept").click()
    for page in (a, b):
        page.wait_for_url("**/match/**")
        page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    assert a.url.split("#")[0] == b.url.split("#")[0]  # one match, one board
    state = a.evaluate("window.tavliState")
    assert state["settings"]["rated"] and state["settings"]["length"] == 5
    assert {state["players"]["white"]["name"], state["players"]["black"]["name"]} == {a_name, b_name}


def test_a_challenge_from_the_lobbys_list_declined_is_told_to_the_challenger(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    a = signed_in(server, browser, contexts, "Maria", "el", 390, 844)
    b = signed_in(server, browser, contexts, "Petros", "en", 1366, 768)
    b.goto(f"{server.url}/@/Petros", wait_until="commit")  # his own page: no Challenge there
    b.wait_for_function(SETTLED)
    wait_online(server, "Petros")
    a.goto(server.url + "/", wait_until="commit")
    online = a.get_by_test_id("player-online").filter(has_text="Petros")
    online.get_by_test_id("player-challenge").click()
    a.get_by_test_id("challenge-send").scroll_into_view_if_needed()
    shoot(a, "challenge-lobby-el-390x844")
    a.get_by_test_id("challenge-send").click()
    expect(b.get_by_test_id("challenge-open")).to_be_hidden()
    expect(b.get_by_test_id("challenge-card")).to_contain_text("Maria challenges you: 5 points of Tavli")
    b.get_by_test_id("challenge-decline").click()
    expect(b.get_by_test_id("challenge-card")).to_have_count(0)
    told = a.get_by_test_id("challenge-note")
    expect(told).to_contain_text("Η πρόκλησή σας προς Petros δεν έγινε δεκτή")
    card_fits(a, "challenge-note")
    shoot(a, "challenge-declined-el-390x844")
    a.get_by_test_id("challenge-note-close").click()
    expect(told).to_have_count(0)
