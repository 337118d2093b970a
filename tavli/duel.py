"""Matches of many games between two players, scored in points per game.

Games come in pairs that replay the same dice with the seats swapped, which
cancels much of the luck, and the first player to move alternates.

>>> from tavli.bots import HeuristicBot, RandomBot
>>> result = duel("portes", HeuristicBot(), RandomBot(seed=1), games=4, seed=7)
>>> len(result.points), result.ppg > 0
(4, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tavli.bots import Player
from tavli.dice import Dice
from tavli.position import Position
from tavli.variants import BLACK, WHITE, Variant, make_variant

MAX_TURNS = 2000


@dataclass
class DuelResult:
    """Points of the first player in each game (negative when he lost)."""

    points: list[int] = field(default_factory=list)
    turns: int = 0

    @property
    def games(self) -> int:
        return len(self.points)

    @property
    def ppg(self) -> float:
        """Points per game of the first player."""
        return sum(self.points) / len(self.points) if self.points else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of ``ppg``, counting each
        mirrored pair as one sample (the two games are not independent)."""
        pairs = [sum(self.points[i:i + 2]) / 2 for i in range(0, len(self.points) - 1, 2)]
        if len(pairs) < 2:
            return math.inf
        mean = sum(pairs) / len(pairs)
        var = sum((p - mean) ** 2 for p in pairs) / (len(pairs) - 1)
        return 1.96 * math.sqrt(var / len(pairs))

    @property
    def wins(self) -> int:
        return sum(p > 0 for p in self.points)

    def __str__(self) -> str:
        return f"{self.ppg:+.3f} ± {self.ci95:.3f} ppg over {self.games} games ({self.wins} won)"


def play_game(variant: Variant, first: Player, second: Player, rng: random.Random) -> tuple[int, int]:
    """One game with dice from ``rng``; ``first`` moves first. Returns the points
    of ``first`` (0 for a tie) and the number of turns."""
    position = Position.start(variant, WHITE)
    seats = {WHITE: first, BLACK: second}
    for turn in range(1, MAX_TURNS + 1):
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        legal = position.legal_plays(dice)
        if len(legal) == 0:
            position = position.pass_turn()
        else:
            position = legal.after(seats[position.turn].choose(legal))
        result = position.result()
        if result is not None:
            if result.winner is None:
                return 0, turn
            return (result.points if result.winner == WHITE else -result.points), turn
    raise RuntimeError(f"game not over after {MAX_TURNS} turns")


def duel(variant: Variant | str, a: Player, b: Player, games: int, seed: int = 0,
         on_game: Callable[[DuelResult], None] | None = None) -> DuelResult:
    """Play ``games`` games of ``a`` against ``b``; the result is ``a``'s points."""
    v = make_variant(variant)
    result = DuelResult()
    for k in range(games):
        rng = random.Random(seed * 1_000_003 + k // 2)
        if k % 2 == 0:
            points, turns = play_game(v, a, b, rng)
        else:
            points, turns = play_game(v, b, a, rng)
            points = -points
        result.points.append(points)
        result.turns += turns
        if on_game is not None:
            on_game(result)
    return result
