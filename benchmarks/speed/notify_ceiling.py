"""How many commits a second one PostgreSQL takes when each of them NOTIFYs, as every action stored by
``tavli serve --workers`` does (``Store.append_actions``), against the same commits without the
NOTIFY, and how soon a listener hears each one (docs/scale.md).

    .venv/bin/python benchmarks/speed/notify_ceiling.py [--url postgresql://…] [--writers 1,2,4,8,16,32] \\
        [--seconds 6] [--rounds 3] [--actions 1] [--hear 20000] [--json FILE]

The URL is ``--url`` or ``TAVLI_TEST_POSTGRES``; with neither it says so in one line and stops. The
tables are the store's own (``Store.create_tables``: the migrations), made in a schema of their
own that is dropped at the end, with a match of its own for each action of each writer
(``Store.create_match``).

At each number of writers, each on a connection of its own, every writer stores actions one
transaction after another as the store does (``Store.append_actions``): move each match on
(``UPDATE matches … WHERE seq = previous``), insert the actions' rows and, when notifying,
announce them (``pg_notify`` of the store's ``Announcement``, the action in it, on a channel of
the run's own), then commit. ``--actions K`` puts an action of each of K matches in every
commit, as the store's group commit does under load. One more connection LISTENs and parses
every announcement, as a server process does. The commits go straight through asyncpg, the
driver under the store's SQLAlchemy, so that the client's CPU stays small beside the database's.

PostgreSQL serialises the commits that notify (a transaction that has NOTIFYed takes one lock of
the whole cluster, on "database 0", before it commits and holds it until its commit is
flushed), where plain commits run side by side and share their flushes. So the plain commits,
run in the same rounds, are the floor, and the ratio notifying / plain is the figure that means
something across runs on a loaded machine. Each level runs ``--rounds`` rounds of plain then
notifying commits, their ``--seconds`` shared among them. Printed per level: commits a second of
each, the ratio, the time from a notifying COMMIT sent to the listener hearing it (p50, p99, in
ms), announcements never heard, and the client's CPU (a share of one core, plain/notifying).
Then ``--hear`` announcements sent at once time one listener hearing and parsing them: every
server process does that for every action stored by the others, its matches or not.
``--json FILE`` writes the figures too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from tavli.server.storage.store import ActionRow, Announcement, Store

MOVE_ON = "UPDATE matches SET seq = $3, over = false, updated = $4 WHERE id = $1 AND seq = $2"
ADD_ACTION = "INSERT INTO actions (match_id, seq, seat, kind, data, at) VALUES ($1, $2, $3, $4, $5, $6)"
NOTIFY = "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload"
"""The store's statements for a transaction of actions (``Store.append_actions``): the match moved on,
one statement a match, the actions' rows, and their announcements."""
PLAY = {"play": "13/7 8/7", "steps": [[13, 7], [8, 7]]}
"""The action each writer stores: a play, as a match's rows mostly are."""
HEARD_WAIT = 10.0
"""Seconds to wait, after a round, for the listener to hear what was committed."""


def plain_url(url: str) -> str:
    """``url`` as asyncpg takes it: no SQLAlchemy driver name, no ``?schema=``."""
    u = make_url(url)
    return u.set(drivername="postgresql").difference_update_query(["schema"]).render_as_string(hide_password=False)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Listener:
    """The connection that hears the announcements, and when each reached it."""

    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    """When each notifying COMMIT was sent, by (match, seq); taken away as it is heard."""
    latencies: list[float] = field(default_factory=list)
    all_heard: asyncio.Event = field(default_factory=asyncio.Event)

    def on_note(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        note = Announcement.parse(payload)  # what a server process does with each
        at = time.perf_counter()
        sent = self.sent.pop((note.match_id, note.seq), None)
        if sent is not None:
            self.latencies.append(at - sent)
        if not self.sent:
            self.all_heard.set()


@dataclass
class Writer:
    """A connection that stores actions of its matches, an action of each in every transaction (as
    the store's group commit puts the actions waiting for it in one)."""

    conn: Any
    match_ids: list[str]
    origin: str
    seq: int = 0

    async def store(self, channel: str, listener: Listener | None) -> None:
        """An action of each match stored, announced on ``channel`` when ``listener`` waits for them."""
        self.seq += 1
        now = time.time()
        data = json.dumps(PLAY)
        async with self.conn.transaction():  # committed as the block ends
            for mid in self.match_ids:  # one statement each, to count the rows moved (as the store does)
                if await self.conn.execute(MOVE_ON, mid, self.seq - 1, self.seq, now) != "UPDATE 1":
                    raise RuntimeError(f"match {mid} was not at action {self.seq - 1}")
            await self.conn.executemany(ADD_ACTION, [(mid, self.seq, "white", "play", data, now)
                                                     for mid in self.match_ids])
            if listener is not None:
                row = ActionRow(self.seq, "white", "play", PLAY, now)
                notes = [Announcement(mid, self.seq, self.origin, [row]).text() for mid in self.match_ids]
                await self.conn.execute(NOTIFY, channel, notes)
                listener.all_heard.clear()
                sent = time.perf_counter()  # the COMMIT goes next
                listener.sent.update({(mid, self.seq): sent for mid in self.match_ids})


@dataclass
class Round:
    commits: int = 0
    seconds: float = 0.0
    cpu: float = 0.0


async def run_round(writers: list[Writer], seconds: float, channel: str, listener: Listener | None) -> Round:
    """Every writer storing actions for ``seconds``; the commits made and the client's CPU."""
    stop = time.perf_counter() + seconds
    counts = [0] * len(writers)

    async def write(k: int) -> None:
        while time.perf_counter() < stop:
            await writers[k].store(channel, listener)
            counts[k] += 1

    cpu, start = time.process_time(), time.perf_counter()
    await asyncio.gather(*(write(k) for k in range(len(writers))))
    elapsed = time.perf_counter() - start
    return Round(sum(counts), elapsed, time.process_time() - cpu)


@dataclass
class Level:
    """The figures of one number of writers."""

    writers: int
    plain: Round = field(default_factory=Round)
    notifying: Round = field(default_factory=Round)
    latencies: list[float] = field(default_factory=list)
    unheard: int = 0

    def add(self, into: Round, done: Round) -> None:
        into.commits += done.commits
        into.seconds += done.seconds
        into.cpu += done.cpu

    def summary(self) -> dict[str, Any]:
        plain = self.plain.commits / self.plain.seconds
        notifying = self.notifying.commits / self.notifying.seconds
        ms = [1000 * x for x in self.latencies] or [float("nan")]
        return {"writers": self.writers, "plain_per_s": round(plain, 1), "notifying_per_s": round(notifying, 1),
                "ratio": round(notifying / plain, 3), "heard_p50_ms": round(statistics.median(ms), 2),
                "heard_p99_ms": round(quantile(ms, 0.99), 2), "heard": len(self.latencies),
                "unheard": self.unheard, "client_cpu_plain": round(self.plain.cpu / self.plain.seconds, 2),
                "client_cpu_notifying": round(self.notifying.cpu / self.notifying.seconds, 2)}


async def measure_level(writers: list[Writer], rounds: int, seconds: float, channel: str,
                        listener: Listener) -> Level:
    level = Level(len(writers))
    for _ in range(rounds):
        level.add(level.plain, await run_round(writers, seconds / (2 * rounds), channel, None))
        level.add(level.notifying, await run_round(writers, seconds / (2 * rounds), channel, listener))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(HEARD_WAIT):
                await listener.all_heard.wait()
        level.unheard += len(listener.sent)
        listener.sent.clear()
    level.latencies, listener.latencies = listener.latencies, []
    return level


async def measure_hearing(writer: Any, listener: Any, channel: str, count: int) -> dict[str, float]:
    """How fast one process hears and parses announcements of matches that are not its own, as every
    server process does with every action stored by the others: ``count`` of them sent in one
    transaction, timed (wall and the client's CPU) until the last is heard."""
    heard = 0
    all_heard = asyncio.Event()

    def on_note(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
        nonlocal heard
        Announcement.parse(payload)
        heard += 1
        if heard == count:
            all_heard.set()

    row = ActionRow(1, "white", "play", PLAY, time.time())
    notes = [Announcement(f"m{k}", 1, "elsewhere", [row]).text() for k in range(count)]
    await listener.add_listener(channel, on_note)
    try:
        cpu, start = time.process_time(), time.perf_counter()
        await writer.execute(NOTIFY, channel, notes)
        async with asyncio.timeout(HEARD_WAIT + count / 1000):
            await all_heard.wait()
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    finally:
        await listener.remove_listener(channel, on_note)
    return {"announcements": count, "heard_per_s": round(count / elapsed), "cpu_us_each": round(1e6 * cpu / count, 1)}


async def settings_of(conn: Any) -> str:
    """The server's version and the settings that decide a commit's cost."""
    version = await conn.fetchval("SHOW server_version")
    shown = [f"{name} {await conn.fetchval(f'SHOW {name}')}" for name in ("fsync", "synchronous_commit")]
    return f"PostgreSQL {version}, {', '.join(shown)}"


async def run(url: str, counts: list[int], seconds: float, rounds: int, actions: int = 1,
              hear: int = 0) -> dict[str, Any]:
    """The figures at each number of writers in ``counts``, on scratch tables dropped after."""
    import asyncpg  # type: ignore[import-untyped]  # the test and postgres extras have it

    base = plain_url(url)
    load = os.getloadavg()[0]
    schema = f"notify_ceiling_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(base)
    conns: list[Any] = []
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        store = Store(f"{base}?schema={schema}")
        try:
            await store.create_tables()
            match_ids = [f"nc{k}_{secrets.token_hex(6)}" for k in range(max(counts) * actions)]
            for mid in match_ids:
                await store.create_match(mid, {"length": 5}, "human", "human", {secrets.token_urlsafe(): "white"})
        finally:
            await store.close()
        server = await settings_of(admin)
        for _ in range(max(counts) + 1):
            conns.append(await asyncpg.connect(base, server_settings={"search_path": schema}))
        listener = Listener()
        await conns[-1].add_listener(schema, listener.on_note)
        origin = secrets.token_hex(8)
        writers = [Writer(conns[k], match_ids[k * actions:(k + 1) * actions], origin) for k in range(max(counts))]
        levels = [(await measure_level(writers[:n], rounds, seconds, schema, listener)).summary() for n in counts]
        hearing = await measure_hearing(conns[0], conns[-1], f"{schema}_hearing", hear) if hear else None
    finally:
        for conn in conns:
            with contextlib.suppress(Exception):
                await conn.close()
        with contextlib.suppress(Exception):
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()
    return {"server": server, "schema": schema, "cores": os.cpu_count(), "load_before": load,
            "seconds": seconds, "rounds": rounds, "actions": actions, "levels": levels,
            "hearing": hearing}


def print_figures(result: dict[str, Any]) -> None:
    print(f"{result['server']}; {result['cores']} cores, load {result['load_before']:.1f} before; "
          f"{result['seconds']:g} s a level in {result['rounds']} rounds; {result['actions']} action(s) a commit")
    print(f"{'writers':>7}  {'plain/s':>8}  {'notify/s':>8}  {'ratio':>5}  {'heard p50':>9}  {'p99 ms':>7}  "
          f"{'unheard':>7}  {'client CPU':>10}")
    for row in result["levels"]:
        print(f"{row['writers']:>7}  {row['plain_per_s']:>8.0f}  {row['notifying_per_s']:>8.0f}  {row['ratio']:>5.2f}  "
              f"{row['heard_p50_ms']:>9.2f}  {row['heard_p99_ms']:>7.2f}  {row['unheard']:>7}  "
              f"{row['client_cpu_plain']:>4.2f}/{row['client_cpu_notifying']:.2f}")
    best = max(result["levels"], key=lambda row: row["notifying_per_s"])
    print(f"ceiling: {best['notifying_per_s']:.0f} notifying commits a second ({best['writers']} writers), "
          f"{best['notifying_per_s'] * result['actions']:.0f} actions a second")
    if result["hearing"]:
        hearing = result["hearing"]
        print(f"hearing: one listener heard and parsed {hearing['announcements']} announcements at "
              f"{hearing['heard_per_s']} a second, {hearing['cpu_us_each']} µs of its CPU each")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("TAVLI_TEST_POSTGRES"),
                        help="postgresql://… (default: TAVLI_TEST_POSTGRES)")
    parser.add_argument("--writers", default="1,2,4,8,16,32", help="the numbers of writers, comma-separated")
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds of each level, both kinds of commit")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of plain then notifying commits a level")
    parser.add_argument("--actions", type=int, default=1, help="actions in each commit, each of a match of its own")
    parser.add_argument("--hear", type=int, default=20_000,
                        help="announcements sent at once to time one listener hearing them (0: none)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    try:
        counts = [int(n) for n in args.writers.split(",")]
    except ValueError:
        parser.error(f"--writers takes numbers, comma-separated, not {args.writers!r}")
    if min(counts) < 1 or args.seconds <= 0 or args.rounds < 1 or args.actions < 1 or args.hear < 0:
        parser.error("--writers, --seconds, --rounds and --actions are positive")
    if not args.url:
        print("skipped: no PostgreSQL (give --url postgresql://… or set TAVLI_TEST_POSTGRES)")
        return
    import asyncpg  # the test and postgres extras have it

    try:
        result = asyncio.run(run(args.url, counts, args.seconds, args.rounds, args.actions, args.hear))
    except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        sys.exit(f"notify_ceiling: cannot use {make_url(args.url).render_as_string()}: {exc}")
    print_figures(result)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
