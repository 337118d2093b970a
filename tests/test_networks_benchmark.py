"""``benchmarks/strength/networks.py``: two networks of a game against each other, or one against GNU
Backgammon in Portes, over real games."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS = ROOT / "tavli" / "weights"


def networks(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "benchmarks/strength/networks.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)


@pytest.mark.slow
def test_a_network_against_another_and_against_random_play() -> None:
    done = networks("--variant", "fevga", str(WEIGHTS / "fevga.npz"), "--games", "4", "--games-random", "2",
                    "--jobs", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{WEIGHTS / 'fevga.npz'} vs {WEIGHTS / 'fevga.npz'} (advanced): ")
    assert sum(" vs random (advanced): " in line for line in lines) == 2 and lines[-1].endswith(" s in all")


@pytest.mark.gnubg
@pytest.mark.slow
def test_a_portes_network_against_gnubg() -> None:
    done = networks("--variant", "portes", str(WEIGHTS / "portes.npz"), "gnubg", "--games", "4", "--games-random",
                    "2", "--jobs", "1")
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{WEIGHTS / 'portes.npz'} vs gnubg (advanced): ")
    assert sum(" vs random " in line for line in lines) == 1  # GNU Backgammon is not measured against random play


@pytest.mark.slow
def test_what_cannot_be_played_is_refused_in_one_line() -> None:
    gnubg_fevga = networks("--variant", "fevga", str(WEIGHTS / "fevga.npz"), "gnubg")
    assert gnubg_fevga.returncode == 2 and "GNU Backgammon plays Portes only" in gnubg_fevga.stderr
    bad = networks("--variant", "portes", "/etc/hostname", "gnubg")
    assert bad.returncode == 2 and "cannot read network" in bad.stderr and "Traceback" not in bad.stderr
