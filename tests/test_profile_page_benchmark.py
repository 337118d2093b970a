"""``benchmarks/speed/profile_page.py`` run small: it builds a player with many matches and times his page."""

from __future__ import annotations

from benchmark_module import benchmark


def test_the_player_page_is_timed_against_its_bare_query() -> None:
    figures = benchmark("speed/profile_page").main(["--matches", "30", "--repeat", "2"])
    assert figures["matches"] == 30
    assert figures["floor_ms_median"] > 0 and 0 < figures["page_ms_median"] <= figures["page_ms_p90"]
