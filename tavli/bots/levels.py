"""The neural bots' levels: how deep each searches and how much noise blurs its judgement.

A light table (no networks, no compiled code): ``tavli.bots.basic`` names the bots from it
without loading the networks, and ``tavli.bots.neural.NeuralBot`` plays at each level.

>>> LEVEL_NAMES[0], LEVELS[DEFAULT_LEVEL].depth
('beginner', 1)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """How a neural bot plays: search depth, and noise added to its 0-ply judgement."""

    name: str
    depth: int
    noise: float
    description: str


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("beginner", 0, 0.11, "makes big mistakes often"),
    Level("casual", 0, 0.07, "knows the game, still blunders"),
    Level("intermediate", 0, 0.04, "a steady club player"),
    Level("advanced", 0, 0.0, "the network's own judgement"),
    Level("expert", 1, 0.0, "looks one roll ahead"),
    Level("champion", 2, 0.0, "looks two rolls ahead"),
)}
"""The levels by name, weakest first."""
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)
"""The levels' names, weakest first."""
DEFAULT_LEVEL = "expert"
"""The level a bot plays at unless told otherwise."""

__all__ = ["DEFAULT_LEVEL", "LEVELS", "LEVEL_NAMES", "Level"]
