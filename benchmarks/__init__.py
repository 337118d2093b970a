"""Tavli's benchmarks: scripts run from the repository root as ``python benchmarks/<folder>/<name>.py``.

- ``speed/``: how fast (move generation, inputs, decisions, analysis, the server under load);
- ``strength/``: how well (the levels' ladder, peers, networks, calibration, match play);
- ``results/``: the figures of the long runs the docs quote (``README.md``), and where the runs write
  their files of every match (not kept);
- ``goals.py``: the issue goals' verdicts, shared by speed and strength scripts.

What writes the data Tavli ships (``tavli/data/*.json``) and the docs' tables stands apart, in ``tools/``.
"""
