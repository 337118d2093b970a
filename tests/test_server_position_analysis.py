"""Any position analysed for the web app: the JSON of tavli.server.coach.position_analysis and ``GET /api/position``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_client import make_client
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tavli import Dice, Position
from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import Evaluator
from tavli.server.coach.position_analysis import MAX_TEXT, PositionAnalysisError, position_json, read_position
from tavli.server.play.view import board_json
from tavli.study.analysis import FILTER, THRESHOLDS, rank_plays
from tavli.variants import BLACK, WHITE

# Plakoto after White's 24/18 24/19: Black to play, his moves in his own numbering
PLAKOTO = "plakoto 15b................1w1w....13w b 0:0 0:0"
# docs/match-equity.md, "Gammon-go: the trailer hits": Black to play 5-1, trailing 1-2 in a match to 3
GAMMON_GO = "portes 2w2w3w.2w3w3b..1b.2b2w1b..1w.4b.2b.2b. b 0:0 0:0"
# Portes, White on the bar against a closed board: no roll can be played
SHUT = "portes ......3b.....12w.....2b2b2b2b2b2b w 3:0 0:0"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("positions") / "t.db") as c:
        yield c


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_every_play_is_ranked_with_its_board_and_steps(depth: int) -> None:
    position, dice = Position.from_string(PLAKOTO), Dice(6, 4)
    found = position_json(PLAKOTO, "46", depth)
    legal = position.legal_plays(dice)
    assert (found["game"], found["variant"], found["turn"], found["dice"]) == ("plakoto", "plakoto", "black", "6-4")
    assert found["position"] == PLAKOTO and found["gnubg_id"] is None and found["depth"] == depth
    assert found["legal"] == len(legal) == len(found["plays"])
    assert found["board"] == board_json(position)
    # the same ranking and values as the library's search with the review's filter
    expected = Evaluator.for_variant(position.variant).analyse(legal, depth, FILTER)
    assert [p["play"] for p in found["plays"]] == [str(legal[a.index]) for a in expected]
    assert [p["depth"] for p in found["plays"]] == [a.depth for a in expected]
    assert found["plays"][0]["depth"] == depth and found["plays"][0]["loss"] == 0.0
    best = found["plays"][0]["equity"]
    for shown, a in zip(found["plays"], expected, strict=True):
        assert shown["equity"] == pytest.approx(a.equity, abs=1e-4)
        assert shown["win"] == pytest.approx(a.probabilities.win, abs=1e-4)
        assert shown["loss"] == pytest.approx(best - shown["equity"], abs=2e-4)
        assert shown["skill"] == THRESHOLDS["plakoto"].skill(expected[0].equity - a.equity)
        play = position.parse_play(shown["play"], dice)
        assert shown["board"] == board_json(position.play(play, dice))
        # Black's steps in White's numbering, as the board is drawn: Black's 24 is White's 1
        assert shown["steps"] == [[25 - s.src, 25 - s.dst, bool(s.hit)] for s in play.steps]
    chances = Evaluator.for_variant(position.variant).probabilities(position)
    assert found["chances"]["win"] == pytest.approx(chances.win, abs=1e-4)
    assert found["chances"]["equity"] == pytest.approx(chances.equity, abs=1e-4)
    assert found["thresholds"] == {"doubtful": THRESHOLDS["plakoto"].doubtful, "error": THRESHOLDS["plakoto"].error,
                                   "blunder": THRESHOLDS["plakoto"].blunder}


def test_a_deeper_search_can_change_the_order() -> None:
    shallow, deep = position_json("4HPwATDgc/ABMA", "6-4", 0), position_json("4HPwATDgc/ABMA", "6-4", 2)
    assert {p["play"] for p in shallow["plays"]} == {p["play"] for p in deep["plays"]}
    assert all(p["depth"] == 0 for p in shallow["plays"])
    assert deep["plays"][0]["depth"] == 2 and deep["plays"][-1]["depth"] == 0


def test_at_a_match_score_the_plays_are_ranked_for_the_match() -> None:
    points = position_json(GAMMON_GO, "51", 2)
    match = position_json(GAMMON_GO, "51", 2, length=3, white=2, black=1)
    assert points["match"] is None and "mwc" not in points["chances"] and "mwc" not in points["plays"][0]
    assert points["plays"][0]["play"] == "15/10 11/10" and match["plays"][0]["play"] == "13/8* 11/10"
    assert match["match"] == {"length": 3, "white": 2, "black": 1, "order": "tavli", "game": 1}
    # the library's ranking at the side to play's score: Black needs 2, White 1, Portes the first game
    score = MatchScore.in_game("portes", mine=1, theirs=2, length=3, games=("portes", "plakoto", "fevga"))
    ranked = rank_plays(Position.from_string(GAMMON_GO), Dice(5, 1), 2, score=score)
    assert [p["play"] for p in match["plays"]] == [str(r.play) for r in ranked]
    for shown, r in zip(match["plays"], ranked, strict=True):
        assert r.mwc is not None and r.mwc_loss is not None
        assert (shown["mwc"], shown["mwc_loss"], shown["loss"]) == pytest.approx((r.mwc, r.mwc_loss, r.loss), abs=1e-4)
    for depth in {p["depth"] for p in match["plays"]}:  # at each depth of the search, by match-winning chance
        mwc = [p["mwc"] for p in match["plays"] if p["depth"] == depth]
        assert mwc == sorted(mwc, reverse=True)
    before = score.after_game().value(match["chances"]["win"], match["chances"]["win2"], match["chances"]["lose2"])
    assert match["chances"]["mwc"] == pytest.approx(before, abs=1e-3)
    # one game alone: the match is this game's, to 3
    single = position_json(GAMMON_GO, "51", 0, length=3, white=2, black=1, order="single")
    assert single["match"]["order"] == "single"
    # a custom order: Fevga then Portes, this Portes game the second of the match
    custom = position_json(GAMMON_GO, "51", 0, length=3, white=2, black=1, order="fevga,portes")
    assert custom["match"]["game"] == 2
    expected = MatchScore.in_game("portes", mine=1, theirs=2, length=3, games=("fevga", "portes"))
    assert custom["chances"]["mwc"] == pytest.approx(expected.after_game().value(
        custom["chances"]["win"], custom["chances"]["win2"], custom["chances"]["lose2"]), abs=1e-3)


@pytest.mark.parametrize(("options", "words"), [
    ({"length": 3, "white": 3}, "each side has 0 to 2 points, not White 3 and Black 0"),
    ({"length": 3, "black": -1}, "not White 0 and Black -1"),
    ({"length": 26}, "a match is played to 1 to 25 points, not 26"),
    ({"length": -2}, "not -2"),
    ({"length": 5, "order": "chess"}, "the order of games is tavli, single or a list like fevga,portes"),
    ({"length": 5, "order": "plakoto,fevga"}, "portes is not among the match's games"),
])
def test_a_score_that_cannot_be_says_why(options: dict[str, Any], words: str) -> None:
    with pytest.raises(PositionAnalysisError, match=words):
        position_json(GAMMON_GO, "51", 0, **options)


def test_a_position_id_is_portes_with_white_to_play() -> None:
    found = position_json("  4HPwATDgc/ABMA ", "3-1", 0)
    assert found["position"] == str(Position.start("portes")) and found["gnubg_id"] == "4HPwATDgc/ABMA"
    assert found["turn"] == "white" and found["plays"][0]["play"] == "8/5 6/5"
    assert read_position("4HPwATDgc/ABMA") == Position.from_gnubg_id("4HPwATDgc/ABMA", WHITE)
    assert read_position(PLAKOTO).turn == BLACK


def test_a_roll_that_cannot_be_played_has_no_plays() -> None:
    found = position_json(SHUT, "6-5", 1)
    assert found["legal"] == 0 and found["plays"] == [] and found["board"]["bar"]["white"] == 3


def test_a_single_play_is_not_searched() -> None:
    forced = Position.from_checkers("portes", WHITE, {25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2})
    assert len(forced.legal_plays(Dice(6, 6))) == 1
    found = position_json(str(forced), "66", 2)
    assert len(found["plays"]) == 1 and found["plays"][0]["depth"] == 0 and found["plays"][0]["loss"] == 0.0


@pytest.mark.parametrize(("position", "dice", "depth", "words"), [
    ("", "31", 1, "give a position"),
    ("   ", "31", 1, "give a position"),
    ("x" * (MAX_TEXT + 1), "31", 1, f"at most {MAX_TEXT} characters"),
    ("portes 2b....5w", "31", 1, "5 fields"),
    ("chess ........................ w 0:0 0:0", "31", 1, "chess"),
    ("4HPwATDgc/ABM!", "31", 1, "5 fields"),
    ("4HPwATDgc/ABMA", "71", 1, "dice must be two numbers from 1 to 6"),
    ("4HPwATDgc/ABMA", "", 1, "dice must be two numbers from 1 to 6"),
    ("4HPwATDgc/ABMA", "31", 3, "the depth is 0, 1 or 2 plies, not 3"),
    ("4HPwATDgc/ABMA", "31", -1, "the depth is 0, 1 or 2 plies, not -1"),
    ("portes ..................15b..... b 0:0 15:0", "31", 1, "the game is over"),
])
def test_what_cannot_be_analysed_says_why_in_one_line(position: str, dice: str, depth: int, words: str) -> None:
    with pytest.raises(PositionAnalysisError, match=words) as caught:
        position_json(position, dice, depth)
    assert isinstance(caught.value, ValueError) and "\n" not in str(caught.value)


def test_the_api_answers_with_the_analysis(client: TestClient) -> None:
    answer = client.get("/api/position", params={"position": PLAKOTO, "dice": "6-4", "depth": "2"})
    assert answer.status_code == 200 and "max-age" in answer.headers["cache-control"]
    assert answer.json() == position_json(PLAKOTO, "6-4", 2)
    assert client.get("/api/position", params={"position": "4HPwATDgc/ABMA", "dice": "31"}).json()["depth"] == 1
    page = client.get("/position")
    assert page.status_code == 200 and "position.js" in page.text


def test_the_api_takes_a_match_score(client: TestClient) -> None:
    params = {"position": GAMMON_GO, "dice": "51", "depth": "0", "length": "3", "white": "2", "black": "1"}
    assert client.get("/api/position", params=params).json() == position_json(GAMMON_GO, "51", 0, 3, 2, 1)
    assert client.get("/api/position", params=params | {"length": ""}).json()["match"] is None


@pytest.mark.parametrize(("params", "words"), [
    ({"dice": "31"}, "give a position"),
    ({"position": "4HPwATDgc/ABMA"}, "dice must be"),
    ({"position": "4HPwATDgc/ABMA", "dice": "31", "depth": "deep"}, "the depth is 0, 1 or 2 plies"),
    ({"position": "4HPwATDgc/ABMA", "dice": "31", "depth": "9"}, "the depth is 0, 1 or 2 plies, not 9"),
    ({"position": "portes 2b w", "dice": "31"}, "5 fields"),
    ({"position": GAMMON_GO, "dice": "31", "length": "three"}, "the match length is a number of points"),
    ({"position": GAMMON_GO, "dice": "31", "length": "3", "white": "x"}, "White's score is a number"),
    ({"position": GAMMON_GO, "dice": "31", "length": "3", "black": "2.5"}, "Black's score is a number"),
    ({"position": GAMMON_GO, "dice": "31", "length": "3", "black": "3"}, "each side has 0 to 2 points"),
])
def test_the_api_refuses_bad_requests_in_one_line(client: TestClient, params: dict[str, str], words: str) -> None:
    answer = client.get("/api/position", params=params)
    assert answer.status_code == 400 and words in answer.json()["error"]
    assert "\n" not in answer.json()["error"]


def test_the_api_limits_each_address_and_counts_only_what_it_analysed(tmp_path: Path) -> None:
    with make_client(tmp_path / "t.db", analyses_per_minute=2) as limited:
        for _ in range(3):  # refused requests are not counted
            assert limited.get("/api/position", params={"position": "?", "dice": "31"}).status_code == 400
        for _ in range(2):
            assert limited.get("/api/position", params={"position": "4HPwATDgc/ABMA", "dice": "31"}).status_code == 200
        refused = limited.get("/api/position", params={"position": "4HPwATDgc/ABMA", "dice": "31"})
        assert refused.status_code == 429 and "at most 2 analyses a minute" in refused.json()["error"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60), st.text(max_size=6), st.integers(-2, 4), st.integers(-3, 30), st.integers(-2, 30))
def test_whatever_is_asked_gets_an_analysis_or_one_line_why_not(text: str, dice: str, depth: int, length: int,
                                                                 white: int) -> None:
    for position in (text, f"portes {text}", "4HPwATDgc/ABMA"):
        try:
            found = position_json(position, dice, depth, length=length, white=white)
        except PositionAnalysisError as exc:
            assert str(exc) and "\n" not in str(exc)
        else:
            assert found["legal"] == len(found["plays"])
