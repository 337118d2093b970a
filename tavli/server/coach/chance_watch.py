"""Each side's chance of winning the match, for the match page: the ``chances`` message.

The chances are the library's (``tavli.study.chances.match_chances``: the game's
network at 0 ply, weighted by the match equity after each outcome of the game
at the score) for the position before the roll of the side to move. They
change only when a play changes the position, so a roll leaves them as they
were. Only the sockets that asked (``{"type": "chances", "on": true}``) get
them, computed in a worker thread, never on the event loop; the same position
at the same score is worked out once (``ChanceWatch``). docs/web.md gives the
message.

>>> from tavli.dice import DiceRoller
>>> from tavli.match import Match, MatchSettings
>>> m = Match(MatchSettings(length=5), DiceRoller(seed=1))
>>> found = chances_json(Snapshot.of(m))
>>> found["white"] + found["black"] == 1.0, 0.3 < found["white"] < 0.7, found["by"]
(True, True, '0-ply')
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from tavli.match import Match, MatchSettings
from tavli.position import Position
from tavli.server.play.live import LiveMatch
from tavli.server.play.seats import SEATS, ActionError
from tavli.study.chances import match_chances
from tavli.variants import BLACK, WHITE, Color

CACHE_SIZE = 4096
"""How many positions' chances a server keeps."""


@dataclass(frozen=True)
class Snapshot:
    """What the chances depend on, taken from a match on the event loop (the match itself goes
    on changing meanwhile): the settings, the score, the game's number and position, the winner."""

    settings: MatchSettings
    white: int
    black: int
    game: int
    position: Position
    winner: Color | None

    @classmethod
    def of(cls, match: Match) -> Snapshot:
        return cls(match.settings, match.score[WHITE], match.score[BLACK], len(match.records) - 1,
                   match.game.position, match.winner)

    @property
    def key(self) -> tuple[object, ...]:
        return (self.settings, self.white, self.black, self.game, str(self.position), self.winner)


def chances_json(snap: Snapshot) -> dict[str, Any]:
    """``{"white": p, "black": 1 - p, ...}``: each side's chance of winning the match (see the
    module's docstring); 1 and 0 once the match is won."""
    base = {"type": "chances", "score": {"white": snap.white, "black": snap.black}, "length": snap.settings.length,
            "game": snap.game, "position": str(snap.position)}
    if snap.winner is not None:
        white = 1.0 if snap.winner == WHITE else 0.0
        return base | {"white": white, "black": 1.0 - white, "game_win": None, "by": "result"}
    found = match_chances(snap.settings, {WHITE: snap.white, BLACK: snap.black}, snap.game, snap.position)
    white = round(found.white, 4)
    return base | {"white": white, "black": round(1.0 - white, 4),
                   "game_win": None if found.game_win is None else round(found.game_win, 4), "by": "0-ply"}


class Receiver(Protocol):
    """A connection that can be sent a message (``tavli.server.realtime.hub.Connection``)."""

    def send(self, message: dict[str, Any]) -> None: ...


class ChanceWatch:
    """The connections that asked for the chances, and what each was last sent."""

    def __init__(self, cache_size: int = CACHE_SIZE) -> None:
        self._on: weakref.WeakKeyDictionary[Receiver, tuple[int, tuple[object, ...] | None]] = \
            weakref.WeakKeyDictionary()
        self._cache: OrderedDict[tuple[object, ...], dict[str, Any]] = OrderedDict()
        self._cache_size = cache_size
        self._tasks: set[asyncio.Task[None]] = set()

    def wants(self, conn: Receiver) -> bool:
        return conn in self._on

    async def subscribe(self, conn: Receiver, live: LiveMatch, role: str, on: bool) -> None:
        """Start (and send the chances now) or stop sending ``conn`` the chances. Spectators may
        have them, and players against a bot; a player against a person may not (``ActionError``
        ``no-chances``): they would help him play."""
        if not on:
            self._on.pop(conn, None)
            return
        if role in SEATS and live.bot_level(SEATS[role].other) is None:
            raise ActionError("no-chances", "the chances are for spectators and for players against a bot")
        self._on[conn] = (-1, None)
        await self._send(Snapshot.of(live.match), live.seq, [conn])

    def update(self, live: LiveMatch, conns: Iterable[Receiver]) -> None:
        """After a change of ``live``: send the new chances to those of ``conns`` that asked, in a
        task of their own (the caller does not wait for the network)."""
        wanted = [c for c in conns if c in self._on]
        if not wanted:
            return
        snap = Snapshot.of(live.match)  # now, as the states just sent show it: the match goes on meanwhile
        task = asyncio.get_running_loop().create_task(self._send(snap, live.seq, wanted))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, snap: Snapshot, seq: int, conns: list[Receiver]) -> None:
        key = snap.key
        todo = [c for c in conns if (last := self._on.get(c)) is not None and last[1] != key and last[0] <= seq]
        if not todo:
            return
        found = self._cache.get(key)
        if found is None:
            found = await asyncio.to_thread(chances_json, snap)
            self._cache[key] = found
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        message = found | {"seq": seq}
        for conn in todo:
            last = self._on.get(conn)
            # turned off, or sent newer chances or these same ones (by a task that valued them
            # first, for a state of the same position) meanwhile
            if last is None or last[0] > seq or last[1] == key:
                continue
            self._on[conn] = (seq, key)
            conn.send(message)
