"""The web app in a real browser: Debian's chromium driven by Playwright, against ``tavli serve``.

``.ci/run`` installs chromium; without it these tests fail (``TAVLI_SKIP_BROWSER=1`` skips them).
"""

from __future__ import annotations

import json
import os
import re
import signal
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from serve_process import Server

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tavli import Position
from tavli.formats.record import loads


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1200, "height": 850})
    yield ctx
    ctx.close()


def checkers_on(page: Page, point: str) -> int:
    """The checkers the board shows on a point: the circles, or the number written on a tall stack."""
    label = page.locator(f"[data-point='{point}'] text.count")
    if label.count():
        return int(label.first.text_content() or 0)
    return page.locator(f"[data-point='{point}'] [data-checker]").count()


def board_shows(page: Page, totals: Sequence[int]) -> None:
    """Points 1 to 24 draw ``totals[p - 1]`` checkers each, at most five (a taller stack is numbered)."""
    for p, total in enumerate(totals, start=1):
        assert page.locator(f"[data-point='{p}'] [data-checker]").count() == min(5, total), p


def board_shows_position(page: Page, position: Position) -> None:
    """The board draws ``position``'s checkers on each point (``board_shows``)."""
    board_shows(page, [position.point(p).white + position.point(p).black for p in range(1, 25)])


def state(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("window.tavliState"))


def start_match(page: Page, url: str, opponent: str, length: str = "1", games: str = "portes") -> None:
    page.goto(url + "/")
    page.wait_for_selector(f"[data-testid=opponent] option[value={opponent}]", state="attached")
    page.select_option("[data-testid=opponent]", opponent)
    page.select_option("[data-testid=length]", length)
    page.select_option("[data-testid=games]", games)
    page.click("[data-testid=start]")
    page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")


def wait_for_my_turn_or_end(page: Page) -> dict[str, Any]:
    page.wait_for_function("(s => s && (s.can_roll || s.can_play || s.over))(window.tavliState)", timeout=60_000)
    return state(page)


def move_by_clicks(page: Page) -> None:
    """Make a whole legal move by clicking checkers and highlighted points, then confirm."""
    seq = state(page)["seq"]
    for _ in range(8):
        if page.locator("[data-testid=confirm]").is_visible():
            break
        if page.locator(".point.selected").count() == 0:
            page.locator(".point.source").first.click()
        page.locator(".point.target").first.click()
    page.click("[data-testid=confirm]")
    page.wait_for_function(f"window.tavliState.seq > {seq}")


def take_turn(page: Page) -> None:
    s = wait_for_my_turn_or_end(page)
    if s["over"]:
        return
    if s["can_roll"]:
        if not page.locator("[data-testid=auto-roll]").is_checked():  # else the page rolls by itself
            page.click("[data-testid=roll]")
        page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
        # the dice to play, or a roll that could not be played: the turn has passed (and perhaps come
        # back already, the bot being quick)
        page.wait_for_function(f"(s => s.can_play || s.can_roll || s.over || s.turn !== '{s['turn']}')"
                               "(window.tavliState)", timeout=60_000)
        s = state(page)
    if s["can_play"]:
        move_by_clicks(page)


@pytest.mark.slow
def test_a_whole_game_against_a_bot(context: BrowserContext, shared_server: Server) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_match(page, shared_server.url, "beginner", games="plakoto")
    expect(page.locator("[data-testid=game-name]")).to_contain_text("Plakoto")
    s = wait_for_my_turn_or_end(page)
    if s["can_roll"]:
        page.click("[data-testid=roll]")
        page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
    s = wait_for_my_turn_or_end(page)
    if s["can_play"]:  # undo puts the checker back
        before = page.locator("[data-checker]").count(), page.locator("[data-point] [data-checker]").all_inner_texts()
        source = page.locator(".point.source").first
        point = source.get_attribute("data-point")
        count = checkers_on(page, point)
        source.click()
        page.locator(".point.target").first.click()
        expect(page.locator("[data-testid=undo]")).to_be_visible()
        assert checkers_on(page, point) == count - 1
        page.click("[data-testid=undo]")
        expect(page.locator("[data-testid=undo]")).to_be_hidden()
        assert checkers_on(page, point) == count
        assert page.locator("[data-checker]").count() == before[0]
        # the same step by dragging the checker onto a highlighted point
        box = source.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        target = page.locator(".point.target").first
        goal = target.get_attribute("data-point")
        tbox = target.bounding_box()
        assert tbox is not None
        page.mouse.move(tbox["x"] + tbox["width"] / 2, tbox["y"] + tbox["height"] / 2, steps=5)
        page.mouse.up()
        expect(page.locator("[data-testid=undo]")).to_be_visible()
        assert checkers_on(page, point) == count - 1
        assert goal is not None and checkers_on(page, goal) >= 1
        page.click("[data-testid=undo]")
        assert checkers_on(page, point) == count
    page.check("[data-testid=auto-roll]")
    for _ in range(200):
        take_turn(page)
        if state(page)["over"]:
            break
    final = state(page)
    assert final["over"] and final["winner"] in ("white", "black")
    expect(page.locator("[data-testid=match-over]")).to_be_visible()
    shown = page.locator("[data-testid=score]").inner_text()
    assert f"{final['score']['white']} – {final['score']['black']}" in shown
    assert final["games"][0]["seed"], "the seed is revealed after the game"
    # the final position stays, with who won, how many points and why
    result = final["games"][0]["result"]
    why = {"bore-off": "bore off all checkers first", "double": "a gammon: the loser bore off none",
           "mother": "the mother was pinned"}[result["why"]]
    winner = "You win" if result["winner"] == final["you"] else f"{result['winner'].capitalize()} wins"
    expect(page.locator("[data-testid=match-over-last]")).to_have_text(
        f"{winner} game 1 (Plakoto) and {result['points']} point{'s' if result['points'] > 1 else ''}: {why}")
    assert final["game"]["position"] == final["games"][0]["final"]["position"]
    assert page.locator("[data-checker]").count() + page.locator("[data-off]").count() >= 15
    assert not errors


@pytest.mark.slow
def test_two_friends_and_a_spectator(browser: Browser, shared_server: Server) -> None:
    first_ctx, second_ctx, watch_ctx = (browser.new_context() for _ in range(3))
    try:
        first = first_ctx.new_page()
        start_match(first, shared_server.url, "friend", length="3", games="fevga")
        friend_link = first.locator("[data-testid=share-friend]").input_value()
        watch_link = first.locator("[data-testid=share-watch]").input_value()
        assert "#t=" in friend_link and "#t=" in watch_link and friend_link != watch_link
        second = second_ctx.new_page()
        second.goto(friend_link)
        second.wait_for_function("window.tavliState && window.tavliState.you !== undefined")
        watcher = watch_ctx.new_page()
        watcher.goto(watch_link)
        watcher.wait_for_function("window.tavliState !== undefined")
        assert state(watcher)["you"] == "spectator"
        expect(watcher.locator("[data-testid=watching]")).to_be_visible()
        pages = {state(first)["you"]: first, state(second)["you"]: second}
        assert set(pages) == {"white", "black"}
        for _ in range(4):  # four turns, alternately, through the board
            turn = state(first)["turn"]
            mover, waiting = pages[turn], pages["black" if turn == "white" else "white"]
            expect(waiting.locator("[data-testid=roll]")).to_be_hidden()
            expect(watcher.locator("[data-testid=roll]")).to_be_hidden()
            moves_before = len(state(waiting)["game"]["moves"])
            take_turn(mover)
            for page in (waiting, watcher):
                page.wait_for_function(f"window.tavliState.game.moves.length > {moves_before}")
            seen = state(waiting)["game"]["moves"][-1]
            assert seen["color"] == turn
            # the play in standard notation, from the mover's side for every reader, as the server writes it
            for page in (mover, waiting, watcher):
                expect(page.locator("[data-testid=moves] li").last).to_contain_text(seen["play"] or "no play")
            expect(waiting.locator("[data-testid=moves] li")).to_have_count(moves_before + 1)
            w, b = state(waiting)["game"]["opening"][-1]
            begins = "White" if w > b else "Black"
            expect(waiting.locator("[data-testid=opening]")).to_contain_text(
                f"White rolled {w}, Black {b}: {begins} begins and rolls both dice")
            assert state(watcher)["game"]["position"] == state(waiting)["game"]["position"]
        # the spectator's link cannot act, even by hand over a raw WebSocket
        token = watch_link.split("#t=")[1]
        match_id = state(watcher)["match"]
        seq = state(watcher)["seq"]
        answer = watcher.evaluate("""([id, token, seq]) => new Promise(done => {
            const ws = new WebSocket(`ws://${location.host}/ws/${id}`);
            const got = [];
            ws.onopen = () => ws.send(JSON.stringify({type: "hello", token}));
            ws.onmessage = (e) => { const m = JSON.parse(e.data); got.push(m);
              if (m.type === "state") ws.send(JSON.stringify({type: "roll", seq}));
              if (m.type === "error") { ws.close(); done(m); } };
        })""", [match_id, token, seq])
        assert answer["code"] == "spectator"
        assert state(first)["seq"] == seq
    finally:
        for ctx in (first_ctx, second_ctx, watch_ctx):
            ctx.close()


@pytest.mark.slow
def test_reload_and_a_killed_server_lose_nothing(context: BrowserContext, tmp_path: Path) -> None:
    db = tmp_path / "tavli.db"
    server = Server(db)
    try:
        page = context.new_page()
        start_match(page, server.url, "advanced", length="3", games="portes")
        take_turn(page)
        s = wait_for_my_turn_or_end(page)
        if s["can_roll"]:
            page.click("[data-testid=roll]")
            page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
            s = wait_for_my_turn_or_end(page)
        before = state(page)
        page.reload()
        page.wait_for_function(f"window.tavliState && window.tavliState.seq === {before['seq']}")
        after = state(page)
        for key in ("seq", "dice", "score", "turn"):
            assert after[key] == before[key], key
        assert after["game"]["position"] == before["game"]["position"]

        server.stop(signal.SIGKILL)
        expect(page.locator("[data-testid=status]")).to_contain_text("reconnecting", ignore_case=True)
        server = Server(db, port=server.port)
        page.wait_for_function("document.querySelector('[data-testid=status]').textContent.indexOf('onnect') < 0",
                               timeout=30_000)
        resumed = state(page)
        assert resumed["seq"] == before["seq"] and resumed["game"]["position"] == before["game"]["position"]
        take_turn(page)  # and the match goes on
        assert state(page)["seq"] > before["seq"]
    finally:
        server.stop(signal.SIGKILL)


def test_start_page_errors_and_greek(context: BrowserContext, shared_server: Server) -> None:
    page = context.new_page()
    page.goto(shared_server.url + "/")
    page.select_option("[data-testid=lang]", "el")
    expect(page.locator("[data-testid=start]")).to_have_text("Αρχίστε")
    page.select_option("[data-testid=games]", "custom")
    page.fill("[data-testid=games-custom]", "chess")
    page.click("[data-testid=start]")
    expect(page.locator("[data-testid=error]")).to_contain_text("άγνωστο παιχνίδι «chess»")
    # refused by the server (an empty name between commas): its reason, in Greek too
    page.fill("[data-testid=games-custom]", "portes,,fevga")
    page.click("[data-testid=start]")
    expect(page.locator("[data-testid=error]")).to_have_text("άγνωστο παιχνίδι '': γράψτε portes, plakoto ή fevga")
    page.select_option("[data-testid=lang]", "en")
    page.fill("[data-testid=games-custom]", "fevga,chess")
    page.click("[data-testid=start]")
    expect(page.locator("[data-testid=error]")).to_contain_text("unknown game 'chess'")
    page.select_option("[data-testid=lang]", "el")
    page.goto(shared_server.url + "/match/nope#t=forged")
    expect(page.locator("[data-testid=status]")).to_contain_text("δεν ισχύει")
    assert json.loads(page.evaluate("localStorage.getItem('tavli:lang') && '1'")) == 1


SCREENS = [(1366, 768), (1280, 720), (390, 844), (360, 740)]
SCREENSHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
"""A phone's browser context (Playwright's ``new_context`` options): 390 x 844, touch."""


def inside(box: dict[str, float] | None, width: int, height: int) -> bool:
    return box is not None and box["x"] >= -0.5 and box["y"] >= -0.5 and \
        box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5


def layout_of(page: Page) -> dict[str, Any]:
    """Where the board and the controls stand, and the smallest point label in CSS px."""
    return dict(page.evaluate("""() => {
        const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                               return [r.x, r.y, r.width, r.height]; };
        const svg = document.querySelector('#board');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const labels = [...document.querySelectorAll('text.label')]
            .map(t => Number(t.getAttribute('font-size')) * scale);
        return {board: box('#board'), controls: box('[data-testid=controls]'), status: box('#status'),
                label: Math.min(...labels), labels: labels.length,
                scrollX: document.documentElement.scrollWidth - innerWidth};
    }"""))


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_the_board_fits_the_screen(browser: Browser, shared_server: Server, width: int, height: int) -> None:
    phone = width < 500
    ctx = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone)
    try:
        page = ctx.new_page()
        start_match(page, shared_server.url, "beginner", length="3")
        s = wait_for_my_turn_or_end(page)
        before = layout_of(page)
        expect(page.locator("[data-testid=sounds]")).to_be_checked()  # sounds are on unless turned off
        if s["can_roll"]:
            expect(page.locator("[data-testid=roll]")).to_be_visible()
            assert inside(page.locator("[data-testid=roll]").bounding_box(), width, height)
            page.click("[data-testid=roll]")
            page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
            s = wait_for_my_turn_or_end(page)
        assert s["can_play"], "a roll of the opening position can always be played"
        rolled = layout_of(page)
        page.locator(".point.source").first.click()
        page.locator(".point.target").first.click()
        expect(page.locator("[data-testid=undo]")).to_be_visible()
        stepped = layout_of(page)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"board-{width}x{height}.png"), animations="disabled")
        # the board, the dice, the status and every button shown are on the screen, nothing scrolls sideways
        assert inside(page.locator("#board").bounding_box(), width, height)
        dice = page.locator("[data-die]")
        high, low = max(s["dice"]), min(s["dice"])
        shown = [int(d.get_attribute("data-die") or 0) for d in dice.all()]
        assert shown == ([high] * 4 if high == low else [high, low])  # high-low, doubles as four dice
        for i in range(dice.count()):
            assert inside(dice.nth(i).bounding_box(), width, height)
        for name in ("status", "undo", "resign", "roll", "confirm"):
            button = page.locator(f"[data-testid={name}]")
            if button.is_visible():
                box = button.bounding_box()
                assert inside(box, width, height), name
                if phone and name != "status":
                    assert box is not None and box["height"] >= 40, name
        assert stepped["scrollX"] <= 0
        # readable numbers on all 24 points
        assert stepped["labels"] == 24 and stepped["label"] >= 10, stepped["label"]
        # nothing moves when the dice come or the Undo button appears
        assert before["board"] == rolled["board"] == stepped["board"]
        assert before["controls"] == rolled["controls"] == stepped["controls"]
        if phone:  # a finger can hit every point: the whole point is the target, at least 40 px across
            for p in range(1, 25):
                box = page.locator(f"[data-point='{p}'] rect.hit").bounding_box()
                assert box is not None and min(box["width"], box["height"]) >= 40, (p, box)
    finally:
        ctx.close()


def test_resign_game_over_dice_check_match_over_and_rematch(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        start_match(page, shared_server.url, "beginner", length="5", games="tavli")
        s = wait_for_my_turn_or_end(page)
        me = s["you"]
        # resigning the game for 2 points: the bot expects less, so it takes them
        page.click("[data-testid=resign]")
        page.click("[data-testid=resign-2]")
        expect(page.locator("[data-testid=game-over]")).to_be_visible()
        expect(page.locator("[data-testid=game-over-text]")).to_contain_text(
            "wins game 1 (Portes) and 2 points: you resigned a gammon")  # whose resignation: his own
        expect(page.locator("[data-testid=roll]")).to_be_hidden()  # the final position stays until Next game
        page.click("[data-testid=fair-dice] summary")  # the seed waits behind the fair dice link
        seed = page.locator("[data-testid=seed]").inner_text()
        assert len(seed) == 64 and seed == state(page)["games"][0]["seed"]
        page.click("[data-testid=check-dice]")
        expect(page.locator("[data-testid=verdict]")).to_contain_text("✓")
        page.screenshot(path=str(SCREENSHOTS / "game-over.png"), animations="disabled")
        page.click("[data-testid=continue]")
        expect(page.locator("[data-testid=game-over]")).to_be_hidden()
        expect(page.locator("[data-testid=game-name]")).to_contain_text("Plakoto")
        # the whole match
        page.click("[data-testid=resign]")
        page.click("[data-testid=resign-match]")
        page.click("[data-testid=resign-match-yes]")  # asked again: the match goes for good
        expect(page.locator("[data-testid=match-over]")).to_be_visible()
        expect(page.locator("[data-testid=match-over-title]")).to_have_text("You lose the match.")
        other = "Black" if me == "white" else "White"
        expect(page.locator("[data-testid=match-over-last]")).to_contain_text(
            f"{other} wins game 2 (Plakoto) and 3 points: you resigned the match")
        expect(page.locator("[data-testid=games-table] tbody tr")).to_have_count(2)
        page.click("[data-testid=match-fair-dice] summary")
        page.click("[data-testid=match-check-dice]")
        expect(page.locator("[data-testid=match-verdict]")).to_contain_text("✓")
        page.screenshot(path=str(SCREENSHOTS / "match-over.png"), animations="disabled")
        old = state(page)["match"]
        # a rematch: the bot accepts, the page follows its own link into the new match, seats swapped
        page.click("[data-testid=rematch]")
        page.wait_for_function(f"window.tavliState && window.tavliState.match !== {json.dumps(old)}")
        fresh = state(page)
        assert fresh["you"] == ("black" if me == "white" else "white") and not fresh["over"]
        assert fresh["settings"]["length"] == 5 and fresh["score"] == {"white": 0, "black": 0}
        page.go_back()  # the old link still opens the old match, which leads on to the rematch
        page.wait_for_function(f"window.tavliState && window.tavliState.match === {json.dumps(fresh['match'])}")
        assert not errors
    finally:
        ctx.close()


@pytest.mark.parametrize("link", ["/match/nope#t=forged", "/match/nope", "/match/nope#t=" + "x" * 300, "existing"])
def test_bad_links_get_a_page_in_the_players_language(browser: Browser, shared_server: Server, link: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="el-GR")
    try:
        page = ctx.new_page()
        if link == "existing":  # a real match, a token of another match
            made = shared_server.post("/api/matches", {"opponent": "beginner"})
            link = f"/match/{made['match']}#t=" + "A" * 32
        page.goto(shared_server.url + link)
        expect(page.locator("[data-testid=bad-link]")).to_be_visible()
        expect(page.locator("[data-testid=bad-link-text]")).to_contain_text("Ο σύνδεσμος είναι λάθος")
        home = page.locator("[data-testid=bad-link-home]")
        expect(home).to_have_text("Πίσω στην αρχική σελίδα")
        page.screenshot(path=str(SCREENSHOTS / "bad-link-390x844.png"), animations="disabled")
        home.click()
        expect(page.locator("[data-testid=start]")).to_have_text("Αρχίστε")
    finally:
        ctx.close()


PROPER_NAMES = {"English", "GNU", "Backgammon"}  # the language switch names English in English; a program's name


def english_words(page: Page) -> set[str]:
    """Latin-letter words the page shows (codes such as seeds and links left out)."""
    text = page.evaluate("""() => {
        const clone = document.body.cloneNode(true);
        for (const node of clone.querySelectorAll('code, script, [hidden]')) node.remove();
        document.body.append(clone);
        clone.style.position = 'absolute';
        const seen = clone.innerText;
        clone.remove();
        return seen;
    }""")
    return set(re.findall(r"[A-Za-z]{2,}", str(text))) - PROPER_NAMES


def test_greek_pages_show_no_english(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="el-GR")
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/")
        page.wait_for_selector("[data-testid=opponent] option[value=beginner]", state="attached")
        assert english_words(page) == set()
        page.select_option("[data-testid=lang]", "en")  # the check sees English where there is some
        assert {"Opponent", "Games", "House"} <= english_words(page)
        page.select_option("[data-testid=lang]", "el")
        page.wait_for_function("document.querySelector('[data-testid=opponent] option').text.includes('Αρχάριος')")
        assert english_words(page) == set()
        page.select_option("[data-testid=games]", "tavli")
        page.select_option("[data-testid=opponent]", "beginner")
        page.click("[data-testid=start]")
        page.wait_for_function("window.tavliState && (window.tavliState.can_roll || window.tavliState.can_play)")
        assert english_words(page) == set()
        page.click("[data-testid=resign]")
        expect(page.locator("[data-testid=resign-menu]")).to_be_visible()
        assert english_words(page) == set()
        page.click("[data-testid=resign-1]")  # about even: the bot takes 1 point
        expect(page.locator("[data-testid=game-over]")).to_be_visible()
        page.click("[data-testid=fair-dice] summary")
        page.click("[data-testid=check-dice]")
        expect(page.locator("[data-testid=verdict]")).to_contain_text("✓")
        assert english_words(page) == set()
        page.click("[data-testid=continue]")
        page.click("[data-testid=resign]")
        page.click("[data-testid=resign-match]")
        page.click("[data-testid=resign-match-yes]")  # asked again: the match goes for good
        # the answer can take the server longer than Playwright's default 5 s on busy cores
        expect(page.locator("[data-testid=match-over]")).to_be_visible(timeout=30_000)
        page.click("[data-testid=match-fair-dice] summary")
        page.click("[data-testid=match-check-dice]")
        expect(page.locator("[data-testid=match-verdict]")).to_contain_text("✓")
        assert english_words(page) == set()
        page.screenshot(path=str(SCREENSHOTS / "match-over-greek.png"), animations="disabled")
    finally:
        ctx.close()


@pytest.mark.slow
def test_friends_answer_a_resignation_and_agree_a_rematch(browser: Browser, shared_server: Server) -> None:
    contexts = [browser.new_context(**PHONE) for _ in range(2)]
    try:
        first = contexts[0].new_page()
        start_match(first, shared_server.url, "friend", length="3", games="portes")
        second = contexts[1].new_page()
        second.goto(first.locator("[data-testid=share-friend]").input_value())
        second.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
        watcher = contexts[0].new_page()
        watcher.goto(first.locator("[data-testid=share-watch]").input_value())
        watcher.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
        pages = {state(first)["you"]: first, state(second)["you"]: second}
        turn = state(first)["turn"]
        mover, other = pages[turn], pages["black" if turn == "white" else "white"]
        expect(other.locator("[data-testid=resign]")).to_be_visible()
        other.click("[data-testid=resign]")  # off turn: only the whole match can be resigned
        expect(other.locator("[data-testid=resign-1]")).to_be_disabled()
        expect(other.locator("[data-testid=resign-match]")).to_be_enabled()
        other.click("[data-testid=resign]")
        expect(other.locator("[data-testid=resign-menu]")).to_be_hidden()
        mover.click("[data-testid=resign]")
        mover.click("[data-testid=resign-1]")
        expect(other.locator("[data-testid=offer]")).to_be_visible()
        expect(mover.locator("[data-testid=status]")).to_contain_text("Waiting for the answer")
        expect(mover.locator("[data-testid=roll]")).to_be_hidden()
        other.screenshot(path=str(SCREENSHOTS / "resign-offer-390x844.png"), animations="disabled")
        other.click("[data-testid=decline]")
        expect(mover.locator("[data-testid=toast]")).to_contain_text("declined")
        expect(other.locator("[data-testid=offer]")).to_be_hidden()
        mover.click("[data-testid=resign]")
        mover.click("[data-testid=resign-2]")
        other.click("[data-testid=accept]")
        for page, whose in ((mover, "you resigned"), (other, "the opponent resigned")):
            expect(page.locator("[data-testid=game-over]")).to_be_visible()
            expect(page.locator("[data-testid=game-over-text]")).to_contain_text(f"2 points: {whose}")
        mover.screenshot(path=str(SCREENSHOTS / "game-over-390x844.png"), animations="disabled")
        assert state(other)["score"][state(other)["you"]] == 2
        # the loser resigns the match; the winner proposes a rematch, the loser accepts
        mover.click("[data-testid=continue]")
        mover.click("[data-testid=resign]")
        mover.click("[data-testid=resign-match]")
        mover.click("[data-testid=resign-match-yes]")  # asked again: the match goes for good
        for page in (mover, other):
            expect(page.locator("[data-testid=match-over]")).to_be_visible()
        expect(other.locator("[data-testid=match-over-title]")).to_have_text("You win the match!")
        old = state(other)["match"]
        other.click("[data-testid=rematch]")
        expect(other.locator("[data-testid=rematch-status]")).to_contain_text("waiting")
        expect(mover.locator("[data-testid=rematch-accept]")).to_be_visible()
        mover.click("[data-testid=rematch-accept]")
        for page, seat in ((mover, turn), (other, "black" if turn == "white" else "white")):
            page.wait_for_function(f"window.tavliState && window.tavliState.match !== {json.dumps(old)}")
            assert state(page)["you"] == ("black" if seat == "white" else "white")
        assert state(mover)["match"] == state(other)["match"]
        # the spectator's link leads on to the rematch too, still watching
        watcher.wait_for_function(f"window.tavliState && window.tavliState.match !== {json.dumps(old)}")
        assert state(watcher)["match"] == state(mover)["match"] and state(watcher)["you"] == "spectator"
    finally:
        for ctx in contexts:
            ctx.close()


@pytest.mark.slow
def test_an_open_match_is_taken_from_the_start_page(browser: Browser, shared_server: Server) -> None:
    contexts = [browser.new_context(**PHONE) for _ in range(2)]
    try:
        creator = contexts[0].new_page()
        creator.goto(shared_server.url + "/")
        creator.evaluate("localStorage.setItem('tavli:name', 'Eleni')")  # typed on an earlier visit
        start_match(creator, shared_server.url, "anyone", length="3", games="tavli")
        mine = state(creator)
        assert mine["players"][mine["you"]]["name"] == "Eleni"
        # the waiting room: nothing rolled until someone takes the seat, the invitation on the board
        assert mine["waiting"] and not mine["can_roll"]
        expect(creator.locator("[data-testid=waiting-text]")).to_contain_text("Anyone on this server")
        expect(creator.locator("[data-testid=invite]")).to_be_visible()
        expect(creator.locator("[data-testid=share-open]")).to_be_visible()
        expect(creator.locator("[data-testid=share-friend]")).to_be_hidden()
        seat = "White" if mine["you"] == "black" else "Black"
        expect(creator.locator(f"#player-{seat.lower()} .name")).to_contain_text(f"{seat} · player · not here yet")
        back = contexts[0].new_page()  # the creator's own start page: his match, not to join
        back.goto(shared_server.url + "/")
        expect(back.locator("[data-testid=open-list] li").filter(has_text="yours, waiting")).to_have_count(1)
        other = contexts[1].new_page()
        other.goto(shared_server.url + "/")
        row = other.locator("[data-testid=open-list] li").filter(has_text=f"you play {seat}")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("Eleni guest · Tavli · to 3 · you play")
        other.fill("[data-testid=name]", "Νίκος")
        other.screenshot(path=str(SCREENSHOTS / "open-matches-390x844.png"), full_page=True, animations="disabled")
        row.locator("[data-testid=join]").click()
        other.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
        assert state(other)["you"] == seat.lower() and state(other)["match"] == mine["match"]
        expect(other.locator(f"#player-{mine['you']} .name")).to_contain_text("Eleni")
        expect(other.locator(f"#player-{seat.lower()} .name")).to_contain_text("Νίκος guest (you)")
        creator.wait_for_function(f"window.tavliState.players.{seat.lower()}.connected")
        expect(creator.locator(f"#player-{seat.lower()} .name")).to_contain_text("Νίκος guest · connected")
        expect(creator.locator("[data-testid=share-open]")).to_be_hidden()  # someone came
        creator.wait_for_function("!window.tavliState.waiting")
        expect(creator.locator("[data-testid=waiting]")).to_be_hidden()
        back.reload()
        expect(back.locator("[data-testid=open-none]")).to_be_visible()
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_move_typed_in_notation(context: BrowserContext, shared_server: Server) -> None:
    page = context.new_page()
    start_match(page, shared_server.url, "beginner", games="fevga")
    page.check("[data-testid=auto-roll]")
    page.wait_for_function("window.tavliState.can_play", timeout=60_000)
    s = state(page)
    expect(page.locator("[data-testid=typed]")).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "typed-move-1200x850.png"), animations="disabled")
    # the board in words for a screen reader: his own checkers first, in the numbering drawn
    described = page.locator("[data-testid=board]").get_attribute("aria-label") or ""
    mine_said, theirs_said = described.split(". ")
    assert mine_said == "White: 24: 15" and theirs_said.startswith("Black: ")
    assert sum(int(part.split(": ")[-1]) for part in theirs_said.removeprefix("Black: ").split(", ")) == 15
    for bad, said in (("hello", "cannot read 'hello'"), ("1/off", "no checker on point 1")):  # a reason each
        page.fill("[data-testid=typed-play]", bad)
        page.click("[data-testid=typed-send]")
        expect(page.locator("[data-testid=toast]")).to_contain_text(said)
        assert state(page)["seq"] == s["seq"]  # refused: nothing changed
    play = s["legal"]["plays"][-1]
    page.fill("[data-testid=typed-play]", play)
    page.press("[data-testid=typed-play]", "Enter")
    page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
    mine = [m for m in state(page)["game"]["moves"] if m["color"] == s["you"]]
    assert mine[-1]["play"] == play
    expect(page.locator("[data-testid=typed]")).to_be_hidden()  # the opponent's turn


@pytest.mark.slow
def test_two_players_on_one_device(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(**PHONE)
    try:
        page = ctx.new_page()
        start_match(page, shared_server.url, "here", length="1", games="portes")
        expect(page.locator("[data-testid=coach-badge]")).to_be_hidden()  # off between friends, as by a link
        seen = set()
        for _ in range(4):  # each side's turns, played on this one page
            s = wait_for_my_turn_or_end(page)
            assert s["you"] == s["turn"] and not s["over"]
            seen.add(s["you"])
            side = "White" if s["turn"] == "white" else "Black"
            expect(page.locator("[data-testid=status]")).to_contain_text(f"{side} to roll" if s["can_roll"] else
                                                                         f"{side} to move")
            take_turn(page)
        assert seen == {"white", "black"}
        s = wait_for_my_turn_or_end(page)
        assert {m["color"] for m in s["game"]["moves"]} == {"white", "black"}
        assert all(p["connected"] for p in s["players"].values())
        expect(page.locator("#player-white .name")).not_to_contain_text("you")
        expect(page.locator("[data-testid=share-friend]")).to_be_hidden()  # nobody to send a link to
        page.screenshot(path=str(SCREENSHOTS / "two-players-390x844.png"), animations="disabled")
        # the player to move offers to resign; the page turns to his opponent to answer
        mover = s["turn"]
        page.click("[data-testid=resign]")
        page.click("[data-testid=resign-1]")
        expect(page.locator("[data-testid=offer]")).to_be_visible()
        assert state(page)["you"] != mover
        page.click("[data-testid=accept]")
        expect(page.locator("[data-testid=match-over]")).to_be_visible()
        winner = "Black" if mover == "white" else "White"
        expect(page.locator("[data-testid=match-over-title]")).to_contain_text(f"{winner} wins the match")
        old = state(page)["match"]
        page.click("[data-testid=rematch]")
        expect(page.locator("[data-testid=rematch-accept]")).to_be_visible()  # the other seat answers, here
        page.click("[data-testid=rematch-accept]")
        page.wait_for_function(f"window.tavliState && window.tavliState.match !== {json.dumps(old)}")
        again = wait_for_my_turn_or_end(page)
        assert again["you"] == again["turn"] and "t2=" in page.url  # both seats held in the rematch too
    finally:
        ctx.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_moves_are_animated_unless_reduced_motion(browser: Browser, shared_server: Server, motion: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, reduced_motion=motion)  # type: ignore[arg-type]
    try:
        page = ctx.new_page()
        # each animation the page starts is counted as it starts: how long one runs is the machine's business
        page.add_init_script("""window.animationsStarted = 0;
            const animate = Element.prototype.animate;
            Element.prototype.animate = function (...args) {
              window.animationsStarted += 1;
              return animate.apply(this, args);
            };""")
        start_match(page, shared_server.url, "beginner", length="3")
        s = wait_for_my_turn_or_end(page)
        if s["can_roll"]:
            page.click("[data-testid=roll]")
            page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
            wait_for_my_turn_or_end(page)
        before = page.evaluate("window.animationsStarted")
        page.locator(".point.source").first.click()
        page.locator(".point.target").first.click()
        started = page.evaluate("window.animationsStarted") - before
        assert (started == 0) if motion == "reduce" else (started > 0)
        page.locator("#board").click(position={"x": 5, "y": 5})  # a click skips what is still moving
        assert page.evaluate("document.getAnimations().filter(a => a.playState === 'running').length") == 0
    finally:
        ctx.close()


def test_the_match_page_downloads_the_record(context: BrowserContext, shared_server: Server) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_match(page, shared_server.url, "beginner", games="fevga")
    link = page.locator("[data-testid=download-record]")
    assert link.inner_text() == "Download the match"
    with page.expect_download() as info:
        link.click()
    download = info.value
    match_id = page.url.split("/match/")[1].split("#")[0]
    assert download.suggested_filename == f"tavli-{match_id}.json"
    record = loads(Path(download.path()).read_text(encoding="utf-8"))
    assert record.games[0].variant == "fevga" and record.meta["match"] == match_id
    assert record.games[0].seed is None and record.games[0].commitment is not None
    assert errors == []
