"""The core, the benchmarks and the data tools type-check under mypy --strict and the code base passes ruff."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    path = Path(sys.executable).parent / name
    found = str(path) if path.exists() else shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
    return found


def test_mypy_strict() -> None:
    run = subprocess.run([_tool("mypy"), "--strict", "tavli", "benchmarks", "tools"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_ruff() -> None:
    run = subprocess.run([_tool("ruff"), "check", "tavli", "tests", "benchmarks", "tools", ".ci"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
