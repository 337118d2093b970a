"""``benchmarks/strength/strength.py``: which pairings it plans, and the trial level above the champion."""

from __future__ import annotations

import argparse
from types import ModuleType

import pytest
from benchmark_module import benchmark

from tavli import Dice, Position
from tavli.bots.levels import LEVELS


def strength() -> ModuleType:
    return benchmark("strength/strength")


def options(**given: object) -> argparse.Namespace:
    base: dict[str, object] = dict(variants=["portes"], levels=["champion"], opponents=["below"], games=4000,
                                   games_random=1000, games_heuristic=None, games_below=None, games_pubeval=None,
                                   games_gnubg=None, gnubg_ply=0, seed=1, max_seconds=None, no_luck=False)
    return argparse.Namespace(**(base | given))


def test_the_trial_level_plays_the_champion_as_the_level_below() -> None:
    bench = strength()
    pairings = bench.plan(options(levels=["expert", "3-ply"], games_below=11), gnubg_ok=False)
    assert [(p.level, p.opponent, p.games) for p in pairings] == [("3-ply", "champion", 12), ("expert", "advanced", 12)]
    assert "3-ply" not in LEVELS  # a level to try, not one of the bots'


@pytest.mark.slow
def test_the_trial_level_searches_three_plies() -> None:
    bot = strength().make_player("3-ply", seed=1, gnubg_ply=0)
    assert bot.name == "3-ply" and bot.level.depth == 3
    legal = Position.start("portes").legal_plays(Dice(6, 4))
    assert bot.analyse(legal)[0].depth == 3
    assert 0 <= bot.choose(legal) < len(legal)


def test_the_goals_look_only_at_the_bots_levels() -> None:
    bench = strength()

    def against_gnubg(level: str, less_luck: float) -> object:
        return bench.Outcome("portes", level, "gnubg", "gnubg-0ply", 2, 2, less_luck, 0.01, less_luck, 0.01, 1.0,
                             1, 1, 0.5, "above", False, 1.0, [1, -1], [0.0, 0.0])

    outcomes = [against_gnubg("champion", -0.1), against_gnubg("3-ply", 0.2)]
    gnubg, _ = bench.goals(outcomes, options(levels=["champion", "3-ply"], opponents=["gnubg"]))
    assert gnubg.status == "FAIL" and gnubg.detail.startswith("champion -0.100")
    only_trial = bench.goals(outcomes[1:], options(levels=["3-ply"], opponents=["gnubg"]))
    assert [goal.status for goal in only_trial] == ["not measured", "not measured"]
