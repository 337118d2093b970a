"""Random games in the kernel: reproducible, complete, scored by the rules."""

from __future__ import annotations

import pytest

from tavli import BLACK, WHITE, Plakoto, Position
from tavli.bots.playout import random_playout, random_playouts
from tavli.variants import GAMES


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_games(game: str) -> None:
    start = Position.start(game)
    first = random_playouts(start, 30, seed=11)
    assert first == random_playouts(start, 30, seed=11)
    assert first != random_playouts(start, 30, seed=12)


@pytest.mark.parametrize("game", GAMES)
def test_games_end_with_a_scored_result(game: str) -> None:
    results = random_playouts(Position.start(game), 200, seed=3)
    for r in results:
        assert r.turns > 10
        assert (r.winner is None and r.points == 0) or (r.winner in (WHITE, BLACK) and r.points in (1, 2))
    winners = {r.winner for r in results}
    assert {WHITE, BLACK} <= winners
    # random play often leaves the loser with nothing borne off
    assert any(r.points == 2 for r in results)


def test_mother_pin_option_changes_the_score() -> None:
    single = random_playouts(Position.start(Plakoto(mother_pin="single")), 200, seed=5)
    double = random_playouts(Position.start(Plakoto()), 200, seed=5)
    assert sum(r.points for r in single) < sum(r.points for r in double)


def test_a_finished_race_is_won_by_the_side_to_move() -> None:
    # White bears off his last two checkers with any roll; Black has borne off none
    pos = Position.from_checkers("portes", WHITE, {1: 2}, {6: 15})
    result = random_playout(pos)
    assert result == (WHITE, 2, 1)


def test_turn_limit_stops_a_game() -> None:
    result = random_playout(Position.start("portes"), max_turns=3)
    assert result.winner is None and result.turns == 3
