"""Load on one ``tavli serve`` process: many concurrent matches played through real WebSocket clients.

Each match is a friend match whose two seats are two WebSocket connections of this process,
each rolling and playing a random legal play as soon as it may. When a match ends, its pair
starts another, so that ``--matches`` stay in play. After the ramp-up, a window of
``--duration`` seconds is measured:

- matches held (connected and playing) and finished;
- actions per second (rolls and plays the server carried out);
- latency from a play sent to the *opponent's* connection receiving the state that shows it
  (p50, p90, p99, max).

The same clients then run against a relay that only forwards each message to the other
connection of its pair (the ``websockets`` library, same machine): the floor any server on this
machine could reach, reported next to the server's figures as a ratio.

    .venv/bin/python benchmarks/load.py --matches 1000 --duration 60
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.table import Table

console = Console()


@dataclass
class Figures:
    """What the clients saw during the measured window."""

    measuring: bool = False
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    finished: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    dropped: int = 0
    connected: int = 0
    """Matches whose two seats are connected now."""
    peak: int = 0

    def held(self, delta: int) -> None:
        self.connected += delta
        self.peak = max(self.peak, self.connected)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def raise_file_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Server:
    """A ``tavli serve`` process of its own, on a free port and a fresh database."""

    def __init__(self, database: str | None) -> None:
        self.folder = tempfile.TemporaryDirectory()
        url = database or f"sqlite:///{Path(self.folder.name) / 'load.db'}"
        command = [sys.executable, "-m", "tavli.cli", "serve", "--port", "0", "--bot-delay", "0",
                   "--create-limit", "1000000", "--database", url]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=raise_file_limit)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        found = re.search(r"http://[\d.]+:(\d+)/", line)
        if not found:
            err = self.process.stderr.read() if self.process.stderr else ""
            raise SystemExit(f"the server did not start: {err.strip().splitlines()[-1:] or line!r}")
        self.url = f"http://127.0.0.1:{found.group(1)}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.folder.cleanup()


class Seat:
    """One player's connection: acts when the state says so, and times the opponent's view of its plays."""

    def __init__(self, pair: Pair, token: str) -> None:
        self.pair, self.token = pair, token
        self.ws: Any = None
        self.last_seq = -1

    async def run(self, url: str, ready: asyncio.Event) -> None:
        figures = self.pair.figures
        async with websockets.connect(url, max_queue=None, ping_interval=None, open_timeout=120,
                                      close_timeout=2) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            ready.set()
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "error":
                    figures.errors[msg["code"]] += 1
                    if msg["code"] == "rate-limited":
                        await asyncio.sleep(0.5)
                        self.last_seq = -1  # act again on the next state
                    continue
                if msg["type"] != "state":
                    continue
                seq = msg["seq"]
                sent = self.pair.sent.pop(seq, None)
                if sent is not None and sent[0] is not self:  # the opponent's play, now seen here
                    if figures.measuring:
                        figures.latencies.append(time.perf_counter() - sent[1])
                elif sent is not None:
                    self.pair.sent[seq] = sent
                if seq > self.pair.seq:
                    if figures.measuring:
                        figures.actions += seq - self.pair.seq
                    self.pair.seq = seq
                if msg["over"]:
                    return
                if seq <= self.last_seq:
                    continue
                if msg["can_roll"]:
                    self.last_seq = seq
                    await ws.send(json.dumps({"type": "roll", "seq": seq}))
                elif msg["can_play"]:
                    self.last_seq = seq
                    play = self.pair.rng.choice(msg["legal"]["plays"])
                    self.pair.sent[seq + 1] = (self, time.perf_counter())
                    await ws.send(json.dumps({"type": "play", "seq": seq, "play": play}))


class Pair:
    """Two seats playing matches one after another."""

    def __init__(self, figures: Figures, rng: random.Random) -> None:
        self.figures, self.rng = figures, rng
        self.sent: dict[int, tuple[Seat, float]] = {}
        self.seq = 0

    async def play_matches(self, client: httpx.AsyncClient, base: str, body: dict[str, Any],
                           stop: asyncio.Event, started: asyncio.Event) -> None:
        while not stop.is_set():
            answer = await client.post(f"{base}/api/matches", json=body)
            if answer.status_code != 201:
                self.figures.errors[f"http-{answer.status_code}"] += 1
                await asyncio.sleep(1.0)
                continue
            links = answer.json()
            self.sent, self.seq = {}, 0
            ws_url = base.replace("http", "ws") + f"/ws/{links['match']}"
            seats = [Seat(self, links["token"]), Seat(self, links["friend"].split("#t=")[1])]
            readies = [asyncio.Event(), asyncio.Event()]
            tasks = [asyncio.create_task(s.run(ws_url, r)) for s, r in zip(seats, readies, strict=True)]
            await asyncio.gather(*(r.wait() for r in readies), return_exceptions=True)
            self.figures.held(+1)
            started.set()
            done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            failed = [t for t in done if t.exception() is not None]
            if not failed:
                done2, pending = await asyncio.wait(pending, timeout=30)
                failed += [t for t in done2 if t.exception() is not None]
            for task in pending:
                task.cancel()
            self.figures.held(-1)
            if failed:
                self.figures.dropped += 1
                await asyncio.sleep(0.5)
            elif self.figures.measuring:
                self.figures.finished += 1


async def run_server_load(base: str, args: argparse.Namespace) -> tuple[Figures, float]:
    figures = Figures()
    stop = asyncio.Event()
    body = {"opponent": "friend", "length": args.length, "games": args.games}
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=50)
    async with httpx.AsyncClient(limits=limits, timeout=120) as client:
        tasks = []
        rng = random.Random(args.seed)
        ramp_start = time.perf_counter()
        for k in range(args.matches):
            started = asyncio.Event()
            pair = Pair(figures, random.Random(rng.random()))
            tasks.append(asyncio.create_task(pair.play_matches(client, base, body, stop, started)))
            if (k + 1) % args.ramp == 0:
                await asyncio.sleep(1.0)
        patience = args.matches / args.ramp + 60
        while figures.connected < args.matches * 0.98 and time.perf_counter() - ramp_start < patience:
            await asyncio.sleep(0.5)
        ramp = time.perf_counter() - ramp_start
        console.print(f"ramp-up: {figures.connected} matches connected in {ramp:.1f} s")
        figures.measuring = True
        held: list[int] = []
        start = time.perf_counter()
        while time.perf_counter() - start < args.duration:
            await asyncio.sleep(1.0)
            held.append(figures.connected)
        figures.measuring = False
        elapsed = time.perf_counter() - start
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    figures.peak = min(held) if held else 0  # the fewest held at any second of the window
    return figures, elapsed


async def run_relay_baseline(pairs: int, duration: float) -> tuple[int, list[float]]:
    """The machine's floor: a relay forwarding each message to the other connection of its pair."""
    rooms: dict[str, list[Any]] = {}

    async def relay(ws: Any) -> None:
        room = rooms.setdefault(ws.request.path, [])
        room.append(ws)
        with contextlib.suppress(websockets.ConnectionClosed):
            async for message in ws:
                for other in room:
                    if other is not ws:
                        await other.send(message)

    latencies: list[float] = []
    count = 0
    measuring = False
    async with websockets.serve(relay, "127.0.0.1", 0, max_queue=None, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]

        async def player(path: str, first: bool) -> None:
            nonlocal count
            async with websockets.connect(f"ws://127.0.0.1:{port}{path}", ping_interval=None) as ws:
                await asyncio.sleep(0.5)
                if first:
                    await ws.send(json.dumps({"t": time.perf_counter()}))
                async for raw in ws:
                    sent = json.loads(raw)["t"]
                    if measuring:
                        latencies.append(time.perf_counter() - sent)
                        count += 1
                    await ws.send(json.dumps({"t": time.perf_counter()}))

        tasks = [asyncio.create_task(player(f"/{k}", first)) for k in range(pairs) for first in (True, False)]
        await asyncio.sleep(2.0)
        measuring = True
        await asyncio.sleep(duration)
        measuring = False
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return count, latencies


def ms(value: float) -> str:
    return f"{1000 * value:.1f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="concurrent matches (default 1000)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds (default 60)")
    parser.add_argument("--ramp", type=int, default=100, help="matches started per second (default 100)")
    parser.add_argument("--length", type=int, default=1, help="points per match (default 1)")
    parser.add_argument("--games", default="portes", help="games of each match (default portes)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", help="database URL for the server (default: a fresh SQLite file)")
    parser.add_argument("--url", help="use this running server instead of starting one")
    parser.add_argument("--no-baseline", action="store_true", help="skip the relay baseline")
    parser.add_argument("--baseline-seconds", type=float, default=10.0)
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = parser.parse_args(argv)
    files = raise_file_limit()
    if files < 4 * args.matches + 100:
        console.print(f"[yellow]only {files} open files allowed: fewer matches may connect[/]")
    console.print(f"command: {' '.join([Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])])}")

    server = None if args.url else Server(args.database)
    base = args.url.rstrip("/") if args.url else server.url  # type: ignore[union-attr]
    try:
        httpx.get(base + "/healthz", timeout=120).raise_for_status()
        figures, elapsed = asyncio.run(run_server_load(base, args))
    finally:
        if server is not None:
            server.stop()

    lat = figures.latencies
    result: dict[str, Any] = {
        "matches": args.matches, "duration_s": round(elapsed, 1), "held_min": figures.peak,
        "finished": figures.finished, "actions_per_s": round(figures.actions / elapsed, 1),
        "latency_ms": {q: round(1000 * percentile(lat, v), 1) for q, v in (("p50", .5), ("p90", .9), ("p99", .99))}
        | {"max": round(1000 * max(lat), 1) if lat else None, "count": len(lat)},
        "errors": dict(figures.errors), "dropped": figures.dropped,
    }
    table = Table(title=f"tavli serve under {args.matches} concurrent matches ({elapsed:.0f} s measured)")
    for column in ("figure", "value"):
        table.add_column(column)
    table.add_row("matches held (fewest in any second)", f"{figures.peak} of {args.matches}")
    table.add_row("matches finished in the window", str(figures.finished))
    table.add_row("actions per second", f"{result['actions_per_s']:.0f}")
    table.add_row("play → opponent sees it, p50 / p90 / p99 / max (ms)",
                  f"{ms(percentile(lat, .5))} / {ms(percentile(lat, .9))} / {ms(percentile(lat, .99))} / "
                  f"{ms(max(lat)) if lat else '-'}  ({len(lat)} plays)")
    table.add_row("errors", ", ".join(f"{k} {v}" for k, v in figures.errors.items()) or "none")
    table.add_row("dropped connections", str(figures.dropped))

    if not args.no_baseline:
        count, relay_lat = asyncio.run(run_relay_baseline(args.matches, args.baseline_seconds))
        p50 = percentile(relay_lat, .5)
        result["relay"] = {"messages_per_s": round(count / args.baseline_seconds, 1),
                           "p50_ms": round(1000 * p50, 2), "p99_ms": round(1000 * percentile(relay_lat, .99), 2)}
        table.add_row("relay floor: messages per second", f"{count / args.baseline_seconds:.0f}")
        table.add_row("relay floor: p50 / p99 (ms)", f"{ms(p50)} / {ms(percentile(relay_lat, .99))}")
        if relay_lat and lat:
            ratio = percentile(lat, .5) / p50
            result["p50_ratio_to_relay"] = round(ratio, 2)
            table.add_row("server p50 / relay p50", f"{ratio:.1f}×")
    console.print(table)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    console.print(f"median play latency {statistics.median(lat) * 1000:.1f} ms" if lat else "no plays measured")


if __name__ == "__main__":
    main()
