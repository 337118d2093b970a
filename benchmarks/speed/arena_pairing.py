"""How soon an arena pairs a player again (issue 72): a 200-player arena on one ``tavli serve``, whose
players are scripts, against the floor of 10 s from the end of a player's match to his next pairing.

    .venv/bin/python benchmarks/speed/arena_pairing.py [--players 200] [--duration 90] [--think 1-4]

The accounts and their sessions are made in the database first (``load.make_accounts``); one of them
makes an arena, all join, and the organiser starts it. Each player keeps his page's notes socket
(``/ws/lobby?only=notes``) open, as a browser does: told of a match (``tournament-match``), he opens
its board with his session (a hello without a token), and white resigns the whole match after a
think drawn from ``--think`` seconds. For each player, each wait from the state that ends his match to
the note of his next one is timed; the median, p90, p99 and longest wait are printed with the p99's
ratio to the floor (under 1 passes), the matches played, and the server's CPU. The machine may be
shared: its load before the run is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: ``benchmarks.*``
from benchmarks.speed.load import percentile, proc_stat, servers_on

FLOOR_S = 10.0
"""The issue's floor: a waiting player paired within 10 s of his last match."""


@dataclass
class Figures:
    waits: list[float] = field(default_factory=list)
    """Each wait, in seconds, from the end of a player's match to the note of his next."""
    matches: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class ArenaPlayer:
    """A scripted arena player: his notes socket, and the boards he is sent to."""

    base: str
    cookie: str
    rng: random.Random
    think: tuple[float, float]
    figures: Figures
    measuring: asyncio.Event
    ended_at: float | None = None
    played: set[str] = field(default_factory=set)

    async def run(self, stop: asyncio.Event) -> None:
        ws_base = self.base.replace("http", "ws", 1)
        async with websockets.connect(f"{ws_base}/ws/lobby?only=notes", additional_headers={"Cookie": self.cookie},
                                      max_size=None, open_timeout=120) as notes:
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(notes.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                note = json.loads(raw)
                if note.get("type") != "tournament-match" or note["match"] in self.played:
                    continue
                if self.ended_at is not None and self.measuring.is_set():
                    self.figures.waits.append(time.monotonic() - self.ended_at)
                self.ended_at = None
                self.played.add(note["match"])
                asyncio.get_running_loop().create_task(self.play(ws_base, note["match"]))

    async def play(self, ws_base: str, match: str) -> None:
        try:
            async with websockets.connect(f"{ws_base}/ws/{match}", additional_headers={"Cookie": self.cookie},
                                          max_size=None, open_timeout=120) as board:
                await board.send(json.dumps({"type": "hello"}))
                resigned = False
                while True:
                    state = json.loads(await board.recv())
                    if state.get("type") != "state":
                        continue
                    if state["over"]:
                        self.ended_at = time.monotonic()
                        if state["you"] == "white":
                            self.figures.matches += 1
                        return
                    if state["you"] == "white" and not resigned:
                        await asyncio.sleep(self.rng.uniform(*self.think))
                        await board.send(json.dumps({"type": "resign", "seq": state["seq"], "match": True}))
                        resigned = True
        except Exception as exc:  # a dropped board is counted, never hides the figures
            self.figures.errors.append(f"{type(exc).__name__}: {exc}")


async def run(base: str, cookies: list[str], args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    organiser, players = cookies[0], cookies[1:]
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        made = await client.post("/api/tournaments", headers={"Cookie": organiser}, json={
            "name": "Benchmark arena", "format": "arena", "minutes": max(1, round(args.duration / 60) + 2),
            "length": 1, "games": "portes", "clock": "none", "max_players": len(players), "start": "when-full",
            "forfeit_minutes": 3})
        made.raise_for_status()
        tournament = made.json()["id"]
        for cookie in players[:-1]:
            (await client.post(f"/api/tournaments/{tournament}/join", headers={"Cookie": cookie})).raise_for_status()
        figures, stop, measuring = Figures(), asyncio.Event(), asyncio.Event()
        rng = random.Random(args.seed)
        scripts = [ArenaPlayer(base, cookie, random.Random(rng.random()), args.think, figures, measuring)
                   for cookie in players]
        tasks = [asyncio.create_task(p.run(stop)) for p in scripts]
        await asyncio.sleep(2.0)  # every notes socket open before the last join starts it
        (await client.post(f"/api/tournaments/{tournament}/join", headers={"Cookie": players[-1]})).raise_for_status()
        await asyncio.sleep(args.warm_up)
        measuring.set()
        before, started = proc_stat(server_pid), time.monotonic()
        await asyncio.sleep(args.duration)
        after, elapsed = proc_stat(server_pid), time.monotonic() - started
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        shown = (await client.get(f"/api/tournaments/{tournament}")).json()
    cpu = None if before is None or after is None else (after[1] - before[1]) / elapsed
    return {"figures": figures, "elapsed": elapsed, "cpu": cpu, "rounds": len(shown["rounds"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--duration", type=float, default=90.0, help="seconds measured (default 90)")
    parser.add_argument("--warm-up", type=float, default=10.0, help="seconds before measuring (default 10)")
    parser.add_argument("--think", type=lambda t: tuple(float(x) for x in t.split("-")), default=(1.0, 4.0),
                        help="MIN-MAX seconds white thinks before resigning (default 1-4)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    print(f"load average before the run: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)")
    with servers_on(1, args.database, 0.0, [], args.players + 1) as (servers, database):
        out = asyncio.run(run(servers[0].url, database.cookies, args, servers[0].process.pid))
    figures: Figures = out["figures"]
    waits = sorted(figures.waits)
    if not waits:
        raise SystemExit("no player was paired twice in the window: lengthen --duration")
    p99 = percentile(waits, 0.99)
    print(f"{args.players} players, {out['elapsed']:.0f} s measured: {figures.matches} matches finished, "
          f"{out['rounds']} waves of pairings, {len(waits)} waits timed, {len(figures.errors)} boards dropped")
    print(f"wait from a match's end to the next pairing: median {percentile(waits, 0.5):.2f} s, "
          f"p90 {percentile(waits, 0.9):.2f} s, p99 {p99:.2f} s, longest {waits[-1]:.2f} s")
    print(f"p99 / floor of {FLOOR_S:g} s: {p99 / FLOOR_S:.3f} ({'passes' if p99 < FLOOR_S else 'FAILS'})")
    if out["cpu"] is not None:
        print(f"server CPU: {100 * out['cpu']:.0f}% of a core")
    for error in figures.errors[:3]:
        print(f"dropped: {error}")


if __name__ == "__main__":
    main()
