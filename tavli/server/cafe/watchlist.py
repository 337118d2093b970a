"""The matches in play worth watching, as the start page lists them and Tavli TV follows them
(``GET /api/watch`` and ``/tv``, docs/cafe.md, "Watch").

A match is in play while it has begun (an action stored), is not over and a player of it is
connected; it is listed unless its creator made it private. The highest rated first (the mean
rating, in the match's pool, of its players who have an account: a bot's or a guest's seat does
not count), then the rest, newest first. Read in a few queries, never by replaying a match.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, exists, select
from sqlalchemy.ext.asyncio import AsyncEngine

from tavli.rating import PROVISIONAL_DEVIATION
from tavli.server.play.seats import pool_of, watchable
from tavli.server.storage.schema import accounts, matches, names, presence, ratings, seat_accounts

WATCH_LISTED = 10
"""The most matches ``worth_watching`` lists."""
CANDIDATES = 200
"""The newest matches in play looked at to pick them: enough for a café, bounded for a crowd."""


@dataclass(frozen=True)
class Watched:
    """Who plays a seat, as a watcher is told: a name where one is known, the account's rating in
    the match's pool, or the bot's level."""

    name: str | None
    account: bool
    rating: float | None
    provisional: bool
    bot: str | None

    def json(self) -> dict[str, Any]:
        return {"name": self.name, "account": self.account,
                "rating": None if self.rating is None else round(self.rating), "provisional": self.provisional,
                "bot": self.bot}


def ranking(players: dict[str, Watched]) -> float | None:
    """The mean rating of the players who have one: what orders the matches worth watching.

    >>> eleni, bot = Watched("Eleni", True, 1700.0, False, None), Watched(None, False, None, False, "expert")
    >>> ranking({"white": eleni, "black": bot})
    1700.0
    >>> ranking({"white": bot, "black": Watched("Nikos", False, None, False, None)}) is None
    True
    """
    rated = [seat.rating for seat in players.values() if seat.rating is not None]
    return sum(rated) / len(rated) if rated else None


async def worth_watching(engine: AsyncEngine, now: float, limit: int = WATCH_LISTED) -> list[dict[str, Any]]:
    """The matches in play worth watching at ``now``, at most ``limit``: the highest rated
    first, then the newest. Each: its id, games, length, whether it is rated, its players by seat
    (``Watched.json``) and its ranking (``ranking``, None for a match of guests or bots)."""
    connected = exists().where(and_(presence.c.match_id == matches.c.id, presence.c.until > now))
    query = (select(matches.c.id, matches.c.created, matches.c.settings, matches.c.white, matches.c.black)
             .where(matches.c.over.is_(False), matches.c.seq > 0, connected)
             .order_by(matches.c.created.desc()).limit(CANDIDATES))
    async with engine.connect() as conn:
        found = [row for row in (await conn.execute(query)).all() if watchable(json.loads(row.settings))]
        ids = [row.id for row in found]
        given = (await conn.execute(select(names.c.match_id, names.c.seat, names.c.name)
                                    .where(names.c.match_id.in_(ids)))).all()
        owners = (await conn.execute(select(seat_accounts.c.match_id, seat_accounts.c.seat, accounts.c.id,
                                            accounts.c.name)
                                     .join(accounts, accounts.c.id == seat_accounts.c.account_id)
                                     .where(seat_accounts.c.match_id.in_(ids)))).all()
        rated = (await conn.execute(select(ratings.c.account_id, ratings.c.pool, ratings.c.rating,
                                           ratings.c.deviation)
                                    .where(ratings.c.account_id.in_({o.id for o in owners})))).all()
    seat_names = {(m, seat): str(name) for m, seat, name in given}
    seat_owners = {(o.match_id, o.seat): (int(o.id), str(o.name)) for o in owners}
    standing = {(r.account_id, r.pool): (float(r.rating), float(r.deviation)) for r in rated}
    listed = []
    for row in found:
        settings = json.loads(row.settings)
        pool = pool_of(settings.get("games", []))
        players = {}
        for seat, kind in (("white", row.white), ("black", row.black)):
            owner = seat_owners.get((row.id, seat))
            rating, deviation = standing.get((owner[0], pool), (None, None)) if owner and pool else (None, None)
            players[seat] = Watched(owner[1] if owner else seat_names.get((row.id, seat)), owner is not None, rating,
                                 deviation is not None and deviation > PROVISIONAL_DEVIATION,
                                 None if kind == "human" else str(kind).removeprefix("bot:"))
        listed.append((ranking(players), float(row.created), row.id, settings, players))
    listed.sort(key=lambda m: (m[0] is None, -(m[0] or 0.0), -m[1]))
    return [{"match": match_id, "games": settings.get("games"), "length": settings.get("length"),
             "rated": bool(settings.get("rated")), "ranking": None if rank is None else round(rank),
             "players": {seat: p.json() for seat, p in players.items()}}
            for rank, _, match_id, settings, players in listed[:limit]]
