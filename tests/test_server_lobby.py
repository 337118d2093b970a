"""The lobby (tavli.server.cafe.lobby, lobby_api): seeks posted, listed, cancelled by their owner only
and accepted once; the seeker told his match on his lobby WebSocket; a seek gone with its
owner's connection; bad seeks refused in one line; rated seeks for accounts; play now."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from app_client import until_type
from starlette.testclient import TestClient

from tavli.server.cafe import lobby as lobby_module
from tavli.server.cafe.lobby import GUEST_COOKIE, Person, SeekGone, nearest_bot
from tavli.server.routes.context import context_of

Message = dict[str, Any]


def be(client: TestClient, guest: str) -> None:
    """Make ``client`` the guest whose cookie is ``guest`` (and no account)."""
    client.cookies.clear()
    client.cookies.set(GUEST_COOKIE, guest)


def post(client: TestClient, **body: Any) -> Message:
    answer = client.post("/api/seeks", json=body)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def test_a_seek_is_listed_accepted_once_and_its_owner_told(client: TestClient) -> None:
    be(client, "anna")
    with client.websocket_connect("/ws/lobby") as anna:
        first = until_type(anna, "seeks")
        assert first["seeks"] == [] and "online" in first and "playing" in first
        seek = post(client, length=3, games="portes", clock="blitz", name="Anna")
        assert seek["mine"] and seek["clock"] == {"delay": 5.0, "reserve": 30.0} and seek["name"] == "Anna"
        assert until_type(anna, "seek")["seek"]["id"] == seek["id"]
        be(client, "bob")
        listed = client.get("/api/seeks").json()["seeks"]
        assert [s["id"] for s in listed] == [seek["id"]] and not listed[0]["mine"]
        seat = client.post(f"/api/seeks/{seek['id']}/accept", json={"name": "Bob"})
        assert seat.status_code == 201, seat.text
        mine = seat.json()
        again = client.post(f"/api/seeks/{seek['id']}/accept", json={})
        assert again.status_code == 409 and "\n" not in again.json()["error"]
        told = until_type(anna, "paired")
        assert told["match"] == mine["match"] and {told["seat"], mine["seat"]} == {"white", "black"}
        assert told["play"].endswith(told["token"])
        assert until_type(anna, "gone")["id"] == seek["id"]
    assert client.get("/api/seeks").json()["seeks"] == []
    with client.websocket_connect(f"/ws/{mine['match']}") as ws:
        ws.send_json({"type": "hello", "token": mine["token"]})
        state = ws.receive_json()
        assert state["type"] == "state" and state["clock"]["delay"] == 5000
        assert state["players"][told["seat"]]["name"] == "Anna"


def test_bad_seeks_get_a_one_line_400(client: TestClient) -> None:
    be(client, "carol")
    for bad in ({"length": 0}, {"length": "5"}, {"games": "chess"}, {"clock": {"delay": 0, "reserve": 0}},
                {"clock": "forever"}, {"rated": "yes"}, {"range": [1800, 1200]}, {"range": "near"},
                {"colour": "white"}, {"clock": {"delay": 8, "reserve": 365 * 86400}}):
        answer = client.post("/api/seeks", json=bad)
        assert answer.status_code == 400, (bad, answer.text)
        assert answer.json()["error"] and "\n" not in answer.json()["error"]
    assert client.post("/api/seeks", content=b"[1,").status_code == 400
    assert client.get("/api/seeks").json()["seeks"] == []


def test_a_rated_seek_needs_an_account(client: TestClient) -> None:
    be(client, "dora")
    refused = client.post("/api/seeks", json={"rated": True})
    assert refused.status_code == 400 and refused.json()["error"] == "log in to seek a rated match"
    client.cookies.clear()
    assert client.post("/api/accounts", json={"name": "Dora", "password": "a long password 1"}).status_code == 201
    seek = post(client, rated=True, length=3)
    assert seek["rated"] and seek["name"] == "Dora" and seek["rating"] == 1500
    be(client, "eve")  # a guest may not accept it
    answer = client.post(f"/api/seeks/{seek['id']}/accept", json={})
    assert answer.status_code == 400 and answer.json()["error"] == "log in to accept a rated seek"


def test_only_its_owner_cancels_a_seek(client: TestClient) -> None:
    be(client, "fay")
    seek = post(client)
    be(client, "gus")
    assert client.delete(f"/api/seeks/{seek['id']}").status_code == 403
    be(client, "fay")
    seek = post(client)
    assert client.delete(f"/api/seeks/{seek['id']}").status_code == 204
    assert client.delete(f"/api/seeks/{seek['id']}").status_code == 404
    seek = post(client)
    own = client.post(f"/api/seeks/{seek['id']}/accept", json={})
    assert own.status_code == 400 and "yours" in own.json()["error"]


def test_a_seek_goes_when_its_owner_leaves(client: TestClient) -> None:
    be(client, "hal")
    with client.websocket_connect("/ws/lobby") as ws:
        until_type(ws, "seeks")
        post(client)
        assert len(client.get("/api/seeks").json()["seeks"]) == 1
    deadline = time.monotonic() + 1.0  # the server hears the close a moment later
    while client.get("/api/seeks").json()["seeks"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert client.get("/api/seeks").json()["seeks"] == []


def test_many_accepts_at_once_make_one_match(client: TestClient) -> None:
    be(client, "ivy")
    seek = post(client)
    lobby = context_of(client.app).lobby  # type: ignore[arg-type]

    async def race() -> list[Any]:
        takers = [lobby.accept(Person(f"gtaker{i}"), seek["id"]) for i in range(6)]
        return list(await asyncio.gather(*takers, return_exceptions=True))

    assert client.portal is not None
    results = client.portal.call(race)
    assert sum(isinstance(r, dict) for r in results) == 1
    assert sum(isinstance(r, SeekGone) for r in results) == 5, results


def test_play_now_pairs_two_asking_for_the_same_match(client: TestClient) -> None:
    be(client, "jon")
    waiting = client.post("/api/play", json={"length": 3, "clock": "blitz"})
    assert waiting.status_code == 202 and waiting.json()["seek"]["quick"]
    be(client, "kim")
    other = client.post("/api/play", json={"length": 5, "clock": "blitz"})  # another length: no pair
    assert other.status_code == 202
    be(client, "lea")
    paired = client.post("/api/play", json={"length": 3, "clock": "blitz"})
    assert paired.status_code == 201 and paired.json()["paired"]["match"]
    assert nearest_bot(1500) == "intermediate" and nearest_bot(2400) == "champion"


@pytest.mark.parametrize("path", ["/api/seeks/nope/accept"])
def test_an_unknown_seek_is_gone(client: TestClient, path: str) -> None:
    be(client, "max")
    answer = client.post(path, json={})
    assert answer.status_code == 409 and answer.json()["error"].startswith("no such seek")


def test_play_now_alone_is_offered_the_nearest_bot(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lobby_module, "BOT_AFTER", 0.5)
    be(client, "ned")
    with client.websocket_connect("/ws/lobby") as ws:
        until_type(ws, "seeks")
        waiting = client.post("/api/play", json={"length": 1, "games": "fevga", "clock": "none"})
        assert waiting.status_code == 202 and waiting.json()["seek"]["clock"] is None
        offer = until_type(ws, "bot")  # the pairing job looks every second
        assert offer == {"type": "bot", "seek": waiting.json()["seek"]["id"], "level": "intermediate",
                         "rating": 1500.0}


def test_a_seek_posted_while_a_page_joins_comes_after_the_list(client: TestClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A page reopened as another person (a login) posts at once: a seek posted while its lobby
    connection reads the list reaches it after the list, never before it, to be wiped by it."""
    listed = lobby_module.Lobby.listed
    posted: list[Message] = []

    async def meanwhile(self: lobby_module.Lobby, viewer: str | None = None) -> list[Message]:
        before = await listed(self, viewer)
        if not posted:
            posted.append(await self.post(Person("gother"), {"length": 3}))
        return before

    monkeypatch.setattr(lobby_module.Lobby, "listed", meanwhile)
    be(client, "pia")
    with client.websocket_connect("/ws/lobby") as ws:
        first = dict(ws.receive_json())
        assert first["type"] == "seeks" and first["seeks"] == []
        assert until_type(ws, "seek")["seek"]["id"] == posted[0]["id"]


def test_a_start_page_that_gathers_the_news_gets_it_together_in_order(client: TestClient) -> None:
    context_of(client.app).lobby.batch_seconds = 3.0  # type: ignore[arg-type]  # the posts fall in one window
    be(client, "watcher")
    with client.websocket_connect("/ws/lobby?batch=1") as gathered, client.websocket_connect("/ws/lobby") as each:
        until_type(gathered, "seeks")
        until_type(each, "seeks")
        posted = []
        for guest in ("anna", "bob", "cy"):
            be(client, guest)
            posted.append(post(client, length=3, games="portes")["id"])
        batch = until_type(gathered, "batch")
        assert [m["type"] for m in batch["messages"]] == ["seek"] * 3
        assert [m["seek"]["id"] for m in batch["messages"]] == posted
        assert [until_type(each, "seek")["seek"]["id"] for _ in posted] == posted  # the other page: one by one
