"""Load on one ``tavli serve`` process: many concurrent matches played through real WebSocket clients.

Each match is a friend match whose two seats are two WebSocket connections of this process
(docs/web.md: ``POST /api/matches``, then ``hello`` on ``/ws/{id}`` with each seat's token),
each rolling and playing a random legal play (seeded) as soon as the state says it may. When a
match ends, its pair starts another, so that ``--matches`` stay in play. Matches are started
``--ramp`` a second (a batch once the one before has connected); once all are connected, a
window of ``--duration`` seconds is measured:

- matches held (both seats connected), fewest and mean over the window's seconds, and finished;
- actions per second: rolls and plays of the clients that the server acknowledged (a state with
  a higher ``seq`` came back to the seat that sent them);
- latency from a play sent to the *opponent's* connection receiving the state that shows it
  (p50, p90, p99, max);
- errors by code, dropped connections by close code, matches stalled at the end of the window,
  and the CPU time of the server and of this client during the window.

There is no other Tavli web server to compare with, so the same clients then run (``--baseline``
seconds, on by default) against a relay in a process of its own that only forwards each
message to the other connection of its pair (the ``websockets`` library, same machine): the
floor that any server could reach here, with the ratio of the server's latency to it.

    .venv/bin/python benchmarks/load.py --matches 1000 --duration 60
    .venv/bin/python benchmarks/load.py --matches 50 --duration 10 --baseline 5 --json load.json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.table import Table

try:
    import uvloop
except ImportError:  # optional: the plain asyncio loop works too, with a little more client CPU
    uvloop = None  # type: ignore[assignment]

console = Console()
ROOT = Path(__file__).resolve().parents[1]
STALLED_AFTER = 10.0
"""A match that has seen no state for this many seconds at the end of the window is stalled."""


@dataclass
class Figures:
    """What the clients saw; the counters count only inside the measured window."""

    measuring: bool = False
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    joins: list[float] = field(default_factory=list)
    """Seconds from opening a connection to its first state (handshake + hello), in the ramp-up too."""
    finished: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    connected: int = 0
    """Matches whose two seats have joined now (not only in the window)."""
    pairs: list[Pair] = field(default_factory=list)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def raise_file_limit() -> int:
    """The soft limit of open files raised to the hard limit (two sockets a match on each side)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def cpu_seconds(pid: int | None) -> float | None:
    """User + system CPU time of a process (Linux /proc), or None where it cannot be read."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def loop_factory(choice: str) -> Any:
    if choice == "asyncio" or (choice == "auto" and uvloop is None):
        return None
    if uvloop is None:
        raise SystemExit("--loop uvloop: uvloop is not installed")
    return uvloop.new_event_loop


class Process:
    """A server process of this benchmark: waits for the address it prints, stops it at the end.

    Its output goes to files (a pipe nobody reads would stop a server that logs a lot)."""

    def __init__(self, what: str, command: list[str], address: str, folder: tempfile.TemporaryDirectory[str],
                 timeout: float = 120.0) -> None:
        self.what, self.folder = what, folder
        path = Path(folder.name)
        self.out, self.err = path / "stdout.txt", path / "stderr.txt"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        with self.out.open("w") as out, self.err.open("w") as err:
            # a session of its own: Ctrl-C reaches this process only, which then stops the server
            self.process = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env,
                                            cwd=path, start_new_session=True, preexec_fn=raise_file_limit)
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(address, self.out.read_text())
            if found:
                self.url = found.group(0).rstrip("/")
                return
            if self.process.poll() is not None:
                self.fail(f"exited with status {self.process.returncode}")
            if time.monotonic() > deadline:
                self.fail(f"printed no address in {timeout:.0f} s")
            time.sleep(0.1)

    def tail(self, lines: int = 3) -> str:
        text = self.err.read_text(errors="replace").splitlines() if self.err.exists() else []
        text = [line.strip() for line in text if line.strip()]
        return " | ".join(text[-lines:]) or "(nothing on stderr)"

    def fail(self, why: str) -> None:
        tail = self.tail()
        self.stop()
        raise SystemExit(f"{self.what} {why}: {tail}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.folder.cleanup()


def start_server(database: str | None) -> Process:
    """``tavli serve`` on a free port (it prints the one it got) and, unless told, a fresh SQLite database."""
    folder = tempfile.TemporaryDirectory(prefix="tavli-load-")
    url = database or f"sqlite:///{Path(folder.name) / 'load.db'}"
    command = [sys.executable, "-m", "tavli.cli", "serve", "--host", "127.0.0.1", "--port", "0",
               "--bot-delay", "0", "--create-limit", "1000000000", "--connection-limit", "1000000000",
               "--database", url]
    server = Process("tavli serve", command, r"http://127\.0\.0\.1:\d+/", folder)
    deadline = time.monotonic() + 60
    while True:
        try:
            answer = httpx.get(server.url + "/healthz", timeout=10)
            if answer.status_code == 200 and answer.json().get("ok") is True:
                return server
            why = f"answered /healthz with {answer.status_code} {answer.text[:80]!r}"
        except (httpx.HTTPError, ValueError) as exc:
            why = f"did not answer /healthz: {exc}"
        if server.process.poll() is not None or time.monotonic() > deadline:
            server.fail(why)
        time.sleep(0.2)


class Dropped(Exception):
    """The server closed a connection before the match ended."""


class Seat:
    """One player's connection: acts when the state says so, and times the opponent's view of its plays."""

    def __init__(self, pair: Pair, token: str) -> None:
        self.pair, self.token = pair, token
        self.ws: Any = None
        self.acted_at = -1
        """The seq of the last state acted on: a state sent again (another seat joins) is not acted on twice."""
        self.waiting: int | None = None
        """The seq of this seat's action not yet acknowledged."""
        self.state: dict[str, Any] | None = None

    async def act(self, state: dict[str, Any]) -> None:
        seq = state["seq"]
        if seq <= self.acted_at:
            return
        if state["can_roll"]:
            self.acted_at = self.waiting = seq
            await self.ws.send(f'{{"type":"roll","seq":{seq}}}')
        elif state["can_play"]:
            self.acted_at = self.waiting = seq
            pair = self.pair
            play = pair.rng.choice(state["legal"]["plays"])
            pair.sent[seq + 1] = (self, time.perf_counter())
            await self.ws.send(json.dumps({"type": "play", "seq": seq, "play": play}))

    async def run(self, url: str, joined: asyncio.Event) -> None:
        pair = self.pair
        figures = pair.figures
        opened = time.perf_counter()
        async with websockets.connect(url, max_queue=None, ping_interval=None, open_timeout=120,
                                      close_timeout=2, compression=None) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "error":
                    code = msg.get("code", "?")
                    if figures.measuring:
                        figures.errors[code] += 1
                    if code == "rate-limited" and self.state is not None:
                        await asyncio.sleep(1.0)  # then try again: no other state may come
                        self.acted_at = -1
                        await self.act(self.state)
                    elif code == "bad-token":
                        raise RuntimeError(f"bad-token: {msg.get('message')}")
                    continue
                if kind != "state":
                    continue
                now = time.perf_counter()
                pair.last_state = now
                seq = msg["seq"]
                if not joined.is_set():
                    joined.set()
                    figures.joins.append(now - opened)
                if self.waiting is not None and seq > self.waiting:
                    self.waiting = None
                    if figures.measuring:
                        figures.actions += 1
                sent = pair.sent
                if sent:
                    for key in [k for k, (seat, _) in sent.items() if k <= seq and seat is not self]:
                        t = sent.pop(key)[1]
                        if figures.measuring:
                            figures.latencies.append(now - t)
                if msg["over"]:
                    return
                self.state = msg
                await self.act(msg)
            raise Dropped(f"close {ws.close_code} {ws.close_reason or ''}".strip() if ws.close_code is not None
                          else "closed without a close frame")


class Pair:
    """Two seats playing matches one after another."""

    def __init__(self, figures: Figures, rng: random.Random) -> None:
        self.figures, self.rng = figures, rng
        self.sent: dict[int, tuple[Seat, float]] = {}
        """Plays not yet seen by the opponent, by the seq of the state that will show them."""
        self.last_state = time.perf_counter()
        self.held = False
        self.phase = "start"

    async def play_matches(self, client: httpx.AsyncClient, base: str, body: dict[str, Any],
                           first: dict[str, Any] | None) -> None:
        """Matches one after another until cancelled."""
        figures = self.figures
        links = first
        while True:
            try:
                if links is None:
                    self.phase = "create"
                    links = await self.create(client, base, body)
                    if links is None:
                        await asyncio.sleep(1.0)
                        continue
                failures = await self.play_one(base, links)
            except Exception as exc:  # a bug of this client: counted, not silently ending the pair
                figures.errors[f"client {type(exc).__name__}: {exc}"[:80]] += 1
                failures = [exc]
            links = None
            if failures:
                self.phase = "pause"
                if figures.measuring:
                    for failure in failures:
                        figures.dropped[drop_reason(failure)] += 1
                await asyncio.sleep(1.0)
            elif figures.measuring:
                figures.finished += 1

    async def create(self, client: httpx.AsyncClient, base: str, body: dict[str, Any]) -> dict[str, Any] | None:
        try:
            answer = await client.post(f"{base}/api/matches", json=body)
        except httpx.HTTPError as exc:
            self.figures.errors[f"POST /api/matches: {type(exc).__name__}"] += 1
            return None
        if answer.status_code != 201:
            self.figures.errors[f"POST /api/matches: {answer.status_code}"] += 1
            return None
        links: dict[str, Any] = answer.json()
        return links

    async def play_one(self, base: str, links: dict[str, Any]) -> list[BaseException]:
        """One match from hello to its end; the connections' failures (none when it ended well)."""
        figures = self.figures
        self.sent = {}
        ws_url = base.replace("http", "ws", 1) + f"/ws/{links['match']}"
        seats = [Seat(self, links["token"]), Seat(self, links["friend"].split("#t=", 1)[1])]
        self.phase = "connect"
        joined = [asyncio.Event(), asyncio.Event()]
        tasks = [asyncio.create_task(s.run(ws_url, j)) for s, j in zip(seats, joined, strict=True)]
        both: asyncio.Future[Any] = asyncio.gather(*(j.wait() for j in joined))
        try:
            await asyncio.wait([both, *tasks], timeout=120, return_when=asyncio.FIRST_COMPLETED)
            if all(j.is_set() for j in joined):
                self.held = True
                figures.connected += 1
                self.last_state = time.perf_counter()
                self.phase = "play"
                done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                if pending and not any(t.exception() for t in done):  # one seat saw the end: the other will
                    self.phase = "end"
                    await asyncio.wait(pending, timeout=30)
            failures = [e for t in tasks if t.done() and (e := t.exception()) is not None]
            return failures + [TimeoutError("no state") for t in tasks if not t.done()]
        finally:
            both.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if self.held:
                self.held = False
                figures.connected -= 1


def drop_reason(exc: BaseException) -> str:
    if isinstance(exc, Dropped):
        return str(exc)
    if isinstance(exc, websockets.ConnectionClosed):
        frame = exc.rcvd or exc.sent
        return f"close {frame.code} {frame.reason}".strip() if frame is not None else "closed without a close frame"
    return f"{type(exc).__name__}: {str(exc)[:60]}" if str(exc) else type(exc).__name__


async def ramp_up(figures: Figures, total: int, batch: int, start: Callable[[int], None]) -> float:
    """Start ``total`` pairs, ``batch`` a second, each batch once the one before has connected (30 s at
    most), so that handshakes do not pile up; then wait for all (60 s at most). Returns the seconds taken."""
    began = time.perf_counter()
    for first in range(0, total, batch):
        at = time.perf_counter()
        upto = min(total, first + batch)
        for k in range(first, upto):
            start(k)
        if upto < total:
            while (now := time.perf_counter()) - at < 1.0 or (figures.connected < upto and now - at < 30):
                await asyncio.sleep(0.05)
    at = time.perf_counter()
    while figures.connected < total and time.perf_counter() - at < 60:
        await asyncio.sleep(0.05)
    return time.perf_counter() - began


async def sample_window(figures: Figures, duration: float, server_pid: int | None) -> dict[str, Any]:
    """Measure ``duration`` seconds: matches held each second, CPU of the server and of this client."""
    held: list[int] = []
    cpu0, client0 = cpu_seconds(server_pid), time.process_time()
    figures.measuring = True
    start = time.perf_counter()
    while (left := duration - (time.perf_counter() - start)) > 0:
        await asyncio.sleep(min(1.0, left))
        held.append(figures.connected)
    figures.measuring = False
    elapsed = time.perf_counter() - start
    cpu1, client1 = cpu_seconds(server_pid), time.process_time()
    now = time.perf_counter()
    return {"elapsed": elapsed, "held": held,
            "stalled": sum(1 for p in figures.pairs if p.held and now - p.last_state > STALLED_AFTER),
            "server_cpu": None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / elapsed,
            "client_cpu": (client1 - client0) / elapsed}


async def run_server_load(base: str, args: argparse.Namespace, server_pid: int | None) -> dict[str, Any]:
    figures = Figures()
    body = {"opponent": "friend", "length": args.length, "games": args.games}
    # kept-alive connections expire before uvicorn's 5 s, so that a POST does not meet one the server is closing
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100, keepalive_expiry=3.0)
    async with httpx.AsyncClient(limits=limits, timeout=120) as client:
        probe = await client.post(f"{base}/api/matches", json=body)  # the first pair's match: bad options fail here
        if probe.status_code != 201:
            raise SystemExit(f"POST /api/matches answered {probe.status_code}: {probe.text[:200]}")
        rng = random.Random(args.seed)
        tasks = []
        first: list[dict[str, Any]] = [probe.json()]

        def start(k: int) -> None:
            pair = Pair(figures, random.Random(rng.getrandbits(64)))
            figures.pairs.append(pair)
            tasks.append(asyncio.create_task(pair.play_matches(client, base, body, first.pop() if first else None)))

        ramp = await ramp_up(figures, args.matches, args.ramp, start)
        at_start = figures.connected
        console.print(f"ramp-up: {at_start} of {args.matches} matches connected in {ramp:.1f} s; "
                      f"measuring {args.duration:g} s")
        window = await sample_window(figures, args.duration, server_pid)
        phases = Counter(pair.phase for pair in figures.pairs)  # where the pairs are at the end of the window
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    lat, held, elapsed = figures.latencies, window["held"], window["elapsed"]
    return {
        "matches": args.matches, "ramp_s": round(ramp, 1), "connected_at_start": at_start,
        "duration_s": round(elapsed, 1),
        "held_each_second": held,
        "held_min": min(held, default=0), "held_mean": round(sum(held) / len(held), 1) if held else 0,
        "finished": figures.finished, "actions": figures.actions,
        "actions_per_s": round(figures.actions / elapsed, 1),
        "latency_ms": latency_ms(lat),
        "join_ms": latency_ms(figures.joins),
        "errors": dict(figures.errors), "dropped": dict(figures.dropped), "stalled": window["stalled"],
        "pairs_by_phase_at_end": dict(phases),
        "server_cpu": None if window["server_cpu"] is None else round(window["server_cpu"], 2),
        "client_cpu": round(window["client_cpu"], 2),
    }


def latency_ms(values: list[float]) -> dict[str, Any]:
    def r(v: float) -> float | None:
        return None if v != v else round(1000 * v, 1)
    return {"p50": r(percentile(values, 0.5)), "p90": r(percentile(values, 0.9)),
            "p99": r(percentile(values, 0.99)), "max": r(max(values)) if values else None, "count": len(values)}


# The relay baseline: the same shape of traffic (one message in flight per pair, JSON parsed at
# each end) through a server process that does nothing but forward it.

async def serve_relay() -> None:
    rooms: dict[str, list[Any]] = {}

    async def relay(ws: Any) -> None:
        room = rooms.setdefault(ws.request.path, [])
        room.append(ws)
        try:
            if len(room) == 2:
                for each in room:
                    await each.send('{"type":"go"}')
            async for message in ws:
                for other in room:
                    if other is not ws:
                        await other.send(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            room.remove(ws)
            if not room:
                rooms.pop(ws.request.path, None)

    async with websockets.serve(relay, "127.0.0.1", 0, max_queue=None, ping_interval=None,
                                compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        print(f"relay at ws://127.0.0.1:{port}/", flush=True)
        await asyncio.get_running_loop().create_future()


async def run_relay_baseline(url: str, pairs: int, ramp: int, duration: float, relay_pid: int) -> dict[str, Any]:
    figures = Figures()
    count = 0

    async def player(path: str, first: bool) -> None:
        nonlocal count
        async with websockets.connect(url + path, max_queue=None, ping_interval=None, open_timeout=120,
                                      close_timeout=2, compression=None) as ws:
            async for raw in ws:
                msg = json.loads(raw)
                if msg["type"] == "go":
                    figures.connected += first
                    if not first:
                        continue
                elif figures.measuring:
                    figures.latencies.append(time.perf_counter() - msg["t"])
                    count += 1
                await ws.send(json.dumps({"type": "state", "seq": msg.get("seq", 0) + 1, "t": time.perf_counter()}))

    tasks: list[asyncio.Task[None]] = []

    def start(k: int) -> None:
        tasks.extend(asyncio.create_task(player(f"/{k}", first)) for first in (True, False))

    await ramp_up(figures, pairs, ramp, start)
    await asyncio.sleep(1.0)
    window = await sample_window(figures, duration, relay_pid)
    failed = [t for t in tasks if t.done() and t.exception() is not None]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"pairs": pairs, "connected": figures.connected, "failed_connections": len(failed),
            "duration_s": round(window["elapsed"], 1), "messages_per_s": round(count / window["elapsed"], 1),
            "latency_ms": latency_ms(figures.latencies),
            "server_cpu": None if window["server_cpu"] is None else round(window["server_cpu"], 2),
            "client_cpu": round(window["client_cpu"], 2)}


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def cpu(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}% of a core"


def report(args: argparse.Namespace, command: str, server: dict[str, Any], relay: dict[str, Any] | None) -> None:
    lat = server["latency_ms"]
    table = Table(title=f"tavli serve: {args.matches} concurrent matches, {server['duration_s']:g} s measured")
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("ramp-up (matches connected / time)", f"{server['connected_at_start']} in {server['ramp_s']} s")
    joins = server["join_ms"]
    table.add_row("connect + hello → first state, p50 / p99 / max (ms)",
                  f"{ms(joins['p50'])} / {ms(joins['p99'])} / {ms(joins['max'])}")
    table.add_row("matches held, fewest / mean in the window's seconds",
                  f"{server['held_min']} / {server['held_mean']:g} of {args.matches}")
    table.add_row("matches finished in the window", str(server["finished"]))
    table.add_row("actions per second (rolls + plays acknowledged)", f"{server['actions_per_s']:,.1f}")
    table.add_row("play sent → opponent sees it, p50 / p90 / p99 / max (ms)",
                  f"{ms(lat['p50'])} / {ms(lat['p90'])} / {ms(lat['p99'])} / {ms(lat['max'])}")
    table.add_row("plays timed", f"{lat['count']:,}")
    table.add_row("errors by code", ", ".join(f"{k} {v}" for k, v in sorted(server["errors"].items())) or "none")
    table.add_row("dropped connections",
                  ", ".join(f"{k}: {v}" for k, v in sorted(server["dropped"].items())) or "0")
    table.add_row(f"matches stalled (no state for {STALLED_AFTER:g} s at the end)", str(server["stalled"]))
    table.add_row("CPU: server / this client", f"{cpu(server['server_cpu'])} / {cpu(server['client_cpu'])}")
    if relay is not None:
        rl = relay["latency_ms"]
        table.add_section()
        table.add_row(f"relay floor ({relay['pairs']} pairs, {relay['duration_s']:g} s): messages per second",
                      f"{relay['messages_per_s']:,.1f}")
        table.add_row("relay floor: p50 / p90 / p99 / max (ms)",
                      f"{ms(rl['p50'])} / {ms(rl['p90'])} / {ms(rl['p99'])} / {ms(rl['max'])}")
        table.add_row("relay floor: CPU relay / this client",
                      f"{cpu(relay['server_cpu'])} / {cpu(relay['client_cpu'])}")
        if relay.get("p50_ratio") is not None:
            table.add_row("tavli serve / relay floor: p50, p99 latency",
                          f"{relay['p50_ratio']:,.1f}× , {relay['p99_ratio']:,.1f}×")
        if relay.get("rate_ratio") is not None:
            table.add_row("relay floor messages/s / tavli serve actions/s", f"{relay['rate_ratio']:,.1f}×")
    console.print(table)
    console.print(f"command: {command}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="concurrent matches (default 1000)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds (default 60)")
    parser.add_argument("--ramp", type=int, default=100,
                        help="matches started a second during ramp-up, a batch once the one before has connected "
                             "(default 100)")
    parser.add_argument("--length", type=int, default=1, help="points per match (default 1)")
    parser.add_argument("--games", default="portes", help="games of each match (default portes)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choice of plays (default 1)")
    parser.add_argument("--database", help="database URL for the server (default: a fresh SQLite file)")
    parser.add_argument("--url", help="load this running server (http://host:port) instead of starting one; "
                                      "its --create-limit and --connection-limit must allow the matches")
    parser.add_argument("--baseline", type=float, default=10.0, metavar="SECONDS",
                        help="seconds of the relay baseline (default 10)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the relay baseline")
    parser.add_argument("--loop", choices=["auto", "uvloop", "asyncio"], default="auto",
                        help="the clients' event loop (auto: uvloop where installed)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    parser.add_argument("--serve-relay", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    factory = loop_factory(args.loop)
    if args.serve_relay:
        with contextlib.suppress(KeyboardInterrupt), asyncio.Runner(loop_factory=factory) as runner:
            runner.run(serve_relay())
        return
    if args.matches < 1 or args.ramp < 1 or args.duration <= 0:
        parser.error("--matches and --ramp must be at least 1, --duration above 0")
    command = shlex.join([Path(sys.executable).name, "benchmarks/load.py",
                          *(argv if argv is not None else sys.argv[1:])])
    files = raise_file_limit()
    if files < 4 * args.matches + 100:
        console.print(f"[yellow]only {files} open files allowed: fewer matches may connect[/]")
    loop_name = "uvloop" if factory is not None else "asyncio"
    console.print(f"command: {command}")
    console.print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} before the run; "
                  f"client loop {loop_name}; open files {files}")

    result: dict[str, Any] = {"command": command, "cpus": os.cpu_count(), "client_loop": loop_name}
    server: Process | None = None
    relay: Process | None = None
    try:
        if args.url:
            base = args.url.rstrip("/")
            try:
                httpx.get(base + "/healthz", timeout=30).raise_for_status()
            except httpx.HTTPError as exc:
                raise SystemExit(f"{base}/healthz: {exc}") from None
        else:
            server = start_server(args.database)
            base = server.url
        console.print(f"server {base}" + (f" (pid {server.process.pid})" if server else ""))
        with asyncio.Runner(loop_factory=factory) as runner:
            figures = runner.run(run_server_load(base, args, server.process.pid if server else None))
        if server is not None:
            if server.process.poll() is not None:
                raise SystemExit(f"tavli serve exited during the run ({server.process.returncode}): {server.tail()}")
            server.stop()
            server = None
        result["server"] = figures
        relay_figures = None
        if not args.no_baseline and args.baseline > 0:
            relay = Process("the relay", [sys.executable, str(Path(__file__).resolve()), "--serve-relay",
                                          "--loop", args.loop], r"ws://127\.0\.0\.1:\d+/",
                            tempfile.TemporaryDirectory(prefix="tavli-load-relay-"))
            with asyncio.Runner(loop_factory=factory) as runner:
                relay_figures = runner.run(run_relay_baseline(relay.url, args.matches, args.ramp, args.baseline,
                                                              relay.process.pid))
            relay.stop()
            relay = None
            lat, rl = figures["latency_ms"], relay_figures["latency_ms"]
            if lat["p50"] and rl["p50"]:
                relay_figures["p50_ratio"] = round(lat["p50"] / rl["p50"], 1)
                relay_figures["p99_ratio"] = round(lat["p99"] / rl["p99"], 1)
            if figures["actions_per_s"]:
                relay_figures["rate_ratio"] = round(relay_figures["messages_per_s"] / figures["actions_per_s"], 1)
            result["relay"] = relay_figures
        report(args, command, figures, relay_figures)
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
            console.print(f"figures written to {args.json}")
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
    finally:
        for process in (server, relay):
            if process is not None:
                process.stop()


if __name__ == "__main__":
    main()
