"""The issue's goals as the benchmarks check them: one verdict per goal, shown as a table."""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table


@dataclass
class Goal:
    goal: str
    status: str
    """``PASS``, ``FAIL`` or ``not measured``."""
    detail: str


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def goal_table(found: list[Goal]) -> Table:
    table = Table(title="Goals")
    table.add_column("goal")
    table.add_column("status")
    table.add_column("figures")
    colours = {"PASS": "green", "FAIL": "red"}
    for g in found:
        colour = colours.get(g.status, "yellow")
        table.add_row(g.goal, f"[{colour}]{g.status}[/{colour}]", g.detail)
    return table
