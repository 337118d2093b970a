"""The accounts' JSON API (docs/cafe.md, "Accounts"): signing up, logging in and out, changing the
password, deleting the account, keeping a guest's matches and listing them, and the players' pages
and the leaderboards. Each handler is short: the rules are ``tavli.server.cafe.accounts``'."""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tavli.errors import Reason
from tavli.server.cafe.accounts import (
    COOKIE,
    SESSION_SECONDS,
    Account,
    AccountError,
    LoginRefused,
    NameTaken,
    TooManyLogins,
)
from tavli.server.cafe.players import MOST_HELD, OTHER, held_json, held_seats, leaderboard_json, profile_json
from tavli.server.play.seats import MATCH_ID, POOLS, ActionError, seat_name
from tavli.server.routes.context import context_of
from tavli.server.routes.limits import MAX_REQUEST_BYTES, client_of, json_body
from tavli.server.routes.responses import error

MOST_KEPT = 200
"""The most guest matches a sign-up or login may keep in one request."""
HELD_BYTES = MOST_HELD * 256
"""The largest ``POST /api/matches/held``: ``MOST_HELD`` seats of the longest tokens a seat has."""
CREDENTIALS_BYTES = MAX_REQUEST_BYTES + MOST_KEPT * 256
"""The largest login or sign-up: a name and a password, and ``MOST_KEPT`` guest seats to keep."""


async def account_of(where: HTTPConnection) -> Account | None:
    """The account logged in on this request or WebSocket (its session cookie), if any."""
    return await context_of(where).accounts.session(where.cookies.get(COOKIE))


def with_session(response: Response, request: Request, secret: str) -> Response:
    """``response`` setting the session cookie: HttpOnly, SameSite=Lax, Secure over HTTPS."""
    response.set_cookie(COOKIE, secret, max_age=int(SESSION_SECONDS), httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", path="/")
    return response


def without_session(response: Response, request: Request) -> Response:
    response.delete_cookie(COOKIE, httponly=True, samesite="lax", secure=request.url.scheme == "https", path="/")
    return response


async def credentials(request: Request, *fields: str) -> dict[str, Any] | Response:
    """The request's JSON object with the ``fields`` it must have (and maybe ``matches``)."""
    body = await json_body(request, context_of(request).options.request_seconds, CREDENTIALS_BYTES)
    if isinstance(body, Response):
        return body
    if not isinstance(body, dict) or set(body) - {*fields, "matches"} or not set(fields) <= set(body):
        return error(Reason("the request is a JSON object with {fields}", fields=", ".join(fields)), 400)
    return body


async def sign_up(request: Request) -> Response:
    body = await credentials(request, "name", "password")
    if isinstance(body, Response):
        return body
    context = context_of(request)
    client = client_of(request)
    if not context.sign_ups.allow(client):
        return error(Reason("at most {count} new accounts an hour from one address", count=context.sign_ups.limit),
                     429)
    try:
        account = await context.accounts.create(body["name"], body["password"])
    except NameTaken as exc:
        return error(exc, 409)
    except AccountError as exc:
        context.sign_ups.refund(client)
        return error(exc, 400)
    return await logged_in(request, account, body.get("matches"), 201)


async def log_in(request: Request) -> Response:
    body = await credentials(request, "name", "password")
    if isinstance(body, Response):
        return body
    try:
        account = await context_of(request).accounts.verify(body["name"], body["password"], client_of(request))
    except TooManyLogins as exc:
        return too_many(exc)
    except LoginRefused as exc:
        return error(exc, 401)
    return await logged_in(request, account, body.get("matches"), 200)


async def logged_in(request: Request, account: Account, kept: object, status: int) -> Response:
    """The answer to a login or sign-up: a new session, and the guest matches the page held kept."""
    context = context_of(request)
    old = request.cookies.get(COOKIE)
    if old:  # a new session id at every login: a session fixed before it is worth nothing after
        await context.accounts.end_session(old)
    secret = await context.accounts.start_session(account)
    count = await keep_matches(request, account, kept)
    return with_session(JSONResponse({"name": account.name, "kept": count}, status_code=status), request, secret)


async def keep_matches(request: Request, account: Account, kept: object) -> int:
    """Give the account the seats a guest's page holds tokens of (``[{"match", "token"}]``): those
    of matches whose seat has no account yet. How many it took."""
    if not isinstance(kept, list):
        return 0
    context = context_of(request)
    count = 0
    for item in kept[:MOST_KEPT]:
        match_id, token = (item.get("match"), item.get("token")) if isinstance(item, dict) else (None, None)
        if not isinstance(match_id, str) or not isinstance(token, str):
            continue
        role = await context.store.role(match_id, token) if MATCH_ID.fullmatch(match_id) and len(token) <= 128 else None
        if role in ("white", "black"):
            owners = await context.store.accounts_of(match_id)
            if role not in owners and account.id not in owners.values():
                count += await context.store.bind_seat(match_id, role, account.id) == account.id
    return count


async def log_out(request: Request) -> Response:
    secret = request.cookies.get(COOKIE)
    if secret:
        await context_of(request).accounts.end_session(secret)
    return without_session(JSONResponse({"name": None}), request)


async def who(request: Request) -> Response:
    """``GET /api/session``: who is logged in here (``{"name": null}`` for a guest), and whether he
    is one of the café's moderators."""
    account = await account_of(request)
    return JSONResponse({"name": None if account is None else account.name,
                         "moderator": account is not None and account.moderator}, headers={"Cache-Control": "no-store"})


async def keep_guest_matches(request: Request) -> Response:
    """``POST /api/account/matches``: keep the matches a guest's page held, once logged in."""
    account = await account_of(request)
    if account is None:
        return error("log in first", 401)
    body = await credentials(request)
    if isinstance(body, Response):
        return body
    return JSONResponse({"kept": await keep_matches(request, account, body.get("matches"))})


async def held_matches(request: Request) -> Response:
    """``POST /api/matches/held`` ``{"matches": [{"match", "token"}]}``: the newest of the matches
    whose seats a browser holds (a guest's "My matches"), each as a player's page lists it."""
    context = context_of(request)
    # a browser may hold many seats: room for as many as are looked at, each seat's token and id
    body = await json_body(request, context.options.request_seconds, HELD_BYTES)
    if isinstance(body, Response):
        return body
    if not isinstance(body, dict) or set(body) != {"matches"}:
        return error(Reason("the request is a JSON object with {fields}", fields="matches"), 400)
    listed = await held_json(context.store.engine, await held_seats(context.store.engine, body["matches"]))
    for item in listed:
        if item["result"] == "playing":
            item["score"] = await score_now(request, item["id"], item["seat"])
    return JSONResponse({"matches": listed}, headers={"Cache-Control": "no-store"})


async def score_now(request: Request, match_id: str, seat: str) -> dict[str, int] | None:
    """The score of a match in play, from ``seat``'s side: its replay's (the results keep only a
    finished match's); None if it cannot be replayed."""
    context = context_of(request)
    try:
        live = await context.service.get(match_id)
    except ActionError:
        return None
    finally:
        context.unwatched(match_id)
    if live is None:
        return None
    score = {seat_name(color): points for color, points in live.match.score.items()}
    return {"player": score[seat], "opponent": score[OTHER[seat]]}


async def change_password(request: Request) -> Response:
    body = await credentials(request, "password", "new_password")
    if isinstance(body, Response):
        return body
    checked = await checked_again(request, body["password"])
    if isinstance(checked, Response):
        return checked
    context = context_of(request)
    try:
        await context.accounts.set_password(checked.id, body["new_password"])
    except AccountError as exc:
        return error(exc, 400)
    secret = await context.accounts.start_session(checked)  # every other session ended with the old password
    return with_session(JSONResponse({"name": checked.name}), request, secret)


async def delete_account(request: Request) -> Response:
    body = await credentials(request, "password")
    if isinstance(body, Response):
        return body
    checked = await checked_again(request, body["password"])
    if isinstance(checked, Response):
        return checked
    await context_of(request).accounts.delete(checked.id)
    return without_session(JSONResponse({"name": None}), request)


async def checked_again(request: Request, password: object) -> Account | Response:
    """The logged-in account, once its password is given again (for what cannot be undone)."""
    account = await account_of(request)
    if account is None:
        return error("log in first", 401)
    try:
        return await context_of(request).accounts.verify(account.name, password, client_of(request))
    except TooManyLogins as exc:
        return too_many(exc)
    except LoginRefused as exc:
        return error(exc, 401)


def too_many(refused: TooManyLogins) -> Response:
    """429 for a password tried too soon: the wait in words and in ``Retry-After`` (seconds)."""
    answer = error(refused, 429)
    answer.headers["Retry-After"] = str(refused.wait)
    return answer


async def player(request: Request) -> Response:
    """``GET /api/players/{name}``: a player's page's data, his tournaments with it."""
    context = context_of(request)
    # any text, not only a name today's rules allow: an account made before them is found too
    found = await context.accounts.find(request.path_params["name"])
    if found is None or found.deleted:
        return error("no such player", 404)
    await context.settled()  # a match that ended here a moment ago is listed, with its rating
    shown = await profile_json(context.store.engine, found, await account_of(request))
    shown["tournaments"] = await context.tournaments.of_player(found.id)
    # what it lists depends on who asks (a private match only to its players): no shared cache keeps it
    return JSONResponse(shown, headers={"Cache-Control": "private, no-cache"})


async def leaderboard(request: Request) -> Response:
    pool = request.query_params.get("pool", "tavli")
    if pool not in POOLS:
        return error(Reason("the pools are {pools}", pools=", ".join(POOLS)), 400)
    context = context_of(request)
    await context.settled()
    return JSONResponse(await leaderboard_json(context.store.engine, pool),
                        headers={"Cache-Control": "no-cache"})


ROUTES: list[BaseRoute] = [
    Route("/api/accounts", sign_up, methods=["POST"]),
    Route("/api/session", log_in, methods=["POST"]),
    Route("/api/session", log_out, methods=["DELETE"]),
    Route("/api/session", who, methods=["GET"]),
    Route("/api/account/matches", keep_guest_matches, methods=["POST"]),
    Route("/api/matches/held", held_matches, methods=["POST"]),
    Route("/api/account/password", change_password, methods=["POST"]),
    Route("/api/account", delete_account, methods=["DELETE"]),
    Route("/api/players/{name}", player),
    Route("/api/leaderboard", leaderboard),
]
