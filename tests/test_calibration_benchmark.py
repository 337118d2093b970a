"""``benchmarks/strength/calibration.py``: the networks' chances set beside what came true, and GNU
Backgammon's beside ours in Portes."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from benchmark_module import ROOT, benchmark

from tavli import Dice, Position
from tavli import _kernel as K
from tavli.bots.features import encode
from tavli.bots.gnubg_player import GnubgPlayer, NotPortesError
from tavli.bots.network import LOSE2, WIN, WIN2, forward
from tavli.bots.neural import Evaluator
from tavli.errors import TavliError
from tavli.variants import BLACK, WHITE


def calibration() -> ModuleType:
    return benchmark("strength/calibration")


def test_a_game_keeps_every_rollers_chances_and_result() -> None:
    c = calibration()
    game = c.play_game(("portes", "advanced", 7, True, None))
    assert len(game.ours) == len(game.peer) == len(game.happened) > 10
    # one side won: his rollers' positions say so, the other's the opposite
    assert {h[0] for h in game.happened} == {0.0, 1.0}
    for h in game.happened:
        assert h[1] <= h[0] and h[2] <= 1.0 - h[0]  # a 2-point win is a win, a 2-point loss a loss
    for f in game.ours + game.peer:
        assert 0.0 <= f[1] <= f[0] <= 1.0 and 0.0 <= f[2] <= 1.0 - f[0] + 1e-6
    again = c.play_game(("portes", "advanced", 7, False, None))
    assert again.ours == game.ours and again.peer == []  # the seed repeats the game
    # the bear-off database values the races with every checker home; the network the rest
    assert game.by_network[0] and not game.by_network[-1] and len(game.by_network) == len(game.ours)


def test_outcomes_are_seen_from_each_roller() -> None:
    c = calibration()
    assert c.outcome_for(WHITE, 1, WHITE) == (1.0, 0.0, 0.0)
    assert c.outcome_for(WHITE, 2, WHITE) == (1.0, 1.0, 0.0)
    assert c.outcome_for(BLACK, 2, WHITE) == (0.0, 0.0, 1.0)
    assert c.outcome_for(None, 0, BLACK) == (0.5, 0.0, 0.0)


def test_a_perfect_forecast_has_no_bias_and_a_constant_one_no_skill() -> None:
    c = calibration()
    rng = random.Random(5)
    exact, blunt, off = [], [], []
    for _ in range(400):
        p = rng.random()
        won = float(rng.random() < p)
        exact.append(c.Game(ours=[(p, 0.0, 0.0)], happened=[(won, 0.0, 0.0)]))
        blunt.append(c.Game(ours=[(0.5, 0.0, 0.0)], happened=[(won, 0.0, 0.0)]))
        off.append(c.Game(ours=[(min(1.0, p + 0.2), 0.0, 0.0)], happened=[(won, 0.0, 0.0)]))
    perfect = c.row(exact, 0)
    assert abs(perfect.bias) < perfect.bias_ci95 < 0.06 and perfect.skill > 0.2
    assert abs(c.row(blunt, 0).skill) < 0.02  # forecasting the rate that comes true is the floor
    biased = c.row(off, 0)
    assert biased.bias - biased.bias_ci95 > 0.1 and biased.skill < perfect.skill
    found = c.bands(exact)  # 2-point chances all 0: one band, none came true
    assert found == [(0.0, 0.02, 800, 0.0, 0.0)]
    with pytest.raises(ValueError, match="no positions"):
        c.row([c.Game()], 0)


@pytest.mark.gnubg
def test_the_benchmark_prints_each_chance_beside_gnubgs() -> None:
    done = subprocess.run([sys.executable, "benchmarks/strength/calibration.py",
                           "--games", "6", "--variants", "portes,fevga"],
                          cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert out.startswith("portes: 6 games at the advanced level")
    assert "Brier score ours / GNU Backgammon's:" in out and "\nfevga: 6 games" in out
    fevga = out[out.index("\nfevga"):]
    assert "win 2 points   network" in fevga and "gnubg" not in fevga
    refused = subprocess.run([sys.executable, "benchmarks/strength/calibration.py", "--games", "1"],
                             cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert refused.returncode == 2 and "--games needs 2 or more" in refused.stderr


@pytest.mark.gnubg
def test_gnubg_values_portes_positions_only() -> None:
    player = GnubgPlayer()
    p = player.probabilities(Position.start("portes", BLACK))
    assert p == player.probabilities(Position.start("portes", WHITE))  # the same board for the roller
    with pytest.raises(NotPortesError, match="Portes"):
        player.probabilities(Position.start("fevga"))
    over = Position.from_checkers("portes", BLACK, {}, {3: 2})
    with pytest.raises(TavliError, match="over"):
        player.probabilities(over)


@pytest.mark.slow
def test_a_refit_folds_its_maps_into_the_output_layer(tmp_path: Path) -> None:
    out = tmp_path / "fevga.npz"
    done = subprocess.run([sys.executable, "benchmarks/strength/calibration.py", "--variants", "fevga", "--games", "8",
                           "--refit", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"refit, written to {out}:" in done.stdout and "win 2 points: a = " in done.stdout
    old, new = Evaluator.for_variant("fevga"), Evaluator.from_file(out)
    recalibrated: Any = new.meta["recalibrated"]
    maps = recalibrated["maps"]
    w1, b1, w2, b2 = new.network
    # the hidden layer and the win unit as they were, the 2-point units changed
    assert np.array_equal(w1, old.network[0]) and np.array_equal(b1, old.network[1])
    assert np.array_equal(w2[0], old.network[2][0]) and b2[0] == old.network[3][0]
    assert not np.array_equal(w2[1:], old.network[2][1:])
    rng = random.Random(2)
    position = Position.start("fevga")
    for _ in range(30):  # positions the network values: each 2-point chance is its map of the old one
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        legal = position.legal_plays(dice)
        position = position.pass_turn() if len(legal) == 0 else position.play(rng.choice(list(legal)), dice)
        after = new.probabilities(position)
        # the old network's own outputs, before the evaluator makes a 2-point win no likelier
        # than a win and a 2-point loss than a loss; the refit network's answers are made so too
        x = np.zeros(old.network[0].shape[0], np.float32)
        encode(position.state.copy(), K.FEVGA, x)
        raw = np.zeros(3, np.float64)
        forward(x, *old.network, np.zeros(len(old.network[1]), np.float32), raw)
        # the evaluator sums in float32 with a rational logistic (within 2e-7 of the reference
        # forward pass): the same chance to a few parts in a million
        near = pytest.approx(raw[WIN], abs=2e-6)
        assert after.win == near and old.probabilities(position).win == near
        for got, chance, most, (a, b) in ((after.win2, raw[WIN2], after.win, maps["win2"]),
                                          (after.lose2, raw[LOSE2], 1 - after.win, maps["lose2"])):
            z = math.log(chance / (1 - chance))
            mapped = 1 / (1 + math.exp(-(a * z + b)))
            assert got == pytest.approx(min(mapped, most), rel=1e-4, abs=1e-6)


@pytest.mark.slow
def test_a_network_of_another_game_is_refused() -> None:
    fevga = str(ROOT / "tavli" / "weights" / "fevga.npz")
    for args, why in ((["--variants", "portes", "--network", fevga], "is not a portes network"),
                      (["--variants", "portes,fevga", "--network", fevga], "take one game"),
                      (["--variants", "portes", "--network", "/etc/hostname"], "cannot read network")):
        done = subprocess.run([sys.executable, "benchmarks/strength/calibration.py", "--games", "2", *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=240)
        assert done.returncode == 2 and why in done.stderr and "Traceback" not in done.stderr


def test_the_fit_finds_the_map_that_made_the_results() -> None:
    c = calibration()
    rng = np.random.default_rng(4)
    p = rng.uniform(0.02, 0.6, 40_000)
    z = np.log(p / (1 - p))
    happened = (rng.random(len(p)) < 1 / (1 + np.exp(-(1.3 * z - 0.2)))).astype(float)
    a, b = c.fit(p, happened)
    assert a == pytest.approx(1.3, abs=0.06) and b == pytest.approx(-0.2, abs=0.06)
    assert c.fit(p, (rng.random(len(p)) < p).astype(float)) == pytest.approx((1.0, 0.0), abs=0.06)
