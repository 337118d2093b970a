"""What a backgammon player reads on the board and review pages, in a real browser: plays written
from the mover's side, the wording of results and seats, the rules pages, the page for an unknown
address (the launch of tests/test_web_browser.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect
from serve_process import Server

from tavli.formats.record import dumps
from tavli.variants import BLACK
from tests.browser_screens import SHOTS, SIZES, each_size_once
from tests.test_server_review import played_record
from tests.test_web_browser import english_words, start_match, state, take_turn


def shoot(page: Page, name: str) -> None:
    """A screenshot of the page as it stands, kept to be looked at; nothing scrolls sideways."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, animations="disabled")


def test_the_review_writes_plays_from_the_movers_side(browser: Browser, shared_server: Server,
                                                      tmp_path: Path) -> None:
    record = played_record(seed=5)
    turns = record.games[0].turns
    assert any(t.color == BLACK and t.play for t in turns)
    assert any("(" in t.play for t in turns), "a double played as equal moves, written 8/2(3)"
    (tmp_path / "match.json").write_text(dumps(record))
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/review")
        page.set_input_files("[data-testid=file]", str(tmp_path / "match.json"))
        page.wait_for_function("window.tavliReview && window.tavliReview.status === 'done'", timeout=60_000)
        shown = page.locator("[data-testid=moves] li").all_inner_texts()
        # the library's notation of each turn, as the record has it: the mover's own numbering
        expect_plays = [t.play or "no play" for t in turns]
        assert [text.split(": ", 1)[1].split(" (")[0] for text in shown] == expect_plays
        # the players' table whole beside the board: no column cut off
        assert page.locator("[data-testid=stats]").evaluate(
            "t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")
        shoot(page, "review-1366x768-en")
    finally:
        ctx.close()


def test_the_board_writes_the_opponents_play_from_his_side(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        start_match(page, shared_server.url, "beginner")
        # until the bot has made a play: the move list and the status line write it as the bot does
        for _ in range(10):
            if page.evaluate("(s => s.game.moves.some(m => m.color !== s.you && m.play))(window.tavliState)"):
                break
            take_turn(page)
        s: dict[str, Any] = state(page)
        theirs = [m for m in s["game"]["moves"] if m["color"] != s["you"] and m["play"]]
        played = theirs[-1]["play"]
        expect(page.locator("[data-testid=moves]")).to_contain_text(played)
        if s["game"]["moves"][-1]["play"] == played:
            expect(page.locator("[data-testid=status]")).to_contain_text(played)
    finally:
        ctx.close()


def test_the_move_list_names_the_players_it_knows(browser: Browser, shared_server: Server) -> None:
    """Each move is the player's who made it, by name where the page knows it (the rest of the page
    says whose turn it is so), by colour where it knows none (a bot's seat)."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/")
        page.evaluate("localStorage.setItem('tavli:name', 'Nikos')")  # the start page's name, kept
        start_match(page, shared_server.url, "beginner")
        for _ in range(10):
            if page.evaluate("new Set(window.tavliState.game.moves.map((m) => m.color)).size === 2"):
                break
            take_turn(page)
        you, moves, lines = page.evaluate("""() => [window.tavliState.you, window.tavliState.game.moves,
            [...document.querySelectorAll('[data-testid=moves] li')].map((li) => li.textContent)]""")
        assert {m["color"] for m in moves} == {"white", "black"} and len(lines) == len(moves)
        for move, line in zip(moves, lines, strict=True):
            who = "Nikos" if move["color"] == you else move["color"].capitalize()
            assert line.startswith(f"{who} {max(move['dice'])}-{min(move['dice'])}: "), (line, move)
    finally:
        ctx.close()


WORDS = {
    "en": {"bot": "Bot (beginner)", "gammon": "you resigned a gammon", "tie": "Both rolled the same (3)"},
    "el": {"bot": "Υπολογιστής (αρχάριος)", "gammon": "παραιτηθήκατε με μαρς",
           "tie": "Έφεραν και οι δύο το ίδιο (3)"},
}


@each_size_once()
def test_seats_results_and_the_fair_dice_in_words(browser: Browser, shared_server: Server, lang: str, width: int,
                                                  height: int) -> None:
    words = WORDS[lang]
    ctx = browser.new_context(viewport={"width": width, "height": height},
                              locale="el-GR" if lang == "el" else "en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        start_match(page, shared_server.url, "beginner", length="5", games="tavli")
        s = state(page)
        bot = "black" if s["you"] == "white" else "white"
        # the bot's seat: its level, nothing about a connection it always has
        expect(page.locator(f"#player-{bot} .name")).to_have_text(re.compile(f" · {re.escape(words['bot'])}$"))
        # a tied roll-off in a sentence; one word for a match in Greek, as the library's reasons have it
        strings = page.evaluate("""async () => {
            const { t, STRINGS } = await import('/static/strings.js');
            return { tie: t('openingTies', { list: '3' }),
                     partida: Object.values(STRINGS.el).filter((v) => /παρτίδ/.test(v)) };
        }""")
        assert strings["tie"].startswith(words["tie"]) and strings["partida"] == []
        expect(page.locator("[data-testid=side-fair-dice] [data-testid=commitment]")).to_be_hidden()
        page.wait_for_function("(s => s.can_resign)(window.tavliState)", timeout=30_000)
        page.click("[data-testid=resign]")
        page.click("[data-testid=resign-2]")
        expect(page.locator("[data-testid=game-over-text]")).to_contain_text(words["gammon"])
        # the seed stays behind the fair dice link until asked for
        expect(page.locator("[data-testid=seed]")).to_be_hidden()
        shoot(page, f"game-over-{width}x{height}-{lang}")
        page.click("[data-testid=fair-dice] summary")
        expect(page.locator("[data-testid=seed]")).to_be_visible()
        page.click("[data-testid=check-dice]")
        expect(page.locator("[data-testid=verdict]")).to_contain_text("✓")
        page.click("[data-testid=continue]")
        page.click("[data-testid=resign]")
        page.click("[data-testid=resign-match]")
        page.click("[data-testid=resign-match-yes]")  # asked again: the match goes for good
        expect(page.locator("[data-testid=match-over]")).to_be_visible(timeout=30_000)
        expect(page.locator("[data-testid=match-seed]")).to_be_hidden()
        # the games' table whole inside the card, in Greek on a phone too
        assert page.locator("[data-testid=games-table]").evaluate(
            "t => t.getBoundingClientRect().right <= t.closest('.card').getBoundingClientRect().right")
        shoot(page, f"match-over-{width}x{height}-{lang}")
        assert not errors
    finally:
        ctx.close()


NOT_FOUND = {"en": "Page not found", "el": "Η σελίδα δεν βρέθηκε"}


@each_size_once()
def test_an_unknown_address_gets_a_page_in_the_players_language(browser: Browser, shared_server: Server, lang: str,
                                                                width: int, height: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": height},
                              locale="el-GR" if lang == "el" else "en-US")
    try:
        page = ctx.new_page()
        answer = page.goto(shared_server.url + "/no/such/page")
        assert answer is not None and answer.status == 404
        expect(page.locator("[data-testid=not-found-title]")).to_have_text(NOT_FOUND[lang])
        expect(page.locator("[data-testid=address]")).to_have_text("/no/such/page")
        expect(page.locator("[data-testid=not-found-home]")).to_have_attribute("href", "/")
        shoot(page, f"not-found-{width}x{height}-{lang}")
        # a program's address keeps its JSON error
        api = page.request.get(shared_server.url + "/api/no-such-thing")
        assert api.status == 404 and api.json()["error"] == "no such page"
        assert page.request.get(shared_server.url + "/static/nothing.js").status == 404
    finally:
        ctx.close()


RULES_WORDS = {"en": ("Plakoto", "pins it"), "el": ("Πλακωτό", "το πλακώνετε")}


@each_size_once()
def test_the_rules_of_each_game_with_boards(browser: Browser, shared_server: Server, lang: str, width: int,
                                            height: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": height},
                              locale="el-GR" if lang == "el" else "en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(shared_server.url + "/rules#plakoto-pin")
        title, pin = RULES_WORDS[lang]
        expect(page.locator("[data-testid=rules-plakoto] h2")).to_have_text(title)
        expect(page.locator("#plakoto-pin")).to_contain_text(pin)
        expect(page.locator("#plakoto-pin")).to_be_in_viewport()  # the address opens at the rule
        for game, boards in (("portes", 2), ("plakoto", 3), ("fevga", 2)):
            expect(page.locator(f"[data-testid=rules-{game}] figure")).to_have_count(boards)
        # the boards are the app's own: the start of Portes has its 30 checkers (5 a stack at most drawn)
        assert page.locator("[data-testid=board-portes-start] [data-checker]").count() == 2 * (2 + 5 + 3 + 5)
        assert page.locator("[data-testid=board-plakoto-pin] [data-pinned]").count() == 1
        assert page.locator("[data-testid=board-portes-hit] .barpoint [data-checker]").count() == 1
        if lang == "el":
            assert english_words(page) == set()
        shoot(page, f"rules-{width}x{height}-{lang}")
        assert not errors
    finally:
        ctx.close()


def test_the_start_page_and_the_board_lead_to_the_rules(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/")
        expect(page.locator("[data-testid=rules-link]")).to_have_attribute("href", "/rules")
        start_match(page, shared_server.url, "beginner", games="fevga")
        expect(page.locator("[data-testid=rules-link]")).to_have_attribute("href", "/rules#fevga")
        expect(page.locator("[data-testid=rules-link]")).to_have_text("Rules of Fevga")
        page.check("[data-testid=auto-roll]")
        page.wait_for_function("window.tavliState.can_play", timeout=60_000)
        # a play the rules refuse: the reason, and the rule it breaks a click away
        page.fill("[data-testid=typed-play]", "24/off")
        page.click("[data-testid=typed-send]")
        expect(page.locator("[data-testid=toast]")).to_contain_text("bear off")
        expect(page.locator("[data-testid=toast-rule]")).to_have_attribute("href", "/rules#common-bearoff")
        # a slip of the keyboard is no rule's
        page.fill("[data-testid=typed-play]", "hello")
        page.click("[data-testid=typed-send]")
        expect(page.locator("[data-testid=toast]")).to_contain_text("hello")
        expect(page.locator("[data-testid=toast-rule]")).to_have_count(0)
    finally:
        ctx.close()


@each_size_once()
def test_the_pages_at_every_size(browser: Browser, shared_server: Server, lang: str, width: int,
                                 height: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": height},
                              locale="el-GR" if lang == "el" else "en-US")
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/")
        expect(page.locator("[data-testid=rules-link]")).to_be_attached()
        shoot(page, f"home-{width}x{height}-{lang}")
        start_match(page, shared_server.url, "expert", length="3", games="plakoto")
        expect(page.locator("[data-testid=rules-link]")).to_have_attribute("href", "/rules#plakoto")
        shoot(page, f"board-{width}x{height}-{lang}")
    finally:
        ctx.close()


def test_a_finished_game_stays_whole_and_the_match_asks_before_it_goes(browser: Browser,
                                                                       shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        start_match(page, shared_server.url, "beginner", length="5", games="tavli")
        page.wait_for_function("(s => s.can_resign)(window.tavliState)", timeout=30_000)
        page.click("[data-testid=resign]")
        page.click("[data-testid=resign-2]")
        expect(page.locator("[data-testid=game-over]")).to_be_visible()
        # the bot won, so it begins game 2 at once; the panel stays with game 1 until the player goes on
        page.wait_for_function("(s => s.game.index === 1 && s.game.moves.length > 0)(window.tavliState)",
                               timeout=30_000)
        s: dict[str, Any] = state(page)
        first = s["games"][0]
        expect(page.locator("[data-testid=game-name]")).to_contain_text("Portes")
        expect(page.locator("[data-testid=moves] li")).to_have_count(first["moves"])
        expect(page.locator("[data-testid=opening]")).to_contain_text("wins game 1 (Portes)")
        expect(page.locator("[data-testid=pips-white]")).to_have_text(f"{first['final']['pips']['white']} pips")
        shoot(page, "game-over-frozen-1366x768-en")
        page.click("[data-testid=continue]")
        expect(page.locator("[data-testid=game-name]")).to_contain_text("Plakoto")
        expect(page.locator("[data-testid=moves] li")).to_have_count(len(state(page)["game"]["moves"]))
        # the whole match is asked for twice; "Keep playing" keeps it
        page.click("[data-testid=resign]")
        page.click("[data-testid=resign-match]")
        winner = "Black" if s["you"] == "white" else "White"
        score = "0–5" if winner == "Black" else "5–0"
        expect(page.locator("[data-testid=resign-confirm-text]")).to_have_text(
            f"Resign the whole match? {winner} wins it, {score}, and it cannot be taken back.")
        shoot(page, "resign-match-1366x768-en")
        page.click("[data-testid=resign-match-no]")
        expect(page.locator("[data-testid=resign-confirm]")).to_be_hidden()
        assert not state(page)["over"]
        page.click("[data-testid=resign]")
        page.click("[data-testid=resign-match]")
        page.click("[data-testid=resign-match-yes]")
        expect(page.locator("[data-testid=match-over]")).to_be_visible(timeout=30_000)
        # "See the board" leaves the summary a click away, with Rematch, Review and New match
        page.click("[data-testid=see-board]")
        expect(page.locator("[data-testid=match-over]")).to_be_hidden()
        page.click("[data-testid=match-summary]")
        expect(page.locator("[data-testid=match-over]")).to_be_visible()
        expect(page.locator("[data-testid=rematch]")).to_be_visible()
        expect(page.locator("[data-testid=review-link]")).to_be_visible()
        assert not errors
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_review_at_every_size(browser: Browser, shared_server: Server, tmp_path: Path, lang: str) -> None:
    # one file reviewed per language, the page then resized: the server reviews 6 files a minute from one address
    (tmp_path / "match.json").write_text(dumps(played_record(seed=5)))
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="el-GR" if lang == "el" else "en-US")
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/review")
        page.set_input_files("[data-testid=file]", str(tmp_path / "match.json"))
        page.wait_for_function("window.tavliReview && window.tavliReview.status === 'done'", timeout=60_000)
        for _ in range(2):
            page.keyboard.press("ArrowRight")  # Black's double, written from his side: 24/18(2) 13/7* 13/7
        expect(page.locator("[data-testid=moves] li.now")).to_contain_text("24/18(2) 13/7* 13/7")
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            expect(page.locator("[data-testid=board]")).to_be_visible()
            assert page.locator("[data-testid=stats]").evaluate(
                "t => t.parentElement.scrollWidth <= t.parentElement.clientWidth"), (width, height)
            shoot(page, f"review-{width}x{height}-{lang}")
    finally:
        ctx.close()


@pytest.mark.parametrize(("lang", "words"), [("en", ("Clocks", "1 minute a point", "Ratings", "1500?")),
                                             ("el", ("Ρολόγια", "1 λεπτό ανά πόντο", "Βαθμολογία", "1500?"))])
def test_the_rules_page_explains_clocks_and_ratings(browser: Browser, shared_server: Server, lang: str,
                                                    words: tuple[str, str, str, str]) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="el-GR" if lang == "el" else "en-US")
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/leaderboard")
        page.click("[data-testid=ratings-rules]")  # the leaderboard leads to how ratings work
        clocks, preset, ratings, provisional = words
        expect(page.locator("[data-testid=rules-clocks] h2")).to_have_text(clocks)
        expect(page.locator("#clocks-presets")).to_contain_text(preset)
        expect(page.locator("[data-testid=rules-ratings] h2")).to_have_text(ratings)
        expect(page.locator("#ratings-sure")).to_contain_text(provisional)
        expect(page.locator("#ratings-what")).to_be_in_viewport()
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    finally:
        ctx.close()
