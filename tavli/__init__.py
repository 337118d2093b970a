"""Tavli: the Greek backgammon games Portes, Plakoto and Fevga.

>>> from tavli import Position, Dice
>>> pos = Position.start("plakoto")
>>> sorted(str(p) for p in pos.legal_plays(Dice(6, 5)))
['24/13', '24/19 24/18']

The rules core stands in this folder; the floors above it are subpackages: ``tavli.bots``,
``tavli.formats``, ``tavli.study``, ``tavli.engines``, ``tavli.terminal``, ``tavli.server``
and ``tavli.cli`` (docs/architecture.md).
"""

from tavli.dice import ALL_ROLLS, Dice, DiceRoller
from tavli.errors import (
    AmbiguousPlayError,
    DiceError,
    GameOverError,
    IllegalPlayError,
    NotationError,
    PositionFormatError,
    TavliError,
)
from tavli.position import PASS, GameResult, LegalPlays, Play, PointView, Position, Step, StepNode
from tavli.variants import (
    BLACK,
    WHITE,
    Color,
    Fevga,
    Plakoto,
    Portes,
    Variant,
    make_variant,
    variant_from_string,
)

__all__ = [
    "ALL_ROLLS", "BLACK", "PASS", "WHITE", "AmbiguousPlayError", "Color", "Dice", "DiceError",
    "DiceRoller", "Fevga", "GameOverError", "GameResult", "IllegalPlayError", "LegalPlays",
    "NotationError", "Plakoto", "Play", "PointView", "Portes", "Position", "PositionFormatError",
    "Step", "StepNode", "TavliError", "Variant", "make_variant", "variant_from_string",
]
__version__ = "0.1.0"

