"""The web app's database: matches, seat tokens, dice seeds and every action, as they happen.

SQLite by default, PostgreSQL by URL; SQLAlchemy Core with its asyncio drivers
(aiosqlite, asyncpg). A match is its settings plus the ordered list of its
actions: appending action ``n`` succeeds only if the match is still at
``n - 1`` actions, so two server processes sharing a database cannot both
act on the same turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

import orjson
from sqlalchemy import (
    Table,
    bindparam,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from tavli.fairdice import commitment
from tavli.server.storage.migrate import upgrade
from tavli.server.storage.schema import (
    accounts,
    actions,
    analyses,
    heartbeat,
    insert_for,
    match_results,
    matches,
    names,
    open_seats,
    outages,
    presence,
    seat_accounts,
    seeds,
    tokens,
)

# the statements of every action, built once
_MOVE_ON = (update(matches).where(matches.c.id == bindparam("mid"), matches.c.seq == bindparam("prev"))
            .values(seq=bindparam("next"), over=bindparam("over"), updated=bindparam("now")))
_ADD_ACTION = insert(actions)
CHANNEL = "tavli_actions"
"""The PostgreSQL channel on which each stored batch names its matches, ``match_id seq origin``
(seq -1: a seat joined or left)."""
_NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', payload) FROM unnest(CAST(:payloads AS text[])) AS payload")
LOBBY_CHANNEL = "tavli_lobby"
"""The PostgreSQL channel of the lobby (``tavli.server.cafe.lobby``): seeks posted and gone, pairings."""
CHAT_CHANNEL = "tavli_chat"
"""The PostgreSQL channel of the matches' chat lines (``tavli.server.storage.chat_log``)."""
OUTAGE_SECONDS = 0.5
"""A gap in the heartbeat longer than this, found by a process as it starts, is an outage (no
process was alive); a shorter one is a late heartbeat of a live process (they beat ten times a second)."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def async_url(url: str) -> str:
    """The SQLAlchemy URL with an asyncio driver: ``sqlite://`` and ``postgresql://`` become
    ``sqlite+aiosqlite://`` and ``postgresql+asyncpg://``.

    >>> async_url("sqlite:///tavli.db")
    'sqlite+aiosqlite:///tavli.db'
    >>> async_url("postgresql://u:p@localhost/tavli")
    'postgresql+asyncpg://u:p@localhost/tavli'
    """
    try:
        u = make_url(url)
    except Exception as exc:
        raise ValueError(f"not a database URL: {url!r}") from exc
    backend = u.get_backend_name()
    if backend == "sqlite":
        u = u.set(drivername="sqlite+aiosqlite")
    elif backend in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+asyncpg")
    else:
        raise ValueError(f"unsupported database {backend!r}: use sqlite:///FILE or postgresql://...")
    return u.render_as_string(hide_password=False)


@dataclass(frozen=True)
class MatchRow:
    id: str
    created: float
    settings: dict[str, Any]
    white: str
    black: str
    seq: int
    over: bool
    updated: float


@dataclass(frozen=True)
class ActionRow:
    seq: int
    seat: str
    kind: str
    data: dict[str, Any]
    at: float


P = ParamSpec("P")
T = TypeVar("T")


def _unbroken(method: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """A database call that runs to its end even if its caller is cancelled (a client that goes
    away, a server that stops): cancelled halfway, SQLAlchemy would give up the connection, and
    closing it later can wait for ever on a worker thread that has gone."""
    @functools.wraps(method)
    async def unbroken(*args: P.args, **kwargs: P.kwargs) -> T:
        task = asyncio.ensure_future(method(*args, **kwargs))
        task.add_done_callback(_consume)
        return await asyncio.shield(task)
    return unbroken


def _consume(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()  # the caller that would have seen it is gone: no "never retrieved" noise


unbroken = _unbroken
"""``_unbroken`` for the other modules' database calls (the lobby's)."""


class Conflict(Exception):
    """Another writer appended to the match first."""


NOTIFY_BYTES = 7900
"""PostgreSQL's limit on a NOTIFY payload is 8,000 bytes: longer announcements leave the actions out."""


@dataclass(frozen=True)
class Announcement:
    """What one server process tells the others on ``CHANNEL``: match ``match_id`` is now at
    action ``seq`` (-1: a seat joined or left), with the actions and any new games' seeds when
    they fit in one message (None: read them from the database).

    >>> a = Announcement("m1", 2, "p1", [ActionRow(2, "white", "roll", {"dice": [3, 1]}, 1.5)], {1: b"\x07" * 32})
    >>> Announcement.parse(a.text()) == a
    True
    """

    match_id: str
    seq: int
    origin: str
    actions: list[ActionRow] | None = None
    seeds: dict[int, bytes] = field(default_factory=dict)

    def text(self) -> str:
        base: dict[str, Any] = {"m": self.match_id, "q": self.seq, "o": self.origin}
        if self.actions is not None:
            full = orjson.dumps(base | {"a": [[a.seq, a.seat, a.kind, a.data, a.at] for a in self.actions],
                                        "n": {str(g): s.hex() for g, s in self.seeds.items()}}).decode()
            if len(full.encode()) <= NOTIFY_BYTES:
                return full
        return orjson.dumps(base).decode()

    @classmethod
    def parse(cls, text: str) -> Announcement:
        data = orjson.loads(text)
        actions = None
        if "a" in data:
            actions = [ActionRow(int(q), str(seat), str(kind), dict(d), float(at))
                       for q, seat, kind, d, at in data["a"]]
        return cls(str(data["m"]), int(data["q"]), str(data["o"]), actions,
                   {int(g): bytes.fromhex(h) for g, h in data.get("n", {}).items()})


@dataclass
class _Append:
    """Actions waiting for the next group commit, and the future their writer waits on."""

    match_id: str
    seq: int
    entries: list[tuple[str, str, dict[str, Any]]]
    new_seeds: dict[int, bytes]
    over: bool
    done: asyncio.Future[float]

    def announcement(self, origin: str, at: float) -> str:
        """The NOTIFY payload that tells the other server processes of these actions."""
        rows = [ActionRow(self.seq + i, seat, kind, data, at) for i, (seat, kind, data) in enumerate(self.entries)]
        return Announcement(self.match_id, self.seq + len(rows) - 1, origin, rows, self.new_seeds).text()

    def settle(self, at: float) -> None:
        if not self.done.done():
            self.done.set_result(at)

    def fail(self, exc: BaseException) -> None:
        if not self.done.done():
            self.done.set_exception(exc)


@dataclass
class _Row:
    """A row of another table (a chat line) written in the next group commit, announced on
    ``channel`` in the same transaction (``announce`` makes the payload from the row's id), and the
    future of its id."""

    table: Table
    values: dict[str, Any]
    channel: str | None
    announce: Callable[[int], str] | None
    done: asyncio.Future[int]
    id: int = 0

    def settle(self, _at: float) -> None:
        if not self.done.done():
            self.done.set_result(self.id)

    def fail(self, exc: BaseException) -> None:
        if not self.done.done():
            self.done.set_exception(exc)


_ANNOUNCE = text("SELECT pg_notify(:channel, :payload)")


class Store:
    """All database access of the web app."""

    def __init__(self, url: str) -> None:
        full = async_url(url)
        self.url = url
        kwargs: dict[str, Any] = {}
        if full.startswith("sqlite"):
            kwargs["connect_args"] = {"timeout": 30}
            if make_url(full).database in (None, "", ":memory:"):
                kwargs["poolclass"] = StaticPool  # one in-memory database, shared
            else:
                # SQLite lets one writer in at a time and makes the others sleep and retry:
                # one connection, which callers wait for in turn, is faster than several
                kwargs.update(pool_size=1, max_overflow=0, pool_timeout=120)
        elif make_url(full).query.get("schema"):
            # postgresql://…/db?schema=NAME: the tables live in that schema (several sites, or
            # tests, in one database); asyncpg takes it as the connection's search_path
            u = make_url(full)
            kwargs["connect_args"] = {"server_settings": {"search_path": str(u.query["schema"])}}
            full = u.difference_update_query(["schema"]).render_as_string(hide_password=False)
        try:
            self.engine: AsyncEngine = create_async_engine(full, **kwargs)
        except ModuleNotFoundError as exc:
            raise ValueError(f"this database needs the {exc.name} package: pip install 'tavli[postgres]'") from None
        if full.startswith("sqlite"):
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        schema = make_url(async_url(url)).query.get("schema")
        self.lobby_channel = f"{LOBBY_CHANNEL}_{schema}" if schema else LOBBY_CHANNEL
        """The lobby's channel: a schema's own, so that sites sharing a database keep their lobbies apart."""
        self.chat_channel = f"{CHAT_CHANNEL}_{schema}" if schema else CHAT_CHANNEL
        """The chat lines' channel, a schema's own as the lobby's is."""
        self.notifies = full.startswith("postgresql")
        """Whether stored actions are announced to other processes (PostgreSQL NOTIFY)."""
        self._insert = insert_for(self.engine.dialect.name)
        self._set_presence = _presence_upsert(self._insert)
        self.origin = secrets.token_hex(8)
        """This process's name in the announcements, so that it ignores its own."""
        self._queue: list[_Append | _Row] = []
        self._writer: asyncio.Task[None] | None = None
        self._listener: Any = None

    async def create_tables(self) -> None:
        """Bring the database to the current schema (``tavli.server.storage.migrate``): every table made,
        or a database made by an earlier version upgraded in place (several servers may start at once)."""
        for attempt in range(5):
            try:
                async with self.engine.begin() as conn:
                    await conn.run_sync(upgrade)
                return
            except DBAPIError:  # another server created them at the same moment
                if attempt == 4:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))

    async def close(self) -> None:
        if self._writer is not None:  # the actions on their way in are stored first
            await asyncio.wait([self._writer], timeout=10.0)
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        await self.engine.dispose()

    async def create_match(self, match_id: str, settings: dict[str, Any], white: str, black: str,
                           roles: dict[str, str]) -> None:
        """A new match; ``roles`` maps each token to ``white``, ``black`` or ``spectator``."""
        await self.create_with_hashes(match_id, settings, white, black,
                                      {token_hash(t): role for t, role in roles.items()})

    @_unbroken
    async def role(self, match_id: str, token: str) -> str | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tokens.c.role).where(
                tokens.c.hash == token_hash(token), tokens.c.match_id == match_id))).first()
        return None if row is None else str(row[0])

    @_unbroken
    async def hashes_of(self, match_id: str, role: str) -> list[str]:
        """The token hashes of a match's ``role`` (``spectator``, say)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(tokens.c.hash).where(tokens.c.match_id == match_id,
                                                                   tokens.c.role == role))).all()
        return [str(r[0]) for r in rows]

    @_unbroken
    async def load(self, match_id: str) -> tuple[MatchRow, list[bytes], list[ActionRow]] | None:
        """The match, its games' seeds in order and its actions in order; None if unknown."""
        async with self.engine.connect() as conn:
            m = (await conn.execute(select(matches).where(matches.c.id == match_id))).first()
            if m is None:
                return None
            seed_rows = (await conn.execute(select(seeds.c.seed).where(seeds.c.match_id == match_id)
                                            .order_by(seeds.c.game))).all()
            action_rows = (await conn.execute(select(actions).where(actions.c.match_id == match_id)
                                              .order_by(actions.c.seq))).all()
        row = MatchRow(m.id, m.created, json.loads(m.settings), m.white, m.black, m.seq, m.over, m.updated)
        return (row, [bytes.fromhex(s[0]) for s in seed_rows],
                [ActionRow(a.seq, a.seat, a.kind, json.loads(a.data), a.at) for a in action_rows])

    @_unbroken
    async def load_since(self, match_id: str, seq: int) -> tuple[list[bytes], list[ActionRow]]:
        """The seeds of a match's games and its actions after action ``seq`` (to catch up with
        what another server process stored)."""
        async with self.engine.connect() as conn:
            seed_rows = (await conn.execute(select(seeds.c.seed).where(seeds.c.match_id == match_id)
                                            .order_by(seeds.c.game))).all()
            action_rows = (await conn.execute(select(actions).where(actions.c.match_id == match_id,
                                                                    actions.c.seq > seq)
                                              .order_by(actions.c.seq))).all()
        return ([bytes.fromhex(s[0]) for s in seed_rows],
                [ActionRow(a.seq, a.seat, a.kind, json.loads(a.data), a.at) for a in action_rows])

    async def listen(self, on_action: Callable[[Announcement], None],
                     on_lobby: Callable[[str], None] | None = None,
                     on_chat: Callable[[str], None] | None = None) -> bool:
        """Call ``on_action`` with each announcement of another server process: actions it stored
        (with the actions themselves when they fit in one message), or a seat that joined or
        left there (PostgreSQL's LISTEN/NOTIFY); False where the database cannot tell (SQLite).
        ``on_lobby`` hears each payload on the lobby's channel (``lobby_channel``), this process's own included,
        and ``on_chat`` each on the chat's (``chat_channel``)."""
        if not self.notifies:
            return False
        import asyncpg  # type: ignore[import-untyped]

        # the tables' schema (``?schema=NAME``) is no connection setting: the channels are the database's
        url = make_url(self.url).set(drivername="postgresql").difference_update_query(["schema"])
        connection = await asyncpg.connect(url.render_as_string(hide_password=False))

        def heard(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            try:
                found = Announcement.parse(payload)
            except (ValueError, KeyError, TypeError, IndexError):
                return  # not one of ours
            if found.origin != self.origin:
                on_action(found)

        await connection.add_listener(CHANNEL, heard)
        if on_lobby is not None:
            await connection.add_listener(self.lobby_channel, lambda _c, _p, _ch, payload: on_lobby(payload))
        if on_chat is not None:
            await connection.add_listener(self.chat_channel, lambda _c, _p, _ch, payload: on_chat(payload))
        self._listener = connection
        return True

    def listening(self) -> bool:
        """Whether the connection that hears other processes' actions is still open."""
        return self._listener is not None and not self._listener.is_closed()

    async def append(self, match_id: str, seq: int, seat: str, kind: str, data: dict[str, Any],
                     new_seeds: dict[int, bytes], over: bool) -> float:
        """Store action ``seq`` (and the seeds of games that start with it); Conflict if taken."""
        return await self.append_actions(match_id, seq, [(seat, kind, data)], new_seeds, over)

    async def append_actions(self, match_id: str, seq: int, entries: list[tuple[str, str, dict[str, Any]]],
                             new_seeds: dict[int, bytes], over: bool) -> float:
        """Store actions ``seq``, ``seq + 1``... (each a seat, a kind and its data) in one transaction:
        all of them or none, so that a crash never leaves half of them (a roll without its pass).
        Conflict if the match is no longer at ``seq - 1``.

        Appends that arrive while a transaction is being written wait and go together in the
        next one (group commit): under load one transaction carries many matches' actions."""
        done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._enqueue(_Append(match_id, seq, entries, new_seeds, over, done))
        return await done

    async def add_row(self, table: Table, values: dict[str, Any], channel: str | None = None,
                      announce: Callable[[int], str] | None = None) -> int:
        """Insert a row of ``table`` (a chat line) in the next group commit, with the actions: its
        id. On PostgreSQL, ``announce(id)`` is sent on ``channel`` in the same transaction. A write
        of its own would hold SQLite's one write lock across the event loop's turns while the
        actions wait for it; in the group commit it waits for nobody."""
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._enqueue(_Row(table, values, channel, announce, done))
        return await done

    def _enqueue(self, item: _Append | _Row) -> None:
        self._queue.append(item)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())

    async def _write_queued(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            try:
                at = await self._write(batch)
            except (Conflict, IntegrityError):  # one of them was taken: each on its own, to say which
                for item in batch:
                    try:
                        item.settle(await self._write([item]))
                    except (Conflict, IntegrityError) as exc:
                        item.fail(Conflict(item.match_id) if isinstance(exc, IntegrityError)
                                  and isinstance(item, _Append) else exc)
                    except Exception as exc:
                        item.fail(exc)
            except Exception as exc:  # the database failed: every waiting action hears it
                for item in batch:
                    item.fail(exc)
            else:
                for item in batch:
                    item.settle(at)

    async def _write(self, queued: list[_Append | _Row]) -> float:
        now = time.time()
        batch = [a for a in queued if isinstance(a, _Append)]
        async with self.engine.begin() as conn:
            for row in queued:
                if isinstance(row, _Row):
                    row.id = int((await conn.execute(insert(row.table).values(**row.values)
                                                     .returning(row.table.c.id))).scalar_one())
                    if self.notifies and row.announce is not None:
                        await conn.execute(_ANNOUNCE, {"channel": row.channel, "payload": row.announce(row.id)})
            if not batch:
                return now
            moves = [{"mid": a.match_id, "prev": a.seq - 1, "next": a.seq + len(a.entries) - 1, "over": a.over,
                      "now": now} for a in batch]
            if self.engine.dialect.supports_sane_multi_rowcount:
                moved = (await conn.execute(_MOVE_ON, moves)).rowcount
            else:  # the driver cannot count an executemany's rows (asyncpg): one statement each
                moved = sum([(await conn.execute(_MOVE_ON, m)).rowcount for m in moves])
            if moved != len(batch):
                raise Conflict(batch[0].match_id)
            await conn.execute(_ADD_ACTION, [
                {"match_id": a.match_id, "seq": a.seq + i, "seat": seat, "kind": kind,
                 "data": orjson.dumps(data).decode(), "at": now}
                for a in batch for i, (seat, kind, data) in enumerate(a.entries)])
            new_seeds = [row for a in batch for row in _seed_rows(a.match_id, a.new_seeds)]
            if new_seeds:
                await conn.execute(insert(seeds), new_seeds)
            if self.notifies:  # delivered to the other server processes when this commits
                await conn.execute(_NOTIFY, {"payloads": [a.announcement(self.origin, now) for a in batch]})
        return now

    @_unbroken
    async def add_seeds(self, match_id: str, new_seeds: dict[int, bytes]) -> None:
        """Seeds drawn before any action (the first game's roll-off)."""
        async with self.engine.begin() as conn:
            await conn.execute(insert(seeds), _seed_rows(match_id, new_seeds))

    @_unbroken
    async def seqs(self, match_ids: list[str]) -> dict[str, int]:
        """The action counts of some matches, to notice moves made by another server process."""
        if not match_ids:
            return {}
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(matches.c.id, matches.c.seq)
                                       .where(matches.c.id.in_(match_ids)))).all()
        return {r[0]: int(r[1]) for r in rows}

    @_unbroken
    async def set_presence(self, match_id: str, seats: list[str], until: float) -> None:
        """A seat joined or left (told to the other server processes, as seq -1)."""
        if not seats:
            return
        async with self.engine.begin() as conn:
            if self.notifies:
                await conn.execute(_NOTIFY, {"payloads": [Announcement(match_id, -1, self.origin).text()]})
            await conn.execute(self._set_presence, [{"match_id": match_id, "seat": seat, "until": until}
                                                    for seat in seats])

    @_unbroken
    async def refresh_presence(self, seats: list[tuple[str, str]], until: float) -> None:
        """Move on the presence of many (match, seat) pairs at once (the server's heartbeat): one
        statement per seat and a thousand matches at a time, not a statement per pair, so that
        the heartbeat of a full server holds the database for milliseconds."""
        if not seats:
            return
        by_seat: dict[str, list[str]] = {}
        for match_id, seat in seats:
            by_seat.setdefault(seat, []).append(match_id)
        async with self.engine.begin() as conn:
            for seat, ids in sorted(by_seat.items()):
                for k in range(0, len(ids), 1000):
                    await conn.execute(update(presence).where(presence.c.seat == seat,
                                                              presence.c.match_id.in_(ids[k:k + 1000]))
                                       .values(until=until))

    @_unbroken
    async def presence_of(self, match_id: str) -> dict[str, float]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(presence.c.seat, presence.c.until)
                                       .where(presence.c.match_id == match_id))).all()
        return {r[0]: float(r[1]) for r in rows}

    @_unbroken
    async def save_analysis(self, match_id: str, games: int, depth: int, data: str) -> None:
        """Store the review of a match's first ``games`` games (JSON text), replacing an older one."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(analyses).where(analyses.c.match_id == match_id))
            await conn.execute(insert(analyses).values(match_id=match_id, games=games, depth=depth, data=data,
                                                       at=time.time()))

    @_unbroken
    async def clocked_in_play(self, before: float) -> list[str]:
        """The clocked matches not over whose last action is older than ``before``."""
        query = select(matches.c.id).where(matches.c.over.is_(False), matches.c.updated < before,
                                           matches.c.settings.like('%"clock": {%'))
        async with self.engine.connect() as conn:
            return [str(r[0]) for r in (await conn.execute(query)).all()]

    @_unbroken
    async def beat(self, now: float) -> None:
        """This process is alive at ``now`` (the heartbeat keeps the latest time of any process)."""
        async with self.engine.begin() as conn:
            await conn.execute(self._beat(now))

    def _beat(self, now: float) -> Any:
        upsert = self._insert(heartbeat).values(id=1, alive=now)
        return upsert.on_conflict_do_update(index_elements=[heartbeat.c.id], set_={"alive": upsert.excluded.alive},
                                            where=heartbeat.c.alive < upsert.excluded.alive)

    @_unbroken
    async def come_up(self, now: float, gap: float = OUTAGE_SECONDS) -> tuple[float, float] | None:
        """This process begins to serve at ``now``: if no process beat in the ``gap`` seconds before,
        no server was alive since the last heartbeat, and that outage is stored; it (None: another
        process was beating, or none ever ran here). The outages that no running turn can span
        any more go (those over before the last action of every match in play)."""
        async with self.engine.begin() as conn:
            # locked until this start has beaten: processes that start together take turns
            last = (await conn.execute(select(heartbeat.c.alive).where(heartbeat.c.id == 1)
                                       .with_for_update())).scalar()
            outage = None if last is None or now - float(last) <= gap else (float(last), now)
            if outage is not None:
                await conn.execute(insert(outages).values(down=outage[0], up=outage[1]))
                # an outage over before the last action of every match in play is in no running turn
                oldest = select(func.min(matches.c.updated)).where(matches.c.over.is_(False)).scalar_subquery()
                await conn.execute(delete(outages).where(outages.c.up < func.coalesce(oldest, now)))
            await conn.execute(self._beat(now))
        return outage

    @_unbroken
    async def outages_since(self, since: float) -> list[tuple[float, float]]:
        """The outages (``come_up``) that ended after ``since``, as (down, up): those a turn that
        began then may span."""
        query = select(outages.c.down, outages.c.up).where(outages.c.up > since).order_by(outages.c.up)
        async with self.engine.connect() as conn:
            return [(float(down), float(up)) for down, up in (await conn.execute(query)).all()]

    @_unbroken
    async def accounts_of(self, match_id: str) -> dict[str, int]:
        """The accounts that play ``match_id``'s seats, by seat."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(seat_accounts.c.seat, seat_accounts.c.account_id)
                                       .where(seat_accounts.c.match_id == match_id))).all()
        return {str(seat): int(account) for seat, account in rows}

    @_unbroken
    async def account_names_of(self, match_id: str) -> dict[str, str]:
        """The names of the accounts that play ``match_id``'s seats, by seat ("(deleted)" for a
        deleted one's)."""
        query = (select(seat_accounts.c.seat, accounts.c.name, accounts.c.deleted)
                 .join(accounts, accounts.c.id == seat_accounts.c.account_id)
                 .where(seat_accounts.c.match_id == match_id))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {str(seat): "(deleted)" if deleted else str(name) for seat, name, deleted in rows}

    @_unbroken
    async def settings_of(self, match_id: str) -> tuple[dict[str, Any], bool] | None:
        """A match's settings as stored (another process may have changed them since this one
        replayed it) and whether it is over; None for no such match."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(matches.c.settings, matches.c.over)
                                      .where(matches.c.id == match_id))).first()
        return None if row is None else (json.loads(row[0]), bool(row[1]))

    @_unbroken
    async def add_settings(self, match_id: str, more: dict[str, Any]) -> None:
        """Add ``more`` to a match's stored settings (a private match its player made public)."""
        where = matches.c.id == match_id
        async with self.engine.begin() as conn:
            found = (await conn.execute(select(matches.c.settings).where(where).with_for_update())).scalar()
            if found is not None:
                await conn.execute(update(matches).where(where).values(settings=json.dumps(json.loads(found) | more)))

    @_unbroken
    async def bind_seat(self, match_id: str, seat: str, account_id: int) -> int:
        """Give ``seat`` of ``match_id`` to the account unless it has one; the seat's account after
        (of two processes giving it at once, the first's)."""
        where = (seat_accounts.c.match_id == match_id) & (seat_accounts.c.seat == seat)
        async with self.engine.begin() as conn:
            await conn.execute(self._insert(seat_accounts).values(match_id=match_id, seat=seat, account_id=account_id)
                               .on_conflict_do_nothing())
            return int((await conn.execute(select(seat_accounts.c.account_id).where(where))).scalar_one())

    @_unbroken
    async def save_error_rates(self, match_id: str, white: float | None, black: float | None) -> None:
        """The players' error rates in a finished match's review, for their pages."""
        async with self.engine.begin() as conn:
            await conn.execute(update(match_results).where(match_results.c.match_id == match_id)
                               .values(white_error_rate=white, black_error_rate=black))

    @_unbroken
    async def load_analysis(self, match_id: str) -> tuple[int, int, str] | None:
        """The stored review of a match: how many games it covers, its depth and its JSON text."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(analyses.c.games, analyses.c.depth, analyses.c.data)
                                      .where(analyses.c.match_id == match_id))).first()
        return None if row is None else (int(row[0]), int(row[1]), str(row[2]))

    @_unbroken
    async def create_with_hashes(self, match_id: str, settings: dict[str, Any], white: str, black: str,
                                 hashes: dict[str, str], new_seeds: dict[int, bytes] | None = None,
                                 created: float | None = None, open_seat: str | None = None,
                                 seat_names: dict[str, str] | None = None,
                                 accounts: dict[str, int] | None = None) -> None:
        """A new match whose tokens are given by their hashes (``token_hash``) and roles;
        ``new_seeds``, its first games' seeds if already drawn, are stored in the same transaction,
        and so are ``open_seat``, a seat anyone may take (``take_open_seat``), the players'
        ``seat_names``, and the ``accounts`` that play seats."""
        now = time.time() if created is None else created
        async with self.engine.begin() as conn:
            await conn.execute(insert(matches).values(
                id=match_id, created=now, settings=json.dumps(settings), white=white, black=black,
                seq=0, over=False, updated=now))
            await conn.execute(insert(tokens), [
                {"hash": h, "match_id": match_id, "role": role} for h, role in hashes.items()])
            if new_seeds:
                await conn.execute(insert(seeds), _seed_rows(match_id, new_seeds))
            if open_seat is not None:
                await conn.execute(insert(open_seats).values(match_id=match_id, seat=open_seat, created=now))
            if seat_names:
                await conn.execute(insert(names), [{"match_id": match_id, "seat": seat, "name": name}
                                                   for seat, name in seat_names.items()])
            if accounts:
                await conn.execute(insert(seat_accounts), [{"match_id": match_id, "seat": seat, "account_id": a}
                                                           for seat, a in accounts.items()])

    @_unbroken
    async def name_seat(self, match_id: str, seat: str, name: str) -> None:
        """Give ``seat`` of ``match_id`` its player's name, unless it has one already."""
        statement = self._insert(names).values(match_id=match_id, seat=seat, name=name).on_conflict_do_nothing()
        async with self.engine.begin() as conn:
            await conn.execute(statement)

    @_unbroken
    async def names_of(self, match_id: str) -> dict[str, str]:
        """The names the players of ``match_id`` gave, by seat."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(names.c.seat, names.c.name).where(names.c.match_id == match_id))).all()
        return {str(seat): str(name) for seat, name in rows}

    @_unbroken
    async def open_matches(self, now: float, grace: float, limit: int) -> list[OpenSeat]:
        """The matches with a seat anyone may take, newest first, at most ``limit``: those not
        over whose creator is connected at ``now``, or that are at most ``grace`` seconds old
        (their creator's page is still on its way)."""
        creator = presence.alias("creator")
        named = names.alias("named")
        owner = seat_accounts.alias("owner")
        query = (select(open_seats.c.match_id, open_seats.c.seat, open_seats.c.created, matches.c.settings,
                        func.coalesce(accounts.c.name, named.c.name), owner.c.account_id)
                 .join(matches, matches.c.id == open_seats.c.match_id)
                 .outerjoin(creator, (creator.c.match_id == open_seats.c.match_id)
                            & (creator.c.seat != open_seats.c.seat))
                 .outerjoin(named, (named.c.match_id == open_seats.c.match_id) & (named.c.seat != open_seats.c.seat))
                 .outerjoin(owner, (owner.c.match_id == open_seats.c.match_id) & (owner.c.seat != open_seats.c.seat))
                 .outerjoin(accounts, accounts.c.id == owner.c.account_id)
                 .where(matches.c.over.is_(False),
                        or_(open_seats.c.created >= now - grace, creator.c.until > now))
                 .order_by(open_seats.c.created.desc()).limit(limit))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [OpenSeat(str(m), str(seat), float(created), json.loads(settings), None if name is None else str(name),
                         account is not None)
                for m, seat, created, settings, name, account in rows]

    @_unbroken
    async def take_open_seat(self, match_id: str, hash_: str, name: str | None = None,
                             account: int | None = None) -> str | None:
        """Give ``match_id``'s open seat to the token whose hash is ``hash_`` (and the player's
        ``name``); the seat, or None where there is none to take (taken already, or never open).
        Of two takers at once, in one process or two, one gets it: the open seat's row can be
        deleted once."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(select(open_seats.c.seat).where(open_seats.c.match_id == match_id))).first()
            if row is None:
                return None
            taken = await conn.execute(delete(open_seats).where(open_seats.c.match_id == match_id))
            if taken.rowcount != 1:
                return None
            await conn.execute(insert(tokens).values(hash=hash_, match_id=match_id, role=str(row[0])))
            if account is not None:
                await conn.execute(insert(seat_accounts).values(match_id=match_id, seat=str(row[0]),
                                                                account_id=account))
            if name is not None:
                await conn.execute(self._insert(names).values(match_id=match_id, seat=str(row[0]), name=name)
                                   .on_conflict_do_nothing())
        return str(row[0])


@dataclass(frozen=True)
class OpenSeat:
    """A match's seat that anyone may take: the match, the seat, when it was made, its settings,
    and its creator's name (his account's, or the one he gave) and whether it is an account's."""

    match_id: str
    seat: str
    created: float
    settings: dict[str, Any]
    name: str | None = None
    account: bool = False


def _seed_rows(match_id: str, new_seeds: dict[int, bytes]) -> list[dict[str, Any]]:
    """The ``seeds`` rows of a match's games ``{index: seed}``, with the commitment shown before each game."""
    return [{"match_id": match_id, "game": g, "seed": s.hex(), "commitment": commitment(s)}
            for g, s in new_seeds.items()]


def _presence_upsert(dialect_insert: Any) -> Any:
    """Insert a seat's presence or move on the one stored, in one statement (both databases have
    ``INSERT ... ON CONFLICT DO UPDATE``): no savepoint, no second try when two writers meet."""
    statement = dialect_insert(presence)
    return statement.on_conflict_do_update(index_elements=[presence.c.match_id, presence.c.seat],
                                           set_={"until": statement.excluded.until})


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers go on during a write; NORMAL sync is durable across a process crash
    # (kill -9), which is the failure the server must survive.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
