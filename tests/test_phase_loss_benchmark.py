"""``benchmarks/phase_loss.py``: where a network's plays lose against a deeper search, by phase."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from types import ModuleType

from benchmark_module import ROOT, benchmark

from tavli import BLACK, WHITE, Position
from tavli.neural import Evaluator


def phase_loss() -> ModuleType:
    return benchmark("phase_loss")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "benchmarks/phase_loss.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)


def test_phases() -> None:
    phase = phase_loss().phase
    assert phase(Position.start("fevga")) == "first checker"
    # White's first checker has passed Black's start; Black's has not
    assert phase(Position.from_checkers("fevga", WHITE, {24: 14, 10: 1}, {24: 14, 13: 1})) == "first checker"
    assert phase(Position.from_checkers("fevga", WHITE, {24: 14, 10: 1}, {24: 14, 9: 1})) == "middle"
    assert phase(Position.from_checkers("fevga", BLACK, {5: 14}, {6: 10, 7: 1})) == "middle"
    assert phase(Position.from_checkers("fevga", WHITE, {5: 14}, {6: 10, 7: 1})) == "all home"
    assert phase(Position.start("portes")) == "middle"  # no first-checker phase outside Fevga
    assert phase(Position.from_checkers("portes", WHITE, {1: 2, 6: 3}, {1: 2})) == "all home"


def test_every_decision_is_compared_and_loses_nothing_below_zero() -> None:
    module = phase_loss()
    losses = module.measure(Evaluator.for_variant("fevga"), "fevga", 1, 2, 12, random.Random(3))
    found = [x for phase in losses.values() for x in phase]
    assert len(found) == 12 and set(losses) <= {"first checker", "middle", "all home"}
    assert all(not math.isnan(x) and x >= 0.0 for x in found)
    # the same search that chooses cannot lose against itself
    same = module.measure(Evaluator.for_variant("plakoto"), "plakoto", 1, 1, 8, random.Random(3))
    assert [x for phase in same.values() for x in phase] == [0.0] * 8


def test_the_table() -> None:
    done = run("--variant", "portes", "--plies", "0", "--deeper", "1", "--decisions", "10")
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "portes, 0 ply against 1 ply, 10 decisions with a choice"
    rows = {line[:14].strip(): line[14:].split() for line in lines[2:-1]}
    assert list(rows) == ["middle", "all home"]  # no first-checker row outside Fevga
    assert sum(int(row[0]) for row in rows.values()) == 10
    assert all(float(row[1]) >= 0.0 and row[-1] == "0" for row in rows.values())
    assert lines[-1].endswith(" s in all")


def test_bad_input_is_refused_in_one_line() -> None:
    bad = run("/etc/hostname")
    assert bad.returncode == 2 and "cannot read network" in bad.stderr and "Traceback" not in bad.stderr
    wrong_game = run("--variant", "portes", str(ROOT / "tavli" / "weights" / "fevga.npz"), "--decisions", "2")
    assert wrong_game.returncode == 2 and "Traceback" not in wrong_game.stderr
    assert len(wrong_game.stderr.strip().splitlines()) == 1
    same = run("--plies", "2", "--deeper", "2")
    assert same.returncode == 2 and "--plies < --deeper" in same.stderr
