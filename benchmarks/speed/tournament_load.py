"""A tournament's page watched under load, beside ``load.py``'s matches (issue 72: standings pushed to
1,000 watchers at p99 under 200 ms while the café's matches run).

A running arena of ``players`` accounts (``"minutes": 720``, nobody's matches played: they stand as
pairings) is watched by ``watchers`` tournament pages (``/ws/tournament/ID``, on the servers given
in turn), each of which is sent the whole tournament (players, pairings, standings) at every change.
Every ``1 / rate`` seconds one more account joins the arena, or leaves it again (an arena takes players
while it runs), which changes the players and the standings that every watcher is sent.

Measured, inside the window only: ``push``, from the join's (or leaving's) request sent to each
watcher receiving a tournament that shows it, for every watcher; ``seen``, the share of watchers that
received each change; the size of the tournament sent; errors by what failed. Times in seconds.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx2 as httpx
import websockets


@dataclass
class TournamentFigures:
    push: list[float] = field(default_factory=list)
    changes: int = 0
    reached: int = 0
    """Watcher receipts of the changes timed (``seen`` = reached / (changes × watchers))."""
    bytes_sent: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    measuring: bool = False

    def summary(self, watchers: int, elapsed: float) -> dict[str, Any]:
        return {"watchers": watchers, "changes": self.changes, "changes_per_s": round(self.changes / elapsed, 2),
                "push": self.push, "seen": self.reached / (self.changes * watchers) if self.changes else None,
                "view_bytes": self.bytes_sent, "errors": dict(self.errors)}


class TournamentLoad:
    """The arena, its watchers, and the account that joins and leaves it."""

    def __init__(self, bases: list[str], cookies: list[str], watchers: int, rate: float) -> None:
        self.bases = bases
        self.organiser, self.mover, self.players = cookies[0], cookies[1], cookies[2:]
        self.watchers = watchers
        self.rate = rate
        self.figures = TournamentFigures()
        self.tournament = ""
        self.mover_name = ""
        self.change: tuple[bool, float] | None = None
        """The change waited for: whether the mover is in the arena after it, and when it was asked."""
        self.connected = 0
        self._tasks: list[asyncio.Task[None]] = []
        self._seen: set[int] = set()

    async def start(self, client: httpx.AsyncClient, ramp: int = 100) -> None:
        base = self.bases[0]
        made = await client.post(f"{base}/api/tournaments", headers={"Cookie": self.organiser}, json={
            "name": "Load arena", "format": "arena", "minutes": 720, "length": 1, "games": "portes", "clock": "none",
            "max_players": len(self.players) + 1, "start": "when-full", "forfeit_minutes": 30})
        if made.status_code != 201:
            raise SystemExit(f"POST /api/tournaments answered {made.status_code}: {made.text[:200]}")
        self.tournament = made.json()["id"]
        for cookie in self.players:
            (await client.post(f"{base}/api/tournaments/{self.tournament}/join",
                               headers={"Cookie": cookie})).raise_for_status()
        (await client.post(f"{base}/api/tournaments/{self.tournament}/start",
                           headers={"Cookie": self.organiser})).raise_for_status()
        me = await client.get(f"{base}/api/session", headers={"Cookie": self.mover})
        self.mover_name = me.json()["name"]
        for k in range(self.watchers):
            self._tasks.append(asyncio.create_task(self.watch(k, self.bases[k % len(self.bases)])))
            if (k + 1) % ramp == 0:
                await asyncio.sleep(0.5)
        while self.connected < self.watchers:
            await asyncio.sleep(0.2)
        self._tasks.append(asyncio.create_task(self.move(client)))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def watch(self, k: int, base: str) -> None:
        url = base.replace("http", "ws", 1) + f"/ws/tournament/{self.tournament}"
        try:
            async with websockets.connect(url, max_size=None, open_timeout=120) as ws:
                self.connected += 1
                async for raw in ws:
                    self.heard(k, raw)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # counted: a dropped watcher is a figure
            self.figures.errors[f"watcher: {type(exc).__name__}"] += 1
        finally:
            self.connected -= 1

    def heard(self, k: int, raw: str | bytes) -> None:
        now = time.monotonic()
        change = self.change
        if change is None or k in self._seen:
            return
        msg = json.loads(raw)
        if msg.get("type") != "tournament":
            return
        players = msg["tournament"]["players"]
        inside = any(p["name"] == self.mover_name and not p["withdrawn"] for p in players)
        if inside == change[0]:
            self._seen.add(k)
            if self.figures.measuring:
                self.figures.push.append(now - change[1])
                self.figures.reached += 1
                self.figures.bytes_sent = len(raw)

    async def move(self, client: httpx.AsyncClient) -> None:
        """Join, leave, join...: one change every ``1 / rate`` s."""
        path = f"{self.bases[0]}/api/tournaments/{self.tournament}/join"
        inside = False
        while True:
            await asyncio.sleep(random.uniform(0.5, 1.5) / self.rate)
            inside = not inside
            self._seen = set()
            self.change = (inside, time.monotonic())
            if self.figures.measuring:
                self.figures.changes += 1
            answer = await client.request("POST" if inside else "DELETE", path, headers={"Cookie": self.mover})
            if answer.status_code != 200:
                self.figures.errors[f"join or leave: {answer.status_code}"] += 1
