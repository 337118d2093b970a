"""Rollouts: stratified dice, luck subtraction, plays of a roll, bad requests."""

from __future__ import annotations

import random

import pytest

from tavli import Dice, Position
from tavli.bots.rollout import (
    THROWS,
    RolloutError,
    RolloutSettings,
    play_out,
    rollout,
    rollout_plays,
    stratified_dice,
    summarise,
)


def test_the_first_two_rolls_run_through_every_pair() -> None:
    rng = random.Random(0)
    pairs = {(stratified_dice(t, 0, rng), stratified_dice(t, 1, rng)) for t in range(1296)}
    assert len(pairs) == 1296
    assert [stratified_dice(t, 0, rng) for t in range(36)] == list(THROWS)


def test_a_certain_position_rolls_out_to_its_points() -> None:
    # White bears off his last checker whatever he rolls, before Black has borne any off
    pos = Position.from_string("portes 1w.................15b..... w 0:0 14:0")
    r = rollout(pos, RolloutSettings(trials=36), workers=1)
    assert (r.equity, r.raw_equity, r.win, r.win2, r.lose, r.ci95) == (2.0, 2.0, 1.0, 1.0, 0.0, 0.0)


def test_luck_subtraction_keeps_the_mean_and_narrows_the_interval() -> None:
    # a short race: Black to roll, both with a few checkers left
    pos = Position.from_string("portes 2w1w1w..................1b1b2b b 0:0 11:11")
    with_luck = rollout(pos, RolloutSettings(trials=216, seed=3), workers=1)
    assert with_luck.ci95 < 0.6 * with_luck.raw_ci95
    assert abs(with_luck.equity - with_luck.raw_equity) < 2 * with_luck.raw_ci95
    plain = rollout(pos, RolloutSettings(trials=216, seed=3, luck=False), workers=1)
    assert plain.equity == plain.raw_equity == with_luck.raw_equity


def test_a_trial_is_repeatable_and_summed_for_the_roller() -> None:
    pos = Position.start("fevga")
    settings = RolloutSettings(trials=2, seed=5)
    first = play_out(pos, 1, settings)
    assert play_out(pos, 1, settings) == first and first[0] in (-2, -1, 1, 2)
    r = summarise([(2, 0.5), (-1, -0.25)], settings)
    assert (r.equity, r.raw_equity, r.win, r.win2, r.lose) == (0.375, 0.5, 0.5, 0.5, 0.5)


def test_plays_of_a_roll_are_turned_to_the_player() -> None:
    # White to play 2-1 with two checkers left on 1 and 2: 2/off 1/off wins double at once
    pos = Position.from_string("portes 1w1w...............13b..2b... w 0:0 13:0")
    found = rollout_plays(pos, Dice(2, 1), RolloutSettings(trials=4), candidates=3, workers=1)
    assert found[0].result.equity == pytest.approx(2.0, abs=1e-3) and found[0].result.win == 1.0


def test_bad_requests() -> None:
    with pytest.raises(RolloutError, match="level"):
        RolloutSettings(level="godlike")
    with pytest.raises(RolloutError, match="trial"):
        RolloutSettings(trials=0)
    over = Position.from_string("portes ......................15b. w 0:0 15:0")
    with pytest.raises(RolloutError, match="over"):
        rollout(over, RolloutSettings(trials=1), workers=1)
