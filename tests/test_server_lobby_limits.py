"""The lobby's limits on one client (docs/cafe.md, "Limits and security"): a few live seeks per
address however many guest cookies it makes, its WebSockets counted with the matches' among the
address's open connections, and its messages held to a match's rate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_client import make_client
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tavli.server.cafe.lobby import GUEST_COOKIE, SEEKS_PER_ADDRESS
from tavli.server.realtime.protocol import REFUSALS_BEFORE_CLOSE

Message = dict[str, Any]


def as_guest(client: TestClient, guest: str) -> None:
    client.cookies.clear()
    client.cookies.set(GUEST_COOKIE, guest)


def test_one_address_has_a_few_seeks_listed_however_many_guests_it_makes(client: TestClient) -> None:
    for n in range(SEEKS_PER_ADDRESS):
        as_guest(client, f"guest-{n}")
        assert client.post("/api/seeks", json={"length": 3}).status_code == 201
    as_guest(client, "guest-0")  # his own seek again: it replaces the one he has
    assert client.post("/api/seeks", json={"length": 5}).status_code == 201
    for n in range(SEEKS_PER_ADDRESS, SEEKS_PER_ADDRESS + 20):  # the next guests of the same client
        as_guest(client, f"guest-{n}")
        refused = client.post("/api/seeks", json={"length": 3})
        assert refused.status_code == 429, refused.text
        assert "at most 3 seeks at once from one address" in refused.json()["error"]
        assert "\n" not in refused.json()["error"]
        play_now = client.post("/api/play", json={"length": 7})  # play now's seek is a seek too
        assert play_now.status_code == 429, play_now.text
    listed = client.get("/api/seeks").json()["seeks"]
    assert len(listed) == SEEKS_PER_ADDRESS and sorted(s["length"] for s in listed) == [3, 3, 5]


def test_a_cancelled_seek_makes_room_for_another(client: TestClient) -> None:
    ids = []
    for n in range(SEEKS_PER_ADDRESS):
        as_guest(client, f"guest-{n}")
        ids.append(client.post("/api/seeks", json={}).json()["id"])
    as_guest(client, "another")
    assert client.post("/api/seeks", json={}).status_code == 429
    as_guest(client, "guest-1")
    assert client.delete(f"/api/seeks/{ids[1]}").status_code == 204
    as_guest(client, "another")
    assert client.post("/api/seeks", json={}).status_code == 201


def test_the_lobby_socket_counts_among_the_addresses_open_connections(tmp_path: Path) -> None:
    with make_client(tmp_path / "t.db", connections_per_address=3) as client:
        links = client.post("/api/matches", json={"opponent": "friend"}).json()
        with client.websocket_connect("/ws/lobby") as one, client.websocket_connect("/ws/lobby") as two, \
                client.websocket_connect(f"/ws/{links['match']}") as three:
            assert one.receive_json()["type"] == two.receive_json()["type"] == "seeks"
            for path in ("/ws/lobby", f"/ws/{links['match']}"):  # the fourth, of either kind
                with client.websocket_connect(path) as fourth:
                    refused = fourth.receive_json()
                    assert refused["code"] == "rate-limited" and "at most 3 open connections" in refused["message"]
                    with pytest.raises(WebSocketDisconnect):
                        fourth.receive_json()
            three.send_json({"type": "ping", "id": 1})
            assert three.receive_json() == {"type": "pong", "id": 1}
        with client.websocket_connect("/ws/lobby") as again:  # the closed ones are counted no more
            assert again.receive_json()["type"] == "seeks"


def test_a_flood_of_lobby_messages_is_refused_then_cut_off(tmp_path: Path) -> None:
    with make_client(tmp_path / "t.db", messages_per_second=1, message_burst=5) as client, \
            client.websocket_connect("/ws/lobby") as ws:
        assert ws.receive_json()["type"] == "seeks"
        for n in range(5):
            ws.send_json({"type": "ping", "id": n})
            assert ws.receive_json() == {"type": "pong", "id": n}
        for n in range(REFUSALS_BEFORE_CLOSE + 50):  # the rest is refused, and the socket closed
            try:
                ws.send_json({"type": "ping", "id": n})
            except Exception:  # the server closed it: nothing more can go
                break
        answers = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                answers.append(ws.receive_json())
        assert closed.value.code == 1008
        refusals = [a for a in answers if a.get("code") == "rate-limited"]
        assert len(refusals) >= REFUSALS_BEFORE_CLOSE - 5 and "messages a second" in refusals[0]["message"]
        assert len(answers) <= REFUSALS_BEFORE_CLOSE + 5  # the pings past the limit were not answered


def test_lobby_messages_that_are_not_pings_are_ignored_and_the_socket_stays(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as ws:
        assert ws.receive_json()["type"] == "seeks"
        for junk in ("not json", "[1, 2]", '{"type": "seek"}', '{"type": "ping", "id": {"deep": 1}}'):
            ws.send_text(junk)
        ws.send_json({"type": "ping", "id": "last"})
        answers = [ws.receive_json(), ws.receive_json()]
        assert answers == [{"type": "pong", "id": None}, {"type": "pong", "id": "last"}]
