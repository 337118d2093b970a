"""A script of ``benchmarks/`` loaded as a module, for the tests of its parts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def benchmark(name: str) -> ModuleType:
    """``benchmarks/<name>.py`` as a module. The scripts import their neighbours (``peers``,
    ``goals``) by name, and their dataclasses look their own module up by name, so both go where
    Python looks."""
    folder = str(ROOT / "benchmarks")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
