"""The board's chat in a real browser (Debian's chromium, Playwright, ``tavli serve``): two
signed-in players and a guest spectator; the quick phrases, one tap each, said in each page's own
language; lines of text between the players; markup, a right-to-left override and a zero-width
space in a message, and markup in a spectator's name, shown as text with no dialog ever opening;
the spectators' room apart from the players'; a mute, the player's "hide written messages" kept
across a reload, and a report. Looked at on every screen (``tests/browser_screens.py``): the chat
beside the board on a laptop with the move list where it was, under the board and the buttons to
move on a phone, upright and sideways; screenshots ``chat-*`` under artifacts/screenshots/."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Dialog, Page, expect

from tests.browser_screens import Screen, shoot, show_in, sideways
from tests.test_web_board_defects import both_begun, make_match, on_screen, person, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOSTILE = "<img src=x onerror=alert(1)>"
HOSTILE_NAME = "<svg onload=alert(1)>"
HIDDEN = "abc\u202edef\u200bghi"
PHRASES = {"en": "Good luck!", "el": "Καλή τύχη!"}
SPECTATORS_PHRASE = {"en": "Nice roll!", "el": "Ωραία ζαριά!"}


@pytest.fixture(scope="module")
def server(proxied_server: Server) -> Server:
    return proxied_server


def lines(page: Page) -> list[str]:
    """The chat's lines as the page shows them, each its text."""
    return [str(t) for t in page.locator("[data-testid=chat-line]").all_text_contents()]


def said(page: Page, text: str) -> None:
    """Wait until the page shows a line ending with ``text``."""
    page.wait_for_function("(text) => [...document.querySelectorAll('[data-testid=chat-what]')]"
                           ".some((e) => e.textContent === text)", arg=text, timeout=30_000)


def test_players_and_spectators_talk_in_their_rooms_and_nothing_said_runs(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    eleni, nikos = person(browser, contexts), person(browser, contexts)
    watcher = person(browser, contexts, HOSTILE_NAME)
    sign_up(eleni.page, server.url, "Eleni")
    sign_up(nikos.page, server.url, "Nikos")
    links = make_match(eleni.page, server.url, {"opponent": "friend", "seat": "white", "length": 3,
                                                "games": "portes"})
    dialogs: list[str] = []
    errors: list[str] = []

    def watch(page: Page) -> None:
        def opened(dialog: Dialog) -> None:
            dialogs.append(dialog.message)
            dialog.dismiss()
        page.on("dialog", opened)
        page.on("pageerror", lambda e: errors.append(str(e)))

    for who in (eleni, nikos, watcher):
        watch(who.page)
    eleni.page.goto(server.url + links["play"])
    nikos.page.goto(server.url + links["friend"])
    watcher.page.goto(server.url + links["watch"])
    both_begun(eleni.page, nikos.page)
    for page in (eleni.page, nikos.page, watcher.page):
        expect(page.get_by_test_id("chat")).to_be_visible()

    # a quick phrase, one tap: both players read it, each in his page's language
    eleni.page.get_by_test_id("phrase-good-luck").click()
    said(nikos.page, PHRASES["en"])
    said(eleni.page, PHRASES["en"])
    nikos.page.get_by_test_id("lang").select_option("el")
    said(nikos.page, PHRASES["el"])
    expect(nikos.page.get_by_test_id("phrase-good-luck")).to_have_text(PHRASES["el"])
    nikos.page.get_by_test_id("lang").select_option("en")

    # lines of text between two signed-in players: markup and hidden characters are text
    for text in (HOSTILE, HIDDEN):
        eleni.page.get_by_test_id("chat-text").fill(text)
        eleni.page.get_by_test_id("chat-send").click()
    said(nikos.page, HOSTILE)
    said(nikos.page, "abcdefghi")  # the override and the zero-width space taken out
    for page in (eleni.page, nikos.page):
        assert page.locator("#chat-lines img, #chat-lines svg, #chat-lines script").count() == 0
        assert all("\u202e" not in line and "\u200b" not in line for line in lines(page))
        assert page.locator("[data-testid=chat-line]").first.get_attribute("dir") == "auto"

    # the spectators' room: the guest spectator (his name is markup) says a phrase; he may not write
    expect(watcher.page.get_by_test_id("chat-title")).to_have_text("Spectators' chat")
    expect(watcher.page.get_by_test_id("chat-form")).to_be_hidden()
    expect(watcher.page.get_by_test_id("chat-note")).to_be_visible()
    watcher.page.get_by_test_id("phrase-nice-roll").click()
    said(watcher.page, SPECTATORS_PHRASE["en"])
    assert watcher.page.locator("#chat-lines .who").last.text_content() == HOSTILE_NAME
    assert watcher.page.locator("#chat-lines svg, #chat-lines img").count() == 0
    # the players never read it during the match: a later line of theirs comes after it would have
    nikos.page.get_by_test_id("phrase-well-played").click()
    said(eleni.page, "Well played!")
    assert not any(SPECTATORS_PHRASE["en"] in line for line in lines(eleni.page) + lines(nikos.page))
    assert not any("Well played!" in line for line in lines(watcher.page))

    def player(page: Page, screen: Screen) -> None:
        expect(page.get_by_test_id("phrase-good-luck")).to_have_text(PHRASES[screen.lang])
        expect(page.locator("[data-testid=chat-what]").first).to_have_text(PHRASES[screen.lang])
        assert on_screen(page, "#board"), screen
        assert on_screen(page, "[data-testid=controls]"), screen  # the buttons to move, on the first screen
        if not screen.phone:  # beside the board, the move list where it was
            box, board = page.get_by_test_id("chat").bounding_box(), page.locator("#board").bounding_box()
            assert box is not None and board is not None and box["x"] >= board["x"] + board["width"]
            assert on_screen(page, "[data-testid=moves]") or on_screen(page, "#opening")
        else:  # under the board and its buttons
            chat = page.get_by_test_id("chat").bounding_box()
            controls = page.get_by_test_id("controls").bounding_box()
            assert chat is not None and controls is not None and chat["y"] >= controls["y"] + controls["height"] - 1
        assert sideways(page) <= 0, screen
        page.get_by_test_id("chat").scroll_into_view_if_needed()
        shoot(page, f"chat-player-{screen.size}-{screen.lang}")
        page.evaluate("window.scrollTo(0, 0)")

    nikos.look(player, "document.querySelectorAll('[data-testid=chat-line]').length >= 4")

    def spectator(page: Page, screen: Screen) -> None:
        expect(page.locator("[data-testid=chat-what]").last).to_have_text(SPECTATORS_PHRASE[screen.lang])
        assert on_screen(page, "#board"), screen
        assert sideways(page) <= 0, screen
        page.get_by_test_id("chat").scroll_into_view_if_needed()
        shoot(page, f"chat-spectator-{screen.size}-{screen.lang}")
        page.evaluate("window.scrollTo(0, 0)")

    watcher.look(spectator, "document.querySelectorAll('[data-testid=chat-line]').length >= 1")

    # Nikos hides written messages: kept across a reload; the phrases stay
    page = nikos.page
    for each in (page, eleni.page):
        show_in(each, "en")
    page.get_by_test_id("chat-text-off").check()
    expect(page.locator("[data-testid=chat-what]", has_text=HOSTILE)).to_have_count(0)
    page.reload(wait_until="commit")
    said(page, "Well played!")
    expect(page.get_by_test_id("chat-text-off")).to_be_checked()
    expect(page.locator("[data-testid=chat-what]", has_text=HOSTILE)).to_have_count(0)
    expect(page.get_by_test_id("chat-form")).to_be_hidden()
    page.get_by_test_id("chat-text-off").uncheck()
    said(page, HOSTILE)

    # he mutes Eleni: her lines no longer reach him (his own still do), kept after a reload
    page.get_by_test_id("chat-mute").check()
    page.wait_for_function("[...document.querySelectorAll('#chat-lines li')]"
                           ".some((e) => e.textContent.includes('muted'))")
    eleni.page.get_by_test_id("phrase-oops").click()
    said(eleni.page, "Oops!")
    page.get_by_test_id("phrase-hello").click()
    said(page, "Hello!")
    said(eleni.page, "Hello!")
    assert not any("Oops!" in line for line in lines(page))
    page.reload(wait_until="commit")
    said(page, "Hello!")
    expect(page.get_by_test_id("chat-mute")).to_be_checked()
    assert not any("Oops!" in line or PHRASES["en"] in line for line in lines(page))

    # and reports her
    page.get_by_test_id("report-open").click()
    expect(page.get_by_test_id("report-title")).to_have_text("Report Eleni")
    page.get_by_test_id("report-reason").select_option("abuse")
    page.get_by_test_id("report-note").fill(HOSTILE)
    shoot(page, "chat-report-1366x768-en")
    page.get_by_test_id("report-send").click()
    expect(page.get_by_test_id("toast")).to_contain_text("moderator")
    assert isinstance(server.db, Path)
    with sqlite3.connect(server.db) as conn:
        rows = conn.execute("SELECT reported, reason, note, status, match_id FROM reports").fetchall()
    assert ("Eleni", "abuse", HOSTILE, "open", links["match"]) in rows

    assert dialogs == [] and errors == [], (dialogs, errors)
