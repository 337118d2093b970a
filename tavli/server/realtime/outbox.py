"""What the server sends down one WebSocket, queued (``Outbox``): a send never waits on the peer.

A match's state goes to every connection watching it while the match's lock is held, and the
lobby's news to every start page. If each of those sends waited for its socket (uvicorn's send
waits while the peer does not read and the buffers are full), one connection that stops reading
would hold everybody: the match's lock, its next action, and the clock of the player on turn.
So each connection has a queue of its own and a task that sends from it; putting a message in
returns at once. A connection whose queue holds more than ``MAX_PENDING_BYTES`` (a peer that
does not read, or a network that stalled) is dropped: its queue is emptied, it is sent a close
frame with ``BEHIND`` ("reconnect": the pages reconnect and are sent the whole state again),
and the session reading it ends (``Outbox.receive``).

>>> MAX_PENDING_BYTES >= 100 * 20_000  # a hundred whole states of a long match fit
True
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.types import Message as AsgiMessage
from starlette.websockets import WebSocket, WebSocketState

MAX_PENDING_BYTES = 4 << 20
"""The most bytes a connection may have waiting to be sent before it is dropped."""
BEHIND = 4408
"""The close code of a connection dropped for not reading what it is sent (its page reconnects)."""
CLOSE_SECONDS = 5.0
"""How long a dropped connection's close frame may wait for the peer (it may never read it)."""


@dataclass(frozen=True)
class _Close:
    code: int
    reason: str


class Outbox:
    """One WebSocket's messages out, in order, sent by a task of its own (started by the first
    message); the only writer of its socket once made."""

    def __init__(self, socket: WebSocket, limit: int = MAX_PENDING_BYTES) -> None:
        self.socket = socket
        self.limit = limit
        self.pending: deque[str | _Close] = deque()
        self.pending_bytes = 0
        self.closing = False
        """No more messages are taken: a close is on its way (asked for, or the peer dropped)."""
        self.dropped = False
        self._ready = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self._reading: asyncio.Timeout | None = None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` as JSON (returns at once)."""
        self.send_text(orjson.dumps(message).decode())

    def send_text(self, text: str) -> None:
        """Queue ``text`` (returns at once); the connection is dropped if it has fallen too far behind."""
        if self.closing or self.socket.application_state != WebSocketState.CONNECTED:
            return
        self.pending_bytes += len(text)
        if self.pending_bytes > self.limit:
            self.drop()
            return
        self._put(text)

    def close(self, code: int, reason: str) -> None:
        """Close the connection once what is queued before has gone, and end its session's reading."""
        if self.closing:
            return
        self._put(_Close(code, reason))
        self.closing = True
        self._stop_reading()

    def drop(self) -> None:
        """Give up on a peer that does not read: forget what waits, close at once, end its session."""
        if self.closing:
            return
        self.dropped = True
        self.pending.clear()
        self.pending_bytes = 0
        if self._sender is not None:  # it may be waiting on the peer: the close goes without it
            self._sender.cancel()
            self._sender = None
        self.close(BEHIND, "too far behind: reconnect")

    def _put(self, item: str | _Close) -> None:
        self.pending.append(item)
        self._ready.set()
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_pending())

    def _stop_reading(self) -> None:
        if self._reading is not None:
            self._reading.reschedule(asyncio.get_running_loop().time())

    async def _send_pending(self) -> None:
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self.pending:
                item = self.pending.popleft()
                try:
                    if isinstance(item, _Close):
                        async with asyncio.timeout(CLOSE_SECONDS):  # the peer may never read it
                            await self.socket.close(code=item.code, reason=item.reason)
                        return
                    self.pending_bytes -= len(item)
                    await self.socket.send_text(item)
                except Exception:  # the socket closed meanwhile (or the close timed out): nothing more goes
                    self.closing = True
                    self.pending.clear()
                    self._stop_reading()
                    return

    async def receive(self) -> AsgiMessage | None:
        """The socket's next message, or None once the connection is closing: a close or a drop
        cuts short the wait for it (only that wait: a message being carried out is never cut)."""
        if self.closing:
            return None
        try:
            async with asyncio.timeout(None) as self._reading:
                return await self.socket.receive()
        except TimeoutError:
            return None
        finally:
            self._reading = None

    async def finish(self) -> None:
        """The session ends: a close asked for is sent (after what was queued before it, within
        ``CLOSE_SECONDS``); anything else still queued is given up."""
        sender = self._sender
        if sender is None or sender.done():
            return
        if self.closing:
            await asyncio.wait({sender}, timeout=CLOSE_SECONDS + 1.0)
        sender.cancel()
        self.closing = True
