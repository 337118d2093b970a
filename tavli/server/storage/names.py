r"""Players' names that cannot pass for another's (docs/cafe.md, "Players' names").

A name shown on the board or in the lobby must look like no one else's. Three rules, from
Unicode's security mechanisms for identifiers (UTS #39), through the ``confusable-homoglyphs``
package's copy of Unicode's data:

- **no invisible characters**: the default-ignorable ones (Hangul fillers, zero-width spaces and
  joiners, direction marks, variation selectors) draw nothing, so ``admin`` and ``ad\u200bmin`` look
  the same (``invisible``);
- **one script**: a name's letters are all Greek, or all Latin, or all Cyrillic, ... (digits,
  spaces and punctuation belong to every script), save the mixes Japanese, Chinese and Korean
  are written in; ``аdmin`` with a Cyrillic а is refused (``scripts_mixed``);
- **no twins**: two names with the same *look-alike key* (their confusable skeletons, compared
  ignoring case as names are) look the same, so a new one whose key is an account's is taken
  (``look_alike_key``).

>>> check_look("Νίκος"), check_look("Nikos 7")
('Νίκος', 'Nikos 7')
>>> check_look("Nikοs")  # a Greek omicron among Latin letters
Traceback (most recent call last):
...
tavli.server.storage.names.UnclearName: a name's letters must all be of one script, such as Greek or Latin
>>> look_alike_key("ΑΒΕ") == look_alike_key("ABE") == look_alike_key("abe")
True

An account's name is stored under two keys (``tavli.server.storage.schema.accounts``): its
``account_key`` (one name whatever its case and compatibility forms) and its ``look_alike_key``;
``looks_taken`` asks the database whether a name is an account's or looks like one. The accounts'
rules are ``tavli.server.cafe.accounts``'; a guest's name is checked in ``tavli.server.play.seats``.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import categories, confusables
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from tavli.errors import TavliError
from tavli.server.storage.schema import LOOK_KEY_LENGTH, accounts

INVISIBLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
    (0x2800, 0x2800),  # BRAILLE PATTERN BLANK: a symbol, not ignorable, but it draws nothing too
)
"""The code points that draw nothing: Unicode's Default_Ignorable_Code_Point
(DerivedCoreProperties.txt; Python's ``unicodedata`` does not have the property), and the blank
Braille pattern."""

MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
"""The scripts one name may mix: those Japanese, Chinese and Korean are written in, with Latin
(UTS #39's "highly restrictive" level)."""

EVERY_SCRIPT = frozenset({"COMMON", "INHERITED"})
"""Digits, spaces, punctuation and combining marks: of no script of their own."""


class UnclearName(TavliError):
    """A name that holds invisible characters or mixes scripts: it could pass for another's."""


def invisible(c: str) -> bool:
    r"""Whether the character ``c`` draws nothing.

    >>> invisible("\u3164"), invisible("\u200d"), invisible("\ufe0f"), invisible("a")
    (True, True, True, False)
    """
    point = ord(c)
    return any(low <= point <= high for low, high in INVISIBLE)


def scripts(name: str) -> frozenset[str]:
    """The scripts of ``name``'s letters (Unicode's Scripts.txt), without those of every script.

    >>> sorted(scripts("Nikοs_7")), sorted(scripts("Γιώργος"))
    (['GREEK', 'LATIN'], ['GREEK'])
    """
    return frozenset(categories.alias(c).upper() for c in name) - EVERY_SCRIPT


def scripts_mixed(name: str) -> bool:
    """Whether ``name`` mixes scripts as no language writes them.

    >>> scripts_mixed("аdmin"), scripts_mixed("admin"), scripts_mixed("山田たろう"), scripts_mixed("Nikos Νίκος")
    (True, False, False, True)
    """
    found = scripts(name)
    return len(found) > 1 and not any(found <= mix for mix in MIXES)


def check_look(name: str) -> str:
    r"""``name``, if it can pass for no other: ``UnclearName`` where it holds an invisible
    character or mixes scripts. The caller has normalized it (NFKC) and checked its length and
    characters.

    >>> check_look("\u3164")
    Traceback (most recent call last):
    ...
    tavli.server.storage.names.UnclearName: a name may not hold invisible characters
    """
    if any(invisible(c) for c in name):
        raise UnclearName("a name may not hold invisible characters")
    if scripts_mixed(name):
        raise UnclearName("a name's letters must all be of one script, such as Greek or Latin")
    return name


def skeleton(name: str) -> str:
    """``name``'s confusable skeleton (UTS #39, section 4): each character replaced by the one it
    is taken for, so that two names that look the same have the same skeleton.

    >>> skeleton("Νikos") == skeleton("Nikos"), skeleton("rn") == skeleton("m")
    (True, True)
    >>> skeleton("N1kos") == skeleton("Nikos")  # 1 looks like l, not like i
    False
    """
    nfd = unicodedata.normalize("NFD", name)
    return unicodedata.normalize("NFD", "".join(_prototype(c) for c in nfd))


def look_alike_key(name: str) -> str:
    """The key under which names that look the same meet, ignoring case as names are compared:
    the skeleton, case-folded, and its skeleton again (the small letters meet their own
    look-alikes): ``ΤΟΜ`` in Greek capitals looks like ``TOM``, which is ``Tom``'s name too.

    >>> look_alike_key("ΤΟΜ") == look_alike_key("Tom"), look_alike_key("Nik0s") == look_alike_key("nikos")
    (True, True)
    >>> look_alike_key("Νίκος") == look_alike_key("Nikos"), look_alike_key("N1kos") == look_alike_key("Nikos")
    (False, False)
    """
    return skeleton(skeleton(name).casefold())


def account_key(name: str) -> str:
    """The form in which names are compared: NFKC, case-folded, NFKC again (Unicode's
    "identifier caseless match").

    >>> account_key("Nikos") == account_key("NIKOS") == account_key("ｎｉｋｏｓ")
    True
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


async def looks_taken(engine: AsyncEngine, name: str) -> bool:
    """Whether ``name`` is an account's, or looks the same as one (a guest may not take it)."""
    query = select(accounts.c.id).where((accounts.c.name_key == account_key(name))
                                        | (accounts.c.look_key == look_alike_key(name)[:LOOK_KEY_LENGTH]))
    async with engine.connect() as conn:
        return (await conn.execute(query.limit(1))).first() is not None


@functools.cache
def _prototype(c: str) -> str:
    """What ``c`` is taken for: its prototype in confusables.txt, or itself."""
    found = _prototypes().get(c)
    if found is None:
        return c
    return "".join(_prototype(p) for p in found)


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype, as confusables.txt maps it.

    confusable-homoglyphs keeps each line ``source -> prototype`` both ways: a source lists its one
    prototype, a prototype every source of its own. Where a prototype has a single source, the two
    list each other alone and the file's direction is lost: the lower code point then stands for
    both, which keeps every two strings' skeletons equal exactly where Unicode's are.
    """
    alikes: dict[str, list[str]] = {}
    for char, found in confusables.confusables_data.items():
        # right-to-left characters come wrapped in left-to-right marks, as the file's comments show them
        alikes.setdefault(char.replace("\u200e", ""), []).extend(a["c"].replace("\u200e", "") for a in found)
    table: dict[str, str] = {}
    for char, found in alikes.items():
        if len(char) != 1 or len(found) != 1 or found[0] == char:
            continue  # a prototype of several sources, or of several characters
        target = found[0]
        if len(target) == 1 and len(alikes.get(target, ())) == 1 and char < target:
            continue  # a pair that lists each other alone: the lower stands for both
        table[char] = target
    return table
