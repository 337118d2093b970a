"""The bots' thinking on the server: the warm-up before it takes players, and the processes that
think for the bots (``BotPool``), below the server in priority and gone with it."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
from collections.abc import Callable
from typing import Any, TypeVar

from tavli.bots import bearoff
from tavli.bots.levels import LEVELS
from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import NeuralBot
from tavli.dice import Dice
from tavli.position import LegalPlays, Position
from tavli.server.play.parent_watch import watch_parent
from tavli.variants import GAMES

T = TypeVar("T")


def _compile_rules() -> None:
    for game in GAMES:
        Position.start(game).legal_plays(Dice(3, 1)).step_graph()  # the boards' step graphs too


def _build_bearoff() -> None:
    bearoff.load()


WARM_UP_LEVELS: tuple[str, ...] = tuple({level.depth: name for name, level in LEVELS.items()}.values())
"""The levels the warm-up plays a move at: the last of each search depth in ``LEVELS``, so that
every depth's search is compiled (the noisy levels search as the noiseless one of their depth)."""


def _compile_bots() -> None:
    for game in GAMES:
        legal = Position.start(game).legal_plays(Dice(3, 1))
        for level in WARM_UP_LEVELS:
            NeuralBot(level).choose(legal)


WARM_UP_STAGES: tuple[tuple[str, Callable[[], None]], ...] = (
    ("the rules kernel", _compile_rules),
    ("the bear-off tables", _build_bearoff),
    ("the networks and the bots' search", _compile_bots),
)
"""What the server does before it takes players, stage by stage (a name to show, the work):
compile the rules kernel and the bots' search, load the networks, build the bear-off tables.
The very first run takes about 90 s; all is cached on disk, and later starts take a second."""


def warm_up() -> None:
    """Every stage of ``WARM_UP_STAGES``, quietly (a worker process, once the first has filled the caches)."""
    for _, work in WARM_UP_STAGES:
        work()


_pool_bots: dict[str, NeuralBot] = {}
"""The bots of this process, by level: a bot process's, or the server's own without them."""


def start_bot_process(server: int) -> None:
    """A bot process: below the server in priority (people's moves come first), networks loaded,
    and gone with the server (``watch_parent``)."""
    with contextlib.suppress(OSError):
        os.nice(5)
    watch_parent(server, lambda: os._exit(0))
    _compile_bots()


def _pool_bot(level: str) -> NeuralBot:
    bot = _pool_bots.get(level)
    if bot is None:
        bot = _pool_bots[level] = NeuralBot(level)
    return bot


def bot_choice(level: str, position: Position, dice: Dice, score: MatchScore | None) -> int:
    """The bot's play (its index among the legal plays), in a bot process."""
    return _pool_bot(level).choose(position.legal_plays(dice), score)


def bot_takes(level: str, position: Position, dice: Dice | None, points: int, score: MatchScore | None) -> bool:
    """Whether the bot takes ``points`` from the side to play, who offers to resign: after his
    roll, judged at the bot's depth; before it, by the network (``NeuralBot.accepts_resignation``)."""
    offer = position if dice is None else position.legal_plays(dice)
    return _pool_bot(level).accepts_resignation(offer, points, score)


class BotPool:
    """The processes that think for the bots (or, with none, threads of this process): people's
    moves never wait for a bot's thinking."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        """Processes that think for the bots; 0: a thread of this process (tests, small sites)."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def start(self) -> list[concurrent.futures.Future[int]]:
        """Start the bot processes (each loads the networks); the futures are done once they are ready."""
        if not self.workers or self._pool is not None:
            return []
        self._pool = concurrent.futures.ProcessPoolExecutor(
            self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=start_bot_process,
            initargs=(os.getpid(),))
        return [self._pool.submit(int) for _ in range(self.workers)]

    async def ready(self, timeout: float = 300.0) -> None:
        """Start the bot processes and wait until they have loaded the networks (at most ``timeout``
        seconds), so that no one waits for that at a bot's first move."""
        started = self.start()
        if started:
            await asyncio.wait([asyncio.wrap_future(f) for f in started], timeout=timeout)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a bot process (or a thread, with no bot processes), so the event
        loop goes on serving everyone else meanwhile."""
        if not self.workers:
            return await asyncio.to_thread(work, *args)
        self.start()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, work, *args)
        except concurrent.futures.process.BrokenProcessPool:  # a bot process died: start them again
            self._pool = None
            self.start()
            return await loop.run_in_executor(self._pool, work, *args)

    async def choose(self, level: str, legal: LegalPlays, score: MatchScore) -> int:
        """A bot's choice (its index among the legal plays), away from the event loop."""
        return await self.run(bot_choice, level, legal.position, legal.dice, score)

    async def takes(self, level: str, position: Position, dice: Dice | None, points: int,
                    score: MatchScore | None) -> bool:
        """Whether the bot takes ``points`` offered (``bot_takes``), away from the event loop."""
        return await self.run(bot_takes, level, position, dice, points, score)
