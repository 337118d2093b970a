"""What a backgammon player reads on the board and review pages, in a real browser: plays written
from the mover's side, the wording of results and seats, the rules pages, the page for an unknown
address (the launch of tests/test_web_browser.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect
from serve_process import Server

from tavli.formats.record import dumps
from tavli.variants import BLACK
from tests.test_server_review import played_record
from tests.test_web_browser import start_match, state

SIZES = [(1366, 768), (390, 844), (844, 390)]
SHOTS = Path(os.environ.get("TAVLI_SHOTS", "/tmp/shots-board"))


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
        shoot(page, "review-1366x768-en")
    finally:
        ctx.close()


def test_the_board_writes_the_opponents_play_from_his_side(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        start_match(page, shared_server.url, "beginner")
        page.check("[data-testid=auto-roll]")
        # until the bot has made a play: the move list and the status line write it as the bot does
        page.wait_for_function("(s => s.game.moves.some(m => m.color !== s.you && m.play))(window.tavliState)",
                               timeout=60_000)
        s: dict[str, Any] = state(page)
        theirs = [m for m in s["game"]["moves"] if m["color"] != s["you"] and m["play"]]
        played = theirs[-1]["play"]
        expect(page.locator("[data-testid=moves]")).to_contain_text(played)
        if s["game"]["moves"][-1]["play"] == played:
            expect(page.locator("[data-testid=status]")).to_contain_text(played)
    finally:
        ctx.close()
