"""The board page as two people meet it, in a real browser (Debian's chromium, Playwright, ``tavli
serve``) at a laptop's size and a phone's, upright and sideways, in English and Greek: both clocks
and whose turn it is on a phone's first screen in every state of a clocked match, the move list on
a laptop's; a match lost on time says whose time ran out and offers a rematch; a rated match's card
says how both ratings moved (or why none did); a lobby match waits for its named opponent; an
aborted match says who aborted it; a bot's match has no invitation; names rather than colours, and
no "connected" for oneself. Each state is photographed under artifacts/screenshots/
(``defects-*``). Each scenario is played once and looked at on every screen (``tests/browser_screens.py``)."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from typing import Any

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tavli.rating import Rating, match_weight, rate_match
from tests.browser_screens import SIZES, Screen, Screens, new_page, sideways
from tests.browser_screens import shoot as keep_shot
from tests.test_web_accounts import choose_a_play_each
from tests.test_web_browser import start_match, state

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



def person(browser: Browser, made: list[BrowserContext], name: str | None = None) -> Screens:
    """A new person (his own cookies, storage and address) on a laptop in English, who gives
    ``name`` as his own (the start page's field, and the board's hello), and his twins for the
    other screens."""
    page = new_page(browser, made, "en", *SIZES[0], timeout=30_000, headers={"X-Forwarded-For": next(ADDRESSES)},
                    keep={"tavli:name": name} if name else {})
    return Screens(page, made)


def shoot(page: Page, name: str) -> None:
    """The screen as the player sees it, kept to be looked at; nothing scrolls sideways."""
    assert sideways(page) <= 0, name
    keep_shot(page, f"defects-{name}")


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


def test_both_clocks_and_the_turn_stay_on_the_first_screen(server: Server, browser: Browser,
                                                          contexts: list[BrowserContext]) -> None:
    eleni, nikos = person(browser, contexts, "Eleni"), person(browser, contexts, "Nikos")
    start_match(eleni.page, server.url, "friend", length="3")  # the café's clock, between people
    nikos.page.goto(eleni.page.locator("[data-testid=share-friend]").input_value())
    both_begun(eleni.page, nikos.page)
    people = {state(eleni.page)["you"]: eleni, state(nikos.page)["you"]: nikos}
    pages = {seat: who.page for seat, who in people.items()}
    names = {state(eleni.page)["you"]: "Eleni", state(nikos.page)["you"]: "Nikos"}
    for turn in range(3):
        mover_seat = state(eleni.page)["turn"]
        waiter_seat = "black" if mover_seat == "white" else "white"
        mover = pages[mover_seat]
        people[mover_seat].look(lambda page, screen, turn=turn: first_screen(
            page, f"clocks-before-roll-{screen.size}-{screen.lang}", shot=turn == 0))
        people[waiter_seat].look(lambda page, screen, turn=turn, who=names[mover_seat]: waits_for(page, screen, who,
                                                                                                  turn == 0))
        seq = state(mover)["seq"]
        mover.get_by_test_id("roll").click()
        mover.wait_for_function(f"(s => s.seq > {seq} && (s.can_play || s.turn !== '{mover_seat}'))"
                                "(window.tavliState)")
        if not state(mover)["can_play"]:  # a roll that could not be played: the turn has passed
            in_step(pages)
            continue
        people[mover_seat].look(lambda page, screen, turn=turn: rolled(page, screen, turn))
        # a step on every screen (the page's own, until the play is sent): the move list under way
        people[mover_seat].look(lambda page, screen, turn=turn: stepped(page, screen, turn))
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


def waits_for(page: Page, screen: Screen, mover: str, shot: bool) -> None:
    """The waiting player's first screen; the opponent to play named, not his colour."""
    first_screen(page, f"clocks-waiting-{screen.size}-{screen.lang}", shot=shot)
    expect(page.get_by_test_id("status")).to_contain_text(TO_PLAY[screen.lang].format(who=mover))


def rolled(page: Page, screen: Screen, turn: int) -> None:
    """The mover's first screen with the dice rolled (with moves in the list from turn 2)."""
    first_screen(page, f"clocks-rolled-{screen.size}-{screen.lang}", shot=turn == 2)
    if turn and screen.width > 1000:  # the move list beside the board, under the typed move
        assert last_move_on_screen(page), "the move list on the first screen"


def stepped(page: Page, screen: Screen, turn: int) -> None:
    """The mover's first screen once he has made a step (one, whichever size shows it)."""
    if not page.get_by_test_id("undo").is_visible():
        page.locator(".point.source").first.click()
        page.locator(".point.target").first.click()
    expect(page.get_by_test_id("undo")).to_be_visible()
    first_screen(page, f"clocks-moving-{screen.size}-{screen.lang}", shot=turn == 0)


def lost_on_time(browser: Browser, made: list[BrowserContext],
                 url: str) -> tuple[dict[str, Screens], dict[str, str], str]:
    """A 1-point match of Eleni (White) and Nikos with a second of reserve, which the first to move
    lets run out: the people and names by seat, and the seat that lost on time."""
    eleni, nikos = person(browser, made, "Eleni"), person(browser, made, "Nikos")
    links = make_match(eleni.page, url, {"opponent": "friend", "seat": "white", "length": 1, "games": "portes",
                                         "name": "Eleni", "clock": {"delay": 0, "reserve": 1}})
    eleni.page.goto(url + links["play"])
    nikos.page.goto(url + links["friend"])
    people = {"white": eleni, "black": nikos}
    for who in people.values():
        who.page.wait_for_function("window.tavliState && window.tavliState.over", timeout=60_000)
    winner = state(eleni.page)["winner"]
    assert state(eleni.page)["games"][0]["result"]["why"] == "time"
    return people, {"white": "Eleni", "black": "Nikos"}, "black" if winner == "white" else "white"


def test_a_match_lost_on_time_says_whose_time_and_offers_a_rematch(server: Server, browser: Browser,
                                                                  contexts: list[BrowserContext]) -> None:
    people, names, loser = lost_on_time(browser, contexts, server.url)
    winner = "black" if loser == "white" else "white"

    def over(seat: str, whose: Callable[[str], str]) -> Callable[[Page, Screen], None]:
        def check(page: Page, screen: Screen) -> None:
            expect(page.get_by_test_id("match-over-last")).to_contain_text(whose(screen.lang))
            expect(page.get_by_test_id("rematch")).to_be_visible()
            shoot(page, f"time-{'lost' if seat == loser else 'won'}-{screen.size}-{screen.lang}")
        return check

    # whose time it was: to the loser his own, to the winner his opponent's, by name
    people[loser].look(over(loser, lambda lang: TIME_YOURS[lang]))
    people[winner].look(over(winner, lambda lang: TIME_NAMED[lang].format(who=names[loser])))
    old = state(people[winner].page)["match"]
    people[loser].page.get_by_test_id("rematch").click()

    def offered(page: Page, screen: Screen) -> None:
        expect(page.get_by_test_id("rematch-status")).to_have_text(REMATCH_OFFERED[screen.lang].format(who=names[loser]))
        shoot(page, f"time-rematch-offered-{screen.size}-{screen.lang}")

    people[winner].look(offered)
    people[winner].page.get_by_test_id("rematch-accept").click()
    for who in people.values():  # both on to the rematch
        who.page.wait_for_function(f"window.tavliState && window.tavliState.match !== {old!r}")


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


@pytest.mark.parametrize("real", [True, False], ids=["played", "resigned-at-once"])
def test_a_rated_matchs_card_says_how_both_ratings_moved(server: Server, browser: Browser,
                                                        contexts: list[BrowserContext], real: bool) -> None:
    """Played (looked at on a laptop and a phone upright), or resigned at once, so rated but moving
    no rating (docs/ratings.md; looked at sideways)."""
    white_name, black_name = next(NAMES), next(NAMES)
    white, black = person(browser, contexts), person(browser, contexts)
    sign_up(white.page, server.url, white_name)
    sign_up(black.page, server.url, black_name)
    links = make_match(white.page, server.url, {"opponent": "friend", "seat": "white", "length": 1,
                                                "games": "portes", "rated": True, "clock": "none"})
    white.page.goto(server.url + links["play"])
    black.page.goto(server.url + links["friend"])
    both_begun(white.page, black.page)
    if real:
        choose_a_play_each({"white": white.page, "black": black.page})
    black.page.get_by_test_id("resign").click()
    black.page.get_by_test_id("resign-match").click()
    black.page.get_by_test_id("resign-match-yes").click()
    for who in (white, black):
        who.page.wait_for_function("window.tavliState.over")

    def card(who: str, result: Callable[[str], str]) -> Callable[[Page, Screen], None]:
        def check(page: Page, screen: Screen) -> None:
            expect(page.get_by_test_id("match-over-last")).to_contain_text(result(screen.lang))
            lang = screen.lang
            if real:
                new_white, new_black = rate_match(Rating(), Rating(), 1.0, weight=match_weight(1))
                moves = (f"{white_name} {rating_change(1500, new_white.rating, lang)} · "
                         f"{black_name} {rating_change(1500, new_black.rating, lang)}")
                expected = RATINGS[lang].format(moves=moves)
            else:
                expected = NOT_RATED[lang]
            ratings = page.get_by_test_id("match-over-ratings")
            expect(ratings).to_be_visible()
            expect(ratings).to_contain_text(expected)
            shoot(page, f"rated-over-{who}-{screen.size}-{lang}")
        return check

    sizes = SIZES[:2] if real else SIZES[2:]
    Screens(black.page, contexts, sizes).look(card("loser", lambda lang: RESIGNED_YOURS[lang]))
    Screens(white.page, contexts, sizes).look(card("winner", lambda lang: RESIGNED_NAMED[lang].format(who=black_name)))


def test_a_lobby_match_waits_for_its_named_opponent(server: Server, browser: Browser,
                                                   contexts: list[BrowserContext]) -> None:
    anna, vasilis = person(browser, contexts, "Anna"), person(browser, contexts, "Vasilis")
    anna.page.goto(server.url + "/")
    expect(anna.page.get_by_test_id("lobby-counts")).not_to_be_empty()
    seek = anna.page.evaluate("""async () => (await fetch('/api/seeks', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({name: 'Anna', length: 1, games: 'portes', clock: 'kafeneio'})})).json()""")
    vasilis.page.goto(server.url + "/rules")  # accepted from a page that does not follow him to the board
    seat = vasilis.page.evaluate("""async (id) => (await fetch(`/api/seeks/${id}/accept`, {method: 'POST',
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Vasilis'})})).json()""",
                                 seek["id"])
    anna.page.wait_for_url("**/match/**")
    anna.page.wait_for_function("window.tavliState && window.tavliState.waiting")

    def waiting(page: Page, screen: Screen) -> None:
        expect(page.get_by_test_id("waiting")).to_be_visible()
        expect(page.get_by_test_id("waiting-text")).to_contain_text(AWAIT_NAMED[screen.lang].format(who="Vasilis"))
        expect(page.get_by_test_id("invite")).to_be_hidden()  # nothing to send: he has his link already
        expect(page.locator("#share")).to_be_hidden()
        shoot(page, f"lobby-waiting-{screen.size}-{screen.lang}")

    anna.look(waiting)
    vasilis.page.goto(server.url + seat["play"])
    both_begun(anna.page, vasilis.page)
    anna.look(lambda page, screen: expect(page.get_by_test_id("waiting")).to_be_hidden())


def test_an_aborted_match_says_who_and_a_bots_match_has_no_invitation(server: Server, browser: Browser,
                                                                     contexts: list[BrowserContext]) -> None:
    eleni, nikos = person(browser, contexts, "Eleni"), person(browser, contexts, "Nikos")
    links = make_match(eleni.page, server.url, {"opponent": "friend", "length": 3, "games": "portes",
                                                "name": "Eleni", "clock": "none"})
    eleni.page.goto(server.url + links["play"])
    nikos.page.goto(server.url + links["friend"])
    both_begun(eleni.page, nikos.page)
    mine, theirs = state(nikos.page)["you"], state(eleni.page)["you"]

    def connected(page: Page, screen: Screen) -> None:  # only the opponent's row says he is connected
        expect(page.locator(f"#player-{theirs} .name")).to_contain_text(CONNECTED[screen.lang])
        expect(page.locator(f"#player-{mine} .name")).not_to_contain_text(CONNECTED[screen.lang])

    nikos.look(connected)
    nikos.page.get_by_test_id("abort").click()
    nikos.page.get_by_test_id("abort-yes").click()
    nikos.look(lambda page, screen: expect(page.get_by_test_id("match-over-last")).to_have_text(
        ABORTED_YOURS[screen.lang]))

    def aborted(page: Page, screen: Screen) -> None:
        expect(page.get_by_test_id("match-over-last")).to_have_text(ABORTED_NAMED[screen.lang].format(who="Nikos"))
        shoot(page, f"aborted-by-other-{screen.size}-{screen.lang}")

    eleni.look(aborted)
    # a bot's match: nobody to invite, so no invitation card; the spectators' link is a line at the foot
    start_match(eleni.page, server.url, "beginner", length="3")

    def bots_match(page: Page, screen: Screen) -> None:
        expect(page.locator("#share")).to_be_hidden()
        watch = page.get_by_test_id("share-watch").input_value()
        assert "#t=" in watch
        page.get_by_test_id("watch-line").scroll_into_view_if_needed()
        expect(page.get_by_test_id("watch-line")).to_be_visible()
        you = state(page)["you"]  # his own row says nothing of his connection, which he knows
        expect(page.locator(f"#player-{you} .name")).not_to_contain_text(CONNECTED[screen.lang])
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, f"bot-match-{screen.size}-{screen.lang}")

    eleni.look(bots_match)
