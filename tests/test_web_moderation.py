"""The café's moderators in a real browser (Debian's chromium, Playwright, ``tavli serve``): Nikos,
made a moderator with ``tavli users moderator``, reads the reports on ``/moderation`` (Eleni's on
Troll, their match's chat with it, and a guest's on a guest), with markup in a note and in a chat
line shown as text and no dialog ever opening; he warns Troll, whose open page shows the notice
until he says "I understand" (it does not come back), closes his chat for 7 days, renames him (a
taken name refused in words first) and closes his account (his page says so, once); he dismisses
the guest's report, and the log lists it all, newest first. A plain account and a guest read only
that the page is the moderators'. The moderators' page and the notice card at 1366×768, 390×844
and 844×390 in English and Greek, photographed under artifacts/screenshots/ (``moderation-*``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Dialog, Page, expect
from websockets.sync.client import ClientConnection, connect

from tests.browser_screens import LANGS, SETTLED, SIZES, new_page, shoot, sideways
from tests.test_web_accounts import latin_words
from tests.test_web_challenges import card_fits, wait_online

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HOSTILE = "<img src=x onerror=alert(1)>"
MARKUP_LINE = "<b>you lose</b><script>alert(2)</script>"
WARNING = "Mind your words at the table <i>please</i>"
LOADED = "document.body.dataset.loaded === '1' && " + SETTLED
NAMES = ("Nikos", "Troll", "Eleni", "Plain", "Someone", "Troll7")
"""The names the pages show (and no other Latin word on a Greek page)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    yield s
    s.stop(signal.SIGKILL)


def request(server: Server, method: str, path: str, body: dict[str, Any] | None = None,
            cookie: str | None = None) -> tuple[int, Any]:
    """``method path`` with ``body`` as JSON and ``cookie``: the status and the JSON answer."""
    headers = {"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})}
    data = None if body is None else json.dumps(body).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(server.url + path, data, headers, method=method),
                                    timeout=60) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


def until(ws: ClientConnection, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The next message on ``ws`` that is ``done``."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=60))
        if done(message):
            return dict(message)
    raise AssertionError("no such message came")


def said(ws: ClientConnection, what: Callable[[dict[str, Any]], bool]) -> None:
    """Until ``ws`` hears a chat line that is ``what``."""
    until(ws, lambda m: m["type"] == "chat" and any(what(line) for line in m["lines"]))


def talked_match(server: Server, eleni: str, troll: str) -> str:
    """A match between Eleni (White) and Troll (Black), both signed in, with a few lines said at
    the table: Troll's line of markup among quick phrases. The match's id."""
    status, links = request(server, "POST", "/api/matches", {"opponent": "friend", "seat": "white", "length": 3,
                                                             "games": "portes"}, eleni)
    assert status in (200, 201), links
    address = server.url.replace("http", "ws") + f"/ws/{links['match']}"
    with connect(address, additional_headers={"Cookie": eleni}, open_timeout=60) as white, \
            connect(address, additional_headers={"Cookie": troll}, open_timeout=60) as black:
        for ws, link in ((white, links["play"]), (black, links["friend"])):
            ws.send(json.dumps({"type": "hello", "token": link.split("#t=", 1)[1]}))
            until(ws, lambda m: m["type"] == "state")
        white.send(json.dumps({"type": "say", "phrase": "hello"}))
        said(black, lambda line: line["phrase"] == "hello")
        black.send(json.dumps({"type": "say", "text": MARKUP_LINE}))
        said(white, lambda line: line["text"] == MARKUP_LINE)
        black.send(json.dumps({"type": "say", "phrase": "good-luck"}))
        said(white, lambda line: line["phrase"] == "good-luck")
    return str(links["match"])


def signed_in(browser: Browser, made: list[BrowserContext], server: Server, cookie: str | None, lang: str = "en",
              width: int = 1366, height: int = 768, seen: list[str] | None = None) -> Page:
    """A browser with ``cookie`` (None: a guest's), reading ``lang``; every dialog it would open
    and every error of its scripts go into ``seen``."""
    page = new_page(browser, made, lang, width, height)
    if cookie:
        key, value = cookie.split("=", 1)
        page.context.add_cookies([{"name": key, "value": value, "url": server.url}])
    if seen is not None:
        def opened(dialog: Dialog) -> None:
            seen.append(f"dialog: {dialog.message}")
            dialog.dismiss()
        page.on("dialog", opened)
        page.on("pageerror", lambda e: seen.append(f"error: {e}"))
    return page


def moderation(page: Page, server: Server) -> None:
    page.goto(server.url + "/moderation", wait_until="commit")
    page.wait_for_function(LOADED)


def report(page: Page, number: int) -> Any:
    return page.get_by_test_id(f"report-{number}")


def act(page: Page, number: int, button: str, fill: dict[str, str] | None = None, *, gone: bool = True) -> None:
    """Report ``number``'s action ``button`` (its form filled with ``fill``: test id → value),
    sent; with ``gone``, until the list, loaded again, no longer holds the report."""
    card = report(page, number)
    card.get_by_test_id(button).click()
    for testid, value in (fill or {}).items():
        field = card.get_by_test_id(testid)
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        elif field.get_attribute("type") == "checkbox":
            field.check()
        else:
            field.fill(value)
    if button != "mod-dismiss":
        card.get_by_test_id("mod-send").click()
    if gone:
        expect(card).to_have_count(0)


def test_a_moderator_reads_the_reports_and_acts_and_the_player_is_told(
        server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    cookies = {name: server.sign_up(name) for name in ("Nikos", "Troll", "Eleni", "Plain")}
    url = f"sqlite:///{server.db}"
    subprocess.run([sys.executable, "-m", "tavli.cli", "users", "moderator", "Nikos", "--database", url],
                   check=True, capture_output=True, timeout=120)
    match = talked_match(server, cookies["Eleni"], cookies["Troll"])
    reports = []
    for reason, note in (("abuse", HOSTILE), ("spam", ""), ("name", "That name!"), ("abuse", "again")):
        status, made = request(server, "POST", "/api/reports", {"name": "Troll", "match": match, "seat": "black",
                                                                "reason": reason, "note": note}, cookies["Eleni"])
        assert status == 201, made
        reports.append(made["report"])
    status, made = request(server, "POST", "/api/reports", {"name": "Someone", "reason": "other"})  # a guest's
    assert status == 201, made
    guest_report = made["report"]
    seen: list[str] = []

    # a plain account and a guest read one line; the account page has no way there for them
    for who in ("Plain", None):
        page = signed_in(browser, contexts, server, cookies[who] if who else None, seen=seen)
        moderation(page, server)
        expect(page.get_by_test_id("mod-forbidden")).to_have_text("This page is for the café's moderators.")
        expect(page.get_by_test_id("mod-reports-card")).to_be_hidden()
    page.goto(server.url + "/account", wait_until="commit")
    page.wait_for_function(SETTLED)
    expect(page.get_by_test_id("moderation-card")).to_be_hidden()

    # the moderator: a link from his account page, and the reports with the match's chat, as text
    mod = signed_in(browser, contexts, server, cookies["Nikos"], seen=seen)
    mod.goto(server.url + "/account", wait_until="commit")
    mod.get_by_test_id("moderation-link").click()
    mod.wait_for_url("**/moderation")
    mod.wait_for_function(LOADED)
    first = report(mod, reports[0])
    expect(first.get_by_test_id("report-note")).to_have_text(HOSTILE)
    expect(first.get_by_test_id("report-reason")).to_have_text("Insults or threats")
    expect(first.get_by_test_id("report-by")).to_have_text("Eleni")
    assert first.get_by_test_id("report-reported").locator("a").get_attribute("href") == "/@/Troll"
    assert first.get_by_test_id("report-board").get_attribute("href") == f"/match/{match}"
    assert first.get_by_test_id("report-review").get_attribute("href") == f"/match/{match}/review"
    expect(first.get_by_test_id("report-chat-what")).to_have_text(["Hello!", MARKUP_LINE, "Good luck!"])
    assert mod.locator("[data-testid=mod-reports] img, [data-testid=mod-reports] script:not([src]), "
                       "[data-testid=mod-reports] b").count() == 0
    guest = report(mod, guest_report)
    expect(guest.get_by_test_id("report-reported")).to_contain_text("Someone")
    expect(guest.locator("button")).to_have_count(1)  # a guest: nothing to do but dismiss
    expect(guest.get_by_test_id("mod-dismiss")).to_be_visible()

    # Troll has a page of the café open; Nikos warns him: the notice comes at once
    troll = signed_in(browser, contexts, server, cookies["Troll"], seen=seen)
    troll.goto(server.url + "/leaderboard", wait_until="commit")
    troll.wait_for_function(SETTLED)
    wait_online(server, "Troll")
    act(mod, reports[0], "mod-warn", {"mod-warn-words": WARNING})
    card = troll.get_by_test_id("notice-card")
    expect(card.get_by_test_id("notice-text")).to_have_text(WARNING)
    assert card.locator("i").count() == 0
    entry = mod.get_by_test_id("log-entry").first
    expect(entry).to_contain_text("Warned · Troll · by Nikos")
    expect(entry.get_by_test_id("log-note")).to_have_text(WARNING)

    # the notice on every screen, in both languages (it comes again on each page until he reads it)
    for lang in LANGS:
        for width, height in SIZES:
            other = signed_in(browser, contexts, server, cookies["Troll"], lang, width, height, seen=seen)
            other.goto(server.url + "/leaderboard", wait_until="commit")
            other.wait_for_function(SETTLED)
            expect(other.get_by_test_id("notice-card")).to_have_count(1)
            expect(other.get_by_test_id("notice-seen")).to_have_text("I understand" if lang == "en" else "Κατάλαβα")
            card_fits(other, "notice-card")
            shoot(other, f"moderation-notice-{lang}-{width}x{height}")
            other.context.close()

    # the moderator's page on every screen, in both languages: a form open, the log under it
    for lang in LANGS:
        for width, height in SIZES:
            look = signed_in(browser, contexts, server, cookies["Nikos"], lang, width, height, seen=seen)
            moderation(look, server)
            report(look, reports[1]).get_by_test_id("mod-mute").click()
            expect(report(look, reports[1]).get_by_test_id("mod-mute-days")).to_be_visible()
            assert sideways(look) == 0, (lang, width, height)
            if lang == "el":
                words = latin_words(look) - set(NAMES) - {"img", "src", "onerror", "alert", "you", "lose", "script",
                                                          "Mind", "your", "words", "at", "the", "table", "please",
                                                          "That", "name", "again", "English"}
                assert words == set(), words
            shoot(look, f"moderation-page-{lang}-{width}x{height}", full_page=True)
            look.context.close()

    # he reads it: gone, and not sent again
    troll.get_by_test_id("notice-seen").click()
    expect(troll.get_by_test_id("notice-card")).to_have_count(0)
    troll.reload(wait_until="commit")
    troll.wait_for_function(SETTLED)
    wait_online(server, "Troll")

    # his chat closed for 7 days: the one notice he has not read is that one
    act(mod, reports[1], "mod-mute", {"mod-mute-days": "7", "mod-reason": "flooding"})
    expect(troll.get_by_test_id("notice-text")).to_contain_text("A moderator has closed your chat until")
    expect(troll.get_by_test_id("notice-reason")).to_have_text("The moderator's reason: flooding")
    expect(troll.get_by_test_id("notice-card")).to_have_count(1)  # the warning he read stays read
    card_fits(troll, "notice-card")
    shoot(troll, "moderation-notice-mute-en-1366x768")
    expect(report(mod, reports[2]).get_by_test_id("report-state")).to_contain_text("chat closed until")
    expect(report(mod, reports[2]).get_by_test_id("mod-unmute")).to_be_visible()
    troll.get_by_test_id("notice-seen").click()
    expect(troll.get_by_test_id("notice-card")).to_have_count(0)

    # renamed: a taken name is refused in words, then a free one; his header follows
    act(mod, reports[2], "mod-rename", {"mod-new-name": "Eleni"}, gone=False)
    expect(report(mod, reports[2]).get_by_test_id("report-error")).to_contain_text("taken")
    act(mod, reports[2], "mod-rename", {"mod-new-name": "Troll7", "mod-reason": "an offensive name"})
    expect(troll.get_by_test_id("notice-text")).to_have_text("A moderator has renamed your account to Troll7.")
    expect(troll.get_by_test_id("notice-reason")).to_have_text("The moderator's reason: an offensive name")
    troll.get_by_test_id("notice-seen").click()
    expect(troll.get_by_test_id("me")).to_have_text("Troll7")
    expect(report(mod, reports[3]).get_by_test_id("report-reported")).to_contain_text("Troll7")
    expect(report(mod, reports[3]).get_by_test_id("report-reported")).to_contain_text("Troll")

    # closed: his page says so, once, and he is a guest there
    wait_online(server, "Troll7")
    act(mod, reports[3], "mod-close", {"mod-close-sure": "yes"})
    expect(troll.get_by_test_id("account-closed")).to_have_text("This account was closed by a moderator.Close")
    expect(troll.get_by_test_id("log-in")).to_be_visible()
    expect(troll.get_by_test_id("account-closed")).to_have_count(1)
    card_fits(troll, "account-closed")
    shoot(troll, "moderation-closed-en-1366x768")

    # the guest's report dismissed; the log, newest first
    act(mod, guest_report, "mod-dismiss")
    expect(mod.get_by_test_id("mod-no-reports")).to_be_visible()
    expect(mod.get_by_test_id("log-entry")).to_have_count(5)
    assert [e.get_attribute("data-action") for e in mod.get_by_test_id("log-entry").all()] == \
        ["dismiss", "close", "rename", "mute", "warn"]
    expect(mod.get_by_test_id("log-entry").nth(2)).to_contain_text("Renamed Troll → Troll7")
    expect(mod.get_by_test_id("log-entry").nth(3)).to_contain_text("Chat closed for 7 days")
    assert seen == [], seen
