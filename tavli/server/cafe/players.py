"""What the café shows of its players: a player's page (``profile_json``: ratings, their history,
the record by game, the error-rate trend and every match), the leaderboard of a pool, and the
matches a guest's browser holds the seats of (``held_json``, the start page's "My matches").

Each is read from the tables the finished matches write (``tavli.server.cafe.results``), in a few
queries, never by replaying matches.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import ColumnElement, FromClause, Select, and_, case, select
from sqlalchemy.ext.asyncio import AsyncEngine

from tavli.rating import PROVISIONAL_DEVIATION, Rating
from tavli.server.cafe.accounts import Account
from tavli.server.play.seats import MATCH_ID, POOLS, SEATS, pool_of, watchable
from tavli.server.storage.schema import (
    accounts,
    analyses,
    match_results,
    matches,
    names,
    rating_changes,
    ratings,
    seat_accounts,
    tokens,
)
from tavli.server.storage.store import token_hash
from tavli.variants import GAMES

LEADERS = 100
"""The most players a leaderboard lists: the settled ones first, then the provisional."""
OTHER = {"white": "black", "black": "white"}
ENDINGS = ("played", "resigned", "time", "claimed")
"""How a game ends (``tavli.server.cafe.results.game_ending``), as a player's record counts them apart."""
HELD_LISTED = 10
"""The most matches ``held_json`` lists: the newest of those a browser holds."""
MOST_HELD = 200
"""The most seats ``held_json`` looks at in one request (a browser's oldest past those wait)."""


def add_games(record: dict[str, dict[str, int]], endings: dict[str, dict[str, int]], games: list[dict[str, Any]],
              seat: str) -> None:
    """Count a decided match's ``games`` (its result's, ``tavli.server.cafe.results``) in ``seat``'s
    ``record`` by game (won, lost, gammons) and in ``endings`` (the games won and lost, by how each
    ended). A gammon is a game played out and won for 2 points (a gammon, or Plakoto's mother
    pinned): a resignation for 2 points or the points of a match won on time say nothing of the board.

    >>> record, endings = {}, new_endings()
    >>> add_games(record, endings, [{"game": "portes", "winner": "white", "points": 2, "ending": "resigned"},
    ...                             {"game": "portes", "winner": "white", "points": 2, "ending": "played"}], "white")
    >>> record["portes"], endings["won"]["resigned"], endings["won"]["played"]
    ({'won': 2, 'lost': 0, 'gammons': 1}, 1, 1)
    """
    for game in games:
        tally = record.setdefault(str(game["game"]), {"won": 0, "lost": 0, "gammons": 0})
        ending = str(game.get("ending", "played"))
        ending = ending if ending in ENDINGS else "played"
        if game["winner"] == seat:
            tally["won"] += 1
            endings["won"][ending] += 1
            tally["gammons"] += int(ending == "played" and int(game["points"]) >= 2)
        elif game["winner"] is not None:
            tally["lost"] += 1
            endings["lost"][ending] += 1


def new_endings() -> dict[str, dict[str, int]]:
    """No game won or lost yet, by each ending."""
    return {"won": dict.fromkeys(ENDINGS, 0), "lost": dict.fromkeys(ENDINGS, 0)}


def rating_json(rating: float, deviation: float, volatility: float, matches_played: int) -> dict[str, Any]:
    shown = Rating(rating, deviation, volatility)
    return {"rating": round(rating, 1), "deviation": round(deviation, 1), "matches": matches_played,
            "provisional": shown.provisional, "shown": shown.display()}


def opponent_json(kind: str, name: str | None, account: int | None, deleted: bool | None) -> dict[str, Any]:
    """The opponent of a listed match: a player (with his account's name, if he has one) or a bot."""
    if kind.startswith("bot:"):
        return {"kind": "bot", "level": kind[4:], "name": None, "account": False}
    return {"kind": "human", "level": None, "name": "(deleted)" if deleted else name, "account": account is not None}


def listing(seat: ColumnElement[Any], mine: FromClause, picks: ColumnElement[bool], outer: bool = False) -> Select[Any]:
    """The matches' rows as a list of them shows them from one side: ``seat`` is that side's seat,
    ``mine`` his ``seat_accounts`` row (for his rating change), joined on ``picks`` (an outer join
    with ``outer``: a guest's seat has none)."""
    theirs, them, their_name = seat_accounts.alias("theirs"), accounts.alias("them"), names.alias("their_name")
    return (
        select(matches.c.id, matches.c.created, matches.c.settings, matches.c.white, matches.c.black,
               matches.c.over, seat.label("seat"), them.c.name.label("account_name"), theirs.c.account_id,
               them.c.deleted, their_name.c.name.label("given_name"), match_results.c.finished,
               match_results.c.winner, match_results.c.white_points, match_results.c.black_points,
               match_results.c.ending, match_results.c.white_error_rate, match_results.c.black_error_rate,
               match_results.c.games, analyses.c.games.label("reviewed"), rating_changes.c.rating,
               rating_changes.c.new_rating, rating_changes.c.pool)
        .select_from(matches)
        .join(mine, picks, isouter=outer)
        .outerjoin(theirs, and_(theirs.c.match_id == matches.c.id, theirs.c.seat != seat))
        .outerjoin(them, them.c.id == theirs.c.account_id)
        .outerjoin(their_name, and_(their_name.c.match_id == matches.c.id, their_name.c.seat != seat))
        .outerjoin(match_results, match_results.c.match_id == matches.c.id)
        .outerjoin(analyses, analyses.c.match_id == matches.c.id)
        .outerjoin(rating_changes, and_(rating_changes.c.match_id == matches.c.id,
                                        rating_changes.c.account_id == mine.c.account_id))
        .order_by(matches.c.created.desc()))


async def profile_json(engine: AsyncEngine, account: Account, viewer: Account | None = None) -> dict[str, Any]:
    """The player page's data for ``account`` (``GET /api/players/{name}``), as ``viewer`` (None:
    a guest) may see it: a private match (``watchable``) only to the players of its seats, and to
    anyone else not even in the record's counts, which would tell when he won one."""
    mine = seat_accounts.alias("mine")
    listed = listing(mine.c.seat, mine, and_(mine.c.match_id == matches.c.id, mine.c.account_id == account.id))
    pools = select(ratings).where(ratings.c.account_id == account.id)
    history = (select(rating_changes.c.pool, rating_changes.c.at, rating_changes.c.new_rating)
               .where(rating_changes.c.account_id == account.id).order_by(rating_changes.c.at))
    async with engine.connect() as conn:
        rows = (await conn.execute(listed)).all()
        rated = (await conn.execute(pools)).all()
        changes = (await conn.execute(history)).all()
    record = {game: {"won": 0, "lost": 0, "gammons": 0} for game in GAMES}
    endings = new_endings()
    trend: list[dict[str, Any]] = []
    # yours: the one asking plays it (his board opens his seat on any device where he is signed in)
    listed_matches = [_match_json(row, record, endings, trend) | {"yours": _plays(viewer, row, account)}
                      for row in rows if _seen_by(viewer, row, account)]
    trend.sort(key=lambda point: float(point["at"]))
    lost = [m["ending"] for m in listed_matches if m["result"] == "lost"]
    return {
        "name": account.shown, "joined": account.created,
        # the matches he lost by letting his clock run out or by staying away (a claimed absence)
        "lost_on_time": lost.count("time"), "lost_by_leaving": lost.count("left"),
        "ratings": {str(r.pool): rating_json(r.rating, r.deviation, r.volatility, r.matches) for r in rated},
        "history": {pool: [{"at": c.at, "rating": round(c.new_rating, 1)} for c in changes if c.pool == pool]
                    for pool in POOLS if any(c.pool == pool for c in changes)},
        "record": record, "endings": endings, "error_trend": trend, "matches": listed_matches,
    }


async def held_seats(engine: AsyncEngine, held: object) -> dict[str, str]:
    """The seats that a browser's ``[{"match", "token"}]`` (as ``tavli:mine:`` keeps them) hold,
    by match: those whose token is the seat's. Anything else in the list is passed over."""
    claimed: set[tuple[str, str]] = set()  # (the token's hash, the match it is said to be of)
    for item in held[:MOST_HELD] if isinstance(held, list) else []:
        match_id, token = (item.get("match"), item.get("token")) if isinstance(item, dict) else (None, None)
        if isinstance(match_id, str) and MATCH_ID.fullmatch(match_id) and isinstance(token, str) and len(token) <= 128:
            claimed.add((token_hash(token), match_id))
    if not claimed:
        return {}
    query = (select(tokens.c.hash, tokens.c.match_id, tokens.c.role)
             .where(tokens.c.hash.in_({hashed for hashed, _ in claimed})))
    async with engine.connect() as conn:
        found = (await conn.execute(query)).all()
    return {str(r.match_id): str(r.role) for r in found if (r.hash, r.match_id) in claimed and r.role in SEATS}


async def held_json(engine: AsyncEngine, seats: dict[str, str]) -> list[dict[str, Any]]:
    """The newest ``HELD_LISTED`` of the matches whose ``seats`` (by match, ``held_seats``) a
    browser holds, each as a player's page lists it, from that seat (``seat``): a private one too,
    since the token is the seat's. A match in play has no score here: the results hold none."""
    if not seats:
        return []
    seat = case(seats, value=matches.c.id)
    mine = seat_accounts.alias("mine")
    query = (listing(seat, mine, and_(mine.c.match_id == matches.c.id, mine.c.seat == seat), outer=True)
             .where(matches.c.id.in_(seats)).limit(HELD_LISTED))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [_match_json(row, {}, new_endings(), []) | {"seat": seats[row.id]} for row in rows]


def _seen_by(viewer: Account | None, row: Any, account: Account) -> bool:
    """Whether ``viewer`` (None: a guest) sees a match on ``account``'s page: one anyone may watch,
    or one he plays (the page's player, or his opponent with an account)."""
    return watchable(json.loads(row.settings)) or _plays(viewer, row, account)


def _plays(viewer: Account | None, row: Any, account: Account) -> bool:
    """Whether ``viewer`` plays a match on ``account``'s page (the page's player, or his opponent)."""
    return viewer is not None and viewer.id in (account.id, row.account_id)


def _match_json(row: Any, record: dict[str, dict[str, int]], endings: dict[str, dict[str, int]],
                trend: list[dict[str, Any]]) -> dict[str, Any]:
    """One match of a player's page; adds its games to ``record`` and ``endings`` (``add_games``)
    and his error rate to ``trend``."""
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
        games = json.loads(row.games)
        rates = {"white": row.white_error_rate, "black": row.black_error_rate}
        # reviewed to its end: a side's rate is null where he had no decision the dice left open
        if (row.reviewed is not None and row.reviewed >= len(games)) or rates[seat] is not None:
            item["error_rate"] = {"player": rates[seat], "opponent": rates[other]}
        if rates[seat] is not None:
            trend.append({"at": row.finished, "error_rate": rates[seat], "match": row.id})
        add_games(record, endings, games, seat)
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
    """The players of ``pool``: those with a settled rating (deviation at most
    ``PROVISIONAL_DEVIATION``) first, best first and ranked; then the provisional ones, best
    first and unranked (``rank`` null), whose rating a few more matches may still move far."""
    provisional = ratings.c.deviation > PROVISIONAL_DEVIATION
    query = (select(accounts.c.name, ratings.c.rating, ratings.c.deviation, ratings.c.volatility, ratings.c.matches)
             .join(accounts, accounts.c.id == ratings.c.account_id)
             .where(ratings.c.pool == pool, accounts.c.deleted.is_(False), accounts.c.disabled.is_(False))
             .order_by(case((provisional, 1), else_=0), ratings.c.rating.desc(), accounts.c.name).limit(LEADERS))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    players = [{"name": r.name} | rating_json(r.rating, r.deviation, r.volatility, r.matches) for r in rows]
    for rank, player in enumerate(players, 1):
        player["rank"] = None if player["provisional"] else rank
    return {"pool": pool, "pools": list(POOLS), "provisional_deviation": PROVISIONAL_DEVIATION, "players": players}
