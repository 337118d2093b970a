"""``tools/outcomes.py`` and ``benchmarks/strength/matchplay.py`` run tiny: the figures are those of
real games, and their luck-adjusted estimates are what they claim to be."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_module import ROOT, benchmark, tool

from tavli import Dice, Position
from tavli.bots.match_equity import Outcomes
from tavli.bots.neural import Evaluator
from tavli.match import MatchSettings
from tavli.variants import BLACK, WHITE


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return done.stdout


# -- outcomes ------------------------------------------------------------------------------

def test_adjusted_rates_are_the_outcomes_less_their_luck() -> None:
    outcomes = tool("outcomes")
    games = [(1.0, 0.3), (0.0, -0.2), (1.0, 0.6), (0.0, 0.1)]  # (outcome, its luck)
    sums = {"y": sum(y for y, _ in games), "x": sum(x for _, x in games), "yy": sum(y * y for y, _ in games),
            "xx": sum(x * x for _, x in games), "xy": sum(x * y for y, x in games)}
    rate, half, plain = outcomes.adjusted(sums, len(games))
    less = [y - x for y, x in games]  # 0.7, 0.2, 0.4, -0.1
    mean = sum(less) / 4
    assert rate == pytest.approx(mean) == pytest.approx(0.3)
    var = sum((v - mean) ** 2 for v in less) / 3
    assert half == pytest.approx(1.96 * (var / 4) ** 0.5)
    assert plain == pytest.approx(1.96 * ((sum((y - 0.5) ** 2 for y, _ in games) / 3) / 4) ** 0.5)


def test_the_outcome_luck_of_a_roll_is_its_worth_to_the_starter() -> None:
    outcomes = tool("outcomes")
    ev = Evaluator.for_variant("plakoto")
    meter = outcomes.OutcomeLuck(ev)
    start = Position.start("plakoto", BLACK)  # Black rolls: White is the game's starter here
    assert meter(start, Dice(6, 6)) == ev.luck(start, Dice(6, 6))  # the roller's luck in points
    # the four outcomes' luck adds up to nothing, and weighted by their points it is the
    # roller's luck in points seen from the starter's side
    luck = meter.luck
    assert sum(luck.values()) == pytest.approx(0.0, abs=1e-12)
    assert luck["win1"] + 2 * luck["win2"] - luck["lose1"] - 2 * luck["lose2"] == pytest.approx(
        -ev.luck(start, Dice(6, 6)))
    assert luck["win1"] != 0.0


@pytest.mark.slow
def test_outcomes_run_and_merge(tmp_path: Path) -> None:
    checkpoint, data = tmp_path / "c.json", tmp_path / "outcomes.json"
    shown = run("tools/outcomes.py", "run", "--games", "3", "--level", "advanced",
                "--checkpoint", str(checkpoint))
    assert "portes" in shown and "plain ±" in shown
    # a second run goes on from the checkpoint to the new count
    run("tools/outcomes.py",
        "run", "--games", "4", "--level", "advanced", "--checkpoint", str(checkpoint))
    saved = json.loads(checkpoint.read_text())
    assert {v: e["next"] for v, e in saved["variants"].items()} == {"portes": 4, "plakoto": 4, "fevga": 4}
    assert [c.split("--games ")[1][0] for c in saved["commands"]] == ["3", "4"]  # both commands kept
    run("tools/outcomes.py", "merge", str(checkpoint), "--into", str(data))
    assert json.loads(data.read_text())["commands"] == saved["commands"]
    rows = json.loads(data.read_text())["variants"]
    for row in rows.values():
        assert row["games"] == 4 == sum(row["counts"].values())
        rates = row["rates"]
        assert sum(rates.values()) == pytest.approx(1.0, abs=1e-5)
        assert rates["tie"] == row["counts"]["tie"] / 4
        for o in ("win1", "win2", "lose1", "lose2"):
            low, high = row["ci95"][o]
            assert low <= rates[o] <= high
    with pytest.raises(AssertionError, match="level"):
        run("tools/outcomes.py",
            "run", "--games", "5", "--level", "expert", "--checkpoint", str(checkpoint))


def test_the_shipped_rates_are_a_distribution_pinned_by_their_intervals() -> None:
    from tavli.bots.match_equity import shipped_outcomes

    data = json.loads((ROOT / "tavli" / "data" / "outcomes.json").read_text())
    for name, o in shipped_outcomes().items():
        assert isinstance(o, Outcomes)
        row = data["variants"][name]
        for k, (low, high) in row["ci95"].items():
            assert low <= getattr(o, k) + 1e-5 and getattr(o, k) - 1e-5 <= high


# -- match play ----------------------------------------------------------------------------

def test_a_match_measures_the_aware_sides_luck() -> None:
    matchplay = benchmark("strength/matchplay")
    settings = MatchSettings(length=3, games=MatchSettings.parse_games("tavli"))
    first = matchplay.play_match(settings, "advanced", WHITE, seed=5)
    second = matchplay.play_match(settings, "advanced", BLACK, seed=5)
    for m in (first, second):
        assert max(m["score"]) >= 3 and m["aware_won"] == (m["score"][0] >= 3)
        # match-winning chance can swing by at most 1 a roll, and a match has some
        assert m["luck"] != 0.0 and abs(m["luck"]) < 3.0
    summary = matchplay.summary([{"pair": 0, "matches": [first, second], "seconds": 1.0}])
    assert summary.points == [int(first["aware_won"]), int(second["aware_won"])]
    assert summary.luck == [first["luck"], second["luck"]]


def test_luck_less_results_keep_their_mean() -> None:
    # a fair coin's luck is all there is: less luck, every match is worth its expectation
    matchplay = benchmark("strength/matchplay")
    rng = random.Random(3)
    pairs = []
    for k in range(200):
        won = [rng.random() < 0.5 for _ in range(2)]
        pairs.append({"pair": k, "matches": [{"aware_won": w, "luck": (1.0 if w else 0.0) - 0.5} for w in won]})
    result = matchplay.summary(pairs)
    assert result.adjusted_ppg == pytest.approx(0.5)
    assert result.adjusted_ci95 == pytest.approx(0.0, abs=1e-9)
    assert result.ci95 > 0.04


@pytest.mark.slow
def test_matchplay_prints_the_rate_less_luck(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    shown = run("benchmarks/strength/matchplay.py", "--level", "beginner", "--lengths", "3", "--matches", "4",
                "--jobs", "1", "--out", str(out))
    assert "3-point matches (tavli, beginner): 4 matches" in shown and "less luck" in shown
    saved = json.loads(out.read_text())
    assert len(saved["pairs"]) == 2
    assert saved["settings"]["networks"]["fevga"] == Evaluator.for_variant("fevga").fingerprint
    # the same run again plays nothing more; a run fixed at another size, or made by other
    # networks, is not gone on with
    again = run("benchmarks/strength/matchplay.py", "--level", "beginner", "--lengths", "3", "--matches", "4",
                "--jobs", "1", "--out", str(out))
    assert "4 matches" in again and json.loads(out.read_text()) == saved
    refused = subprocess.run([sys.executable, "benchmarks/strength/matchplay.py",
                              "--level", "beginner", "--lengths", "3",
                              "--matches", "6", "--jobs", "1", "--out", str(out)],
                             cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert refused.returncode != 0 and "use the same settings or another --out" in refused.stderr
    saved["settings"]["networks"]["fevga"] = "0" * 12
    out.write_text(json.dumps(saved))
    with pytest.raises(AssertionError, match="use the same settings"):
        run("benchmarks/strength/matchplay.py", "--level", "beginner", "--lengths", "3", "--matches", "4",
            "--jobs", "1", "--out", str(out))


def test_a_game_at_a_score_is_worth_the_match_equity_after_it() -> None:
    score_games = benchmark("strength/score_games")
    from tavli.bots.match_equity import MatchScore

    a = MatchScore.at(MatchSettings(length=5, games=("portes",)), 2, 1, 0).after_game()
    assert score_games.worth(a, WHITE, 2, WHITE) == a.win2 == 1.0
    assert score_games.worth(a, WHITE, 1, WHITE) == a.win1
    assert score_games.worth(a, BLACK, 1, WHITE) == a.lose1 == 0.0
    assert score_games.worth(a, None, 0, WHITE) == a.tie
    gain, plain = score_games.pair(("portes", 5, 2, 1, "advanced", 3))
    assert -1.0 <= plain <= 1.0 and math.isfinite(gain)


@pytest.mark.slow
def test_score_games_prints_the_gain(tmp_path: Path) -> None:
    shown = run("benchmarks/strength/score_games.py", "--game", "fevga", "--away", "1,2", "--games", "4", "--jobs", "1")
    assert shown.startswith("fevga at 1-away/2-away (advanced, 4 games): playing the score gains")
    with pytest.raises(AssertionError, match="--away needs 1 to 7 points each"):
        run("benchmarks/strength/score_games.py", "--away", "9,1")


@pytest.mark.slow
def test_met_docs_fills_each_block_from_the_shipped_data(tmp_path: Path) -> None:
    docs = tmp_path / "match-equity.md"
    docs.write_text((ROOT / "docs" / "match-equity.md").read_text())
    run("tools/met_docs.py", "--docs", str(docs))
    text = docs.read_text()
    # the docs as shipped are what the data make
    assert text == (ROOT / "docs" / "match-equity.md").read_text()
    met_docs = tool("met_docs")
    assert met_docs.fill("a\n<!-- x -->\nold\n<!-- /x -->\nb", "x", "new") == "a\n<!-- x -->\nnew\n<!-- /x -->\nb"
    with pytest.raises(SystemExit, match="no <!-- y --> block"):
        met_docs.fill(text, "y", "new")


@pytest.mark.slow
def test_score_gain_prints_what_the_network_expects() -> None:
    out = run("benchmarks/strength/score_gain.py", "--length", "1", "--matches", "2", "--jobs", "1", "--seed", "3")
    assert "2 matches to 1" in out
    assert "by 0 ply" in out and "by 1 ply" in out


def test_the_expected_gain_of_a_match_is_the_aware_plays_lead() -> None:
    gain = benchmark("strength/score_gain")
    by0, by1, differ, agree = gain.expected_gain((1, 11))
    # at 1-away each only the win counts, and plays for the win and for points part often
    assert 0 < agree <= differ
    # at 0 ply the aware play is the best by match-winning chance, so it never trails the other
    assert by0 > 0.0
    assert math.isfinite(by1)


def test_the_table_id_covers_only_the_figures_the_games_use() -> None:
    import hashlib

    matchplay = benchmark("strength/matchplay")
    data = json.loads((ROOT / "tavli" / "data" / "outcomes.json").read_text())
    assert "plakoto,mother_pin=single" in data["variants"]  # a house rule's row, not used by "tavli"
    standard = {k: data["variants"][k] for k in ("portes", "plakoto", "fevga")}
    expected = hashlib.sha256(json.dumps(standard, sort_keys=True).encode()).hexdigest()[:12]
    assert matchplay.table_id("tavli") == expected != matchplay.table_id("portes")


@pytest.mark.slow
def test_two_machines_share_a_run_from_either_end_and_merge(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    common = ("benchmarks/strength/matchplay.py",
              "--level", "beginner", "--lengths", "3", "--matches", "8", "--jobs", "1",
              "--max-seconds", "0")  # each stops after its first pair
    run(*common, "--descending", "--out", str(second))
    assert [p["pair"] for p in json.loads(second.read_text())["pairs"]] == [3]
    shown = run(*common, "--out", str(first), "--merge", str(second))
    assert "merged 1 pairs of 1 from" in shown and "4 matches" in shown
    assert sorted(p["pair"] for p in json.loads(first.read_text())["pairs"]) == [0, 3]
    other = tmp_path / "other.json"
    run("benchmarks/strength/matchplay.py", "--level", "beginner", "--lengths", "3", "--matches", "6", "--jobs", "1",
        "--max-seconds", "0", "--out", str(other))
    refused = subprocess.run([sys.executable, *common, "--out", str(first), "--merge", str(other)],
                             cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert refused.returncode != 0 and "not merged" in refused.stderr
    assert sorted(p["pair"] for p in json.loads(first.read_text())["pairs"]) == [0, 3]
