"""The web app's start and stop (``lifespan``), and its background jobs: the seats' heartbeat,
hearing the other server processes' actions (PostgreSQL), and polling for them."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette

from tavli.server.routes.context import AppContext, context_of

HEARTBEAT_SECONDS = 10.0
"""How often the stored presence of this process's seats is made fresh."""
ALIVE_SECONDS = 0.1
"""How often this process stores that it is alive: a clock after a crash is right to this much
(a gap of over ``store.OUTAGE_SECONDS`` found at a start is an outage, charged to nobody)."""
LOBBY_SECONDS = 5.0
"""How often the lobby's seeks and counts are made fresh."""
PAIRING_SECONDS = 1.0
"""How often the people waiting in "play now" are looked at."""
CLOCK_SWEEP_SECONDS = 5.0
"""How often the clocked matches that no timer here watches are looked at."""
TOURNAMENT_SECONDS = 2.0
"""How often the tournaments due to start or running are looked at (a match's end moves its own at once)."""


async def pause(context: AppContext, seconds: float) -> bool:
    """Wait ``seconds``; False if the app is stopping meanwhile."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(context.stopping.wait(), seconds)
    return not context.stopping.is_set()


# The background jobs end between rounds when the app stops, never in the middle of one: a
# job cancelled inside a database call can leave its connection to be closed at garbage
# collection, after the event loop has gone (and then the closing waits for ever).
async def every(context: AppContext, seconds: float, job: Callable[[], Awaitable[None]]) -> None:
    """``job()`` every ``seconds`` until the app stops."""
    while await pause(context, seconds):
        with contextlib.suppress(Exception):  # a failed round is retried at the next
            await job()


async def listen(context: AppContext) -> None:
    """Hear the other server processes' actions (PostgreSQL); reconnect if the line drops."""
    store, hub = context.store, context.hub
    while not context.stopping.is_set():
        with contextlib.suppress(Exception):
            if not store.listening() and not await store.listen(hub.heard, context.lobby.heard, context.talk.heard):
                return  # SQLite: one process, nothing to hear
        await pause(context, 1.0)


async def rate_left_over(context: AppContext) -> None:
    """Keep the results of the rated and tournament matches that ended while no server kept them
    (one stopped in between), the rated ones rated."""
    for match_id in await context.results.unrated():
        live = await context.service.get(match_id)
        if live is not None and live.match.is_over:
            await context.results.record(live)
        context.unwatched(match_id)


async def alive(context: AppContext) -> None:
    await context.store.beat(time.time())


def start_jobs(context: AppContext) -> list[asyncio.Task[None]]:
    hub = context.hub
    tasks = [asyncio.create_task(every(context, HEARTBEAT_SECONDS, hub.heartbeat)),
             asyncio.create_task(every(context, ALIVE_SECONDS, lambda: alive(context))),
             asyncio.create_task(every(context, CLOCK_SWEEP_SECONDS, context.service.clocks.sweep)),
             asyncio.create_task(every(context, LOBBY_SECONDS, context.lobby.heartbeat)),
             asyncio.create_task(every(context, PAIRING_SECONDS, context.lobby.pair_waiting)),
             asyncio.create_task(every(context, TOURNAMENT_SECONDS, context.tournaments.tick)),
             asyncio.create_task(listen(context))]
    if context.options.poll_seconds > 0:
        tasks.append(asyncio.create_task(every(context, context.options.poll_seconds, hub.poll)))
    return tasks


async def stop(context: AppContext, tasks: list[asyncio.Task[None]]) -> None:
    """End the jobs, the reviews and the bots, let the sessions record their leaving, then close
    the database."""
    context.stopping.set()
    await asyncio.wait(tasks, timeout=10.0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    context.reviewer.close()
    context.service.close()
    if context.sessions:  # let closing connections record their absence before the database goes
        await asyncio.wait(context.sessions, timeout=5.0)
    if context.background:  # and the finished matches' results be kept
        await asyncio.wait(context.background, timeout=5.0)
    await context.store.close()


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Make the tables and start the bots before the first request; stop all after the last."""
    context = context_of(app)
    await context.store.create_tables()
    await context.service.bots_ready()
    # the clocks charge nobody for the time no server took players: from the last heartbeat to now,
    # stored, so that a turn across several restarts leaves out each (after the bots, which take
    # seconds to start: no player can act meanwhile either)
    await context.store.come_up(time.time())
    await rate_left_over(context)
    tasks = start_jobs(context)
    try:
        yield
    finally:
        await stop(context, tasks)
