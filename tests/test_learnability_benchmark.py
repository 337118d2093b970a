"""``benchmarks/strength/learnability.py``: how much of a 1-ply search's correction networks can learn."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from benchmark_module import ROOT, benchmark

from tavli import WHITE, Position
from tavli.bots.bearoff import all_home
from tavli.bots.neural import Evaluator
from tavli.bots.teacher import SearchTeacher
from tavli.variants import make_variant

learnability = benchmark("strength/learnability")


def test_the_positions_sampled_carry_both_values_and_leave_out_races_at_home() -> None:
    found = learnability.sample(None, "portes", 0.0, seed=3)  # at least one whole game
    assert len(found.states) > 5
    ev = Evaluator.for_variant("portes")
    for state, c0, c1 in zip(found.states[:5], found.chances0[:5], found.chances1[:5], strict=True):
        position = Position(make_variant("portes"), WHITE, state.copy())  # a state is the mover's view
        p0, p1 = ev.probabilities(position), SearchTeacher(ev, 1).probabilities(position)
        assert [p0.win, p0.win2, p0.lose2] == pytest.approx(list(c0), abs=1e-6)
        assert [p1.win, p1.win2, p1.lose2] == pytest.approx(list(c1), abs=1e-6)
    assert not any(all_home(state, 0) for state in found.states)
    assert np.all(np.abs(found.correction) < 2.0) and np.any(found.correction != 0.0)


def corrected(found: Any, correction: np.ndarray) -> Any:
    """``found``'s positions with chances whose 1-ply equity is the 0-ply one plus ``correction``."""
    zero = np.zeros((len(correction), 3))
    one = zero.copy()
    one[:, 1] = correction  # a 2-point win's chance adds its size to the equity
    return learnability.Positions(found.variant, found.states, zero, one)


@pytest.mark.slow
def test_a_learnable_correction_is_learned_and_noise_is_not() -> None:
    found = learnability.sample(None, "fevga", 0.0, seed=5)
    while len(found.states) < 1500:
        found = learnability.Positions.joined([found, learnability.sample(None, "fevga", 0.0, seed=len(found.states))])
    width = 253
    x = learnability.inputs(found.states, "fevga", width)
    # a correction the inputs determine: a fixed linear function of them
    w = np.random.default_rng(0).normal(0.0, 0.05, width).astype(np.float32)
    y = x @ w
    learnable = corrected(found, y - y.mean())
    fitted = learnability.fit(learnable, width, (32,), epochs=200, seed=1)
    held, _ = learnability.split(len(x), 1)
    assert fitted.held_out < 0.3 * learnability.rms(learnable.correction[held])
    # a correction the inputs say nothing about: noise
    noise = np.random.default_rng(1).normal(0.0, 0.03, len(x))
    noisy = corrected(found, noise)
    fitted = learnability.fit(noisy, width, (32,), epochs=200, seed=1)
    assert fitted.held_out > 0.9 * learnability.rms(noise[held])
    assert fitted.training < fitted.held_out  # it learned some of the noise by heart


def test_a_network_fine_tuned_to_its_own_values_stays_where_it_is(tmp_path: Path) -> None:
    found = learnability.sample(None, "fevga", 0.0, seed=7)
    ev = Evaluator.for_variant("fevga")
    own = learnability.Positions("fevga", found.states, found.chances0, found.chances0)
    network, before, after = learnability.fine_tune(own, ev.network, epochs=3, seed=1)
    assert before < 0.002 and after < 0.01  # the consistency clip of 2-point chances is all that differs
    assert network[0].shape == ev.network[0].shape and network[2].shape == (3, ev.network[1].shape[0])
    learnability.save_network(tmp_path / "tuned.npz", network, dict(ev.meta))
    tuned = Evaluator.from_file(tmp_path / "tuned.npz")
    start = Position.start("fevga")
    assert tuned.probabilities(start).equity == pytest.approx(ev.probabilities(start).equity, abs=0.02)
    # learning the 1-ply chances moves it towards them on the positions it learned from
    network, _, _ = learnability.fine_tune(found, ev.network, epochs=20, seed=1)
    _, train = learnability.split(len(found.states), 1)
    x = learnability.inputs(found.states[train], "fevga", ev.network[0].shape[0])
    target = learnability.equity(found.chances1[train])
    def error(net: Any) -> float:
        return learnability.rms(learnability.equity(learnability.Regressor.of_network(net).predict(x)) - target)
    assert error(network) < 0.8 * error(ev.network)


@pytest.mark.slow
def test_the_script_prints_a_line_for_each_shape_and_width_and_keeps_its_positions(tmp_path: Path) -> None:
    kept = tmp_path / "positions.npz"
    args = [sys.executable, "benchmarks/strength/learnability.py",
            "--variant", "fevga", "--seconds", "1", "--jobs", "1",
            "--shapes", "4", "3,2", "--inputs", "253", "273", "--epochs", "1", "--positions-file", str(kept),
            "--fine-tune", str(tmp_path / "tuned.npz")]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if len(line.split()) == 6 and line.split()[0].isdigit()]
    assert [(r[0], r[1]) for r in rows] == [("253", "4"), ("253", "3,2"), ("273", "4"), ("273", "3,2")]
    assert kept.exists()
    assert f"saved {tmp_path / 'tuned.npz'}" in done.stdout
    assert "fine_tuned" in Evaluator.from_file(tmp_path / "tuned.npz").meta
    again = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"read from {kept}" in again.stdout


@pytest.mark.parametrize(("option", "message"), [
    (["--inputs", "250"], "250 inputs is not where one of fevga's input groups ends"),
    (["--shapes", "0"], "every layer needs at least one unit"),
    (["--epochs", "0"], "--jobs and --epochs must be at least 1"),
])
def test_bad_options_get_one_line(option: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, "benchmarks/strength/learnability.py",
                           "--seconds", "0", "--jobs", "1", *option],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr
