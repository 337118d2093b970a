"""Matches to watch on the start page, and Tavli TV (Debian's chromium, Playwright, ``tavli serve``;
docs/cafe.md, "Watch"): the matches in play listed with their players, a hostile guest's name shown
as text, each a link to its board where the visitor watches; ``/tv`` shows the match most worth
watching and goes on to the next when it ends. At 1366x768, 390x844 and 844x390, in English and
Greek, photographed under artifacts/screenshots/ (``watch-*``)."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from serve_process import Server, resign_the_match

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser_screens import Screen, language, look_everywhere, shoot, sideways

HOSTILE = "<svg onload=alert(1)>"
"""A guest's name that would run as markup."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    yield s
    s.stop(signal.SIGKILL)


def in_play(stack: ExitStack, server: Server, name: str) -> tuple[str, Any, dict[str, Any]]:
    """A friend match between two guests, one named ``name``, both at the board: its clocks
    started, it is in play. Its id, its creator's socket and the state he last heard."""
    links = server.post("/api/matches", {"opponent": "friend", "length": 3, "games": "tavli", "name": name})
    match = links["match"]
    sockets = []
    for link in (links["play"], links["friend"]):
        ws = stack.enter_context(server.socket(match))
        ws.send(json.dumps({"type": "hello", "token": link.split("#t=", 1)[1]}))
        sockets.append(ws)
    heard = []
    for ws in sockets:  # each hears the clocks start
        while (state := json.loads(ws.recv(timeout=30)))["type"] != "state" or state["seq"] == 0:
            pass
        heard.append(state)
    return match, sockets[0], heard[0]


def test_the_start_page_lists_matches_to_watch_and_tavli_tv_goes_on_to_the_next(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    with ExitStack() as stack:
        first, first_ws, first_state = in_play(stack, server, "Eleni")
        # the newer: listed first, as neither match is rated
        second, second_ws, second_state = in_play(stack, server, HOSTILE)
        dialogs: list[str] = []

        def listed(page: Page, screen: Screen) -> None:
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            rows = page.get_by_test_id("watch-row")
            expect(rows).to_have_count(2)
            expect(rows.nth(0)).to_contain_text(HOSTILE)  # as text: no element made of it
            expect(rows.nth(1)).to_contain_text("Eleni")
            assert page.locator("[data-testid=watch] svg").count() == 0
            links = [rows.nth(k).get_by_test_id("watch-link").get_attribute("href") for k in range(2)]
            assert links == [f"/match/{second}", f"/match/{first}"]
            expect(page.get_by_test_id("watch-none")).to_be_hidden()
            expect(page.get_by_test_id("tv-link")).to_have_attribute("href", "/tv")
            page.get_by_test_id("watch").scroll_into_view_if_needed()
            assert sideways(page) <= 0
            shoot(page, f"watch-home-{screen.size}-{screen.lang}")

        page = look_everywhere(browser, contexts, server.url + "/", listed,
                               ready="document.querySelectorAll('[data-testid=watch-row]').length === 2")
        # a link to the board: the visitor watches
        page.get_by_test_id("watch-row").nth(1).get_by_test_id("watch-link").click()
        page.wait_for_url(f"**/match/{first}")
        page.wait_for_function("window.tavliState && window.tavliState.you === 'spectator'")
        expect(page.get_by_test_id("watching")).to_be_visible()
        # Tavli TV: the first of the list, then, when it ends, the next
        page.goto(server.url + "/tv")
        page.wait_for_url(f"**/match/{second}?tv")
        page.wait_for_function("window.tavliState && window.tavliState.you === 'spectator'")
        shoot(page, f"watch-tv-1366x768-{language(page)}")
        resign_the_match(second_ws, second_state)
        expect(page.get_by_test_id("match-over")).to_be_visible()
        page.wait_for_url(f"**/match/{first}?tv", timeout=60_000)
        page.wait_for_function("window.tavliState && window.tavliState.you === 'spectator' && !window.tavliState.over")
        assert dialogs == []
        # with none in play, the list says so
        resign_the_match(first_ws, first_state)
    page.goto(server.url + "/")
    expect(page.get_by_test_id("watch-none")).to_be_visible(timeout=30_000)
