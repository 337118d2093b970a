"""The review page and the coach's hints in a real browser: Debian's chromium driven by Playwright,
against ``tavli serve`` (the launch of tests/test_web_browser.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

if os.environ.get("TAVLI_SKIP_BROWSER") == "1":
    pytest.skip("TAVLI_SKIP_BROWSER=1", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect
from serve_process import Server

from tavli import Dice, Position
from tavli.bots.match_equity import MatchScore
from tavli.formats.mat import export_mat
from tavli.formats.record import dumps
from tavli.match import MatchSettings
from tavli.server.coach.review import HINT_DEPTH
from tavli.study.analysis import evaluate_decision
from tests.test_server_review import played_record
from tests.test_web_browser import SCREENSHOTS, board_shows, english_words, wait_for_my_turn_or_end

PLAY_OUT = """async ([mid, token]) => new Promise((resolve, reject) => {
  const ws = new WebSocket(`ws://${location.host}/ws/${mid}`);
  let acted = -1, last = null;
  const send = (message) => { last = message; ws.send(JSON.stringify(message)); };
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", token }));
  ws.onerror = () => reject(new Error("socket error"));
  setTimeout(() => reject(new Error("the match did not end in 2 minutes")), 120000);
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "error" && m.code === "rate-limited" && last) setTimeout(() => send(last), 1100);
    if (m.type !== "state") return;
    if (m.over) { ws.close(); resolve(m.score); return; }
    if (m.seq === acted) return;  // act once on each state
    // the last listed play: often a poor one, so that the review has mistakes to show
    if (m.can_roll) { acted = m.seq; send({ type: "roll", seq: m.seq }); return; }
    const plays = m.can_play ? m.legal.plays : [];
    if (plays.length) { acted = m.seq; send({ type: "play", seq: m.seq, play: plays[plays.length - 1] }); }
  };
})"""


def played_match(page: Page, url: str, games: str = "plakoto") -> str:
    """A one-point match played out against a bot over the WebSocket protocol; its id."""
    page.goto(url + "/")
    answer = page.request.post(url + "/api/matches", data={"opponent": "expert", "length": 1, "games": games})
    assert answer.status == 201, answer.text()
    links: dict[str, Any] = answer.json()
    page.evaluate(PLAY_OUT, [links["match"], links["token"]])
    return str(links["match"])


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_the_review_of_a_finished_match(browser: Browser, shared_server: Server, width: int, height: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        mid = played_match(page, shared_server.url)
        page.goto(f"{shared_server.url}/match/{mid}/review")
        page.wait_for_function("window.tavliReview && window.tavliReview.status === 'done'", timeout=90_000)
        review = page.evaluate("window.tavliReview")
        decisions = review["decisions"]
        assert errors == []
        expect(page.locator("[data-testid=progress]")).to_be_hidden()
        expect(page.locator("[data-testid=moves] li")).to_have_count(len(decisions))
        # mistakes are coloured in the move list and marked on the chart
        mistakes = [i for i, d in enumerate(decisions) if d["skill"] in ("error", "blunder")]
        assert mistakes, "the last listed play every turn makes some mistake"
        first = page.locator("[data-testid=moves] li").nth(mistakes[0])
        colour = first.evaluate("li => getComputedStyle(li).color")
        assert colour in ("rgb(192, 0, 0)", "rgb(192, 85, 0)"), colour
        expect(page.locator("[data-testid=chart] polyline")).to_have_count(1)
        points = page.locator("[data-testid=chart] polyline").get_attribute("points") or ""
        assert len(points.split()) == len(decisions) + 1
        assert page.locator("[data-testid=chart] [data-skill]").count() == sum(1 for d in decisions if d["skill"])
        # step with the arrow keys: each step shows the next decision against the best plays
        expect(page.locator("[data-testid=decision-title]")).to_contain_text("Game 1")
        expect(page.locator("[data-testid=opening-link]")).to_be_hidden()
        page.keyboard.press("ArrowRight")
        expect(page.locator("[data-testid=decision-title]")).to_contain_text("Turn 1")
        expect(page.locator("[data-testid=moves] li.now")).to_have_count(1)
        # the game's first play is an opening: a link to the roll in the opening tables
        high, low = sorted(map(int, decisions[0]["dice"].split("-")), reverse=True)
        link = page.locator("[data-testid=opening-link]")
        expect(link).to_have_attribute("href", f"/openings#plakoto/{high}-{low}/0")
        # and every decision's position, to the position page
        wanted = {"position": decisions[0]["position"], "dice": f"{high}-{low}", "depth": "2"}
        assert review["order"] == ["plakoto"] and decisions[0]["away"] == [review["length"]] * 2
        wanted |= {"length": str(review["length"]), "white": "0", "black": "0", "order": "single"}  # at its score
        expect(page.locator("[data-testid=position-link]")).to_have_attribute("href", f"/position#{urlencode(wanted)}")
        page.keyboard.press("ArrowRight")
        expect(page.locator("[data-testid=decision-title]")).to_contain_text("Turn 2")
        expect(page.locator("[data-testid=opening-link]")).to_be_hidden()
        page.keyboard.press("ArrowLeft")
        expect(page.locator("[data-testid=decision-title]")).to_contain_text("Turn 1")
        page.keyboard.press("ArrowDown")  # the first mistake
        worst = next(d for i, d in enumerate(decisions) if i > 0 and d["skill"])
        expect(page.locator("[data-testid=decision-title]")).to_contain_text(f"Turn {worst['turn']}")
        expect(page.locator("[data-testid=decision]")).to_have_class(f"card decision {worst['skill']}")
        expect(page.locator("[data-testid=candidates] tr.played")).to_have_count(1)
        # the page rounds as JavaScript does (toFixed), which differs from Python's at exact halves
        expect(page.locator("[data-testid=decision-note]")).to_contain_text(
            page.evaluate("x => x.toFixed(3)", worst["loss"]))
        # a match: the plays' chances of winning it, and the chance the play lost, beside the points
        expect(page.locator("[data-testid=decision-note]")).to_contain_text(
            page.evaluate("x => (100 * x).toFixed(2)", worst["mwc_loss"]) + " percentage points")
        expect(page.locator("[data-testid=candidates] tr.played td").nth(4)).to_contain_text("%")
        board_shows(page, [spot["white"] + spot["black"] for spot in worst["board"]["points"]])
        stats = page.locator("[data-testid=stats] [data-testid=stats-white]")
        expect(stats).to_contain_text(page.evaluate("x => x.toFixed(1)", review["players"]["white"]["error_rate"]))
        white_mwc = review["players"]["white"]["mwc_loss"]
        expect(stats).to_contain_text(page.evaluate("x => (100 * x).toFixed(1)", white_mwc))
        page.keyboard.press("End")
        expect(page.locator("[data-testid=forward]")).to_be_disabled()
        page.keyboard.press("Home")
        expect(page.locator("[data-testid=back]")).to_be_disabled()
        page.click("[data-testid=forward]")
        page.keyboard.press("ArrowDown")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        assert errors == []
        page.screenshot(path=str(SCREENSHOTS / f"review-{width}x{height}.png"), full_page=True, animations="disabled")
    finally:
        ctx.close()


def test_the_review_of_a_match_going_on_is_for_its_players(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="el-GR")
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/")
        answer = page.request.post(shared_server.url + "/api/matches", data={"opponent": "friend", "length": 3})
        mid = answer.json()["match"]
        page.goto(f"{shared_server.url}/match/{mid}/review")
        expect(page.locator("[data-testid=bad-link]")).to_be_visible()
        expect(page.locator("[data-testid=bad-link-text]")).to_contain_text("Η ανάλυση ανοίγει")
        page.goto(f"{shared_server.url}/match/nope/review")
        page.reload()
        expect(page.locator("[data-testid=bad-link-text]")).to_contain_text("σύνδεσμος")
    finally:
        ctx.close()


def score_of(s: dict[str, Any]) -> MatchScore:
    """The match score of the state's viewer, as the coach plays for it."""
    settings = MatchSettings(length=s["settings"]["length"], games=tuple(s["settings"]["games"]))
    me, other = s["you"], "black" if s["you"] == "white" else "white"
    return MatchScore.at(settings, settings.length - s["score"][me], settings.length - s["score"][other],
                         s["game"]["index"])


def blunders_of(s: dict[str, Any]) -> dict[int, str]:
    """The legal plays of the state's roll that the coach calls blunders, by index."""
    position = Position.from_string(s["game"]["position"])
    dice = Dice(*s["dice"])
    return {i: play for i, play in enumerate(s["legal"]["plays"])
            if evaluate_decision(position, dice, play, HINT_DEPTH, score=score_of(s)).skill == "blunder"}


def steps_to(tree: list[dict[str, Any]], play: int) -> list[list[Any]]:
    """A walk through the state's legal step tree (docs/web.md) that makes play ``play``."""
    def walk(node: int) -> list[list[Any]] | None:
        if tree[node]["play"] == play:
            return []
        for src, dst, hit, child in tree[node]["next"]:
            rest = walk(child)
            if rest is not None:
                return [[src, dst, hit], *rest]
        return None
    found = walk(0)
    assert found is not None, f"play {play} is not in the tree"
    return found


def click_play(page: Page, s: dict[str, Any], index: int) -> None:
    """Make legal play ``index`` on the board, one checker at a time."""
    for src, dst, _ in steps_to(s["legal"]["tree"], index):
        page.locator(f"[data-point='{src}']").click()
        page.locator(f"[data-point='{dst}']").click()
    expect(page.locator("[data-testid=confirm]")).to_be_visible()


@pytest.mark.slow
def test_hints_and_the_tutor_against_a_bot(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = ctx.new_page()
        page.goto(shared_server.url + "/")
        page.wait_for_selector("[data-testid=opponent] option[value=beginner]", state="attached")
        page.select_option("[data-testid=opponent]", "friend")
        expect(page.locator("[data-testid=coach]")).not_to_be_checked()  # off between friends
        page.select_option("[data-testid=opponent]", "beginner")
        expect(page.locator("[data-testid=coach]")).to_be_checked()  # on against bots
        page.select_option("[data-testid=games]", "plakoto")
        page.click("[data-testid=start]")
        page.wait_for_function("window.tavliState && window.tavliState.type === 'state'")
        expect(page.locator("[data-testid=coach-badge]")).to_be_visible()
        page.check("[data-testid=tutor]")
        for _ in range(30):  # turns until one offers a blunder
            s = wait_for_my_turn_or_end(page)
            assert not s["over"]
            if s["can_roll"]:
                page.click("[data-testid=roll]")
                page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
                s = wait_for_my_turn_or_end(page)
            if not s["can_play"]:
                continue
            page.click("[data-testid=hint]")
            expect(page.locator("[data-testid=hints]")).to_be_visible()
            hints = page.locator("[data-testid=hints] li")
            assert 1 <= hints.count() <= 3
            for text in hints.all_text_contents():  # each play in the server's notation (the mover's numbers)
                assert any(text.startswith(play + "  ") for play in s["legal"]["plays"]), text
            blunders = blunders_of(s)
            if not blunders:
                best = Position.from_string(s["game"]["position"])
                index = s["legal"]["plays"].index(evaluate_decision(best, Dice(*s["dice"]), s["legal"]["plays"][0],
                                                                    HINT_DEPTH, score=score_of(s)).best)
                click_play(page, s, index)
                page.click("[data-testid=confirm]")  # the best play: the tutor lets it through
                page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
                continue
            index = min(blunders)
            click_play(page, s, index)
            page.click("[data-testid=confirm]")
            expect(page.locator("[data-testid=tutor-panel]")).to_be_visible()
            expect(page.locator("[data-testid=tutor-text]")).to_contain_text("Are you sure?")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / "tutor-1366x768.png"), animations="disabled")
            page.click("[data-testid=tutor-cancel]")
            expect(page.locator("[data-testid=tutor-panel]")).to_be_hidden()
            expect(page.locator("[data-testid=confirm]")).to_be_hidden()
            assert page.evaluate("window.tavliState.seq") == s["seq"]  # nothing was sent
            click_play(page, s, index)
            page.click("[data-testid=confirm]")
            page.click("[data-testid=tutor-play]")
            page.wait_for_function(f"window.tavliState.seq > {s['seq']}")
            moves = page.evaluate("window.tavliState.game.moves")
            assert any(m["play"] == blunders[index] and m["color"] == s["you"] for m in moves)
            return
        raise AssertionError("no turn offered a blunder")
    finally:
        ctx.close()


@pytest.mark.slow
def test_a_match_file_is_reviewed(browser: Browser, shared_server: Server, tmp_path: Path) -> None:
    record = played_record()
    (tmp_path / "match.json").write_text(dumps(record))
    (tmp_path / "match.mat").write_text(export_mat(record))
    (tmp_path / "notes.txt").write_text("to be or not to be")
    lines = export_mat(record).splitlines()
    first = next(k for k, line in enumerate(lines) if re.match(r"\s*1\)\s+52: ", line))
    lines[first] = re.sub(r"52: .*", "52: 24/1 24/1", lines[first])
    (tmp_path / "illegal.mat").write_text("\n".join(lines))
    for width, height, lang in ((1366, 768, "en-GB"), (390, 844, "el-GR")):
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=lang,
                                  is_mobile=width < 500, has_touch=width < 500)
        try:
            page = ctx.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc, seen=errors: seen.append(str(exc)))
            page.goto(shared_server.url + "/")
            page.click("[data-testid=review-file-link]")
            # only the file card until a file is reviewed
            expect(page.locator("[data-testid=file-card]")).to_be_visible()
            expect(page.locator("[data-testid=board]")).to_be_hidden()
            if lang == "el-GR":
                assert english_words(page) == set()
            page.set_input_files("[data-testid=file]", str(tmp_path / "notes.txt"))
            refused = ("Το αρχείο δεν αναλύθηκε: δεν είναι αρχείο αγώνα" if lang == "el-GR" else
                       "Not reviewed: not a match file")
            expect(page.locator("[data-testid=file-error]")).to_have_text(re.compile(f"^{refused}: "))
            # a reason within reasons, each in the page's language: where, the move, why not
            page.set_input_files("[data-testid=file]", str(tmp_path / "illegal.mat"))
            expect(page.locator("[data-testid=file-error]")).to_have_text(
                f"Το αρχείο δεν αναλύθηκε: γραμμή {first + 1}: 24/1 24/1 με ζαριά 5-2: το 24/1 είναι απόσταση 23 "
                "σημείων: τα ζάρια 5-2 δεν τη βγάζουν" if lang == "el-GR" else
                f"Not reviewed: line {first + 1}: 24/1 24/1 with 5-2: 24/1 is 23 pips: the dice 5-2 do not make that")
            expect(page.locator("[data-testid=board]")).to_be_hidden()
            if width > 500:  # a record dropped on the page
                page.evaluate("""text => {
                    const files = new DataTransfer();
                    files.items.add(new File([text], "match.json", { type: "application/json" }));
                    const drop = new DragEvent("drop", { dataTransfer: files, bubbles: true, cancelable: true });
                    document.body.dispatchEvent(drop);
                }""", dumps(record))
            else:  # a .mat file chosen
                page.set_input_files("[data-testid=file]", str(tmp_path / "match.mat"))
            page.wait_for_function("window.tavliReview && window.tavliReview.status === 'done'", timeout=60_000)
            review = page.evaluate("window.tavliReview")
            assert len(review["decisions"]) == sum(len(g.turns) for g in record.games)
            expect(page.locator("[data-testid=file-error]")).to_have_text("")
            expect(page.locator("[data-testid=board]")).to_be_visible()
            expect(page.locator("[data-testid=moves] li")).to_have_count(len(record.games[0].turns))
            expect(page.locator("[data-testid=stats-white]")).to_contain_text("Ada")  # the player's name
            page.keyboard.press("ArrowRight")
            expect(page.locator("[data-testid=decision-title]")).to_contain_text("1")
            # a bad file after a good one: the error, and the review stays
            page.set_input_files("[data-testid=file]", str(tmp_path / "notes.txt"))
            expect(page.locator("[data-testid=file-error]")).to_contain_text(refused)
            expect(page.locator("[data-testid=board]")).to_be_visible()
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            # the game's name is whole in the header, in Greek on a phone too
            assert page.locator("[data-testid=game-name]").evaluate("e => e.scrollWidth <= e.clientWidth")
            page.screenshot(path=str(SCREENSHOTS / f"review-file-{width}x{height}.png"), full_page=True,
                            animations="disabled")
            assert errors == []
        finally:
            ctx.close()


@pytest.mark.slow
def test_stepping_on_a_phone_keeps_the_board_in_view(browser: Browser, shared_server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        mid = played_match(page, shared_server.url, games="portes")
        page.goto(f"{shared_server.url}/match/{mid}/review")
        page.wait_for_function("window.tavliReview && window.tavliReview.status === 'done'", timeout=90_000)
        page.evaluate("window.scrollTo(0, 0)")
        for _ in range(6):  # the buttons under the board: the page stays where it is
            page.click("[data-testid=forward]")
        assert page.evaluate("window.scrollY") == 0
        expect(page.locator("[data-testid=board]")).to_be_in_viewport()
        moves = page.locator("[data-testid=moves] li")
        moves.nth(moves.count() - 1).scroll_into_view_if_needed()
        expect(page.locator("[data-testid=board]")).not_to_be_in_viewport()
        moves.nth(moves.count() - 1).click()  # a move chosen below the board: the board comes back
        expect(page.locator("[data-testid=board]")).to_be_in_viewport()
    finally:
        ctx.close()
