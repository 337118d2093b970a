"""Finished matches: each one's result kept for the players' pages, and a rated match's result
applied to both players' Glicko-2 ratings (``tavli.rating``) exactly once.

A rated match counts in its pool: ``tavli`` for the Tavli sequence, or the one game it plays.
The winner of the match wins, whatever the games' points; a resignation or an absence claimed
is a loss like any other. An aborted match (``Match.abort``) is kept with no winner (``winner``
empty, ending ``aborted``) and rates nobody. Whichever server process sees a match end first
keeps its result and applies its rating, in one transaction: the ``rating_changes`` rows of a
match can be written once, so another process (or a second look after a restart) changes nothing.

Two accounts cannot hand each other rating (docs/ratings.md, "Farming"): a match decided before
each side made a play of his own choosing (``both_chose``) is kept as a result but not rated, and
the rated matches of one pair in one pool count less after the first few in a day
(``pair_weight``). ``Results.feeding_pairs`` lists the pairs whose matches are many and one-sided.
The pools are ``tavli.server.play.seats.POOLS`` (``pool_of``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from tavli.match import ABORTED, CLAIMED, FORFEITED, LOST_ON_TIME, RESIGNED, RESIGNED_MATCH, Match
from tavli.rating import Rating, match_weight, rate_match
from tavli.server.play.live import LiveMatch
from tavli.server.play.seats import pool_of, seat_name
from tavli.server.storage.schema import (
    accounts,
    insert_for,
    match_results,
    matches,
    rating_changes,
    ratings,
    seat_accounts,
)
from tavli.variants import WHITE

RATED = '%"rated": true%'
"""A rated match's stored settings, as SQL's LIKE finds them."""
TOURNAMENT = '%"tournament": "%'
"""A tournament match's (its tournament's id)."""

PAIR_WINDOW = 24 * 3600.0
"""The span, in seconds, over which the rated matches of one pair of accounts in one pool are
counted before each new one (``pair_weight``): a day."""
PAIR_FULL = 3
"""How many rated matches one pair plays in one pool within ``PAIR_WINDOW`` that count fully."""
PAIR_CAP = 8
"""The most rated matches one pair plays in one pool within ``PAIR_WINDOW``: a later one is not
rated (the next would count 1/64 of a match, which no longer says anything)."""

FEEDING_WINDOW = 7 * 24 * 3600.0
"""The span, in seconds, over which ``Results.feeding_pairs`` looks by default: a week."""
FEEDING_MATCHES = 5
"""The fewest rated matches between two accounts in the window that ``feeding_pairs`` lists."""
FEEDING_SHARE = 0.8
"""The share of those matches that one of the two must have won to be listed."""


def ending_of(live: LiveMatch) -> str:
    """How a finished match ended: ``played`` out, ``resigned``, ``left`` (the absence claimed),
    lost on ``time``, ``forfeit`` (a tournament's player who never came), or ``aborted``."""
    result = live.match.game.result
    reason = result.reason if result is not None else ""
    return {RESIGNED_MATCH: "resigned", CLAIMED: "left", LOST_ON_TIME: "time", FORFEITED: "forfeit",
            ABORTED: "aborted"}.get(reason, "played")


def game_ending(reason: str) -> str:
    """How one game ended, from its result's reason: ``played`` out on the board, ``resigned``
    (a resignation accepted, or the whole match resigned), lost on ``time``, or ``claimed`` (the
    opponent absent). Only a game played out says anything of its points: a gammon is one.

    >>> game_ending("resigned"), game_ending(LOST_ON_TIME), game_ending("double game: the loser bore off nothing")
    ('resigned', 'time', 'played')
    """
    return {RESIGNED: "resigned", RESIGNED_MATCH: "resigned", LOST_ON_TIME: "time", CLAIMED: "claimed",
            FORFEITED: "forfeit"}.get(reason, "played")


def both_chose(match: Match) -> bool:
    """Whether each side of ``match`` has made a real play: one of his own choosing, where the
    dice left more than one (a forced play, a pass, a roll-off or an opponent's resignation is
    none). A match decided before that says nothing of either player's strength.

    >>> from tavli import DiceRoller
    >>> from tavli.match import MatchSettings
    >>> m = Match(MatchSettings(length=1, games=("portes",)), DiceRoller(seed=1))
    >>> _ = m.roll("6-5"); _ = m.play(m.legal_plays()[0]); both_chose(m)  # one side has chosen
    False
    >>> _ = m.roll("3-1"); _ = m.play(m.legal_plays()[0]); both_chose(m)
    True
    """
    chose: set[object] = set()
    for game in match.games:
        for turn in game.history:
            if turn.color not in chose and len(turn.before.legal_plays(turn.dice)) > 1:
                chose.add(turn.color)
                if len(chose) == 2:
                    return True
    return False


def pair_weight(earlier: int) -> float:
    """How much a rated match counts (the share of its games that Glicko-2 is given) when the
    same two accounts have had ``earlier`` rated matches in its pool within ``PAIR_WINDOW``: the
    first ``PAIR_FULL`` fully, each later one half as much as the one before, and from the
    ``PAIR_CAP``-th on nothing (not rated). However many they play, a pair gives each other less
    than ``PAIR_FULL + 1`` matches' worth a day.

    >>> [pair_weight(k) for k in range(10)]
    [1.0, 1.0, 1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.0, 0.0]
    """
    if earlier >= PAIR_CAP:
        return 0.0
    return 0.5 ** max(0, earlier - PAIR_FULL + 1)


@dataclass(frozen=True)
class FeedingPair:
    """Two accounts and their rated matches against each other in a window (``feeding_pairs``):
    ``first`` is the one who won more of them."""

    first: str
    second: str
    matches: int
    """Their rated matches that were decided (aborted ones are not)."""
    counted: int
    """How many of those moved the ratings (the others: decided before both had chosen a play,
    or beyond ``PAIR_CAP``)."""
    first_wins: int
    second_wins: int
    given_to_first: float
    """How far those matches moved ``first``'s ratings, summed over the pools (up: he gained)."""
    given_to_second: float


class Results:
    """Writes the results of the matches that end in this process and applies the rated ones."""

    def __init__(self, engine: AsyncEngine, on_finished: Callable[[str], Awaitable[Any]] | None = None) -> None:
        self.engine = engine
        self.on_finished = on_finished
        """Called with a finished match's id whose seats have accounts (the server reviews it)."""
        self._insert = insert_for(engine.dialect.name)
        self._done: set[str] = set()

    async def on_action(self, live: LiveMatch) -> bool:
        """After an action (``tavli.server.app`` calls it): a match that has just ended gets its
        result. Whether it did now (False for a match not over, or one this process has done)."""
        if not live.match.is_over or live.row.id in self._done:
            return False
        self._done.add(live.row.id)
        await self.record(live)
        return True

    async def record(self, live: LiveMatch, now: float | None = None) -> None:
        """Keep the result of the finished match ``live``, and rate it if it is rated (an aborted
        match is kept with no winner and no games, rated nobody and reviewed by nobody). The
        result and the rating are written together: a server that stops between them leaves
        neither, and the next one to start does both (``unrated``)."""
        match = live.match
        winner = match.winner
        assert winner is not None or match.aborted
        games = [{"game": g.variant.name, "winner": seat_name(g.result.winner) if g.result.winner is not None else None,
                  "points": g.result.points, "ending": game_ending(g.result.reason)}
                 for g in match.games if g.result is not None and not match.aborted]
        row = {"match_id": live.row.id, "finished": live.last_action or time.time(),
               "winner": "" if winner is None else seat_name(winner),
               "white_points": match.score[WHITE], "black_points": match.score[WHITE.other],
               "ending": ending_of(live), "games": json.dumps(games)}
        seats: dict[str, int] = {}
        try:
            async with self.engine.begin() as conn:
                await conn.execute(self._insert(match_results).values(**row).on_conflict_do_nothing())
                seats = {str(s): int(a) for s, a in (await conn.execute(
                    select(seat_accounts.c.seat, seat_accounts.c.account_id)
                    .where(seat_accounts.c.match_id == live.row.id))).all()}
                if winner is not None and live.row.settings.get("rated") and len(seats) == 2 and both_chose(match):
                    await self._rate(conn, live.row.id, live.row.settings, seats, seat_name(winner),
                                     time.time() if now is None else now)
        except IntegrityError:
            pass  # another process kept it and rated it first
        if winner is not None and seats and self.on_finished is not None:
            await self.on_finished(live.row.id)

    async def _rate(self, conn: AsyncConnection, match_id: str, settings: dict[str, Any], seats: dict[str, int],
                    winner: str, at: float) -> None:
        """Apply a rated match's result to both players, weighed by how often they have met
        lately (``pair_weight``); ``IntegrityError`` if it was applied already."""
        pool = pool_of(settings["games"])
        if pool is None:
            return
        white, black = seats["white"], seats["black"]
        # the ratings first (locked, on PostgreSQL): two matches of the pair ending at once take
        # turns, and the second one's count below sees the first
        before = await self._ratings(conn, [white, black], pool)
        share = pair_weight(await self._met(conn, white, black, pool, at))
        if share == 0.0:
            return
        new_white, new_black = rate_match(before[white], before[black], 1.0 if winner == "white" else 0.0,
                                          weight=share * match_weight(int(settings["length"])))
        # the changes first: a second writer stops here, before touching the ratings
        await conn.execute(insert(rating_changes), [
            {"match_id": match_id, "account_id": who, "pool": pool, "score": 1.0 if seat == winner else 0.0,
             "rating": before[who].rating, "deviation": before[who].deviation,
             "new_rating": new.rating, "new_deviation": new.deviation, "at": at}
            for seat, who, new in (("white", white, new_white), ("black", black, new_black))])
        for who, new in ((white, new_white), (black, new_black)):
            await self._save(conn, who, pool, new, at)

    async def _met(self, conn: AsyncConnection, one: int, other: int, pool: str, at: float) -> int:
        """How many rated matches ``one`` and ``other`` have had in ``pool`` within ``PAIR_WINDOW`` before ``at``."""
        theirs = rating_changes.alias("theirs")
        query = (select(func.count()).select_from(rating_changes)
                 .join(theirs, and_(theirs.c.match_id == rating_changes.c.match_id, theirs.c.account_id == other))
                 .where(rating_changes.c.account_id == one, rating_changes.c.pool == pool,
                        rating_changes.c.at > at - PAIR_WINDOW, rating_changes.c.at <= at))
        return int((await conn.execute(query)).scalar_one())

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
        """Rated matches over whose result was never kept (a server stopped in between), to be
        kept and rated now, and tournament matches so (their tournament goes on from the kept
        result). A kept result was rated with it, or was not to be rated (aborted, decided before
        both chose a play, or beyond the pair's cap)."""
        query = (select(matches.c.id).outerjoin(match_results, match_results.c.match_id == matches.c.id)
                 .where(matches.c.over.is_(True), match_results.c.match_id.is_(None),
                        or_(matches.c.settings.like(RATED), matches.c.settings.like(TOURNAMENT))))
        async with self.engine.connect() as conn:
            return [str(r[0]) for r in (await conn.execute(query)).all()]

    async def feeding_pairs(self, since: float | None = None, matches: int = FEEDING_MATCHES,
                            share: float = FEEDING_SHARE, now: float | None = None) -> list[FeedingPair]:
        """The pairs of accounts that may be feeding each other rating: at least ``matches``
        rated matches against each other finished since ``since`` (by default ``FEEDING_WINDOW``
        before ``now``), at least ``share`` of them won by the same one. Most matches first.
        ``tavli users pairs`` prints them; a moderator decides."""
        start = (time.time() if now is None else now) - FEEDING_WINDOW if since is None else since
        listed = [pair for pair in await self._pairs(start, matches)
                  if max(pair.first_wins, pair.second_wins) >= share * pair.matches]
        return sorted(listed, key=lambda p: (-p.matches, -abs(p.given_to_first - p.given_to_second)))

    async def _pairs(self, since: float, fewest: int) -> list[FeedingPair]:
        """Every pair with at least ``fewest`` decided rated matches against each other since ``since``."""
        white, black = seat_accounts.alias("white_seat"), seat_accounts.alias("black_seat")
        white_change, black_change = rating_changes.alias("white_change"), rating_changes.alias("black_change")
        low = case((white.c.account_id < black.c.account_id, white.c.account_id), else_=black.c.account_id)
        high = case((white.c.account_id < black.c.account_id, black.c.account_id), else_=white.c.account_id)
        won = case((match_results.c.winner == "white", white.c.account_id), else_=black.c.account_id)
        moved = case((white.c.account_id == low, white_change.c.new_rating - white_change.c.rating),
                     else_=black_change.c.new_rating - black_change.c.rating)
        moved_high = case((white.c.account_id == low, black_change.c.new_rating - black_change.c.rating),
                          else_=white_change.c.new_rating - white_change.c.rating)
        query = (select(low.label("low"), high.label("high"), func.count().label("matches"),
                        func.count(white_change.c.match_id).label("counted"),
                        func.sum(case((won == low, 1), else_=0)).label("low_wins"),
                        func.coalesce(func.sum(moved), 0.0).label("low_moved"),
                        func.coalesce(func.sum(moved_high), 0.0).label("high_moved"))
                 .select_from(match_results)
                 .join(matches, matches.c.id == match_results.c.match_id)
                 .join(white, and_(white.c.match_id == match_results.c.match_id, white.c.seat == "white"))
                 .join(black, and_(black.c.match_id == match_results.c.match_id, black.c.seat == "black"))
                 .outerjoin(white_change, and_(white_change.c.match_id == match_results.c.match_id,
                                               white_change.c.account_id == white.c.account_id))
                 .outerjoin(black_change, and_(black_change.c.match_id == match_results.c.match_id,
                                               black_change.c.account_id == black.c.account_id))
                 .where(match_results.c.finished >= since, match_results.c.winner != "", matches.c.settings.like(RATED))
                 .group_by(low, high).having(func.count() >= fewest))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            ids = {int(i) for r in rows for i in (r.low, r.high)}
            found = (await conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids)))).all()
        named = {int(i): str(name) for i, name in found}
        return [_pair(named, r) for r in rows]


def _pair(named: dict[int, str], row: Any) -> FeedingPair:
    """A pair's row of ``Results._pairs``, the one who won more first."""
    sides = [(named[int(row.low)], int(row.low_wins), float(row.low_moved)),
             (named[int(row.high)], int(row.matches) - int(row.low_wins), float(row.high_moved))]
    (first, first_wins, to_first), (second, second_wins, to_second) = sorted(sides, key=lambda s: -s[1])
    return FeedingPair(first, second, int(row.matches), int(row.counted), first_wins, second_wins, to_first, to_second)
