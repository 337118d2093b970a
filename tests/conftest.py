"""Shared test setup: compile the rules kernel once before any worker starts."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# CI replays the same examples every run; a developer's run explores new ones.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return  # an xdist worker: the controller has filled the cache already
    from tavli import Dice, Position

    # The first calls compile the numba kernel and cache it on disk, so the
    # parallel workers load it instead of compiling it twice at once.
    for name in ("portes", "plakoto", "fevga"):
        pos = Position.start(name)
        legal = pos.legal_plays(Dice(6, 5))
        legal.after(0).result()
        pos.parse_play(str(legal[0]), Dice(6, 5))
    # ... and so do the networks' search and the bear-off tables (built once, cached on disk)
    from tavli.neural import NeuralBot

    legal = Position.start("portes").legal_plays(Dice(6, 5))
    NeuralBot("champion").choose(legal)
