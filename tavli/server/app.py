"""The ASGI app: pages, the JSON API and the WebSocket protocol (docs/web.md).

``create_app`` wires the parts together: it makes the server's parts (``make_context``: the
database, the matches, the open WebSockets, the reviews, the café) and hands them to the routes
(``tavli.server.routes``: the pages, the JSON API, the WebSockets of a match and of the lobby),
which read them through ``tavli.server.routes.context``; the start, stop and background jobs are
``tavli.server.lifespan``'s.

>>> from starlette.testclient import TestClient
>>> with TestClient(create_app("sqlite://")) as client:
...     client.get("/healthz").json()
{'ok': True}
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from starlette.applications import Starlette
from starlette.middleware import Middleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from tavli.server.cafe.accounts import Accounts
from tavli.server.cafe.lobby import SEEKS_PER_ADDRESS, Lobby
from tavli.server.cafe.moderation import Moderation
from tavli.server.cafe.results import Results
from tavli.server.cafe.tournaments import Tournaments
from tavli.server.coach.review import REVIEW_DEPTH, Reviewer
from tavli.server.lifespan import lifespan
from tavli.server.play.live import LiveMatch
from tavli.server.play.service import MatchService
from tavli.server.realtime.hub import Hub
from tavli.server.realtime.protocol import MESSAGE_BURST, MESSAGES_PER_SECOND
from tavli.server.realtime.table_talk import TableTalk
from tavli.server.routes import (
    account_api,
    json_api,
    lobby_api,
    lobby_socket,
    match_socket,
    moderation_api,
    pages,
    report_api,
    tournament_api,
    tournament_socket,
)
from tavli.server.routes.context import POLL_SECONDS, AppContext, AppOptions
from tavli.server.routes.cross_site import SameOriginOnly
from tavli.server.routes.limits import (
    ANALYSES_PER_MINUTE,
    CONNECTIONS_PER_ADDRESS,
    FILE_REVIEWS_PER_MINUTE,
    HELLO_SECONDS,
    MATCHES_PER_MINUTE,
    REQUEST_SECONDS,
    RateLimiter,
    check_origins,
    check_proxies,
)
from tavli.server.storage.chat_log import ChatLog
from tavli.server.storage.moderation_log import ModerationLog
from tavli.server.storage.store import Store

__all__ = ["create_app"]

SIGN_UPS_PER_HOUR = 10
"""New accounts an address may make in an hour."""
REPORTS_PER_HOUR = 30
"""Reports of players an address may make in an hour (a person may make ``json_api.REPORTS_PER_PERSON``)."""


def create_app(database: str = "sqlite:///tavli.db", *, claim_after: float = 120.0, bot_delay: float = 0.0,
               matches_per_minute: int = MATCHES_PER_MINUTE, analyses_per_minute: int = ANALYSES_PER_MINUTE,
               file_reviews_per_minute: int = FILE_REVIEWS_PER_MINUTE,
               messages_per_second: float = MESSAGES_PER_SECOND,
               message_burst: float = MESSAGE_BURST,
               connections_per_address: int = CONNECTIONS_PER_ADDRESS,
               seeks_per_address: int = SEEKS_PER_ADDRESS, hello_seconds: float = HELLO_SECONDS,
               request_seconds: float = REQUEST_SECONDS, trusted_proxies: Iterable[str] = (),
               allowed_origins: Iterable[str] = (), review_depth: int = REVIEW_DEPTH,
               poll_seconds: float = POLL_SECONDS, bot_workers: int = 0) -> Starlette:
    """The web app on ``database`` (``sqlite:///FILE``, ``sqlite://`` in memory, or ``postgresql://...``).

    ``trusted_proxies``: the addresses (or networks) whose ``X-Forwarded-For`` is believed, none by
    default. ``allowed_origins``: the web origins other than the server's own whose pages may open
    WebSockets (``https://example.com``). ``review_depth``: the plies of the reviews' analysis.
    ``poll_seconds``: how often to look for actions other server processes stored, besides
    hearing of them (PostgreSQL); 0 never. ``bot_workers``: processes that think for the bots
    (0: a thread of this process).
    """
    proxies = check_proxies(trusted_proxies)
    options = AppOptions(
        matches_per_minute=matches_per_minute, analyses_per_minute=analyses_per_minute,
        file_reviews_per_minute=file_reviews_per_minute, messages_per_second=messages_per_second,
        message_burst=message_burst, connections_per_address=connections_per_address,
        seeks_per_address=seeks_per_address,
        hello_seconds=hello_seconds, request_seconds=request_seconds, origins=check_origins(allowed_origins),
        poll_seconds=poll_seconds)
    context = make_context(database, options, claim_after=claim_after, bot_delay=bot_delay,
                           bot_workers=bot_workers, review_depth=review_depth)
    # X-Forwarded-For counts only from the proxies the operator names (uvicorn's own trust is off)
    middleware = [Middleware(ProxyHeadersMiddleware, trusted_hosts=proxies)] if proxies else []
    middleware.append(Middleware(SameOriginOnly, origins=options.origins))
    app = Starlette(routes=pages.ROUTES + json_api.ROUTES + account_api.ROUTES + lobby_api.ROUTES + report_api.ROUTES
                    + moderation_api.ROUTES + tournament_api.ROUTES
                    + lobby_socket.ROUTES + tournament_socket.ROUTES  # /ws/lobby and /ws/tournament/ before
                    + match_socket.ROUTES,  # /ws/{match_id}
                    lifespan=lifespan, middleware=middleware, exception_handlers={404: pages.not_found})
    app.state.context = context  # what the handlers share (tavli.server.routes.context.context_of)
    return app


def make_context(database: str, options: AppOptions, *, claim_after: float, bot_delay: float, bot_workers: int,
                 review_depth: int) -> AppContext:
    """The server's parts, made and joined: what ``create_app``'s routes share."""
    store = Store(database)
    service = MatchService(store, claim_after=claim_after, bot_delay=bot_delay, bot_workers=bot_workers)
    reviewer = Reviewer(service, store, review_depth)
    # a finished match with accounts is reviewed at once: its players' pages show their error rates
    results = Results(store.engine, on_finished=lambda match_id: reviewer.review(match_id, None))
    accounts = Accounts(store.engine)
    hub = Hub(service, store)
    moderation_log, talk = ModerationLog(store.engine), TableTalk(hub, ChatLog(store))
    lobby = Lobby(store, service, accounts, options.seeks_per_address, moderation_log=moderation_log)
    # a moderator's action reaches every process's chat and its matches' names
    lobby.account_listeners[:] = [talk.account_changed, service.account_renamed]
    context = AppContext(options, store, service, hub, reviewer,
                         creations=RateLimiter(options.matches_per_minute, 60.0),
                         analyses=RateLimiter(options.analyses_per_minute, 60.0),
                         file_reviews=RateLimiter(options.file_reviews_per_minute, 60.0),
                         accounts=accounts, results=results,
                         sign_ups=RateLimiter(SIGN_UPS_PER_HOUR, 3600.0),
                         lobby=lobby, talk=talk, reports=RateLimiter(REPORTS_PER_HOUR, 3600.0),
                         moderation=Moderation(accounts, talk.log, moderation_log, lobby),
                         tournaments=Tournaments(store, service, accounts, lobby))
    # The service's listeners, wired here alone, in the order each action is told to them (its
    # match's lock held):
    # 1. the hub: every connection watching the match here is sent the state. The hub puts it in
    #    each connection's outbox, which returns at once, and nothing comes before it: a match's
    #    last play reaches its players before the work of its end begins.
    # 2. the end of a match (``ended``): its result kept and rated, its review begun, in a task of
    #    its own, which neither delays the states nor holds the match's lock.
    service.listeners[:] = [context.hub.broadcast, functools.partial(ended, context)]
    return context


async def ended(context: AppContext, live: LiveMatch) -> None:
    """Once an action's state is out: a match that is over has its result kept (``conclude``),
    in the background."""
    if live.match.is_over:
        context.in_background(conclude(context, live))


async def conclude(context: AppContext, live: LiveMatch) -> None:
    """A finished match's result kept, and rated if it is rated (``Results.on_action``: once),
    its review begun; then the players of a rated match are sent the state again, which now says
    how their ratings moved."""
    if not await context.results.on_action(live):
        return
    if live.row.settings.get("tournament"):  # its tournament goes on at once (the next round, or the arena's pair)
        await context.tournaments.match_ended(live.row.id)
    if not live.row.settings.get("rated"):
        return
    current = context.service.peek(live.row.id)
    if current is not None:
        async with current.lock:  # never in the middle of another action
            await context.hub.broadcast(current)
