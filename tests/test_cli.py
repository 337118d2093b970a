"""The tavli command, run as a real process.

Starting the interpreter and loading the compiled kernel costs about a second, so each
distinct command runs once and the tests share its output.
"""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path

import pytest
from conftest import run_tavli

from tavli import BLACK, WHITE, Dice, Position
from tavli.formats.record import PlayerInfo, loads

START = "portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0"
START_ID = "4HPwATDgc/ABMA"
CLOSED_OUT = Position.from_checkers("portes", WHITE, {25: 1, 6: 14},
                                    {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})


@functools.cache
def tavli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``tavli ARGS`` (``conftest.run_tavli``), each command once however many tests read it."""
    return run_tavli(*args, stdin=stdin, timeout=120)


def expected_lines(pos: Position, dice: str) -> list[tuple[str, Position]]:
    legal = pos.legal_plays(dice)
    return [(str(p), legal.after(k)) for k, p in enumerate(legal)]


# -- legal ------------------------------------------------------------------------

def test_legal_with_a_position_string() -> None:
    run = tavli("legal", "--position", START, "--dice", "62")
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    lines = run.stdout.splitlines()
    assert len(lines) == 14
    rows = [line.split("\t") for line in lines]
    assert all(len(row) == 2 for row in rows)
    expected = expected_lines(Position.start("portes"), "62")
    assert [row[0] for row in rows] == [name for name, _ in expected]
    assert [Position.from_string(row[1]) for row in rows] == [after for _, after in expected]
    assert ["24/18 13/11", "portes 2b....5w.3w..1w5b4w...3b1w5b....1w b 0:0 0:0"] in rows


def test_legal_with_a_gnubg_id() -> None:
    run = tavli("legal", "-p", START_ID, "-d", "31")
    assert run.returncode == 0, run.stderr
    rows = [line.split("\t") for line in run.stdout.splitlines()]
    expected = expected_lines(Position.start("portes"), "31")
    assert len(rows) == len(expected) > 1
    for row, (name, after) in zip(rows, expected, strict=True):
        assert len(row) == 3
        assert row[0] == name
        assert Position.from_string(row[1]) == after
        # the third column is the ID of the result, the opponent on roll
        assert row[2] == after.gnubg_id()
        assert Position.from_gnubg_id(row[2], BLACK) == after
    assert ["8/5 6/5", "portes 2b...2w4w.2w...5b5w...3b.5b....2w b 0:0 0:0", "4HPwATDgc/ABMA"] not in rows


@pytest.mark.gnubg
def test_legal_gnubg_id_column_agrees_with_gnubg() -> None:
    gnubg = pytest.importorskip("gnubg")
    run = tavli("legal", "-p", START_ID, "-d", "31")
    assert run.returncode == 0, run.stderr
    for line in run.stdout.splitlines():
        _, text, position_id = line.split("\t")
        after = Position.from_string(text)
        board = tuple(tuple(after.checkers(color, p) for p in range(1, 26))
                      for color in (after.turn.other, after.turn))
        assert gnubg.positionid(board) == position_id


BATCH = "\n".join([
    f"portes {START_ID} 21",
    "# a comment",
    "",
    "portes bogus 62",
    "fevga ...........15b...........15w w 0:0 0:0 66",
    f"plakoto {START_ID} 62",
    f"{START} 65",
    f"portes {START_ID} 77",
    f"portes {CLOSED_OUT} 66",
    "fevga,prime_limits=off ...........15b...........15w w 0:0 0:0 55",
]) + "\n"


def batch_blocks() -> list[str]:
    run = tavli("legal", stdin=BATCH)
    assert run.returncode == 0, run.stderr
    assert run.stdout.endswith("\n\n")
    assert "\n\n\n" not in run.stdout
    return run.stdout[:-2].split("\n\n")


def test_batch_mode_answers_every_query_in_order() -> None:
    blocks = batch_blocks()
    assert len(blocks) == 8
    assert all(block.strip() for block in blocks)
    first = blocks[0].splitlines()
    assert len(first) == len(Position.start("portes").legal_plays("21"))
    assert all(len(line.split("\t")) == 3 for line in first)  # asked by GNU ID
    assert blocks[2].splitlines() == ["24/18\tfevga ...........15b.....1w.....14w b 0:0 0:0"]
    assert [line.split("\t")[0] for line in blocks[4].splitlines()] == [
        str(p) for p in Position.start("portes").legal_plays("65")]
    assert blocks[6].splitlines() == [f"pass\t{CLOSED_OUT.pass_turn()}"]
    # four fields: the game and its house rules come from the first column
    fevga = blocks[7].splitlines()
    assert {line.split("\t")[0] for line in fevga} == {"24/4", "24/19 24/9"}
    assert all(line.split("\t")[1].startswith("fevga,prime_limits=off ") for line in fevga)


def test_batch_mode_bad_lines_give_one_error_line_each() -> None:
    blocks = batch_blocks()
    errors = [k for k, block in enumerate(blocks) if block.startswith("error: ")]
    assert errors == [1, 3, 5]
    for k in errors:
        assert len(blocks[k].splitlines()) == 1
    assert "Portes" in blocks[3]
    assert "77" in blocks[5]


BAD_INPUT = {
    "bad dice": (("legal", "-p", START, "-d", "72"), "72"),
    "bad position": (("legal", "-p", START.replace("2w w", "3w w"), "-d", "62"), "16 checkers"),
    "unknown variant": (("legal", "-v", "chess", "-p", START_ID, "-d", "62"), "chess"),
    "unknown option": (("legal", "-v", "portes,foo=1", "-p", START_ID, "-d", "62"), "foo"),
    "missing dice": (("legal", "-p", START), "--dice"),
    "no games": (("selfplay", "-g", "0"), "0"),
    "not a roll": (("openings", "plakoto", "7-1"), "not a roll: '7-1'"),
    "unknown game": (("openings", "chess"), "chess"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(BAD_INPUT))
def test_bad_input_is_one_line_on_stderr_and_status_2(case: str) -> None:
    args, fragment = BAD_INPUT[case]
    run = tavli(*args)
    assert run.returncode == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("error: ")
    assert fragment in lines[0]


# -- openings ----------------------------------------------------------------------

def test_openings_of_every_game() -> None:
    run = tavli("openings")
    assert run.returncode == 0, run.stderr
    for game in ("Portes", "Plakoto", "Fevga"):
        assert f"{game}: the best play of each opening roll" in run.stdout
    assert "│ 3-1  │ 8/5 6/5" in run.stdout  # Portes: make the 5 point
    assert run.stdout.count("starter's edge after his first roll") == 3


def test_openings_of_one_roll() -> None:
    from tavli.study.openings import shipped

    run = tavli("openings", "portes", "13")
    assert run.returncode == 0, run.stderr
    assert "Portes, opening roll 3-1" in run.stdout
    plays = shipped().summary("portes", Dice(3, 1))
    rows = [line for line in run.stdout.splitlines() if line.startswith("│ ")]
    assert [r.split("│")[1].strip() for r in rows] == [p.play for p in plays[:8]]
    assert f"{plays[0].equity:+.3f} ± {plays[0].ci95:.3f}" in rows[0]
    assert f"{len(plays) - 8} more plays" in run.stdout


def test_openings_in_greek() -> None:
    from tavli.study.openings import shipped

    run = tavli("openings", "plakoto", "65", "--lang", "el")
    assert run.returncode == 0, run.stderr
    best = shipped().summary("plakoto", Dice(6, 5))[0]
    assert "Πλακωτό, πρώτη ζαριά 6-5" in run.stdout and "προχωρημένος" in run.stdout
    assert f"{best.equity:+.3f} ± {best.ci95:.3f}".replace(".", ",") in run.stdout


@pytest.mark.slow
def test_openings_as_json() -> None:
    from tavli.study.openings import shipped

    run = tavli("openings", "fevga", "--json")
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert list(found) == ["fevga"] and len(found["fevga"]["rolls"]) == 21
    assert found["fevga"]["mean"] == pytest.approx(shipped().mean("fevga"))
    one = json.loads(tavli("openings", "fevga", "55", "--json").stdout)
    assert one["roll"] == "5-5" and [p["play"] for p in one["plays"]] == ["24/19 24/9", "24/4"]


# -- selfplay ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], str, str]:
    """Two runs with the same seed, each writing a record."""
    folder = tmp_path_factory.mktemp("selfplay")
    runs, texts = [], []
    for name in ("a.json", "b.json"):
        path = folder / name
        runs.append(tavli("selfplay", "-v", "plakoto,mother_pin=single", "-g", "3", "-s", "5", "--white", "random",
                          "--black", "heuristic", "--record", str(path)))
        assert runs[-1].returncode == 0, runs[-1].stderr
        texts.append(Path(path).read_text())
    assert runs[0].stdout == runs[1].stdout.replace("b.json", "a.json")
    return runs[0], texts[0], texts[1]


@pytest.mark.slow
def test_selfplay_summary(records: tuple[subprocess.CompletedProcess[str], str, str]) -> None:
    lines = records[0].stdout.splitlines()
    assert lines[0] == "3 games of plakoto,mother_pin=single (random as White, heuristic as Black), seed 5"
    assert lines[1].startswith("White ") and "random" in lines[1]
    assert lines[2].startswith("Black ") and "heuristic" in lines[2]
    assert lines[3].startswith("ties ")
    assert lines[4].startswith("wrote 3 games to ") and lines[4].endswith("a.json")
    wins = [int(line.split("wins")[1].split()[0]) for line in lines[1:3]]
    ties = int(lines[3].split()[1].rstrip(";"))
    assert sum(wins) + ties == 3
    record = loads(records[1])
    assert wins == [sum(g.end is not None and g.end.winner == c for g in record.games) for c in (WHITE, BLACK)]


@pytest.mark.parametrize(("args", "summary"), [
    (("-g", "6", "--seed", "3"), ["6 games of portes (heuristic as White, random as Black), seed 3",
                                  "White  heuristic  wins      6 (100.0%)  2-point wins 6",
                                  "Black  random     wins      0 (  0.0%)  2-point wins 0",
                                  "ties 0; average length 53.2 turns"]),
    (("-g", "5", "--seed", "4", "--white", "random", "--black", "heuristic", "-v", "plakoto"),
     ["5 games of plakoto (random as White, heuristic as Black), seed 4",
      "White  random     wins      0 (  0.0%)  2-point wins 0",
      "Black  heuristic  wins      5 (100.0%)  2-point wins 4",
      "ties 0; average length 96.8 turns"]),
])
def test_selfplay_plays_the_games_it_always_played(args: tuple[str, ...], summary: list[str]) -> None:
    """The games are ``tavli.bots.duel``'s, dealt as selfplay always dealt them: one generator for
    the dice and the bots, the first to move alternating between White and Black."""
    from click.testing import CliRunner

    from tavli.cli import cli

    done = CliRunner().invoke(cli, ["selfplay", *args])
    assert done.exit_code == 0, done.output
    assert done.output.splitlines() == summary


def test_selfplay_same_seed_same_record(records: tuple[subprocess.CompletedProcess[str], str, str]) -> None:
    assert records[1] == records[2]
    assert records[1].count("\n") > 20


def test_selfplay_record_is_one_series_that_replays(
        records: tuple[subprocess.CompletedProcess[str], str, str]) -> None:
    record = loads(records[1])  # checks every play, position and result with the rules
    assert record.series and json.loads(records[1])["settings"]["length"] == 0
    assert [g.variant for g in record.games] == ["plakoto,mother_pin=single"] * 3
    assert [g.first for g in record.games] == [WHITE, BLACK, WHITE]
    assert record.players == {WHITE: PlayerInfo("bot", "random"), BLACK: PlayerInfo("bot", "heuristic")}
    assert all(g.end is not None for g in record.games)
    assert record.meta["event"] == "tavli selfplay --seed 5"
