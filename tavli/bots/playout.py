"""Fast random games, played to the end inside the compiled kernel.

For Monte Carlo estimates and speed tests: each play is chosen uniformly
among the legal plays of the roll, with the same rules as everywhere else.

>>> from tavli import Position
>>> results = random_playouts(Position.start("fevga"), 20, seed=1)
>>> len(results), all(r.turns > 0 for r in results)
(20, True)
>>> results == random_playouts(Position.start("fevga"), 20, seed=1)
True
"""

from __future__ import annotations

from typing import NamedTuple

from tavli import _kernel as K
from tavli.position import Position
from tavli.variants import Color

MAX_TURNS = 100_000


class PlayoutResult(NamedTuple):
    """How one random game ended: ``winner`` None for a tie (or no end within the turn limit)."""

    winner: Color | None
    points: int
    turns: int


def random_playout(position: Position, max_turns: int = MAX_TURNS) -> PlayoutResult:
    """Play one random game from ``position`` to its end."""
    code, turns = K.with_workspace(lambda ws: K.playout(position.state, position.variant.params, max_turns,
                                                        *ws.args()))
    code, turns = int(code), int(turns)
    if code in (K.ONGOING, K.TIE):
        return PlayoutResult(None, 0, turns)
    winner = position.turn if code > 0 else position.turn.other
    return PlayoutResult(winner, abs(code), turns)


def random_playouts(position: Position, games: int, seed: int | None = None,
                    max_turns: int = MAX_TURNS) -> list[PlayoutResult]:
    """``games`` random games from ``position``; the same seed gives the same games."""
    if seed is not None:
        K.seed_random(seed)
    return [random_playout(position, max_turns) for _ in range(games)]
