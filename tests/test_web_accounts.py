"""Accounts in a real browser (Debian's chromium, Playwright, ``tavli serve``): two people sign up
and play a rated match, and each player's page shows it with the ratings moved by Glicko-2; a
guest who signs up keeps his matches; a guest with a rated match's link is asked to log in; the
pages in English and Greek, on a laptop and a phone, photographed for a person to look at."""

from __future__ import annotations

import itertools
import math
import os
import re
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tavli.rating import Rating, match_weight, rate_match
from tests.browser_screens import SHOTS, SIZES

PASSWORD = "correct horse battery"


ADDRESSES = (f"203.0.113.{n}" for n in itertools.count(1))
"""Each person's own address (documentation's addresses): the server counts sign-ups per address,
and a module of tests signs up more people than one address may in an hour."""


@pytest.fixture(scope="module")
def server(proxied_server: Server) -> Server:
    return proxied_server



def person(browser: Browser, made: list[BrowserContext], lang: str, width: int = 1366, height: int = 768) -> Page:
    """A page of a new person, who reads ``lang``."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="el-GR" if lang == "el" else "en-GB",
                              extra_http_headers={"X-Forwarded-For": next(ADDRESSES)})
    made.append(ctx)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(20_000)
    return page


def sign_up(page: Page, url: str, name: str) -> None:
    page.goto(url + "/")
    page.click("[data-testid=sign-up]")
    page.fill("[data-testid=account-name]", name)
    page.fill("[data-testid=account-password]", PASSWORD)
    page.click("[data-testid=session-submit]")
    expect(page.locator("[data-testid=me]")).to_have_text(name)


def start_rated_match(page: Page) -> str:
    """A rated friend match to 1 point of Portes from the start page: the friend's link."""
    page.wait_for_selector("[data-testid=opponent] option[value=friend]", state="attached")
    page.select_option("[data-testid=opponent]", "friend")
    page.select_option("[data-testid=length]", "1")
    page.select_option("[data-testid=games]", "portes")
    page.check("[data-testid=rated]")
    page.click("[data-testid=start]")
    page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    expect(page.locator("[data-testid=rated-badge]")).to_be_visible()
    return page.locator("[data-testid=share-friend]").input_value()


def decimal(x: float, lang: str) -> str:
    text = f"{x:.1f}"
    return text.replace(".", ",") if lang == "el" else text


def change_text(before: float, after: float, lang: str) -> str:
    """The rating column of a player's match as the page writes it: 1662 (+162.3)."""
    after = round(after, 1)
    change = after - round(before, 1)
    return f"{math.floor(after + 0.5)} ({'+' if change >= 0 else '−'}{decimal(abs(change), lang)})"


def shown_state(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("window.tavliState"))


def move_by_clicks(page: Page) -> None:
    """A whole legal play by clicking checkers and highlighted points, then Confirm."""
    seq = shown_state(page)["seq"]
    for _ in range(8):
        if page.locator("[data-testid=confirm]").is_visible():
            break
        if page.locator(".point.selected").count() == 0:
            page.locator(".point.source").first.click()
        page.locator(".point.target").first.click()
    page.click("[data-testid=confirm]")
    page.wait_for_function(f"window.tavliState.seq > {seq}")


def choose_a_play_each(pages: dict[str, Page]) -> None:
    """Roll and play by clicks, turn after turn, until each player has made a play the dice did
    not force (one of more than one): a rated match is rated only then (docs/ratings.md)."""
    chose: set[str] = set()
    seq = max(shown_state(page)["seq"] for page in pages.values())
    while len(chose) < 2:
        for page in pages.values():  # both boards show the last action
            page.wait_for_function(f"window.tavliState.seq >= {seq}")
        mover = shown_state(next(iter(pages.values())))["turn"]
        page = pages[mover]
        page.wait_for_function("(s => s.can_roll || s.can_play)(window.tavliState)")
        now = shown_state(page)
        if now["can_roll"]:
            page.click("[data-testid=roll]")
            page.wait_for_function(f"(s => s.seq > {now['seq']} && (s.can_play || s.turn !== '{mover}'))"
                                   "(window.tavliState)")
            now = shown_state(page)
        if now["can_play"]:
            if len(now["legal"]["plays"]) > 1:
                chose.add(mover)
            move_by_clicks(page)
        seq = shown_state(page)["seq"]


def play_rated_match(browser: Browser, made: list[BrowserContext], url: str, names: tuple[str, str],
                     lang: str, size: tuple[int, int]) -> tuple[Page, Page]:
    """``names[0]`` makes a rated match, ``names[1]`` opens the link logged in, and once each has
    chosen a play he resigns it: their pages, each on his board at the match's end."""
    first, second = (person(browser, made, lang, *size) for _ in range(2))
    sign_up(first, url, names[0])
    link = start_rated_match(first)
    sign_up(second, url, names[1])
    second.goto(link)
    second.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    # the names of a rated match are its accounts': each a link to the player's page
    expect(second.locator(f".player a[href='/@/{quote(names[0])}']")).to_be_visible()
    expect(second.locator("[data-testid=rated-badge]")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    second.screenshot(path=str(SHOTS / f"board-rated-{lang}-{size[0]}x{size[1]}.png"), animations="disabled")
    choose_a_play_each({shown_state(page)["you"]: page for page in (first, second)})  # else it is not rated
    second.click("[data-testid=resign]")
    second.click("[data-testid=resign-match]")
    second.click("[data-testid=resign-match-yes]")  # asked again: the match goes for good
    for page in (first, second):
        expect(page.locator("[data-testid=match-over]")).to_be_visible()
    return first, second


@pytest.mark.parametrize(("lang", "width", "height"), [("en", 1366, 768), ("el", 390, 844)])
def test_a_rated_match_moves_both_ratings_on_the_players_pages(browser: Browser, server: Server,
                                                                contexts: list[BrowserContext],
                                                                lang: str, width: int, height: int) -> None:
    names = (f"Ελένη_{width}", f"Nikos_{width}")
    first, second = play_rated_match(browser, contexts, server.url, names, lang, (width, height))
    won, lost = rate_match(Rating(), Rating(), 1.0, weight=match_weight(1))
    sides = ((first, names[0], names[1], won, "won"), (second, names[1], names[0], lost, "lost"))
    for page, me, them, now, result in sides:
        page.goto(server.url + "/")
        page.click("[data-testid=me]")
        expect(page.locator("[data-testid=player-name]")).to_have_text(me)
        expect(page.locator("[data-testid=rating-shown-portes]")).to_have_text(now.display())
        assert now.display().endswith("?")  # one match: still provisional
        expect(page.locator("[data-testid=chart-portes] polyline")).to_have_count(1)
        row = page.locator("[data-testid=matches] tbody tr")
        expect(row).to_have_count(1)
        expect(row.locator("[data-testid=opponent] a")).to_have_attribute("href", f"/@/{quote(them)}")
        expect(row.locator("[data-testid=rating-change]")).to_have_text(change_text(1500, now.rating, lang))
        words = {"en": {"won": "won · rated", "lost": "lost · rated"},
                 "el": {"won": "νίκη · με βαθμολογία", "lost": "ήττα · με βαθμολογία"}}[lang]
        expect(row.locator("[data-testid=result]")).to_have_text(words[result])
        expect(page.locator("[data-testid=record-portes] td").nth(1 if result == "won" else 2)).to_have_text("1")
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing runs off sideways
        # the opponent's name leads to his page
        row.locator("[data-testid=opponent] a").click()
        expect(page.locator("[data-testid=player-name]")).to_have_text(them)
    # provisional ratings are listed on the leaderboard, marked and unranked
    first.goto(server.url + "/leaderboard?pool=portes")
    expect(first.locator("[data-testid=provisional-leaders]")).to_be_visible()
    expect(first.locator(f"[data-testid='leader-{names[0]}'] td").nth(0)).to_have_text("")


def test_a_guest_who_signs_up_keeps_his_matches(browser: Browser, server: Server,
                                                 contexts: list[BrowserContext]) -> None:
    page = person(browser, contexts, "en", 390, 844)
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=opponent] option[value=friend]", state="attached")
    expect(page.locator("[data-testid=rated]")).to_be_hidden()  # a guest makes no rated match
    page.select_option("[data-testid=opponent]", "friend")
    page.click("[data-testid=start]")
    page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    match = page.evaluate("window.tavliState.match")
    page.goto(server.url + "/")
    expect(page.locator("[data-testid=mine-list] li")).to_have_count(1)
    token = page.evaluate("match => localStorage.getItem(`tavli:mine:${match}`)", match)
    assert token  # the seat's token, kept by the board
    expect(page.locator("[data-testid=mine-list] [data-testid=resume]")).to_have_attribute(
        "href", f"/match/{match}#t={token}")
    page.click("[data-testid=sign-up]")
    page.fill("[data-testid=account-name]", "Guest_1")
    page.fill("[data-testid=account-password]", PASSWORD)
    page.click("[data-testid=session-submit]")
    expect(page.locator("[data-testid=me]")).to_have_text("Guest_1")
    expect(page.locator("[data-testid=mine-list] li")).to_contain_text("being played")  # from the player's page now
    page.click("[data-testid=my-page]")
    expect(page.locator(f"[data-testid=match-{match}] [data-testid=result]")).to_have_text("being played")
    # the board's link on his page opens his seat: this browser holds its token
    page.locator(f"[data-testid=match-{match}] a", has_text="Board").click()
    page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    assert page.evaluate("window.tavliState.you") in ("white", "black")


def test_a_guest_with_a_rated_link_is_asked_to_log_in_and_comes_back(browser: Browser, server: Server,
                                                                     contexts: list[BrowserContext]) -> None:
    maker, friend = person(browser, contexts, "en"), person(browser, contexts, "el", 390, 844)
    sign_up(maker, server.url, "Maker")
    link = start_rated_match(maker)
    friend.goto(link)
    expect(friend.locator("[data-testid=need-login]")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    friend.screenshot(path=str(SHOTS / "board-log-in-el-390x844.png"), animations="disabled")
    expect(friend.locator("[data-testid=need-login-text]")).to_have_text(
        "ο αγώνας έχει βαθμολογία: συνδεθείτε για να τον παίξετε")
    friend.click("[data-testid=need-login-link]")
    expect(friend.locator("[data-testid=session-form]")).to_be_visible()  # the form opens by itself
    friend.click("[data-testid=sign-up]")
    friend.fill("[data-testid=account-name]", "Φίλος")
    friend.fill("[data-testid=account-password]", PASSWORD)
    friend.click("[data-testid=session-submit]")
    friend.wait_for_url(f"**{link.split('#')[0]}*")  # back to the match
    friend.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    assert friend.evaluate("window.tavliState.players[window.tavliState.you].name") == "Φίλος"


def test_a_hostile_guest_name_is_shown_as_text(browser: Browser, server: Server,
                                               contexts: list[BrowserContext]) -> None:
    host, guest = person(browser, contexts, "en"), person(browser, contexts, "en", 390, 844)
    sign_up(host, server.url, "Host")
    host.select_option("[data-testid=opponent]", "friend")
    host.click("[data-testid=start]")
    host.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    hostile = "<img src=x onerror=f()>"  # a guest's name may be any 24 characters
    host.context.add_init_script("window.f = () => { window.pwned = 1; };")  # what markup would run
    guest.goto(server.url + "/")
    guest.evaluate("name => localStorage.setItem('tavli:name', name)", hostile)
    guest.goto(host.locator("[data-testid=share-friend]").input_value())
    host.wait_for_function(f"window.tavliState.players[window.tavliState.you === 'white' ? 'black' : 'white'].name"
                           f" === {hostile!r}")
    for page, path in ((host, "/@/Host"), (host, "/")):
        page.goto(server.url + path)
        where = "[data-testid=matches]" if path != "/" else "[data-testid=mine-list]"
        expect(page.locator(where)).to_contain_text(hostile)
        assert page.locator(f"{where} img").count() == 0 and page.evaluate("window.pwned") is None


def test_a_guests_name_is_marked_and_an_accounts_name_links_to_his_page(browser: Browser, server: Server,
                                                                       contexts: list[BrowserContext]) -> None:
    host, guest = person(browser, contexts, "en"), person(browser, contexts, "el")
    sign_up(host, server.url, "Marker")
    host.select_option("[data-testid=opponent]", "friend")
    host.click("[data-testid=start]")
    host.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    guest.goto(server.url + "/")
    guest.evaluate("name => localStorage.setItem('tavli:name', name)", "Ζωή")
    guest.goto(host.locator("[data-testid=share-friend]").input_value())
    host.wait_for_function("Object.values(window.tavliState.players).some(p => p.name === 'Ζωή' && !p.account)")
    for page, mark in ((host, "guest"), (guest, "επισκέπτης")):  # on both boards, in each one's language
        names = page.locator("[id^=player-] .name")
        expect(names.locator("a[href='/@/Marker']")).to_have_text("Marker")
        expect(names.locator(".guest-mark")).to_have_text(mark)
        expect(names.filter(has=page.locator(".guest-mark"))).to_contain_text("Ζωή")


def test_the_login_leads_back_only_to_this_server(browser: Browser, server: Server,
                                                  contexts: list[BrowserContext]) -> None:
    page = person(browser, contexts, "en")
    page.goto(server.url + "/?login&next=/%5Cexample.com/")  # a browser reads /\ as //
    expect(page.locator("[data-testid=session-form]")).to_be_visible()
    page.click("[data-testid=sign-up]")
    page.fill("[data-testid=account-name]", "Stays")
    page.fill("[data-testid=account-password]", PASSWORD)
    page.click("[data-testid=session-submit]")
    expect(page.locator("[data-testid=me]")).to_have_text("Stays")
    assert page.url.startswith(server.url + "/")


def test_account_page_changes_the_password_and_deletes_the_account(browser: Browser, server: Server,
                                                                   contexts: list[BrowserContext]) -> None:
    page = person(browser, contexts, "en")
    sign_up(page, server.url, "Leaving")
    page.click("[data-testid=account-link]")
    page.fill("[data-testid=old-password]", "not the password")
    page.fill("[data-testid=new-password]", "a new password")
    page.click("[data-testid=change-password]")
    expect(page.locator("[data-testid=password-said]")).to_have_text("wrong name or password")
    page.fill("[data-testid=old-password]", PASSWORD)
    page.click("[data-testid=change-password]")
    expect(page.locator("[data-testid=password-said]")).to_contain_text("The password is changed")
    page.fill("[data-testid=delete-password]", "a new password")
    page.click("[data-testid=delete-account]")  # not yet: the box is not ticked
    expect(page.locator("[data-testid=me]")).to_be_visible()
    page.check("[data-testid=delete-sure]")
    page.click("[data-testid=delete-account]")
    page.wait_for_url(server.url + "/")
    expect(page.locator("[data-testid=log-in]")).to_be_visible()
    page.goto(server.url + "/@/Leaving")
    expect(page.locator("[data-testid=missing]")).to_have_text("There is no such player.")


def latin_words(page: Page) -> set[str]:
    """The Latin-letter words the page shows (what is hidden, and codes, left out)."""
    text = page.evaluate("""() => {
        const clone = document.body.cloneNode(true);
        for (const node of clone.querySelectorAll('code, script, [hidden]')) node.remove();
        document.body.append(clone);
        const seen = clone.innerText;
        clone.remove();
        return seen;
    }""")
    return set(re.findall(r"[A-Za-z]{2,}", str(text)))


def settle(db: Path, names: list[str]) -> None:
    """Give ``names`` settled Tavli ratings, as many matches would, for the leaderboard to list."""
    with sqlite3.connect(db) as conn:
        for rank, name in enumerate(names):
            (account,) = conn.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()
            conn.execute("INSERT OR REPLACE INTO ratings VALUES (?, 'tavli', ?, ?, 0.06, ?, 0)",
                         (account, 1720.0 - 45 * rank, 62.0 + 9 * rank, 30 - 4 * rank))


def test_screenshots_of_the_account_pages(browser: Browser, server: Server,
                                          contexts: list[BrowserContext]) -> None:
    """The start page (logged out and in), the account page, a player's page, the leaderboard and a
    rated match's board, in
    both languages on a laptop, a phone and a phone on its side: nothing clipped or running off
    sideways (the pictures are for a person to look at)."""
    names = ("Αλέξανδρος_Παπαδόπουλος"[:20], "Long_name_player_20")
    first, _ = play_rated_match(browser, contexts, server.url, names, "en", (1366, 768))
    settle(Path(server.db), list(names))
    SHOTS.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "el"):
        for width, height in SIZES:
            page = person(browser, contexts, lang, width, height)
            shots = [("start-out", "/"), ("start-in", "/"), ("account", "/account"),
                     ("profile", f"/@/{names[0]}"), ("leaderboard", "/leaderboard"),
                     ("board-rated", first.url.removeprefix(server.url))]
            for shot, path in shots:
                if shot == "start-in":
                    page.context.add_cookies(first.context.cookies())
                page.goto(server.url + path)
                # the page in its words, and a player's page with his record (the start page's lobby
                # keeps a WebSocket and reconnects: the network is never idle to wait for)
                page.wait_for_function("document.querySelector('[data-i18n]:empty') === null")
                if shot == "profile":
                    page.wait_for_function("document.querySelectorAll('#record-rows tr').length > 0")
                if shot == "board-rated":
                    page.wait_for_function("window.tavliState && window.tavliState.over")
                    page.click("[data-testid=see-board]")  # the board under the result
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (shot, lang, width)
                if lang == "el":  # every word Greek, but for names: the players', a program's, the switch's English
                    assert latin_words(page) <= {"English", "GNU", "Backgammon", "Long", "name", "player"}, shot
                page.screenshot(path=str(SHOTS / f"{shot}-{lang}-{width}x{height}.png"), full_page=True,
                                animations="disabled")
