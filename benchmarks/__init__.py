"""Tavli's benchmarks: scripts run from the repository root as ``python benchmarks/<folder>/<name>.py``.

- ``speed/``: how fast (move generation, inputs, decisions, analysis, the server under load);
- ``strength/``: how well (the levels' ladder, peers, networks, calibration, match play);
- ``data_tools/``: what writes the data Tavli ships (``tavli/data/*.json``) and the docs' tables;
- ``results/``: the result files of long runs the docs quote;
- ``goals.py``: the issue goals' verdicts, shared by speed and strength scripts.
"""
