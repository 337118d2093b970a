"""The lobby under load, beside ``load.py``'s matches: people watching the start page's lobby
while seeks come and go (docs/cafe.md, "Lobby").

``watchers`` guests each hold a lobby WebSocket (``/ws/lobby?batch=1``, with a guest cookie of their
own, on the servers given in turn), as the start page does, the news gathered a quarter of a second at
a time. Every ``1 / rate`` seconds one of them who has no seek posts one
(``POST /api/seeks``: a casual 5-point Tavli match on the café clock) and cancels it 2 to 8 s
later (``DELETE /api/seeks/ID``), unless, for a share ``accept`` of the seeks, another idle
watcher accepts it first (``POST /api/seeks/ID/accept``, 1 to 3 s after it appeared): the two
then go to the match (a ``hello`` each, the seeker with the seat the lobby pushed him) and the
one on turn resigns it, so that the matches the lobby makes do not add to the load being measured.

Measured, inside the window only:

- ``push``: from a seek's ``POST`` sent to each watcher receiving it, for every watcher;
  ``seen``: of the seeks posted, the share of watchers that received each one;
- ``post``: the ``POST /api/seeks`` round trip;
- ``paired``: from the accept sent to the seeker hearing of his match (``paired``);
- ``board``: from the accept sent to both players holding the match's first state;
- errors by what failed.

Times are in seconds (``load.py`` prints them in milliseconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx2 as httpx
import websockets

from tavli.server.cafe.lobby import GUEST_COOKIE, PAIRED_SECONDS

SEEK = {"length": 5, "games": "tavli", "clock": "kafeneio", "rated": False}
"""What each seek asks for: the café's usual match, casual (guests may seek only casual ones)."""
LIFE = (2.0, 8.0)
"""Seconds a seek stays before its owner cancels it (when nobody accepts it)."""
ACCEPT_AFTER = (1.0, 3.0)
"""Seconds after a seek appeared that a watcher accepts it (for the share that is accepted)."""


@dataclass
class LobbyFigures:
    """What the lobby's watchers and seekers saw; the lists and counters count only inside the window."""

    measuring: bool = False
    connected: int = 0
    posted: int = 0
    cancelled: int = 0
    accepted: int = 0
    pushes: int = 0
    push: list[float] = field(default_factory=list)
    post: list[float] = field(default_factory=list)
    paired: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    def error(self, what: str) -> None:
        if self.measuring:
            self.errors[what] += 1

    def summary(self, watchers: int, elapsed: float) -> dict[str, Any]:
        """The counts of the window (the latency lists are ``load.py``'s to print); ``connected``
        is the watchers connected now."""
        expected = self.posted * max(1, watchers - 1)  # everybody but the poster
        return {"watchers": watchers, "connected": self.connected, "posted": self.posted,
                "seeks_per_s": round(self.posted / elapsed, 2), "cancelled": self.cancelled,
                "accepted": self.accepted, "pushes_per_s": round(self.pushes / elapsed, 1),
                "seen": round(min(1.0, len(self.push) / expected), 4) if expected else None,
                "errors": dict(self.errors)}


class Watcher:
    """One person on the start page: a lobby connection, and at times a seek of his own."""

    def __init__(self, lobby: LobbyLoad, number: int, base: str) -> None:
        self.lobby, self.number, self.base = lobby, number, base
        self.name = f"w{number}"
        self.cookie = f"{GUEST_COOKIE}={secrets.token_urlsafe(12)}"
        self.busy = False
        """He has a seek, or is accepting one or playing the match it made."""
        self.rest_until = 0.0
        """After a match the lobby made: the server pairs nobody twice within ``PAIRED_SECONDS``."""
        self.seek: str | None = None
        self.paired: asyncio.Future[dict[str, Any]] | None = None

    async def run(self) -> None:
        figures = self.lobby.figures
        url = self.base.replace("http", "ws", 1) + "/ws/lobby?batch=1"  # as the start page asks
        async with websockets.connect(url, additional_headers={"Cookie": self.cookie}, ping_interval=None,
                                      open_timeout=120, close_timeout=2, compression=None, max_queue=None) as ws:
            figures.connected += 1
            try:
                async for raw in ws:
                    msg, now = json.loads(raw), time.perf_counter()
                    for news in msg["messages"] if msg.get("type") == "batch" else [msg]:
                        self.heard(news, now)
            finally:
                figures.connected -= 1

    def heard(self, msg: dict[str, Any], now: float) -> None:
        lobby, kind = self.lobby, msg.get("type")
        if kind == "seek":
            seek = msg["seek"]
            sent = lobby.sent.get(seek["name"])
            if lobby.figures.measuring:
                lobby.figures.pushes += 1
            # a seek posted in the window is timed wherever it arrives: gathered, it may come after
            if sent is not None and not seek["mine"]:
                lobby.figures.push.append(now - sent)
        elif kind == "paired" and self.paired is not None and not self.paired.done():
            self.paired.set_result(msg)

    def headers(self) -> dict[str, str]:
        return {"Cookie": self.cookie}

    def idle(self, now: float) -> bool:
        return not self.busy and now >= self.rest_until


class LobbyLoad:
    """``watchers`` people on the lobby of the servers at ``bases`` (each on one, in turn), and
    ``rate`` seeks a second among them, each posted, cancelled or accepted where its people are."""

    def __init__(self, bases: list[str], watchers: int, rate: float, accept: float, rng: random.Random) -> None:
        self.rate, self.accept, self.rng = rate, accept, rng
        self.figures = LobbyFigures()
        self.people = [Watcher(self, k, bases[k % len(bases)]) for k in range(watchers)]
        self.sent: dict[str, float] = {}
        """When each seeker's current seek was posted, by his name (the push names him): for the seeks
        posted inside the window alone."""
        self.tasks: list[asyncio.Task[Any]] = []
        self.lives: set[asyncio.Task[None]] = set()
        """The seeks' lives under way."""
        self.client = httpx.AsyncClient(timeout=60,
                                        limits=httpx.Limits(max_connections=50, keepalive_expiry=3.0))

    async def start(self, ramp: int = 100) -> None:
        """Connect the watchers (``ramp`` a second), then start posting seeks."""
        for first in range(0, len(self.people), ramp):
            for person in self.people[first:first + ramp]:
                self.tasks.append(asyncio.create_task(self.watch(person)))
            await asyncio.sleep(1.0)
        self.tasks.append(asyncio.create_task(self.post_seeks()))

    async def stop(self) -> None:
        tasks = [*self.tasks, *self.lives]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.client.aclose()

    async def watch(self, person: Watcher) -> None:
        while True:  # a dropped lobby connection is counted and made again, as the start page does
            try:
                await person.run()
            except (OSError, websockets.WebSocketException) as exc:
                self.figures.error(f"lobby connection: {type(exc).__name__}")
            await asyncio.sleep(1.0)

    async def post_seeks(self) -> None:
        """A seek every ``1 / rate`` seconds, each by a watcher without one, its life in a task."""
        due = time.perf_counter()
        while True:
            due += 1.0 / self.rate
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            idle = [p for p in self.people if p.idle(time.perf_counter())]
            if len(idle) < 2:
                self.figures.error("no idle watcher to seek")
                continue
            seeker = self.rng.choice(idle)
            seeker.busy = True
            task = asyncio.create_task(self.seek_life(seeker))
            self.lives.add(task)
            task.add_done_callback(self.lives.discard)

    async def seek_life(self, seeker: Watcher) -> None:
        try:
            seek_id = await self.post(seeker)
            if seek_id is None:
                return
            if self.rng.random() < self.accept:
                idle = [p for p in self.people if p.idle(time.perf_counter())]
                if idle:
                    accepter = self.rng.choice(idle)
                    accepter.busy = True
                    try:
                        await asyncio.sleep(self.rng.uniform(*ACCEPT_AFTER))
                        await self.accepted(seeker, accepter, seek_id)
                    finally:
                        accepter.busy = False
                    return
            await asyncio.sleep(self.rng.uniform(*LIFE))
            answer = await self.client.delete(f"{seeker.base}/api/seeks/{seek_id}", headers=seeker.headers())
            if answer.status_code == 204:
                self.figures.cancelled += self.figures.measuring
            else:
                self.figures.error(f"DELETE /api/seeks: {answer.status_code}")
        except (httpx.HTTPError, OSError, websockets.WebSocketException, TimeoutError) as exc:
            self.figures.error(f"seek: {type(exc).__name__}")
        finally:
            seeker.busy, seeker.paired = False, None

    async def post(self, seeker: Watcher) -> str | None:
        seeker.paired = asyncio.get_running_loop().create_future()
        sent, inside = time.perf_counter(), self.figures.measuring  # a post counts where it was sent
        if inside:
            self.sent[seeker.name] = sent
        else:
            self.sent.pop(seeker.name, None)
        answer = await self.client.post(f"{seeker.base}/api/seeks", json=SEEK | {"name": seeker.name},
                                        headers=seeker.headers())
        if answer.status_code != 201:
            self.sent.pop(seeker.name, None)
            self.figures.error(f"POST /api/seeks: {answer.status_code}")
            return None
        if inside:
            self.figures.posted += 1
            self.figures.post.append(time.perf_counter() - sent)
        return str(answer.json()["id"])

    async def accepted(self, seeker: Watcher, accepter: Watcher, seek_id: str) -> None:
        """``accepter`` takes the seek; both go to the match, and the one on turn resigns it."""
        sent = time.perf_counter()
        answer = await self.client.post(f"{accepter.base}/api/seeks/{seek_id}/accept", json={"name": accepter.name},
                                        headers=accepter.headers())
        if answer.status_code != 201:
            self.figures.error(f"POST /api/seeks/ID/accept: {answer.status_code}")
            return
        mine = answer.json()
        seeker.rest_until = accepter.rest_until = time.perf_counter() + PAIRED_SECONDS + 1.0
        assert seeker.paired is not None
        theirs = await asyncio.wait_for(seeker.paired, 30)
        paired = time.perf_counter() - sent
        first = asyncio.Event(), asyncio.Event()
        seats = [asyncio.create_task(self.sit(accepter.base, mine, first[0])),
                 asyncio.create_task(self.sit(seeker.base, theirs, first[1]))]
        try:
            async with asyncio.timeout(30):
                for event in first:
                    await event.wait()
                board = time.perf_counter() - sent
                for seat in seats:
                    await seat
        finally:
            for seat in seats:
                seat.cancel()
            await asyncio.gather(*seats, return_exceptions=True)
        if self.figures.measuring:
            self.figures.accepted += 1
            self.figures.paired.append(paired)
            self.figures.board.append(board)

    async def sit(self, base: str, seat: dict[str, Any], here: asyncio.Event) -> None:
        """One player at the lobby's match: hello, then resign it when on turn (the match starts
        once both have come, so his first turn says that both hold the board)."""
        url = base.replace("http", "ws", 1) + f"/ws/{seat['match']}"
        async with websockets.connect(url, ping_interval=None, open_timeout=60, close_timeout=2,
                                      compression=None, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "error":
                    if msg.get("code") != "stale":  # the clocks' start came first: the next state says so
                        self.figures.error(f"lobby match: {msg.get('code')}")
                    continue
                if msg.get("type") != "state":
                    continue
                here.set()
                if msg["over"]:
                    return
                if msg.get("can_resign"):
                    with contextlib.suppress(websockets.ConnectionClosed):
                        await ws.send(json.dumps({"type": "resign", "seq": msg["seq"], "match": True}))
