"""What the web app's handlers share (``AppContext``, on ``app.state.context``): the settings the
app was made with, the matches, the open WebSockets, the reviews, and the limits' counts."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, cast

from starlette.applications import Starlette
from starlette.requests import HTTPConnection

from tavli.server.cafe.accounts import Accounts
from tavli.server.cafe.lobby import Lobby
from tavli.server.cafe.moderation import Moderation
from tavli.server.cafe.results import Results
from tavli.server.cafe.tournaments import Tournaments
from tavli.server.coach.review import Reviewer
from tavli.server.play.service import MatchService
from tavli.server.realtime.hub import Hub
from tavli.server.realtime.table_talk import TableTalk
from tavli.server.routes.limits import ANALYSES_AT_ONCE, RateLimiter
from tavli.server.storage.store import Store

POLL_SECONDS = 2.0
"""How often a server process looks for the actions other processes stored, by default."""
SETTLE_SECONDS = 5.0
"""The longest a page of results waits for the finished matches' results being kept (``AppContext.settled``)."""


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
    """The app's shared state: one per app, made by ``create_app`` (``tavli.server.app.make_context``)."""

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
    talk: TableTalk
    """The matches' chat (its lines, kept in ``talk.log``)."""
    reports: RateLimiter
    """Reports of players per client address (each person's are counted in the database too)."""
    moderation: Moderation
    """The moderators' reading of the reports and their actions."""
    tournaments: Tournaments
    """The tournaments: their requests, their running and their pages' sockets."""
    analysing: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(ANALYSES_AT_ONCE))
    files_waiting: int = 0
    """Uploaded reviews waiting or being made now."""
    sessions: set[asyncio.Task[Any]] = field(default_factory=set)
    """The WebSocket sessions open (and those recording their leaving)."""
    background: set[asyncio.Task[None]] = field(default_factory=set)
    """The work the actions started once their states were out (a finished match's result)."""
    open_per_address: Counter[str] = field(default_factory=Counter)
    stopping: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the app stops: the background jobs end."""

    def unwatched(self, match_id: str) -> None:
        """Keep no replay of a match nobody here watches: another process may move it on, and
        only the matches watched here hear of that."""
        if match_id not in self.hub.rooms:
            self.service.forget(match_id)

    def in_background(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` in a task of its own (the app waits for it as it stops)."""
        task = asyncio.create_task(job)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def settled(self) -> None:
        """Wait (a few seconds at most) for the work already started in the background: a page
        asked for once a match has ended here shows its result and the ratings it moved."""
        if self.background:
            await asyncio.wait(set(self.background), timeout=SETTLE_SECONDS)

    def keep(self, task: asyncio.Task[Any]) -> None:
        """Count ``task`` among the sessions until it ends (the app waits for them as it stops)."""
        self.sessions.add(task)
        task.add_done_callback(self.sessions.discard)


def context_of(where: Starlette | HTTPConnection) -> AppContext:
    """The context of an app, or of the app that serves a request or a WebSocket."""
    app = where.app if isinstance(where, HTTPConnection) else where
    return cast(AppContext, app.state.context)
