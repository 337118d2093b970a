"""The board of a rated match, in a real browser (Debian's chromium, Playwright, ``tavli serve``):
each player's name shows his rating in the match's pool ("Eleni (1623)", "Nikos (1500?)" while
provisional), in the side panel and on a phone's strip over the board, at a laptop's size and a
phone's, upright and sideways, in English and Greek; and the sounds are on unless the player turns
them off: none is made, and no AudioContext (so no warning), before his first click or tap, one
is made after it, and his "off" is kept across a reload. One scenario, looked at on every screen
(``tests/browser_screens.py``); screenshots ``seat-ratings-*`` under artifacts/screenshots/."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser_screens import Screen, shoot, sideways
from tests.test_web_accounts import move_by_clicks
from tests.test_web_board_defects import both_begun, make_match, person, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AUDIO_WATCH = """
window.tavliSounds = { contexts: 0, notes: 0 };
if (window.AudioContext) {
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.tavliSounds.contexts += 1; }
    createOscillator() { window.tavliSounds.notes += 1; return super.createOscillator(); }
  };
}
"""
"""Counts the AudioContexts a page makes and the notes it plays (each click of a sound a note)."""
SLOW_CLOCK = {"delay": 60, "reserve": 1800}
"""A clock (a phone shows the players' strip over the board only in a clocked match) that no
screen's look runs out."""


@pytest.fixture(scope="module")
def server(proxied_server: Server) -> Server:
    return proxied_server


def sounds(page: Page) -> dict[str, int]:
    return dict(page.evaluate("window.tavliSounds"))


def settle_rating(server: Server, name: str, rating: float, deviation: float, pool: str = "portes") -> None:
    """Give ``name``'s account a rating in ``pool`` (as if he had played there before)."""
    assert isinstance(server.db, Path)
    with sqlite3.connect(server.db) as conn:
        (account,) = conn.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()
        conn.execute("INSERT INTO ratings VALUES (?, ?, ?, ?, 0.06, 12, 0)", (account, pool, rating, deviation))


def test_a_rated_boards_names_show_the_ratings_and_its_sounds_are_on(server: Server, browser: Browser,
                                                                     contexts: list[BrowserContext]) -> None:
    eleni, nikos = person(browser, contexts), person(browser, contexts)
    sign_up(eleni.page, server.url, "Eleni")
    sign_up(nikos.page, server.url, "Nikos")
    settle_rating(server, "Eleni", 1623.4, 80.0)
    links = make_match(eleni.page, server.url, {"opponent": "friend", "seat": "white", "length": 1,
                                                "games": "portes", "rated": True, "clock": SLOW_CLOCK})
    logged: list[str] = []
    pages = {"white": eleni.page, "black": nikos.page}
    for page in pages.values():
        page.context.add_init_script(AUDIO_WATCH)
        page.on("console", lambda m: logged.append(m.text) if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: logged.append(str(e)))
    eleni.page.goto(server.url + links["play"])
    nikos.page.goto(server.url + links["friend"])
    both_begun(*pages.values())

    # the roll-off's winner rolls and moves by clicks: his page sounds; the other page, not
    # clicked yet, is sent the roll and the move and makes no sound, and no AudioContext (so no
    # warning either)
    mover = eleni.page.evaluate("window.tavliState.turn")
    waiter = "black" if mover == "white" else "white"
    expect(pages[mover].get_by_test_id("sounds")).to_be_checked()  # on, though never turned on
    seq = pages[waiter].evaluate("window.tavliState.seq")
    pages[mover].wait_for_function("(s => s.can_roll || s.can_play)(window.tavliState)")
    if pages[mover].evaluate("window.tavliState.can_roll"):
        pages[mover].get_by_test_id("roll").click()
        pages[mover].wait_for_function("window.tavliState.can_play")
    move_by_clicks(pages[mover])
    pages[waiter].wait_for_function(f"window.tavliState.seq > {seq}")
    assert sounds(pages[mover])["contexts"] == 1 and sounds(pages[mover])["notes"] > 0
    assert sounds(pages[waiter]) == {"contexts": 0, "notes": 0}
    assert [text for text in logged if "audio" in text.lower()] == [] and not any("Error" in t for t in logged), logged

    def names(page: Page, screen: Screen) -> None:
        for color, shown in (("white", "(1623)"), ("black", "(1500?)")):
            expect(page.locator(f"#player-{color} .name")).to_contain_text(shown)
            expect(page.get_by_test_id(f"rating-{color}")).to_have_text(shown)
            if screen.phone:  # the strip over the board, the players' names on a phone's first screen
                rating = page.get_by_test_id(f"chip-rating-{color}")
                expect(rating).to_have_text(shown.strip("()"))
                box, chip = rating.bounding_box(), page.locator(f"#chip-{color}").bounding_box()
                assert box is not None and chip is not None
                # whole, inside its chip: not cut short by the name or the clock
                assert chip["y"] <= box["y"] and box["y"] + box["height"] <= chip["y"] + chip["height"] + 0.5
                assert rating.evaluate("e => e.scrollWidth <= e.clientWidth"), (color, screen)
        expect(page.locator("#player-white .name")).to_contain_text("Eleni (1623)")
        expect(page.get_by_test_id("sounds")).to_be_checked()
        assert sideways(page) <= 0
        shoot(page, f"seat-ratings-{screen.size}-{screen.lang}")

    eleni.look(names)

    # the "off" is remembered: after a reload the switch is off, and a click makes no sound
    page = pages[waiter]
    page.get_by_test_id("sounds").uncheck()
    page.reload(wait_until="commit")
    page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    expect(page.get_by_test_id("sounds")).not_to_be_checked()
    now = page.evaluate("window.tavliState")
    if now["can_roll"]:
        page.get_by_test_id("roll").click()
        page.wait_for_function(f"window.tavliState.seq > {now['seq']}")
    page.wait_for_function("(s => s.can_play || s.turn !== s.you)(window.tavliState)")
    if page.evaluate("window.tavliState.can_play"):
        page.locator(".point.source").first.click()
    assert sounds(page) == {"contexts": 0, "notes": 0}
