"""A script of ``benchmarks/`` or ``tools/`` loaded as a module, for the tests of its parts."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def benchmark(path: str) -> ModuleType:
    """``benchmarks/<path>.py`` (``"strength/calibration"``) as the module ``benchmarks.strength.calibration``.
    The scripts import their neighbours as ``benchmarks.goals`` and ``benchmarks.strength.peers``, and their
    dataclasses look their own module up by name, so the repository root goes where Python looks."""
    _root_on_path()
    return importlib.import_module("benchmarks." + path.replace("/", "."))


def tool(name: str) -> ModuleType:
    """``tools/<name>.py`` (``"outcomes"``) as the module ``tools.outcomes``, as ``benchmark`` loads a script."""
    _root_on_path()
    return importlib.import_module("tools." + name)


def _root_on_path() -> None:
    root = str(ROOT)
    if root not in sys.path:
        sys.path.insert(0, root)
