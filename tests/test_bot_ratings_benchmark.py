"""``benchmarks/strength/bot_ratings.py``: the lobby's bot ratings worked out from the measured
edges of docs/strength.md, and kept in step with the levels' ``lobby_rating``
(``tavli.server.cafe.lobby.BOT_RATINGS``)."""

from __future__ import annotations

import math
from types import ModuleType

import pytest
from benchmark_module import benchmark

from tavli.bots.match_equity import Outcomes
from tavli.server.cafe.lobby import BOT_RATINGS
from tavli.variants import GAMES


def script() -> ModuleType:
    return benchmark("strength/bot_ratings")


def test_the_edges_are_read_from_the_strength_table() -> None:
    module = script()
    edges = module.measured_edges(module.STRENGTH.read_text(encoding="utf-8"))
    assert set(edges) == set(GAMES)
    assert all(set(found) == set(BOT_RATINGS) - {"beginner"} for found in edges.values())
    assert edges["portes"]["intermediate"] == 0.245 and edges["fevga"]["champion"] == 0.064


def test_an_edge_becomes_a_games_chance_that_scores_it() -> None:
    module = script()
    even = Outcomes(0.39, 0.1, 0.02, 0.39, 0.1)
    rates, p = module.game_chances(even, 0.2)
    win1, win2, tie, lose1, lose2 = rates
    assert math.isclose(win1 + 2 * win2 - lose1 - 2 * lose2, 0.2) and tie == 0.02 and p > 0.5
    assert math.isclose(sum(rates), 1.0)
    assert module.game_chances(even, 0.0)[1] == 0.5


def test_an_even_match_is_even_and_an_edge_grows_with_the_length() -> None:
    module = script()
    even, _ = module.game_chances(Outcomes(0.39, 0.1, 0.02, 0.39, 0.1), 0.0)
    assert math.isclose(module.match_chance({"plakoto": even}, ("plakoto",), 5), 0.5)
    better, p = module.game_chances(Outcomes(0.35, 0.15, 0.0, 0.35, 0.15), 0.1)
    one, five = (module.match_chance({"portes": better}, ("portes",), n) for n in (1, 5))
    assert math.isclose(one, p) and five > one
    assert module.rating_gap(0.5) == 0.0 and math.isclose(module.rating_gap(1 / (1 + 10 ** -0.5)), 200, rel_tol=1e-4)


def test_the_lobby_ratings_are_the_ones_worked_out(capsys: pytest.CaptureFixture[str]) -> None:
    module = script()
    found = module.ratings(module.measured_edges(module.STRENGTH.read_text(encoding="utf-8")))
    assert {level: round(value, -1) for level, value in found.items()} == BOT_RATINGS
    assert list(found) == sorted(found, key=found.__getitem__)  # each level above the one below
    assert module.main([]) == 0
    assert "intermediate:   1500" in capsys.readouterr().out
