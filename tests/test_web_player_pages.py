"""The players' pages in a real browser (Debian's chromium, Playwright, ``tavli serve``), in English
and Greek on a laptop, a phone and a phone on its side: a player's page counts as gammons only the
games won on the board and shows how the games ended; a match with no decision to analyse shows
"–" and stays off the error-rate chart; the leaderboard lists provisional players, marked, after
the settled ones; and a guest's "My matches" names the opponent, the games and the score. Each is
photographed under artifacts/screenshots/ for a person to look at."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from app_client import hello, play_until_both_chose, token_of, until
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect

from tests.browser_screens import SHOTS, each_size_once

Message = dict[str, Any]


class Socket:
    """A match's WebSocket on the real server, with the test client's ``send_json``/``receive_json``."""

    def __init__(self, server: Server, match_id: str, cookie: str | None = None) -> None:
        self.conn = server.socket(match_id, {"Cookie": cookie} if cookie else None)

    def __enter__(self) -> Socket:
        self.conn.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.conn.__exit__(None, None, None)

    def send_json(self, message: Message) -> None:
        self.conn.send(json.dumps(message))

    def receive_json(self) -> Message:
        return dict(json.loads(self.conn.recv(timeout=60)))


@dataclass
class Site:
    server: Server
    cookies: dict[str, str]
    winner_of_two: str
    """The player who won a game by a resignation for 2 points (and then the match, resigned)."""
    played: str
    """A match whose players each chose a play: each has an error rate."""
    at_once: str
    """A match resigned before a roll: nobody had a decision to analyse."""
    held: list[dict[str, str]]
    """A guest's seats: a private match against Nikos in play, a match lost to a bot."""


def get(server: Server, path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(server.url + path, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:
        return refused.code, None


def is_state(message: Message) -> bool:
    return bool(message["type"] == "state")


def friends_match(server: Server, cookie: str, **body: Any) -> Message:
    return server.post("/api/matches", {"opponent": "friend", "seat": "white", "clock": "none", **body},
                       {"Cookie": cookie})


def resign_two_then_the_match(server: Server, cookies: dict[str, str]) -> str:
    """A match to 3 whose first game is resigned for 2 points, then the match: its winner's name."""
    links = friends_match(server, cookies["Eleni"], length=3, games="portes")
    with Socket(server, links["match"], cookies["Eleni"]) as white, \
            Socket(server, links["match"], cookies["Nikos"]) as black:
        sockets = {"white": white, "black": black}
        hello(white, links["token"])
        state = hello(black, token_of(links["friend"]))
        loser = state["turn"]
        winner = "black" if loser == "white" else "white"
        sockets[loser].send_json({"type": "resign", "seq": state["seq"], "points": 2})
        offered = until(sockets[winner], lambda m: is_state(m) and m["offer"] is not None)
        sockets[winner].send_json({"type": "answer", "seq": offered["seq"], "accept": True})
        taken = until(sockets[loser], lambda m: is_state(m) and m["score"][winner] == 2)
        sockets[loser].send_json({"type": "resign", "seq": taken["seq"], "match": True})
        until(sockets[loser], lambda m: is_state(m) and m["over"])
    return {"white": "Eleni", "black": "Nikos"}[winner]


def one_point_match(server: Server, cookies: dict[str, str], choose: bool) -> str:
    """A match to 1 that Nikos resigns: after each side chose a play, or before a roll."""
    links = friends_match(server, cookies["Eleni"], length=1, games="portes")
    with Socket(server, links["match"], cookies["Eleni"]) as white, \
            Socket(server, links["match"], cookies["Nikos"]) as black:
        hello(white, links["token"])
        state = hello(black, token_of(links["friend"]))
        if choose:
            state = play_until_both_chose({"white": white, "black": black}, state)
        black.send_json({"type": "resign", "seq": state["seq"], "match": True})
        until(black, lambda m: is_state(m) and m["over"])
    return str(links["match"])


def reviewed(server: Server, matches: list[str], limit: float = 180.0) -> None:
    """Wait until each match's review is made and its rates kept (Eleni's page lists them)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        done = all(get(server, f"/api/matches/{m}/analysis")[0] == 200 for m in matches)
        listed = {m["id"]: m for m in get(server, "/api/players/Eleni")[1]["matches"]}
        if done and all(listed[m]["error_rate"] is not None for m in matches):
            return
        time.sleep(0.1)
    raise AssertionError("the reviews were never made")


def guests_matches(server: Server, cookies: dict[str, str]) -> list[dict[str, str]]:
    """A guest's private match against Nikos (who took his seat), and a match he lost to a bot."""
    private = server.post("/api/matches", {"opponent": "friend", "length": 3, "games": "portes", "clock": "none",
                                           "private": True, "seat": "white", "name": "Ζωή"})
    with Socket(server, private["match"], cookies["Nikos"]) as nikos:
        hello(nikos, token_of(private["friend"]))
    bot = server.post("/api/matches", {"opponent": "expert", "length": 1, "games": "plakoto", "name": "Ζωή"})
    with Socket(server, bot["match"]) as guest:
        state = hello(guest, bot["token"])
        guest.send_json({"type": "resign", "seq": state["seq"], "match": True})
        until(guest, lambda m: is_state(m) and m["over"])
    return [{"match": private["match"], "token": private["token"]}, {"match": bot["match"], "token": bot["token"]}]


def settle(db: Path) -> None:
    """Ratings in the Tavli pool, two settled and two provisional (deviation over 110)."""
    with sqlite3.connect(db) as conn:
        for name, rating, deviation in (("Alpha", 1712.0, 64.0), ("Beta", 1655.0, 98.0), ("Gamma", 1840.0, 180.0),
                                        ("Δέλτα", 1520.0, 290.0)):
            (account,) = conn.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()
            conn.execute("INSERT INTO ratings VALUES (?, 'tavli', ?, ?, 0.06, 4, 0)", (account, rating, deviation))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    server = Server(tmp_path_factory.mktemp("server") / "tavli.db")
    cookies = {name: server.sign_up(name) for name in ("Eleni", "Nikos", "Alpha", "Beta", "Gamma", "Δέλτα")}
    winner = resign_two_then_the_match(server, cookies)
    played, at_once = one_point_match(server, cookies, True), one_point_match(server, cookies, False)
    reviewed(server, [played, at_once])
    settle(Path(server.db))
    yield Site(server, cookies, winner, played, at_once, guests_matches(server, cookies))
    server.stop(signal.SIGKILL)


def opened(browser: Browser, url: str, lang: str, width: int, height: int,
           held: list[dict[str, str]] | None = None) -> Page:
    """``url`` in a new browser of a person who reads ``lang`` (and holds the seats ``held``)."""
    phone = width < 1000
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone,
                              locale="el-GR" if lang == "el" else "en-GB")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    page.add_init_script(f"localStorage.setItem('tavli:lang', '{lang}')")
    for seat in held or []:
        page.add_init_script(f"localStorage.setItem('tavli:mine:{seat['match']}', '{seat['token']}')")
    page.goto(url)
    page.wait_for_function("document.querySelector('[data-i18n]:empty') === null")
    return page


def photographed(page: Page, name: str, lang: str, width: int, height: int) -> None:
    """The page photographed whole, after checking that nothing runs off sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{lang}-{width}x{height}.png"), full_page=True, animations="disabled")


WORDS = {
    "en": {"resigned": "By resignation", "played": "Played out", "to3": "Portes to 3", "to1": "Plakoto to 1",
           "playing": "being played", "lost": "lost"},
    "el": {"resigned": "Με παραίτηση", "played": "Ως το τέλος", "to3": "Πόρτες στους 3", "to1": "Πλακωτό στους 1",
           "playing": "σε εξέλιξη", "lost": "ήττα"},
}


@each_size_once()
def test_a_players_page_counts_gammons_on_the_board_and_the_endings_apart(browser: Browser, site: Site, lang: str,
                                                                         width: int, height: int) -> None:
    page = opened(browser, f"{site.server.url}/@/{site.winner_of_two}", lang, width, height)
    page.wait_for_function("document.querySelectorAll('#record-rows tr').length === 3")
    # a game resigned for 2 points and a match resigned: no gammon in any game
    for game in ("portes", "plakoto", "fevga"):
        expect(page.locator(f"[data-testid=record-{game}] td").nth(3)).to_have_text("0")
    # the two games of the first match, and the two matches Nikos resigned to Eleni after it
    won, lost = ("4", "0") if site.winner_of_two == "Eleni" else ("2", "2")
    words = WORDS[lang]
    expect(page.locator("[data-testid=ending-resigned] td")).to_have_text([words["resigned"], won, lost])
    expect(page.locator("[data-testid=ending-played] td")).to_have_text([words["played"], "0", "0"])
    photographed(page, "player-page-endings", lang, width, height)
    page.context.close()


@each_size_once()
def test_a_match_with_no_decision_analysed_shows_a_dash_and_stays_off_the_chart(browser: Browser, site: Site,
                                                                               lang: str, width: int,
                                                                               height: int) -> None:
    page = opened(browser, f"{site.server.url}/@/Eleni", lang, width, height)
    expect(page.locator(f"[data-testid=match-{site.at_once}] [data-testid=error-rates]")).to_have_text("– · –")
    expect(page.locator(f"[data-testid=match-{site.played}] [data-testid=error-rates]")).to_have_text(
        re.compile(r"^\d+[.,]\d · \d+[.,]\d$"))  # each side chose a play: each has a rate
    # the chart has the analysed match's point alone: the other is no 0.0 pulling it down
    points = page.locator("[data-testid=trend-chart] polyline").get_attribute("points")
    assert points is not None and len(points.split()) == 1
    photographed(page, "player-page-error-rates", lang, width, height)
    page.context.close()


@each_size_once()
def test_the_leaderboard_lists_provisional_players_marked_after_the_settled(browser: Browser, site: Site, lang: str,
                                                                           width: int, height: int) -> None:
    page = opened(browser, f"{site.server.url}/leaderboard?pool=tavli", lang, width, height)
    rows = page.locator("[data-testid=leaders] tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.locator("td:nth-child(2)")).to_have_text(["Alpha", "Beta", "Gamma", "Δέλτα"])
    expect(rows.locator("td:nth-child(1)")).to_have_text(["1", "2", "", ""])  # a provisional rating has no rank
    expect(page.locator("[data-testid=leader-Gamma] td:nth-child(3)")).to_contain_text("1840?")
    expect(page.locator("[data-testid=leader-Alpha] td:nth-child(3)")).not_to_contain_text("?")
    expect(page.locator("[data-testid=provisional-leaders]")).to_be_visible()
    expect(page.locator("[data-testid=no-leaders]")).to_be_hidden()
    photographed(page, "leaderboard-provisional", lang, width, height)
    page.context.close()


@each_size_once()
def test_a_guests_matches_name_the_opponent_the_games_and_the_score(browser: Browser, site: Site, lang: str,
                                                                   width: int, height: int) -> None:
    page = opened(browser, site.server.url + "/", lang, width, height, site.held)
    rows = page.locator("[data-testid=mine-list] li")
    expect(rows).to_have_count(2)
    words = WORDS[lang]
    bot, private = rows.nth(0), rows.nth(1)  # the newest first
    expect(private).to_contain_text(f"{words['to3']} · 0–0 · {words['playing']}")
    expect(private.locator("a[href='/@/Nikos']")).to_have_text("Nikos")  # his account's page
    expect(bot).to_contain_text(f"{words['to1']} · 0–1 · {words['lost']}")
    expect(page.locator("[data-testid=mine-list]")).not_to_contain_text(site.held[0]["match"])  # no codes
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"my-matches-guest-{lang}-{width}x{height}.png"
    page.locator("[data-testid=my-matches]").screenshot(path=str(shot), animations="disabled")
    page.context.close()
