"""The web app's pages, and the scripts made from the library for them: ``/static/reasons.js``
(the Greek words of every reason) and ``/static/games.js`` (the games' names,
``tavli.variants.GAMES``, the clocks' presets, ``tavli.server.play.clocks.PRESETS``, and the chat's
quick phrases, reasons to report a player and longest line, ``tavli.server.cafe.chat``)."""

from __future__ import annotations

import hashlib
import time

import orjson
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route, Router
from starlette.staticfiles import StaticFiles

from tavli.errors import translations
from tavli.server.cafe.chat import MAX_LINE, MAX_NOTE, PHRASES, REPORT_REASONS
from tavli.server.cafe.watchlist import worth_watching
from tavli.server.play.clocks import PRESETS
from tavli.server.routes.context import context_of
from tavli.server.routes.responses import STATIC, error, static_page
from tavli.variants import GAMES

REASONS_SCRIPT = b"export const REASONS_EL = " + orjson.dumps(dict(translations("el"))) + b";\n"
"""The Greek words of every reason, as the pages import them (``static/strings.js``)."""
REASONS_TAG = '"' + hashlib.sha256(REASONS_SCRIPT).hexdigest()[:16] + '"'

GAMES_SCRIPT = (b"export const GAMES = " + orjson.dumps(list(GAMES)) + b";\n"
                + b"export const CLOCK_PRESETS = " + orjson.dumps(PRESETS) + b";\n"
                + b"export const CHAT = " + orjson.dumps({"phrases": PHRASES, "reasons": REPORT_REASONS,
                                                         "line": MAX_LINE, "note": MAX_NOTE}) + b";\n")
"""The games' names in the order a Tavli match plays them, the café's clocks by name (delay,
reserve), and the chat's quick phrases (by key), the reasons to report a player and the longest
line and note, as the pages import them."""
GAMES_TAG = '"' + hashlib.sha256(GAMES_SCRIPT).hexdigest()[:16] + '"'


def script(request: Request, body: bytes, tag: str) -> Response:
    """A script made from the library's tables, so the pages and the library say the same;
    revalidated like the other files (an unchanged one answers 304)."""
    headers = {"Cache-Control": "no-cache", "ETag": tag}
    asked = {t.strip().removeprefix("W/") for t in request.headers.get("if-none-match", "").split(",")}
    if tag in asked or "*" in asked:  # a proxy may have weakened the tag
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="text/javascript", headers=headers)


async def reasons_script(request: Request) -> Response:
    """``/static/reasons.js``: the Greek words of the library's reasons."""
    return script(request, REASONS_SCRIPT, REASONS_TAG)


async def games_script(request: Request) -> Response:
    """``/static/games.js``: the games' names."""
    return script(request, GAMES_SCRIPT, GAMES_TAG)


async def page(request: Request) -> Response:
    """The start page, or a match's board."""
    return static_page("board.html" if "match_id" in request.path_params else "home.html")


async def review_page(request: Request) -> Response:
    return static_page("review.html")


async def openings_page(request: Request) -> Response:
    return static_page("openings.html")


async def practice_page(request: Request) -> Response:
    return static_page("practice.html")


async def position_page(request: Request) -> Response:
    return static_page("position.html")


async def rules_page(request: Request) -> Response:
    return static_page("rules.html")


async def tv_page(request: Request) -> Response:
    """Tavli TV: the match in play most worth watching, watched (its board follows ``/tv`` again
    when it ends); the start page's list of matches to watch when none is played."""
    top = await worth_watching(context_of(request).store.engine, time.time(), 1)
    return RedirectResponse(f"/match/{top[0]['match']}?tv" if top else "/#watch", status_code=303,
                            headers={"Cache-Control": "no-store"})


async def moderation_page(request: Request) -> Response:
    """The moderators' page: its script reads ``/api/moderation``, which answers moderators alone."""
    return static_page("moderation.html")


async def tournaments_page(request: Request) -> Response:
    """The tournaments taking players, being played and just finished, and the form that creates one
    (its script reads ``/api/tournaments``)."""
    return static_page("tournaments.html")


async def tournament_page(request: Request) -> Response:
    """``/tournaments/{tournament_id}``: a tournament's page; its script reads the id from the address
    and follows ``/ws/tournament/ID``."""
    return static_page("tournament.html")


async def not_found(request: Request, exc: Exception) -> Response:
    """An unknown address: a page in the player's language with the way back, except where a
    program asks (``/api/``: a JSON error as every route there answers; ``/static/``: a missing
    file, plain words)."""
    path = request.url.path
    if path.startswith("/api/"):
        return error("no such page", 404)
    if path.startswith("/static/"):
        return PlainTextResponse("Not Found", status_code=404)
    return static_page("notfound.html", 404)


async def account_page(request: Request) -> Response:
    """Change the password or delete the account (the page asks ``/api/session`` who is here)."""
    return static_page("account.html")


async def player_page(request: Request) -> Response:
    """``/@/{name}``: a player's page; its script reads the name from the address."""
    return static_page("profile.html")


async def leaderboard_page(request: Request) -> Response:
    return static_page("leaderboard.html")


ROUTES: list[BaseRoute] = [
    Route("/", page),
    Route("/match/{match_id}", page),
    Route("/match/{match_id}/review", review_page),
    Route("/review", review_page),
    Route("/openings", openings_page),
    Route("/practice", practice_page),
    Route("/position", position_page),
    Route("/rules", rules_page),
    Route("/account", account_page),
    Route("/@/{name}", player_page),
    Route("/leaderboard", leaderboard_page),
    Route("/tv", tv_page),
    Route("/moderation", moderation_page),
    Route("/tournaments", tournaments_page),
    Route("/tournaments/{tournament_id}", tournament_page),
    # the pages' files compressed (their words in two languages are most of what a page loads)
    Mount("/static", GZipMiddleware(Router([
        Route("/reasons.js", reasons_script),
        Route("/games.js", games_script),
        Mount("/", StaticFiles(directory=STATIC, check_dir=False)),
    ])), name="static"),
]
"""The pages' routes (the Mount last: it takes every ``/static`` path)."""
