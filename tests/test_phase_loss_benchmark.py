"""``benchmarks/strength/phase_loss.py``: where a network's plays lose against a deeper search, by phase."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from types import ModuleType

import pytest
from benchmark_module import ROOT, benchmark

from tavli import BLACK, WHITE, Dice, Position
from tavli.bots.gnubg_player import GnubgPlayer
from tavli.bots.neural import Evaluator


def phase_loss() -> ModuleType:
    return benchmark("strength/phase_loss")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "benchmarks/strength/phase_loss.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)


def test_phases() -> None:
    phase = phase_loss().phase
    assert phase(Position.start("fevga")) == "first checker"
    # White's first checker has passed Black's start; Black's has not
    assert phase(Position.from_checkers("fevga", WHITE, {24: 14, 10: 1}, {24: 14, 13: 1})) == "first checker"
    assert phase(Position.from_checkers("fevga", WHITE, {24: 14, 10: 1}, {24: 14, 9: 1})) == "middle"
    assert phase(Position.from_checkers("fevga", BLACK, {5: 14}, {6: 10, 7: 1})) == "race"  # all passed
    assert phase(Position.from_checkers("fevga", WHITE, {5: 14}, {6: 10, 7: 1})) == "all home"
    assert phase(Position.start("portes")) == "middle"  # no first-checker phase outside Fevga
    assert phase(Position.from_checkers("portes", WHITE, {1: 2, 6: 3}, {1: 2})) == "all home"
    # no contact left, a checker still outside: a race; a checker still to pass one of the other's: not
    assert phase(Position.from_checkers("portes", WHITE, {5: 10, 13: 5}, {1: 15})) == "race"
    assert phase(Position.from_checkers("portes", WHITE, {5: 10, 13: 5}, {14: 15})) == "middle"
    assert phase(Position.from_checkers("plakoto", BLACK, {5: 10, 13: 5}, {8: 15})) == "race"


@pytest.mark.slow
def test_every_decision_is_compared_and_loses_nothing_below_zero() -> None:
    module = phase_loss()
    losses, peer = module.measure(Evaluator.for_variant("fevga"), "fevga", 1, 2, 12, random.Random(3))
    found = [x for phase in losses.values() for x in phase]
    assert len(found) == 12 and set(losses) <= set(module.PHASES) and not peer
    assert all(not math.isnan(x) and x >= 0.0 for x in found)
    # the same search that chooses cannot lose against itself
    same, _ = module.measure(Evaluator.for_variant("plakoto"), "plakoto", 1, 1, 8, random.Random(3))
    assert [x for phase in same.values() for x in phase] == [0.0] * 8


def test_gnubg_judges_the_network_and_its_own_0_ply_play() -> None:
    module = phase_loss()
    judge = module.GnubgJudge(0)
    losses, peer = module.measure(Evaluator.for_variant("portes"), "portes", 0, 1, 10, random.Random(4), judge,
                                  GnubgPlayer(0))
    assert sum(map(len, losses.values())) == sum(map(len, peer.values())) == 10
    assert set(losses) == set(peer)
    # judged by itself at the same depth, GNU Backgammon's own choices lose nothing
    assert all(x == 0.0 for found in peer.values() for x in found)
    assert all(x >= 0.0 for found in losses.values() for x in found)
    legal = Position.start("portes").legal_plays(Dice(6, 5))
    worst = min(range(len(legal)), key=lambda i: GnubgPlayer(0).equities(legal)[i])
    assert judge.loss(legal, worst) > 0.1  # 24/13 is best; the worst play loses much


@pytest.mark.slow
def test_the_table() -> None:
    done = run("--variant", "portes", "--plies", "0", "--deeper", "1", "--decisions", "10")
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "portes, 0 ply against 1 ply, 10 decisions with a choice"
    rows = {line[:14].strip(): line[14:].split() for line in lines[2:-1]}
    assert list(rows) == ["middle", "race", "all home"]  # no first-checker row outside Fevga
    assert sum(int(row[0]) for row in rows.values()) == 10
    assert all(float(row[1]) >= 0.0 and row[-1] == "0" for row in rows.values())
    assert lines[-1].endswith(" s in all")


@pytest.mark.slow
def test_bad_input_is_refused_in_one_line() -> None:
    bad = run("/etc/hostname")
    assert bad.returncode == 2 and "cannot read network" in bad.stderr and "Traceback" not in bad.stderr
    wrong_game = run("--variant", "portes", str(ROOT / "tavli" / "weights" / "fevga.npz"), "--decisions", "2")
    assert wrong_game.returncode == 2 and "Traceback" not in wrong_game.stderr
    assert len(wrong_game.stderr.strip().splitlines()) == 1
    same = run("--plies", "2", "--deeper", "2")
    assert same.returncode == 2 and "--plies < --deeper" in same.stderr
    not_portes = run("--variant", "fevga", "--judge", "gnubg")
    assert not_portes.returncode == 2 and "GNU Backgammon judges Portes only" in not_portes.stderr


@pytest.mark.slow
def test_the_table_judged_by_gnubg_has_the_peer_column() -> None:
    done = run("--variant", "portes", "--plies", "0", "--deeper", "1", "--judge", "gnubg", "--decisions", "6")
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "portes, 0 ply against 1 ply judged by GNU Backgammon, 6 decisions with a choice"
    assert lines[1].split()[-2:] == ["gnubg", "0-ply"]
    rows = [line[14:].split() for line in lines[2:-1]]
    assert sum(int(row[0]) for row in rows) == 6
    assert all(float(row[-1]) >= 0.0 for row in rows)
