"""The web app's match record: GET /api/matches/{id}/record, through the HTTP API and the WebSocket protocol."""

from __future__ import annotations

from starlette.testclient import TestClient

from tavli.formats.record import PlayerInfo, loads
from tavli.variants import BLACK, WHITE
from tests.test_server_app import hello, is_state, new_match, until


def test_a_whole_match_against_a_bot_downloads_as_a_record(client: TestClient) -> None:
    links = new_match(client, opponent="advanced", length=2, games="portes,plakoto", seat="black")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as ws:
        state = hello(ws, links["token"])
        while not state["over"]:
            if state["can_roll"]:
                ws.send_json({"type": "roll", "seq": state["seq"]})
            elif state["can_play"]:
                ws.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][-1]})
            state = until(ws, lambda m: is_state(m) and (m["can_roll"] or m["can_play"] or m["over"]))
    answer = client.get(f"/api/matches/{mid}/record")
    assert answer.status_code == 200 and answer.headers["content-type"] == "application/json"
    record = loads(answer.text)  # every play, position, end and die checked
    assert record.players == {WHITE: PlayerInfo("bot", "advanced"), BLACK: PlayerInfo("human", "")}
    assert record.settings.length == 2 and record.settings.games == ("portes", "plakoto")
    assert {"white": record.score[WHITE], "black": record.score[BLACK]} == state["score"]
    assert record.winner is not None and record.meta["match"] == mid
    assert len(record.games) == len(state["games"])
    for game, shown in zip(record.games, state["games"], strict=True):
        assert game.seed == shown["seed"] and game.commitment == shown["commitment"]
        assert game.end is not None and game.end.points == shown["result"]["points"]
    assert [(t.play, list(t.dice)) for t in record.games[-1].turns] == \
        [(m["play"], m["dice"]) for m in state["game"]["moves"]]


def test_the_seed_of_a_game_going_on_is_withheld(client: TestClient) -> None:
    links = new_match(client, opponent="friend", games="fevga")
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        state = hello(ws, links["token"])
        if state["can_roll"]:  # White starts: a turn is played
            ws.send_json({"type": "roll", "seq": state["seq"]})
            state = until(ws, lambda m: is_state(m) and (m["can_play"] or m["dice"] is None))
            if state["can_play"]:
                ws.send_json({"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]})
                state = until(ws, lambda m: is_state(m) and m["dice"] is None)
    record = loads(client.get(f"/api/matches/{links['match']}/record").text)
    game = record.games[0]
    assert game.end is None and game.seed is None and game.commitment == state["game"]["commitment"]
    assert record.players == {WHITE: PlayerInfo("human", ""), BLACK: PlayerInfo("human", "")}


def test_a_match_downloaded_mid_turn_keeps_its_roll_and_goes_on_from_the_record(client: TestClient) -> None:
    links = new_match(client, opponent="beginner", games="portes", seat="white")
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        state = hello(ws, links["token"])
        for _ in range(20):  # until the player holds a roll he can play
            if state["can_play"]:
                break
            if state["can_roll"]:
                ws.send_json({"type": "roll", "seq": state["seq"]})
            state = until(ws, lambda m: is_state(m) and (m["can_roll"] or m["can_play"]))
        assert state["can_play"]
        record = loads(client.get(f"/api/matches/{links['match']}/record").text)
    game = record.games[0]
    assert game.end is None and game.rolled is not None and list(game.rolled) == state["dice"]
    match = record.to_match()  # what tavli play --resume goes on from
    assert match.dice == game.rolled and match.turn == WHITE
    assert len(match.legal_plays()) == len(state["legal"]["plays"])


def test_an_unknown_match_is_404(client: TestClient) -> None:
    answer = client.get("/api/matches/nope/record")
    assert answer.status_code == 404 and answer.json()["error"] == "no such match"


def test_the_match_page_links_the_download(client: TestClient) -> None:
    page = client.get("/match/abc").text
    assert 'id="download-record"' in page
    assert "/record`" in client.get("/static/play.js").text
