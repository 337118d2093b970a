"""Errors raised by the library: all are ``ValueError`` subclasses."""

from __future__ import annotations


class TavliError(ValueError):
    """Base class of every error the library raises for bad input."""


class IllegalPlayError(TavliError):
    """A play that the rules do not allow, with the reason in words.

    >>> from tavli import Position, Dice
    >>> Position.start("portes").parse_play("6/1", Dice(5, 1))
    Traceback (most recent call last):
    ...
    tavli.errors.IllegalPlayError: 6/1 is blocked
    """


class AmbiguousPlayError(IllegalPlayError):
    """Move notation that fits more than one legal play."""


class NotationError(TavliError):
    """Move notation that cannot be read at all."""


class PositionFormatError(TavliError):
    """A position string or GNU Backgammon Position ID that cannot be read."""


class DiceError(TavliError):
    """Dice that are not two numbers from 1 to 6."""


class GameOverError(TavliError):
    """An action on a game or match that has already ended."""
