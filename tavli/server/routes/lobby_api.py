"""The lobby's routes (docs/cafe.md, "Lobby", "Challenges"): the seeks listed, posted, cancelled
and accepted, "play now", and the challenges sent, accepted, declined and cancelled; the lobby
WebSocket (``/ws/lobby``) is ``tavli.server.routes.lobby_socket``. The rules are
``tavli.server.cafe.lobby``'s; a guest is known by a cookie that these routes give him."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tavli.server.cafe.lobby import (
    GUEST_COOKIE,
    ChallengeRefused,
    NoSuchPlayer,
    NotYourSeek,
    Person,
    SeekError,
    SeekGone,
    TooManySeeks,
)
from tavli.server.play.seats import MatchRequestError, player_name
from tavli.server.routes.account_api import account_of
from tavli.server.routes.context import context_of
from tavli.server.routes.json_api import too_many_matches
from tavli.server.routes.limits import client_of, json_body
from tavli.server.routes.responses import error

GUEST_SECONDS = 365 * 86400


async def person_of(where: HTTPConnection, name: object = None) -> tuple[Person, str | None]:
    """Who asks: his account, or his guest cookie (a new one if he has none: the second value,
    for the answer to set)."""
    guest = where.cookies.get(GUEST_COOKIE)
    new = None if guest else secrets.token_urlsafe(18)
    try:
        given = player_name(name)
    except MatchRequestError:
        given = None
    person = Person.of(await account_of(where), guest or new, given)
    assert person is not None
    return person, new


def answer(body: Any, status: int, request: Request, new_guest: str | None) -> Response:
    response = JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})
    if new_guest is not None:
        response.set_cookie(GUEST_COOKIE, new_guest, max_age=GUEST_SECONDS, httponly=True, samesite="lax",
                            secure=request.url.scheme == "https", path="/")
    return response


async def list_seeks(request: Request) -> Response:
    lobby = context_of(request).lobby
    person, new = await person_of(request)
    return answer({"seeks": await lobby.listed(person.key)} | lobby.counts | {"players": lobby.players},
                  200, request, new)


async def body_of(request: Request) -> Any:
    return await json_body(request, context_of(request).options.request_seconds)


async def post_seek(request: Request) -> Response:
    body = await body_of(request)
    if isinstance(body, Response):
        return body
    person, new = await person_of(request, body.get("name") if isinstance(body, dict) else None)
    try:
        seek = await context_of(request).lobby.post(person, body, address=client_of(request))
    except (SeekError, ValueError) as exc:
        return error(exc, 429 if isinstance(exc, TooManySeeks) else 400)
    return answer(seek, 201, request, new)


async def cancel_seek(request: Request) -> Response:
    return await withdraw(request, context_of(request).lobby.cancel)


async def withdraw(request: Request, act: Callable[[Person, str], Awaitable[None]]) -> Response:
    """A seek or challenge of the path taken back by its owner (or declined by the one challenged):
    204, or why not."""
    person, _ = await person_of(request)
    try:
        await act(person, request.path_params["seek_id"])
    except SeekGone as exc:
        return error(exc, 404)
    except NotYourSeek as exc:
        return error(exc, 403)
    return Response(status_code=204)


async def accept_seek(request: Request) -> Response:
    context = context_of(request)
    body = await body_of(request)
    if isinstance(body, Response):
        return body
    if not isinstance(body, dict) or set(body) - {"name"}:
        return error("the request is a JSON object with at most a name", 400)
    client = client_of(request)
    if not context.creations.allow(client):  # an accepted seek makes a match
        return too_many_matches(request)
    person, new = await person_of(request, body.get("name"))
    try:
        seat = await context.lobby.accept(person, request.path_params["seek_id"])
    except (SeekError, SeekGone) as exc:
        context.creations.refund(client)
        return error(exc, 400 if isinstance(exc, SeekError) else 409)
    return answer(seat, 201, request, new)


async def play_now(request: Request) -> Response:
    body = await body_of(request)
    if isinstance(body, Response):
        return body
    person, new = await person_of(request, body.get("name") if isinstance(body, dict) else None)
    try:
        how, found = await context_of(request).lobby.play_now(person, body, address=client_of(request))
    except (SeekError, ValueError) as exc:
        return error(exc, 429 if isinstance(exc, TooManySeeks) else 400)
    return answer({how: found}, 201 if how == "paired" else 202, request, new)


async def post_challenge(request: Request) -> Response:
    body = await body_of(request)
    if isinstance(body, Response):
        return body
    person, new = await person_of(request)
    try:
        sent = await context_of(request).lobby.challenge(person, body)
    except (SeekError, ValueError) as exc:
        statuses: dict[type[Exception], int] = {TooManySeeks: 429, NoSuchPlayer: 404, ChallengeRefused: 409}
        return error(exc, statuses.get(type(exc), 400))
    return answer(sent, 201, request, new)


async def decline_challenge(request: Request) -> Response:
    return await withdraw(request, context_of(request).lobby.decline)


async def list_challenges(request: Request) -> Response:
    person, new = await person_of(request)
    return answer({"challenges": await context_of(request).lobby.challenges_of(person.key)}, 200, request, new)


ROUTES: list[BaseRoute] = [
    Route("/api/seeks", list_seeks),
    Route("/api/seeks", post_seek, methods=["POST"]),
    Route("/api/seeks/{seek_id}", cancel_seek, methods=["DELETE"]),
    Route("/api/seeks/{seek_id}/accept", accept_seek, methods=["POST"]),
    Route("/api/play", play_now, methods=["POST"]),
    Route("/api/challenges", list_challenges),
    Route("/api/challenges", post_challenge, methods=["POST"]),
    Route("/api/challenges/{seek_id}", cancel_seek, methods=["DELETE"]),
    Route("/api/challenges/{seek_id}/accept", accept_seek, methods=["POST"]),
    Route("/api/challenges/{seek_id}/decline", decline_challenge, methods=["POST"]),
]
