"""``benchmarks/speed/load.py`` run tiny as a process of its own: the figures it writes are those of real play.

The café pace here thinks 0.05–0.1 s, so that a few seconds see many actions; the figures
themselves (how fast, how late) are the benchmark's business, not the test's.
``TAVLI_TEST_POSTGRES=postgresql://user:pass@host/db`` also runs two servers on PostgreSQL (the
role must be allowed to create databases: each run makes its own and drops it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
GROUP_FIELDS = {"matches", "held_each_second", "held_min", "held_mean", "finished", "actions", "actions_per_s",
                "latency_ms", "latency_each_second", "answer_ms", "clock_error_ms", "join_ms", "errors", "dropped",
                "stalled", "pairs_by_phase_at_end", "chat_lines", "chat_seen"}
RUN_FIELDS = {"servers", "matches", "bot_matches", "ramp_s", "connected_at_start", "duration_s", "actions_per_s",
              "people", "bots", "server_cpu", "server_cpu_each", "database_cpu", "client_cpu", "client_lag_ms",
              "machine_cpu", "cpu_wait", "lobby"}


def run_load(tmp_path: Path, *options: str) -> tuple[dict[str, Any], str]:
    out = tmp_path / "load.json"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "speed" / "load.py"),
                                               *options, "--json", str(out)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=240,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return json.loads(out.read_text()), done.stdout


def check_group(group: dict[str, Any], matches: int, allowed: frozenset[str] = frozenset(),
                ending: bool = False) -> None:
    """``ending``: matches may end in the window (the pair then connects to its next match, and is
    not held for a moment)."""
    assert set(group) >= GROUP_FIELDS
    assert group["matches"] == matches
    held = group["held_each_second"]
    assert (max(held) if ending else group["held_min"]) == matches, held
    assert group["actions"] > 0 and group["actions_per_s"] > 0
    assert set(group["errors"]) <= allowed and group["dropped"] == {} and group["stalled"] == 0


@pytest.mark.slow
def test_cafe_pace_with_a_bot(tmp_path: Path) -> None:
    result, printed = run_load(tmp_path, "--pace", "cafe", "--matches", "4", "--bots", "1", "--bot-level",
                               "beginner", "--duration", "3", "--think", "0.05,0.1", "--ramp", "10")
    # the café defaults: matches to 5 in the Tavli order, hello with steps
    assert (result["pace"], result["think_s"], result["steps"]) == ("cafe", [0.05, 0.1], True)
    assert (result["length"], result["games"], result["servers"]) == (5, "tavli", 1)
    run = result["run"]
    assert set(run) >= RUN_FIELDS
    people, bots = run["people"], run["bots"]
    check_group(people, 4)
    check_group(bots, 1)
    # people's plays timed to the opponent's connection; the bot's answers timed apart
    lat = people["latency_ms"]
    assert lat["count"] > 0 and 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"]
    per_second = people["latency_each_second"]
    assert sum(n for n, _, _ in per_second) == lat["count"] and max(m for _, _, m in per_second if m) == lat["max"]
    assert people["answer_ms"]["count"] == 0 and bots["latency_ms"]["count"] == 0
    assert bots["answer_ms"]["count"] > 0 and bots["answer_ms"]["p50"] > 0
    # every action waited for its think time: 5 matches, one seat acting at a time, 50 ms at least each
    assert run["actions_per_s"] <= 5 / 0.05
    assert run["actions_per_s"] == pytest.approx(people["actions_per_s"] + bots["actions_per_s"], abs=0.2)
    assert run["server_cpu"] is not None and run["server_cpu"] > 0 and run["client_cpu"] >= 0
    assert "relay" not in result  # no relay floor at café pace unless asked
    assert "play sent → opponent sees it" in printed and "the bot's answer" in printed


@pytest.mark.slow
def test_rated_matches_between_logged_in_players(tmp_path: Path) -> None:
    # on until a match has ended, however loaded the machine: no window to finish in
    result, _ = run_load(tmp_path, "--pace", "cafe", "--matches", "2", "--accounts", "--duration", "3",
                         "--until-finished", "1", "--think", "0.01,0.02", "--length", "1", "--games", "portes",
                         "--ramp", "10")
    assert result["accounts"] is True
    people = result["run"]["people"]
    check_group(people, 2, ending=True)  # every hello took its account's seat: no "login" refusal
    assert people["finished"] > 0  # and the rated matches ended (rated and reviewed) without a stall


@pytest.mark.slow
def test_lobby_watchers_and_clocks(tmp_path: Path) -> None:
    # no delay on the clock: every turn reaches the reserve, so plays are timed as well as rolls
    result, printed = run_load(tmp_path, "--pace", "cafe", "--matches", "3", "--duration", "6",
                               "--think", "0.05,0.1", "--ramp", "10", "--clock", "0,600",
                               "--lobby-watchers", "16", "--seeks", "4", "--seek-accept", "0.5")
    assert result["clock"] == {"delay": 0.0, "reserve": 600.0} and result["lobby_watchers"] == 16
    run = result["run"]
    check_group(run["people"], 3)
    # the server counts a turn from its state going out to the action read, less the time it took
    # to answer the roll: what the player saw pass, give or take the network's few milliseconds
    # (a roll's thinking not counted would put the median some 40 ms below zero)
    clock = run["people"]["clock_error_ms"]
    assert clock["count"] > 0 and -20 <= clock["p50"] <= 100, clock
    lobby = run["lobby"]
    assert lobby["connected"] == 16 and lobby["posted"] > 0 and lobby["cancelled"] + lobby["accepted"] > 0
    assert lobby["seen"] == 1.0 and lobby["push_ms"]["count"] > 0 and lobby["post_ms"]["count"] == lobby["posted"]
    assert lobby["paired_ms"]["count"] == lobby["board_ms"]["count"] == lobby["accepted"]
    assert set(lobby["errors"]) <= {"no idle watcher to seek"}, lobby["errors"]
    assert "seek posted → a watcher sees it" in printed and "clock error" in printed


@pytest.mark.slow
def test_chat_compare_runs_the_load_without_chat_then_with_it(tmp_path: Path) -> None:
    # a phrase a second in each match (its seats in turn): well inside a seat's chat rate
    result, printed = run_load(tmp_path, "--pace", "cafe", "--matches", "3", "--duration", "4",
                               "--think", "0.05,0.1", "--ramp", "10", "--no-baseline",
                               "--chat-per-minute", "60", "--chat-compare")
    assert result["chat_per_minute"] == 60.0
    with_chat, without = result["run"]["people"], result["without_chat"]["people"]
    check_group(with_chat, 3, ending=True)
    check_group(without, 3, ending=True)
    assert without["chat_lines"] == without["chat_seen"] == 0
    # each line said reaches both seats of its match (a line said at the window's edges may be seen
    # on one side of it only)
    assert with_chat["chat_lines"] > 0 and with_chat["chat_seen"] >= with_chat["chat_lines"]
    ratio = result["chat_ratio"]
    assert set(ratio) == {"p50", "p90", "p99"} and all(value is not None and value > 0 for value in ratio.values())
    expected = round(with_chat["latency_ms"]["p99"] / without["latency_ms"]["p99"], 3)
    assert ratio["p99"] == expected
    assert "chat p99 ratio:" in printed and "play → opponent p99 (ms)" in printed


@pytest.mark.slow
def test_saturate_pace_is_the_default(tmp_path: Path) -> None:
    # four seconds, not two: 1-point matches end and reconnect all the time, and on a loaded machine a
    # short window can miss the moment both are held
    result, _ = run_load(tmp_path, "--matches", "2", "--duration", "4", "--baseline", "1")
    assert (result["pace"], result["think_s"], result["steps"]) == ("saturate", None, False)
    assert (result["length"], result["games"]) == (1, "portes")
    # seats act the instant they may (the benchmark lifts the message limit; a refusal would be waited out)
    # a seat that acts the instant it may can meet the clocks' start, stored as the second player
    # arrives: the server answers "stale" with the state, and the seat acts on that
    check_group(result["run"]["people"], 2, frozenset({"rate-limited", "stale"}), ending=True)
    assert result["run"]["bots"] is None
    assert result["relay"]["messages_per_s"] > 0


@pytest.mark.parametrize("options, message", [
    (["--servers", "2"], "--database postgresql"),
    (["--compare"], "--compare compares"),
    (["--think", "4,1"], "0 <= MIN <= MAX"),
    (["--matches", "0"], "at least 1"),
    (["--lobby-watchers", "1"], "--lobby-watchers is 0 or at least 2"),
    (["--clock", "8,x"], "DELAY,RESERVE"),
    (["--chat-compare"], "--chat-compare needs it"),
])
@pytest.mark.slow
def test_bad_options_are_one_line(options: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "speed" / "load.py"), *options],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("TAVLI_TEST_POSTGRES"), reason="TAVLI_TEST_POSTGRES is not set")
def test_two_servers_on_postgresql(tmp_path: Path) -> None:
    result, printed = run_load(tmp_path, "--pace", "cafe", "--matches", "4", "--duration", "5",
                               "--think", "0.05,0.1", "--servers", "2", "--database",
                               os.environ["TAVLI_TEST_POSTGRES"])
    run = result["run"]
    check_group(run["people"], 4)
    assert run["servers"] == 2 and len(run["server_cpu_each"]) == 2
    assert run["database_backends"] > 0 and run["people"]["latency_ms"]["count"] > 0
    assert "across processes" in printed


@pytest.mark.slow
def test_tournament_watchers_are_sent_each_change_and_compared_with_none(tmp_path: Path) -> None:
    result, printed = run_load(tmp_path, "--pace", "cafe", "--matches", "3", "--duration", "5",
                               "--think", "0.05,0.1", "--ramp", "10", "--no-baseline", "--tournament-watchers", "5",
                               "--tournament-players", "4", "--tournament-changes", "2", "--tournament-compare")
    tournament = result["run"]["tournament"]
    assert tournament["watchers"] == 5 and tournament["changes"] > 0 and tournament["errors"] == {}
    # every change is a whole tournament sent to every watcher (one asked at the window's end may be missed)
    assert tournament["seen"] > 0.5 and tournament["push_ms"]["count"] >= 5 and tournament["view_bytes"] > 500
    assert result["without_tournament"]["tournament"] is None
    check_group(result["run"]["people"], 3, ending=True)
    assert set(result["tournament_ratio"]) == {"p50", "p90", "p99"}
    assert "tournament p99 ratio:" in printed and "change asked → a watcher is sent it" in printed


@pytest.mark.slow
def test_the_arena_benchmark_runs_tiny() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "speed" / "arena_pairing.py"), "--players", "6",
                           "--duration", "6", "--warm-up", "2", "--think", "0.1-0.3"],
                          capture_output=True, text=True, timeout=240, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "0 boards dropped" in done.stdout and "p99 / floor of 10 s" in done.stdout
