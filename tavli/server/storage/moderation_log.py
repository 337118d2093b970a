"""What the moderators did (``ModerationLog``, docs/cafe.md, "Moderators"): every action kept with
who took it, on which account (and its name then), settling which report, why, and its details;
and the notices a player is shown of the ones that concern him (a warning, his chat closed, his
account renamed) until he says he has read them.

The rules of what a moderator may do are ``tavli.server.cafe.moderation``'s; this module stores and
reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from tavli.server.storage.schema import accounts, moderation_actions
from tavli.server.storage.store import unbroken

NOTICED = ("warn", "mute", "rename")
"""The actions their player is told of, on every page he opens, until he has read them."""


@dataclass(frozen=True)
class ModeratorAction:
    """One moderator's action, as kept."""

    id: int
    moderator: str
    account_id: int | None
    account_name: str | None
    action: str
    report_id: int | None
    note: str
    detail: dict[str, Any]
    at: float

    def logged(self) -> dict[str, Any]:
        """The action as the moderators' page lists it.

        >>> ModeratorAction(4, "Nikos", 7, "Troll", "mute", 2, "", {"days": 7}, 9.5).logged()["detail"]
        {'days': 7}
        """
        return {"id": self.id, "moderator": self.moderator, "account": self.account_name, "action": self.action,
                "report": self.report_id, "note": self.note, "detail": self.detail, "at": self.at}

    def notice(self) -> dict[str, Any]:
        """The action as its player is told of it (``NOTICED``): no moderator's name.

        >>> renamed = {"from": "Troll", "to": "Player7"}
        >>> ModeratorAction(5, "Nikos", 7, "Troll", "rename", None, "", renamed, 9.5).notice()
        {'id': 5, 'action': 'rename', 'note': '', 'at': 9.5, 'name': 'Player7'}
        """
        told: dict[str, Any] = {"id": self.id, "action": self.action, "note": self.note, "at": self.at}
        if self.action == "rename":
            told["name"] = self.detail.get("to")
        if self.action == "mute":
            told["until"] = self.detail.get("until")
        return told


def _action(row: Any) -> ModeratorAction:
    try:
        detail = orjson.loads(row.detail)
    except orjson.JSONDecodeError:
        detail = {}
    return ModeratorAction(int(row.id), str(row.moderator), row.account_id, row.account_name, str(row.action),
                           row.report_id, str(row.note), detail if isinstance(detail, dict) else {}, float(row.at))


def _query() -> Any:
    return (select(moderation_actions, accounts.c.name.label("moderator"))
            .join(accounts, accounts.c.id == moderation_actions.c.moderator_id))


class ModerationLog:
    """The moderators' actions kept in the database of ``engine``."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    @unbroken
    async def add(self, moderator_id: int, account_id: int | None, account_name: str | None, action: str,
                  report_id: int | None, note: str, detail: dict[str, Any], at: float) -> int:
        """Keep an action (a ``NOTICED`` one unread by its player); its id."""
        async with self.engine.begin() as conn:
            found = await conn.execute(insert(moderation_actions).values(
                moderator_id=moderator_id, account_id=account_id, account_name=account_name, action=action,
                report_id=report_id, note=note, detail=orjson.dumps(detail).decode(), at=at,
                seen=False if action in NOTICED and account_id is not None else None,
            ).returning(moderation_actions.c.id))
            return int(found.scalar_one())

    @unbroken
    async def get(self, action_id: int) -> ModeratorAction | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(_query().where(moderation_actions.c.id == action_id))).first()
        return None if row is None else _action(row)

    @unbroken
    async def recent(self, limit: int = 100) -> list[ModeratorAction]:
        """The last ``limit`` actions, newest first."""
        query = _query().order_by(moderation_actions.c.at.desc(), moderation_actions.c.id.desc()).limit(limit)
        async with self.engine.connect() as conn:
            return [_action(row) for row in (await conn.execute(query)).all()]

    @unbroken
    async def unread(self, account_id: int) -> list[ModeratorAction]:
        """The actions the account's player has still to read, oldest first."""
        query = _query().where(moderation_actions.c.account_id == account_id,
                               moderation_actions.c.seen.is_(False)).order_by(moderation_actions.c.id)
        async with self.engine.connect() as conn:
            return [_action(row) for row in (await conn.execute(query)).all()]

    @unbroken
    async def read(self, account_id: int, action_id: int) -> bool:
        """The player has read the notice ``action_id``; whether it was one of his unread."""
        async with self.engine.begin() as conn:
            done = await conn.execute(update(moderation_actions).where(
                moderation_actions.c.id == action_id, moderation_actions.c.account_id == account_id,
                moderation_actions.c.seen.is_(False)).values(seen=True))
            return bool(done.rowcount)
