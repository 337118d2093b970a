"""The lobby WebSocket (``/ws/lobby``, docs/cafe.md, "Lobby"): the start page's, with the seeks as
they come and go, the counts and the players online (with ``?batch=1``, gathered a quarter of a second
at a time); and every other page's (``?only=notes``),
the person's own notes alone: his match made, the challenges he sends and is sent. What it is told
is ``tavli.server.cafe.lobby``'s; who asks is ``tavli.server.routes.lobby_api.person_of``."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.types import Message as AsgiMessage
from starlette.websockets import WebSocket

from tavli.server.realtime.outbox import Outbox
from tavli.server.realtime.protocol import REFUSALS_BEFORE_CLOSE, TokenBucket
from tavli.server.routes.context import context_of
from tavli.server.routes.lobby_api import person_of
from tavli.server.routes.match_socket import closed, opened


@dataclass(eq=False)
class LobbySocket:
    """A page's lobby connection, and the person it is."""

    socket: WebSocket
    person: str
    seeks: bool = True
    """A start page's: told of the seeks and the counts (else only of its person's notes)."""
    gathered: list[str] | None = None
    """A page that asked for the lobby's news gathered (``?batch=1``): what waits to go (``Lobby._news``)."""
    out: Outbox = field(init=False)
    """What is sent to it: queued, so that no send waits on the peer (``tavli.server.realtime.outbox``)."""
    held: list[str] | None = field(default=None, init=False)
    """While it joins: what it is told meanwhile (as sent), sent after the list of seeks (``Lobby.join``)."""

    def __post_init__(self) -> None:
        self.out = Outbox(self.socket)

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(orjson.dumps(message).decode())

    def send_text(self, text: str) -> None:
        if self.held is not None:
            self.held.append(text)
        else:
            self.out.send_text(text)

    def close(self, code: int, reason: str) -> None:
        if self.held is not None:  # joining: what it was told goes first
            for text in self.held:
                self.out.send_text(text)
            self.held = []
        self.out.close(code, reason)


async def lobby_socket(websocket: WebSocket) -> None:
    """The start page's lobby: the seeks as they come and go, the counts, the seeker's match.
    Counted among its address's open WebSockets and held to a match's message rate."""
    context = context_of(websocket)
    address = await opened(websocket)
    if address is None:
        return
    person, _ = await person_of(websocket)
    query = websocket.query_params
    conn = LobbySocket(websocket, person.key, query.get("only") != "notes",
                       [] if query.get("batch") == "1" else None)
    options = context.options
    bucket, refusals = TokenBucket(options.messages_per_second, options.message_burst), 0
    await context.lobby.join(conn)
    try:
        while (message := await conn.out.receive()) is not None and message["type"] == "websocket.receive":
            if not bucket.take():
                refusals += 1
                conn.send({"type": "error", "code": "rate-limited", "id": None,
                           "message": f"at most {options.messages_per_second:g} messages a second: slow down"})
                if refusals >= REFUSALS_BEFORE_CLOSE:
                    conn.out.close(1008, "too many messages")
                continue
            pong = answer_to(message)
            if pong is not None:
                conn.send(pong)
    finally:  # in a task of its own, so that a cancelled connection still takes its seek away
        closed(websocket, address)
        await conn.out.finish()
        leaving = asyncio.create_task(context.lobby.leave(conn))
        context.keep(leaving)
        await asyncio.shield(leaving)


def answer_to(message: AsgiMessage) -> dict[str, Any] | None:
    """The pong to a lobby ping (``{"type": "ping", "id": ...}``, its only message); None for
    anything else (not answered).

    >>> answer_to({"type": "websocket.receive", "text": '{"type": "ping", "id": 7}'})
    {'type': 'pong', 'id': 7}
    """
    try:
        found = json.loads(message.get("text") or message.get("bytes") or b"")
    except (ValueError, RecursionError):
        return None
    if not isinstance(found, dict) or found.get("type") != "ping":
        return None
    key = found.get("id")
    return {"type": "pong", "id": key if isinstance(key, str | int) and not isinstance(key, bool) else None}


ROUTES: list[BaseRoute] = [WebSocketRoute("/ws/lobby", lobby_socket)]
