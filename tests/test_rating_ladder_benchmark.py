"""``benchmarks/strength/rating_ladder.py``: bots rated by Glicko-2 in rated matches, run tiny."""

from __future__ import annotations

import re
from types import ModuleType

import pytest
from benchmark_module import benchmark

from tavli.bots.basic import RandomBot
from tavli.rating import Rating


def ladder() -> ModuleType:
    return benchmark("strength/rating_ladder")


def test_the_tiny_ladder_prints_a_line_a_level_and_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert ladder().main(["--tiny", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4, lines  # the setting, random, heuristic, the verdict
    rows = [re.fullmatch(r"\s*(\w+): +(\d+\.\d) ± +(\d+\.\d)  shown +(\d+\??)  won (\d+) of (\d+)", line)
            for line in lines[1:3]]
    assert all(rows), lines
    assert [row.group(1) for row in rows if row] == ["random", "heuristic"]
    # each plays the other twice a period for two periods: four matches, every one won by one of them
    assert [int(row.group(6)) for row in rows if row] == [4, 4]
    assert sum(int(row.group(5)) for row in rows if row) == 4
    assert re.fullmatch(r"verdict: the ratings' order (matches|differs from) the known order \(random < heuristic\): "
                        r"[01] of 1 pairs in order; \d+ s", lines[3]), lines[3]


def test_a_ladder_rates_every_level_from_its_own_matches() -> None:
    standings = ladder().ladder(["random", "heuristic"], "fevga", periods=2, matches=2, length=1, seed=5)
    random_, heuristic = standings
    assert random_.played == heuristic.played == 4 and random_.won + heuristic.won == 4
    # everyone starts a newcomer: two periods of games leave the deviations below 350
    assert all(s.rating.deviation < 350 for s in standings)
    assert (heuristic.rating.rating > random_.rating.rating) == (heuristic.won > random_.won)


def test_pairs_in_order_counts_the_pairs_the_ratings_put_as_listed() -> None:
    module = ladder()

    def standing(level: str, rating: float) -> object:
        return module.Standing(level, RandomBot(), Rating(rating))

    levels = [standing("a", 1200), standing("b", 1600), standing("c", 1500)]
    assert module.pairs_in_order(levels) == (2, 3)  # b is above c: one pair out of order
    assert module.pairs_in_order(levels[:2]) == (1, 1)
