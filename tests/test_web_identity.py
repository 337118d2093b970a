"""Who the browser is, followed without a reload (Debian's chromium, Playwright, ``tavli serve``;
docs/cafe.md, "Lobby", and docs/web.md, "Seats, tokens and links"): the start page's lobby knows a player who has
just signed up, logged out or logged in (his seek is his own, and its match takes him to the
board), a seek he posted as a guest goes as he signs up; and a match in play follows its account
to another device: its board open there becomes his seat as he logs in, "My matches" and his page
offer it, while a guest still watches. At 1366x768, 390x844 and 844x390, in English and Greek,
photographed under artifacts/screenshots/ (``identity-*``)."""

from __future__ import annotations

import itertools
import os
from urllib.parse import quote

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser_screens import SHOTS, SIZES, each_size_once

PASSWORD = "correct horse battery"
ADDRESSES = (f"203.0.113.{n}" for n in itertools.count(1))
"""Each person's own address (documentation's addresses): the server counts sign-ups, seeks and
new matches per address."""


@pytest.fixture(scope="module")
def server(proxied_server: Server) -> Server:
    return proxied_server



def device(browser: Browser, made: list[BrowserContext], lang: str, width: int, height: int) -> Page:
    """A page of a new device, which reads ``lang``, at ``width``×``height``."""
    phone = width < 1000
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone,
                              locale="el-GR" if lang == "el" else "en-GB",
                              extra_http_headers={"X-Forwarded-For": next(ADDRESSES)})
    ctx.add_init_script(f"localStorage.setItem('tavli:lang', '{lang}')")
    made.append(ctx)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    return page


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name  # nothing runs off sideways
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


def start_page(page: Page, url: str) -> None:
    page.goto(url + "/")
    expect(page.get_by_test_id("lobby-counts")).not_to_be_empty()  # the lobby's connection is open


def through_the_bar(page: Page, kind: str, name: str) -> None:
    """Sign up (``kind`` "sign-up") or log in ("log-in") with the header's form: no reload."""
    page.click(f"[data-testid={kind}]")
    page.fill("[data-testid=account-name]", name)
    page.fill("[data-testid=account-password]", PASSWORD)
    page.click("[data-testid=session-submit]")
    expect(page.get_by_test_id("me")).to_have_text(name)


def seek_and_be_taken(seeker: Page, accepter: Page, url: str, shot: str) -> None:
    """The seeker posts a seek (his own: Cancel, never Accept), the accepter (someone not paired a
    moment ago: the lobby pairs nobody twice in 10 s) takes it from his start page, and both land
    on the board, the seeker by his lobby's word alone."""
    start_page(accepter, url)
    seeker.click("[data-testid=seek-post]")
    expect(seeker.get_by_test_id("seek-cancel")).to_have_count(1)
    expect(seeker.get_by_test_id("seek-accept")).to_have_count(0)
    expect(seeker.get_by_test_id("seek-waiting")).to_be_visible()
    expect(accepter.get_by_test_id("seek-accept")).to_have_count(1)
    # in the page's own turn: the lobby may draw its list again meanwhile (the players online)
    seeker.evaluate("document.querySelector('[data-testid=seek-cancel]')?.scrollIntoView({block: 'nearest'})")
    shoot(seeker, shot)
    accepter.click("[data-testid=seek-accept]")
    for page in (accepter, seeker):
        page.wait_for_url("**/match/**")
        page.wait_for_function("window.tavliState && window.tavliState.you !== 'spectator'")


@each_size_once()
def test_the_lobby_follows_a_sign_up_a_logout_and_a_login_without_a_reload(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str, width: int,
        height: int) -> None:
    anna = device(browser, contexts, lang, width, height)
    new, old = f"Anna_{lang}_{width}", f"Maria_{lang}_{width}"
    server.post("/api/accounts", {"name": old, "password": PASSWORD}, {"X-Forwarded-For": next(ADDRESSES)})
    start_page(anna, server.url)
    through_the_bar(anna, "sign-up", new)
    seek_and_be_taken(anna, device(browser, contexts, lang, width, height), server.url,
                      f"identity-seek-signed-up-{lang}-{width}x{height}")
    shoot(anna, f"identity-board-from-seek-{lang}-{width}x{height}")
    start_page(anna, server.url)
    anna.click("[data-testid=log-out]")
    expect(anna.get_by_test_id("log-in")).to_be_visible()
    seek_and_be_taken(anna, device(browser, contexts, lang, width, height), server.url,
                      f"identity-seek-logged-out-{lang}-{width}x{height}")
    # a seek posted as a guest, then a login: the guest's seek goes with him (nobody would be told
    # of its match), and the account's is his own
    start_page(anna, server.url)
    vasilis = device(browser, contexts, lang, width, height)
    start_page(vasilis, server.url)
    anna.click("[data-testid=seek-post]")
    expect(vasilis.get_by_test_id("seek-accept")).to_have_count(1)
    through_the_bar(anna, "log-in", old)  # another account: the lobby pairs nobody twice in 10 s
    expect(vasilis.get_by_test_id("seek")).to_have_count(0)
    expect(anna.get_by_test_id("seek")).to_have_count(0)
    seek_and_be_taken(anna, vasilis, server.url, f"identity-seek-logged-in-{lang}-{width}x{height}")


@each_size_once()
def test_a_match_in_play_follows_its_account_to_another_device(
        server: Server, browser: Browser, contexts: list[BrowserContext], lang: str, width: int,
        height: int) -> None:
    name = f"Eleni_{lang}_{width}"
    laptop = device(browser, contexts, lang, *SIZES[0])
    start_page(laptop, server.url)
    through_the_bar(laptop, "sign-up", name)
    laptop.select_option("[data-testid=opponent]", "beginner")
    laptop.select_option("[data-testid=length]", "3")
    laptop.click("[data-testid=start]")
    laptop.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
    seat = laptop.evaluate("window.tavliState.you")
    board = laptop.url.split("#")[0].removeprefix(server.url)
    # her phone, not logged in: the board by its address is a spectator's
    watching = device(browser, contexts, lang, width, height)
    watching.goto(server.url + board)
    watching.wait_for_function("window.tavliState && window.tavliState.you === 'spectator'")
    expect(watching.get_by_test_id("watching")).to_be_visible()
    # she logs in on another page of the phone: the board open there becomes her seat, no reload
    phone = watching.context.new_page()
    start_page(phone, server.url)
    through_the_bar(phone, "log-in", name)
    watching.wait_for_function(f"window.tavliState && window.tavliState.you === '{seat}'")
    expect(watching.get_by_test_id("watching")).to_be_hidden()
    shoot(watching, f"identity-board-after-login-{lang}-{width}x{height}")
    # "My matches" offers it, with no token of it on the phone
    resume = phone.get_by_test_id("my-matches").get_by_test_id("resume")
    expect(resume).to_have_count(1)
    expect(resume).to_have_attribute("href", board)
    resume.scroll_into_view_if_needed()
    shoot(phone, f"identity-my-matches-{lang}-{width}x{height}")
    resume.click()
    phone.wait_for_function(f"window.tavliState && window.tavliState.you === '{seat}'")
    expect(phone.get_by_test_id("watching")).to_be_hidden()
    shoot(phone, f"identity-board-resumed-{lang}-{width}x{height}")
    # her page too: the board of the match in play
    phone.goto(f"{server.url}/@/{quote(name)}")
    on_her_page = phone.locator(f"[data-testid=matches] a[href='{board}']")
    expect(on_her_page).to_have_count(1)
    on_her_page.scroll_into_view_if_needed()
    shoot(phone, f"identity-profile-{lang}-{width}x{height}")
    # anyone else watches: a guest by the same address, on his own device
    guest = device(browser, contexts, lang, width, height)
    guest.goto(server.url + board)
    guest.wait_for_function("window.tavliState && window.tavliState.you === 'spectator'")
    expect(guest.get_by_test_id("watching")).to_be_visible()
