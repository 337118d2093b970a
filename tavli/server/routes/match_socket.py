"""The WebSocket of a match (``/ws/{match_id}``, docs/web.md): the connection's checks (its
page's origin, the connections of one address, the hello deadline, the message rate) and each
message the client sends, carried out."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import time
from typing import assert_never

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.types import Message as AsgiMessage
from starlette.websockets import WebSocket, WebSocketDisconnect

from tavli.server.cafe.accounts import COOKIE, Account
from tavli.server.coach.review import coach_hint
from tavli.server.play.live import LiveMatch
from tavli.server.play.reasons import reason_json
from tavli.server.play.seats import MATCH_ID, SEATS, ActionError, MatchRequestError, player_name, watchable
from tavli.server.realtime.hub import Connection
from tavli.server.realtime.protocol import (
    REFUSALS_BEFORE_CLOSE,
    Abort,
    Answer,
    Chances,
    Claim,
    Hello,
    Hint,
    Message,
    MessageError,
    Mute,
    Ping,
    PlayMessage,
    Rematch,
    Resign,
    Roll,
    Say,
    TokenBucket,
    message_id,
    parse,
)
from tavli.server.routes.context import AppContext, context_of
from tavli.server.routes.limits import client_of, same_origin

WORKER = str(os.getpid()).encode()
"""This server process, as the ``x-tavli-worker`` header of each WebSocket names it (for operators)."""

STALE = ("stale", "illegal", "not-your-turn")
"""The refusals after which the sender is sent the state again (his page was behind)."""


async def opened(websocket: WebSocket, headers: list[tuple[bytes, bytes]] | None = None) -> str | None:
    """Accept a WebSocket (a match's or the lobby's) and count it among its address's open ones:
    the address, or None (and the socket refused or closed) for a page of another origin or an
    address with too many open."""
    context = context_of(websocket)
    origin = websocket.headers.get("origin")
    if origin is not None and not same_origin(origin, websocket.headers.get("host", ""), context.options.origins):
        await websocket.close(code=1008, reason="this page's origin may not connect")  # 403 before accepting
        return None
    await websocket.accept(headers=headers)
    address, most = client_of(websocket), context.options.connections_per_address
    if context.open_per_address[address] >= most:
        await websocket.send_text(json.dumps({
            "type": "error", "code": "rate-limited", "id": None,
            "message": f"at most {most} open connections from one address"}))
        await websocket.close(code=1008, reason="too many connections")
        return None
    context.open_per_address[address] += 1
    return address


def closed(websocket: WebSocket, address: str) -> None:
    """A WebSocket counted by ``opened`` has ended."""
    context = context_of(websocket)
    context.open_per_address[address] -= 1
    if context.open_per_address[address] <= 0:
        del context.open_per_address[address]


async def socket(websocket: WebSocket) -> None:
    """A match's WebSocket: refused for a page of another origin or an address with too many open."""
    context = context_of(websocket)
    task = asyncio.current_task()
    if task is not None:
        context.keep(task)
    address = await opened(websocket, [(b"x-tavli-worker", WORKER)])  # which server process: for operators
    if address is None:
        return
    try:
        await session(context, websocket)
    finally:
        closed(websocket, address)


async def receive(context: AppContext, conn: Connection, hello_by: float) -> AsgiMessage | None:
    """The next message of the socket; None once it is closing (dropped for not reading, or
    closed here), or (the socket closed) if a connection that has not joined its match lets the
    hello deadline pass."""
    if conn.role is not None:
        return await conn.out.receive()
    try:  # not joined yet: wait no longer than the hello deadline
        async with asyncio.timeout(max(0.0, hello_by - time.monotonic())):
            return await conn.out.receive()
    except TimeoutError:
        conn.send({"type": "error", "code": "not-joined", "id": None,
                   "message": f"no hello within {context.options.hello_seconds:g} s: closing"})
        conn.out.close(1008, "no hello")
        return None


async def session(context: AppContext, websocket: WebSocket) -> None:
    """Read and carry out the messages until the client leaves (or is sent away)."""
    options = context.options
    conn = Connection(websocket, bucket=TokenBucket(options.messages_per_second, options.message_burst))
    match_id = websocket.path_params["match_id"]
    hello_by = time.monotonic() + options.hello_seconds
    try:
        while True:
            message = await receive(context, conn, hello_by)
            conn.received_at = time.time()
            if message is None or message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = message.get("bytes") or b""
            await handle(context, conn, match_id, text)
            if conn.refusals >= REFUSALS_BEFORE_CLOSE:
                conn.out.close(1008, "too many messages")
                break
    except WebSocketDisconnect:
        pass
    finally:
        context.talk.left(conn)
        await conn.out.finish()
        # in a task of its own, so that a cancelled session still records the absence
        leaving = asyncio.create_task(context.hub.leave(conn))
        context.keep(leaving)
        await asyncio.shield(leaving)


async def handle(context: AppContext, conn: Connection, match_id: str, text: str | bytes) -> None:
    """One message: refused beyond the rate, or unreadable; else carried out (``dispatch``)."""
    if not conn.bucket.take():
        conn.refusals += 1
        conn.send({"type": "error", "code": "rate-limited", "id": message_id(text),
                   "message": f"at most {context.options.messages_per_second:g} messages a second: slow down"})
        return
    try:
        msg = parse(text)
    except MessageError as exc:
        conn.send({"type": "error", "code": exc.code, "message": str(exc), "id": message_id(text)})
        return
    try:
        await dispatch(context, conn, match_id, msg)
    except ActionError as exc:
        conn.send({"type": "error", "code": exc.code, "message": str(exc), "reason": reason_json(exc.reason),
                   "id": msg.id})
        if exc.code in STALE and conn.match_id is not None:
            live = await context.service.get(conn.match_id)
            if live is not None:
                conn.send_text(await context.hub.state_for(live, conn))


async def dispatch(context: AppContext, conn: Connection, match_id: str, msg: Message) -> None:
    """Carry out a message read, each class of message by its one handler (a player's action by
    ``MatchService``'s method of that name); ``ActionError`` if it is refused."""
    service = context.service
    match msg:
        case Ping():
            conn.send({"type": "pong", "id": msg.id})
        case Say():  # chat: never the match's (no action, no seq, no lock)
            joined_as(conn)
            await context.talk.say(conn, msg.phrase, msg.text)
        case Mute():
            joined_as(conn)
            await context.talk.mute(conn, msg.on)
        case Hello():
            await hello(context, conn, match_id, msg)
        case Hint():
            role = joined_as(conn)
            conn.send(await coach_hint(await service.get(match_id), role, msg.play, msg.id))
        case Chances():
            role = joined_as(conn)
            live = await service.get(match_id)
            if live is not None:
                await context.hub.chances.subscribe(conn, live, role, msg.on)
        case Roll():
            await service.roll(match_id, joined_as(conn), msg.seq, received=conn.received_at)
        case PlayMessage():
            await service.play(match_id, joined_as(conn), msg.seq, msg.play, received=conn.received_at)
        case Claim():
            await service.claim(match_id, joined_as(conn), msg.seq)
        case Resign():
            await service.resign(match_id, joined_as(conn), msg.seq, msg.points, whole_match=msg.match)
        case Answer():
            await service.answer(match_id, joined_as(conn), msg.seq, msg.accept, token=conn.token)
        case Rematch():
            await service.rematch(match_id, joined_as(conn), msg.seq, token=conn.token)
        case Abort():
            await service.abort(match_id, joined_as(conn), msg.seq)
        case _:
            assert_never(msg)


def spectator_name(given: str | None) -> str | None:
    """A guest spectator's name in the spectators' chat: the one his page gave, if it is one
    (``player_name``), else none."""
    try:
        return player_name(given)
    except MatchRequestError:
        return None


def joined_as(conn: Connection) -> str:
    """The role the connection's hello joined it as; ``ActionError`` before its hello."""
    if conn.role is None:
        raise ActionError("not-joined", "send hello with your token first")
    return conn.role


async def joining(context: AppContext, match_id: str, token: str | None,
                  account: Account | None = None) -> tuple[str, LiveMatch, bool]:
    """The role a hello joins as, the match, and whether it joined by ``account``: the token's
    seat; with no token, or the spectators', the seat ``account`` (the session's) plays, if it
    plays one; else the spectators' token's place, or with no token a spectator of a match anyone
    may watch (``watchable``); ``ActionError`` otherwise."""
    known = MATCH_ID.fullmatch(match_id) is not None
    role = await context.store.role(match_id, token) if known and token is not None else None
    if token is not None and role is None:
        raise ActionError("bad-token", "this link is not valid for this match")
    seat = await account_seat(context, match_id, account) if known and role in (None, "spectator") else None
    live = await context.service.get(match_id) if known else None
    if live is None:
        raise ActionError("bad-token", "this link is not valid for this match")
    if seat is not None:
        return seat, live, True
    if role is None and not watchable(live.row.settings):
        stored = await context.store.settings_of(match_id)  # made public since, on another process perhaps
        if stored is None or not watchable(stored[0]):
            context.unwatched(match_id)  # loaded only to be refused: keep no replay of it
            raise ActionError("private", "this match is private: only the links its players were given open it")
    return role or "spectator", live, False


async def account_seat(context: AppContext, match_id: str, account: Account | None) -> str | None:
    """The seat of ``match_id`` that ``account`` plays (bound to it: ``Store.accounts_of``), or None
    (none, or both: two players on one device have their links)."""
    if account is None:
        return None
    seats = [seat for seat, owner in (await context.store.accounts_of(match_id)).items() if owner == account.id]
    return seats[0] if len(seats) == 1 else None


async def hello(context: AppContext, conn: Connection, match_id: str, msg: Hello) -> None:
    """Join the match with a token: as its seat, or as a spectator; with none, as the seat of the
    account signed in, or as a spectator."""
    service, hub = context.service, context.hub
    if conn.role is not None:
        raise ActionError("bad-message", "already joined: send hello once")
    account = await context.accounts.session(conn.socket.cookies.get(COOKIE))
    role, live, by_account = await joining(context, match_id, msg.token, account)
    # a seat joined by its account has no token here: its rematch's seat is derived from a secret
    # nobody holds (never from no token, or the spectators'), and is the account's, as this one
    conn.steps, conn.token = msg.steps, secrets.token_urlsafe(24) if by_account else msg.token or ""
    if match_id not in hub.rooms:  # not watched here until now: another process may be ahead
        live = await service.catch_up(match_id) or live
    if role in SEATS:  # a logged-in player takes his seat; a rated match's seat is its account's
        await service.seat_account(live, role, account)
    if role in SEATS and msg.name is not None:  # before joining: the join tells the other processes
        try:
            await service.name_seat(live, role, msg.name)
        except MatchRequestError as exc:
            raise ActionError("bad-message", exc) from None
    if by_account:  # the page holds no token of the seat: it follows a rematch by its address
        conn.send({"type": "joined", "seat": role, "by": "account"})
    await hub.join(conn, match_id, role)
    if live.clock is not None and not live.clock.started:  # the clocks start once every player has come
        await service.start_clock(live, set(await context.store.presence_of(match_id)))
    if role in SEATS:  # who is connected changed: everyone is told
        await hub.broadcast(live)
    else:  # a spectator changes nothing the others see: only he is sent the state
        conn.send_text(await hub.state_for(live, conn))
    await service.wake(match_id)  # the bot's move first: the chat's history never holds up the match
    await context.talk.joined(conn, live, account.id if account is not None else None,
                              account.name if account is not None else spectator_name(msg.name),
                              account.chat_banned_until if account is not None else None)


ROUTES: list[BaseRoute] = [WebSocketRoute("/ws/{match_id}", socket)]
