"""Errors raised by the library: all are ``ValueError`` subclasses.

Each keeps its reason as a ``Reason``: a fixed English template and the values filled into it.
The words are the error's message; ``Reason.words("el")`` says it in Greek, from the table of
every template's Greek words (``tavli/data/reasons.el.json``), with the same values.
"""

from __future__ import annotations

import functools
import json
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

_FORMATTER = string.Formatter()

LANGUAGES = ("en", "el")
"""The languages a reason can be said in: English, and Greek."""


@functools.cache
def translations(language: str, table: str = "reasons") -> Mapping[str, str]:
    """Each English template's words in ``language`` (``{name}`` fields, the values already
    formatted), from the library's ``table``: ``reasons`` for its errors and results,
    ``terminal`` for the words of ``tavli.terminal``. English has none: its words are the
    templates."""
    if language not in LANGUAGES:
        raise ValueError(f"no words in {language!r}: the languages are {', '.join(LANGUAGES)}")
    if language == "en":
        return {}
    text = (resources.files("tavli") / "data" / f"{table}.{language}.json").read_text(encoding="utf-8")
    words: dict[str, str] = json.loads(text)
    return words


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

    def words(self, language: str = "en") -> str:
        """The reason in ``language`` (see ``LANGUAGES``): the template's words there with the
        values filled in, each reason within in the same language; English where it has none.

        >>> Reason("the board has {count} points, not 24", count=23).words("el")
        'το ταμπλό έχει 23 σημεία, όχι 24'
        """
        words = translations(language).get(self.template)
        if words is None:
            return str(self)
        values = self.values()
        return re.sub(r"\{(\w+)\}", lambda m: _said(values[m.group(1)], language), words)

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
            if not conversion and not spec and isinstance(value, Reason | TavliError):
                out[name] = value if isinstance(value, Reason) else value.reason
            else:
                out[name] = format(_FORMATTER.convert_field(value, conversion), spec or "")
        return out


def _said(value: Any, language: str) -> str:
    return value.words(language) if isinstance(value, Reason) else str(value)


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
