"""The review of played matches (GET /api/matches/{id}/analysis, /match/{id}/review) and the coach's
hints (the ``hint`` message), through the HTTP API and the WebSocket protocol."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from app_client import make_client
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from tavli import Dice, Position
from tavli.bots.match_equity import MatchScore
from tavli.dice import DiceRoller
from tavli.formats.mat import export_mat
from tavli.formats.record import MatchRecord, PlayerInfo, dumps, loads
from tavli.match import Match, MatchSettings
from tavli.server.coach.review import REVIEW_DEPTH, MatchFileError, read_match_file, review_json
from tavli.server.routes.context import context_of
from tavli.server.routes.limits import MAX_FILE_BYTES
from tavli.study.analysis import evaluate_decision
from tavli.variants import BLACK, WHITE
from tests.test_server_app import hello, hello_both, is_state, new_match, token_of, until

Message = dict[str, Any]


def review(client: TestClient, match_id: str, token: str | None = None, limit: float = 120.0) -> Message:
    """The finished review, asked for until it is made (progress in between, never going back)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    deadline, done = time.monotonic() + limit, -1
    while time.monotonic() < deadline:
        answer = client.get(f"/api/matches/{match_id}/analysis", headers=headers)
        body = answer.json()
        if answer.status_code == 200 and body["status"] == "done":
            return dict(body)
        assert answer.status_code == 202 and body["status"] == "running", answer.text
        assert body["done"] >= done and body["total"] >= body["done"]
        done = body["done"]
        time.sleep(0.05)
    raise AssertionError("the review was never made")


def play_out(ws: Any, state: Message) -> Message:
    """Play the human seat's turns (the last listed play: often a poor one) until the match ends."""
    while not state["over"]:
        if state["can_roll"]:
            ws.send_json({"type": "roll", "seq": state["seq"]})
        elif state["can_play"]:
            ws.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][-1]})
        state = until(ws, lambda m: is_state(m) and (m["can_roll"] or m["can_play"] or m["over"]))
    return state


@pytest.mark.slow
def test_a_finished_match_is_reviewed_stored_and_agrees_with_the_library(db: Path) -> None:
    with make_client(db) as client:
        links = new_match(client, opponent="expert", length=1, games="portes", seat="white")
        mid = links["match"]
        with client.websocket_connect(f"/ws/{mid}") as ws:
            play_out(ws, hello(ws, links["token"]))
        found = review(client, mid)  # a finished match: anyone with its link
        assert review(client, mid, links["token"])["you"] == "white"  # the page draws it from the asker's side
        record = loads(client.get(f"/api/matches/{mid}/record").text)
    assert found["you"] == "spectator"
    assert found["over"] and found["depth"] == REVIEW_DEPTH and found["games_reviewed"] == 1
    turns = record.games[0].turns
    decisions = found["decisions"]
    assert [(d["played"], d["dice"]) for d in decisions] == [(t.play, str(Dice.of(t.dice))) for t in turns]
    assert [d["board"]["position"] for d in decisions] == [t.position for t in turns]
    assert found["games"][0]["start"]["position"] == str(Position.start("portes", record.games[0].first))
    assert found["players"]["black"]["kind"] == "bot" and found["players"]["black"]["level"] == "expert"
    # the last listed play is a poor habit: the person loses more per decision than the bot
    assert found["players"]["white"]["error_rate"] > found["players"]["black"]["error_rate"]
    worst = max(decisions, key=lambda d: d["loss"])
    assert worst["skill"] in ("doubtful", "error", "blunder")
    # a match (to 1 point: each side 1-away) is analysed by the chance of winning it
    assert found["match_length"] == 1 and worst["away"] == [1, 1]
    score = MatchScore.at(MatchSettings(length=1, games=("portes",)), 1, 1, 0)
    again = evaluate_decision(Position.from_string(worst["position"]), Dice.of(worst["dice"]), worst["played"],
                              REVIEW_DEPTH, score=score)
    assert worst["loss"] == pytest.approx(again.loss, abs=1e-3) and worst["best"] == again.best
    assert worst["mwc_loss"] == pytest.approx(again.mwc_loss, abs=1e-5) and worst["mwc_loss"] > 0
    assert found["players"]["white"]["mwc_loss"] > found["players"]["black"]["mwc_loss"]
    assert worst["candidates"][0]["play"] == worst["best"] and all(c["steps"] for c in worst["candidates"])
    # stored: a restarted server answers at once, without analysing again
    with make_client(db) as client:
        answer = client.get(f"/api/matches/{mid}/analysis")
        assert answer.status_code == 200 and answer.json() == found
        assert not context_of(client.app).reviewer.jobs  # type: ignore[arg-type]
        page = client.get(f"/match/{mid}/review")
        assert page.status_code == 200 and "review.js" in page.text


def resign_game(sockets: dict[str, Any], states: dict[str, Message]) -> str:
    """The seat on its turn resigns the game for one point and the other accepts; returns the winner."""
    loser = next(name for name, s in states.items() if s["can_resign"])
    winner = "black" if loser == "white" else "white"
    sockets[loser].send_json({"type": "resign", "seq": states[loser]["seq"], "points": 1})
    offer = until(sockets[winner], lambda m: is_state(m) and m["offer"] is not None)
    sockets[winner].send_json({"type": "answer", "seq": offer["seq"], "accept": True})
    until(sockets[loser], lambda m: is_state(m) and m["score"][winner] == 1)
    return winner


def test_a_match_going_on_shows_its_players_the_finished_games_only(client: TestClient) -> None:
    links = new_match(client, opponent="friend", length=3, games="fevga", seat="white")
    mid, tokens = links["match"], {"white": links["token"], "black": token_of(links["friend"])}
    spectator = token_of(links["watch"])
    assert client.get("/api/matches/nope/analysis").status_code == 404
    assert client.get("/api/matches/a.b/analysis").status_code == 404
    with client.websocket_connect(f"/ws/{mid}") as white, client.websocket_connect(f"/ws/{mid}") as black:
        w, b = hello_both(white, tokens["white"], black, tokens["black"])
        for _ in range(4):  # a few turns, whoever is to act
            ws, state = (white, w) if (w["can_roll"] or w["can_play"]) else (black, b)
            if state["can_roll"]:
                ws.send_json({"type": "roll", "seq": state["seq"]})
            else:
                ws.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]})
            w = until(white, lambda m, s=state["seq"]: is_state(m) and m["seq"] > s)
            b = until(black, lambda m, s=state["seq"]: is_state(m) and m["seq"] > s)
        headers = {"Authorization": f"Bearer {tokens['white']}"}
        nothing_yet = client.get(f"/api/matches/{mid}/analysis", headers=headers)
        assert nothing_yet.status_code == 200 and nothing_yet.json() == {"status": "empty", "games": 0, "over": False}
        winner = resign_game({"white": white, "black": black}, {"white": w, "black": b})
    for who in (None, spectator, "not-a-token"):
        headers = {"Authorization": f"Bearer {who}"} if who else {}
        refused = client.get(f"/api/matches/{mid}/analysis", headers=headers)
        assert refused.status_code == 403 and "over" in refused.json()["error"]
    found = review(client, mid, tokens["black"])
    assert not found["over"] and found["games_reviewed"] == 1 and len(found["games"]) == 1
    assert {d["game"] for d in found["decisions"]} == {0} and found["games"][0]["reason"] == "resigned"
    assert found["games"][0]["winner"] == winner and found["games"][0]["points"] == 1


def test_hints_from_the_coach(client: TestClient) -> None:
    links = new_match(client, opponent="expert", games="plakoto", seat="white")
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        state = hello(ws, links["token"])
        assert state["coach"] is True
        while not state["can_roll"]:
            state = until(ws, is_state)
        ws.send_json({"type": "hint", "id": 1})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "not-rolled"
        ws.send_json({"type": "roll", "seq": state["seq"]})
        state = until(ws, lambda m: is_state(m) and (m["can_play"] or m["can_roll"]))
        while not state["can_play"]:  # a roll that cannot be played passes: roll again
            ws.send_json({"type": "roll", "seq": state["seq"]})
            state = until(ws, lambda m: is_state(m) and (m["can_play"] or m["can_roll"]))
        played = state["legal"]["plays"][-1]
        ws.send_json({"type": "hint", "id": 2, "play": played})
        hint = until(ws, lambda m: m["type"] in ("hint", "error"))
        assert hint["type"] == "hint" and hint["id"] == 2 and hint["seq"] == state["seq"], hint
        plays = hint["plays"]
        assert 1 <= len(plays) <= 3 and plays[0]["loss"] == 0.0
        # for the match, as the bots play: ranked by the chance of winning it at the score
        assert [p["mwc"] for p in plays] == sorted((p["mwc"] for p in plays), reverse=True)
        assert {p["play"] for p in plays} <= set(state["legal"]["plays"])
        checked = hint["checked"]
        assert checked["play"] == played
        position = Position.from_string(state["game"]["position"])
        settings = MatchSettings(length=state["settings"]["length"], games=tuple(state["settings"]["games"]))
        score = MatchScore.at(settings, settings.length - state["score"]["white"],
                              settings.length - state["score"]["black"], state["game"]["index"])
        again = evaluate_decision(position, Dice.of(hint["dice"]), played, hint["depth"], score=score)
        assert checked["skill"] == again.skill and plays[0]["play"] == again.best
        assert checked["loss"] == pytest.approx(again.loss, abs=2e-4)
        ws.send_json({"type": "hint", "id": 3, "play": "24/1"})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "illegal"
        ws.send_json({"type": "hint", "id": 4, "play": 5})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "bad-message"
    spectator = token_of(links["watch"])
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        hello(ws, spectator)
        ws.send_json({"type": "hint", "id": 5})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "not-your-turn"


def test_the_coach_between_friends_is_the_creators_choice(client: TestClient) -> None:
    assert client.post("/api/matches", json={"opponent": "friend", "coach": "yes"}).status_code == 400
    for body, coach in (({}, False), ({"coach": True}, True)):
        links = new_match(client, opponent="friend", **body)
        for token in (links["token"], token_of(links["friend"])):  # shown to both
            with client.websocket_connect(f"/ws/{links['match']}") as ws:
                state = hello(ws, token)
                assert state["coach"] is coach
                if not coach:
                    ws.send_json({"type": "hint", "id": 1})
                    assert until(ws, lambda m: m["type"] == "error")["code"] == "no-coach"
    links = new_match(client, opponent="beginner", coach=False)
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        assert hello(ws, links["token"])["coach"] is False


# -- match files reviewed on upload (POST /api/review, /review) ---------------------------------------

def played_record(games: tuple[str, ...] = ("portes",), length: int = 1, seed: int = 3,
                  finish: bool = True) -> MatchRecord:
    """A match between two players who always make the first legal play: over, or stopped in its first game."""
    m = Match(MatchSettings(length=length, games=games), DiceRoller(seed=seed))
    for _ in range(10 if not finish else 100_000):
        if m.is_over:
            break
        m.roll()
        legal = m.legal_plays()
        m.play(legal[0] if len(legal) else None)
    return MatchRecord.from_match(m, {WHITE: PlayerInfo("human", "Ada"), BLACK: PlayerInfo("bot", "expert")})


def test_a_match_file_is_a_record_or_a_mat_file_with_finished_games() -> None:
    record = played_record(("portes", "fevga"), length=2)
    assert read_match_file(dumps(record).encode()) == record
    assert read_match_file(b"\xef\xbb\xbf" + dumps(record).encode()) == record  # a byte-order mark
    portes = played_record(length=3)
    assert read_match_file(export_mat(portes).encode()).games[-1].turns == portes.games[-1].turns
    # GNU Backgammon may write names in Latin-1
    latin = read_match_file(export_mat(played_record()).replace("Ada", "Zoë").encode("latin-1"))
    assert latin.players[WHITE].name == "Zoë"
    going_on = played_record(finish=False)
    assert going_on.games[-1].end is None
    with pytest.raises(MatchFileError, match="no finished game"):
        read_match_file(dumps(going_on).encode())


@pytest.mark.parametrize(("data", "words"), [
    (b"", "the file is empty"),
    (b" \n ", "the file is empty"),
    (b"to be or not to be", "not a match file"),
    (b"{", "not JSON"),
    (b'{"format": "tavli-match"}', "version"),
    (b" 3 point match\n\n Game 1\n nonsense", "line"),
])
def test_what_is_not_a_match_file_says_why_in_one_line(data: bytes, words: str) -> None:
    with pytest.raises(ValueError, match=words) as caught:
        read_match_file(data)
    assert "\n" not in str(caught.value)


def test_a_match_too_long_for_the_server_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    record = played_record()
    turns = len(record.games[0].turns)
    monkeypatch.setattr("tavli.server.coach.review.MAX_FILE_TURNS", turns - 1)
    with pytest.raises(MatchFileError, match=f"the match has {turns} turns: the server reviews at most {turns - 1}"):
        read_match_file(dumps(record).encode())


@pytest.mark.slow
def test_an_uploaded_match_is_reviewed_as_a_stored_one(client: TestClient) -> None:
    record = played_record(("portes", "fevga"), length=2)
    answer = client.post("/api/review", content=dumps(record).encode())
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
    found = answer.json()
    expected = json.loads(review_json(record, REVIEW_DEPTH))
    assert found["status"] == "done" and found["match"] is None and found["you"] == "spectator"
    assert found["games_reviewed"] == len(record.games) and found["over"] is True
    assert found["decisions"] == expected["decisions"] and found["players"] == expected["players"]
    portes = played_record(length=3)
    from_mat = client.post("/api/review", content=export_mat(portes).encode()).json()
    assert from_mat["players"]["white"]["name"] == "Ada"
    assert len(from_mat["decisions"]) == sum(len(g.turns) for g in portes.games)
    page = client.get("/review")
    assert page.status_code == 200 and "review.js" in page.text


@pytest.mark.slow
def test_an_upload_that_cannot_be_reviewed_gets_a_one_line_4xx(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with make_client(db, file_reviews_per_minute=2) as client:
        going_on = dumps(played_record(finish=False)).encode()
        for data, words in ((b"", "empty"), (b"{}", "not a Tavli match record"), (going_on, "no finished game")):
            answer = client.post("/api/review", content=data)
            assert answer.status_code == 400 and words in answer.json()["error"], answer.text
        big = client.post("/api/review", content=b" " * (MAX_FILE_BYTES + 1))
        assert big.status_code == 413 and f"at most {MAX_FILE_BYTES} bytes" in big.json()["error"]
        small = dumps(played_record()).encode()
        monkeypatch.setattr("tavli.server.routes.limits.FILE_REVIEWS_WAITING", 0)
        busy = client.post("/api/review", content=small)
        assert busy.status_code == 503 and "busy" in busy.json()["error"]
        monkeypatch.undo()
        for _ in range(2):  # the busy answer and the refused files did not count
            assert client.post("/api/review", content=small).status_code == 200
        limited = client.post("/api/review", content=small)
        assert limited.status_code == 429 and "at most 2 match files a minute" in limited.json()["error"]


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode)
       | st.sampled_from([b'{"format": "tavli-match", "version": 1', b" 1 point match\n Game 1\n"]).flatmap(
           lambda head: st.binary(max_size=200).map(lambda tail: head + tail)))
def test_any_bytes_are_a_match_file_or_one_line_why_not(data: bytes) -> None:
    try:
        read_match_file(data)
    except ValueError as exc:
        assert str(exc) and "\n" not in str(exc)
