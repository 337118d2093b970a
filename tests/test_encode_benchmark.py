"""``benchmarks/speed/encode.py``: what each group of a game's network inputs costs."""

from __future__ import annotations

import subprocess
import sys

import pytest
from benchmark_module import ROOT

from tavli import Position
from tavli.bots import features as N
from tavli.bots.neural import Evaluator


@pytest.mark.slow
def test_one_line_for_each_width_a_network_can_have() -> None:
    done = subprocess.run([sys.executable, "benchmarks/speed/encode.py",
                           "--variants", "fevga", "plakoto", "--games", "2",
                           "--repeats", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for variant in ("fevga", "plakoto"):
        head = next(i for i, line in enumerate(lines) if line.startswith(f"{variant}: "))
        shipped = Evaluator.for_variant(variant).network[0].shape[0]
        assert f"the shipped network ({shipped} inputs" in lines[head]
        ends = N.INPUT_GROUP_ENDS[Position.start(variant).variant.kernel_id]
        rows = lines[head + 1:head + 1 + len(ends)]
        widths = [int(row.split()[0]) for row in rows]
        assert widths == list(ends)
        assert [row.endswith("shipped") for row in rows] == [w == shipped for w in widths]
        costs = [float(row.split()[2]) for row in rows]  # "  273 inputs   3.82 µs a position ..."
        assert all(cost > 0 for cost in costs)
        assert costs[-1] > costs[0]  # every group past the first adds work
