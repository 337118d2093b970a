"""The board page as two people meet it, in a real browser (Debian's chromium, Playwright, ``tavli
serve``) at a laptop's size and a phone's, upright and sideways, in English and Greek: both clocks
and whose turn it is on a phone's first screen in every state of a clocked match, the move list on
a laptop's; a match lost on time says whose time ran out and offers a rematch; a rated match's card
says how both ratings moved (or why none did); a lobby match waits for its named opponent; an
aborted match says who aborted it; a bot's match has no invitation; names rather than colours, and
no "connected" for oneself. Each state is photographed under artifacts/screenshots/
(``defects-*``)."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tavli.rating import Rating, match_weight, rate_match
from tests.test_web_accounts import choose_a_play_each
from tests.test_web_browser import start_match, state

SHOTS = Path(os.environ.get("TAVLI_SHOTS", Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"))
SIZES = [(1366, 768), (390, 844), (844, 390)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
PASSWORD = "correct horse battery"
ADDRESSES = (f"198.51.100.{n}" for n in itertools.count(1))
"""Each person's own address (documentation's addresses): the server counts sign-ups per address."""
NAMES = iter(["Maria", "Giorgos", "Sofia", "Kostas", "Petros", "Zoe", "Yannis", "Irini", "Dimitris", "Katerina",
              "Manolis", "Despina", "Stavros", "Chrysa"])
"""Account names, each used once on the module's server (never a guest's name of these tests: only an
account's player plays under it)."""

CONNECTED = {"en": "connected", "el": "συνδεδεμένος"}
TO_PLAY = {"en": "{who} to play", "el": "Παίζει: {who}"}
TIME_YOURS = {"en": "your time ran out", "el": "τελείωσε ο χρόνος σας"}
TIME_NAMED = {"en": "{who}'s time ran out", "el": "τελείωσε ο χρόνος του αντιπάλου ({who})"}
REMATCH_OFFERED = {"en": "{who} offers a rematch with the colours swapped",
                   "el": "{who} προτείνει ρεβάνς με αλλαγμένα χρώματα"}
RESIGNED_YOURS = {"en": "you resigned the match", "el": "παραιτηθήκατε από τον αγώνα"}
RESIGNED_NAMED = {"en": "{who} resigned the match", "el": "ο αντίπαλος ({who}) παραιτήθηκε από τον αγώνα"}
RATINGS = {"en": "Ratings, Portes: {moves}", "el": "Βαθμολογίες, Πόρτες: {moves}"}
NOT_RATED = {"en": "Rated, but no rating moved: the match was decided before both players had made a play",
             "el": "Με βαθμολογία, αλλά καμία βαθμολογία δεν άλλαξε: ο αγώνας κρίθηκε πριν κάνουν"}
AWAIT_NAMED = {"en": "Waiting for {who} to connect", "el": "Περιμένουμε να συνδεθεί ο αντίπαλός σας, {who}"}
ABORTED_YOURS = {"en": "You aborted the match", "el": "Ακυρώσατε τον αγώνα"}
ABORTED_NAMED = {"en": "{who} aborted the match", "el": "{who} ακύρωσε τον αγώνα"}


@pytest.fixture(scope="module")
def server(proxied_server: Server) -> Server:
    return proxied_server



def person(browser: Browser, made: list[BrowserContext], lang: str, width: int, height: int,
           name: str | None = None) -> Page:
    """A page of a new person (his own cookies, storage and address) who reads ``lang`` and gives
    ``name`` as his own (the start page's field, and the board's hello)."""
    phone = min(width, height) < 500
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone,
                              locale="el-GR" if lang == "el" else "en-GB",
                              extra_http_headers={"X-Forwarded-For": next(ADDRESSES)})
    made.append(ctx)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    keep = {"tavli:lang": lang} | ({"tavli:name": name} if name else {})
    page.add_init_script(f"for (const [k, v] of Object.entries({json.dumps(keep)})) localStorage.setItem(k, v);")
    return page


def shoot(page: Page, name: str) -> None:
    """The screen as the player sees it, kept to be looked at; nothing scrolls sideways."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"), name
    page.screenshot(path=str(SHOTS / f"defects-{name}.png"), animations="disabled")


def on_screen(page: Page, selector: str) -> bool:
    """Whether one of the elements ``selector`` finds is shown, whole, on the first screen."""
    size = page.viewport_size
    assert size is not None
    for found in page.locator(selector).all():
        box = found.bounding_box()
        if found.is_visible() and box is not None and box["x"] >= -0.5 and box["y"] >= -0.5 \
                and box["x"] + box["width"] <= size["width"] + 0.5 and box["y"] + box["height"] <= size["height"] + 0.5:
            return True
    return False


def make_match(page: Page, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/matches`` from ``page`` (with its cookies): the new match's links."""
    page.goto(url + "/rules")
    made = page.evaluate("""async (body) => (await fetch('/api/matches', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})).json()""", body)
    assert "match" in made, made
    return dict(made)


def both_begun(*pages: Page) -> None:
    for page in pages:
        page.wait_for_function("(s => s && s.type === 'state' && !s.waiting && (!s.clock || s.clock.started))"
                               "(window.tavliState)")


def first_screen(page: Page, name: str, shot: bool = True) -> None:
    """The board, both clocks, whose turn it is and the status line are all on the first screen
    (``shot``: photographed)."""
    s = state(page)
    assert on_screen(page, "#board"), name
    for color in ("white", "black"):
        assert on_screen(page, f"[data-testid=clock-{color}], [data-testid=strip-clock-{color}]"), (name, color)
    assert on_screen(page, f"#player-{s['turn']}.on-turn, #chip-{s['turn']}.on-turn"), (name, "whose turn")
    assert on_screen(page, "[data-testid=status]"), name
    if shot:
        shoot(page, name)


def in_step(pages: dict[str, Page]) -> None:
    """Both boards have the last action (and whoever is on turn now knows it)."""
    seq = max(state(page)["seq"] for page in pages.values())
    for page in pages.values():
        page.wait_for_function(f"window.tavliState.seq >= {seq}")


def last_move_on_screen(page: Page) -> bool:
    return on_screen(page, "[data-testid=moves] li:last-child")


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_both_clocks_and_the_turn_stay_on_the_first_screen(server: Server, browser: Browser,
                                                          contexts: list[BrowserContext], lang: str,
                                                          width: int, height: int) -> None:
    eleni = person(browser, contexts, lang, width, height, "Eleni")
    nikos = person(browser, contexts, lang, width, height, "Nikos")
    start_match(eleni, server.url, "friend", length="3")  # the café's clock, between people
    nikos.goto(eleni.locator("[data-testid=share-friend]").input_value())
    both_begun(eleni, nikos)
    pages = {state(eleni)["you"]: eleni, state(nikos)["you"]: nikos}
    names = {state(eleni)["you"]: "Eleni", state(nikos)["you"]: "Nikos"}
    size = f"{width}x{height}-{lang}"
    for turn in range(3):
        mover_seat = state(eleni)["turn"]
        mover, waiter = pages[mover_seat], pages["black" if mover_seat == "white" else "white"]
        first_screen(mover, f"clocks-before-roll-{size}", shot=turn == 0)
        first_screen(waiter, f"clocks-waiting-{size}", shot=turn == 0)
        # the opponent named, not his colour
        expect(waiter.get_by_test_id("status")).to_contain_text(TO_PLAY[lang].format(who=names[mover_seat]))
        seq = state(mover)["seq"]
        mover.get_by_test_id("roll").click()
        mover.wait_for_function(f"(s => s.seq > {seq} && (s.can_play || s.turn !== '{mover_seat}'))"
                                "(window.tavliState)")
        if not state(mover)["can_play"]:  # a roll that could not be played: the turn has passed
            in_step(pages)
            continue
        first_screen(mover, f"clocks-rolled-{size}", shot=turn == 2)  # with moves in the list
        if turn and width > 1000:  # the move list beside the board, under the typed move
            assert last_move_on_screen(mover), "the move list on the first screen"
        mover.locator(".point.source").first.click()
        mover.locator(".point.target").first.click()
        expect(mover.get_by_test_id("undo")).to_be_visible()
        first_screen(mover, f"clocks-moving-{size}", shot=turn == 0)
        seq = state(mover)["seq"]
        for _ in range(4):
            if mover.get_by_test_id("confirm").is_visible():
                break
            if mover.locator(".point.selected").count() == 0:
                mover.locator(".point.source").first.click()
            mover.locator(".point.target").first.click()
        mover.get_by_test_id("confirm").click()
        mover.wait_for_function(f"window.tavliState.seq > {seq}")
        in_step(pages)


def lost_on_time(browser: Browser, made: list[BrowserContext], url: str, lang: str, width: int,
                 height: int) -> tuple[dict[str, Page], dict[str, str], str]:
    """A 1-point match of Eleni (White) and Nikos with a second of reserve, which the first to move
    lets run out: the pages and names by seat, and the seat that lost on time."""
    eleni = person(browser, made, lang, width, height, "Eleni")
    nikos = person(browser, made, lang, width, height, "Nikos")
    links = make_match(eleni, url, {"opponent": "friend", "seat": "white", "length": 1, "games": "portes",
                                    "name": "Eleni", "clock": {"delay": 0, "reserve": 1}})
    eleni.goto(url + links["play"])
    nikos.goto(url + links["friend"])
    pages = {"white": eleni, "black": nikos}
    for page in pages.values():
        page.wait_for_function("window.tavliState && window.tavliState.over", timeout=60_000)
    winner = state(eleni)["winner"]
    assert state(eleni)["games"][0]["result"]["why"] == "time"
    return pages, {"white": "Eleni", "black": "Nikos"}, "black" if winner == "white" else "white"


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_a_match_lost_on_time_says_whose_time_and_offers_a_rematch(server: Server, browser: Browser,
                                                                  contexts: list[BrowserContext], lang: str,
                                                                  width: int, height: int) -> None:
    pages, names, loser = lost_on_time(browser, contexts, server.url, lang, width, height)
    winner = "black" if loser == "white" else "white"
    size = f"{width}x{height}-{lang}"
    # whose time it was: to the loser his own, to the winner his opponent's, by name
    expect(pages[loser].get_by_test_id("match-over-last")).to_contain_text(TIME_YOURS[lang])
    expect(pages[winner].get_by_test_id("match-over-last")).to_contain_text(
        TIME_NAMED[lang].format(who=names[loser]))
    for page in pages.values():
        expect(page.get_by_test_id("rematch")).to_be_visible()
    shoot(pages[loser], f"time-lost-{size}")
    shoot(pages[winner], f"time-won-{size}")
    old = state(pages[winner])["match"]
    pages[loser].get_by_test_id("rematch").click()
    expect(pages[winner].get_by_test_id("rematch-status")).to_have_text(
        REMATCH_OFFERED[lang].format(who=names[loser]))
    shoot(pages[winner], f"time-rematch-offered-{size}")
    pages[winner].get_by_test_id("rematch-accept").click()
    for page in pages.values():  # both on to the rematch
        page.wait_for_function(f"window.tavliState && window.tavliState.match !== {old!r}")


def sign_up(page: Page, url: str, name: str) -> None:
    """A new account, signed in on this person's browser."""
    page.goto(url + "/rules")
    status = page.evaluate("""async ([name, password]) => (await fetch('/api/accounts', {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name, password})})).status""",
                           [name, PASSWORD])
    assert status == 201


def rating_change(before: float, after: float, lang: str) -> str:
    """A player's rating as the card writes it: 1500 → 1662 (+162.3)."""
    after, before = round(after, 1), round(before, 1)
    change = after - before
    figure = f"{abs(change):.1f}"
    return (f"{int(before + 0.5)} → {int(after + 0.5)} ({'+' if change >= 0 else '−'}"
            f"{figure.replace('.', ',') if lang == 'el' else figure})")


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_a_rated_matchs_card_says_how_both_ratings_moved(server: Server, browser: Browser,
                                                        contexts: list[BrowserContext], lang: str,
                                                        width: int, height: int) -> None:
    real = width != 844  # sideways: resigned at once, so rated but moving no rating (docs/ratings.md)
    white_name, black_name = next(NAMES), next(NAMES)
    white = person(browser, contexts, lang, width, height)
    black = person(browser, contexts, lang, width, height)
    sign_up(white, server.url, white_name)
    sign_up(black, server.url, black_name)
    links = make_match(white, server.url, {"opponent": "friend", "seat": "white", "length": 1, "games": "portes",
                                           "rated": True, "clock": "none"})
    white.goto(server.url + links["play"])
    black.goto(server.url + links["friend"])
    both_begun(white, black)
    if real:
        choose_a_play_each({"white": white, "black": black})
    black.get_by_test_id("resign").click()
    black.get_by_test_id("resign-match").click()
    black.get_by_test_id("resign-match-yes").click()
    for page in (white, black):
        page.wait_for_function("window.tavliState.over")
    expect(black.get_by_test_id("match-over-last")).to_contain_text(RESIGNED_YOURS[lang])
    expect(white.get_by_test_id("match-over-last")).to_contain_text(RESIGNED_NAMED[lang].format(who=black_name))
    if real:
        new_white, new_black = rate_match(Rating(), Rating(), 1.0, weight=match_weight(1))
        moves = (f"{white_name} {rating_change(1500, new_white.rating, lang)} · "
                 f"{black_name} {rating_change(1500, new_black.rating, lang)}")
        expected = RATINGS[lang].format(moves=moves)
    else:
        expected = NOT_RATED[lang]
    size = f"{width}x{height}-{lang}"
    for page, who in ((white, "winner"), (black, "loser")):
        card = page.get_by_test_id("match-over-ratings")
        expect(card).to_be_visible()
        expect(card).to_contain_text(expected)
        shoot(page, f"rated-over-{who}-{size}")


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_a_lobby_match_waits_for_its_named_opponent(server: Server, browser: Browser,
                                                   contexts: list[BrowserContext], lang: str,
                                                   width: int, height: int) -> None:
    anna = person(browser, contexts, lang, width, height, "Anna")
    vasilis = person(browser, contexts, lang, width, height, "Vasilis")
    anna.goto(server.url + "/")
    expect(anna.get_by_test_id("lobby-counts")).not_to_be_empty()
    seek = anna.evaluate("""async () => (await fetch('/api/seeks', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Anna', length: 1, games: 'portes', clock: 'kafeneio'})})).json()""")
    vasilis.goto(server.url + "/rules")  # accepted from a page that does not follow him to the board
    seat = vasilis.evaluate("""async (id) => (await fetch(`/api/seeks/${id}/accept`, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Vasilis'})})).json()""",
                            seek["id"])
    anna.wait_for_url("**/match/**")
    anna.wait_for_function("window.tavliState && window.tavliState.waiting")
    expect(anna.get_by_test_id("waiting")).to_be_visible()
    expect(anna.get_by_test_id("waiting-text")).to_contain_text(AWAIT_NAMED[lang].format(who="Vasilis"))
    expect(anna.get_by_test_id("invite")).to_be_hidden()  # nothing to send: he has his link already
    expect(anna.locator("#share")).to_be_hidden()
    shoot(anna, f"lobby-waiting-{width}x{height}-{lang}")
    vasilis.goto(server.url + seat["play"])
    both_begun(anna, vasilis)
    expect(anna.get_by_test_id("waiting")).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_an_aborted_match_says_who_and_a_bots_match_has_no_invitation(server: Server, browser: Browser,
                                                                     contexts: list[BrowserContext], lang: str,
                                                                     width: int, height: int) -> None:
    eleni = person(browser, contexts, lang, width, height, "Eleni")
    nikos = person(browser, contexts, lang, width, height, "Nikos")
    links = make_match(eleni, server.url, {"opponent": "friend", "length": 3, "games": "portes", "name": "Eleni",
                                           "clock": "none"})
    eleni.goto(server.url + links["play"])
    nikos.goto(server.url + links["friend"])
    both_begun(eleni, nikos)
    mine, theirs = state(nikos)["you"], state(eleni)["you"]  # only the opponent's row says he is connected
    expect(nikos.locator(f"#player-{theirs} .name")).to_contain_text(CONNECTED[lang])
    expect(nikos.locator(f"#player-{mine} .name")).not_to_contain_text(CONNECTED[lang])
    nikos.get_by_test_id("abort").click()
    nikos.get_by_test_id("abort-yes").click()
    expect(nikos.get_by_test_id("match-over-last")).to_have_text(ABORTED_YOURS[lang])
    expect(eleni.get_by_test_id("match-over-last")).to_have_text(ABORTED_NAMED[lang].format(who="Nikos"))
    size = f"{width}x{height}-{lang}"
    shoot(eleni, f"aborted-by-other-{size}")
    # a bot's match: nobody to invite, so no invitation card; the spectators' link is a line at the foot
    start_match(eleni, server.url, "beginner", length="3")
    expect(eleni.locator("#share")).to_be_hidden()
    watch = eleni.get_by_test_id("share-watch").input_value()
    assert "#t=" in watch
    eleni.get_by_test_id("watch-line").scroll_into_view_if_needed()
    expect(eleni.get_by_test_id("watch-line")).to_be_visible()
    you = state(eleni)["you"]  # his own row says nothing of his connection, which he knows
    expect(eleni.locator(f"#player-{you} .name")).not_to_contain_text(CONNECTED[lang])
    eleni.evaluate("window.scrollTo(0, 0)")
    shoot(eleni, f"bot-match-{size}")
