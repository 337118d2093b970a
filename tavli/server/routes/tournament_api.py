"""The tournaments' routes (docs/tournaments.md, "The API"): ``GET /api/tournaments`` and
``/api/tournaments/ID`` (and its ``/record``) for anyone; the requests of a signed-in player (create,
join, withdraw) and of the organiser (start, cancel, remove a player), and an arena's pause. The rules
are ``tavli.server.cafe.tournaments``'s; a page of another site is refused as every POST is
(``tavli.server.routes.cross_site``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tavli.server.cafe.accounts import Account
from tavli.server.cafe.tournaments import NoSuchTournament, NotOrganiser, TournamentClosed, TournamentError
from tavli.server.routes.account_api import account_of
from tavli.server.routes.context import context_of
from tavli.server.routes.limits import json_body
from tavli.server.routes.responses import error

STATUS: list[tuple[type[Exception], int]] = [(NoSuchTournament, 404), (NotOrganiser, 403), (TournamentClosed, 409),
                                             (TournamentError, 400)]
"""Each refusal's HTTP status, the first that fits."""
NO_STORE = {"Cache-Control": "no-store"}

PlayerAct = Callable[[Account, str, object], Awaitable[dict[str, Any]]]
"""A signed-in player's request: his account, the tournament's id and the body, to the tournament shown."""


async def listed(request: Request) -> Response:
    return JSONResponse({"tournaments": await context_of(request).tournaments.listed()}, headers=NO_STORE)


async def one(request: Request) -> Response:
    try:
        shown = await context_of(request).tournaments.view(request.path_params["tournament"])
    except TournamentError as exc:
        return error(exc, 404)
    return JSONResponse(shown, headers=NO_STORE)


async def record(request: Request) -> Response:
    """The tournament's record, as a download: every pairing with its why and result."""
    tournament_id = request.path_params["tournament"]
    try:
        shown = await context_of(request).tournaments.view(tournament_id)
    except TournamentError as exc:
        return error(exc, 404)
    return JSONResponse(shown, headers=NO_STORE | {
        "Content-Disposition": f'attachment; filename="tournament-{tournament_id}.json"'})


async def signed_in(request: Request, act: PlayerAct, status: int = 200) -> Response:
    """Carry out a signed-in player's request ``act(account, tournament id, body)``."""
    context = context_of(request)
    account = await account_of(request)
    if account is None:
        return error("log in to take part in tournaments", 401)
    body = await json_body(request, context.options.request_seconds)  # an empty body reads as {}
    if isinstance(body, Response):
        return body
    try:
        shown = await act(account, request.path_params.get("tournament", ""), body)
    except TournamentError as exc:
        return error(exc, next(code for kind, code in STATUS if isinstance(exc, kind)))
    return JSONResponse(shown, status_code=status, headers=NO_STORE)


async def create(request: Request) -> Response:
    tournaments = context_of(request).tournaments
    return await signed_in(request, lambda account, _, body: tournaments.create(account, body), 201)


async def join(request: Request) -> Response:
    tournaments = context_of(request).tournaments
    act = tournaments.withdraw if request.method == "DELETE" else tournaments.join
    return await signed_in(request, lambda account, tournament_id, _: act(account, tournament_id))


async def start(request: Request) -> Response:
    tournaments = context_of(request).tournaments
    return await signed_in(request, lambda account, tournament_id, _: tournaments.start(account, tournament_id))


async def cancel(request: Request) -> Response:
    tournaments = context_of(request).tournaments
    return await signed_in(request, lambda account, tournament_id, _: tournaments.cancel(account, tournament_id))


async def remove(request: Request) -> Response:
    tournaments = context_of(request).tournaments
    return await signed_in(request, tournaments.remove)


async def pause(request: Request) -> Response:
    tournaments = context_of(request).tournaments
    return await signed_in(request, tournaments.pause)


ROUTES: list[BaseRoute] = [
    Route("/api/tournaments", listed, methods=["GET"]),
    Route("/api/tournaments", create, methods=["POST"]),
    Route("/api/tournaments/{tournament}", one),
    Route("/api/tournaments/{tournament}/record", record),
    Route("/api/tournaments/{tournament}/join", join, methods=["POST", "DELETE"]),
    Route("/api/tournaments/{tournament}/start", start, methods=["POST"]),
    Route("/api/tournaments/{tournament}/cancel", cancel, methods=["POST"]),
    Route("/api/tournaments/{tournament}/remove", remove, methods=["POST"]),
    Route("/api/tournaments/{tournament}/pause", pause, methods=["POST"]),
]
