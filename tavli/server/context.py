"""What the web app's handlers share (``AppContext``, on ``app.state.context``): the settings the
app was made with, the matches, the open WebSockets, the reviews, and the limits' counts."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

from starlette.applications import Starlette
from starlette.requests import HTTPConnection

from tavli.server.accounts import Accounts
from tavli.server.hub import Hub
from tavli.server.limits import ANALYSES_AT_ONCE, RateLimiter
from tavli.server.lobby import Lobby
from tavli.server.results import Results
from tavli.server.review import Reviewer
from tavli.server.service import MatchService
from tavli.server.store import Store

SIGN_UPS_PER_HOUR = 10
"""New accounts an address may make in an hour."""
POLL_SECONDS = 2.0
"""How often a server process looks for the actions other processes stored, by default."""


@dataclass(frozen=True)
class AppOptions:
    """The settings of ``create_app`` the handlers read (see its docstring)."""

    # no defaults here: create_app's signature is the one place that gives them
    matches_per_minute: int
    analyses_per_minute: int
    file_reviews_per_minute: int
    messages_per_second: float
    message_burst: float
    connections_per_address: int
    seeks_per_address: int
    """Lobby seeks listed at once from one client address (``Lobby.post``)."""
    hello_seconds: float
    request_seconds: float
    origins: frozenset[str]
    """The web origins besides the server's own whose pages may open WebSockets."""
    poll_seconds: float


@dataclass(eq=False)
class AppContext:
    """The app's shared state: one per app, made by ``create_app``."""

    options: AppOptions
    store: Store
    service: MatchService
    hub: Hub
    reviewer: Reviewer
    creations: RateLimiter
    """New matches (and open seats taken) per client address."""
    analyses: RateLimiter
    """Positions analysed per client address."""
    file_reviews: RateLimiter
    """Match files reviewed per client address."""
    accounts: Accounts
    results: Results
    sign_ups: RateLimiter
    """New accounts per client address."""
    lobby: Lobby
    analysing: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(ANALYSES_AT_ONCE))
    files_waiting: int = 0
    """Uploaded reviews waiting or being made now."""
    sessions: set[asyncio.Task[Any]] = field(default_factory=set)
    """The WebSocket sessions open (and those recording their leaving)."""
    open_per_address: Counter[str] = field(default_factory=Counter)
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the app stops: the background jobs end."""

    @classmethod
    def build(cls, database: str, options: AppOptions, *, claim_after: float, bot_delay: float, bot_workers: int,
              review_depth: int) -> AppContext:
        store = Store(database)
        service = MatchService(store, claim_after=claim_after, bot_delay=bot_delay, bot_workers=bot_workers)
        reviewer = Reviewer(service, review_depth)
        # a finished match with accounts is reviewed at once: its players' pages show their error rates
        results = Results(store.engine, on_finished=lambda match_id: reviewer.review(match_id, None))
        service.listeners.append(results.on_action)
        accounts = Accounts(store.engine)
        return cls(options, store, service, Hub(service), reviewer,
                   creations=RateLimiter(options.matches_per_minute, 60.0),
                   analyses=RateLimiter(options.analyses_per_minute, 60.0),
                   file_reviews=RateLimiter(options.file_reviews_per_minute, 60.0),
                   accounts=accounts, results=results,
                   sign_ups=RateLimiter(SIGN_UPS_PER_HOUR, 3600.0),
                   lobby=Lobby(store, service, accounts, options.seeks_per_address))

    def unwatched(self, match_id: str) -> None:
        """Keep no replay of a match nobody here watches: another process may move it on, and
        only the matches watched here hear of that."""
        if match_id not in self.hub.rooms:
            self.service.forget(match_id)

    def keep(self, task: asyncio.Task[Any]) -> None:
        """Count ``task`` among the sessions until it ends (the app waits for them as it stops)."""
        self.sessions.add(task)
        task.add_done_callback(self.sessions.discard)


def context_of(where: Starlette | HTTPConnection) -> AppContext:
    """The context of an app, or of the app that serves a request or a WebSocket."""
    app = where.app if isinstance(where, HTTPConnection) else where
    return cast(AppContext, app.state.context)
