"""A Portes engine on standard input and output, speaking the arena's line protocol
(and, by ``serve``'s choice, Tavli's own protocol for every game: ``tavli.engines.tavli_protocol``).

One line each way (see docs/engine.md)::

    hello 1                       -> ok tavli-LEVEL
    newgame K S                   (no answer)
    move D1 D2 X0 .. X27 POSID    -> the play in standard notation, or none
    gameover P                    (no answer)
    quit

``X0..X27`` is the board seen by the player to move, who moves from 25
towards 0: ``X1..X24`` = checkers on point p (+own, -opponent), ``X0`` =
-(opponent's bar), ``X25`` = own bar, ``X26`` = own borne off, ``X27`` =
-(opponent's borne off). A line that cannot be read is answered with
``error: ...`` and the engine goes on.

>>> import io
>>> out = io.StringIO()
>>> start = "0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0 0 0"
>>> serve(io.StringIO(f"hello 1\\nmove 3 1 {start} 4HPwATDgc/ABMA\\nquit\\n"), out, "advanced")
>>> print(out.getvalue(), end="")
ok tavli-advanced
8/5 6/5
"""

from __future__ import annotations

import io
import itertools
import sys
from collections.abc import Iterable, Iterator
from typing import TextIO

from tavli.bots.neural import NeuralBot
from tavli.dice import Dice
from tavli.errors import TavliError
from tavli.position import Position
from tavli.variants import WHITE, Portes


class ProtocolError(TavliError):
    """A protocol line that cannot be read."""


def position_from_board(x: list[int]) -> Position:
    """The Portes position of an arena board ``X0..X27``, the side to move as White."""
    if len(x) != 28:
        raise ProtocolError(f"a board has 28 numbers, not {len(x)}")
    mine = {p: x[p] for p in range(1, 25) if x[p] > 0}
    theirs = {25 - p: -x[p] for p in range(1, 25) if x[p] < 0}
    if x[25] < 0 or x[0] > 0 or x[26] < 0 or x[27] > 0:
        raise ProtocolError("bar and borne-off counts have the wrong signs")
    if x[25]:
        mine[25] = x[25]
    if x[0]:
        theirs[25] = -x[0]
    if sum(mine.values()) + x[26] != 15 or sum(theirs.values()) - x[27] != 15:
        raise ProtocolError("each side must have 15 checkers")
    return Position.from_checkers(Portes(), WHITE, mine, theirs)


def answer(line: str, bot: NeuralBot) -> str | None:
    """The reply to one protocol line (None: no reply)."""
    words = line.split()
    if not words:
        return None
    command = words[0]
    if command == "hello":
        return f"ok tavli-{bot.name}"
    if command in ("newgame", "gameover"):
        return None
    if command != "move":
        raise ProtocolError(f"unknown command {command!r}")
    if len(words) < 31:
        raise ProtocolError("move needs two dice and 28 board numbers")
    try:
        d1, d2 = int(words[1]), int(words[2])
        board = [int(w) for w in words[3:31]]
    except ValueError:
        raise ProtocolError("dice and board must be integers") from None
    legal = position_from_board(board).legal_plays(Dice(d1, d2))
    if len(legal) == 0:
        return "none"
    return str(legal[bot.choose(legal)])


ARENA_COMMANDS = frozenset({"hello", "newgame", "move", "gameover"})
PROTOCOLS = ("auto", "arena", "tavli")


def serve(inp: Iterable[str], out: TextIO, level: str, seed: int | None = None, protocol: str = "arena") -> None:
    """Answer protocol lines from ``inp`` until ``quit`` or the end of input.

    ``protocol`` is ``arena`` (this module's), ``tavli`` (``tavli.engines.tavli_protocol``,
    every game) or ``auto``: the arena's when the first command is one of its own
    (``hello``, ``newgame``, ``move``, ``gameover``), else Tavli's.
    """
    if protocol not in PROTOCOLS:
        raise ProtocolError(f"unknown protocol {protocol!r}: choose one of {', '.join(PROTOCOLS)}")
    lines: Iterator[str] = iter(inp)
    if protocol == "auto":
        ahead: list[str] = []
        for line in lines:
            ahead.append(line)
            if line.split():
                break
        first = next((line.split()[0].lower() for line in ahead if line.split()), "")
        protocol = "arena" if first in ARENA_COMMANDS else "tavli"
        lines = itertools.chain(ahead, lines)
    if protocol == "tavli":
        from tavli.engines import tavli_protocol as engine_protocol
        engine_protocol.serve(lines, out, level, seed)
        return
    bot = NeuralBot(level, seed=seed)
    for line in lines:
        if line.split()[:1] == ["quit"]:
            break
        try:
            reply = answer(line, bot)
        except ValueError as e:
            reply = f"error: {e}"
        if reply is not None:
            out.write(reply + "\n")
            out.flush()


def main(level: str = "expert", seed: int | None = None, protocol: str = "auto") -> None:
    if isinstance(sys.stdin, io.TextIOWrapper):  # a stray byte is an unreadable line, not a crash
        sys.stdin.reconfigure(errors="replace")
    serve(sys.stdin, sys.stdout, level, seed, protocol)
