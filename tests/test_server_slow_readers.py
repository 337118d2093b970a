"""A connection that never reads holds nothing: not a match's lock, not its next action, not the
clock of the player on turn (tavli.server.realtime.outbox; docs/cafe.md, "Limits and security").

The attack: a raw socket with a small receive buffer joins a match as a spectator and never
reads; then spectators join again and again. Each join used to send the whole state to every
connection of the match, and each send waited for its socket: once the deaf one's buffers were
full, the match's lock stayed held, every later action waited, and the player on turn lost on
time. Now every connection has its own queue, a join shows the state to the joiner only, and a
connection that falls too far behind is dropped and told to reconnect."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_process import Server
from starlette.websockets import WebSocketState
from websockets.asyncio.client import connect as connect_async
from websockets.sync.client import ClientConnection

from tavli.server.realtime.outbox import BEHIND, Outbox

Message = dict[str, Any]
JOINS = 1500
"""Spectator joins beside the match: enough to fill a deaf socket's buffers several times over
when each join was sent to everyone (a state is a few KB)."""


def deaf_spectator(port: int, match_id: str) -> socket.socket:
    """A raw WebSocket with a 4 KB receive buffer that joins ``match_id`` as a spectator (a hello
    with no token) and then never reads."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall((f"GET /ws/{match_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)  # byte by byte: nothing past the handshake is read
    assert answer.startswith(b"HTTP/1.1 101"), answer
    payload, mask = b'{"type":"hello"}', os.urandom(4)
    raw.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return raw


async def join_many(url: str, match_id: str, joins: int, at_once: int = 40) -> int:
    """Spectators join ``match_id`` ``joins`` times (``at_once`` at a time, each reading its state
    and leaving); how many were shown the board."""
    shown = 0

    async def one() -> None:
        nonlocal shown
        async with connect_async(f"{url}/ws/{match_id}", open_timeout=60) as ws:
            await ws.send('{"type":"hello"}')
            while json.loads(await asyncio.wait_for(ws.recv(), 60))["type"] != "state":
                pass
            shown += 1

    for start in range(0, joins, at_once):
        await asyncio.gather(*(one() for _ in range(min(at_once, joins - start))))
    return shown


def receive(ws: ClientConnection, seq: int) -> Message:
    """The first state after action ``seq`` (or the refusal of a client this fast by the message
    rate); any other error (``time`` above all) fails."""
    while True:
        msg = json.loads(ws.recv(timeout=60))  # a frozen match never answers: this is the hang's limit
        assert msg["type"] != "error" or msg["code"] == "rate-limited", msg
        if msg["type"] == "error" or (msg["type"] == "state" and msg["seq"] > seq):
            return dict(msg)


def act(ws: ClientConnection, message: Message) -> Message:
    """Send an action (again after a pause while the message rate refuses it): the state after it."""
    while True:
        ws.send(json.dumps(message))
        answer = receive(ws, message["seq"])
        if answer["type"] == "state":
            return answer
        time.sleep(0.5)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    started = Server(tmp_path / "t.db")
    yield started
    started.stop()


@pytest.mark.slow
def test_a_deaf_spectator_and_a_flood_of_joins_leave_a_clocked_match_unharmed(server: Server) -> None:
    reserve = 20.0  # a café's pace: 2 s a move, then 20 s a point
    links = server.post("/api/matches", {"opponent": "friend", "length": 7, "clock": {"delay": 2, "reserve": reserve}})
    match_id = links["match"]
    other = "black" if links["seat"] == "white" else "white"
    tokens = {links["seat"]: links["token"], other: links["friend"].split("#t=")[1]}
    deaf = deaf_spectator(server.port, match_id)
    players = {seat: server.socket(match_id) for seat in ("white", "black")}
    try:
        for seat, ws in players.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
        states = {seat: receive(ws, -1) for seat, ws in players.items()}
        for seat, ws in players.items():
            while not states[seat]["clock"]["started"]:
                states[seat] = receive(ws, states[seat]["seq"])
        flood: list[int] = []
        flooding = threading.Thread(target=lambda: flood.append(asyncio.run(join_many(
            server.url.replace("http", "ws"), match_id, JOINS))))
        flooding.start()
        actions = 0
        while (flooding.is_alive() or actions < 20) and not states["white"]["over"]:
            seat = next(s for s, state in states.items() if state["can_roll"] or state["can_play"])
            state = states[seat]
            after = act(players[seat], {"type": "roll", "seq": state["seq"]} if state["can_roll"] else
                        {"type": "play", "seq": state["seq"], "play": state["legal"]["plays"][0]})
            states = {s: after if s == seat else receive(ws, state["seq"]) for s, ws in players.items()}
            actions += 1
        flooding.join(timeout=600)
        assert flood == [JOINS], "every spectator was shown the board"
        assert actions >= 20 and not states["white"]["over"]
        clock = states["white"]["clock"]
        # the players answered at once: their reserves are untouched but for what a loaded machine
        # adds to a turn beyond its 2 s; a frozen match ran the player on turn out of time
        assert min(clock["white"], clock["black"]) > 1000 * 7 * reserve * 0.9, clock
    finally:
        deaf.close()
        for ws in players.values():
            ws.close()


class StalledSocket:
    """A WebSocket whose peer never reads: every send waits for ever."""

    def __init__(self) -> None:
        self.application_state = WebSocketState.CONNECTED
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.stall = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await self.stall.wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)
        self.application_state = WebSocketState.DISCONNECTED

    async def receive(self) -> Message:
        await asyncio.Event().wait()  # the peer says nothing either
        return {}


def test_a_send_never_waits_and_a_peer_too_far_behind_is_dropped_and_told_to_reconnect() -> None:
    async def run() -> None:
        peer = StalledSocket()
        out = Outbox(peer, limit=10_000)  # type: ignore[arg-type]
        reading = asyncio.create_task(out.receive())
        for _ in range(20):
            out.send_text("x" * 400)  # returns at once although the first send never completes
        await asyncio.sleep(0)
        assert len(peer.sent) == 1 and not out.dropped and out.pending_bytes == 19 * 400  # the first went
        for _ in range(10):
            out.send_text("x" * 400)
        assert out.dropped and out.pending_bytes == 0 and len(out.pending) == 1  # the close only
        assert await reading is None  # the session's wait for a message is cut short
        await out.finish()
        assert peer.closed == (BEHIND, "too far behind: reconnect")
        out.send_text("late")
        assert len(peer.sent) == 1

    asyncio.run(run())


def test_a_close_goes_after_what_was_queued_before_it() -> None:
    async def run() -> None:
        peer = StalledSocket()
        peer.stall.set()
        out = Outbox(peer)  # type: ignore[arg-type]
        out.send({"type": "error", "code": "not-joined"})
        out.close(1008, "no hello")
        out.send({"type": "never"})
        assert await out.receive() is None
        await out.finish()
        assert [json.loads(t)["type"] for t in peer.sent] == ["error"] and peer.closed == (1008, "no hello")

    asyncio.run(run())
