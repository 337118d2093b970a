"""Dice: a value type for one roll, and fair sources of rolls."""

from __future__ import annotations

import random
import re
import secrets
from typing import NamedTuple

from tavli.errors import DiceError

ALL_ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct rolls, low die first."""


class Dice(NamedTuple):
    """One roll of the two dice, as rolled.

    >>> Dice.parse("62")
    Dice(first=6, second=2)
    >>> Dice(3, 3).moves
    (3, 3, 3, 3)
    """

    first: int
    second: int

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read ``62``, ``6-2``, ``6 2`` or ``6,2``."""
        m = re.fullmatch(r"\s*([1-6])\s*[-, ]?\s*([1-6])\s*", text)
        if not m:
            raise DiceError("dice must be two numbers from 1 to 6, like 62 or 6-2, not {text!r}", text=text)
        return cls(int(m.group(1)), int(m.group(2)))

    @classmethod
    def of(cls, value: Dice | tuple[int, int] | str) -> Dice:
        """Accept a ``Dice``, a pair of ints or a string."""
        if isinstance(value, str):
            return cls.parse(value)
        try:
            a, b = value
        except (TypeError, ValueError):
            raise DiceError("dice must be two numbers from 1 to 6, not {value!r}", value=value) from None
        if not (type(a) is int and type(b) is int and 1 <= a <= 6 and 1 <= b <= 6):
            raise DiceError("dice must be two numbers from 1 to 6, not {value!r}", value=value)
        return cls(a, b)

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    @property
    def high(self) -> int:
        return max(self)

    @property
    def low(self) -> int:
        return min(self)

    @property
    def moves(self) -> tuple[int, ...]:
        """The die values to play: four for a double."""
        return (self.first,) * 4 if self.is_double else (self.first, self.second)

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


class DiceRoller:
    """A source of rolls: cryptographic by default, reproducible with a seed.

    >>> roller = DiceRoller(seed=7)
    >>> roller.roll() == DiceRoller(seed=7).roll()
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()

    def start_game(self, index: int) -> None:
        """Called by ``Match`` before the first die of game ``index`` (0-based); nothing here."""

    def die(self) -> int:
        return self._rng.randint(1, 6)

    def roll(self) -> Dice:
        return Dice(self.die(), self.die())
