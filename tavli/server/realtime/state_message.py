"""The match as the protocol shows it: the ``state`` message, in White's numbering.

The part every viewer shares (``shared_state``) and the part that depends on who looks
(``seat_state``); see docs/web.md for every field.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any

import orjson
from sqlalchemy import and_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from tavli.fairdice import commitment
from tavli.rating import Rating
from tavli.server.cafe.results import both_chose
from tavli.server.play.live import LiveMatch
from tavli.server.play.seats import pool_of
from tavli.server.play.view import joined, result_json, step_tree_json
from tavli.server.storage.schema import match_results, rating_changes, ratings, seat_accounts
from tavli.variants import BLACK, WHITE


def shared_state(live: LiveMatch) -> dict[str, Any]:
    """The part of the ``state`` message that is the same for every viewer of the match, for
    ``orjson``: the board and the game's turns come already encoded (``orjson.Fragment``),
    each once (``LiveMatch.board``, ``LiveMatch.moves_json``), not again with every action."""
    match = live.match
    record = match.records[-1]
    game = record.game
    index = len(match.records) - 1
    seeds = live.roller.seeds
    winner = match.winner
    state: dict[str, Any] = {
        "type": "state", "seq": live.seq, "match": live.row.id,
        "settings": live.row.settings,
        "score": {"white": match.score[WHITE], "black": match.score[BLACK]},
        "over": match.is_over, "aborted": match.aborted, "aborted_by": live.aborted_by,
        "winner": None if winner is None else ("white" if winner == WHITE else "black"),
        "turn": "white" if match.turn == WHITE else "black",
        "dice": list(match.dice) if match.dice is not None else None,
        "game": orjson.Fragment(joined(orjson.dumps({
            "index": index, "variant": game.variant.name, "rules": str(game.variant),
            "commitment": commitment(seeds[index]) if index < len(seeds) else None,
            "opening": [list(r) for r in record.opening_rolls],
            "result": result_json(game.result),
        }), b'{"moves":' + live.moves_json(index) + b"}", live.board(game.position))),
        "games": [{"index": k, "variant": r.game.variant.name,
                   "commitment": commitment(seeds[k]) if k < len(seeds) else None,
                   "seed": seeds[k].hex() if k < len(seeds) and r.game.is_over else None,
                   "result": result_json(r.game.result)} for k, r in enumerate(match.records)],
        "offer": None if live.offer is None else {k: v for k, v in live.offer.items() if k != "hash"},
        "rematch": live.rematch,
    }
    finished = [k for k, r in enumerate(match.records) if r.game.is_over]
    if finished:  # the last finished game as it ended, to show it (board, turns) until the player goes on
        last = match.records[finished[-1]].game
        state["games"][finished[-1]]["final"] = orjson.Fragment(live.board(last.position))
        state["games"][finished[-1]]["moves"] = len(last.history)
        state["games"][finished[-1]]["turns"] = orjson.Fragment(live.moves_json(finished[-1]))
    return state


def seat_state(live: LiveMatch, you: str, *, steps: bool, connected: dict[str, bool], can_claim: bool,
               claim_after: float, joined: Collection[str] = ()) -> dict[str, Any]:
    """The part of the ``state`` message that depends on who looks (and who is connected).

    ``joined`` names the seats that have come to the match at least once; a seat connected
    now has too. Until both people's seats have (``LiveMatch.awaits``), nobody is on turn:
    ``waiting`` is true and nothing can be rolled.
    """
    match = live.match
    waiting = live.awaits({name for name in ("white", "black") if connected.get(name, False) or name in joined})
    on_turn = you == ("white" if match.turn == WHITE else "black") and not match.is_over and not waiting
    legal = match.legal_plays() if on_turn and match.dice is not None else None
    state: dict[str, Any] = {
        "you": you, "waiting": waiting,
        "players": {name: {"kind": "bot" if live.bot_level(color) else "human",
                           "level": live.bot_level(color), "connected": connected.get(name, False),
                           "joined": connected.get(name, False) or name in joined,
                           "name": live.accounts.get(name) or live.names.get(name),
                           "account": name in live.accounts,
                           "rating": live.seat_ratings.get(name)}
                    for name, color in (("white", WHITE), ("black", BLACK))},
        "can_roll": on_turn and match.dice is None and not match.game.is_over,
        "can_play": legal is not None and len(legal) > 0,
        "can_claim": can_claim, "claim_after": claim_after,
        "legal": None,
        "can_resign": on_turn and live.offer is None,
        "can_abort": you in ("white", "black") and match.can_abort,
        "clock": None if live.clock is None else live.clock.ms(time.time()),
        # not in the shared part, kept for each action: it is known only once the result is kept,
        # which may be after the state of the last action went out
        "ratings": live.ratings,
    }
    if legal is not None:
        state["legal"] = {"plays": list(live.listed_plays())}
        if steps:
            state["legal"]["tree"] = step_tree_json(legal)
    return state


async def ratings_of(engine: AsyncEngine, live: LiveMatch) -> dict[str, Any] | None:
    """How a finished rated match moved its players' ratings, as its ``state`` says it (kept in
    ``live.ratings`` once known): ``{"pool": "tavli", "rated": true, "white": {"before": 1500.0,
    "after": 1662.3}, "black": {…}}``, or ``"rated": false`` with ``why`` where the farming rules
    left it unrated (docs/ratings.md): ``early``, decided before both players made a play of their
    own choosing, or ``often``, one match too many of the pair in the pool that day. None for a
    match that is not rated, not over or aborted, and while its result is not kept yet."""
    settings = live.row.settings
    pool = pool_of(settings.get("games", ()))
    if not settings.get("rated") or live.match.winner is None or pool is None:
        return None
    match_id = live.row.id
    async with engine.connect() as conn:
        kept = (await conn.execute(select(match_results.c.match_id)
                                   .where(match_results.c.match_id == match_id))).first()
        if kept is None:  # not yet: the result and the ratings are written together
            return None
        moved = (await conn.execute(
            select(seat_accounts.c.seat, rating_changes.c.rating, rating_changes.c.new_rating)
            .join(seat_accounts, and_(seat_accounts.c.match_id == rating_changes.c.match_id,
                                      seat_accounts.c.account_id == rating_changes.c.account_id))
            .where(rating_changes.c.match_id == match_id))).all()
    if not moved:
        return {"pool": pool, "rated": False, "why": "often" if both_chose(live.match) else "early"}
    return {"pool": pool, "rated": True} | {
        str(r.seat): {"before": round(float(r.rating), 1), "after": round(float(r.new_rating), 1)} for r in moved}


def seat_ratings_due(live: LiveMatch) -> bool:
    """Whether a rated match has a seat whose account is known and whose rating is not looked up
    yet (``look_up_seat_ratings``): asked before every state, so it looks at the match's memory only."""
    return bool(live.row.settings.get("rated")) and not live.accounts.keys() <= live.seat_ratings.keys() \
        and pool_of(live.row.settings.get("games", ())) is not None


async def look_up_seat_ratings(engine: AsyncEngine, live: LiveMatch) -> None:
    """Each seat's rating in a rated match's pool, as the board shows it beside the player's name
    (``live.seat_ratings``, the state's ``players.*.rating``): looked up once per seat, when its
    account is known, never again with each action. The rating before the match: the player's
    rating in the pool now, or, for a match whose result is kept, the one it started from (so a
    finished match shows what it was played for whichever server process loads it); a player
    new to the pool has the newcomer's 1500, provisional."""
    pool = pool_of(live.row.settings.get("games", ()))
    if pool is None:
        return
    query = (select(seat_accounts.c.seat, ratings.c.rating, ratings.c.deviation,
                    rating_changes.c.rating.label("before"), rating_changes.c.deviation.label("before_deviation"))
             .select_from(seat_accounts
                          .outerjoin(ratings, and_(ratings.c.account_id == seat_accounts.c.account_id,
                                                   ratings.c.pool == pool))
                          .outerjoin(rating_changes, and_(rating_changes.c.match_id == seat_accounts.c.match_id,
                                                          rating_changes.c.account_id == seat_accounts.c.account_id)))
             .where(seat_accounts.c.match_id == live.row.id))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    for row in rows:
        if row.before is not None:
            rating = Rating(float(row.before), float(row.before_deviation))
        elif row.rating is not None:
            rating = Rating(float(row.rating), float(row.deviation))
        else:
            rating = Rating()
        live.seat_ratings[str(row.seat)] = {"rating": round(rating.rating, 1), "provisional": rating.provisional,
                                            "shown": rating.display()}
