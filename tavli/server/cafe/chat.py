"""Talk across the table (docs/cafe.md, "Talk across the table"): the quick phrases, sent by their
key and said by each page in its own language (``PHRASES``); a line of text as it is kept and shown
(``clean_line``: normalised, control, bidirectional and invisible characters taken out, capped at
``MAX_LINE`` characters); the reasons a player may be reported for (``REPORT_REASONS``); and the
keys a mute names its player by (``mute_key``). The lines, mutes and reports are kept by
``tavli.server.storage.chat_log``; the lines go to the sockets by ``tavli.server.realtime.table_talk``.

>>> clean_line("  good\\u202e game\\u200b!\\n ")
'good game!'
>>> clean_line("<img src=x onerror=alert(1)>")
'<img src=x onerror=alert(1)>'
>>> len(clean_line("α" * 500)) == MAX_LINE
True
"""

from __future__ import annotations

import unicodedata

PHRASES: tuple[str, ...] = ("hello", "good-luck", "nice-roll", "well-played", "oops", "one-moment",
                            "thanks-for-the-game", "again")
"""The quick phrases, by key, in the order the board offers them: the one list (the pages have it
from ``/static/games.js``, their words from ``strings-en.js`` and ``strings-el.js``, ``phrase-KEY``)."""
MAX_LINE = 200
"""The most characters a line of text keeps (after ``clean_line``); the rest is cut off."""
MAX_NOTE = 500
"""The most characters of a report's note."""
REPORT_REASONS: tuple[str, ...] = ("abuse", "spam", "cheating", "name", "other")
"""Why a player may be reported: insults or threats, flooding, help during play (an engine), an
offensive name, something else (the note says what)."""
ROOMS = ("players", "spectators")
"""The two rooms of a match's chat: its players' table, and the spectators' own."""
REMOVED = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""The Unicode categories a line loses: control characters, the format characters (every
bidirectional override, embedding, isolate and mark, the zero-width spaces and joiners, the
byte-order mark), lone surrogates and the line and paragraph separators."""


def clean_line(text: str, limit: int = MAX_LINE) -> str:
    """``text`` as a line of chat keeps it: in its composed form (NFC), every character of the
    ``REMOVED`` categories taken out (a tab or a line break becomes a space first), its spaces
    tidied, at most ``limit`` characters. Nothing is made of markup: a line is text, and the pages
    set it as text.

    >>> clean_line("a\\tb\\u2066c\\u2069  d"), clean_line("e\\u0301")
    ('a bc d', 'é')
    """
    composed = unicodedata.normalize("NFC", text)
    kept = "".join(" " if c in "\t\n\r\v\f" else c for c in composed
                   if c in "\t\n\r\v\f" or unicodedata.category(c) not in REMOVED)
    return " ".join(kept.split())[:limit].rstrip()


def mute_key(match_id: str, seat: str, account_id: int | None) -> str:
    """Whom a mute names: an account (``a`` and its id: muted in every match), or a guest's seat of
    one match (``m``, the match and the seat).

    >>> mute_key("k3J9xQ2mWcA", "black", 7), mute_key("k3J9xQ2mWcA", "black", None)
    ('a7', 'mk3J9xQ2mWcA:black')
    """
    return f"a{account_id}" if account_id is not None else f"m{match_id}:{seat}"
