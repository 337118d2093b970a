"""The three games as small variants over one rules kernel.

A variant is a value: its class says which game, its fields are the house
rules of RULES.md.

>>> Fevga(prime_limits=False).options()
{'prime_limits': 'off'}
>>> variant_from_string("plakoto,mother_pin=single")
Plakoto(mother_pin='single')
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import ClassVar, Literal

from tavli import _kernel as K
from tavli.errors import TavliError


class Color(enum.IntEnum):
    """The two sides. White's numbering is used to write positions down."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Color:
        return Color(1 - self)

    @property
    def letter(self) -> str:
        return "wb"[self]

    def __str__(self) -> str:
        return self.name.capitalize()


WHITE = Color.WHITE
BLACK = Color.BLACK

MotherPin = Literal["double", "single", "off"]


@dataclass(frozen=True)
class Variant:
    """One game of Tavli with its house rules."""

    name: ClassVar[str]
    kernel_id: ClassVar[int]
    start_points: ClassVar[tuple[tuple[int, int], ...]]
    """(point, checkers) of each side at the start, in his own numbering."""
    opposite_directions: ClassVar[bool] = True
    has_bar: ClassVar[bool] = False

    @property
    def params(self) -> int:
        """The rules packed for the kernel."""
        return K.pack_params(self.kernel_id)

    def other_numbering(self, point: int) -> int:
        """Map a point 1..24 of one player to the other's numbering."""
        if self.opposite_directions:
            return 25 - point
        return point - 12 if point > 12 else point + 12

    def options(self) -> dict[str, str]:
        """House rules that differ from the defaults, as text."""
        out: dict[str, str] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = _option_text(value)
        return out

    def __str__(self) -> str:
        return ",".join([self.name] + [f"{k}={v}" for k, v in self.options().items()])


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


@dataclass(frozen=True)
class Portes(Variant):
    """Backgammon without cube or triple win."""

    name: ClassVar[str] = "portes"
    kernel_id: ClassVar[int] = K.PORTES
    start_points: ClassVar[tuple[tuple[int, int], ...]] = ((24, 2), (13, 5), (8, 3), (6, 5))
    has_bar: ClassVar[bool] = True


@dataclass(frozen=True)
class Plakoto(Variant):
    """No hitting: a checker landing on a lone opposing checker pins it."""

    name: ClassVar[str] = "plakoto"
    kernel_id: ClassVar[int] = K.PLAKOTO
    start_points: ClassVar[tuple[tuple[int, int], ...]] = ((24, 15),)
    mother_pin: MotherPin = "double"

    def __post_init__(self) -> None:
        if self.mother_pin not in ("double", "single", "off"):
            raise TavliError("mother_pin must be double, single or off, not {text!r}", text=self.mother_pin)

    @property
    def params(self) -> int:
        mother = {"off": K.MOTHER_OFF, "single": K.MOTHER_SINGLE, "double": K.MOTHER_DOUBLE}
        return K.pack_params(self.kernel_id, mother=mother[self.mother_pin])


@dataclass(frozen=True)
class Fevga(Variant):
    """Both sides run the same way; a single checker holds a point."""

    name: ClassVar[str] = "fevga"
    kernel_id: ClassVar[int] = K.FEVGA
    start_points: ClassVar[tuple[tuple[int, int], ...]] = ((24, 15),)
    opposite_directions: ClassVar[bool] = False
    prime_limits: bool = True
    prime_in_opponent_start: bool = True

    @property
    def params(self) -> int:
        return K.pack_params(self.kernel_id, prime_limits=self.prime_limits,
                             prime_in_opponent_start=self.prime_in_opponent_start)


VARIANTS: dict[str, type[Variant]] = {v.name: v for v in (Portes, Plakoto, Fevga)}
"""The games by name, in the order a Tavli match plays them: the one list of the games."""
GAMES: tuple[str, ...] = tuple(VARIANTS)
"""The games' names: ``('portes', 'plakoto', 'fevga')``."""


def _parse_option(cls: type[Variant], key: str, text: str) -> object:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    if key not in fields:
        if not fields:
            raise TavliError("{game} has no option {key!r} (options: none)", game=cls.name, key=key)
        raise TavliError("{game} has no option {key!r} (options: {known})",
                         game=cls.name, key=key, known=", ".join(fields))
    if isinstance(fields[key].default, bool):
        if text.lower() in ("on", "true", "yes", "1"):
            return True
        if text.lower() in ("off", "false", "no", "0"):
            return False
        raise TavliError("option {key} must be on or off, not {text!r}", key=key, text=text)
    return text


def variant_from_string(text: str) -> Variant:
    """Read ``portes``, ``fevga,prime_limits=off`` and the like."""
    name, *opts = [part.strip() for part in text.strip().split(",")]
    cls = VARIANTS.get(name.lower())
    if cls is None:
        raise TavliError("unknown game {name!r}: choose portes, plakoto or fevga", name=name)
    kwargs: dict[str, object] = {}
    for opt in opts:
        key, sep, value = opt.partition("=")
        if not sep:
            raise TavliError("option {opt!r} must be written key=value", opt=opt)
        kwargs[key.strip()] = _parse_option(cls, key.strip(), value.strip())
    return cls(**kwargs)


def make_variant(value: Variant | str) -> Variant:
    """Accept a variant or its name."""
    return value if isinstance(value, Variant) else variant_from_string(value)
