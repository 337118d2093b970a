"""The tournaments' pages in a real browser (Debian's chromium, Playwright, ``tavli serve``): a
sit-and-go knockout of four, made and joined through the API by Ann, Bob and Cy, is on the start
page's box and on its own page, where a guest watches it live: Cy's join and Dora's (pressed on the
page) appear without a reload, Dora is taken to her board as the bracket is drawn, and the guest's
page draws the bracket (both semi-finals, the final to come), then Ann's win, marked, with the way
to its review. Cy's page marks his match with the way to his board. A Swiss made with the list
page's form lands on its page. The tournament's page and the list at 1366×768, 390×844 and 844×390
in English and Greek, photographed under artifacts/screenshots/ (``tournament-*``)."""

from __future__ import annotations

import json
import os
import signal
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from serve_process import Server, resign_the_match

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect
from websockets.sync.client import connect

from tests.browser_screens import LANGS, SETTLED, SIZES, new_page, shoot, sideways
from tests.test_web_accounts import latin_words
from tests.test_web_challenges import wait_online

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ("Ann", "Bob", "Cy", "Dora")
TITLE = "Friday knockout"
LOADED = "document.body?.dataset.loaded === '1' && " + SETTLED
WAIT = 30_000  # ms: what the server does for another page reaches this one well within it


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    yield s
    s.stop(signal.SIGKILL)


@pytest.fixture(scope="module")
def cookies(server: Server) -> dict[str, str]:
    """The four players' session cookies."""
    return {name: server.sign_up(name) for name in NAMES}


def api(server: Server, method: str, path: str, cookie: str, body: dict[str, Any] | None = None) -> Any:
    """``method path`` as the player of ``cookie``: the JSON answer (a refusal fails the test)."""
    request = urllib.request.Request(server.url + path, json.dumps(body or {}).encode(),
                                     {"Content-Type": "application/json", "Cookie": cookie}, method=method)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def person(browser: Browser, made: list[BrowserContext], server: Server, cookie: str | None, lang: str = "en",
           width: int = 1366, height: int = 768, seen: list[str] | None = None) -> Page:
    """A browser signed in with ``cookie`` (None: a guest's); its scripts' errors go into ``seen``."""
    page = new_page(browser, made, lang, width, height)
    if cookie:
        key, value = cookie.split("=", 1)
        page.context.add_cookies([{"name": key, "value": value, "url": server.url}])
    if seen is not None:
        page.on("pageerror", lambda e: seen.append(str(e)))
    return page


def opened(page: Page, server: Server, path: str) -> None:
    page.goto(server.url + path, wait_until="commit")
    page.wait_for_function(LOADED if path.startswith("/tournaments/") else SETTLED)


def resign(server: Server, match: str, cookie: str) -> None:
    """The player of ``cookie`` takes his seat of ``match`` by his session alone, and resigns it."""
    with connect(server.url.replace("http", "ws") + f"/ws/{match}", additional_headers={"Cookie": cookie},
                 open_timeout=60) as ws:
        ws.send(json.dumps({"type": "hello"}))
        while (state := json.loads(ws.recv(timeout=60)))["type"] != "state":
            pass
        resign_the_match(ws, state)


def fits(page: Page) -> None:
    """Nothing scrolls sideways; the bracket, if drawn, keeps within the screen (it scrolls in its box)."""
    assert sideways(page) == 0
    width = page.viewport_size["width"] if page.viewport_size else 0
    # read in the page's own turn: a live redraw may replace the boxes between two of the test's calls
    shapes = page.evaluate("""() => [...document.querySelectorAll('.bracket-scroll')].map((box) => {
        const r = box.getBoundingClientRect(); return {x: r.x, width: r.width}; })""")
    for shape in shapes:
        assert shape["x"] >= 0 and shape["x"] + shape["width"] <= width + 1, shape


def test_a_sit_and_go_knockout_fills_live_and_draws_its_bracket(
        server: Server, browser: Browser, contexts: list[BrowserContext], cookies: dict[str, str]) -> None:
    seen: list[str] = []
    made = api(server, "POST", "/api/tournaments", cookies["Ann"], {
        "name": TITLE, "format": "knockout", "length": 3, "games": "portes", "clock": "kafeneio",
        "max_players": 4, "start": "when-full"})
    tid = made["id"]
    for name in ("Ann", "Bob"):
        api(server, "POST", f"/api/tournaments/{tid}/join", cookies[name])

    # the start page's box lists it; its link leads to its page
    guest = person(browser, contexts, server, None, seen=seen)
    opened(guest, server, "/")
    entry = guest.get_by_test_id("home-tour-list").get_by_test_id("tour-link")
    expect(entry).to_have_text(TITLE, timeout=WAIT)
    entry.click()
    guest.wait_for_url(f"**/tournaments/{tid}")
    guest.wait_for_function(LOADED)
    expect(guest.get_by_test_id("tour-name")).to_have_text(TITLE)
    expect(guest.get_by_test_id("tour-status")).to_have_text("Taking players · starts when full: 2 of 4 players")
    expect(guest.get_by_test_id("tour-format")).to_have_text("Knockout")
    expect(guest.get_by_test_id("tour-player")).to_have_text(["Ann (1500)", "Bob (1500)"])
    expect(guest.get_by_test_id("tour-bracket-later")).to_be_visible()
    expect(guest.get_by_test_id("tour-log-in")).to_be_visible()  # a guest is shown the way to join
    expect(guest.get_by_test_id("tour-join")).to_have_count(0)
    guest.evaluate("window.tavliKept = 'this page'")  # gone if the page were loaded again

    # the organiser's page has his buttons; Dora's has Join
    ann = person(browser, contexts, server, cookies["Ann"], seen=seen)
    opened(ann, server, f"/tournaments/{tid}")
    expect(ann.get_by_test_id("tour-start")).to_be_visible()
    expect(ann.get_by_test_id("tour-cancel")).to_be_visible()
    expect(ann.get_by_test_id("tour-withdraw")).to_be_visible()
    dora = person(browser, contexts, server, cookies["Dora"], seen=seen)
    opened(dora, server, f"/tournaments/{tid}")
    expect(ann.get_by_test_id("tour-organiser")).to_be_visible()
    expect(dora.get_by_test_id("tour-organiser")).to_be_hidden()
    wait_online(server, "Dora")  # her page's notes are open: the pairing reaches it

    # Cy joins elsewhere: every open page shows him at once
    api(server, "POST", f"/api/tournaments/{tid}/join", cookies["Cy"])
    expect(guest.get_by_test_id("tour-player")).to_have_text(["Ann (1500)", "Bob (1500)", "Cy (1500)"], timeout=WAIT)
    expect(guest.get_by_test_id("tour-status")).to_have_text("Taking players · starts when full: 3 of 4 players")
    expect(dora.get_by_test_id("tour-players-count")).to_have_text("3 of 4", timeout=WAIT)

    # Dora joins on the page: it is full and starts; she is taken to her board, the bracket is drawn
    dora.get_by_test_id("tour-join").click()
    expect(guest.get_by_test_id("tour-status")).to_contain_text("Being played", timeout=WAIT)
    shown = api(server, "GET", f"/api/tournaments/{tid}", cookies["Dora"])
    first = shown["rounds"][0]["pairings"]
    assert [(p["white"], p["black"], p["why"]) for p in first] == [
        ("Ann", "Dora", {"rule": "seed", "seeds": [1, 4]}), ("Bob", "Cy", {"rule": "seed", "seeds": [2, 3]})]
    dora.wait_for_url(f"**/match/{first[0]['match']}", timeout=WAIT)
    assert guest.evaluate("window.tavliKept") == "this page"
    rounds = guest.get_by_test_id("bracket-round")
    expect(rounds).to_have_count(2)
    expect(rounds.locator(".bracket-title")).to_have_text(["Semi-finals", "Final"])
    bouts = rounds.nth(0).get_by_test_id("bout")
    expect(bouts.nth(0).get_by_test_id("bout-white")).to_have_text("Ann")
    expect(bouts.nth(0).get_by_test_id("bout-black")).to_have_text("Dora")
    expect(bouts.nth(1).get_by_test_id("bout-white")).to_have_text("Bob")
    expect(bouts.nth(1).get_by_test_id("bout-black")).to_have_text("Cy")
    expect(bouts.nth(0).locator(".bout-why")).to_have_text("seeds 1 and 4")
    assert bouts.nth(1).get_by_test_id("tour-watch-link").get_attribute("href") == f"/match/{first[1]['match']}"
    expect(rounds.nth(1).get_by_test_id("bout")).to_have_text("to be decidedto be decided")

    # Cy's page: his match marked, the way to his board
    cy = person(browser, contexts, server, cookies["Cy"], seen=seen)
    opened(cy, server, f"/tournaments/{tid}")
    expect(cy.get_by_test_id("tour-your-match-text")).to_have_text("Round 1: you play Bob.")
    assert cy.get_by_test_id("tour-go-to-board").get_attribute("href") == f"/match/{first[1]['match']}"
    expect(cy.locator(".bout.own.playing")).to_have_count(1)
    expect(cy.locator(".bout.own.playing").get_by_test_id("tour-board-link")).to_be_visible()

    # Dora resigns: Ann's win is marked live, with its review; the final names her
    resign(server, first[0]["match"], cookies["Dora"])
    won = bouts.nth(0).locator(".bout-side.won")
    expect(won).to_have_text("Ann✓", timeout=WAIT)
    expect(bouts.nth(0).locator(".bout-result")).to_have_text("Ann won (by resignation)")
    assert bouts.nth(0).get_by_test_id("tour-review-link").get_attribute("href") == \
        f"/match/{first[0]['match']}/review"
    expect(rounds.nth(1).get_by_test_id("bout-white")).to_have_text("Ann")

    # every screen, both languages: the player's page and the list with its form
    for lang in LANGS:
        for width, height in SIZES:
            look = person(browser, contexts, server, cookies["Cy"], lang, width, height, seen=seen)
            opened(look, server, f"/tournaments/{tid}")
            expect(look.get_by_test_id("tour-go-to-board")).to_be_visible()
            fits(look)
            if lang == "el":
                expect(look.get_by_test_id("tour-format")).to_have_text("Αποκλεισμός")
                words = latin_words(look) - set(NAMES) - set(TITLE.split()) - {"English"}  # the language switch
                assert words == set(), words
            shoot(look, f"tournament-page-{lang}-{width}x{height}", full_page=True)
            opened(look, server, "/tournaments")
            expect(look.get_by_test_id("tour-create")).to_be_visible()
            expect(look.get_by_test_id("tour-running-list").get_by_test_id("tour-link")).to_have_text([TITLE])
            fits(look)
            if lang == "el":
                words = latin_words(look) - set(NAMES) - set(TITLE.split()) - {"English"}  # the language switch
                assert words == set(), words
            shoot(look, f"tournament-list-{lang}-{width}x{height}", full_page=True)
            look.context.close()
    assert seen == [], seen


def test_the_list_pages_form_makes_a_swiss(server: Server, browser: Browser, contexts: list[BrowserContext],
                                           cookies: dict[str, str]) -> None:
    seen: list[str] = []
    page = person(browser, contexts, server, cookies["Bob"], seen=seen)
    opened(page, server, "/tournaments")
    form = page.get_by_test_id("tour-create")
    form.get_by_test_id("tour-create-name").fill("Swiss night")
    form.get_by_test_id("tour-create-format").select_option("swiss")
    expect(form.get_by_test_id("tour-create-rounds")).to_be_visible()
    expect(form.get_by_test_id("tour-create-final-length")).to_be_hidden()  # a knockout's
    form.get_by_test_id("tour-create-rounds").fill("3")
    form.get_by_test_id("tour-create-max-players").fill("6")
    form.get_by_test_id("tour-create-length").fill("1")
    form.get_by_test_id("tour-create-rated").check()
    form.get_by_test_id("tour-create-send").click()
    page.wait_for_url("**/tournaments/*", timeout=WAIT)
    page.wait_for_function(LOADED)
    expect(page.get_by_test_id("tour-name")).to_have_text("Swiss night")
    expect(page.get_by_test_id("tour-format")).to_have_text("Swiss")
    expect(page.get_by_test_id("tour-matches")).to_have_text("Tavli to 1 · Kafeneio 8 s + 1 min · rated")
    expect(page.get_by_test_id("tour-organiser-name")).to_have_text("Bob")
    expect(page.get_by_test_id("tour-standings-card")).to_be_visible()
    # a refusal is said in words: a Swiss of 2 players has 1 round at most
    opened(page, server, "/tournaments")
    form.get_by_test_id("tour-create-name").fill("Too long")
    form.get_by_test_id("tour-create-format").select_option("swiss")
    form.get_by_test_id("tour-create-rounds").fill("5")
    form.get_by_test_id("tour-create-max-players").fill("2")
    form.get_by_test_id("tour-create-send").click()
    expect(form.get_by_test_id("tour-create-error")).to_contain_text("at most 1 rounds", timeout=WAIT)
    assert page.url.endswith("/tournaments")
    assert seen == [], seen
