"""The opening tables as the web app serves them: the JSON of tavli.server.coach.openings_view and its routes."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from app_client import make_client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tavli import Dice, Position
from tavli.server.coach.openings_view import SHOWN_PLAYS, openings_json, practice_json, roll_json
from tavli.server.play.view import board_json, step_tree_json
from tavli.study.analysis import THRESHOLDS
from tavli.study.openings import OPENING_ROLLS, OpeningsError, shipped


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("openings") / "t.db") as c:
        yield c


@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga"])
def test_the_overview_has_each_roll_and_its_best_play(game: str) -> None:
    found = openings_json(game)
    assert found["game"] == game and found["level"] == shipped().settings.level
    assert found["mean"] == pytest.approx(shipped().mean(game))
    assert found["start"] == board_json(Position.start(game))
    assert [r["roll"] for r in found["rolls"]] == [str(d) for d in OPENING_ROLLS]
    assert sum(r["throws"] for r in found["rolls"]) == 36
    for r, dice in zip(found["rolls"], OPENING_ROLLS, strict=True):
        assert r["best"] == shipped().summary(game, dice)[0].to_json()
        assert r["legal"] == len(Position.start(game).legal_plays(dice))


@pytest.mark.parametrize(("game", "roll"), [("portes", "1-1"), ("portes", "3-1"), ("plakoto", "6-5"),
                                            ("fevga", "5-5"), ("fevga", "2-1")])
def test_a_roll_lists_its_plays_with_their_boards(game: str, roll: str) -> None:
    found = roll_json(game, roll)
    dice = Dice.parse(roll)
    start = Position.start(game)
    summaries = shipped().summary(game, dice)
    rolled = sum(s.rolled_out for s in summaries)
    assert found["legal"] == len(start.legal_plays(dice)) == len(summaries)
    assert len(found["plays"]) == max(rolled, min(SHOWN_PLAYS, len(summaries)))
    for shown, summary in zip(found["plays"], summaries, strict=False):
        assert {k: shown[k] for k in summary.to_json()} == summary.to_json()
        after = start.play(summary.play, dice)
        assert shown["board"] == board_json(after)
        moved = start.parse_play(summary.play, dice).steps  # White is the starter: his numbering is the board's
        assert shown["steps"] == [[s.src, s.dst, bool(s.hit)] for s in moved]


@pytest.mark.parametrize(("game", "roll"), [("portes", "6-5"), ("plakoto", "2-2"), ("fevga", "5-5"),
                                            ("fevga", "6-6")])
def test_a_roll_to_practise_has_every_play_its_loss_and_the_best(game: str, roll: str) -> None:
    found = practice_json(game, roll)
    dice = Dice.parse(roll)
    start = Position.start(game)
    legal = start.legal_plays(dice)
    losses = shipped().losses(game, dice)
    assert found["start"] == board_json(start)
    assert found["legal"] == {"plays": [str(p) for p in legal], "tree": step_tree_json(legal)}
    assert found["losses"] == [pytest.approx(losses[str(p)], abs=1e-4) for p in legal]
    forced = len(legal) == 1  # Fevga's 6-6 has one play: nothing to judge
    assert found["skills"] == ["" if forced else THRESHOLDS[game].skill(losses[str(p)]) for p in legal]
    best = shipped().summary(game, dice)[0]
    k = found["best"]["index"]
    assert found["best"]["play"] == str(legal[k]) == best.play and found["losses"][k] == 0
    assert found["best"]["board"] == board_json(start.play(legal[k], dice))
    assert found["best"]["steps"] == [[s.src, s.dst, bool(s.hit)] for s in legal[k].steps]


def test_a_roll_can_be_named_in_either_order() -> None:
    assert roll_json("plakoto", "56") == roll_json("plakoto", "5-6") == roll_json("plakoto", "6-5")
    assert roll_json("plakoto", "56")["roll"] == "6-5"


@pytest.mark.parametrize(("game", "roll", "words"), [("chess", None, "no opening tables for 'chess'"),
                                                     ("chess", "6-5", "no opening tables for 'chess'"),
                                                     ("portes", "7-1", "not a roll"),
                                                     ("portes", "66-1", "not a roll")])
def test_unknown_games_and_rolls_are_refused(game: str, roll: str | None, words: str) -> None:
    with pytest.raises(OpeningsError, match=words):
        openings_json(game) if roll is None else roll_json(game, roll)


def test_the_routes(client: TestClient) -> None:
    page = client.get("/openings")
    assert page.status_code == 200 and "openings.js" in page.text
    overview = client.get("/api/openings/fevga")
    assert overview.status_code == 200 and overview.json() == openings_json("fevga")
    assert "max-age" in overview.headers["cache-control"]
    detail = client.get("/api/openings/portes/13")
    assert detail.status_code == 200 and detail.json() == roll_json("portes", "3-1")
    practice = client.get("/api/openings/plakoto/56/practice")
    assert practice.status_code == 200 and practice.json() == practice_json("plakoto", "6-5")
    page = client.get("/practice")
    assert page.status_code == 200 and "practice.js" in page.text
    assert "/openings" in client.get("/").text and "/practice" in client.get("/openings").text


@pytest.mark.parametrize("path", ["/api/openings/chess", "/api/openings/portes/7-1", "/api/openings/portes/x",
                                  "/api/openings/portes/%20", "/api/openings/PORTES/6-5",
                                  "/api/openings/chess/6-5/practice", "/api/openings/portes/0-0/practice"])
def test_bad_requests_get_a_one_line_error(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 404
    message = answer.json()["error"]
    assert message and "\n" not in message



@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["portes", "plakoto", "fevga", "chess", ""]), roll=st.text(max_size=8))
def test_any_roll_to_practise_gets_its_plays_or_one_line_why_not(client: TestClient, game: str, roll: str) -> None:
    answer = client.get(f"/api/openings/{quote(game, safe='')}/{quote(roll, safe='')}/practice")
    assert answer.status_code in (200, 404)
    if answer.status_code == 200:
        assert answer.json() == practice_json(game, roll)
    elif answer.headers["content-type"].startswith("application/json"):
        message = answer.json()["error"]
        assert message and "\n" not in message
