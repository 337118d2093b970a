"""The tournaments' pages in a real browser (Debian's chromium, Playwright, ``tavli serve``): a
sit-and-go knockout of four, made and joined through the API by Ann, Bob and Cy, is on the start
page's box and on its own page, where a guest watches it live: Cy's join and Dora's (pressed on the
page) appear without a reload, Dora is taken to her board as the bracket is drawn, and the guest's
page draws the bracket (both semi-finals, the final to come), then Ann's win, marked, with the way
to its review. Cy's page marks his match with the way to his board. A Swiss made with the list
page's form lands on its page. The tournament's page and the list at 1366×768, 390×844 and 844×390
in English and Greek, photographed under artifacts/screenshots/ (``tournament-*``).

An eight-player sit-and-go knockout runs to its winner, its players driven by scripts (each takes
his seat by his session alone, and of two who come the weaker resigns), one of them never coming
to his board: a guest's page, open from before the start and never loaded again, shows the players
fill it up, the quarter-finals, each result as it comes, the forfeit in words, the later rounds and
the winner. Its final bracket is photographed at 1366×768 and 390×844 in both languages
(``tournament-knockout8-*``), and the winner's and the finalist's pages say their places."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_process import Server, resign_the_match

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect
from websockets.sync.client import ClientConnection, connect

from tests.browser_screens import LANGS, SETTLED, SIZES, new_page, shoot, sideways
from tests.test_web_accounts import latin_words
from tests.test_web_challenges import wait_online

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NAMES = ("Ann", "Bob", "Cy", "Dora")
TITLE = "Friday knockout"
LOADED = "document.body?.dataset.loaded === '1' && " + SETTLED
WAIT = 30_000  # ms: what the server does for another page reaches this one well within it


EIGHT = ("Eleni", "Fotis", "Giorgos", "Haris", "Irini", "Aristotelis", "Maria", "Nikos")
"""The eight-player knockout's players, the strongest first: of two who both come, the one named
first wins (the other resigns the match)."""
EIGHT_TITLE = "Eight at the kafeneio"
ABSENT = "Nikos"
"""He joins the eight-player knockout, and never comes to his board."""
FORFEIT_WAIT = 120_000  # ms: the forfeit time (15 s) and the next look at the tournament (every 2 s), with room
ROUND_TITLES = ("Quarter-finals", "Semi-finals", "Final")
HEAD = """() => ({
    status: document.getElementById('tour-status').textContent,
    winner: document.getElementById('tour-winner').hidden ? null : document.getElementById('tour-winner').textContent,
    count: document.getElementById('players-count').textContent,
    players: [...document.querySelectorAll('[data-testid=tour-player]')].map((item) => item.textContent)})"""
"""The head of a tournament's page and its players, as the page draws them."""
BRACKET = """() => [...document.querySelectorAll('#brackets [data-testid=bracket-round]')].map((round) => ({
    title: round.querySelector('.bracket-title').textContent,
    bouts: [...round.querySelectorAll('[data-testid=bout]')].map((bout) => ({
        match: bout.dataset.match ?? null,
        names: [...bout.querySelectorAll('.bout-name')].map((name) => name.textContent),
        won: bout.querySelector('.bout-side.won .bout-name')?.textContent ?? null,
        result: bout.querySelector('.bout-result')?.textContent ?? null}))}))"""
"""A knockout's main bracket as the page draws it: each round's title and boxes."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    yield s
    s.stop(signal.SIGKILL)


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own: eight sign-ups and the module's four are more than one address
    may make in an hour."""
    s = Server(tmp_path / "tavli.db")
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


def drawn_when(page: Page, read: str, test: str, arg: Any = None, timeout: float = WAIT) -> Any:
    """What ``read`` (a JavaScript function) finds on ``page`` once ``test`` (a JavaScript function of
    that and ``arg``) holds, read in the page's own turn: a live redraw replaces the elements."""
    found = page.wait_for_function(
        f"(arg) => {{ const seen = ({read})(); return ({test})(seen, arg) ? seen : false; }}", arg=arg, timeout=timeout)
    return found.json_value()


class Seat:
    """A player at his board: the match's WebSocket, his seat taken by his session alone (a hello
    without a token), and the newest state he has read."""

    def __init__(self, server: Server, match: str, cookie: str) -> None:
        self.ws: ClientConnection = connect(server.url.replace("http", "ws") + f"/ws/{match}",
                                            additional_headers={"Cookie": cookie}, open_timeout=60).__enter__()
        self.ws.send(json.dumps({"type": "hello"}))
        while (state := json.loads(self.ws.recv(timeout=60)))["type"] != "state":
            assert state["type"] != "error", state
        self.state: dict[str, Any] = state

    def resign(self) -> None:
        """He resigns the whole match, and leaves the board."""
        resign_the_match(self.ws, self.state)
        self.ws.close()


def paired(server: Server, tid: str, number: int, cookie: str) -> list[dict[str, Any]]:
    """The main bracket's round ``number``, once it is paired (the API asked again until then)."""
    for _ in range(600):
        shown = api(server, "GET", f"/api/tournaments/{tid}", cookie)
        found = [r for r in shown["rounds"] if r["stage"] == "main" and r["number"] == number]
        if found:
            return list(found[0]["pairings"])
        time.sleep(0.2)
    raise AssertionError(f"round {number} was never paired")


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


@pytest.mark.slow
def test_an_eight_player_knockout_runs_live_to_its_winner_with_a_forfeit(
        own_server: Server, browser: Browser, contexts: list[BrowserContext]) -> None:
    server = own_server
    seen: list[str] = []
    cookies = {name: server.sign_up(name) for name in EIGHT}
    made = api(server, "POST", "/api/tournaments", cookies[EIGHT[0]], {
        "name": EIGHT_TITLE, "format": "knockout", "length": 1, "games": "portes", "clock": "none",
        "max_players": 8, "start": "when-full", "forfeit_minutes": 0.25})
    tid = made["id"]
    guest = person(browser, contexts, server, None, seen=seen)
    opened(guest, server, f"/tournaments/{tid}")
    guest.evaluate("window.tavliKept = 'this page'")  # gone if the page were loaded again
    head = drawn_when(guest, HEAD, "(h) => h.players.length === 0")
    assert head["status"] == "Taking players · starts when full: 0 of 8 players"

    # the players fill it up, each shown as he joins; the eighth starts it
    for n, name in enumerate(EIGHT[:-1], 1):
        api(server, "POST", f"/api/tournaments/{tid}/join", cookies[name])
        head = drawn_when(guest, HEAD, "(h, n) => h.players.length === n", n)
        assert head["players"] == [f"{p} (1500)" for p in EIGHT[:n]]
        assert (head["status"], head["count"]) == (f"Taking players · starts when full: {n} of 8 players", f"{n} of 8")
    api(server, "POST", f"/api/tournaments/{tid}/join", cookies[EIGHT[-1]])

    strength = {name: k for k, name in enumerate(EIGHT)}
    for number in (1, 2, 3):
        pairs = paired(server, tid, number, cookies[EIGHT[0]])
        assert len(pairs) == 2 ** (3 - number) and all(p["black"] is not None for p in pairs)
        # everyone but the absent player comes to his board at once
        seats = {p["match"]: {name: Seat(server, p["match"], cookies[name])
                              for name in (p["white"], p["black"]) if name != ABSENT} for p in pairs}
        bracket = drawn_when(guest, BRACKET, "(b, want) => b.length === 3 && "
                             "JSON.stringify(b[want.at].bouts.map((x) => x.match)) === JSON.stringify(want.matches)",
                             {"at": number - 1, "matches": [p["match"] for p in pairs]})
        assert [r["title"] for r in bracket] == list(ROUND_TITLES)
        assert [x["names"] for x in bracket[number - 1]["bouts"]] == [[p["white"], p["black"]] for p in pairs]
        if number == 1:
            assert drawn_when(guest, HEAD, "(h) => h.status.startsWith('Being played')")["count"] == "8"
            assert [x["names"] for x in bracket[2]["bouts"]] == [["to be decided", "to be decided"]]
        for k, p in enumerate(pairs):
            if ABSENT in (p["white"], p["black"]):
                continue
            winner, loser = sorted((p["white"], p["black"]), key=strength.__getitem__)
            seats[p["match"]][loser].resign()
            seats[p["match"]][winner].ws.close()
            # the result, as it comes; the winner goes on to his box of the next round
            bracket = drawn_when(guest, BRACKET, "(b, m) => b[0] && b.flatMap((r) => r.bouts).find((x) => "
                                 "x.match === m)?.won", p["match"])
            bout = bracket[number - 1]["bouts"][k]
            assert (bout["won"], bout["result"]) == (winner, f"{winner} won (by resignation)")
            if number < 3:
                assert bracket[number]["bouts"][k // 2]["names"][k % 2] == winner
        if number == 1:  # the absent player's opponent waits at his board; the forfeit time passes
            k, p = next((k, p) for k, p in enumerate(pairs) if ABSENT in (p["white"], p["black"]))
            there = p["black"] if p["white"] == ABSENT else p["white"]
            bracket = drawn_when(guest, BRACKET, "(b, m) => b[0].bouts.find((x) => x.match === m)?.won",
                                 p["match"], timeout=FORFEIT_WAIT)
            bout = bracket[0]["bouts"][k]
            assert (bout["won"], bout["result"]) == (there, f"{there} won (the opponent did not come)")
            assert bracket[1]["bouts"][k // 2]["names"][k % 2] == there
            seats[p["match"]][there].ws.close()
            assert f"{ABSENT} (1500) withdrawn" in drawn_when(guest, HEAD, "(h) => h.players.length === 8")["players"]

    head = drawn_when(guest, HEAD, "(h) => h.winner !== null")
    assert (head["winner"], head["status"].split(" · ")[0]) == (f"Winner: {EIGHT[0]}", "Finished")
    final = drawn_when(guest, BRACKET, "(b) => b[2].bouts[0].won")[2]["bouts"][0]
    runner_up = next(name for name in final["names"] if name != EIGHT[0])
    assert final["won"] == EIGHT[0]
    assert guest.evaluate("window.tavliKept") == "this page"

    # the final bracket on a laptop and a phone, in both languages
    for lang in LANGS:
        for width, height in ((1366, 768), (390, 844)):
            look = guest if (lang, width) == ("en", 1366) else person(browser, contexts, server, None, lang, width,
                                                                      height, seen=seen)
            if look is not guest:
                opened(look, server, f"/tournaments/{tid}")
            expect(look.get_by_test_id("tour-winner")).to_be_visible()
            fits(look)
            # the final in view, a phone's bracket scrolled to it
            left, right = look.evaluate("""() => {
                const r = [...document.querySelectorAll('#brackets [data-testid=bracket-round]')].at(-1)
                    .getBoundingClientRect();
                return [r.left, r.right]; }""")
            assert left >= 0 and right <= width, (left, right)
            if lang == "el":
                expect(look.get_by_test_id("tour-winner")).to_have_text(f"Νικητής: {EIGHT[0]}")
                words = latin_words(look) - set(EIGHT) - set(EIGHT_TITLE.split()) - {"English"}  # the language switch
                assert words == set(), words
            shoot(look, f"tournament-knockout8-{lang}-{width}x{height}", full_page=True)

    # the winner's and the finalist's pages: the tournament, with the place of each
    for lang, name, place in (("en", EIGHT[0], "1st of 8"), ("el", runner_up, "2η θέση από 8")):
        page = person(browser, contexts, server, None, lang, seen=seen)
        opened(page, server, f"/@/{name}")
        line = page.get_by_test_id("player-tour")
        expect(line).to_have_count(1, timeout=WAIT)
        expect(line.get_by_test_id("player-tour-link")).to_have_text(EIGHT_TITLE)
        assert line.get_by_test_id("player-tour-link").get_attribute("href") == f"/tournaments/{tid}"
        expect(line.get_by_test_id("player-tour-place")).to_have_text(place)
        shoot(page, f"tournament-knockout8-player-{lang}", full_page=True)
    assert seen == [], seen
