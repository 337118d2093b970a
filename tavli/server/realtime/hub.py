"""The open WebSockets of this server process, by match (``Hub``), and the states they are sent:
each action shown at once to everyone watching the match here, and another process's actions
too, heard (PostgreSQL) or polled for."""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.websockets import WebSocket

from tavli.server.coach.chance_watch import ChanceWatch
from tavli.server.play.live import LiveMatch
from tavli.server.play.seats import PRESENCE_SECONDS, SEATS, seat_name
from tavli.server.play.service import MatchService
from tavli.server.play.view import joined, step_tree_json
from tavli.server.realtime.outbox import Outbox
from tavli.server.realtime.protocol import MESSAGE_BURST, MESSAGES_PER_SECOND, TokenBucket
from tavli.server.realtime.state_message import (
    look_up_seat_ratings,
    ratings_of,
    seat_ratings_due,
    seat_state,
    shared_state,
)
from tavli.server.storage.store import Announcement, Store


@dataclass(eq=False)
class Connection:
    """A match's WebSocket, and who it is in the match."""

    socket: WebSocket
    match_id: str | None = None
    role: str | None = None
    steps: bool = False
    token: str = ""
    bucket: TokenBucket = field(default_factory=lambda: TokenBucket(MESSAGES_PER_SECOND, MESSAGE_BURST))
    refusals: int = 0
    received_at: float = 0.0
    """When the message being carried out was read (``time.time()``): a clock stops there."""

    out: Outbox = field(init=False)
    """What is sent to it: queued, so that no send waits on the peer (``tavli.server.realtime.outbox``)."""

    def __post_init__(self) -> None:
        self.out = Outbox(self.socket)

    def send(self, message: dict[str, Any]) -> None:
        self.out.send(message)

    def send_text(self, text: str) -> None:
        self.out.send_text(text)


class Hub:
    """The open connections of this process, by match, and the states they are sent."""

    def __init__(self, service: MatchService, store: Store) -> None:
        self.service = service
        self.store = store
        """Where the seats' presence is kept, and the matches' last actions read (``poll``)."""
        self.rooms: dict[str, set[Connection]] = defaultdict(set)
        self._delivering: set[str] = set()
        self._inbox: dict[str, list[Announcement]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.chances = ChanceWatch()  # each side's chance of winning the match, for the sockets that ask

    def local_seats(self, match_id: str) -> set[str]:
        return {c.role for c in self.rooms.get(match_id, ()) if c.role in SEATS}

    async def connected(self, live: LiveMatch) -> tuple[dict[str, bool], dict[str, float]]:
        """Who is connected (here, through another process, or a bot), and the stored presence."""
        local = self.local_seats(live.row.id)
        out = {name: name in local or live.bot_level(color) is not None for name, color in SEATS.items()}
        stored: dict[str, float] = {}
        if not all(out.values()):
            stored = await self.store.presence_of(live.row.id)
            now = time.time()
            for name in out:
                out[name] = out[name] or stored.get(name, 0.0) > now
        return out, stored

    async def state_for(self, live: LiveMatch, conn: Connection) -> str:
        """The ``state`` message for one connection, as text."""
        presence = await self.connected(live)
        await self.look_up_ratings(live)
        return self.state_text(live, conn, presence)

    async def look_up_ratings(self, live: LiveMatch) -> None:
        """How a finished rated match moved its players' ratings (``live.ratings``), once its
        result is kept; and, once per seat, the ratings its names show (``live.seat_ratings``)."""
        if live.ratings is None and live.match.is_over and live.row.settings.get("rated"):
            live.ratings = await ratings_of(self.store.engine, live)
        if seat_ratings_due(live):
            await look_up_seat_ratings(self.store.engine, live)

    def state_text(self, live: LiveMatch, conn: Connection, presence: tuple[dict[str, bool], dict[str, float]]) -> str:
        """The ``state`` message for one connection, with the presence looked up: the part every
        viewer shares is encoded once per action (``LiveMatch.encoded``), the viewer's own part
        each time."""
        connected, stored = presence
        claim_at = self.claim_at(live, conn.role, connected, stored)
        shared = live.encoded("shared", lambda: shared_state(live) | {
            "coach": bool(live.row.settings.get("coach", False))})
        seat = seat_state(live, conn.role or "spectator", steps=False, connected=connected,
                          can_claim=claim_at is not None and claim_at <= time.time(),
                          claim_after=self.service.claim_after, joined=stored.keys())
        seat["claim_at"] = claim_at
        legal = seat.pop("legal")
        parts = [shared, orjson.dumps(seat), b'{"legal":null}']
        if legal is not None:  # the plays, and the step tree for a board, worked out once per roll
            inner = [live.encoded("plays", lambda: legal)]
            if conn.steps:
                inner.append(live.encoded("tree", lambda: {"tree": step_tree_json(live.match.legal_plays())}))
            parts[2] = b'{"legal":' + joined(*inner) + b"}"
        return joined(*parts).decode()

    def claim_at(self, live: LiveMatch, role: str | None, connected: dict[str, bool],
                 stored: dict[str, float]) -> float | None:
        """When ``role`` may claim the game if the opponent stays away; None if he may not."""
        match = live.match
        if role not in SEATS or match.is_over or match.turn == SEATS[role]:
            return None
        other = seat_name(match.turn)
        if connected.get(other, True) or other not in stored:  # away, not yet come: nothing to claim
            return None
        return max(stored[other], live.last_action) + self.service.claim_after

    async def broadcast(self, live: LiveMatch) -> None:
        """Put ``live``'s state in the outbox of each connection watching it here (returns at once:
        each connection's task sends it). The service's first listener (``tavli.server.app``)."""
        conns = list(self.rooms.get(live.row.id, ()))
        if not conns:
            return
        presence = await self.connected(live)
        await self.look_up_ratings(live)
        # nothing waits from here on: every connection here has the state in its outbox before
        # anything else is done (the service's next listener's work included)
        cache: dict[tuple[str | None, bool], str] = {}
        for conn in conns:
            key = (conn.role, conn.steps)
            if key not in cache:
                cache[key] = self.state_text(live, conn, presence)
            conn.send_text(cache[key])
        self.chances.update(live, conns)  # a task of its own, for the connections that asked

    async def join(self, conn: Connection, match_id: str, role: str) -> None:
        self.rooms[match_id].add(conn)
        conn.match_id, conn.role = match_id, role
        if role in SEATS:
            await self.store.set_presence(match_id, [role], time.time() + PRESENCE_SECONDS)

    async def leave(self, conn: Connection) -> None:
        match_id = conn.match_id
        if match_id is None:
            return
        room = self.rooms.get(match_id)
        if room is not None:
            room.discard(conn)
            if not room:
                del self.rooms[match_id]
                self.service.forget(match_id)
        if conn.role in SEATS and conn.role not in self.local_seats(match_id):
            await self.store.set_presence(match_id, [conn.role], time.time())
            live = await self.service.get(match_id) if match_id in self.rooms else None
            if live is not None:
                await self.broadcast(live)

    async def heartbeat(self) -> None:
        """Keep the stored presence of this process's seats fresh."""
        seats = [(match_id, seat) for match_id in list(self.rooms) for seat in sorted(self.local_seats(match_id))]
        await self.store.refresh_presence(seats, time.time() + PRESENCE_SECONDS)

    async def poll(self) -> None:
        """Pick up actions that another server process stored (a safety net where it is not
        announced: SQLite, or while the PostgreSQL listener reconnects)."""
        ids = list(self.rooms)
        stored = await self.store.seqs(ids)
        for match_id in ids:
            live = self.service.peek(match_id)
            if live is not None and stored.get(match_id, live.seq) > live.seq:
                await self.deliver(match_id)

    def heard(self, note: Announcement) -> None:
        """Another server process stored actions of a match (or a seat joined or left there):
        show it at once to whoever watches the match here. A match's announcements are applied
        in order, by one task at a time."""
        match_id = note.match_id
        live = self.service.peek(match_id)
        if match_id not in self.rooms or live is None:
            return
        if note.seq < 0:  # a seat joined or left there: show who is connected, and his name
            task = asyncio.create_task(self.rejoined(live))
        else:
            self._inbox.setdefault(match_id, []).append(note)
            if match_id in self._delivering:
                return  # the task at work takes it next
            self._delivering.add(match_id)
            task = asyncio.create_task(self.deliver(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def rejoined(self, live: LiveMatch) -> None:
        await self.service.reload_names(live)
        await self.broadcast(live)

    async def deliver(self, match_id: str) -> None:
        """Catch up with another process's actions on ``match_id`` and show them; again while
        more are announced meanwhile."""
        self._delivering.add(match_id)
        try:
            while True:
                notes = self._inbox.pop(match_id, [])
                live = await self.service.catch_up(match_id, notes)
                if live is not None:
                    await self.broadcast(live)
                if match_id not in self._inbox:
                    return
        finally:
            self._delivering.discard(match_id)
            self._inbox.pop(match_id, None)
