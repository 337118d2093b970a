"""What was said at the tables, kept (``ChatLog``): each match's chat lines, in its two rooms (its
players' and its spectators'), the players a signed-in player has muted, and the reports of
players, which a moderator reads (``ChatLog.open_reports``). On PostgreSQL a line is announced to
the other server processes (NOTIFY on ``Store.chat_channel``) in the transaction that stores it.

The rules of what may be said are ``tavli.server.cafe.chat``'s; this module stores and reads.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, replace
from typing import Any

import orjson
from sqlalchemy import delete, func, insert, select, text, update

from tavli.server.storage.schema import chat_lines, chat_mutes, insert_for, reports
from tavli.server.storage.store import Store, unbroken

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


@dataclass(frozen=True)
class ChatLine:
    """One line of a match's chat: a quick phrase by its key, or a line of text."""

    match_id: str
    room: str
    seat: str
    name: str | None
    phrase: str | None
    text: str | None
    at: float
    account_id: int | None = None
    id: int = 0

    def shown(self) -> dict[str, Any]:
        """The line as the pages are sent it (no account id: who the account is, is its name).

        >>> ChatLine("m", "players", "white", "Eleni", "good-luck", None, 1.5, 7, 3).shown()
        {'id': 3, 'room': 'players', 'seat': 'white', 'name': 'Eleni', 'phrase': 'good-luck', 'text': None, 'at': 1.5}
        """
        return {"id": self.id, "room": self.room, "seat": self.seat, "name": self.name, "phrase": self.phrase,
                "text": self.text, "at": self.at}

    def announcement(self, origin: str) -> str:
        """The line as another server process hears it (``parse``).

        >>> line = ChatLine("m", "players", "white", None, None, "hi", 1.5, None, 3)
        >>> ChatLine.parse(line.announcement("p1")) == (line, "p1")
        True
        """
        return orjson.dumps(asdict(self) | {"o": origin}).decode()

    @classmethod
    def parse(cls, payload: str) -> tuple[ChatLine, str]:
        """A line heard, and the process that stored it; ``ValueError`` for anything else."""
        try:
            data = orjson.loads(payload)
            origin = str(data.pop("o"))
            return cls(**data), origin
        except (orjson.JSONDecodeError, TypeError, KeyError, AttributeError) as exc:
            raise ValueError("not a chat line") from exc


@dataclass(frozen=True)
class Report:
    """A player reported: by whom (a person's key, and his name), whom (his name, and his account's
    id where he has one), in which match, why and with what note, when, and its status."""

    id: int
    reporter: str
    reporter_name: str | None
    reported: str
    reported_account: int | None
    match_id: str | None
    reason: str
    note: str
    at: float
    status: str


class ChatLog:
    """The chat lines, mutes and reports of the database of ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        self._insert = insert_for(self.engine.dialect.name)

    @unbroken
    async def add(self, line: ChatLine) -> ChatLine:
        """Store ``line`` with the actions' next group commit (``Store.add_row``: and, on PostgreSQL,
        announce it in the same transaction); the line with its id."""
        values = {k: v for k, v in asdict(line).items() if k != "id"}
        found = await self.store.add_row(chat_lines, values, self.store.chat_channel,
                                         lambda key: replace(line, id=key).announcement(self.store.origin))
        return replace(line, id=found)

    @unbroken
    async def recent(self, match_id: str, room: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines of a room of the match, oldest first."""
        query = (select(chat_lines).where(chat_lines.c.match_id == match_id, chat_lines.c.room == room)
                 .order_by(chat_lines.c.id.desc()).limit(limit))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [ChatLine(r.match_id, r.room, r.seat, r.name, r.phrase, r.text, float(r.at), r.account_id, int(r.id))
                for r in reversed(rows)]

    @unbroken
    async def mutes_of(self, account_id: int) -> set[str]:
        """Whom the account has muted (``tavli.server.cafe.chat.mute_key``'s keys)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(chat_mutes.c.muted).where(chat_mutes.c.account_id == account_id))).all()
        return {str(r[0]) for r in rows}

    @unbroken
    async def set_mute(self, account_id: int, muted: str, on: bool) -> None:
        """The account mutes ``muted`` (``on``), or hears him again."""
        async with self.engine.begin() as conn:
            if on:
                await conn.execute(self._insert(chat_mutes).values(account_id=account_id, muted=muted, at=time.time())
                                   .on_conflict_do_nothing())
            else:
                await conn.execute(delete(chat_mutes).where(chat_mutes.c.account_id == account_id,
                                                            chat_mutes.c.muted == muted))

    @unbroken
    async def report(self, reporter: str, reporter_name: str | None, reported: str, reported_account: int | None,
                     match_id: str | None, reason: str, note: str, *, most: int, window: float) -> int | None:
        """Keep a report, "open"; its id, or None where ``reporter`` has made ``most`` in the last
        ``window`` seconds already (counted in the database: every server process counts alike)."""
        now = time.time()
        async with self.engine.begin() as conn:
            made = (await conn.execute(select(func.count()).select_from(reports).where(
                reports.c.reporter == reporter, reports.c.at > now - window))).scalar_one()
            if made >= most:
                return None
            found = await conn.execute(insert(reports).values(
                reporter=reporter, reporter_name=reporter_name, reported=reported, reported_account=reported_account,
                match_id=match_id, reason=reason, note=note, at=now, status="open").returning(reports.c.id))
            return int(found.scalar_one())

    @unbroken
    async def open_reports(self, limit: int = 100) -> list[Report]:
        """The reports not yet dealt with, oldest first: what a moderator's page reads."""
        query = select(reports).where(reports.c.status == "open").order_by(reports.c.at, reports.c.id).limit(limit)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [Report(int(r.id), r.reporter, r.reporter_name, r.reported, r.reported_account, r.match_id, r.reason,
                       r.note, float(r.at), r.status) for r in rows]

    @unbroken
    async def open_report(self, report_id: int) -> Report | None:
        """The report ``report_id`` if it is still open."""
        query = select(reports).where(reports.c.id == report_id, reports.c.status == "open")
        async with self.engine.connect() as conn:
            r = (await conn.execute(query)).first()
        return None if r is None else Report(int(r.id), r.reporter, r.reporter_name, r.reported, r.reported_account,
                                             r.match_id, r.reason, r.note, float(r.at), r.status)

    @unbroken
    async def settle(self, report_id: int, status: str) -> bool:
        """A moderator has dealt with the open report (``status``: what he did); whether it was open."""
        async with self.engine.begin() as conn:
            done = await conn.execute(update(reports).where(reports.c.id == report_id, reports.c.status == "open")
                                      .values(status=status))
            return bool(done.rowcount)

    @unbroken
    async def lines_of(self, match_id: str, limit: int) -> list[ChatLine]:
        """The last ``limit`` lines of each room of the match, oldest first (a moderator reads both)."""
        found = [*await self.recent(match_id, "players", limit), *await self.recent(match_id, "spectators", limit)]
        return sorted(found, key=lambda line: line.id)
