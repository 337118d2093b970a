"""Aborting a match (the ``abort`` action): either player, before both have made a play; no
result, nothing rated, the clocks stopped; every later action refused; kept across restarts."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from app_client import Message, hello, make_client, new_match, token_of, until
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import TestClient

from tavli.formats.mat import export_mat
from tavli.formats.record import loads
from tavli.server.cafe.results import Results


def newer(ws: Any, seq: int) -> Message:
    return until(ws, lambda m: m["type"] == "state" and m["seq"] > seq)


def refusal(ws: Any, message: Message) -> Message:
    ws.send_json(message)
    return until(ws, lambda m: m["type"] == "error")


@contextmanager
def both_seated(client: TestClient, links: Message) -> Iterator[tuple[dict[str, Any], Message]]:
    """Both players of a friend match connected: their sockets by seat, and the state once
    neither waits for the other."""
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as first, client.websocket_connect(f"/ws/{mid}") as second:
        hello(first, links["token"])
        state = hello(second, token_of(links["friend"]))
        if state["waiting"]:
            state = until(second, lambda m: m["type"] == "state" and not m["waiting"])
        sockets = {links["seat"]: first, state["you"]: second}
        yield sockets, state


def play_one(ws: Any, state: Message) -> Message:
    """Roll and make the first legal play; the state after it."""
    ws.send_json({"type": "roll", "seq": state["seq"]})
    rolled = until(ws, lambda m: m["type"] == "state" and m["dice"] is not None and m["seq"] > state["seq"])
    ws.send_json({"type": "play", "seq": rolled["seq"], "play": rolled["legal"]["plays"][0]})
    return newer(ws, rolled["seq"])


def test_either_player_can_abort_before_both_have_played_and_the_opponent_sees_it(client: TestClient) -> None:
    for who in ("mover", "other"):
        links = new_match(client, opponent="friend", length=3, games="portes", clock="none")
        with both_seated(client, links) as (ws, state):
            mover, other = state["turn"], "black" if state["turn"] == "white" else "white"
            assert state["can_abort"] and not state["aborted"]
            state = play_one(ws[mover], state)  # one side has played: still free to abort
            assert state["can_abort"]
            aborter = mover if who == "mover" else other
            watcher = other if aborter == mover else mover
            ws[aborter].send_json({"type": "abort", "seq": state["seq"]})
            seen = newer(ws[watcher], state["seq"])  # the opponent is told at once
            assert seen["over"] and seen["aborted"] and seen["winner"] is None and not seen["can_abort"]
            assert seen["score"] == {"white": 0, "black": 0} and not seen["can_roll"] and not seen["can_resign"]
            assert seen["games"][0]["result"] == {"winner": None, "points": 0, "reason": "aborted", "why": "aborted"}
        record = loads(client.get(f"/api/matches/{links['match']}/record").content)
        assert record.aborted and record.to_match().aborted  # the record replays it
        assert "Wins" not in export_mat(record)  # its game as it stands, no winner


def test_no_abort_once_both_have_played(client: TestClient) -> None:
    links = new_match(client, opponent="friend", length=3, games="portes", clock="none")
    with both_seated(client, links) as (ws, state):
        mover, other = state["turn"], "black" if state["turn"] == "white" else "white"
        state = play_one(ws[mover], state)
        state = play_one(ws[other], state)
        assert not state["can_abort"]
        for seat in (mover, other):
            refused = refusal(ws[seat], {"type": "abort", "seq": state["seq"]})
            assert refused["code"] == "no-abort"
            assert refused["message"] == "a match can be aborted only before both players have made a play"


def test_a_match_can_be_aborted_while_the_friend_has_not_come(client: TestClient) -> None:
    links = new_match(client, opponent="friend", clock="none")
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        state = hello(ws, links["token"])
        assert state["waiting"] and state["can_abort"]
        ws.send_json({"type": "abort", "seq": state["seq"]})
        assert newer(ws, state["seq"])["aborted"]
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        assert hello(ws, token_of(links["friend"]))["aborted"]  # the friend finds it called off
        assert hello(ws, links["token"])["code"] == "bad-message"  # (one hello a connection)


def test_every_action_after_an_abort_is_refused_with_its_own_code(client: TestClient) -> None:
    links = new_match(client, opponent="friend", clock="none")
    with both_seated(client, links) as (ws, state):
        me = links["seat"]
        ws[me].send_json({"type": "abort", "seq": state["seq"]})
        over = newer(ws[me], state["seq"])
        for late in ({"type": "roll"}, {"type": "abort"}, {"type": "resign", "match": True},
                     {"type": "rematch"}, {"type": "claim"}, {"type": "answer", "accept": True}):
            for seq in (over["seq"], state["seq"]):  # stale or not: the abort is what answers
                refused = refusal(ws[me], late | {"seq": seq})
                assert refused["code"] == "aborted", late
                assert refused["message"] == "the match was aborted: nothing more can be done in it"
                assert refused["reason"]["template"] == refused["message"]


def test_a_spectator_cannot_abort(client: TestClient) -> None:
    links = new_match(client, opponent="friend", clock="none")
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        state = hello(ws, token_of(links["watch"]))
        assert state["can_abort"] is False
        assert refusal(ws, {"type": "abort", "seq": state["seq"]})["code"] == "spectator"


def test_against_a_bot_the_player_can_abort_until_his_first_play(client: TestClient) -> None:
    links = new_match(client, opponent="beginner", length=3, games="portes")
    with client.websocket_connect(f"/ws/{links['match']}") as ws:
        state = hello(ws, links["token"])
        if state["turn"] != state["you"]:
            state = until(ws, lambda m: m["type"] == "state" and m["turn"] == m["you"])
        assert state["can_abort"]  # the bot may have played: its play does not count against him
        state = play_one(ws, state)
        if not state["over"]:
            state = until(ws, lambda m: m["type"] == "state" and (m["turn"] == m["you"] or m["over"]))
        assert not state["can_abort"]
        assert refusal(ws, {"type": "abort", "seq": state["seq"]})["code"] in ("no-abort", "match-over")


def sign_up(client: TestClient, name: str) -> str:
    client.cookies.clear()
    answer = client.post("/api/accounts", json={"name": name, "password": "a long password"})
    assert answer.status_code == 201, answer.text
    return str(answer.cookies["tavli_session"])


def test_an_aborted_rated_match_rates_nobody_and_counts_no_loss(client: TestClient, db: Path) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    client.cookies.clear()
    client.cookies.set("tavli_session", eleni)
    links = new_match(client, opponent="friend", rated=True, length=1, games="plakoto", clock="none")
    mid = links["match"]
    with client.websocket_connect(f"/ws/{mid}") as a:
        hello(a, links["token"])
        client.cookies.clear()
        client.cookies.set("tavli_session", nikos)
        with client.websocket_connect(f"/ws/{mid}") as b:
            state = hello(b, token_of(links["friend"]))
            if state["waiting"]:
                state = until(b, lambda m: m["type"] == "state" and not m["waiting"])
            b.send_json({"type": "abort", "seq": state["seq"]})
            assert newer(a, state["seq"])["aborted"]
    for name in ("Eleni", "Nikos"):
        page = client.get(f"/api/players/{name}").json()
        assert page["ratings"] == {} and page["history"] == {}  # no rating changed
        assert (page["lost_on_time"], page["lost_by_leaving"]) == (0, 0)
        assert all(tally == {"won": 0, "lost": 0, "gammons": 0} for tally in page["record"].values())
        listed = page["matches"][0]
        assert listed["id"] == mid and listed["result"] == "aborted" and listed["ending"] == "aborted"
        assert listed["score"] is None and listed["rating"] is None
    assert asyncio.run(left_unrated(db)) == []  # nothing for a restarted server to rate either


async def left_unrated(db: Path) -> list[str]:
    engine = create_async_engine(f"sqlite+aiosqlite:///{db}")
    try:
        return await Results(engine).unrated()
    finally:
        await engine.dispose()


@pytest.mark.slow
def test_a_clocked_aborted_match_never_flags(client: TestClient) -> None:
    links = new_match(client, opponent="friend", length=1, games="fevga", clock={"delay": 0, "reserve": 1})
    with both_seated(client, links) as (ws, state):
        if not state["clock"]["started"]:
            state = until(ws[links["seat"]], lambda m: m["type"] == "state" and m["clock"]["started"])
        me = links["seat"]
        ws[me].send_json({"type": "abort", "seq": state["seq"]})
        over = newer(ws[me], state["seq"])
        assert over["aborted"] and over["clock"]["running"] is None
        time.sleep(1.5)  # past the second of reserve the mover had
        ws[me].send_json({"type": "ping", "id": 1})
        pong = until(ws[me], lambda m: m["type"] in ("pong", "state"))
        assert pong["type"] == "pong"  # no state: nothing was stored meanwhile
    record = loads(client.get(f"/api/matches/{links['match']}/record").content)
    assert record.aborted and record.games[0].end is not None and record.games[0].end.reason == "aborted"


def test_an_aborted_match_stays_aborted_after_a_restart(db: Path) -> None:
    with make_client(db) as client:
        links = new_match(client, opponent="friend", clock="kafeneio")
        with both_seated(client, links) as (ws, state):
            ws[links["seat"]].send_json({"type": "abort", "seq": state["seq"]})
            newer(ws[links["seat"]], state["seq"])
    with make_client(db) as again, again.websocket_connect(f"/ws/{links['match']}") as ws:
        state = hello(ws, token_of(links["friend"]))
        assert state["aborted"] and state["over"] and state["clock"]["running"] is None
        assert refusal(ws, {"type": "roll", "seq": state["seq"]})["code"] == "aborted"


@pytest.mark.slow
def test_an_aborted_match_stays_aborted_after_kill_9(tmp_path: Path) -> None:
    from serve_process import Server

    db = tmp_path / "tavli.db"
    server = Server(db)
    try:
        links = server.post("/api/matches", {"opponent": "friend", "length": 1, "games": "portes"})
        mid = links["match"]
        with server.socket(mid) as a:
            a.send(json.dumps({"type": "hello", "token": links["token"]}))
            state = json.loads(a.recv(timeout=30))
            a.send(json.dumps({"type": "abort", "seq": state["seq"]}))
            while not state.get("aborted"):
                state = json.loads(a.recv(timeout=30))
    finally:
        server.stop(signal.SIGKILL)
    again = Server(db)
    try:
        with again.socket(mid) as b:
            b.send(json.dumps({"type": "hello", "token": token_of(links["friend"])}))
            state = json.loads(b.recv(timeout=30))
            assert state["type"] == "state" and state["aborted"] and state["winner"] is None
            b.send(json.dumps({"type": "roll", "seq": state["seq"]}))
            assert json.loads(b.recv(timeout=30))["code"] == "aborted"
    finally:
        again.stop()
