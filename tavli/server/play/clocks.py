"""Café clocks, kept by the server: a delay per move, used first and not banked, then a reserve
per match point (``ClockSettings``); the time each side has left (``Clock``).

A player's clock runs from the moment it is his turn until he confirms his play; rolling is part
of the turn; a turn whose play was forced (one legal play, or none) costs nothing. Time is the
server's: every action is stored with the time it was made, and the clocks follow from those
times (each play also stores the time left, which a replay takes as it is). The time a server
was down (no process alive: an outage, which the next process to start stores) is not charged to
anyone: the replay of a running turn leaves out every outage within it (``Clock.resume``).

A clock that runs out is watched for here too (``ClockWatch``): a timer for each clocked match of
this process, and a sweep for those no timer watches; the service stores the flag.

>>> clock_settings("blitz")
{'delay': 5.0, 'reserve': 30.0}
>>> c = Clock.start(ClockSettings(8, 60), length=3, running="white", at=100.0)
>>> c.charge("white", at=130.0, forced=False), c.left["white"]
(22.0, 158.0)
>>> c.run("black", 130.0)
>>> c.left_now("black", 141.0), c.delay_left(134.0)
(177.0, 4.0)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from tavli.server.play.seats import MatchRequestError

PRESETS: dict[str, tuple[float, float]] = {
    "kafeneio": (8.0, 60.0),
    "blitz": (5.0, 30.0),
    "relaxed": (15.0, 120.0),
}
"""The café's clocks by name: (delay per move, reserve per match point), in seconds."""
DEFAULT_FOR_PEOPLE = "kafeneio"
"""The clock of a new match between people unless another (or none) is asked for."""
DELAY_RANGE = (0.0, 60.0)
RESERVE_RANGE = (1.0, 1800.0)


@dataclass(frozen=True)
class ClockSettings:
    delay: float
    """Seconds each turn may take before the reserve starts to run."""
    reserve: float
    """Seconds of reserve per point of the match's length."""

    @classmethod
    def of(cls, data: dict[str, Any] | None) -> ClockSettings | None:
        """The clock of a match's stored settings (``settings["clock"]``), None for no clock."""
        return None if not data else cls(float(data["delay"]), float(data["reserve"]))


def clock_settings(value: object) -> dict[str, float] | None:
    """A request's ``clock``: a preset's name, ``none``, or ``{"delay": s, "reserve": s}``, checked;
    its stored form, or None for no clock. ``MatchRequestError`` in one line otherwise."""
    if value is None or value == "none":
        return None
    if isinstance(value, str):
        if value not in PRESETS:
            raise MatchRequestError("clock must be none, {presets} or {{\"delay\": s, \"reserve\": s}}",
                                    presets=", ".join(PRESETS))
        delay, reserve = PRESETS[value]
        return {"delay": delay, "reserve": reserve}
    if not isinstance(value, dict) or set(value) != {"delay", "reserve"}:
        raise MatchRequestError("clock must be none, {presets} or {{\"delay\": s, \"reserve\": s}}",
                                presets=", ".join(PRESETS))
    delay, reserve = value["delay"], value["reserve"]
    if not _number_in(delay, DELAY_RANGE):
        raise MatchRequestError("a clock's delay is 0 to 60 seconds a move")
    if not _number_in(reserve, RESERVE_RANGE):
        raise MatchRequestError("a clock's reserve is 1 second to 30 minutes a point")
    return {"delay": float(delay), "reserve": float(reserve)}


def _number_in(value: object, bounds: tuple[float, float]) -> bool:
    # bool is an int to Python, and NaN compares false with everything: both refused here
    return type(value) in (int, float) and bounds[0] <= value <= bounds[1]  # type: ignore[operator]


@dataclass
class Clock:
    """Both sides' time left, and whose clock runs since when (None: stopped, or not started)."""

    settings: ClockSettings
    left: dict[str, float]
    running: str | None = None
    since: float = 0.0
    """When the running side's turn began (the time of the action before it)."""
    uncharged: float = 0.0
    """Seconds of the running turn not charged (the server was down meanwhile)."""
    started: bool = False
    flagged: str | None = field(default=None)

    @classmethod
    def new(cls, settings: ClockSettings, length: int) -> Clock:
        """A match's clock before it starts: each side's whole reserve, nothing running."""
        whole = settings.reserve * length
        return cls(settings, {"white": whole, "black": whole})

    @classmethod
    def start(cls, settings: ClockSettings, length: int, running: str, at: float) -> Clock:
        clock = cls.new(settings, length)
        clock.run(running, at)
        clock.started = True
        return clock

    def run(self, side: str | None, at: float) -> None:
        """Start ``side``'s turn at ``at`` (None: stop the clocks)."""
        self.running, self.since, self.uncharged = side, at, 0.0

    def spent(self, at: float) -> float:
        """Seconds of the running turn that count against the delay and reserve."""
        return max(0.0, at - self.since - self.uncharged)

    def left_now(self, side: str, at: float) -> float:
        """``side``'s reserve at ``at``: less what his running turn has used beyond the delay."""
        if side != self.running:
            return self.left[side]
        return self.left[side] - max(0.0, self.spent(at) - self.settings.delay)

    def delay_left(self, at: float) -> float:
        return max(0.0, self.settings.delay - self.spent(at)) if self.running else 0.0

    def runs_out_at(self) -> float | None:
        """When the running side's reserve reaches zero, if nobody acts (None: nothing runs)."""
        if self.running is None:
            return None
        return self.since + self.uncharged + self.settings.delay + self.left[self.running]

    def charge(self, side: str, at: float, forced: bool) -> float:
        """End ``side``'s turn at ``at``: his reserve less what he used beyond the delay (nothing
        for a forced turn); what it charged. The caller starts the next turn (``run``)."""
        used = 0.0 if forced or side != self.running else max(0.0, self.spent(at) - self.settings.delay)
        self.left[side] = max(0.0, self.left[side] - used)
        return used

    def ms(self, at: float) -> dict[str, Any]:
        """The clocks as a state message carries them: each side's reserve left now, whose runs,
        the delay setting and what is left of it in the running turn, in milliseconds."""
        return {"white": round(1000 * self.left_now("white", at)), "black": round(1000 * self.left_now("black", at)),
                "running": self.running, "delay": round(1000 * self.settings.delay),
                "delay_left": round(1000 * self.delay_left(at)), "started": self.started}

    def stored(self) -> dict[str, int]:
        """The time left as an action stores it, in milliseconds."""
        return {side: round(1000 * seconds) for side, seconds in self.left.items()}

    def resume(self, outages: Iterable[tuple[float, float]]) -> None:
        """Leave uncharged the part of the running turn when no server was alive: ``outages`` are
        (down, up) times, the last heartbeat before each and the start after it (a fresh replay's
        turn, whose ``uncharged`` is still the server's own work alone)."""
        if self.running is not None:
            self.uncharged += down_after(self.since, outages)


def down_after(since: float, outages: Iterable[tuple[float, float]]) -> float:
    """Seconds after ``since`` within any of ``outages`` ((down, up) times), each second counted
    once: servers that come up together may each store the same outage.

    >>> down_after(100.0, [(130.0, 140.0), (50.0, 60.0), (90.0, 110.0), (135.0, 150.0)])
    30.0
    """
    total, reached = 0.0, since
    for down, up in sorted(outages):
        start = max(down, reached)
        if up > start:
            total, reached = total + up - start, up
    return total


class ClockWatch:
    """Watches for the running clocks that run out: one timer a match, set for when its running
    clock would run out and moved on each action. When a timer fires, or the sweep finds a clocked
    match in play that no timer here watches (its players gone, or on another process that
    stopped), ``look`` is called with the match's id: it stores the flag if the time is up."""

    def __init__(self, look: Callable[[str], Awaitable[None]],
                 in_play: Callable[[float], Awaitable[list[str]]]) -> None:
        self.look = look
        self.in_play = in_play
        """The clocked matches not over whose last action is older than a time (``Store.clocked_in_play``)."""
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._looking: set[asyncio.Future[None]] = set()

    def watching(self, match_id: str) -> bool:
        return match_id in self._timers

    def watch(self, match_id: str, clock: Clock | None) -> None:
        """Look at ``match_id`` when ``clock`` would run out, instead of when it was set to; a
        clock that does not run (or None: a match over) is no longer watched."""
        old = self._timers.pop(match_id, None)
        if old is not None:
            old.cancel()
        due = clock.runs_out_at() if clock is not None else None
        if due is not None:  # a little after: the clock has surely run out by then
            delay = max(0.0, due - time.time()) + 0.01
            self._timers[match_id] = asyncio.get_running_loop().call_later(delay, self._due, match_id)

    def _due(self, match_id: str) -> None:
        self._timers.pop(match_id, None)
        task = asyncio.ensure_future(self.look(match_id))
        self._looking.add(task)
        task.add_done_callback(self._looking.discard)

    async def sweep(self) -> None:
        """Look at the clocked matches in play that no timer here watches (a background job)."""
        for match_id in await self.in_play(time.time() - 1.0):
            if not self.watching(match_id):
                await self.look(match_id)

    def close(self) -> None:
        """Watch no more (the server stops)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
