"""Tavli: the Greek backgammon games Portes, Plakoto and Fevga.

>>> from tavli import Position, Dice
>>> pos = Position.start("plakoto")
>>> sorted(str(p) for p in pos.legal_plays(Dice(6, 5)))
['24/13', '24/19 24/18']

The rules core stands in this folder; the floors above it are subpackages: ``tavli.bots``,
``tavli.formats``, ``tavli.study``, ``tavli.engines``, ``tavli.terminal``, ``tavli.server``
and ``tavli.cli`` (docs/architecture.md).
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

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


_MOVED = {
    "tavli.analysis": "tavli.study.analysis",
    "tavli.bearoff": "tavli.bots.bearoff",
    "tavli.chances": "tavli.study.chances",
    "tavli.duel": "tavli.bots.duel",
    "tavli.engine": "tavli.engines.arena",
    "tavli.engine_protocol": "tavli.engines.tavli_protocol",
    "tavli.gnubg_player": "tavli.bots.gnubg_player",
    "tavli.mat": "tavli.formats.mat",
    "tavli.met": "tavli.bots.match_equity",
    "tavli.neural": "tavli.bots.neural",
    "tavli.openings": "tavli.study.openings",
    "tavli.playout": "tavli.bots.playout",
    "tavli.record": "tavli.formats.record",
    "tavli.remote": "tavli.terminal.remote",
    "tavli.reports": "tavli.terminal.reports",
    "tavli.rollout": "tavli.bots.rollout",
    "tavli.teacher": "tavli.bots.teacher",
    "tavli.training": "tavli.bots.training",
}
"""Modules by the names they had before the subpackages, kept so that code written for them
still imports (with a ``DeprecationWarning``): ``import tavli.record`` is ``tavli.formats.record``."""


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers an old module name with the module at its new place (the same object)."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = _MOVED[spec.name]
        warnings.warn(f"{spec.name} is now {new}", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        self._specs[new] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import machinery set the old name's spec on the module: give it back its own
        module.__spec__ = self._specs[module.__name__]


sys.meta_path.append(_MovedModuleFinder())
