"""Challenges (tavli.server.cafe.lobby, lobby_api, lobby_socket; docs/cafe.md, "Challenges"): a
signed-in player challenges another by name; the challenge reaches whatever page of the café the
other has open (the lobby socket's personal notes, ``?only=notes``), he accepts (both are told
their seats) or declines (the challenger is told); the rules: accounts only, not oneself, not a
player away, one live challenge from one player to another, a few per challenger, an expiry; the
list of players online."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from app_client import as_player, sign_up, until_type
from starlette.testclient import TestClient

from tavli.server.cafe import lobby as lobby_module
from tavli.server.cafe.lobby import GUEST_COOKIE
from tavli.server.routes.context import context_of

Message = dict[str, Any]
NOTES = "/ws/lobby?only=notes"


@contextmanager
def page(client: TestClient, secret: str | None, path: str = NOTES) -> Iterator[Any]:
    """A page of ``secret``'s account (None: a guest's) with its lobby connection (or the socket
    of ``path``) open."""
    with as_player(client, secret):
        if secret is None:
            client.cookies.set(GUEST_COOKIE, "a-guest")
        ws = client.websocket_connect(path).__enter__()  # the cookies are read as it opens
    try:
        if path == NOTES and secret is not None:
            assert ws.receive_json()["type"] == "challenges"  # an account's page: his challenges, first
        yield ws
    finally:
        ws.__exit__(None, None, None)


def challenge(client: TestClient, secret: str | None, **body: Any) -> Any:
    with as_player(client, secret):
        return client.post("/api/challenges", json=body)


def answer(client: TestClient, secret: str | None, method: str, path: str) -> Any:
    with as_player(client, secret):
        return client.request(method, path, json={} if method == "POST" else None)


def heartbeat(client: TestClient) -> None:
    """The lobby's heartbeat now (the server runs it every few seconds)."""
    assert client.portal is not None
    lobby = context_of(client.app).lobby  # type: ignore[arg-type]
    client.portal.call(lobby.heartbeat)


def test_a_challenge_reaches_the_other_on_any_page_and_both_land_on_one_board(client: TestClient) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    with page(client, eleni) as a, page(client, nikos) as b:
        sent = challenge(client, eleni, to="nikos", length=5, games="tavli", clock="kafeneio", rated=True)
        assert sent.status_code == 201, sent.text
        mine = sent.json()
        assert mine["mine"] and mine["from"] == "Eleni" and mine["to"] == "Nikos" and 115 <= mine["expires"] <= 120
        told = until_type(b, "challenge")["challenge"]
        assert told["id"] == mine["id"] and not told["mine"] and told["from"] == "Eleni" and told["rating"] == 1500
        assert (told["length"], told["games"], told["clock"], told["rated"]) == (
            5, ["portes", "plakoto", "fevga"], {"delay": 8.0, "reserve": 60.0}, True)
        assert until_type(a, "challenge")["challenge"]["mine"]  # the challenger's own pages know it too
        with as_player(client, None):  # a challenge is no seek of the lobby's list
            assert client.get("/api/seeks").json()["seeks"] == []
        seat = answer(client, nikos, "POST", f"/api/challenges/{mine['id']}/accept")
        assert seat.status_code == 201, seat.text
        paired = until_type(a, "paired")
        assert paired["match"] == seat.json()["match"] and {paired["seat"], seat.json()["seat"]} == {"white", "black"}
        assert paired["rated"] and seat.json()["rated"]
        for ws in (a, b):
            gone = until_type(ws, "challenge-gone")
            assert (gone["id"], gone["why"], gone["from"], gone["to"]) == (mine["id"], "accepted", "Eleni", "Nikos")
        again = answer(client, nikos, "POST", f"/api/challenges/{mine['id']}/accept")
        assert again.status_code == 409
        with page(client, eleni, f"/ws/{paired['match']}") as ws:
            ws.send_json({"type": "hello", "token": paired["token"]})
            state = until_type(ws, "state")
            assert state["settings"]["rated"] and state["settings"]["length"] == 5 and state["clock"]["delay"] == 8000
            assert {state["players"]["white"]["name"], state["players"]["black"]["name"]} == {"Eleni", "Nikos"}
            heartbeat(client)  # Eleni at her board with a page open counts once among the players online
            assert client.get("/api/seeks").json()["online"] == 2


def test_a_decline_and_a_cancel_are_told_in_words_to_the_other(client: TestClient) -> None:
    eleni, nikos = sign_up(client, "Eleni"), sign_up(client, "Nikos")
    with page(client, eleni) as a, page(client, nikos) as b:
        first = challenge(client, eleni, to="Nikos", length=3, games="portes", clock="blitz").json()
        assert answer(client, eleni, "POST", f"/api/challenges/{first['id']}/decline").status_code == 403
        assert answer(client, nikos, "POST", f"/api/challenges/{first['id']}/decline").status_code == 204
        gone = until_type(a, "challenge-gone")
        assert (gone["why"], gone["mine"], gone["to"]) == ("declined", True, "Nikos")
        assert answer(client, nikos, "POST", f"/api/challenges/{first['id']}/decline").status_code == 404
        second = challenge(client, eleni, to="Nikos", length=7).json()  # declined: he may be asked again
        assert answer(client, nikos, "DELETE", f"/api/challenges/{second['id']}").status_code == 403
        assert answer(client, eleni, "DELETE", f"/api/challenges/{second['id']}").status_code == 204
        gone = (until_type(b, "challenge-gone"), until_type(b, "challenge-gone"))
        told = [m for m in gone if m["id"] == second["id"]]
        assert told and told[0]["why"] == "cancelled" and not told[0]["mine"] and told[0]["from"] == "Eleni"


def test_the_rules_and_limits_of_a_challenge(client: TestClient) -> None:
    names = ["Eleni", "Nikos", "Maria", "Petros", "Sofia", "Yannis"]
    secrets = {name: sign_up(client, name) for name in names}
    eleni = secrets["Eleni"]
    assert challenge(client, None, to="Nikos").json()["error"] == "log in to challenge a player"
    assert challenge(client, eleni, to="Eleni").json()["error"] == "you cannot challenge yourself"
    missing = challenge(client, eleni, to="Nobody")
    assert missing.status_code == 404 and missing.json()["error"] == "no player is called Nobody"
    away = challenge(client, eleni, to="Nikos")  # no page of the café open
    assert away.status_code == 409 and away.json()["error"].startswith("Nikos is not in the café now")
    for bad in ({"to": "Nikos", "range": [1, 2]}, {"to": "Nikos", "length": 0}, {"to": 7}, {},
                {"to": "Nikos", "games": "chess"}, {"to": "Nikos", "rated": True, "games": "fevga,portes"}):
        refused = challenge(client, eleni, **bad)
        assert refused.status_code == 400 and "\n" not in refused.json()["error"], (bad, refused.text)
    with page(client, eleni) as a, page(client, secrets["Nikos"]), page(client, secrets["Maria"]), \
            page(client, secrets["Petros"]), page(client, secrets["Sofia"]), page(client, None, "/ws/lobby"):
        assert challenge(client, eleni, to="Nikos").status_code == 201
        twice = challenge(client, eleni, to="NIKOS")
        assert twice.status_code == 409 and "already" in twice.json()["error"]
        assert challenge(client, eleni, to="Maria").status_code == 201
        to_petros = challenge(client, eleni, to="Petros").json()
        too_many = challenge(client, eleni, to="Sofia")
        assert too_many.status_code == 429 and too_many.json()["error"].startswith("at most 3 challenges")
        # only the player challenged may accept: another's accept is refused, and so is a guest's
        other = answer(client, secrets["Sofia"], "POST", f"/api/challenges/{to_petros['id']}/accept")
        assert other.status_code == 400 and other.json()["error"] == "that challenge is addressed to another player"
        with as_player(client, None):
            client.cookies.set(GUEST_COOKIE, "a-guest")
            assert client.post(f"/api/challenges/{to_petros['id']}/accept", json={}).status_code == 400
        assert answer(client, eleni, "DELETE", f"/api/challenges/{to_petros['id']}").status_code == 204
        assert challenge(client, eleni, to="Sofia").status_code == 201  # a cancelled one makes room
        # the lobby lists the players online by name, A to Z: accounts only, never a guest
        heartbeat(client)
        with as_player(client, None):
            listed = client.get("/api/seeks").json()
        assert listed["players"] == ["Eleni", "Maria", "Nikos", "Petros", "Sofia"] and listed["online"] == 6
        # an open seek of the challenger's leaves his challenges alone
        with as_player(client, eleni):
            assert client.post("/api/seeks", json={"length": 3}).status_code == 201
            assert len(client.get("/api/challenges").json()["challenges"]) == 3
        assert until_type(a, "challenge")["challenge"]["to"] == "Nikos"


def test_a_challenge_expires_and_goes_with_a_player_who_leaves(client: TestClient,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    eleni, nikos, maria = sign_up(client, "Eleni"), sign_up(client, "Nikos"), sign_up(client, "Maria")
    with page(client, eleni) as a, page(client, nikos):
        monkeypatch.setattr(lobby_module, "CHALLENGE_SECONDS", 0.2)
        soon = challenge(client, eleni, to="Nikos").json()
        monkeypatch.setattr(lobby_module, "CHALLENGE_SECONDS", 120.0)
        while answer(client, eleni, "GET", "/api/challenges").json()["challenges"]:
            time.sleep(0.05)  # listed until it expires
        heartbeat(client)
        gone = until_type(a, "challenge-gone")
        assert (gone["id"], gone["why"]) == (soon["id"], "expired")
        with page(client, maria):
            sent = challenge(client, maria, to="Eleni").json()
            assert until_type(a, "challenge")["challenge"]["from"] == "Maria"
            # a page of Eleni's opened now is told the challenge waiting for her
            with page(client, eleni, "/ws/lobby") as start:
                assert until_type(start, "seeks")["players"] is not None
                waiting = until_type(start, "challenges")["challenges"]
                assert [c["id"] for c in waiting] == [sent["id"]]
        while answer(client, eleni, "GET", "/api/challenges").json()["challenges"]:
            heartbeat(client)  # Maria left the café: her challenge goes, and Eleni is told
            time.sleep(0.02)
        gone = until_type(a, "challenge-gone")
        assert (gone["id"], gone["why"], gone["from"]) == (sent["id"], "left", "Maria")


def test_a_page_of_notes_is_told_no_seeks_and_keeps_no_seek(client: TestClient) -> None:
    eleni = sign_up(client, "Eleni")
    with page(client, eleni) as notes:
        with as_player(client, None):
            client.cookies.set(GUEST_COOKIE, "someone")
            assert client.post("/api/seeks", json={"length": 3}).status_code == 201
        notes.send_json({"type": "ping", "id": 1})
        assert notes.receive_json() == {"type": "pong", "id": 1}  # and no seek before it
        with page(client, eleni, "/ws/lobby") as start:
            until_type(start, "seeks")
            with as_player(client, eleni):
                assert client.post("/api/seeks", json={"length": 5}).status_code == 201
        # the start page closed: his seek goes with it, though another page of his stays open
        deadline = time.monotonic() + 10
        while any(s["name"] == "Eleni" for s in client.get("/api/seeks").json()["seeks"]):
            assert time.monotonic() < deadline
            time.sleep(0.02)
