"""End to end: ``tavli analyse`` on a match record, ``tavli rollout`` and ``tavli hint`` on a position."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import run_tavli

from tavli.bots import RandomBot
from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import NeuralBot
from tavli.dice import Dice, DiceRoller
from tavli.formats.record import MatchRecord, PlayerInfo, write
from tavli.match import Match, MatchSettings
from tavli.position import Position
from tavli.study.analysis import rank_plays
from tavli.variants import BLACK, WHITE

tavli = run_tavli


def random_against_advanced() -> Match:
    """A 2-point match of Portes and Plakoto: random play as White, the advanced level as Black."""
    match = Match(MatchSettings(length=2, games=("portes", "plakoto")), DiceRoller(seed=4))
    bots = {WHITE: RandomBot(seed=4), BLACK: NeuralBot("advanced")}
    while not match.is_over:
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bots[match.turn].choose(legal)] if len(legal) else None)
    return match


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``random_against_advanced``'s record in a file."""
    path = tmp_path_factory.mktemp("records") / "match.json"
    write(MatchRecord.from_match(random_against_advanced(), {WHITE: PlayerInfo("bot", "random"),
                                                             BLACK: PlayerInfo("bot", "advanced")}), path)
    return path


@pytest.mark.slow
def test_analyse_prints_rates_and_the_worst_mistakes(record: Path, tmp_path: Path) -> None:
    plot = tmp_path / "match.png"
    done = tavli("analyse", str(record), "--depth", "0", "--top", "2", "--plot", str(plot))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Analysis at 0-ply" in out and "White (bot random)" in out and "Black (bot advanced)" in out
    assert "The 2 costliest mistakes" in out and "<- played" in out and "blunder" in out
    assert "match to 2: plays ranked by the chance of winning the match" in out
    assert "MWC" in out and " pp " in out and "at 2-away/" in out and "MWC -" in out
    rolls = re.findall(r"(?:White|Black) (\d)-(\d) played", out)
    assert len(rolls) == 2 and all(high >= low for high, low in rolls)  # high-low, as players say a roll
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_analyse_json(record: Path) -> None:
    done = tavli("analyse", str(record), "-d", "0", "--json", "-j", "1")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    white, black = data["players"]["white"], data["players"]["black"]
    assert white["error_rate"] > 5 * black["error_rate"] and white["blunders"] > 0
    assert {"error_rate", "errors", "blunders", "luck"} <= set(black)
    games = {d["game"] for d in data["decisions"]}
    assert games == set(range(len(data["games"])))
    worst = max(data["decisions"], key=lambda d: d["loss"])
    assert worst["player"] == "white" and worst["played"] != worst["best"]
    # a match is analysed at its score: the best play is the one with the best chance of winning the match
    assert data["match_length"] == 2 and data["games"][0]["score"] == {"white": 0, "black": 0}
    assert worst["mwc_loss"] == pytest.approx(worst["candidates"][0]["mwc"] - next(
        c["mwc"] for c in worst["candidates"] if c["play"] == worst["played"]), abs=2e-6)
    assert worst["mwc_loss"] > 0 and len(worst["away"]) == 2
    assert white["mwc_loss"] > black["mwc_loss"] >= 0
    assert white["mwc_loss"] == pytest.approx(sum(
        d["mwc_loss"] for d in data["decisions"] if d["player"] == "white" and not d["forced"]), abs=1e-4)


@pytest.mark.slow
def test_analyse_a_series_for_points(record: Path, tmp_path: Path) -> None:
    data = json.loads(record.read_text())
    data["settings"]["length"] = 0  # a series of games outside a match
    series = tmp_path / "series.json"
    series.write_text(json.dumps(data))
    done = tavli("analyse", str(series), "-d", "0", "--json", "-j", "1")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["match_length"] is None and "mwc_loss" not in found["players"]["white"]
    worst = max(found["decisions"], key=lambda d: d["loss"])
    assert "mwc_loss" not in worst and "mwc" not in worst["candidates"][0]
    assert worst["loss"] == pytest.approx(worst["candidates"][0]["equity"] - next(
        c["equity"] for c in worst["candidates"] if c["play"] == worst["played"]), abs=2e-4)
    text = tavli("analyse", str(series), "-d", "0", "--top", "1").stdout
    assert "MWC" not in text and "Analysis at 0-ply" in text


@pytest.mark.slow
def test_analyse_a_rollout_for_one_decision(record: Path) -> None:
    done = tavli("analyse", str(record), "-d", "0", "--json", "--rollout", "1:2", "--trials", "6", "-j", "1")
    assert done.returncode == 0, done.stderr
    second = next(d for d in json.loads(done.stdout)["decisions"] if d["game"] == 0 and d["turn"] == 2)
    assert all(c["depth"] == -1 and c["ci95"] > 0 for c in second["candidates"])


@pytest.mark.parametrize(("args", "message"), [
    (("missing.json",), "cannot read missing.json"),
    (("{path}", "--depth", "4"), "4 is not in the range"),
    (("{path}", "--rollout", "x"), "GAME:TURN"),
])
def test_analyse_bad_input_is_one_line(record: Path, args: tuple[str, ...], message: str) -> None:
    done = tavli("analyse", *(a.format(path=record) for a in args))
    assert done.returncode == 2 and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.slow
def test_analyse_a_bad_record_names_where(tmp_path: Path, record: Path) -> None:
    data = json.loads(record.read_text())
    data["games"][0]["turns"][3]["play"] = "24/1"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    done = tavli("analyse", str(bad))
    assert done.returncode == 2 and "game 1" in done.stderr and "turn 4" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_rollout_of_a_position_and_of_a_roll() -> None:
    # White has one checker left on his 1-point and Black all fifteen at home: White wins a double game
    done = tavli("rollout", "portes 1w.................15b..... w 0:0 14:0", "-n", "36", "-j", "1", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)["results"][0]
    assert result["equity"] == pytest.approx(2.0) and result["win2"] == 1.0
    done = tavli("rollout", "4HPwATDgc/ABMA", "--dice", "31", "-n", "12", "-j", "2", "--candidates", "2")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and "trials" in lines[1] and lines[1].split()[0:2] == ["8/5", "6/5"]


@pytest.mark.slow
def test_analyse_and_rollout_speak_greek(record: Path, tmp_path: Path) -> None:
    plot = tmp_path / "match.png"
    done = run_tavli("analyse", str(record), "-d", "0", "--top", "1", "-j", "1", "--plot", str(plot),
                     env={"LANG": "el_GR.UTF-8"})
    assert done.returncode == 0, done.stderr  # the locale's language, without --lang
    out = done.stdout
    assert "Ανάλυση σε βάθος 0" in out and "Λευκά (υπολογιστής, τυχαίος)" in out and "Το ακριβότερο λάθος" in out
    assert f"γράφτηκε το {plot}" in out and "Analysis" not in out and " pp" not in out
    race = tavli("rollout", "portes 1w.................15b..... w 0:0 14:0", "-n", "36", "-j", "1", "--lang", "el")
    assert race.returncode == 0, race.stderr
    assert "+2,000 ± 0,000 σε 36 δοκιμές (νίκη 100,0%" in race.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("nonsense",), "position"),
    (("4HPwATDgc/ABMA", "--dice", "7"), "dice"),
    (("portes ......................15b.  w 0:0 15:0",), "over"),
])
@pytest.mark.slow
def test_rollout_bad_input_is_one_line(args: tuple[str, ...], message: str) -> None:
    done = tavli("rollout", *args)
    assert done.returncode == 2 and message in done.stderr.lower()
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_hint_ranks_every_play() -> None:
    done = tavli("hint", "4HPwATDgc/ABMA", "13", "--depth", "1", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["dice"] == "3-1" and found["depth"] == 1 and len(found["plays"]) == 16
    best = found["plays"][0]
    assert (best["play"], best["depth"], best["loss"], best["skill"]) == ("8/5 6/5", 1, 0.0, "")
    assert best["equity"] == pytest.approx(2 * best["win"] - 1 + best["win2"] - best["lose2"], abs=1e-3)
    assert all(p["loss"] > 0 and p["skill"] for p in found["plays"][1:])  # every other 3-1 is an error or worse
    done = tavli("hint", "plakoto 15b................1w1w....13w b 0:0 0:0", "6-4", "--depth", "0")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Black to play 6-4 in plakoto 15b................1w1w....13w b 0:0 0:0"
    assert any(line.split()[:3] == ["1", "24/20", "24/18"] for line in lines)
    done = tavli("hint", "portes ......3b.....12w.....2b2b2b2b2b2b w 3:0 0:0", "65")
    assert done.returncode == 0 and "White cannot play 6-5" in done.stdout


@pytest.mark.slow
def test_hint_for_a_match_at_its_score() -> None:
    # docs/match-equity.md, "Gammon-go: the trailer hits": Black trails 1-2 in a match to 3
    position = "portes 2w2w3w.2w3w3b..1b.2b2w1b..1w.4b.2b.2b. b 0:0 0:0"
    points = json.loads(tavli("hint", position, "51", "--depth", "2", "--json").stdout)
    done = tavli("hint", position, "51", "--depth", "2", "--match", "3", "--score", "2-1", "--json")
    assert done.returncode == 0, done.stderr
    match = json.loads(done.stdout)
    assert points["match"] is None and points["plays"][0]["play"] == "15/10 11/10" and "mwc" not in points["plays"][0]
    assert match["match"] == {"length": 3, "score": "2-1", "order": "tavli"}
    assert match["plays"][0]["play"] == "13/8* 11/10" and match["plays"][0]["mwc_loss"] == 0.0
    # ranked for the match: deepest first, and at each depth by match-winning chance
    for depth in {p["depth"] for p in match["plays"]}:
        mwc = [p["mwc"] for p in match["plays"] if p["depth"] == depth]
        assert mwc == sorted(mwc, reverse=True)
    assert [p["depth"] for p in match["plays"]] == sorted((p["depth"] for p in match["plays"]), reverse=True)
    shown = tavli("hint", position, "51", "--depth", "1", "--match", "3", "--score", "2-1").stdout
    assert "match to 3 at 2-1 (tavli order), ranked for the match" in shown.splitlines()[0]
    # another order: this Portes game the match's second, after a Fevga game
    other = json.loads(tavli("hint", position, "51", "--depth", "0", "--match", "3", "--score", "2-1",
                             "--games", "fevga,portes", "--json").stdout)
    score = MatchScore.in_game("portes", mine=1, theirs=2, length=3, games=("fevga", "portes"))
    ranked = rank_plays(Position.from_string(position), Dice(5, 1), 0, score=score)
    assert [p["play"] for p in other["plays"]] == [str(r.play) for r in ranked]
    assert other["plays"][0]["mwc"] == pytest.approx(ranked[0].mwc, abs=1e-4)


@pytest.mark.parametrize(("args", "message"), [
    (("4HPwATDgc/ABMA", "31", "--match", "3", "--score", "3-0"), "0 to 2 points, not white 3 and black 0"),
    (("4HPwATDgc/ABMA", "31", "--match", "3", "--score", "two"), "like 2-1"),
    (("nonsense", "31"), "position"),
    (("4HPwATDgc/ABMA", "71"), "dice"),
    (("portes ......................15b.  w 0:0 15:0", "31"), "over"),
    (("4HPwATDgc/ABMA", "31", "--depth", "4"), "depth"),
    (("4HPwATDgc/ABMA", "31", "--match", "3", "--order", "chess"), "tavli, single or a list like fevga,portes"),
])
@pytest.mark.slow
def test_hint_bad_input_is_one_line(args: tuple[str, ...], message: str) -> None:
    done = tavli("hint", *args)
    assert done.returncode == 2 and message in done.stderr.lower()
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_hint_speaks_greek() -> None:
    shown = tavli("hint", "4HPwATDgc/ABMA", "31", "--depth", "1", "--lang", "el").stdout
    lines = shown.splitlines()
    assert lines[0] == "Παίζουν τα Λευκά 3-1 στη θέση portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0"
    assert lines[1].split() == ["κίνηση", "αξία", "νίκη", "νίκη", "2", "ήττα", "2", "απώλεια", "βάθος"]
    assert "γκάφα" in shown and "blunder" not in shown
    assert re.search(r"\+0,\d{3} +\d\d,\d%", lines[2])  # the decimal comma Greek writes
    assert lines[-1].startswith("αξία: οι αναμενόμενοι πόντοι ανά παιχνίδι")


def test_digits_that_are_not_decimal_are_refused_in_one_line() -> None:
    for args in (["hint", "4HPwATDgc/ABMA", "31", "--match", "3", "--score", "¹-1"],):
        done = tavli(*args)
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.strip().splitlines() == ["error: write the score as White's points and Black's, like 2-1, "
                                                    "not '¹-1'"]
