"""``benchmarks/speed/rank_speed.py`` runs tiny: real decisions of the three games, every timing printed."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from benchmark_module import ROOT, benchmark


def test_the_positions_are_real_decisions() -> None:
    rank_speed = benchmark("speed/rank_speed")
    found = rank_speed.sample_positions("plakoto", 5, seed=3)
    assert len(found) == 5 and found == rank_speed.sample_positions("plakoto", 5, seed=3)
    assert all(position.result() is None and len(position.legal_plays(dice)) > 1 for position, dice in found)


@pytest.mark.slow
def test_it_prints_a_row_per_game_and_depth() -> None:
    done = subprocess.run([sys.executable, "benchmarks/speed/rank_speed.py", "--positions", "3", "--depths", "0,1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=240, env={**os.environ, "COLUMNS": "160"})
    assert done.returncode == 0, done.stderr[-2000:]
    rows = re.findall(r"│ (portes|plakoto|fevga) +│ +([01]) │ +3 │(?: +[\d.]+ │){4} +([\d.]+) │", done.stdout)
    assert [(g, d) for g, d, _ in rows] == [(g, d) for g in ("portes", "plakoto", "fevga") for d in "01"]
    assert all(float(ratio) > 0 for _, _, ratio in rows)
    bad = subprocess.run([sys.executable, "benchmarks/speed/rank_speed.py",
                          "--depths", "3"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "--depths are among 0, 1, 2" in bad.stderr
