"""The web app's JSON API (docs/web.md): matches made, open seats taken, a match's dice and
record, the reviews (a private match's only to its players, until one makes it public), the
opening tables, a position's analysis, the bot levels."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple, TypeVar

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tavli.bots.levels import DEFAULT_LEVEL, LEVELS
from tavli.errors import Reason
from tavli.formats.record import dumps
from tavli.server.cafe.watchlist import worth_watching
from tavli.server.coach.openings_view import openings_json, practice_json, roll_json
from tavli.server.coach.position_analysis import PositionAnalysisError, position_json
from tavli.server.coach.review import read_match_file
from tavli.server.play.seats import MATCH_ID, SEATS, ActionError, MatchRequestError, SeatTaken, watchable
from tavli.server.play.service import MatchService
from tavli.server.play.view import joined
from tavli.server.routes import limits
from tavli.server.routes.account_api import account_of
from tavli.server.routes.context import AppContext, context_of
from tavli.server.routes.limits import MAX_FILE_BYTES, client_of, json_body, read_body
from tavli.server.routes.responses import error
from tavli.study.openings import OpeningsError

Stored = TypeVar("Stored")


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def levels(request: Request) -> Response:
    return JSONResponse({"levels": [{"name": lv.name, "description": lv.description, "depth": lv.depth}
                                    for lv in LEVELS.values()], "default": DEFAULT_LEVEL})


def too_many_matches(request: Request) -> Response:
    count = context_of(request).options.matches_per_minute
    return error(Reason("at most {count} new matches a minute: try again soon", count=count), 429)


async def new_match(request: Request) -> Response:
    asked = await match_request(request)
    if isinstance(asked, Response):
        return asked
    context, client, body = asked
    try:
        answer = await context.service.create(body, await account_of(request))
    except (ValueError, TypeError, RecursionError) as exc:  # only valid requests count
        context.creations.refund(client)
        return error(exc if isinstance(exc, ValueError) else "the request is malformed", 400)
    context.unwatched(answer["match"])
    return JSONResponse(answer, status_code=201)


async def open_matches(request: Request) -> Response:
    listed = await context_of(request).service.open_matches()
    return JSONResponse({"matches": listed}, headers={"Cache-Control": "no-store"})


async def watch(request: Request) -> Response:
    """The matches in play worth watching: the highest rated first, then the newest."""
    listed = await worth_watching(context_of(request).store.engine, time.time())
    return JSONResponse({"matches": listed}, headers={"Cache-Control": "no-store"})


def name_only(body: object) -> Reason | None:
    """Why a request to take an open seat is refused, if it is: it may give a name and nothing else."""
    if not isinstance(body, dict) or set(body) - {"name"}:
        return Reason("the request is a JSON object with at most a name")
    return None


async def take_open_seat(request: Request) -> Response:
    asked = await match_request(request, name_only)  # taking a seat counts as making a match
    if isinstance(asked, Response):
        return asked
    context, client, body = asked
    try:
        answer = await context.service.take_open_seat(request.path_params["match_id"], body.get("name"),
                                                      await account_of(request))
    except SeatTaken as exc:
        context.creations.refund(client)
        return error(exc, 409)
    except MatchRequestError as exc:
        context.creations.refund(client)
        return error(exc, 400)
    return JSONResponse(answer, status_code=201)


async def match_request(request: Request, refuse: Callable[[object], Reason | None] | None = None,
                        ) -> tuple[AppContext, str, Any] | Response:
    """The JSON body of a request that makes a match, with the context and the client it counts for,
    once the client may make another; else the error to answer with. ``refuse`` says why a body is
    refused before it counts."""
    context = context_of(request)
    client = client_of(request)
    body = await json_body(request, context.options.request_seconds)
    if isinstance(body, Response):
        return body
    why = refuse(body) if refuse is not None else None
    if why is not None:
        return error(why, 400)
    if not context.creations.allow(client):
        return too_many_matches(request)
    return context, client, body


UNSHARED = {"Cache-Control": "private, no-cache"}
"""A match's record and dice: a private match's are its players' only, and a match in play moves on."""


class Asker(NamedTuple):
    """Who asks about a match he may read: the match, his role there (a seat, ``spectator``, or
    None: anyone), its stored settings, and whether it is over."""

    match_id: str
    role: str | None
    settings: dict[str, Any]
    over: bool


def bearer(request: Request) -> str:
    """The token a request carries: ``Authorization: Bearer TOKEN``, as the pages send it (a
    header, not the address: addresses end up in logs); empty for none or one too long to be one."""
    auth = request.headers.get("authorization", "")
    token = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
    return token if len(token) <= 128 else ""


async def role_of(request: Request, match_id: str) -> str | None:
    """The role in ``match_id`` of the request's token (a seat or ``spectator``), else the seat
    that the logged-in account plays there; None for anyone else."""
    store = context_of(request).store
    token = bearer(request)
    role = await store.role(match_id, token) if token else None
    account = await account_of(request) if role is None else None
    if account is not None:
        role = next((seat for seat, owner in (await store.accounts_of(match_id)).items() if owner == account.id), None)
    return role


async def asker(request: Request) -> Asker | Response:
    """The request's match and who asks, if he may read it: anyone a match that is not private
    (``watchable``), only its players and spectators a private one. Anyone else gets the 404 of
    a match that does not exist: a private match's id tells a stranger nothing."""
    match_id = request.path_params["match_id"]
    found = await context_of(request).store.settings_of(match_id) if MATCH_ID.fullmatch(match_id) else None
    role = await role_of(request, match_id) if found is not None else None
    if found is None or (role is None and not watchable(found[0])):
        return error("no such match", 404)
    return Asker(match_id, role, *found)


async def dice(request: Request) -> Response:
    record = await stored(request, MatchService.dice_record)
    return record if isinstance(record, Response) else JSONResponse(record, headers=UNSHARED)


async def match_record(request: Request) -> Response:
    record = await stored(request, MatchService.match_record)
    return record if isinstance(record, Response) else Response(dumps(record), media_type="application/json",
                                                                headers=UNSHARED)


async def stored(request: Request, read: Callable[[MatchService, str], Awaitable[Stored | None]]) -> Stored | Response:
    """What ``read`` finds of the request's match in the database, if the asker may read it
    (``asker``), or the error to answer with."""
    asked = await asker(request)
    if isinstance(asked, Response):
        return asked
    context = context_of(request)
    try:
        found = await read(context.service, asked.match_id)
    except ActionError as exc:
        return error(exc, 500)
    finally:
        context.unwatched(asked.match_id)
    return error("no such match", 404) if found is None else found


async def analysis(request: Request) -> Response:
    """A match's review: stored, being made (its progress), or refused."""
    asked = await asker(request)
    if isinstance(asked, Response):
        return asked
    context = context_of(request)
    try:
        status, answer = await context.reviewer.review(asked.match_id, asked.role)
    except ActionError as exc:
        return error(exc, 500)
    finally:
        context.unwatched(asked.match_id)
    if isinstance(answer, str):  # the stored review, with who asks (a page draws it from his side)
        body = joined(answer.encode(), orjson.dumps({"you": asked.role or "spectator"}))
        return Response(body, media_type="application/json", headers={"Cache-Control": "no-cache"})
    if status == 404:
        return error("no such match", 404)
    return JSONResponse(answer, status_code=status, headers={"Cache-Control": "no-cache"})


async def make_public(request: Request) -> Response:
    """``POST /api/matches/{id}/public``: a player of a private match opens it to everyone once it
    is over (kept in its settings; it stays open)."""
    asked = await asker(request)
    if isinstance(asked, Response):
        return asked
    if asked.role not in SEATS:
        return error("only its players may make a match public", 403)
    if not watchable(asked.settings):
        if not asked.over:
            return error("a private match is made public once it is over", 409)
        await context_of(request).store.add_settings(asked.match_id, {"public": True})
    return JSONResponse({"match": asked.match_id, "public": True}, headers={"Cache-Control": "no-store"})


async def review_file(request: Request) -> Response:
    """The review of an uploaded match file."""
    context = context_of(request)
    client = client_of(request)
    raw = await read_body(request, MAX_FILE_BYTES, context.options.request_seconds)
    if isinstance(raw, Response):
        return raw
    if not context.file_reviews.allow(client):
        return error(Reason("at most {count} match files a minute: try again soon",
                            count=context.options.file_reviews_per_minute), 429)
    try:  # reading a record replays and checks every play: off the event loop
        record = await asyncio.to_thread(read_match_file, raw)
    except (ValueError, RecursionError) as exc:
        context.file_reviews.refund(client)  # only files reviewed count
        return error(exc if isinstance(exc, ValueError) else "the file is malformed", 400)
    if context.files_waiting >= limits.FILE_REVIEWS_WAITING:
        context.file_reviews.refund(client)
        return error("the server is busy reviewing other files: try again in a minute", 503)
    context.files_waiting += 1
    try:
        text = await context.reviewer.review_file(record)
    finally:
        context.files_waiting -= 1
    body = joined(text.encode(), orjson.dumps({"you": "spectator"}))
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})


POSITION_NUMBERS = (
    ("depth", "1", Reason("the depth is 0, 1 or 2 plies")),
    ("length", "0", Reason("the match length is a number of points (0: points per game)")),
    ("white", "0", Reason("White's score is a number of points")),
    ("black", "0", Reason("Black's score is a number of points")),
)
"""The numbers ``GET /api/position`` reads: name, default, and what a value that is not one says."""


async def position_analysis(request: Request) -> Response:
    """Every legal play of a roll in a position, ranked (``position_json``)."""
    context = context_of(request)
    query = request.query_params
    numbers = {}
    for name, default, what in POSITION_NUMBERS:
        try:
            numbers[name] = int(query.get(name, default) or default)
        except ValueError:
            return error(what, 400)
    client = client_of(request)
    if not context.analyses.allow(client):
        return error(Reason("at most {count} analyses a minute: try again soon",
                            count=context.options.analyses_per_minute), 429)
    try:
        async with context.analysing:  # the search runs off the event loop, a core at a time
            answer = await asyncio.to_thread(position_json, query.get("position", ""), query.get("dice", ""),
                                             order=query.get("order", "tavli"), **numbers)
    except PositionAnalysisError as exc:
        context.analyses.refund(client)  # only what was analysed counts
        return error(exc, 400)
    return JSONResponse(answer, headers={"Cache-Control": "public, max-age=86400"})


def from_opening_tables(build: Callable[..., dict[str, Any]]) -> Callable[[Request], Awaitable[Response]]:
    """A route that answers ``build(**path parameters)`` from the opening tables, or a 404
    saying why not (an unknown game or roll)."""
    async def answer(request: Request) -> Response:
        try:  # the first call of each reads the tables and builds the boards: off the event loop
            found = await asyncio.to_thread(build, **request.path_params)
        except OpeningsError as exc:
            return error(exc, 404)
        return JSONResponse(found, headers={"Cache-Control": "public, max-age=3600"})
    return answer


ROUTES: list[BaseRoute] = [
    Route("/api/review", review_file, methods=["POST"]),
    Route("/api/openings/{game}", from_opening_tables(openings_json)),
    Route("/api/openings/{game}/{roll}", from_opening_tables(roll_json)),
    Route("/api/openings/{game}/{roll}/practice", from_opening_tables(practice_json)),
    Route("/api/position", position_analysis),
    Route("/healthz", health),
    Route("/api/levels", levels),
    Route("/api/matches", new_match, methods=["POST"]),
    Route("/api/open", open_matches),
    Route("/api/watch", watch),
    Route("/api/open/{match_id}", take_open_seat, methods=["POST"]),
    Route("/api/matches/{match_id}/dice", dice),
    Route("/api/matches/{match_id}/record", match_record),
    Route("/api/matches/{match_id}/analysis", analysis),
    Route("/api/matches/{match_id}/public", make_public, methods=["POST"]),
]
