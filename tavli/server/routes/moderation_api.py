"""The moderators' routes (docs/cafe.md, "Moderators"; docs/web.md): ``GET /api/moderation``, the
open reports with their chat and the log, and ``POST /api/moderation/actions``, an action on a
player or a report, for the café's moderators alone; and ``POST /api/notices/{id}/seen``, a player
saying he has read a moderator's notice. The rules are ``tavli.server.cafe.moderation``'s; a page of
another site is refused as every POST is (``tavli.server.routes.cross_site``)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tavli.server.cafe.accounts import AccountError, NameTaken
from tavli.server.cafe.moderation import ModerationError, NothingThere, NotModerator
from tavli.server.routes.account_api import account_of
from tavli.server.routes.context import context_of
from tavli.server.routes.limits import json_body
from tavli.server.routes.responses import error

STATUS: list[tuple[type[Exception], int]] = [(NotModerator, 403), (NothingThere, 404), (NameTaken, 409),
                                             (ModerationError, 400), (AccountError, 400)]
"""Each refusal's HTTP status, the first that fits."""


def refused(exc: ModerationError | AccountError) -> Response:
    return error(exc, next(status for kind, status in STATUS if isinstance(exc, kind)))


async def overview(request: Request) -> Response:
    try:
        shown = await context_of(request).moderation.overview(await account_of(request))
    except ModerationError as exc:
        return refused(exc)
    return JSONResponse(shown, headers={"Cache-Control": "no-store"})


async def act(request: Request) -> Response:
    context = context_of(request)
    body = await json_body(request, context.options.request_seconds)
    if isinstance(body, Response):
        return body
    try:
        action_id = await context.moderation.act(await account_of(request), body)
    except (ModerationError, AccountError) as exc:
        return refused(exc)
    return JSONResponse({"action": action_id})


async def notice_seen(request: Request) -> Response:
    try:
        await context_of(request).moderation.read(await account_of(request), request.path_params["notice"])
    except ModerationError as exc:
        return refused(exc)
    return Response(status_code=204)


ROUTES: list[BaseRoute] = [
    Route("/api/moderation", overview),
    Route("/api/moderation/actions", act, methods=["POST"]),
    Route("/api/notices/{notice:int}/seen", notice_seen, methods=["POST"]),
]
