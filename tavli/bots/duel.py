"""Matches of many games between two players, scored in points per game.

Games come in pairs that replay the same dice with the seats swapped, which
cancels much of the luck, and the first player to move alternates.

Given a ``luck`` meter (such as ``tavli.bots.neural.Evaluator.luck``) a duel also
counts each game's luck: what every roll was worth against an average roll,
to the first player and against him. Points less luck estimate the same
points per game, since each roll's luck averages zero over the throws
whatever the meter's judgement, with a much narrower interval once the
seats' positions part and mirroring stops cancelling the dice. (The luck
is taken off in the multiple that narrows the interval most, a control
variate; see ``DuelResult.luck_weight``.)

>>> from tavli.bots import HeuristicBot, RandomBot
>>> result = duel("portes", HeuristicBot(), RandomBot(seed=1), games=4, seed=7)
>>> len(result.points), result.ppg > 0
(4, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from tavli.bots.basic import Player
from tavli.dice import Dice
from tavli.position import Play, Position
from tavli.variants import WHITE, Color, Variant, make_variant

MAX_TURNS = 2000


def interval95(values: Sequence[float]) -> float:
    """The half-width of the 95% confidence interval of the mean of ``values`` (inf under two).

    >>> round(interval95([1.0, -1.0, 1.0, -1.0]), 3)
    1.132
    """
    n = len(values)
    if n < 2:
        return math.inf
    mean = sum(values) / n
    return 1.96 * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _pair_means(values: Sequence[float]) -> list[float]:
    return [(values[i] + values[i + 1]) / 2 for i in range(0, len(values) - 1, 2)]


@dataclass
class DuelResult:
    """Points of the first player in each game (negative when he lost), and his
    luck in each game when it was measured (0.0 when it was not)."""

    points: list[int] = field(default_factory=list)
    turns: int = 0
    luck: list[float] = field(default_factory=list)

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
        return interval95(_pair_means(self.points))

    @property
    def luck_weight(self) -> float:
        """The multiple of the luck taken off the points: the one that leaves the
        pairs' points least spread (their regression slope on luck). It is near
        1 when every roll's luck shows in the result, as between players of
        like strength, and near 0 where none does, as against random play;
        1 with fewer than two pairs, 0 without luck.
        """
        if not self.luck:
            return 0.0
        x, y = _pair_means(self.luck), _pair_means(self.points)
        if len(x) < 2:
            return 1.0
        mx, my = sum(x) / len(x), sum(y) / len(y)
        var = sum((a - mx) ** 2 for a in x)
        return sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True)) / var if var else 0.0

    @property
    def adjusted(self) -> list[float]:
        """Each game's points less the first player's luck in it (times ``luck_weight``)."""
        luck = self.luck or [0.0] * len(self.points)
        weight = self.luck_weight
        return [p - weight * x for p, x in zip(self.points, luck, strict=True)]

    @property
    def adjusted_ppg(self) -> float:
        """Points per game less luck: the same expectation as ``ppg``."""
        adjusted = self.adjusted
        return sum(adjusted) / len(adjusted) if adjusted else 0.0

    @property
    def adjusted_ci95(self) -> float:
        """Half-width of the 95% confidence interval of ``adjusted_ppg``, by pairs."""
        return interval95(_pair_means(self.adjusted))

    @property
    def wins(self) -> int:
        return sum(p > 0 for p in self.points)

    def __str__(self) -> str:
        text = f"{self.ppg:+.3f} ± {self.ci95:.3f} ppg over {self.games} games ({self.wins} won)"
        if self.luck:
            text += f"; less luck {self.adjusted_ppg:+.3f} ± {self.adjusted_ci95:.3f}"
        return text


LuckMeter = Callable[[Position, Dice], float]
"""What ``dice`` are worth, in points against an average roll, to the side to
roll in a position; its mean over the 36 throws must be zero."""


class GameScore(NamedTuple):
    """One game's outcome for the first player."""

    points: int
    """His points, negative when he lost, 0 for a tie."""
    turns: int
    luck: float
    """His rolls' luck less his opponent's (0.0 without a meter)."""


def play_game(variant: Variant, first: Player, second: Player, rng: random.Random,
              luck: LuckMeter | None = None, *, color: Color = WHITE,
              on_turn: Callable[[Dice, Play | None], object] | None = None) -> GameScore:
    """One game with dice from ``rng``; ``first`` moves first, with ``color``'s checkers.
    ``on_turn`` is told each turn's roll and play (None for a pass), as they are played."""
    position = Position.start(variant, color)
    seats = {color: first, color.other: second}
    first_luck = 0.0
    for turn in range(1, MAX_TURNS + 1):
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        if luck is not None:
            first_luck += luck(position, dice) if position.turn == color else -luck(position, dice)
        legal = position.legal_plays(dice)
        if len(legal) == 0:
            if on_turn is not None:
                on_turn(dice, None)
            position = position.pass_turn()
        else:
            chosen = seats[position.turn].choose(legal)
            if on_turn is not None:
                on_turn(dice, legal[chosen])
            position = legal.after(chosen)
        result = position.result()
        if result is not None:
            if result.winner is None:
                return GameScore(0, turn, first_luck)
            return GameScore(result.points if result.winner == color else -result.points, turn, first_luck)
    raise RuntimeError(f"game not over after {MAX_TURNS} turns")


def duel(variant: Variant | str, a: Player, b: Player, games: int, seed: int = 0,
         on_game: Callable[[DuelResult], None] | None = None, luck: LuckMeter | None = None) -> DuelResult:
    """Play ``games`` games of ``a`` against ``b``; the result is ``a``'s points
    (and, with ``luck``, ``a``'s luck)."""
    v = make_variant(variant)
    result = DuelResult()
    for k in range(games):
        rng = random.Random(seed * 1_000_003 + k // 2)
        if k % 2 == 0:
            points, turns, game_luck = play_game(v, a, b, rng, luck)
        else:
            points, turns, game_luck = play_game(v, b, a, rng, luck)
            points, game_luck = -points, -game_luck
        result.points.append(points)
        result.turns += turns
        if luck is not None:
            result.luck.append(game_luck)
        if on_game is not None:
            on_game(result)
    return result
