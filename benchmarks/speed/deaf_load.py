"""Spectators who never read, beside ``load.py``'s matches (docs/cafe.md, "Limits and security").

Each of ``count`` deaf spectators follows one pair of ``load.py`` (a match of its own, and the
next one when that ends): a raw socket with a 4 KB receive buffer that opens the match's
WebSocket, says ``hello`` with no token (a spectator) and then never reads another byte. Beside
them, ``joins`` times a second, a spectator joins one of those matches (connect, hello, its first
state, gone), as the attack that froze a match did: before each connection had a queue of its
own, every join sent the whole state to every connection of the match, the deaf one's buffers
filled, and the match's next action waited for them.

Counted: the deaf sockets opened, the joins made and failed (inside the window only).
"""

from __future__ import annotations

import asyncio
import base64
import os
import random
import socket
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import websockets

HELLO = b'{"type":"hello"}'


@dataclass
class DeafFigures:
    measuring: bool = False
    opened: int = 0
    joins: int = 0
    errors: Counter[str] = field(default_factory=Counter)

    def summary(self, elapsed: float) -> dict[str, Any]:
        return {"deaf_opened": self.opened, "joins_per_s": round(self.joins / elapsed, 1) if elapsed else 0.0,
                "errors": dict(self.errors)}


async def deaf_socket(base: str, match_id: str) -> socket.socket:
    """A spectator of ``match_id`` on the server at ``base`` (http://host:port) that will never read."""
    host, port = base.split("://", 1)[1].rsplit(":", 1)
    loop = asyncio.get_running_loop()
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.setblocking(False)
    try:
        await loop.sock_connect(raw, (host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        await loop.sock_sendall(raw, (f"GET /ws/{match_id} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:  # byte by byte: nothing past the handshake is read
            byte = await loop.sock_recv(raw, 1)
            if not byte:
                raise ConnectionError("closed during the handshake")
            answer += byte
        if not answer.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(answer.split(b"\r\n", 1)[0].decode(errors="replace"))
        mask = os.urandom(4)
        await loop.sock_sendall(raw, bytes([0x81, 0x80 | len(HELLO)]) + mask
                                + bytes(b ^ mask[i % 4] for i, b in enumerate(HELLO)))
    except BaseException:
        raw.close()
        raise
    return raw


class DeafSpectators:
    """``count`` deaf spectators on the matches of the pairs ``matches()`` gives, and ``joins``
    spectator joins a second among those matches."""

    def __init__(self, count: int, joins: float, matches: Callable[[], list[tuple[str, str | None]]],
                 rng: random.Random) -> None:
        self.count, self.joins, self.matches, self.rng = count, joins, matches, rng
        self.figures = DeafFigures()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [asyncio.create_task(self._follow(k)) for k in range(self.count)]
        if self.joins > 0:
            self._tasks.append(asyncio.create_task(self._join_often()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _follow(self, k: int) -> None:
        """The ``k``-th pair's match, a new deaf socket whenever the pair starts another."""
        current: tuple[str, str | None] = ("", None)
        raw: socket.socket | None = None
        try:
            while True:
                pairs = self.matches()
                found = pairs[k] if k < len(pairs) else ("", None)
                if found[1] is not None and found != current:
                    if raw is not None:
                        raw.close()
                    raw = None
                    try:
                        raw = await deaf_socket(found[0], found[1])
                        self.figures.opened += 1
                    except OSError as exc:
                        self.figures.errors[f"deaf: {type(exc).__name__}"] += 1
                    current = found
                await asyncio.sleep(0.5)
        finally:
            if raw is not None:
                raw.close()

    async def _join_often(self) -> None:
        """A spectator join every ``1 / joins`` seconds on one of the deaf spectators' matches."""
        running: set[asyncio.Task[None]] = set()
        try:
            while True:
                await asyncio.sleep(1.0 / self.joins)
                pairs = [p for p in self.matches()[: self.count] if p[1] is not None]
                if pairs:
                    task = asyncio.create_task(self._join(*self.rng.choice(pairs)))
                    running.add(task)
                    task.add_done_callback(running.discard)
        finally:
            for task in running:
                task.cancel()

    async def _join(self, base: str, match_id: str | None) -> None:
        try:
            async with websockets.connect(f"{base.replace('http', 'ws', 1)}/ws/{match_id}", open_timeout=30,
                                          close_timeout=2, compression=None) as ws:
                await ws.send(HELLO.decode())
                async with asyncio.timeout(30):
                    async for _ in ws:  # its first message: the state, or the refusal of a match over
                        break
            if self.figures.measuring:
                self.figures.joins += 1
        except (OSError, TimeoutError, websockets.WebSocketException) as exc:
            if self.figures.measuring:
                self.figures.errors[f"join: {type(exc).__name__}"] += 1
