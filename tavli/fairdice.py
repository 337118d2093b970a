"""Dice anyone can check: each game's dice come from a secret seed committed to in advance.

Before a game the dealer publishes ``commitment(seed)``, the SHA-256 of the
seed; after the game it reveals the seed, and anyone can recompute every die
with ``dice_stream(seed)`` (see docs/web.md, "Fair dice").

>>> seed = bytes(32)
>>> commitment(seed)[:16]
'66687aadf862bd77'
>>> from itertools import islice
>>> list(islice(dice_stream(seed), 6))
[4, 4, 1, 5, 1, 3]
>>> roller = SeededRoller([seed])
>>> roller.start_game(0)
>>> roller.roll()
Dice(first=4, second=4)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Iterator, Sequence

from tavli.dice import DiceRoller
from tavli.errors import DiceError

SEED_BYTES = 32


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's cryptographic source."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The SHA-256 of ``seed`` in hex: published before the game."""
    return hashlib.sha256(seed).hexdigest()


def dice_stream(seed: bytes) -> Iterator[int]:
    """The dice of a seed, one die at a time, without end.

    The bytes of HMAC-SHA256(seed, j) for j = 0, 1, ... (j as 8 big-endian
    bytes); bytes of 252 and above are skipped so that every face is equally
    likely, and byte ``b`` is the die ``b % 6 + 1``.
    """
    j = 0
    while True:
        for b in hmac.new(seed, j.to_bytes(8, "big"), hashlib.sha256).digest():
            if b < 252:
                yield b % 6 + 1
        j += 1


def check_game(seed_hex: str, committed: str, dice: Iterable[int]) -> None:
    """Raise DiceError unless ``seed_hex`` matches ``committed`` and gives exactly ``dice`` in order.

    >>> seed = bytes(32)
    >>> check_game(seed.hex(), commitment(seed), [4, 4, 1])
    >>> check_game(seed.hex(), commitment(seed), [4, 3])
    Traceback (most recent call last):
    ...
    tavli.errors.DiceError: die 2 is 3, but the seed gives 4
    """
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        raise DiceError("the seed must be hex digits, not {text!r}", text=seed_hex) from None
    if not hmac.compare_digest(commitment(seed), committed.lower()):
        raise DiceError("the seed does not match the commitment published before the game")
    stream = dice_stream(seed)
    for k, die in enumerate(dice, 1):
        expected = next(stream)
        if die != expected:
            raise DiceError("die {k} is {die}, but the seed gives {expected}", k=k, die=die, expected=expected)


class SeededRoller(DiceRoller):
    """Dice from one seed per game; ``Match`` calls ``start_game`` before each game's first die.

    ``seeds`` are the seeds of the games so far (kept, not copied: the list
    grows); a game without one gets a new seed from ``make_seed``.
    """

    def __init__(self, seeds: list[bytes] | None = None,
                 make_seed: Callable[[], bytes] = new_seed) -> None:
        self.seeds: list[bytes] = seeds if seeds is not None else []
        self.dice_used: list[int] = []
        """The dice of the current game so far, the roll-off included."""
        self._make_seed = make_seed
        self._stream: Iterator[int] | None = None

    def start_game(self, index: int) -> None:
        if index > len(self.seeds):
            raise DiceError("game {index} starts before game {seeded} has a seed", index=index, seeded=len(self.seeds))
        if index == len(self.seeds):
            self.seeds.append(self._make_seed())
        self._stream = dice_stream(self.seeds[index])
        self.dice_used = []

    def die(self) -> int:
        if self._stream is None:
            raise DiceError("no game has started: call start_game first")
        value = next(self._stream)
        self.dice_used.append(value)
        return value


def dice_of_rolls(opening: Sequence[Sequence[int]], rolls: Sequence[Sequence[int]]) -> list[int]:
    """The dice of a game in the order they were drawn: the roll-off, then each roll."""
    return [d for pair in opening for d in pair] + [d for roll in rolls for d in roll]
