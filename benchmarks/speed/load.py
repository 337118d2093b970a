"""Load on ``tavli serve``: many concurrent matches played through real WebSocket clients.

Each match is a friend match whose two seats are two WebSocket connections of this process
(docs/web.md: ``POST /api/matches``, then ``hello`` on ``/ws/{id}`` with each seat's token),
each rolling and playing a random legal play (seeded). When a match ends, its pair starts
another, so that ``--matches`` stay in play. Two paces:

- ``--pace saturate`` (the default): each seat acts as soon as the state says it may, so the
  server runs flat out (one match of 1 point of Portes each, unless told);
- ``--pace cafe``: each seat thinks a seeded random time, uniform in 1–4 s (``--think MIN,MAX``),
  before every roll and every play, as people do; the matches are then those of a café, unless
  told: ``--length 5 --games tavli --steps`` (hello with ``"steps": true``, as the board sends
  it, so that every state lists every order of each legal play's steps).

Matches are started ``--ramp`` a second (a batch once the one before has connected). At café
pace the first roll of each match comes after its seat's think time, so the starts spread over
the ramp-up and the think times: nothing sends all the matches' first actions at once. Once all
are connected, and after ``--settle`` seconds (at café pace, the longest think time, so that
every match has acted), a window of ``--duration`` seconds is measured:

- matches held (both seats connected), fewest and mean over the window's seconds, and finished;
- actions per second: rolls and plays of the clients that the server acknowledged (a state with
  a higher ``seq`` came back to the seat that sent them);
- latency from a play sent to the *opponent's* connection receiving the state that shows it
  (p50, p90, p99, max);
- errors by code, dropped connections by close code, matches stalled at the end of the window
  (no state for 10 s, or three times the longest think time);
- the CPU of the server's processes (each ``tavli serve`` and its children, summed), of its
  PostgreSQL backends, of this client, and of the whole machine, with the share of the time
  some task waited for a CPU (Linux's pressure figure: how much other work got in the way);
- the client's event-loop lag (how late a 50 ms sleep wakes up: when it is small, the client is
  not what is measured). The client reads of each state only what it uses (``Reader``);
- in clocked matches (between people the server's default clock, ``--clock`` to choose), the
  clock's error: at each roll and play the seat compares what the server counted of its turn so
  far (the delay used and the reserve, from the state that acknowledges the action) with the
  time it saw pass itself, from the state that began its turn to sending the action. A play is
  timed only where the turn reached the reserve (within the delay the reserve says nothing),
  so ``--clock 0,600`` times every play.

``--lobby-watchers W`` adds W guests on the start page's lobby while ``--seeks`` seeks a second
come and go among them, a share ``--seek-accept`` accepted (``lobby_load.py``): how fast a seek
reaches every watcher, the seeks' round trips, and an accept to both players on the board.

``--servers N`` (with ``--database postgresql://...``) starts N ``tavli serve`` processes sharing
one database and connects the two seats of each match to different processes, so that every
play crosses processes: the latency is then the cross-process delivery. ``--compare`` runs the
same load on one process afterwards, for the ratios. A PostgreSQL URL names the server and the
credentials: each run creates a fresh database there (the role needs CREATEDB; otherwise the
database named is used as it is) and drops it at the end.

``--chat-per-minute R`` has each people's match say a quick phrase R times a minute (its seats in
turn, seeded random gaps of 0.5 to 1.5 times 60 / R s, from their own generator so that the plays
are the same as without): the chat's lines are stored and sent to both seats, beside the play.
``--chat-compare`` runs the same load without chat first, then with it, and prints the ratio of
the play → opponent figures (p50, p90, p99).

``--tournament-watchers W`` adds W pages watching a running arena of ``--tournament-players``
accounts (``tournament_load.py``) while one more account joins and leaves it ``--tournament-changes``
times a second: how fast each change (the players, the standings: the whole tournament) reaches every
watcher. ``--tournament-compare`` runs the same load without the tournament first, for the ratio of
the play → opponent figures.

``--accounts`` makes the people's matches rated matches between logged-in players: the run's
accounts and sessions are made in the database before the server starts (argon2 hashing a
thousand sign-ups is not what is measured), each seat's connection carries its session cookie,
and the server checks it at every hello, gives the seats to the accounts, and at each match's
end rates it (Glicko-2) and reviews it for the players' pages, as a café does.

``--bots M`` adds M matches against a bot (``--bot-level``, champion by default) whose human seat
plays at the people's pace; their figures come apart from the people's: the human's actions
and the time from the human's play to the state where the bot has answered (rolled and played).

In saturate mode the same clients then run (``--baseline`` seconds, 10 by default there)
against a relay in a process of its own that only forwards each message to the other
connection of its pair (the ``websockets`` library, same machine): the floor that any server
could reach here, with the ratio of the server's latency to it.

    .venv/bin/python benchmarks/speed/load.py --matches 1000 --duration 60
    .venv/bin/python benchmarks/speed/load.py --pace cafe --matches 1000 --duration 60
    .venv/bin/python benchmarks/speed/load.py --pace cafe --matches 200 --servers 2 --compare \\
        --database postgresql://tavli_test:tavli_test@127.0.0.1/tavli_test
    .venv/bin/python benchmarks/speed/load.py --pace cafe --matches 500 --bots 200 --json load.json
    .venv/bin/python benchmarks/speed/load.py --pace cafe --matches 1000 --accounts --duration 60
    .venv/bin/python benchmarks/speed/load.py --pace cafe --matches 1000 --lobby-watchers 200 --seeks 10
    .venv/bin/python benchmarks/speed/load.py --pace cafe --matches 1000 --lobby-watchers 200 \\
        --chat-per-minute 1 --chat-compare
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import websockets
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: ``benchmarks.*``
from benchmarks.speed.deaf_load import DeafSpectators
from benchmarks.speed.lobby_load import LobbyFigures, LobbyLoad
from benchmarks.speed.tournament_load import TournamentLoad
from tavli.server.cafe.chat import PHRASES

try:
    import uvloop
except ImportError:  # optional: the plain asyncio loop works too, with a little more client CPU
    uvloop = None  # type: ignore[assignment]

LOBBY_GRACE = 1.0
"""Seconds after the window for its last seeks to reach every start page (the news is gathered a
quarter of a second at a time)."""
console = Console(width=None if sys.stdout.isatty() else 132)  # a log keeps the table's rows whole
ROOT = Path(__file__).resolve().parents[2]
STALLED_AFTER = 10.0
"""A match that has seen no state for this many seconds (or three think times) at the end of the window is stalled."""
LAG_TICK = 0.05
"""The client's event-loop lag is how late a sleep of this many seconds wakes up."""


@dataclass(frozen=True)
class Pace:
    """How the clients play: ``think`` is None (act at once) or the range of seconds thought before each action."""

    think: tuple[float, float] | None
    steps: bool

    @property
    def stalled_after(self) -> float:
        return max(STALLED_AFTER, 3 * self.think[1]) if self.think else STALLED_AFTER


@dataclass
class Figures:
    """What the clients of one kind of match saw; the counters count only inside the measured window."""

    measuring: bool = False
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    """Seconds from a play sent to the opponent's connection receiving the state that shows it."""
    answers: list[float] = field(default_factory=list)
    """Matches against a bot: seconds from the human's play to the state where the bot has answered."""
    joins: list[float] = field(default_factory=list)
    """Seconds from opening a connection to its first state (handshake + hello), in the ramp-up too."""
    finished: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    connected: int = 0
    """Matches whose seats have all joined now (not only in the window)."""
    pairs: list[Pair] = field(default_factory=list)
    held: list[int] = field(default_factory=list)
    """Matches held at each second of the window."""
    stalled: int = 0
    """Matches held that had seen no state for a while at the end of the window."""
    seen_at: list[float] = field(default_factory=list)
    """When each of ``latencies`` was seen (``time.perf_counter``)."""
    started: float = 0.0
    """When the window opened."""
    chat_lines: int = 0
    """Quick phrases said (``--chat-per-minute``) in the window."""
    chat_seen: int = 0
    """Chat lines the seats received in the window (each line reaches both seats of its match)."""
    clock_errors: list[float] = field(default_factory=list)
    """Clocked matches: seconds the server counted of a turn (at a roll or a play) beyond what the
    player's own client saw pass from the state that began his turn to sending that action."""


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


TICKS = os.sysconf("SC_CLK_TCK")


def proc_stat(pid: int) -> tuple[int, float] | None:
    """The parent and the CPU seconds (user + system, with its reaped children's) of a process (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[1]), sum(int(f) for f in fields[11:15]) / TICKS
    except (OSError, ValueError, IndexError):
        return None


def tree_cpu(roots: list[int]) -> dict[int, float] | None:
    """CPU seconds of each root process with all its descendants (a server with workers), or None off Linux."""
    if not roots or not Path("/proc/self/stat").exists():
        return None
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit() and (stat := proc_stat(int(entry.name))) is not None:
            stats[int(entry.name)] = stat
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in stats.items():
        children.setdefault(parent, []).append(pid)
    out = {}
    for root in roots:
        total, todo = 0.0, [root]
        while todo:
            pid = todo.pop()
            if pid in stats:
                total += stats[pid][1]
                todo.extend(children.get(pid, []))
        out[root] = total
    return out


def machine_ticks() -> tuple[int, int] | None:
    """Busy and total ticks of all the machine's CPUs since boot (/proc/stat), or None off Linux."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:9]]
    except (OSError, ValueError, IndexError):
        return None
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def cpu_pressure() -> float | None:
    """Seconds since boot during which some runnable task waited for a CPU (Linux PSI), or None."""
    try:
        line = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        return int(line.rsplit("total=", 1)[1]) / 1e6
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
                 wait: bool = True) -> None:
        self.what, self.folder, self.address = what, folder, address
        self.url = ""
        path = Path(folder.name)
        self.out, self.err = path / "stdout.txt", path / "stderr.txt"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        with self.out.open("w") as out, self.err.open("w") as err:
            # a session of its own: Ctrl-C reaches this process only, which then stops the server
            self.process = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env,
                                            cwd=path, start_new_session=True, preexec_fn=raise_file_limit)
        if wait:
            self.wait_address()

    def wait_address(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            found = re.search(self.address, self.out.read_text())
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


def start_servers(count: int, database: str, bot_delay: float, extra: list[str]) -> list[Process]:
    """``count`` ``tavli serve`` processes on free ports (each prints the one it got), all on ``database``."""
    servers = []
    try:
        for k in range(count):
            folder = tempfile.TemporaryDirectory(prefix="tavli-load-")
            command = [sys.executable, "-m", "tavli.cli", "serve", "--host", "127.0.0.1", "--port", "0",
                       "--bot-delay", f"{bot_delay:g}", "--create-limit", "1000000000",
                       "--connection-limit", "1000000000", "--seek-limit", "1000000000", "--message-limit", "1000000",
                       "--database", database, *extra]
            servers.append(Process(f"tavli serve #{k + 1}", command, r"http://127\.0\.0\.1:\d+/", folder,
                                   wait=False))
        for server in servers:
            server.wait_address()
            wait_healthy(server)
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


def wait_healthy(server: Process) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            answer = httpx.get(server.url + "/healthz", timeout=10)
            if answer.status_code == 200 and answer.json().get("ok") is True:
                return
            why = f"answered /healthz with {answer.status_code} {answer.text[:80]!r}"
        except (httpx.HTTPError, ValueError) as exc:
            why = f"did not answer /healthz: {exc}"
        if server.process.poll() is not None or time.monotonic() > deadline:
            server.fail(why)
        time.sleep(0.2)


class Database:
    """The database of one run: a SQLite file in a folder of its own, or a fresh PostgreSQL database
    created on the server that ``--database`` names (the role needs CREATEDB) and dropped at the end."""

    def __init__(self, given: str | None) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="tavli-load-db-")
        self.created = False
        """Whether this run created the PostgreSQL database (and drops it at the end)."""
        self.name = ""
        """The PostgreSQL database's name (empty for SQLite)."""
        self.cookies: list[str] = []
        """The session cookies of the accounts made in it (``--accounts``)."""
        if given is None or given.startswith("sqlite"):
            self.url = given or f"sqlite:///{Path(self.folder.name) / 'load.db'}"
            return
        from sqlalchemy.engine import make_url

        url = make_url(given)
        if url.get_backend_name() not in ("postgresql", "postgres"):
            raise SystemExit(f"--database: sqlite:///FILE or postgresql://... expected, not {given!r}")
        self.name = f"tavli_load_{os.getpid()}_{int(time.time())}"
        try:
            asyncio.run(self._sql(given, f'CREATE DATABASE "{self.name}"'))
        except Exception as exc:  # no CREATEDB: use the database given, as it is
            console.print(f"[yellow]could not create a database for the run ({type(exc).__name__}: "
                          f"{str(exc)[:80]}): using {url.database} as it is[/]")
            self.url, self.name = given, url.database or ""
            return
        self.url = url.set(database=self.name).render_as_string(hide_password=False)
        self.created = True
        self.admin = given

    @staticmethod
    async def _sql(url: str, statement: str) -> None:
        import asyncpg  # type: ignore[import-untyped]  # the test and postgres extras have it

        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    def drop(self) -> None:
        if self.created:
            with contextlib.suppress(Exception):
                asyncio.run(self._sql(self.admin, f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
            self.created = False
        self.folder.cleanup()


async def backend_pids(url: str | None, database: str) -> list[int]:
    """The PostgreSQL backends serving ``database`` (their CPU is the database's share of the load)."""
    if url is None:
        return []
    import asyncpg

    try:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://", 1))
        try:
            rows = await conn.fetch("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                                    database)
        finally:
            await conn.close()
    except Exception:
        return []
    return [int(row["pid"]) for row in rows]


SCALARS = re.compile(r'"(seq|over|can_roll|can_play)":(\d+|true|false)')
CLOCK = re.compile(r'"you":"(\w+)".*?"clock":(null|\{[^{}]*\})')
PLAYS = '"legal":{"plays":'
DECODER = json.JSONDecoder()


class Reader:
    """The fields of a message that the clients use, without decoding the whole state.

    A state with ``steps`` lists every order of every legal play, and every state the game's
    moves: decoding all of it was most of this client's CPU. The scalars come from the part before
    ``"game"``, the legal plays from their own list; every ``check``-th state is decoded whole
    too and compared, and a difference turns the shortcut off (and is reported as an error)."""

    def __init__(self, check: int = 50) -> None:
        self.check, self.count, self.fast, self.mismatches = check, 0, True, 0

    def __call__(self, raw: str | bytes) -> dict[str, Any]:
        text = raw if isinstance(raw, str) else raw.decode()
        if not self.fast or not text.startswith('{"type":"state"'):
            out: dict[str, Any] = json.loads(text)
            return out
        head = text[:max(0, text.find('"game":'))]
        found = dict(SCALARS.findall(head))
        if len(found) < 4:
            self.fast = False
            return self(text)
        msg: dict[str, Any] = {"type": "state", "seq": int(found["seq"]), "over": found["over"] == "true",
                               "can_roll": found["can_roll"] == "true", "can_play": found["can_play"] == "true"}
        clock = CLOCK.search(text, max(0, text.rfind('"you":')))  # the viewer's part comes after the game's
        if clock is None:
            self.fast = False
            return self(text)
        msg["you"], msg["clock"] = clock.group(1), json.loads(clock.group(2))
        if msg["can_play"]:
            at = text.find(PLAYS)
            if at < 0:
                self.fast = False
                return self(text)
            msg["legal"] = {"plays": DECODER.raw_decode(text, at + len(PLAYS))[0]}
        self.count += 1
        if self.count % self.check == 0:
            whole = json.loads(text)
            if any(whole.get(k) != v for k, v in msg.items() if k != "legal") or \
                    (msg["can_play"] and whole["legal"]["plays"] != msg["legal"]["plays"]):
                self.fast, self.mismatches = False, self.mismatches + 1
                out = whole
                return out
        return msg


read_message = Reader()


class Dropped(Exception):
    """The server closed a connection before the match ended."""


class Seat:
    """One player's connection: acts when the state says so (after thinking, at café pace), and times
    the opponent's view of its plays, or, against a bot, the bot's answer."""

    def __init__(self, pair: Pair, token: str, cookie: str | None = None) -> None:
        self.pair, self.token, self.cookie = pair, token, cookie
        self.ws: Any = None
        self.acted_at = -1
        """The seq of the last state acted on: a state sent again (another seat joins) is not acted on twice."""
        self.waiting: int | None = None
        """The seq of this seat's action not yet acknowledged."""
        self.answer_from: tuple[int, float] | None = None
        """Against a bot: the seq and the time of the play whose answer is awaited."""
        self.state: dict[str, Any] | None = None
        self.thinking: asyncio.Task[None] | None = None
        self.sent_at = 0.0
        """When the action awaiting its acknowledgement was sent."""
        self.turn: tuple[float, int] | None = None
        """While this seat's clock runs: when the state that began the turn came, and the reserve it showed (ms)."""

    async def act(self, state: dict[str, Any]) -> None:
        seq = state["seq"]
        if seq <= self.acted_at or not (state["can_roll"] or state["can_play"]):
            return
        self.acted_at = seq
        think = self.pair.pace.think
        if think is None:
            await self.send(state)
        else:
            self.thinking = asyncio.create_task(self.after(self.pair.rng.uniform(*think), seq))

    async def after(self, delay: float, seq: int) -> None:
        await asyncio.sleep(delay)
        state = self.state
        if state is not None and state["seq"] == seq:  # nothing happened meanwhile: act on the latest state
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.send(state)

    async def send(self, state: dict[str, Any]) -> None:
        seq = state["seq"]
        self.waiting = seq
        self.sent_at = time.perf_counter()
        if state["can_roll"]:
            await self.ws.send(f'{{"type":"roll","seq":{seq}}}')
            return
        pair = self.pair
        play = pair.rng.choice(state["legal"]["plays"])
        now = time.perf_counter()
        if pair.bot:
            self.answer_from = (seq, now)
        else:
            pair.sent[seq + 1] = (self, now)
        await self.ws.send(json.dumps({"type": "play", "seq": seq, "play": play}))

    def time_clock(self, msg: dict[str, Any], now: float, acknowledged: bool) -> None:
        """The clock's error: at each acknowledged action of this seat's turn, what the server
        counted of the turn (the delay used and the reserve) less what this client saw pass.

        After a roll the clock still runs, so delay and reserve together say it; after a play,
        only a turn that reached the reserve says how long it took (a turn inside the delay
        leaves the reserve as it was)."""
        clock, you = msg["clock"], msg["you"]
        if not clock["started"]:
            return
        mine = clock["running"] == you
        if acknowledged and self.turn is not None:
            began, reserve = self.turn
            counted = None
            if mine:
                counted = clock["delay"] - clock["delay_left"] + reserve - clock[you]
            elif reserve > clock[you]:
                counted = clock["delay"] + reserve - clock[you]
            if counted is not None and self.pair.figures.measuring:
                self.pair.figures.clock_errors.append(counted / 1000 - (self.sent_at - began))
        if not mine:
            self.turn = None
        elif self.turn is None:
            self.turn = (now, clock[you])

    async def run(self, url: str, joined: asyncio.Event) -> None:
        try:
            await self.read(url, joined)
        finally:
            if self.thinking is not None:
                self.thinking.cancel()

    async def read(self, url: str, joined: asyncio.Event) -> None:
        pair = self.pair
        figures = pair.figures
        opened = time.perf_counter()
        hello = {"type": "hello", "token": self.token} | ({"steps": True} if pair.pace.steps else {})
        async with websockets.connect(url, max_queue=None, ping_interval=None, open_timeout=120,
                                      close_timeout=2, compression=None, max_size=None,
                                      additional_headers={"Cookie": self.cookie} if self.cookie else None) as ws:
            self.ws = ws
            await ws.send(json.dumps(hello))
            async for raw in ws:
                msg = read_message(raw)
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
                if kind == "chat":
                    if figures.measuring and not msg.get("history"):
                        figures.chat_seen += 1
                    continue
                if kind != "state":
                    continue
                now = time.perf_counter()
                pair.last_state = now
                seq = msg["seq"]
                if not joined.is_set():
                    joined.set()
                    figures.joins.append(now - opened)
                if msg.get("clock"):
                    self.time_clock(msg, now, acknowledged=self.waiting is not None and seq > self.waiting)
                if self.waiting is not None and seq > self.waiting:
                    self.waiting = None
                    if figures.measuring:
                        figures.actions += 1
                if self.answer_from is not None and seq > self.answer_from[0] + 1 \
                        and (msg["can_roll"] or msg["can_play"] or msg["over"]):
                    if figures.measuring:
                        figures.answers.append(now - self.answer_from[1])
                    self.answer_from = None
                sent = pair.sent
                if sent:
                    for key in [k for k, (seat, _) in sent.items() if k <= seq and seat is not self]:
                        t = sent.pop(key)[1]
                        if figures.measuring:
                            figures.latencies.append(now - t)
                            figures.seen_at.append(now)
                if msg["over"]:
                    return
                self.state = msg
                await self.act(msg)
            raise Dropped(f"close {ws.close_code} {ws.close_reason or ''}".strip() if ws.close_code is not None
                          else "closed without a close frame")


@dataclass
class Route:
    """Where a pair creates its matches, and the server each seat connects to."""

    create: str
    seats: tuple[str, ...]


class Pair:
    """The seats of one match (two people, or one person against a bot) playing matches one after another."""

    def __init__(self, figures: Figures, rng: random.Random, pace: Pace, route: Route, body: dict[str, Any],
                 cookies: tuple[str, str] | None = None, chat: tuple[float, random.Random] | None = None) -> None:
        self.figures, self.rng, self.pace, self.route, self.body = figures, rng, pace, route, body
        self.chat = chat
        """``--chat-per-minute``: quick phrases a minute, and the generator of their gaps and words."""
        self.cookies = cookies
        """The two players' session cookies (``--accounts``): the first makes the matches."""
        self.bot = body["opponent"] != "friend"
        self.sent: dict[int, tuple[Seat, float]] = {}
        """Plays not yet seen by the opponent, by the seq of the state that will show them."""
        self.last_state = time.perf_counter()
        self.held = False
        self.phase = "start"
        self.match_id: str | None = None
        """The match being played, once both seats hold it (``--deaf`` spectators follow it)."""

    async def play_matches(self, client: httpx.AsyncClient, first: dict[str, Any] | None) -> None:
        """Matches one after another until cancelled."""
        figures = self.figures
        links = first
        while True:
            try:
                if links is None:
                    self.phase = "create"
                    links = await self.create(client)
                    if links is None:
                        await asyncio.sleep(1.0)
                        continue
                failures = await self.play_one(links)
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

    async def create(self, client: httpx.AsyncClient) -> dict[str, Any] | None:
        try:
            answer = await client.post(f"{self.route.create}/api/matches", json=self.body,
                                       headers={"Cookie": self.cookies[0]} if self.cookies else None)
        except httpx.HTTPError as exc:
            self.figures.errors[f"POST /api/matches: {type(exc).__name__}"] += 1
            return None
        if answer.status_code != 201:
            self.figures.errors[f"POST /api/matches: {answer.status_code}"] += 1
            return None
        links: dict[str, Any] = answer.json()
        return links

    async def play_one(self, links: dict[str, Any]) -> list[BaseException]:
        """One match from hello to its end; the connections' failures (none when it ended well)."""
        figures = self.figures
        self.sent = {}
        tokens = [links["token"]] if self.bot else [links["token"], links["friend"].split("#t=", 1)[1]]
        urls = [base.replace("http", "ws", 1) + f"/ws/{links['match']}" for base in self.route.seats]
        seats = [Seat(self, token, self.cookies[k] if self.cookies else None) for k, token in enumerate(tokens)]
        self.phase = "connect"
        joined = [asyncio.Event() for _ in seats]
        tasks = [asyncio.create_task(s.run(u, j)) for s, u, j in zip(seats, urls, joined, strict=False)]
        tasks_talk: list[asyncio.Task[None]] = []
        both: asyncio.Future[Any] = asyncio.gather(*(j.wait() for j in joined))
        both.add_done_callback(lambda f: f.cancelled() or f.exception())  # cancelled below: no "never retrieved"
        try:
            await asyncio.wait([both, *tasks], timeout=120, return_when=asyncio.FIRST_COMPLETED)
            if all(j.is_set() for j in joined):
                self.held = True
                self.match_id = links["match"]
                figures.connected += 1
                self.last_state = time.perf_counter()
                self.phase = "play"
                if self.chat is not None and not self.bot:
                    talk = asyncio.create_task(self.talk(seats))
                    tasks_talk.append(talk)
                done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                if pending and not any(t.exception() for t in done):  # one seat saw the end: the other will
                    self.phase = "end"
                    await asyncio.wait(pending, timeout=30)
            failures = [e for t in tasks if t.done() and (e := t.exception()) is not None]
            return failures + [TimeoutError("no state") for t in tasks if not t.done()]
        finally:
            both.cancel()
            for task in tasks + tasks_talk:
                task.cancel()
            await asyncio.gather(*tasks, *tasks_talk, return_exceptions=True)
            self.match_id = None
            if self.held:
                self.held = False
                figures.connected -= 1


    async def talk(self, seats: list[Seat]) -> None:
        """The match's quick phrases, ``chat[0]`` a minute, its seats in turn, until the match ends."""
        assert self.chat is not None
        per_minute, rng = self.chat
        gap = 60.0 / per_minute
        await asyncio.sleep(rng.uniform(0.0, gap))  # the matches' first phrases spread over one gap
        k = 0
        while True:
            seat = seats[k % len(seats)]
            with contextlib.suppress(websockets.ConnectionClosed, AttributeError):
                await seat.ws.send(json.dumps({"type": "say", "phrase": rng.choice(PHRASES)}))
                if self.figures.measuring:
                    self.figures.chat_lines += 1
            k += 1
            await asyncio.sleep(rng.uniform(0.5, 1.5) * gap)


def drop_reason(exc: BaseException) -> str:
    if isinstance(exc, Dropped):
        return str(exc)
    if isinstance(exc, websockets.ConnectionClosed):
        frame = exc.rcvd or exc.sent
        return f"close {frame.code} {frame.reason}".strip() if frame is not None else "closed without a close frame"
    return f"{type(exc).__name__}: {str(exc)[:60]}" if str(exc) else type(exc).__name__


async def ramp_up(connected: Callable[[], int], total: int, batch: int, start: Callable[[int], None]) -> float:
    """Start ``total`` pairs, ``batch`` a second, each batch once the one before has connected (30 s at
    most), so that handshakes do not pile up; then wait for all (60 s at most). Returns the seconds taken."""
    began = time.perf_counter()
    for first in range(0, total, batch):
        at = time.perf_counter()
        upto = min(total, first + batch)
        for k in range(first, upto):
            start(k)
        if upto < total:
            while (now := time.perf_counter()) - at < 1.0 or (connected() < upto and now - at < 30):
                await asyncio.sleep(0.05)
    at = time.perf_counter()
    while connected() < total and time.perf_counter() - at < 60:
        await asyncio.sleep(0.05)
    return time.perf_counter() - began


async def watch_lag(lags: list[float], measuring: Callable[[], bool]) -> None:
    """How late this client's event loop wakes up from a short sleep (its own load, seen from inside)."""
    while True:
        at = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        if measuring():
            lags.append(time.perf_counter() - at - LAG_TICK)


UNTIL_FINISHED_MAX = 600.0
"""The longest a window waits past its duration for ``--until-finished`` matches."""


async def sample_window(groups: list[Figures], duration: float, server_pids: list[int],
                        postgres: tuple[str | None, str] = (None, ""), stalled_after: float = STALLED_AFTER,
                        lobby: LobbyFigures | None = None, until_finished: int = 0) -> dict[str, Any]:
    """Measure ``duration`` seconds (and on until the groups have finished ``until_finished``
    matches, at most ``UNTIL_FINISHED_MAX`` seconds): matches held each second, CPU of the servers,
    their database backends, this client and the machine, and the client's event-loop lag."""
    lags: list[float] = []
    measuring = False
    # this client's own garbage collector stays out of the window: its pauses (a few hundred ms
    # with 2,000 sockets) would be timed as the server's latency. The last collection comes before
    # the window opens: inside it, its pause was the first second's latency (up to 0.9 s at 2,000
    # tables, enough to make the p99)
    gc.collect()
    gc.freeze()
    gc.disable()
    watcher = asyncio.create_task(watch_lag(lags, lambda: measuring))
    backends = await backend_pids(*postgres)
    cpu0, client0, machine0, wait0 = tree_cpu(server_pids), time.process_time(), machine_ticks(), cpu_pressure()
    db0 = {pid: stat[1] for pid in backends if (stat := proc_stat(pid)) is not None}
    start = time.perf_counter()
    for group in groups:
        group.measuring, group.started = True, start
    if lobby is not None:
        lobby.measuring = True
    measuring = True
    try:
        while (left := duration - (time.perf_counter() - start)) > 0 or (
                sum(g.finished for g in groups) < until_finished
                and time.perf_counter() - start < UNTIL_FINISHED_MAX):
            await asyncio.sleep(min(1.0, left) if left > 0 else 0.2)
            for group in groups:
                group.held.append(group.connected)
    finally:
        gc.enable()
        gc.unfreeze()
    for group in groups:
        group.measuring = False
    if lobby is not None:
        lobby.measuring = False
    measuring = False
    elapsed = time.perf_counter() - start
    cpu1, client1, machine1, wait1 = tree_cpu(server_pids), time.process_time(), machine_ticks(), cpu_pressure()
    db1 = {pid: stat[1] for pid in set(backends) | set(await backend_pids(*postgres))
           if (stat := proc_stat(pid)) is not None}
    watcher.cancel()
    now = time.perf_counter()
    for group in groups:
        group.stalled = sum(1 for p in group.pairs if p.held and now - p.last_state > stalled_after)
    each = None if cpu0 is None or cpu1 is None else [(cpu1[pid] - cpu0[pid]) / elapsed for pid in server_pids]
    machine = None
    if machine0 is not None and machine1 is not None and machine1[1] > machine0[1]:
        machine = (machine1[0] - machine0[0]) / (machine1[1] - machine0[1]) * (os.cpu_count() or 1)
    return {"elapsed": elapsed,
            "server_cpu": None if each is None else sum(each), "server_cpu_each": each,
            "database_cpu": (sum(db1.values()) - sum(db0.get(pid, 0.0) for pid in db1)) / elapsed if db1 else None,
            "database_backends": len(db1),
            "client_cpu": (client1 - client0) / elapsed,
            "client_lag_ms": latency_ms(lags),
            "machine_cpu": machine,
            "cpu_wait": None if wait0 is None or wait1 is None else (wait1 - wait0) / elapsed}


def each_second(figures: Figures) -> list[list[float | int | None]]:
    """Plays timed, p50 and max (ms) in each second of the window: a stall that comes back every few
    seconds (a periodic job of the server) shows here."""
    seconds: dict[int, list[float]] = {}
    for at, latency in zip(figures.seen_at, figures.latencies, strict=True):
        seconds.setdefault(int(at - figures.started), []).append(latency)
    out: list[list[float | int | None]] = []
    for k in range(max(seconds, default=-1) + 1):
        values = seconds.get(k, [])
        lat = latency_ms(values)
        out.append([len(values), lat["p50"], lat["max"]])
    return out


def group_figures(figures: Figures, count: int, elapsed: float) -> dict[str, Any]:
    held = figures.held
    return {
        "matches": count,
        "held_each_second": held,
        "latency_each_second": each_second(figures),
        "held_min": min(held, default=0), "held_mean": round(sum(held) / len(held), 1) if held else 0,
        "finished": figures.finished, "actions": figures.actions,
        "actions_per_s": round(figures.actions / elapsed, 1),
        "latency_ms": latency_ms(figures.latencies),
        "answer_ms": latency_ms(figures.answers),
        "clock_error_ms": latency_ms(figures.clock_errors)
        | {"min": rounded_ms(min(figures.clock_errors, default=None))},
        "join_ms": latency_ms(figures.joins),
        "errors": dict(figures.errors), "dropped": dict(figures.dropped),
        "stalled": figures.stalled,
        "chat_lines": figures.chat_lines, "chat_seen": figures.chat_seen,
        "pairs_by_phase_at_end": dict(Counter(pair.phase for pair in figures.pairs)),
    }


async def run_load(bases: list[str], args: argparse.Namespace, pace: Pace, server_pids: list[int],
                   postgres: tuple[str | None, str] = (None, "")) -> dict[str, Any]:
    """The load on the servers at ``bases``: ``args.matches`` people's matches and ``args.bots`` bot matches."""
    people, bots = Figures(), Figures()
    friend = {"opponent": "friend", "length": args.length, "games": args.games} | ({"rated": True} if args.accounts
                                                                                  else {}) \
        | ({"clock": args.clock} if args.clock is not None else {})
    cookies = list(args.cookies or []) if args.accounts else []  # the tournament's come after the matches'
    against_bot = {"opponent": args.bot_level, "length": args.length, "games": args.games}
    rng = random.Random(args.seed)
    chat_seeds = random.Random(args.seed + 7919)
    kinds = [False] * args.matches + [True] * args.bots
    rng.shuffle(kinds)  # the bot matches start among the people's, not after them
    n = len(bases)
    # kept-alive connections expire before uvicorn's 5 s, so that a POST does not meet one the server is closing
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100, keepalive_expiry=3.0)
    async with httpx.AsyncClient(limits=limits, timeout=120) as client:
        first_body = against_bot if kinds[0] else friend
        probe = await client.post(f"{bases[0]}/api/matches", json=first_body,  # bad options fail here
                                  headers={"Cookie": cookies[0]} if cookies and not kinds[0] else None)
        if probe.status_code != 201:
            raise SystemExit(f"POST /api/matches answered {probe.status_code}: {probe.text[:200]}")
        tasks = []
        first: list[dict[str, Any]] = [probe.json()]

        def start(k: int) -> None:
            bot = kinds[k]
            figures = bots if bot else people
            # the two seats of a people's match on two processes (the next one), when there are several
            route = Route(bases[k % n], (bases[k % n],) if bot else (bases[k % n], bases[(k + 1) % n]))
            players = (cookies[2 * k], cookies[2 * k + 1]) if cookies and not bot else None
            chat_rng = random.Random(chat_seeds.getrandbits(64))  # its own: the plays stay those without chat
            pair = Pair(figures, random.Random(rng.getrandbits(64)), pace, route, against_bot if bot else friend,
                        players, (args.chat_per_minute, chat_rng) if args.chat_per_minute > 0 else None)
            figures.pairs.append(pair)
            tasks.append(asyncio.create_task(pair.play_matches(client, first.pop() if first else None)))

        total = len(kinds)
        lobby = None
        if args.lobby_watchers:  # the start pages first, as a café's regulars are there before its tables fill
            lobby = LobbyLoad(bases, args.lobby_watchers, args.seeks, args.seek_accept,
                              random.Random(rng.getrandbits(64)))
            await lobby.start(args.ramp)
        ramp = await ramp_up(lambda: people.connected + bots.connected, total, args.ramp, start)
        at_start = people.connected + bots.connected
        console.print(f"ramp-up: {at_start} of {total} matches connected in {ramp:.1f} s; "
                      + (f"settling {args.settle:g} s, " if args.settle else "")
                      + f"measuring {args.duration:g} s")
        tournament = None
        if args.tournament_watchers:
            offset = 2 * (args.matches + 1) if args.accounts else 0
            tournament = TournamentLoad(bases, args.cookies[offset:], args.tournament_watchers, args.tournament_changes)
            await tournament.start(client, args.ramp)
        deaf = None
        if args.deaf:
            deaf = DeafSpectators(args.deaf, args.deaf_joins,
                                  lambda: [(p.route.seats[0], p.match_id) for p in people.pairs],
                                  random.Random(rng.getrandbits(64)))
            deaf.start()
        await asyncio.sleep(args.settle)
        if deaf is not None:
            deaf.figures.measuring = True
        if tournament is not None:
            tournament.figures.measuring = True
        window = await sample_window([people, bots], args.duration, server_pids, postgres, pace.stalled_after,
                                     lobby.figures if lobby else None, args.until_finished)
        if lobby is not None:
            await asyncio.sleep(LOBBY_GRACE)  # the window's last seeks reach the start pages that gather the news
        lobby_out = None if lobby is None else lobby_figures(lobby.figures, args.lobby_watchers, window["elapsed"])
        tournament_out = None
        if tournament is not None:
            tournament.figures.measuring = False
            tournament_out = tournament.figures.summary(args.tournament_watchers, window["elapsed"])
            tournament_out["push_ms"] = latency_ms(tournament_out.pop("push"))
            await tournament.stop()
        deaf_out = None
        if deaf is not None:
            deaf.figures.measuring = False
            deaf_out = deaf.figures.summary(window["elapsed"])
            await deaf.stop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if lobby is not None:
            await lobby.stop()
    elapsed = window["elapsed"]
    if read_message.mismatches:
        people.errors["client: a state read wrong by the shortcut"] += read_message.mismatches
    out: dict[str, Any] = {
        "servers": n, "matches": args.matches, "bot_matches": args.bots, "ramp_s": round(ramp, 1),
        "connected_at_start": at_start, "duration_s": round(elapsed, 1),
        "actions_per_s": round((people.actions + bots.actions) / elapsed, 1),
        "people": group_figures(people, args.matches, elapsed),
        "bots": group_figures(bots, args.bots, elapsed) if args.bots else None,
        "server_cpu": rounded(window["server_cpu"]),
        "server_cpu_each": None if window["server_cpu_each"] is None else [round(c, 2) for c in
                                                                           window["server_cpu_each"]],
        "database_cpu": rounded(window["database_cpu"]), "database_backends": window["database_backends"],
        "client_cpu": rounded(window["client_cpu"]), "client_lag_ms": window["client_lag_ms"],
        "machine_cpu": rounded(window["machine_cpu"]), "cpus": os.cpu_count(),
        "cpu_wait": rounded(window["cpu_wait"]),
        "lobby": lobby_out, "deaf": deaf_out, "tournament": tournament_out,
    }
    return out


def lobby_figures(figures: LobbyFigures, watchers: int, elapsed: float) -> dict[str, Any]:
    return figures.summary(watchers, elapsed) | {
        "push_ms": latency_ms(figures.push), "post_ms": latency_ms(figures.post),
        "paired_ms": latency_ms(figures.paired), "board_ms": latency_ms(figures.board)}


def rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def rounded_ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(1000 * seconds, 1)


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

    await ramp_up(lambda: figures.connected, pairs, ramp, start)
    await asyncio.sleep(1.0)
    window = await sample_window([figures], duration, [relay_pid])
    failed = [t for t in tasks if t.done() and t.exception() is not None]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"pairs": pairs, "connected": figures.connected, "failed_connections": len(failed),
            "duration_s": round(window["elapsed"], 1), "messages_per_s": round(count / window["elapsed"], 1),
            "latency_ms": latency_ms(figures.latencies),
            "server_cpu": rounded(window["server_cpu"]), "client_cpu": rounded(window["client_cpu"])}


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def cpu(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f}% of a core" if value < 0.1 else f"{100 * value:.0f}% of a core"


def spread(lat: dict[str, Any]) -> str:
    return f"{ms(lat['p50'])} / {ms(lat['p90'])} / {ms(lat['p99'])} / {ms(lat['max'])}"


def group_rows(table: Table, name: str, group: dict[str, Any], pace_name: str, stalled_after: float,
               latency: str) -> None:
    table.add_row(f"{name}: matches held, fewest / mean in the window's seconds",
                  f"{group['held_min']} / {group['held_mean']:g} of {group['matches']}")
    table.add_row(f"{name}: matches finished in the window", str(group["finished"]))
    table.add_row(f"{name}: actions per second (rolls + plays acknowledged)", f"{group['actions_per_s']:,.1f}")
    if group["latency_ms"]["count"]:
        table.add_row(f"{name}: {latency}, p50 / p90 / p99 / max (ms)", spread(group["latency_ms"]))
        table.add_row(f"{name}: plays timed", f"{group['latency_ms']['count']:,}")
    if group["answer_ms"]["count"]:
        table.add_row(f"{name}: play sent → the bot's answer seen, p50 / p90 / p99 / max (ms)",
                      spread(group["answer_ms"]))
        table.add_row(f"{name}: answers timed", f"{group['answer_ms']['count']:,}")
    clock = group["clock_error_ms"]
    if clock["count"]:
        table.add_row(f"{name}: clock error, the server's count of a turn less the player's, "
                      "min / p50 / p99 / max (ms)",
                      f"{ms(clock['min'])} / {ms(clock['p50'])} / {ms(clock['p99'])} / {ms(clock['max'])}")
        table.add_row(f"{name}: clock readings (acknowledged rolls and plays)", f"{clock['count']:,}")
    joins = group["join_ms"]
    table.add_row(f"{name}: connect + hello → first state, p50 / p99 / max (ms)",
                  f"{ms(joins['p50'])} / {ms(joins['p99'])} / {ms(joins['max'])}")
    table.add_row(f"{name}: errors by code", ", ".join(f"{k} {v}" for k, v in sorted(group["errors"].items()))
                  or "none")
    table.add_row(f"{name}: dropped connections",
                  ", ".join(f"{k}: {v}" for k, v in sorted(group["dropped"].items())) or "0")
    table.add_row(f"{name}: matches stalled (no state for {stalled_after:g} s at the end)", str(group["stalled"]))


def lobby_rows(table: Table, lobby: dict[str, Any]) -> None:
    table.add_row("lobby: watchers connected at the end / asked", f"{lobby['connected']} / {lobby['watchers']}")
    table.add_row("lobby: seeks posted a second; cancelled, accepted in the window",
                  f"{lobby['seeks_per_s']:g}; {lobby['cancelled']}, {lobby['accepted']}")
    table.add_row("lobby: messages pushed to watchers a second", f"{lobby['pushes_per_s']:,.1f}")
    seen = lobby["seen"]
    table.add_row("lobby: of each seek posted, the share of watchers it reached", "-" if seen is None
                  else f"{100 * seen:.2f}%")
    table.add_row("lobby: seek posted → a watcher sees it, p50 / p90 / p99 / max (ms)", spread(lobby["push_ms"]))
    table.add_row("lobby: POST /api/seeks round trip, p50 / p90 / p99 / max (ms)", spread(lobby["post_ms"]))
    table.add_row("lobby: accept sent → the seeker hears of the match, p50 / p90 / p99 / max (ms)",
                  spread(lobby["paired_ms"]))
    table.add_row("lobby: accept sent → both players hold the board, p50 / p90 / p99 / max (ms)",
                  spread(lobby["board_ms"]))
    table.add_row("lobby: errors", ", ".join(f"{k} {v}" for k, v in sorted(lobby["errors"].items())) or "none")


def tournament_rows(table: Table, tournament: dict[str, Any]) -> None:
    table.add_row("tournament: watchers; changes a second; tournament sent (bytes)",
                  f"{tournament['watchers']}; {tournament['changes_per_s']:g}; {tournament['view_bytes']:,}")
    seen = tournament["seen"]
    table.add_row("tournament: of each change, the share of watchers it reached", "-" if seen is None
                  else f"{100 * seen:.2f}%")
    table.add_row("tournament: change asked → a watcher is sent it, p50 / p90 / p99 / max (ms)",
                  spread(tournament["push_ms"]))
    table.add_row("tournament: errors", ", ".join(f"{k} {v}" for k, v in sorted(tournament["errors"].items()))
                  or "none")


def report(args: argparse.Namespace, pace: Pace, run: dict[str, Any], single: dict[str, Any] | None,
           relay: dict[str, Any] | None) -> None:
    what = "café pace, think " + "–".join(f"{t:g}" for t in pace.think) + " s" if pace.think else "saturating"
    servers = run["servers"]
    title = (f"tavli serve{f' ×{servers} processes' if servers > 1 else ''}: {args.matches} matches"
             f"{f' + {args.bots} against {args.bot_level}' if args.bots else ''}"
             f"{f', {args.lobby_watchers} in the lobby, {args.seeks:g} seeks/s' if args.lobby_watchers else ''}"
             f" ({what}; "
             f"{args.length} points of {args.games}{', steps' if pace.steps else ''}), "
             f"{run['duration_s']:g} s measured")
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("value", justify="right")
    table.add_row("ramp-up (matches connected / time)", f"{run['connected_at_start']} in {run['ramp_s']} s")
    latency = "play sent → opponent sees it" + (" (across processes)" if servers > 1 else "")
    if args.matches:
        group_rows(table, "people", run["people"], what, pace.stalled_after, latency)
    if run["bots"] is not None:
        table.add_section()
        group_rows(table, "bot matches", run["bots"], what, pace.stalled_after, latency)
    if run["lobby"] is not None:
        table.add_section()
        lobby_rows(table, run["lobby"])
    if run["tournament"] is not None:
        table.add_section()
        tournament_rows(table, run["tournament"])
    table.add_section()
    table.add_row("actions per second, all matches", f"{run['actions_per_s']:,.1f}")
    each = run["server_cpu_each"]
    table.add_row("CPU: server" + (" processes, together (each)" if servers > 1 else ""),
                  cpu(run["server_cpu"]) + (f" ({', '.join(f'{100 * c:.0f}%' for c in each)})"
                                            if each and servers > 1 else ""))
    if run["database_cpu"] is not None:
        table.add_row("CPU: the database's PostgreSQL backends", cpu(run["database_cpu"]))
    lag = run["client_lag_ms"]
    table.add_row("CPU: this client / its event-loop lag p50, p99, max (ms)",
                  f"{cpu(run['client_cpu'])} / {ms(lag['p50'])}, {ms(lag['p99'])}, {ms(lag['max'])}")
    if run["machine_cpu"] is not None:
        table.add_row("CPU: the whole machine, busy (all processes, others' too)",
                      f"{run['machine_cpu']:.2f} of {run['cpus']} cores")
    if run["cpu_wait"] is not None:
        table.add_row("CPU: share of the window some task waited for a CPU (pressure)", f"{100 * run['cpu_wait']:.0f}%")
    if single is not None:
        table.add_section()
        sp = single["people"]
        table.add_row("one process, same load: actions per second", f"{single['actions_per_s']:,.1f}")
        if sp["latency_ms"]["count"]:
            table.add_row("one process: play sent → opponent sees it, p50 / p90 / p99 / max (ms)",
                          spread(sp["latency_ms"]))
        table.add_row("one process: errors, dropped, stalled",
                      f"{sum(sp['errors'].values())}, {sum(sp['dropped'].values())}, {sp['stalled']}")
        table.add_row("one process: CPU server / database",
                      f"{cpu(single['server_cpu'])} / {cpu(single['database_cpu'])}")
        if single["actions_per_s"]:
            table.add_row(f"{servers} processes / one: actions per second",
                          f"{run['actions_per_s'] / single['actions_per_s']:.2f}×")
        a, b = run["people"]["latency_ms"], sp["latency_ms"]
        if a["p50"] and b["p50"]:
            table.add_row(f"{servers} processes / one: p50, p99 latency",
                          f"{a['p50'] / b['p50']:,.1f}× , {a['p99'] / b['p99']:,.1f}×")
    if relay is not None:
        rl = relay["latency_ms"]
        table.add_section()
        table.add_row(f"relay floor ({relay['pairs']} pairs, {relay['duration_s']:g} s): messages per second",
                      f"{relay['messages_per_s']:,.1f}")
        table.add_row("relay floor: p50 / p90 / p99 / max (ms)", spread(rl))
        table.add_row("relay floor: CPU relay / this client",
                      f"{cpu(relay['server_cpu'])} / {cpu(relay['client_cpu'])}")
        if relay.get("p50_ratio") is not None:
            table.add_row("tavli serve / relay floor: p50, p99 latency",
                          f"{relay['p50_ratio']:,.1f}× , {relay['p99_ratio']:,.1f}×")
        if relay.get("rate_ratio") is not None:
            table.add_row("relay floor messages/s / tavli serve actions/s", f"{relay['rate_ratio']:,.1f}×")
    console.print(table)


def clock_option(text: str) -> str | dict[str, float]:
    """``--clock``: none, a preset's name (the server checks it), or DELAY,RESERVE in seconds."""
    if "," not in text:
        return text
    try:
        delay, reserve = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"none, a preset or DELAY,RESERVE in seconds expected: not {text!r}") from None
    return {"delay": delay, "reserve": reserve}


def think_range(text: str) -> tuple[float, float]:
    try:
        low, high = (float(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"MIN,MAX in seconds expected, such as 1,4: not {text!r}") from None
    if not 0 <= low <= high:
        raise argparse.ArgumentTypeError(f"0 <= MIN <= MAX expected: not {text!r}")
    return low, high


@contextlib.contextmanager
def servers_on(count: int, given: str | None, bot_delay: float, extra: list[str],
               players: int = 0) -> Iterator[tuple[list[Process], Database]]:
    """``count`` servers on a fresh database (with ``players`` accounts logged in), stopped (and the
    database dropped) at the end."""
    database = Database(given)
    servers: list[Process] = []
    try:
        database.cookies = make_accounts(database.url, players) if players else []
        servers = start_servers(count, database.url, bot_delay, extra)
        yield servers, database
        for server in servers:
            if server.process.poll() is not None:
                raise SystemExit(f"{server.what} exited during the run ({server.process.returncode}): "
                                 f"{server.tail()}")
    finally:
        for server in servers:
            server.stop()
        database.drop()


def make_accounts(url: str, count: int) -> list[str]:
    """``count`` accounts with a session each in the database at ``url`` (brought to the current
    schema first): their cookies, ``tavli_session=SECRET``. One password hash serves them all."""
    from sqlalchemy import insert

    from tavli.server.cafe.accounts import COOKIE, HASHER, SESSION_SECONDS, session_hash
    from tavli.server.storage.schema import accounts, sessions
    from tavli.server.storage.store import Store

    async def make() -> list[str]:
        store = Store(url)
        await store.create_tables()
        hashed, now = HASHER.hash("load-test password"), time.time()
        secrets_made = [f"load{k}-{os.urandom(16).hex()}" for k in range(count)]
        async with store.engine.begin() as conn:
            await conn.execute(insert(accounts), [
                {"id": k + 1, "name": f"load{k}", "name_key": f"load{k}", "password": hashed, "created": now,
                 "disabled": False, "deleted": False} for k in range(count)])
            await conn.execute(insert(sessions), [
                {"hash": session_hash(secret), "account_id": k + 1, "created": now, "expires": now + SESSION_SECONDS}
                for k, secret in enumerate(secrets_made)])
        await store.engine.dispose()
        return [f"{COOKIE}={secret}" for secret in secrets_made]
    return asyncio.run(make())


def load_on(count: int, args: argparse.Namespace, pace: Pace, factory: Any) -> dict[str, Any]:
    accounts = (2 * (args.matches + 1) if args.accounts else 0) \
        + (args.tournament_players + 2 if args.tournament_watchers else 0)
    with servers_on(count, args.database, args.bot_delay, shlex.split(args.serve_args), accounts) as (servers,
                                                                                                     database):
        args.cookies = database.cookies
        console.print(f"{len(servers)} server{'s' * (len(servers) > 1)}: "
                      + ", ".join(f"{s.url} (pid {s.process.pid})" for s in servers)
                      + f"; database {database.url.split('@')[-1]}")
        postgres = (database.url if database.name else None, database.name)
        with asyncio.Runner(loop_factory=factory) as runner:
            return runner.run(run_load([s.url for s in servers], args, pace, [s.process.pid for s in servers],
                                       postgres))


def deaf_ratio(run: dict[str, Any], without: dict[str, Any]) -> dict[str, Any]:
    """The people's play → opponent latency with the deaf spectators (or the chat) over the same without them."""
    with_lat, without_lat = run["people"]["latency_ms"], without["people"]["latency_ms"]
    return {key: round(with_lat[key] / without_lat[key], 3) if with_lat[key] and without_lat[key] else None
            for key in ("p50", "p90", "p99")}


def comparison_table(title: str, with_what: str, run: dict[str, Any], without: dict[str, Any],
                     ratio: dict[str, Any]) -> Table:
    """The same load with something and without it: the latencies, their ratios, the rest of the
    people's figures; the caller adds its own rows."""
    table = Table(title=title)
    table.add_column("figure")
    table.add_column(with_what, justify="right")
    table.add_column("without", justify="right")
    table.add_column("ratio", justify="right")
    for key in ("p50", "p90", "p99"):
        table.add_row(f"play → opponent {key} (ms)", ms(run["people"]["latency_ms"][key]),
                      ms(without["people"]["latency_ms"][key]), "-" if ratio[key] is None else f"{ratio[key]:.3f}")
    table.add_row("actions a second", f"{run['actions_per_s']:,.1f}", f"{without['actions_per_s']:,.1f}", "")
    table.add_row("matches stalled", str(run["people"]["stalled"]), str(without["people"]["stalled"]), "")
    table.add_row("errors", ", ".join(f"{k} {v}" for k, v in sorted(run["people"]["errors"].items())) or "none",
                  ", ".join(f"{k} {v}" for k, v in sorted(without["people"]["errors"].items())) or "none", "")
    return table


def deaf_report(args: argparse.Namespace, result: dict[str, Any]) -> None:
    run = result["run"]
    table = comparison_table(f"{args.deaf} never-reading spectators ({args.deaf_joins:g} joins a second among "
                             "their matches) against none, the same load otherwise", "with them", run,
                             result["without_deaf"], result["deaf_ratio"])
    deaf = run["deaf"]
    table.add_row("deaf sockets opened; spectator joins a second", f"{deaf['deaf_opened']}; {deaf['joins_per_s']:g}",
                  "", "")
    table.add_row("deaf spectators' errors", ", ".join(f"{k} {v}" for k, v in sorted(deaf["errors"].items()))
                  or "none", "", "")
    console.print(table)


def chat_report(args: argparse.Namespace, result: dict[str, Any]) -> None:
    """The same load without chat and with it (``--chat-compare``), and the ratio of the latencies."""
    run, without, ratio = result["run"], result["without_chat"], result["chat_ratio"]
    table = comparison_table(f"chat, {args.chat_per_minute:g} quick phrases a minute in each match, against none, "
                             "the same load otherwise", "with chat", run, without, ratio)
    table.add_row("chat lines said / received", f"{run['people']['chat_lines']:,} / {run['people']['chat_seen']:,}",
                  f"{without['people']['chat_lines']:,} / {without['people']['chat_seen']:,}", "")
    console.print(table)
    if ratio["p99"] is not None:
        console.print(f"chat p99 ratio: {ratio['p99']:.3f}")


def tournament_report(args: argparse.Namespace, result: dict[str, Any]) -> None:
    """The same load with the watched tournament and without it (``--tournament-compare``)."""
    run, ratio = result["run"], result["tournament_ratio"]
    table = comparison_table(f"{args.tournament_watchers} pages watching a {args.tournament_players}-player arena "
                             f"({args.tournament_changes:g} changes a second) against none, the same load otherwise",
                             "with it", run, result["without_tournament"], ratio)
    console.print(table)
    if ratio["p99"] is not None:
        console.print(f"tournament p99 ratio: {ratio['p99']:.3f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="concurrent matches between people (default 1000)")
    parser.add_argument("--pace", choices=["saturate", "cafe"], default="saturate",
                        help="saturate: every seat acts at once (default); cafe: each thinks --think seconds "
                             "before every roll and play")
    parser.add_argument("--think", type=think_range, default=(1.0, 4.0), metavar="MIN,MAX",
                        help="cafe pace: seconds thought before each action, uniform (default 1,4)")
    parser.add_argument("--steps", action=argparse.BooleanOptionalAction, default=None,
                        help="hello with steps: true, as the board sends it (default: on at cafe pace)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds (default 60)")
    parser.add_argument("--ramp", type=int, default=100,
                        help="matches started a second during ramp-up, a batch once the one before has connected "
                             "(default 100)")
    parser.add_argument("--settle", type=float, default=None,
                        help="seconds between the ramp-up and the window (default: the longest think time)")
    parser.add_argument("--length", type=int, default=None, help="points per match (default 1; 5 at cafe pace)")
    parser.add_argument("--games", default=None, help="games of each match (default portes; tavli at cafe pace)")
    parser.add_argument("--bots", type=int, default=0, metavar="M",
                        help="also M matches against a bot, the human seat at the same pace (default 0)")
    parser.add_argument("--bot-level", default="champion", help="the bot of --bots (default champion)")
    parser.add_argument("--accounts", action="store_true",
                        help="the people's matches are rated matches between logged-in players")
    parser.add_argument("--clock", type=clock_option, default=None,
                        help="the people's matches' clock: none, a preset (kafeneio, blitz, relaxed) or "
                             "DELAY,RESERVE seconds (default: the server's, kafeneio between people)")
    parser.add_argument("--lobby-watchers", type=int, default=0, metavar="W",
                        help="also W guests watching the start page's lobby while seeks come and go (default 0)")
    parser.add_argument("--seeks", type=float, default=10.0,
                        help="with --lobby-watchers: seeks posted a second among them (default 10)")
    parser.add_argument("--seek-accept", type=float, default=0.1, metavar="SHARE",
                        help="with --lobby-watchers: the share of seeks accepted, the rest cancelled (default 0.1)")
    parser.add_argument("--until-finished", type=int, default=0, metavar="K",
                        help="measure past --duration until K matches have finished (at most 10 minutes): "
                             "for checks that need ended matches on a machine of any speed")
    parser.add_argument("--deaf", type=int, default=0, metavar="N",
                        help="N spectators that never read, each following a match of its own (deaf_load.py)")
    parser.add_argument("--deaf-joins", type=float, default=0.0, metavar="R",
                        help="with --deaf: spectator joins a second among their matches (default 0)")
    parser.add_argument("--deaf-compare", action="store_true",
                        help="with --deaf: run the same load without them first, for the ratio of the p99s")
    parser.add_argument("--chat-per-minute", type=float, default=0.0, metavar="R",
                        help="each people's match says a quick phrase R times a minute, its seats in turn (default 0)")
    parser.add_argument("--chat-compare", action="store_true",
                        help="with --chat-per-minute: run the same load without chat first, for the ratio of the p99s")
    parser.add_argument("--tournament-watchers", type=int, default=0, metavar="W",
                        help="W pages watching a running arena while an account joins and leaves it (default 0)")
    parser.add_argument("--tournament-players", type=int, default=64, metavar="P",
                        help="with --tournament-watchers: the arena's players (default 64)")
    parser.add_argument("--tournament-changes", type=float, default=1.0, metavar="R",
                        help="with --tournament-watchers: changes (a join or a leaving) a second (default 1)")
    parser.add_argument("--tournament-compare", action="store_true",
                        help="with --tournament-watchers: run the same load without the tournament first")
    parser.add_argument("--bot-delay", type=float, default=0.0,
                        help="the server's --bot-delay (default 0: the bot's answer is its own time)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' plays and think times (default 1)")
    parser.add_argument("--database", help="database URL for the servers (default: a fresh SQLite file); "
                                           "postgresql://...: a fresh database on that server for each run")
    parser.add_argument("--servers", type=int, default=1,
                        help="tavli serve processes sharing the database (2 or more need PostgreSQL); "
                             "the two seats of a match connect to different ones (default 1)")
    parser.add_argument("--compare", action="store_true",
                        help="with --servers N: then the same load on one process, for the ratios")
    parser.add_argument("--serve-args", default="", metavar="ARGS",
                        help="more options for each tavli serve the benchmark starts, as one string "
                             "(--serve-args='--workers 2': the CPU counts each server's child processes too)")
    parser.add_argument("--url", help="load this running server (http://host:port) instead of starting one; "
                                      "its --create-limit and --connection-limit must allow the matches")
    parser.add_argument("--baseline", type=float, default=None, metavar="SECONDS",
                        help="seconds of the relay baseline (default 10 in saturate mode on one server, else 0)")
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
    cafe = args.pace == "cafe"
    pace = Pace(args.think if cafe else None, args.steps if args.steps is not None else cafe)
    args.length = args.length if args.length is not None else (5 if cafe else 1)
    args.games = args.games or ("tavli" if cafe else "portes")
    args.settle = args.settle if args.settle is not None else (args.think[1] if cafe else 0.0)
    if args.matches < 0 or args.bots < 0 or args.matches + args.bots < 1 or args.ramp < 1 or args.duration <= 0:
        parser.error("--matches + --bots must be at least 1, --ramp at least 1, --duration above 0")
    if args.servers < 1:
        parser.error("--servers must be at least 1")
    if args.lobby_watchers < 0 or (args.lobby_watchers and (args.lobby_watchers < 2 or args.seeks <= 0
                                                            or not 0 <= args.seek_accept <= 1)):
        parser.error("--lobby-watchers is 0 or at least 2, --seeks above 0, --seek-accept from 0 to 1")
    if args.servers > 1 and not (args.database or "").startswith("postgres"):
        parser.error("--servers 2 or more share one database: give --database postgresql://...")
    if args.url and (args.servers > 1 or args.compare or args.accounts or args.tournament_watchers):
        parser.error("--url loads one running server: no --servers, --compare, --accounts or --tournament-watchers")
    if args.tournament_compare and not args.tournament_watchers:
        parser.error("--tournament-compare needs --tournament-watchers")
    args.cookies = []
    if args.chat_per_minute < 0 or (args.chat_compare and not args.chat_per_minute):
        parser.error("--chat-per-minute is 0 or more; --chat-compare needs it above 0")
    if args.compare and args.servers < 2:
        parser.error("--compare compares --servers N (2 or more) with one")
    baseline = 0.0 if args.no_baseline else args.baseline if args.baseline is not None else \
        (10.0 if not cafe and args.servers == 1 and not args.bots else 0.0)
    command = shlex.join([Path(sys.executable).name, "benchmarks/speed/load.py",
                          *(argv if argv is not None else sys.argv[1:])])
    files = raise_file_limit()
    if files < 4 * (args.matches + args.bots) + 100:
        console.print(f"[yellow]only {files} open files allowed: fewer matches may connect[/]")
    loop_name = "uvloop" if factory is not None else "asyncio"
    console.print(f"command: {command}")
    console.print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} before the run; "
                  f"client loop {loop_name}; open files {files}")

    result: dict[str, Any] = {"command": command, "cpus": os.cpu_count(), "load_average": os.getloadavg()[0],
                              "client_loop": loop_name, "pace": args.pace,
                              "think_s": list(pace.think) if pace.think else None, "steps": pace.steps,
                              "accounts": args.accounts, "clock": args.clock,
                              "lobby_watchers": args.lobby_watchers,
                              "chat_per_minute": args.chat_per_minute,
                              "seeks_per_s": args.seeks if args.lobby_watchers else None,
                              "length": args.length, "games": args.games, "servers": args.servers,
                              "bot_level": args.bot_level if args.bots else None}
    relay: Process | None = None
    try:
        if args.url:
            base = args.url.rstrip("/")
            try:
                httpx.get(base + "/healthz", timeout=30).raise_for_status()
            except httpx.HTTPError as exc:
                raise SystemExit(f"{base}/healthz: {exc}") from None
            console.print(f"server {base}")
            with asyncio.Runner(loop_factory=factory) as runner:
                run = runner.run(run_load([base], args, pace, []))
        else:
            if args.chat_compare:  # the same load without chat first, then with it
                chat, args.chat_per_minute = args.chat_per_minute, 0.0
                console.print("the load without chat:")
                result["without_chat"] = load_on(args.servers, args, pace, factory)
                args.chat_per_minute = chat
                console.print(f"the same load with {chat:g} quick phrases a minute in each match:")
            run = load_on(args.servers, args, pace, factory)
        result["run"] = run
        if args.chat_compare and "without_chat" in result:
            result["chat_ratio"] = deaf_ratio(run, result["without_chat"])
        if args.tournament_compare:
            watchers, args.tournament_watchers = args.tournament_watchers, 0
            console.print("the same load without the tournament:")
            result["without_tournament"] = load_on(args.servers, args, pace, factory)
            args.tournament_watchers = watchers
            result["tournament_ratio"] = deaf_ratio(run, result["without_tournament"])
        if args.deaf_compare:
            deaf, args.deaf = args.deaf, 0
            console.print("the same load without the deaf spectators:")
            result["without_deaf"] = run_without = load_on(args.servers, args, pace, factory)
            args.deaf = deaf
            result["deaf_ratio"] = deaf_ratio(run, run_without)
        single = None
        if args.compare:
            console.print("the same load on one process:")
            single = result["single"] = load_on(1, args, pace, factory)
        relay_figures = None
        if baseline > 0:
            relay = Process("the relay", [sys.executable, str(Path(__file__).resolve()), "--serve-relay",
                                          "--loop", args.loop], r"ws://127\.0\.0\.1:\d+/",
                            tempfile.TemporaryDirectory(prefix="tavli-load-relay-"))
            with asyncio.Runner(loop_factory=factory) as runner:
                relay_figures = runner.run(run_relay_baseline(relay.url, args.matches, args.ramp, baseline,
                                                              relay.process.pid))
            relay.stop()
            relay = None
            lat, rl = run["people"]["latency_ms"], relay_figures["latency_ms"]
            if lat["p50"] and rl["p50"]:
                relay_figures["p50_ratio"] = round(lat["p50"] / rl["p50"], 1)
                relay_figures["p99_ratio"] = round(lat["p99"] / rl["p99"], 1)
            if run["actions_per_s"]:
                relay_figures["rate_ratio"] = round(relay_figures["messages_per_s"] / run["actions_per_s"], 1)
            result["relay"] = relay_figures
        report(args, pace, run, single, relay_figures)
        if args.deaf_compare:
            deaf_report(args, result)
        if "chat_ratio" in result:
            chat_report(args, result)
        if "tournament_ratio" in result:
            tournament_report(args, result)
        console.print(f"command: {command}")
        if args.json:
            Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
            console.print(f"figures written to {args.json}")
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
    finally:
        if relay is not None:
            relay.stop()


if __name__ == "__main__":
    main()
