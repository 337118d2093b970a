"""``benchmarks/speed/gnubg_analysis.py`` runs tiny: both programs analyse the same match, every ply a row."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_module import ROOT, benchmark

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


def test_the_decisions_are_read_from_the_match_statistics() -> None:
    gnubg_analysis = benchmark("speed/gnubg_analysis")
    shown = "Chequerplay statistics\n\nTotal moves                              153                     154\n"
    assert gnubg_analysis.gnubg_decisions(shown) == 307
    with pytest.raises(RuntimeError, match="no statistics"):
        gnubg_analysis.gnubg_decisions("Unforced moves    131    124\n")


def test_a_row_is_cpu_per_decision_and_its_ratio() -> None:
    row = benchmark("speed/gnubg_analysis").Row(2, 100, 3.0, 50, 1.0)
    assert (row.tavli_ms, row.gnubg_ms, row.ratio) == (30.0, 20.0, 1.5)


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed (apt-get install gnubg)")
def test_it_analyses_one_match_with_both_programs(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, "benchmarks/speed/gnubg_analysis.py", "--length", "1", "--plies", "0,1",
                           "--gnubg", str(GNUBG), "--json", str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=280, env={**os.environ, "COLUMNS": "160"})
    assert done.returncode == 0, done.stderr[-2000:]
    rows = json.loads(out.read_text())["rows"]
    assert [r["plies"] for r in rows] == [0, 1]
    decisions = rows[0]["tavli_decisions"]
    assert decisions > 10 and all(r["tavli_decisions"] == r["gnubg_decisions"] == decisions for r in rows)
    assert all(r["tavli_cpu"] > 0 and r["gnubg_cpu"] >= 0 and r["ratio"] > 0 for r in rows)
    assert "ratio Tavli/GNU" in done.stdout
