"""GNU Backgammon's neural network as a Portes player (needs the PyPI ``gnubg`` module).

``GnubgPlayer(ply)`` values every result of a roll with GNU Backgammon's
evaluation from the opponent's side, scores it in Portes points
(``2 p_win - 1 + p_gammon - p_lose_gammon``: backgammons count no more than
gammons) and plays the best: GNU Backgammon's own 0-ply with Portes scoring.
Deeper, it searches as GNU Backgammon does with its "normal" move filter: every
play at 0-ply, then the best of them (up to 8, within 0.16 points of the best)
at ``ply`` plies.
It chooses among the legal plays tavli generates, so it plays by exactly our
rules; a play that ends the game is worth its points. ``available()`` says
whether the module can be imported; the benchmarks and the training
yardstick (``tavli.bots.training``) measure against it.

>>> from tavli import Position
>>> board_before(Position.start("portes"))[1][5]  # the mover's 6 point
5
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from tavli import _kernel as K
from tavli.bots.neural import Probabilities
from tavli.errors import TavliError
from tavli.position import LegalPlays, Position


@functools.cache
def _module() -> Any:
    try:
        import gnubg
    except ImportError:
        return None
    return gnubg


def available() -> bool:
    """Whether GNU Backgammon's Python module (``pip install gnubg``) can be imported."""
    return _module() is not None


class NotPortesError(TavliError):
    """A Portes-only player was handed a position of another game."""


def require_portes(legal: LegalPlays, player: str) -> None:
    variant = legal.position.variant
    if variant.kernel_id != K.PORTES:
        raise NotPortesError(f"{player} plays Portes (backgammon) only, not {variant.name}")


Side = tuple[int, ...]
Board = tuple[Side, Side]
"""GNU Backgammon board: (opponent, player on roll), each 25 counts in its own
numbering: index 0..23 = points 1..24, index 24 = the bar."""


def board_after(row: np.ndarray) -> Board:
    """GNU Backgammon board of a result (a kernel state still seen by the side that
    moved), with the opponent on roll: ``(mover, opponent)``.

    The opponent's own point q is the mover's point 25 - q.
    """
    r = row.tolist()
    mover = (*r[1:25], r[K.BAR])
    opponent = (*(r[K.OPP + 24 - i] for i in range(24)), r[K.OPP + K.BAR])
    return mover, opponent


def board_before(position: Position) -> Board:
    """GNU Backgammon board of a position, the side to move on roll: ``(opponent, mover)``."""
    s = position.state.tolist()
    mover = (*s[1:25], s[K.BAR])
    opponent = (*(s[K.OPP + 24 - i] for i in range(24)), s[K.OPP + K.BAR])
    return opponent, mover


UTILITIES = ("portes", "money")

FILTER = (8, 0.16)
"""GNU Backgammon's "normal" move filter, the default of its 2-ply play: after every play is
valued at 0-ply, at most 8 plays within 0.16 points of the best are searched deeper."""


class GnubgPlayer:
    """GNU Backgammon's evaluation at ``ply`` plies, choosing among tavli's legal plays.

    ``utility="portes"`` scores a result in Portes points (backgammons count 2);
    ``"money"`` uses GNU Backgammon's own cubeless equity (backgammons count 3),
    which is how ``gnubg.findbestmoves`` ranks moves.
    """

    def __init__(self, ply: int = 0, utility: str = "portes", move_filter: tuple[int, float] = FILTER) -> None:
        gnubg = _module()
        if gnubg is None:
            raise TavliError("GnubgPlayer needs GNU Backgammon's Python module: pip install gnubg")
        if utility not in UTILITIES:
            raise TavliError(f"unknown utility {utility!r}: choose one of {', '.join(UTILITIES)}")
        if ply < 0:
            raise TavliError("ply must be 0 or more")
        if move_filter[0] < 1 or move_filter[1] < 0:
            raise TavliError("the move filter keeps at least 1 play, within a margin of 0 or more")
        self.ply = ply
        self.move_filter = move_filter
        self.utility = utility
        self.name = f"gnubg-{ply}ply" + ("" if utility == "portes" else f"-{utility}")
        self._gnubg = gnubg
        self._cube = gnubg.cubeinfo()
        self._contexts = {depth: gnubg.evalcontext(0, depth, 1, 0, 0.0) for depth in {0, ply}}

    def equity(self, row: np.ndarray, params: int, ply: int | None = None) -> float:
        """Expected points of a result for the side that played it, at ``ply`` (the player's own
        by default)."""
        code = int(K.outcome(row, params))
        if code == K.TIE:
            return 0.0
        if code != K.ONGOING:
            return float(code)
        depth = self.ply if ply is None else ply
        if depth not in self._contexts:
            self._contexts[depth] = self._gnubg.evalcontext(0, depth, 1, 0, 0.0)
        win, win_gammon, _win_bg, lose_gammon, _lose_bg, money = self._gnubg.evaluate(
            board_after(row), self._cube, self._contexts[depth])
        # the figures are the opponent's, who is on roll
        if self.utility == "money":
            return -float(money)
        return -float(2.0 * win - 1.0 + win_gammon - lose_gammon)

    def probabilities(self, position: Position) -> Probabilities:
        """GNU Backgammon's chances for the side to roll in a Portes ``position`` that is not
        over, at the player's ply: win, win 2 points and lose 2 points (gammons and backgammons
        together, as Portes scores them), as ``tavli.bots.neural.Evaluator.probabilities`` gives ours.

        >>> p = GnubgPlayer().probabilities(Position.start("portes"))
        >>> 0.45 < p.win < 0.55 and 0.1 < p.win2 < 0.2
        True
        """
        if position.variant.kernel_id != K.PORTES:
            raise NotPortesError(f"GNU Backgammon values Portes (backgammon) only, not {position.variant.name}")
        if position.result() is not None:
            raise TavliError("the game is over: there are no chances to value")
        win, win_gammon, _win_bg, lose_gammon, _lose_bg, _money = self._gnubg.evaluate(
            board_before(position), self._cube, self._contexts[self.ply])
        return Probabilities(float(win), float(win_gammon), float(lose_gammon))

    def equities(self, legal: LegalPlays) -> list[float]:
        """Every play's value: those the move filter passes at the player's depth, the rest at 0-ply."""
        return self.search(legal)[0]

    def choose(self, legal: LegalPlays) -> int:
        require_portes(legal, self.name)
        if len(legal) == 1:
            return 0
        values, searched = self.search(legal)
        # only the plays searched deepest compete: a filtered-out play's 0-ply value is another measure
        return max(searched, key=lambda i: values[i])

    def search(self, legal: LegalPlays) -> tuple[list[float], list[int]]:
        """The plays' values (as ``equities``) and the indices of those valued at the player's depth."""
        require_portes(legal, self.name)
        params = legal.position.variant.params
        values = [self.equity(row, params, 0) for row in legal.results]
        if not self.ply:
            return values, list(range(len(values)))
        keep, margin = self.move_filter
        ranked = sorted(range(len(values)), key=lambda i: -values[i])
        searched = [i for i in ranked[:keep] if values[i] >= values[ranked[0]] - margin]
        for i in searched:
            values[i] = self.equity(legal.results[i], params)
        return values, searched
