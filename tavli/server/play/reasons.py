"""Reasons as the browser is sent them, so that it can say them in the player's language.

An error's words are English; the pages have the Greek words of each of the library's and the
server's templates (``tavli.errors.translations``, loaded as ``/static/reasons.js``) and fill in
the values sent here.
"""

from __future__ import annotations

from typing import Any

from tavli.errors import Reason


def reason_of(what: str | Reason | BaseException) -> Reason:
    """The ``Reason`` of an error or words (words, or an error that keeps no ``reason``, are
    their own template: they show as they are in every language)."""
    if isinstance(what, Reason):
        return what
    kept = getattr(what, "reason", None)  # the library's errors, the server's refusals
    return kept if isinstance(kept, Reason) else Reason(one_line(what))


def one_line(what: str | Reason | BaseException) -> str:
    """The first line of the words (an error without words: its class's name)."""
    lines = str(what).strip().splitlines()
    return lines[0] if lines else type(what).__name__


def reason_json(what: str | Reason | BaseException) -> dict[str, Any]:
    """``{"text": words, "template": English template, "params": {name: value}}``, each value
    as it shows in the words, or a reason of its own (the same object).

    >>> reason_json(Reason("point {point}: {count} checkers", point=7, count=16))["params"]
    {'point': '7', 'count': '16'}
    """
    reason = reason_of(what)
    return {"text": one_line(reason), "template": reason.template,
            "params": {name: reason_json(value) if isinstance(value, Reason) else value
                       for name, value in reason.values().items()}}
