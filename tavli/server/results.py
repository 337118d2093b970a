"""Finished matches: each one's result kept for the players' pages, and a rated match's result
applied to both players' Glicko-2 ratings (``tavli.rating``) exactly once.

A rated match counts in its pool: ``tavli`` for the Tavli sequence, or the one game it plays.
The winner of the match wins, whatever the games' points; a resignation or an absence claimed
is a loss like any other. An aborted match (``Match.abort``) is kept with no winner (``winner``
empty, ending ``aborted``) and rates nobody. Whichever server process sees a match end first applies it: the
``rating_changes`` rows of a match can be written once, so another process (or a second look
after a restart) changes nothing.

>>> pool_of(["portes", "plakoto", "fevga"]), pool_of(["fevga"]), pool_of(["fevga", "portes"])
('tavli', 'fevga', None)
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from sqlalchemy import and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from tavli.match import ABORTED, CLAIMED, LOST_ON_TIME, RESIGNED_MATCH
from tavli.rating import Rating, match_weight, rate_match
from tavli.server.live import LiveMatch
from tavli.server.schema import insert_for, match_results, matches, rating_changes, ratings, seat_accounts
from tavli.server.seats import seat_name
from tavli.variants import GAMES, WHITE

POOLS = ("tavli", *GAMES)
"""The rating pools: the Tavli sequence, and each game alone."""


def pool_of(games: Sequence[str]) -> str | None:
    """The pool of a match playing ``games`` in turn; None for an order that has none."""
    if list(games) == list(GAMES):
        return "tavli"
    if len(games) == 1 and games[0] in GAMES:
        return str(games[0])
    return None


def ending_of(live: LiveMatch) -> str:
    """How a finished match ended: ``played`` out, ``resigned``, ``left`` (the absence claimed),
    lost on ``time``, or ``aborted``."""
    result = live.match.game.result
    reason = result.reason if result is not None else ""
    return {RESIGNED_MATCH: "resigned", CLAIMED: "left", LOST_ON_TIME: "time", ABORTED: "aborted"}.get(reason, "played")


class Results:
    """Writes the results of the matches that end in this process and applies the rated ones."""

    def __init__(self, engine: AsyncEngine, on_finished: Callable[[str], Awaitable[Any]] | None = None) -> None:
        self.engine = engine
        self.on_finished = on_finished
        """Called with a finished match's id whose seats have accounts (the server reviews it)."""
        self._insert = insert_for(engine.dialect.name)
        self._done: set[str] = set()

    async def on_action(self, live: LiveMatch) -> None:
        """A service listener: a match that has just ended gets its result."""
        if live.match.is_over and live.row.id not in self._done:
            self._done.add(live.row.id)
            await self.record(live)

    async def record(self, live: LiveMatch, now: float | None = None) -> None:
        """Keep the result of the finished match ``live``, and rate it if it is rated (an aborted
        match is kept with no winner and no games, rated nobody and reviewed by nobody)."""
        match = live.match
        winner = match.winner
        assert winner is not None or match.aborted
        games = [{"game": g.variant.name, "winner": seat_name(g.result.winner) if g.result.winner is not None else None,
                  "points": g.result.points} for g in match.games if g.result is not None and not match.aborted]
        row = {"match_id": live.row.id, "finished": live.last_action or time.time(),
               "winner": "" if winner is None else seat_name(winner),
               "white_points": match.score[WHITE], "black_points": match.score[WHITE.other],
               "ending": ending_of(live), "games": json.dumps(games)}
        async with self.engine.begin() as conn:
            await conn.execute(self._insert(match_results).values(**row).on_conflict_do_nothing())
            seats = {str(s): int(a) for s, a in (await conn.execute(
                select(seat_accounts.c.seat, seat_accounts.c.account_id)
                .where(seat_accounts.c.match_id == live.row.id))).all()}
        if winner is None:
            return
        if live.row.settings.get("rated") and len(seats) == 2:
            await self.rate(live.row.id, live.row.settings, seats, seat_name(winner), now)
        if seats and self.on_finished is not None:
            await self.on_finished(live.row.id)

    async def rate(self, match_id: str, settings: dict[str, Any], seats: dict[str, int], winner: str,
                   now: float | None = None) -> bool:
        """Apply a rated match's result to both players; False if it was applied already."""
        pool = pool_of(settings["games"])
        if pool is None:
            return False
        at = time.time() if now is None else now
        try:
            async with self.engine.begin() as conn:
                before = await self._ratings(conn, list(seats.values()), pool)
                white, black = seats["white"], seats["black"]
                new_white, new_black = rate_match(before[white], before[black], 1.0 if winner == "white" else 0.0,
                                                  weight=match_weight(int(settings["length"])))
                # the changes first: a second writer stops here, before touching the ratings
                await conn.execute(insert(rating_changes), [
                    {"match_id": match_id, "account_id": who, "pool": pool, "score": 1.0 if seat == winner else 0.0,
                     "rating": before[who].rating, "deviation": before[who].deviation,
                     "new_rating": new.rating, "new_deviation": new.deviation, "at": at}
                    for seat, who, new in (("white", white, new_white), ("black", black, new_black))])
                for who, new in ((white, new_white), (black, new_black)):
                    await self._save(conn, who, pool, new, at)
        except IntegrityError:
            return False
        return True

    async def _ratings(self, conn: AsyncConnection, who: list[int], pool: str) -> dict[int, Rating]:
        query = (select(ratings.c.account_id, ratings.c.rating, ratings.c.deviation, ratings.c.volatility)
                 .where(and_(ratings.c.account_id.in_(who), ratings.c.pool == pool)))
        if conn.dialect.name == "postgresql":
            query = query.with_for_update()  # two matches of one player ending at once take turns
        found = {int(r.account_id): Rating(float(r.rating), float(r.deviation), float(r.volatility))
                 for r in (await conn.execute(query)).all()}
        return {account: found.get(account, Rating()) for account in who}

    async def _save(self, conn: AsyncConnection, who: int, pool: str, new: Rating, at: float) -> None:
        values = {"rating": new.rating, "deviation": new.deviation, "volatility": new.volatility, "updated": at}
        changed = await conn.execute(update(ratings).where(and_(ratings.c.account_id == who, ratings.c.pool == pool))
                                     .values(matches=ratings.c.matches + 1, **values))
        if changed.rowcount == 0:
            await conn.execute(insert(ratings).values(account_id=who, pool=pool, matches=1, **values))

    async def unrated(self) -> list[str]:
        """Rated matches over whose result was never applied (a server stopped in between); an
        aborted one, whose result is kept, has none to apply."""
        query = (select(matches.c.id).outerjoin(rating_changes, rating_changes.c.match_id == matches.c.id)
                 .outerjoin(match_results, match_results.c.match_id == matches.c.id)
                 .where(matches.c.over.is_(True), matches.c.settings.like('%"rated": true%'),
                        rating_changes.c.match_id.is_(None),
                        or_(match_results.c.ending.is_(None), match_results.c.ending != "aborted")))
        async with self.engine.connect() as conn:
            return [str(r[0]) for r in (await conn.execute(query)).all()]
