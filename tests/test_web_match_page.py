"""The match page as a player meets it, in a real browser at a laptop's size and a phone's, upright
and sideways, in English and Greek: the waiting room of a match between people, what is needed to
move on the first screen, the turn said in the tab, dragging, the board settings, and accessible
names in the page's language."""

from __future__ import annotations

import contextlib
import json
import os
import re
from typing import Any

import pytest

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from serve_process import Server

from tests.browser_screens import SHOTS, SIZE_IDS, SIZES, each_size_once
from tests.test_web_browser import PROPER_NAMES, inside, start_match, state, wait_for_my_turn_or_end

WAITING = {"en": "Waiting for your opponent", "el": "Περιμένουμε τον αντίπαλο"}
WAITING_BOTH = {"en": "Waiting for the players to come", "el": "Περιμένουμε να έρθουν οι παίκτες"}
ROLLED = {"en": "White rolled", "el": "Λευκά έφεραν"}
TURN = {"en": "● Your turn — Tavli", "el": "● Σειρά σας — Τάβλι"}


def open_context(browser: Browser, width: int, height: int, lang: str = "en") -> BrowserContext:
    phone = min(width, height) < 500
    return browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone,
                               locale="el-GR" if lang == "el" else "en-US")


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def shoot(page: Page, name: str) -> None:
    """A screenshot of the screen as the player sees it, kept to be looked at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS / f"{name}.png"), animations="disabled")


def overlaps(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    if a is None or b is None:
        return False
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def stacks_of(page: Page, *points: int) -> list[dict[str, float]]:
    """The boxes of the checkers drawn on White's ``points``."""
    boxes = []
    for p in points:
        for checker in page.locator(f"#board [data-point='{p}'] [data-checker]").all():
            box = checker.bounding_box()
            if box is not None:
                boxes.append(box)
    return boxes


@each_size_once()
def test_a_friend_match_waits_for_the_friend(browser: Browser, shared_server: Server, lang: str, width: int,
                                             height: int) -> None:
    phone = min(width, height) < 500
    ctx, friend_ctx = open_context(browser, width, height, lang), open_context(browser, width, height, lang)
    try:
        page = ctx.new_page()
        start_match(page, shared_server.url, "friend")
        s = state(page)
        # nobody rolls off, nobody is on turn: the board says whom it waits for, with the invitation
        assert s["waiting"] and not s["can_roll"] and not s["can_play"]
        expect(page.locator("[data-testid=status]")).to_have_text(WAITING[lang])
        expect(page.locator("[data-testid=waiting]")).to_be_visible()
        invite = page.locator("[data-testid=invite]")
        expect(invite).to_be_visible()
        assert inside(invite.bounding_box(), width, height), "the invitation on the first screen"
        expect(page.locator("[data-testid=banner]")).to_be_hidden()
        expect(page.locator("[data-testid=resign]")).to_be_hidden()
        expect(page.locator("[data-testid=opening]")).to_have_text("")
        assert not page.title().startswith("●")
        shoot(page, f"waiting-{width}x{height}-{lang}")
        page.evaluate("navigator.share = undefined")  # headless: no share sheet, so the link is copied
        friend_link = page.evaluate(
            "JSON.parse(localStorage.getItem(`tavli:links:${window.tavliState.match}`)).friend")
        if width == 1366:  # a spectator meanwhile: both players awaited, in the status line
            watch_link = page.evaluate(
                "JSON.parse(localStorage.getItem(`tavli:links:${window.tavliState.match}`)).watch")
            watcher = friend_ctx.new_page()
            watcher.goto(shared_server.url + watch_link)
            expect(watcher.locator("[data-testid=status]")).to_have_text(WAITING_BOTH[lang])
            expect(watcher.locator("[data-testid=invite]")).to_be_hidden()
            watcher.close()
        friend = friend_ctx.new_page()
        friend.goto(shared_server.url + friend_link)
        friend.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
        page.wait_for_function("!window.tavliState.waiting")
        expect(page.locator("[data-testid=waiting]")).to_be_hidden()
        expect(page.locator("[data-testid=status]")).not_to_have_text(WAITING[lang])
        both = [state(page), state(friend)]
        assert [b["can_roll"] for b in both].count(True) == 1  # one of them starts, once both are here
        for seen in (page, friend):
            no_sideways_scroll(seen)
            # the roll-off said on the board, over none of the 6- and 19-point stacks
            banner = seen.locator("[data-testid=banner]")
            if height < 500:  # sideways: no free line on the board, the status beside it says it
                expect(banner).to_be_hidden()
                expect(seen.locator("[data-testid=status]")).to_contain_text(ROLLED[lang])
            else:
                expect(banner).to_be_visible()
            for box in stacks_of(seen, 6, 19):
                assert not overlaps(banner.bounding_box(), box), (seen.url, box)
            resign = seen.locator("[data-testid=resign]")
            if phone and resign.is_visible():  # a quiet word, not the first big button a friend sees
                assert resign.evaluate("b => getComputedStyle(b).backgroundColor") == "rgba(0, 0, 0, 0)"
        shoot(friend, f"friend-joined-{width}x{height}-{lang}")
    finally:
        ctx.close()
        friend_ctx.close()


def my_move(page: Page) -> dict[str, Any]:
    """Roll if need be: the state with dice to play."""
    s = wait_for_my_turn_or_end(page)
    if s["can_roll"]:
        if not page.locator("[data-testid=auto-roll]").is_checked():
            page.click("[data-testid=roll]")
        page.wait_for_function("(s => s.can_play)(window.tavliState)", timeout=60_000)
    return state(page)


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_what_is_needed_to_move_is_on_the_first_screen(browser: Browser, shared_server: Server, lang: str,
                                                        width: int, height: int) -> None:
    ctx = open_context(browser, width, height, lang)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        start_match(page, shared_server.url, "beginner", length="3")
        my_move(page)
        # the tab says whose turn it is
        assert page.title() == TURN[lang]
        assert "2f7a3e" in (page.locator("link[rel=icon]").get_attribute("href") or "")
        assert inside(page.locator("#board").bounding_box(), width, height)
        for die in page.locator("#board [data-die]").all():
            assert inside(die.bounding_box(), width, height)
        status = page.locator("[data-testid=status]")
        assert inside(status.bounding_box(), width, height)
        assert status.evaluate("p => p.scrollHeight <= p.clientHeight + 1"), "the status line whole"
        page.locator(".point.source").first.click()
        page.locator(".point.target").first.click()
        for name in ("undo", "hint"):
            button = page.locator(f"[data-testid={name}]")
            expect(button).to_be_visible()
            assert inside(button.bounding_box(), width, height), name
        shoot(page, f"own-turn-{width}x{height}-{lang}")
        page.click("[data-testid=hint]")
        hints = page.locator("[data-testid=hints]")
        expect(hints).to_be_visible(timeout=30_000)
        expect(hints.locator("li").first).to_be_visible()
        assert inside(hints.bounding_box(), width, height), "the hints beside the board, on the screen"
        shoot(page, f"hint-{width}x{height}-{lang}")
        page.click("[data-testid=hints-close]")
        expect(hints).to_be_hidden()
        # the typed move within reach: the first thing under the board's controls
        typed = page.locator("[data-testid=typed]")
        typed.scroll_into_view_if_needed()
        expect(typed).to_be_in_viewport()
        no_sideways_scroll(page)
        assert not errors
    finally:
        ctx.close()


def test_the_turn_is_signalled_and_checkers_are_dragged(browser: Browser, shared_server: Server) -> None:
    ctx = open_context(browser, 1366, 768)
    try:
        page = ctx.new_page()
        start_match(page, shared_server.url, "beginner", length="3")
        s = my_move(page)
        assert page.title() == TURN["en"]
        # the sounds are on unless the player turns them off; the notification is his to turn on
        expect(page.locator("[data-testid=sounds]")).to_be_checked()
        expect(page.locator("[data-testid=notify]")).not_to_be_checked()
        source = page.locator(".point.source [data-checker]:last-of-type").first
        box = source.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        target = page.locator(".point.target .hit").first.bounding_box()
        assert target is not None
        tx, ty = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
        page.mouse.move((x + tx) / 2, (y + ty) / 2, steps=5)
        ghost = page.locator("[data-testid=drag-ghost]")
        expect(ghost).to_have_count(1)  # the checker follows the pointer
        held = ghost.bounding_box()
        assert held is not None
        assert abs(held["x"] + held["width"] / 2 - (x + tx) / 2) < 3
        assert abs(held["y"] + held["height"] / 2 - (y + ty) / 2) < 3
        page.mouse.move(tx, ty, steps=3)
        page.mouse.up()
        expect(ghost).to_have_count(0)
        expect(page.locator("[data-testid=undo]")).to_be_visible()  # the step is made
        assert page.evaluate("window.tavliState.seq") == s["seq"]
    finally:
        ctx.close()


NOTIFICATIONS = """
    window.notified = [];
    window.Notification = class { constructor(title, options) { window.notified.push([title, options.body]); } };
    window.Notification.permission = "granted";
    window.Notification.requestPermission = async () => "granted";
    Object.defineProperty(document, "hidden", { get: () => true });  // the player looks at another tab
"""


def test_a_new_turn_notifies_a_player_who_asked(browser: Browser, shared_server: Server) -> None:
    ctx = open_context(browser, 1366, 768, "el")
    try:
        page = ctx.new_page()
        page.add_init_script(NOTIFICATIONS)
        start_match(page, shared_server.url, "beginner", length="3")
        page.check("[data-testid=notify]")
        s = my_move(page)
        assert page.evaluate("window.notified.length") == 0  # asked for after this turn came
        page.fill("[data-testid=typed-play]", s["legal"]["plays"][0])
        page.click("[data-testid=typed-send]")
        page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
        page.wait_for_function("window.notified.length > 0", timeout=60_000)  # the bot played: his turn again
        assert page.evaluate("window.notified[0]") == [TURN["el"], "Σειρά σας στον αγώνα τάβλι"]
        page.reload()
        expect(page.locator("[data-testid=notify]")).to_be_checked()  # kept in the browser
    finally:
        ctx.close()


def test_a_roll_with_one_bear_off_plays_itself_when_asked(browser: Browser, shared_server: Server) -> None:
    """The server's states pass through here, each roll's plays replaced by one bear-off (as a
    roll late in a game whose plays all bear off the same checkers): the page sends it itself."""
    ctx = open_context(browser, 1366, 768)
    sent: list[dict[str, Any]] = []

    def between(page_side: Any) -> None:
        server = page_side.connect_to_server()

        def down(message: str | bytes) -> None:
            state = json.loads(message)
            if state.get("type") == "state" and state.get("legal"):
                state["legal"]["plays"] = ["6/off"]
            page_side.send(json.dumps(state))

        def up(message: str | bytes) -> None:
            if json.loads(message).get("type") == "play":
                sent.append(json.loads(message))  # kept here: the server would refuse it
            else:
                server.send(message)

        server.on_message(down)
        page_side.on_message(up)

    try:
        page = ctx.new_page()
        page.route_web_socket(re.compile(r"/ws/"), between)
        page.goto(shared_server.url + "/")
        page.evaluate("localStorage.setItem('tavli:auto-bearoff', '1')")
        start_match(page, shared_server.url, "beginner", length="3")
        my_move(page)
        page.wait_for_function("window.tavliState.can_play")
        for _ in range(100):  # no Confirm pressed: the page sends the only play by itself, once
            if sent:
                break
            page.wait_for_timeout(100)
        page.wait_for_timeout(300)
        assert [m["play"] for m in sent] == ["6/off"]
    finally:
        ctx.close()


def test_a_finger_drags_a_checker(browser: Browser, shared_server: Server) -> None:
    ctx = open_context(browser, 390, 844)
    try:
        page = ctx.new_page()
        start_match(page, shared_server.url, "beginner", length="3")
        s = my_move(page)
        box = page.locator(".point.source [data-checker]:last-of-type").first.bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        touch = ctx.new_cdp_session(page)
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        target = page.locator(".point.target .hit").first.bounding_box()
        assert target is not None
        tx, ty = target["x"] + target["width"] / 2, target["y"] + target["height"] / 2
        for k in range(1, 6):
            touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x + (tx - x) * k / 5, "y": y + (ty - y) * k / 5}]})
            if k == 3:
                expect(page.locator("[data-testid=drag-ghost]")).to_have_count(1)  # under the finger
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        expect(page.locator("[data-testid=drag-ghost]")).to_have_count(0)
        expect(page.locator("[data-testid=undo]")).to_be_visible()
        assert page.evaluate("window.tavliState.seq") == s["seq"]
    finally:
        ctx.close()


PAGES = ["/", "/rules", "/review", "/openings", "/practice", "/position", "/no-such-page"]


def settled(page: Page) -> None:
    """The page drawn in its words: the start page's lobby keeps a WebSocket open, so the network
    is never idle to wait for."""
    page.wait_for_load_state("load")
    page.wait_for_function("document.querySelector('[data-i18n]:empty') === null")


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_no_page_scrolls_sideways(browser: Browser, shared_server: Server, lang: str, width: int,
                                  height: int) -> None:
    ctx = open_context(browser, width, height, lang)
    try:
        page = ctx.new_page()
        for path in PAGES:
            page.goto(shared_server.url + path)
            settled(page)
            wide = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert wide[0] <= wide[1], (path, wide)
    finally:
        ctx.close()


def test_board_settings_are_kept_in_the_browser(browser: Browser, shared_server: Server) -> None:
    ctx = open_context(browser, 1366, 768)
    try:
        page = ctx.new_page()
        start_match(page, shared_server.url, "beginner", length="3")
        s = my_move(page)
        one = page.locator("#board [data-point='1'] polygon").bounding_box()
        board = page.locator("#board").bounding_box()
        assert one is not None and board is not None
        home_right = one["x"] > board["x"] + board["width"] / 2 if s["you"] == "white" else None
        page.click("[data-testid=settings] summary")
        page.select_option("[data-testid=set-home]", "left")
        page.uncheck("[data-testid=set-numbers]")
        page.check("[data-testid=set-auto-confirm]")
        page.check("[data-testid=set-auto-bearoff]")
        page.select_option("[data-testid=set-speed]", "2")
        page.reload()
        page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
        page.click("[data-testid=settings] summary")
        expect(page.locator("[data-testid=set-home]")).to_have_value("left")
        expect(page.locator("[data-testid=set-numbers]")).not_to_be_checked()
        expect(page.locator("[data-testid=set-auto-confirm]")).to_be_checked()
        expect(page.locator("[data-testid=set-auto-bearoff]")).to_be_checked()
        expect(page.locator("[data-testid=set-speed]")).to_have_value("2")
        expect(page.locator("#board text.label").first).to_be_hidden()  # no point numbers
        one = page.locator("#board [data-point='1'] polygon").bounding_box()
        board = page.locator("#board").bounding_box()
        assert one is not None and board is not None
        mirrored = one["x"] > board["x"] + board["width"] / 2
        if home_right is not None:
            assert home_right and not mirrored, "the home board on the left"
        # auto-confirm: the last step of the play sends it, no Confirm to press
        s = my_move(page)
        page.select_option("[data-testid=set-speed]", "0")
        moved = f"window.tavliState.seq > {s['seq']}"
        for _ in range(4):
            # a step may finish the play by itself (the rest forced): wait for a source or the play sent
            page.wait_for_function(f"{moved} || document.querySelector('.point.source') !== null")
            if page.evaluate(moved):
                break
            with contextlib.suppress(PlaywrightTimeout):  # the play went meanwhile: seen at the top
                page.locator(".point.source").first.click(timeout=5000)
                page.locator(".point.target").first.click(timeout=5000)
        page.wait_for_function(moved)
    finally:
        ctx.close()


def latin_labels(page: Page) -> set[str]:
    labels = page.evaluate("[...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label'))")
    return set(re.findall(r"[A-Za-z]{2,}", " ".join(labels))) - PROPER_NAMES


@pytest.mark.parametrize("path", ["/match", "/review", "/openings", "/position", "/practice"])
def test_accessible_names_are_in_the_pages_language(browser: Browser, shared_server: Server, path: str) -> None:
    ctx = open_context(browser, 1366, 768, "el")
    try:
        page = ctx.new_page()
        if path == "/match":
            start_match(page, shared_server.url, "beginner", length="3")
            my_move(page)
            assert "Λευκά" in (page.locator("#board").get_attribute("aria-label") or "")
        else:
            page.goto(shared_server.url + path)
            settled(page)
        assert latin_labels(page) == set()
        page.select_option("[data-testid=lang]", "en")  # the check sees English where there is some
        assert latin_labels(page)
    finally:
        ctx.close()


def test_a_match_is_watched_by_its_address_alone(browser: Browser, shared_server: Server) -> None:
    """A fresh browser (no token, no seat of its own) opens /match/ID as a spectator and sees the
    board follow a move; a private match's address says so and opens nothing."""
    links = shared_server.post("/api/matches", {"opponent": "friend", "games": "portes", "clock": "none"})
    mid = links["match"]
    ctx = open_context(browser, 1366, 768)
    with shared_server.socket(mid) as white, shared_server.socket(mid) as black:
        seats = [(white, links["token"]), (black, links["friend"].split("#t=", 1)[1])]
        for ws, token in seats:
            ws.send(json.dumps({"type": "hello", "token": token}))
        page = ctx.new_page()
        page.goto(f"{shared_server.url}/match/{mid}")
        page.wait_for_function("(s => s && s.you === 'spectator' && !s.waiting)(window.tavliState)")
        expect(page.get_by_test_id("bad-link")).to_be_hidden()
        expect(page.locator("#watching")).to_be_visible()
        expect(page.get_by_test_id("notify")).to_be_hidden()  # a spectator has no turn to be told of
        before = state(page)
        mover = next(ws for ws, _ in seats if last_state(ws, before["seq"])["can_roll"])
        mover.send(json.dumps({"type": "roll", "seq": before["seq"]}))
        rolled = last_state(mover, before["seq"] + 1)
        play = rolled["legal"]["plays"][0]
        mover.send(json.dumps({"type": "play", "seq": rolled["seq"], "play": play}))
        page.wait_for_function(f"window.tavliState.seq >= {rolled['seq'] + 1}")  # live, with no reload
        assert state(page)["game"]["moves"][-1]["play"] == play
        expect(page.locator("[data-testid=moves]")).to_contain_text(play.split()[0])
        assert state(page)["legal"] is None and not state(page)["can_roll"]
        shoot(page, "watching-by-address")
    private = shared_server.post("/api/matches", {"opponent": "friend", "games": "portes", "private": True})
    page = ctx.new_page()
    page.goto(f"{shared_server.url}/match/{private['match']}")
    expect(page.locator("#bad-link-title")).to_have_text("This match is private")
    expect(page.get_by_test_id("bad-link-text")).to_contain_text("spectators' link")
    page.select_option("[data-testid=lang]", "el")  # said again in the language chosen
    expect(page.locator("#bad-link-title")).to_have_text("Ο αγώνας είναι ιδιωτικός")
    expect(page.get_by_test_id("bad-link-text")).to_contain_text("σύνδεσμο των θεατών")
    shoot(page, "watching-private")
    ctx.close()


def last_state(ws: Any, seq: int) -> dict[str, Any]:
    """The state a seat's socket is sent at action ``seq`` (the messages before it read and let go)."""
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] == "state" and msg["seq"] >= seq and not msg["waiting"]:
            return dict(msg)
