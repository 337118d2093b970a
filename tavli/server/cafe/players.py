"""What the café shows of its players: a player's page (``profile_json``: ratings, their history,
the record by game, the error-rate trend and every match) and the leaderboard of a pool.

Both are read from the tables the finished matches write (``tavli.server.cafe.results``), in a few
queries, never by replaying matches.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from tavli.rating import PROVISIONAL_DEVIATION, Rating
from tavli.server.cafe.accounts import Account
from tavli.server.play.seats import POOLS, pool_of, watchable
from tavli.server.storage.schema import accounts, match_results, matches, names, rating_changes, ratings, seat_accounts
from tavli.variants import GAMES

LEADERS = 100
"""The most players a leaderboard lists."""
OTHER = {"white": "black", "black": "white"}


def rating_json(rating: float, deviation: float, volatility: float, matches_played: int) -> dict[str, Any]:
    shown = Rating(rating, deviation, volatility)
    return {"rating": round(rating, 1), "deviation": round(deviation, 1), "matches": matches_played,
            "provisional": shown.provisional, "shown": shown.display()}


def opponent_json(kind: str, name: str | None, account: int | None, deleted: bool | None) -> dict[str, Any]:
    """The opponent of a listed match: a player (with his account's name, if he has one) or a bot."""
    if kind.startswith("bot:"):
        return {"kind": "bot", "level": kind[4:], "name": None, "account": False}
    return {"kind": "human", "level": None, "name": "(deleted)" if deleted else name, "account": account is not None}


async def profile_json(engine: AsyncEngine, account: Account, viewer: Account | None = None) -> dict[str, Any]:
    """The player page's data for ``account`` (``GET /api/players/{name}``), as ``viewer`` (None:
    a guest) may see it: a private match (``watchable``) only to the players of its seats, and to
    anyone else not even in the record's counts, which would tell when he won one."""
    mine, theirs, them = seat_accounts.alias("mine"), seat_accounts.alias("theirs"), accounts.alias("them")
    their_name = names.alias("their_name")
    listed = (
        select(matches.c.id, matches.c.created, matches.c.settings, matches.c.white, matches.c.black,
               matches.c.over, mine.c.seat, them.c.name.label("account_name"), theirs.c.account_id,
               them.c.deleted, their_name.c.name.label("given_name"), match_results.c.finished,
               match_results.c.winner, match_results.c.white_points, match_results.c.black_points,
               match_results.c.ending, match_results.c.white_error_rate, match_results.c.black_error_rate,
               match_results.c.games, rating_changes.c.rating, rating_changes.c.new_rating, rating_changes.c.pool)
        .join(mine, and_(mine.c.match_id == matches.c.id, mine.c.account_id == account.id))
        .outerjoin(theirs, and_(theirs.c.match_id == matches.c.id, theirs.c.seat != mine.c.seat))
        .outerjoin(them, them.c.id == theirs.c.account_id)
        .outerjoin(their_name, and_(their_name.c.match_id == matches.c.id, their_name.c.seat != mine.c.seat))
        .outerjoin(match_results, match_results.c.match_id == matches.c.id)
        .outerjoin(rating_changes, and_(rating_changes.c.match_id == matches.c.id,
                                        rating_changes.c.account_id == account.id))
        .order_by(matches.c.created.desc()))
    pools = select(ratings).where(ratings.c.account_id == account.id)
    history = (select(rating_changes.c.pool, rating_changes.c.at, rating_changes.c.new_rating)
               .where(rating_changes.c.account_id == account.id).order_by(rating_changes.c.at))
    async with engine.connect() as conn:
        rows = (await conn.execute(listed)).all()
        rated = (await conn.execute(pools)).all()
        changes = (await conn.execute(history)).all()
    record = {game: {"won": 0, "lost": 0, "gammons": 0} for game in GAMES}
    trend: list[dict[str, Any]] = []
    listed_matches = [_match_json(row, record, trend) for row in rows if _seen_by(viewer, row, account)]
    trend.sort(key=lambda point: float(point["at"]))
    lost = [m["ending"] for m in listed_matches if m["result"] == "lost"]
    return {
        "name": account.shown, "joined": account.created,
        # the matches he lost by letting his clock run out or by staying away (a claimed absence)
        "lost_on_time": lost.count("time"), "lost_by_leaving": lost.count("left"),
        "ratings": {str(r.pool): rating_json(r.rating, r.deviation, r.volatility, r.matches) for r in rated},
        "history": {pool: [{"at": c.at, "rating": round(c.new_rating, 1)} for c in changes if c.pool == pool]
                    for pool in POOLS if any(c.pool == pool for c in changes)},
        "record": record, "error_trend": trend, "matches": listed_matches,
    }


def _seen_by(viewer: Account | None, row: Any, account: Account) -> bool:
    """Whether ``viewer`` (None: a guest) sees a match on ``account``'s page: one anyone may watch,
    or one he plays (the page's player, or his opponent with an account)."""
    return watchable(json.loads(row.settings)) or (viewer is not None and viewer.id in (account.id, row.account_id))


def _match_json(row: Any, record: dict[str, dict[str, int]], trend: list[dict[str, Any]]) -> dict[str, Any]:
    """One match of a player's page; adds its games to ``record`` and his error rate to ``trend``."""
    seat, other = str(row.seat), OTHER[str(row.seat)]
    settings = json.loads(row.settings)
    kind = str(row.black if seat == "white" else row.white)
    given = row.account_name if row.account_id is not None else row.given_name
    item: dict[str, Any] = {
        "id": row.id, "date": row.created, "finished": row.finished, "length": settings.get("length"),
        "games": settings.get("games"), "private": not watchable(settings),
        # made rated and, once decided, rated: docs/ratings.md says when a rated match moves nothing
        "rated": bool(settings.get("rated")) and (row.winner is None or row.rating is not None),
        "pool": pool_of(settings.get("games", [])),
        "opponent": opponent_json(kind, given, row.account_id, row.deleted),
        "result": _result_of(row, seat),
        "ending": row.ending, "score": None, "error_rate": None, "rating": None,
        "board": f"/match/{row.id}", "review": f"/match/{row.id}/review", "record": f"/api/matches/{row.id}/record",
    }
    if row.winner:  # not in play, nor aborted
        points = {"white": row.white_points, "black": row.black_points}
        item["score"] = {"player": points[seat], "opponent": points[other]}
        rates = {"white": row.white_error_rate, "black": row.black_error_rate}
        if rates[seat] is not None:
            item["error_rate"] = {"player": rates[seat], "opponent": rates[other]}
            trend.append({"at": row.finished, "error_rate": rates[seat], "match": row.id})
        for game in json.loads(row.games):
            tally = record.setdefault(str(game["game"]), {"won": 0, "lost": 0, "gammons": 0})
            if game["winner"] == seat:
                tally["won"] += 1
                tally["gammons"] += int(game["points"] >= 2)
            elif game["winner"] is not None:
                tally["lost"] += 1
    if row.rating is not None:
        item["rating"] = {"before": round(row.rating, 1), "after": round(row.new_rating, 1)}
    return item


def _result_of(row: Any, seat: str) -> str:
    """The player's result: ``playing``, ``won``, ``lost``, or ``aborted`` (no result)."""
    if row.winner is None:
        return "playing"
    if row.ending == "aborted":
        return "aborted"
    return "won" if row.winner == seat else "lost"


async def leaderboard_json(engine: AsyncEngine, pool: str) -> dict[str, Any]:
    """The players of ``pool`` with a settled rating (deviation at most 110), best first."""
    query = (select(accounts.c.name, ratings.c.rating, ratings.c.deviation, ratings.c.volatility, ratings.c.matches)
             .join(accounts, accounts.c.id == ratings.c.account_id)
             .where(ratings.c.pool == pool, ratings.c.deviation <= PROVISIONAL_DEVIATION,
                    accounts.c.deleted.is_(False), accounts.c.disabled.is_(False))
             .order_by(ratings.c.rating.desc()).limit(LEADERS))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return {"pool": pool, "pools": list(POOLS),
            "players": [{"name": r.name} | rating_json(r.rating, r.deviation, r.volatility, r.matches) for r in rows]}
