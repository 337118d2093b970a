"""Errors raised by the library: all are ``ValueError`` subclasses.

Each keeps its reason as a ``Reason``: a fixed English template and the values filled into it.
The words are the error's message; a front end that speaks another language looks the template
up in its own table and fills in the same values (the web app does, in Greek).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_FORMATTER = string.Formatter()


@dataclass(frozen=True)
class Reason:
    """A reason in words: an English ``template`` with ``{name}`` fields (``str.format``; a
    field may add ``!r`` or a format spec) and the ``params`` that fill them. A param may itself
    be a ``Reason`` or a ``TavliError``, whose words are filled in.

    >>> r = Reason("point {point}: {count} checkers", point=7, count=16)
    >>> str(r)
    'point 7: 16 checkers'
    >>> r.values()
    {'point': '7', 'count': '16'}
    """

    template: str
    params: Mapping[str, object]

    def __init__(self, template: str, /, **params: object) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "params", params)

    def __str__(self) -> str:
        return self.template.format(**self.params) if self.params else self.template

    def values(self) -> dict[str, Any]:
        """Each field's value as it shows in the words (``!r`` and format specs applied), or,
        for a ``Reason`` or ``TavliError``, its ``Reason``."""
        out: dict[str, Any] = {}
        if not self.params:
            return out
        for _, name, spec, conversion in _FORMATTER.parse(self.template):
            if name is None:
                continue
            value = self.params[name]
            if isinstance(value, TavliError):
                value = value.reason
            if isinstance(value, Reason) and not conversion and not spec:
                out[name] = value
            else:
                out[name] = format(_FORMATTER.convert_field(value, conversion), spec or "")
        return out


class TavliError(ValueError):
    """Base class of every error the library raises for bad input: a one-line reason, kept as
    a ``Reason`` too (see the module).

    >>> e = TavliError("dice must be two numbers from 1 to 6, not {text!r}", text="77")
    >>> str(e)
    "dice must be two numbers from 1 to 6, not '77'"
    >>> e.reason.template
    'dice must be two numbers from 1 to 6, not {text!r}'
    """

    reason: Reason

    def __init__(self, template: str | Reason, /, **params: object) -> None:
        reason = template if isinstance(template, Reason) else Reason(template, **params)
        super().__init__(str(reason))
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:  # pickled whole, across the server's bot processes
        return (_rebuild, (type(self), self.reason), self.__dict__)


def _rebuild(cls: type[TavliError], reason: Reason) -> TavliError:
    return cls(reason)


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
