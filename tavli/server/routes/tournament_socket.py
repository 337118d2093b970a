"""A tournament page's WebSocket (``/ws/tournament/ID``, docs/tournaments.md, "The API"): the
tournament at once, then again after every change (``Tournaments`` pushes it to every watcher,
encoded once). It listens to nothing but pings; what it is sent is queued (``Outbox``), so a page
that stops reading holds nobody."""

from __future__ import annotations

import asyncio

import orjson
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket

from tavli.server.cafe.tournaments import TournamentError
from tavli.server.realtime.outbox import Outbox
from tavli.server.realtime.protocol import REFUSALS_BEFORE_CLOSE, TokenBucket
from tavli.server.routes.context import context_of
from tavli.server.routes.lobby_socket import answer_to
from tavli.server.routes.match_socket import closed, opened

NO_SUCH = 4404
"""The close code of a socket for a tournament that does not exist."""


async def tournament_socket(websocket: WebSocket) -> None:
    context = context_of(websocket)
    address = await opened(websocket)
    if address is None:
        return
    tournament_id = websocket.path_params["tournament"]
    out = Outbox(websocket)
    tournaments = context.tournaments
    try:
        shown = await tournaments.view(tournament_id)
    except TournamentError as exc:
        out.send({"type": "error", "code": "no-such-tournament", "message": str(exc)})
        out.close(NO_SUCH, "no such tournament")
        await out.finish()
        closed(websocket, address)
        return
    tournaments.watch(tournament_id, out)
    out.send({"type": "tournament", "tournament": shown})
    options = context.options
    bucket, refusals = TokenBucket(options.messages_per_second, options.message_burst), 0
    try:
        while (message := await out.receive()) is not None and message["type"] == "websocket.receive":
            if not bucket.take():
                refusals += 1
                out.send({"type": "error", "code": "rate-limited", "id": None,
                          "message": f"at most {options.messages_per_second:g} messages a second: slow down"})
                if refusals >= REFUSALS_BEFORE_CLOSE:
                    out.close(1008, "too many messages")
                continue
            pong = answer_to(message)
            if pong is not None:
                out.send_text(orjson.dumps(pong).decode())
    finally:
        tournaments.unwatch(tournament_id, out)
        closed(websocket, address)
        await asyncio.shield(out.finish())


ROUTES: list[BaseRoute] = [WebSocketRoute("/ws/tournament/{tournament}", tournament_socket)]
