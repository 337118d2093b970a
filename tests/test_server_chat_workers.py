"""The chat across two server processes on one PostgreSQL database (``tavli serve --workers 2``
puts a match's players on either): a line said on one process reaches the players, or the
spectators, connected to the other (NOTIFY, with polling off), and only them.

They need ``TAVLI_TEST_POSTGRES`` (``.ci/run`` sets it); the tables live in a schema of their own.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

import pytest
from serve_process import Server
from test_server_lobby_workers import pair  # noqa: F401  (the two processes, a fixture)
from websockets.sync.client import ClientConnection, connect

pytestmark = [pytest.mark.postgres, pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("TAVLI_TEST_POSTGRES"),
                                 reason="set TAVLI_TEST_POSTGRES to a PostgreSQL database")]


def joined(opened: contextlib.ExitStack, server: Server, match_id: str, token: str | None) -> ClientConnection:
    ws = opened.enter_context(connect(server.url.replace("http", "ws") + f"/ws/{match_id}"))
    ws.send(json.dumps({"type": "hello", **({"token": token} if token else {})}))
    until(ws, lambda m: m["type"] == "state")
    return ws


def until(ws: ClientConnection, done: Any) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=30))
        if done(message):
            return dict(message)


def test_a_line_said_on_one_process_reaches_its_room_on_the_other(pair: tuple[Server, Server]) -> None:  # noqa: F811
    a, b = pair
    links = a.post("/api/matches", {"opponent": "friend", "seat": "white", "games": "portes"})
    match_id = links["match"]
    with contextlib.ExitStack() as opened:
        white = joined(opened, a, match_id, links["token"])
        black = joined(opened, b, match_id, links["friend"].split("#t=")[1])
        watcher_a, watcher_b = joined(opened, a, match_id, None), joined(opened, b, match_id, None)
        white.send(json.dumps({"type": "say", "phrase": "good-luck"}))
        line = until(black, lambda m: m["type"] == "chat")["lines"][0]
        assert (line["seat"], line["phrase"], line["room"]) == ("white", "good-luck", "players")
        assert until(white, lambda m: m["type"] == "chat")["lines"] == [line]  # its sayer's page shows it too
        watcher_b.send(json.dumps({"type": "say", "phrase": "nice-roll"}))
        heard = until(watcher_a, lambda m: m["type"] == "chat")["lines"][0]
        assert (heard["seat"], heard["phrase"], heard["room"]) == ("spectator", "nice-roll", "spectators")
        # the players heard nothing of it: their next line is the next they are sent
        black.send(json.dumps({"type": "say", "phrase": "thanks-for-the-game"}))
        assert until(white, lambda m: m["type"] == "chat")["lines"][0]["phrase"] == "thanks-for-the-game"
        # and the line said on A was delivered once on A (its own announcement is not heard twice)
        watcher_a.send(json.dumps({"type": "ping", "id": "p"}))
        assert until(watcher_a, lambda m: m["type"] in ("chat", "pong"))["type"] == "pong"
