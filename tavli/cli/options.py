"""What the ``tavli`` commands share: the error of bad input, the options of a match's house
rules and of the language, and the reading of a position."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

import click

from tavli.bots import BOTS
from tavli.errors import LANGUAGES, TavliError
from tavli.gnubg_id import POSITION_ID
from tavli.match import MatchSettings
from tavli.position import Position
from tavli.variants import variant_from_string


class InputError(click.ClickException):
    """Bad input from the user: one line on stderr, exit status 2."""

    exit_code = 2


def read_position(variant_text: str | None, position_text: str) -> tuple[Position, bool]:
    """A position from a position string (its game field may be left out when
    ``variant_text`` names the game) or a GNU Backgammon Position ID (Portes,
    White on roll); also says whether it was an ID."""
    variant = variant_from_string(variant_text) if variant_text is not None else None
    text = position_text.strip()
    if POSITION_ID.fullmatch(text):
        if variant is not None and variant.name != "portes":
            raise TavliError(f"a GNU Backgammon Position ID is a Portes position, not {variant.name}")
        return Position.from_gnubg_id(text), True
    if len(text.split()) == 4:
        if variant is None:
            raise TavliError("the position string has no game field: give the game with --variant")
        text = f"{variant} {text}"
    pos = Position.from_string(text)
    if variant is not None and pos.variant != variant:
        raise TavliError(f"the position is {pos.variant} but the game asked for is {variant}")
    return pos, False


SEATS = ("human", *BOTS)


F = TypeVar("F", bound=Callable[..., object])


def house_rule_options(command: F) -> F:
    """The house rules a match can choose (``MatchSettings``), as ``--mother-pin``,
    ``--prime-limits`` and ``--prime-in-opponent-start``; ``match_settings`` reads them."""
    options = (
        click.option("--mother-pin", type=click.Choice(["double", "single", "off"]), default="double",
                     show_default=True, help="Plakoto: points for pinning the mother"),
        click.option("--prime-limits", type=click.Choice(["on", "off"]), default="on", show_default=True,
                     help="Fevga: the prime limits (off = Moultezim)"),
        click.option("--prime-in-opponent-start", type=click.Choice(["on", "off"]), default="on",
                     show_default=True, help="Fevga: forbid holding all of points 7-12"),
    )
    for option in reversed(options):
        command = option(command)
    return command


def locale_language(environ: Mapping[str, str] = os.environ) -> str:
    """``el`` where the locale is Greek, else ``en``: the first of ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` that is set decides, as for gettext.

    >>> locale_language({"LANG": "el_GR.UTF-8"}), locale_language({"LC_ALL": "C", "LANG": "el_GR"})
    ('el', 'en')
    """
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").split(":")[0]
        if value:
            return "el" if value.lower().startswith("el") else "en"
    return "en"


def language_option(command: F) -> F:
    """``--lang``: the language of what the terminal says; by default the locale's."""
    return click.option("--lang", "language", type=click.Choice(LANGUAGES), default=lambda: locale_language(),
                        show_default="el in a Greek locale, else en",
                        help="speak English or Greek")(command)


def match_settings(length: int, games: str, mother_pin: str, prime_limits: str,
              prime_in_opponent_start: str) -> MatchSettings:
    try:
        return MatchSettings(length=length, games=MatchSettings.parse_games(games),
                             mother_pin=mother_pin,  # type: ignore[arg-type]  # click.Choice checked it
                             prime_limits=prime_limits == "on",
                             prime_in_opponent_start=prime_in_opponent_start == "on")
    except ValueError as e:
        raise InputError(str(e)) from None


def check_writable(path: Path) -> None:
    """Fail now, in one line, rather than after the match."""
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as e:
        raise InputError(f"cannot write {path}: {e.strerror or e}") from None
    if not existed:
        path.unlink()

