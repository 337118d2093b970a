"""Opening tables: the roll-out checkpoint and its resume, the choice of plays, the Markdown."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from tavli.dice import Dice
from tavli.position import Position
from tavli.study.analysis import Thresholds
from tavli.study.openings import (
    OPENING_ROLLS,
    OpeningsError,
    OpeningSettings,
    OpeningTables,
    chosen,
    opening_roll,
    rank,
    shipped,
)

ROOT = Path(__file__).resolve().parent.parent
FIVES = Dice(5, 5)  # Fevga's only opening roll with a choice: 24/4, or 24/19 24/9


def test_the_opening_rolls_are_the_21_rolls_higher_die_first() -> None:
    assert len(OPENING_ROLLS) == len(set(OPENING_ROLLS)) == 21
    assert all(d.first >= d.second for d in OPENING_ROLLS)
    assert sum(1 if d.first == d.second else 2 for d in OPENING_ROLLS) == 36


def test_rank_values_every_legal_play_at_two_plies() -> None:
    ranked = rank("portes", Dice(6, 5))
    legal = Position.start("portes").legal_plays(Dice(6, 5))
    assert sorted(i for _, _, i in ranked) == list(range(len(legal)))
    assert [e for _, e, _ in ranked] == sorted((e for _, e, _ in ranked), reverse=True)
    assert ranked[0][0] == "24/13"  # the lover's leap


def test_chosen_takes_the_best_and_those_close_to_it() -> None:
    ranked = [("a", 0.30, 0), ("b", 0.28, 1), ("c", 0.10, 2), ("d", 0.05, 3), ("e", 0.0, 4)]
    assert chosen(ranked, OpeningSettings(candidates=1, margin=0.05)) == ["a", "b"]
    assert chosen(ranked, OpeningSettings(candidates=3, margin=0.0)) == ["a", "b", "c"]
    assert chosen(ranked, OpeningSettings(candidates=2, margin=1.0, most=4)) == ["a", "b", "c", "d"]


@pytest.mark.slow
def test_a_resumed_run_is_the_run_made_at_once(tmp_path: Path) -> None:
    path = tmp_path / "openings.json"
    first = OpeningTables.open(path, OpeningSettings(trials=2))
    assert first.run(["fevga"], [FIVES], workers=1)
    saved = json.loads(path.read_text())
    assert {p: len(r["points"]) for p, r in saved["games"]["fevga"]["5-5"]["rollouts"].items()} == \
        {"24/19 24/9": 2, "24/4": 2}
    more = OpeningTables.open(path, OpeningSettings(trials=4))
    assert more.run(["fevga"], [FIVES], workers=1)
    at_once = OpeningTables(OpeningSettings(trials=4))
    at_once.run(["fevga"], [FIVES], workers=1)
    resumed = json.loads(path.read_text())
    assert resumed["games"] == at_once.to_json()["games"]
    assert [r["added_trials"] for r in resumed["runs"]] == [4, 4]
    # nothing left to do: a third run adds nothing
    again = OpeningTables.open(path, OpeningSettings(trials=4))
    again.run(["fevga"], [FIVES], workers=1)
    assert again.to_json()["games"] == resumed["games"]
    assert again.runs[-1]["added_trials"] == 0


@pytest.mark.slow
def test_summary_and_markdown(tmp_path: Path) -> None:
    tables = OpeningTables(OpeningSettings(trials=3))
    tables.run(["fevga"], [Dice(6, 6), FIVES], workers=1)
    best, other = tables.summary("fevga", FIVES)
    assert best.equity >= other.equity and best.diff == 0.0
    assert other.diff == pytest.approx(other.equity - best.equity)
    assert best.trials == other.trials == 3 and math.isfinite(other.diff_ci95)
    text = tables.markdown("fevga")
    lines = text.splitlines()
    assert lines[0].startswith("| roll | best play | rollout | 2-ply | trials |")
    assert any(line.startswith("| 6-6 | 24/18 | ") and line.endswith("| forced |") for line in lines)
    assert any(line.startswith(f"| 5-5 | {best.play} | {best.equity:+.3f} ± ") and other.play in line
               for line in lines)
    assert "Mean over the 36 throws" not in text  # only with all 21 rolls
    doc = tmp_path / "openings.md"
    doc.write_text("intro\n<!-- openings:fevga -->\nold\n<!-- /openings:fevga -->\nafter\n")
    tables.write_docs(doc, ["fevga"])
    written = doc.read_text()
    assert written.startswith("intro\n<!-- openings:fevga -->\n| roll |") and written.endswith(
        "<!-- /openings:fevga -->\nafter\n")
    assert "old" not in written
    doc.write_text(written + "<!-- openings:runs -->\n<!-- /openings:runs -->\n")
    tables.write_docs(doc, ["fevga"])
    runs = doc.read_text().split("<!-- openings:runs -->\n")[1].splitlines()
    assert runs[0].startswith("| started |") and len(runs) == 4  # head, rule, one run, end marker
    network = tables.runs[0]["networks"]["fevga"]
    assert f"| 3 | fevga | {network} | 9 |" in runs[2]  # 3 trials for each of 2 plays of 5-5 and 1 of 6-6
    assert "1 process;" in runs[2]
    with pytest.raises(OpeningsError, match="markers"):
        tables.write_docs(doc, ["portes"])


def test_bad_files_and_settings_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(OpeningsError, match="not an openings file"):
        OpeningTables.open(bad, OpeningSettings())
    bad.write_text(json.dumps({"format": "tavli-openings", "version": 1, "settings": {}, "games": {"go": {}}}))
    with pytest.raises(OpeningsError, match="unknown game 'go'"):
        OpeningTables.open(bad, OpeningSettings())
    tables = OpeningTables(OpeningSettings(trials=1))
    tables.run(["fevga"], [Dice(6, 6)], workers=1)
    data = tables.to_json()
    with pytest.raises(OpeningsError, match="same"):
        OpeningTables.from_json(data, OpeningSettings(level="expert"))
    data["games"]["fevga"]["6-6"]["rollouts"]["24/18"]["luck"] = []
    with pytest.raises(OpeningsError, match="differ in length"):
        OpeningTables.from_json(data)
    with pytest.raises(OpeningsError, match="unknown game"):
        tables.run(["chess"], workers=1)
    with pytest.raises(OpeningsError, match="unknown level"):
        OpeningSettings(level="grandmaster")


@pytest.mark.slow
def test_the_script_prints_tables_and_refuses_bad_rolls(tmp_path: Path) -> None:
    path = tmp_path / "openings.json"
    tables = OpeningTables(OpeningSettings(trials=1), path)
    tables.run(["fevga"], [Dice(6, 6)], workers=1)
    script = [sys.executable, str(ROOT / "tools" / "opening_tables.py"), "--data", str(path)]
    shown = subprocess.run([*script, "--tables", "--games", "fevga"], capture_output=True, text=True, check=True)
    assert "| 6-6 | 24/18 |" in shown.stdout
    bad = subprocess.run([*script, "--rolls", "67"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip() == "error: a roll is two dice like 65, not '67'"


# -- the tables that ship ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga"])
def test_the_shipped_tables_cover_every_roll_with_legal_plays(game: str) -> None:
    tables = shipped()
    assert tables.rolls(game) == list(OPENING_ROLLS)
    start = Position.start(game)
    for dice in OPENING_ROLLS:
        plays = tables.summary(game, dice)
        legal = {str(p) for p in start.legal_plays(dice)}
        assert [p.play for p in plays if p.play not in legal] == []
        rolled = [p for p in plays if p.rolled_out]
        assert rolled and plays[:len(rolled)] == rolled  # the rolled-out plays come first, best first
        assert [p.equity for p in rolled] == sorted((p.equity for p in rolled), reverse=True)
        assert rolled[0].diff == 0 and not rolled[0].separated
    throws = {d: 1 if d.first == d.second else 2 for d in OPENING_ROLLS}
    mean = tables.mean(game)
    assert mean is not None
    assert mean == pytest.approx(sum(w * tables.summary(game, d)[0].equity for d, w in throws.items()) / 36)


@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga"])
def test_every_legal_opening_play_has_its_loss(game: str) -> None:
    tables = shipped()
    start = Position.start(game)
    for dice in OPENING_ROLLS:
        losses = tables.losses(game, dice)
        assert set(losses) == {str(p) for p in start.legal_plays(dice)}
        plays = tables.summary(game, dice)
        assert losses[plays[0].play] == 0.0 and min(losses.values()) >= 0.0
        for p in plays[1:]:  # the rollout's difference where there is one, else the 2-ply search's
            expected = -p.diff if p.rolled_out else plays[0].ply2 - p.ply2
            assert losses[p.play] == pytest.approx(max(0.0, expected))


@pytest.mark.parametrize("game", ["portes", "plakoto", "fevga"])
def test_every_legal_opening_play_is_judged_by_its_games_thresholds(game: str) -> None:
    tables = shipped()
    thresholds = Thresholds.of(game)
    skills = set()
    for dice in OPENING_ROLLS:
        losses, judged = tables.losses(game, dice), tables.judged(game, dice)
        assert [p for p, j in judged.items() if j.best] == [tables.summary(game, dice)[0].play]
        for play, j in judged.items():
            assert j.loss == losses[play]
            assert j.skill == ("" if j.best else thresholds.skill(j.loss))
            skills.add(j.skill)
    # every game's openings hold good plays and blunders (Fevga's hardly anything between)
    assert {"", "blunder"} <= skills


def test_the_mean_waits_for_every_roll() -> None:
    tables = OpeningTables(OpeningSettings(trials=1))
    tables.run(["fevga"], [Dice(6, 6)], workers=1)
    assert tables.rolls("fevga") == [Dice(6, 6)] and tables.mean("fevga") is None
    assert "Mean over the 36 throws" not in tables.markdown("fevga")


def test_a_play_summary_as_json() -> None:
    plays = shipped().summary("portes", Dice(3, 1))
    best, rest = plays[0].to_json(), plays[-1].to_json()
    assert best["play"] == "8/5 6/5" and best["diff"] == 0 and best["separated"] is False
    assert best["trials"] > 0 and 0 <= best["win"] <= 1
    assert rest["trials"] == 0 and rest["equity"] is None and rest["ci95"] is None and rest["separated"] is False
    json.dumps([p.to_json() for p in plays], allow_nan=False)  # no NaN or infinity in the JSON
    separated = [p for p in plays if p.separated]
    assert separated and all(abs(p.diff) > p.diff_ci95 for p in separated)


@pytest.mark.parametrize(("text", "dice"), [("6-5", Dice(6, 5)), ("56", Dice(6, 5)), ("1 3", Dice(3, 1)),
                                            ("4-4", Dice(4, 4))])
def test_opening_roll_reads_either_order(text: str, dice: Dice) -> None:
    assert opening_roll(text) == dice


@pytest.mark.parametrize("text", ["7-1", "", "6", "6-5-4", "x"])
def test_opening_roll_refuses_what_is_not_a_roll(text: str) -> None:
    with pytest.raises(OpeningsError, match="not a roll"):
        opening_roll(text)


def test_more_trials_only_from_the_same_network() -> None:
    from tavli.bots.neural import Evaluator

    tables = OpeningTables(OpeningSettings(trials=1))
    tables.run(["fevga"], [Dice(6, 6)], workers=1)
    network = Evaluator.for_variant("fevga").fingerprint
    assert tables.games["fevga"]["6-6"]["network"] == network
    assert tables.runs[-1]["networks"] == {"fevga": network}
    assert "fevga" in tables.runs_markdown().splitlines()[-1] and network in tables.runs_markdown()
    tables.games["fevga"]["6-6"]["network"] = "0123456789ab"  # as if rolled out before the network changed
    more = OpeningTables.from_json(tables.to_json(), OpeningSettings(trials=2))
    with pytest.raises(OpeningsError, match="rolled out with network 0123456789ab, not the shipped"):
        more.run(["fevga"], [Dice(6, 6)], workers=1)
    more.drop("fevga")
    assert more.run(["fevga"], [Dice(6, 6)], workers=1)
    assert more.games["fevga"]["6-6"]["network"] == network
    assert [p.trials for p in more.summary("fevga", Dice(6, 6))] == [2]
