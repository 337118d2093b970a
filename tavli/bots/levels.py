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
    """How a neural bot plays: search depth, and noise added to its 0-ply judgement; and its
    rating on the players' scale, where the lobby offers it (``None`` for a level tried aside)."""

    name: str
    depth: int
    noise: float
    description: str
    lobby_rating: float | None = None


# The lobby ratings: each level's measured edge over the one below, in 5-point Tavli matches, made
# a Glicko-2 gap, the intermediate level at a newcomer's 1500 (benchmarks/strength/bot_ratings.py,
# docs/strength.md, "The levels' lobby ratings"; tests/test_bot_ratings_benchmark.py keeps them in step).
LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("beginner", 0, 0.11, "makes big mistakes often", 1260.0),
    Level("casual", 0, 0.07, "knows the game, still blunders", 1390.0),
    Level("intermediate", 0, 0.04, "a steady club player", 1500.0),
    Level("advanced", 0, 0.0, "the network's own judgement", 1600.0),
    Level("expert", 1, 0.0, "looks one roll ahead", 1640.0),
    Level("champion", 2, 0.0, "looks two rolls ahead", 1680.0),
)}
"""The levels by name, weakest first."""
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)
"""The levels' names, weakest first."""
DEFAULT_LEVEL = "expert"
"""The level a bot plays at unless told otherwise."""

__all__ = ["DEFAULT_LEVEL", "LEVELS", "LEVEL_NAMES", "Level"]
