"""Duels: mirrored pairs of games with the same dice, and their statistics."""

from __future__ import annotations

import math
import random

import pytest

from tavli import Dice
from tavli.bots import HeuristicBot, RandomBot
from tavli.bots.duel import DuelResult, duel, play_game
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.position import LegalPlays, Position
from tavli.variants import GAMES, make_variant


class Recorder:
    """Wraps a player and notes the rolls of the turns it plays, game by game."""

    def __init__(self, inner: HeuristicBot | RandomBot, log: list[list[Dice]]) -> None:
        self.inner = inner
        self.name = inner.name
        self.log = log

    def choose(self, legal: LegalPlays) -> int:
        self.log[-1].append(legal.dice)
        return self.inner.choose(legal)


# -- statistics -----------------------------------------------------------------------

def test_statistics_by_hand() -> None:
    result = DuelResult([2, -1, 1, 1], turns=100)
    assert result.games == 4
    assert result.ppg == pytest.approx(0.75)
    assert result.wins == 3
    # pairs (2 - 1) / 2 = 0.5 and (1 + 1) / 2 = 1: variance 0.125, two samples
    assert result.ci95 == pytest.approx(1.96 * math.sqrt(0.125 / 2))
    assert str(result) == "+0.750 ± 0.490 ppg over 4 games (3 won)"


def test_statistics_of_three_pairs() -> None:
    result = DuelResult([2, 2, -2, 0, 1, -1])
    pairs = [2.0, -1.0, 0.0]
    mean = sum(pairs) / 3
    var = sum((p - mean) ** 2 for p in pairs) / 2
    assert result.ppg == pytest.approx(2 / 6)
    assert result.ci95 == pytest.approx(1.96 * math.sqrt(var / 3))
    assert result.wins == 3


def test_statistics_edge_cases() -> None:
    empty = DuelResult()
    assert (empty.games, empty.ppg, empty.wins) == (0, 0.0, 0)
    assert empty.ci95 == math.inf
    assert DuelResult([1, -2]).ci95 == math.inf  # one pair is one sample
    assert DuelResult([1, 1, 1, 1]).ci95 == 0.0
    assert DuelResult([0, 0]).wins == 0  # ties are no wins
    # an unpaired last game counts in ppg but not in the interval
    assert DuelResult([1, 1, 2, 2, -2]).ci95 == DuelResult([1, 1, 2, 2]).ci95
    assert DuelResult([1, 1, 2, 2, -2]).ppg == pytest.approx(4 / 5)


def test_points_less_luck_by_hand() -> None:
    result = DuelResult([2, -1, 1, 1], luck=[0.5, -0.5, 0.25, 0.75])
    assert result.luck_weight == pytest.approx(1.0)  # pairs: points (0.5, 1), luck (0, 0.5)
    assert result.adjusted == pytest.approx([1.5, -0.5, 0.75, 0.25])
    assert result.adjusted_ppg == pytest.approx(0.5)
    assert result.adjusted_ci95 == 0.0  # both pairs are worth 0.5
    assert str(result) == "+0.750 ± 0.490 ppg over 4 games (3 won); less luck +0.500 ± 0.000"
    unmeasured = DuelResult([2, -1, 1, 1])
    assert unmeasured.luck_weight == 0.0
    assert unmeasured.adjusted == [2, -1, 1, 1] and unmeasured.adjusted_ci95 == unmeasured.ci95


def test_luck_is_taken_off_in_the_multiple_that_fits_the_points() -> None:
    # pairs: points (1, -1, 1), luck (0.5, -0.5, 0): points = 1/3 + 2 luck, as well as can be
    result = DuelResult([1, 1, -1, -1, 2, 0], luck=[0.5, 0.5, -0.5, -0.5, 0.0, 0.0])
    assert result.luck_weight == pytest.approx(2.0)
    assert result.adjusted_ppg == pytest.approx(1 / 3)
    # luck that tells nothing of the points is left alone
    blind = DuelResult([1, 1, -1, -1, 1, 1, -1, -1], luck=[0.5, 0.5, 0.5, 0.5, -0.5, -0.5, -0.5, -0.5])
    assert blind.luck_weight == 0.0 and blind.adjusted_ppg == blind.ppg
    assert DuelResult([1, 1], luck=[0.5, 0.5]).luck_weight == 1.0  # one pair: no fit


# -- pairs share their dice --------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_a_deterministic_player_against_itself_scores_zero_per_pair(game: str) -> None:
    bot = HeuristicBot()
    result = duel(game, bot, bot, games=8, seed=3)
    assert result.games == 8
    for k in range(0, 8, 2):
        assert result.points[k] + result.points[k + 1] == 0
    assert any(result.points)  # the games were won and lost, not tied
    assert result.ppg == 0.0
    assert result.turns > 8 * 10


def test_pairs_replay_the_same_dice_with_seats_swapped() -> None:
    log: list[list[Dice]] = []
    a = Recorder(HeuristicBot(), log)
    b = Recorder(RandomBot(seed=1), log)
    games = 6
    seen: list[list[Dice]] = []

    def on_game(_: DuelResult) -> None:
        seen.append(log[-1])
        log.append([])

    log.append([])
    duel("portes", a, b, games=games, seed=11, on_game=on_game)
    assert len(seen) == games
    for k in range(0, games, 2):
        # turn by turn the same rolls (no side can be closed out in the first turns)
        assert len(seen[k]) >= 4 and seen[k][:4] == seen[k + 1][:4]
    assert len({tuple(rolls[:4]) for rolls in seen[::2]}) == games // 2  # but pairs differ


class Tell:
    """Plays the first legal play and notes its name each turn."""

    def __init__(self, name: str, moves: list[str]) -> None:
        self.name = name
        self.moves = moves

    def choose(self, legal: LegalPlays) -> int:
        self.moves.append(self.name)
        return 0


def test_first_player_alternates() -> None:
    moves: list[str] = []
    play_game(make_variant("fevga"), Tell("x", moves), Tell("y", moves), random.Random(5))
    assert moves[:2] == ["x", "y"]
    moves.clear()
    duel("fevga", Tell("a", moves), Tell("b", moves), games=4, seed=0, on_game=lambda r: moves.append("|"))
    games = "".join(moves).split("|")[:4]
    assert [g[0] for g in games] == ["a", "b", "a", "b"]


def test_play_game_reports_points_and_turns() -> None:
    rng1, rng2 = random.Random(9), random.Random(9)
    first = play_game(make_variant("portes"), HeuristicBot(), RandomBot(seed=2), rng1)
    again = play_game(make_variant("portes"), HeuristicBot(), RandomBot(seed=2), rng2)
    assert first == again
    points, turns, luck = first
    assert points in (-2, -1, 1, 2) and turns > 10 and luck == 0.0


# -- reproducibility -----------------------------------------------------------------

def test_same_seed_same_duel() -> None:
    one = duel("plakoto", HeuristicBot(), RandomBot(seed=4), games=6, seed=21)
    two = duel("plakoto", HeuristicBot(), RandomBot(seed=4), games=6, seed=21)
    assert one.points == two.points and one.turns == two.turns
    other = duel("plakoto", HeuristicBot(), RandomBot(seed=4), games=6, seed=22)
    assert (other.points, other.turns) != (one.points, one.turns)


def test_the_heuristic_bot_beats_random_play() -> None:
    result = duel("portes", HeuristicBot(), RandomBot(seed=1), games=20, seed=2)
    assert result.ppg > 0.5
    assert result.wins >= 14
    assert 0 < result.ci95 < math.inf


# -- luck -----------------------------------------------------------------------------

def test_luck_is_counted_for_the_first_player_and_against_him() -> None:
    def one_a_turn(position: Position, dice: Dice) -> float:
        return 1.0

    result = duel("portes", RandomBot(seed=3), RandomBot(seed=4), games=12, seed=4, luck=one_a_turn)
    # a's turns less b's: the winner had the last turn
    for k, (points, luck) in enumerate(zip(result.points, result.luck, strict=True)):
        if k % 2 == 0:  # a moved first
            assert luck == (1.0 if points > 0 else 0.0)
        else:
            assert luck == (0.0 if points > 0 else -1.0)
    assert {1.0, 0.0, -1.0} <= set(result.luck)
    assert duel("portes", HeuristicBot(), RandomBot(seed=3), games=6, seed=4).luck == []


def test_a_deterministic_player_against_itself_has_no_luck_per_pair() -> None:
    ev = Evaluator.for_variant("fevga")
    bot = NeuralBot("advanced")
    result = duel("fevga", bot, bot, games=4, seed=5, luck=ev.luck)
    assert all(abs(x) > 0.01 for x in result.luck)
    for k in range(0, 4, 2):
        assert result.luck[k] + result.luck[k + 1] == pytest.approx(0.0, abs=1e-9)
    assert result.adjusted_ppg == pytest.approx(0.0, abs=1e-9)


@pytest.mark.slow
def test_less_luck_narrows_the_interval() -> None:
    ev = Evaluator.for_variant("portes")
    result = duel("portes", NeuralBot("advanced"), NeuralBot("casual", seed=2), games=24, seed=6, luck=ev.luck)
    assert result.adjusted_ci95 < result.ci95 / 2
    assert abs(result.adjusted_ppg - result.ppg) < result.ci95


def test_on_game_sees_the_growing_result() -> None:
    counts: list[int] = []
    duel("fevga", HeuristicBot(), HeuristicBot(), games=4, seed=1, on_game=lambda r: counts.append(r.games))
    assert counts == [1, 2, 3, 4]
