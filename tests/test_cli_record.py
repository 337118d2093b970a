"""Match records on the command line: tavli play --save, tavli export and tavli import, run as real processes."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run_tavli, start_tavli

from tavli.formats.mat import export_mat, import_mat
from tavli.formats.record import MatchRecord, PlayerInfo, RecordError, dumps, read
from tavli.variants import BLACK, WHITE


def tavli(*args: str, stdin: str = "", config: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``tavli ARGS`` without colour; ``config`` is the user's folder for programs (XDG_CONFIG_HOME)."""
    return run_tavli(*args, stdin=stdin, timeout=120,
                     env={"NO_COLOR": "1"} | ({} if config is None else {"XDG_CONFIG_HOME": str(config)}))


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A 3-point Portes match between two bots, saved."""
    path = tmp_path_factory.mktemp("play") / "match.json"
    run = tavli("play", "--white", "heuristic", "--black", "random", "--length", "3", "--games", "portes",
                "--seed", "7", "--save", str(path))
    assert run.returncode == 0, run.stderr
    return path, run


def test_play_save_writes_the_whole_match(saved: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    path, run = saved
    assert f"The match is saved in {path}." in run.stdout
    record = read(path)  # replays every play
    assert record.players == {WHITE: PlayerInfo("bot", "heuristic"), BLACK: PlayerInfo("bot", "random")}
    assert record.winner is not None and max(record.score.values()) >= 3
    final = f"wins the match {max(record.score.values())}-{min(record.score.values())}"
    assert final in run.stdout
    plays = [line for line in run.stdout.splitlines() if " and plays " in line or "no legal play" in line]
    assert len(plays) == sum(len(g.turns) for g in record.games)
    assert all(g.end is not None for g in record.games)


@pytest.mark.slow
def test_play_save_keeps_a_match_left_early(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    run = tavli("play", "--white", "human", "--black", "random", "--length", "3", "--seed", "1",
                "--save", str(path), stdin="")
    assert run.returncode == 0, run.stderr
    assert "End of input" in run.stdout
    record = read(path)
    assert record.players[WHITE] == PlayerInfo("human", "")
    assert len(record.games) == 1 and record.games[0].end is None


def test_play_save_to_a_bad_place_is_one_line(tmp_path: Path) -> None:
    run = tavli("play", "--white", "random", "--black", "random", "--save",
                str(tmp_path / "no" / "such" / "m.json"))
    assert run.returncode == 2
    assert run.stderr.startswith("error: cannot write ") and len(run.stderr.splitlines()) == 1
    assert run.stdout == ""


@pytest.mark.slow
def test_export_to_stdout_and_to_a_file(saved: tuple[Path, subprocess.CompletedProcess[str]],
                                        tmp_path: Path) -> None:
    path, _ = saved
    run = tavli("export", str(path), "--to", "mat")
    assert run.returncode == 0, run.stderr
    assert run.stdout == export_mat(read(path))
    assert " 3 point match" in run.stdout
    out = tmp_path / "m.mat"
    run = tavli("export", str(path), "-o", str(out))
    assert run.returncode == 0 and run.stdout == ""
    assert out.read_text() == export_mat(read(path))


@pytest.mark.slow
def test_import_a_mat_file(saved: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    path, _ = saved
    mat = tmp_path / "m.mat"
    mat.write_text(export_mat(read(path)))
    out = tmp_path / "back.json"
    run = tavli("import", str(mat), "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert "imported into" in run.stderr
    back = read(out)
    assert back.score == read(path).score
    assert back.players == read(path).players
    to_stdout = tavli("import", str(mat))
    assert to_stdout.returncode == 0 and to_stdout.stdout == dumps(import_mat(mat.read_text()))


@pytest.mark.parametrize(("args", "content", "fragment"), [
    (("export", "{f}"), "{", "not JSON"),
    (("export", "{f}"), '{"format": "tavli-match", "version": 7}', "version 7 is not supported"),
    (("export", "{f}", "--to", "sgf"), "", "'sgf' is not 'mat'"),
    (("import", "{f}"), " 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5  Doubles => 2\n",
     "line 4: a cube action"),
    (("import", "{f}"), "hello\n", "line 1: cannot read 'hello' before the first game"),
    (("import", "{f}-missing"), "", "cannot read"),
])
def test_bad_files_are_one_line_and_status_2(tmp_path: Path, args: tuple[str, ...], content: str,
                                             fragment: str) -> None:
    path = tmp_path / "input"
    path.write_text(content)
    run = tavli(*(a.format(f=path) for a in args))
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and run.stderr.startswith("error: ")
    assert fragment in run.stderr


@pytest.mark.slow
def test_exporting_a_match_without_portes(tmp_path: Path) -> None:
    path = tmp_path / "fevga.json"
    run = tavli("play", "--white", "random", "--black", "random", "--length", "1", "--games", "fevga",
                "--seed", "2", "--save", str(path))
    assert run.returncode == 0, run.stderr
    run = tavli("export", str(path))
    assert run.returncode == 2
    assert "no game of Portes" in run.stderr


@pytest.mark.slow
def test_verify_dice_reads_a_match_record(tmp_path: Path) -> None:
    from tavli.bots import RandomBot
    from tavli.fairdice import SeededRoller
    from tavli.formats.record import MatchRecord, write
    from tavli.match import Match, MatchSettings

    roller = SeededRoller()
    match = Match(MatchSettings(length=2, games=("plakoto",)), roller)
    bot = RandomBot(3)
    for _ in range(400):  # into the second game at least, which is still going on
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bot.choose(legal)] if len(legal) else None)
        if len(match.records) == 2 or match.is_over:
            break
    path = tmp_path / "m.json"
    write(MatchRecord.from_match(match, {WHITE: PlayerInfo("human", ""), BLACK: PlayerInfo("bot", "random")},
                                 roller.seeds), path)
    run = tavli("verify-dice", str(path))
    assert run.returncode == 0, run.stderr
    assert "game 1 (plakoto): " in run.stdout and "dice match seed" in run.stdout
    assert "1 finished game(s) checked" in run.stdout
    if not match.is_over:
        assert "game 2 (plakoto): not over, seed not yet revealed" in run.stdout
    text = path.read_text()
    seed = read(path).games[0].seed
    assert seed is not None
    path.write_text(text.replace(seed, "0" * 64))
    run = tavli("verify-dice", str(path))
    assert run.returncode == 2
    assert "game 1: seed: the seed does not match the commitment" in run.stderr


@pytest.mark.slow
def test_play_resume_goes_on_from_the_record_and_saves_there(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    left = tavli("play", "--white", "human", "--black", "random", "--length", "1", "--games", "portes", "--seed", "1",
                 "--save", str(path), stdin="")
    assert left.returncode == 0, left.stderr
    before = read(path)
    assert before.games[0].end is None and before.games[0].rolled is not None
    run = tavli("play", "--resume", str(path), "--seed", "2", stdin="1\n" * 1000)  # always the first play listed
    assert run.returncode == 0, run.stderr
    assert run.stdout.lstrip().startswith("The match goes on: White 0, Black 0 · match to 1.")
    after = read(path)
    assert after.winner is not None and after.players == before.players
    game = after.games[0]
    assert game.turns[:len(before.games[0].turns)] == before.games[0].turns
    assert game.turns[len(before.games[0].turns)].dice == before.games[0].rolled
    assert after.meta == before.meta


@pytest.mark.slow
def test_play_resume_refuses_in_one_line(saved: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    path, _ = saved
    record = read(path)
    winner = record.winner
    assert winner is not None
    side = "White" if winner == WHITE else "Black"
    cases = [
        (("--resume", str(path)), f"the match is over: {side} won {record.score[winner]}-"),
        (("--resume", str(path), "--length", "7"), "--length comes from the match record with --resume"),
        (("--resume", str(path), "--games", "fevga"), "--games comes from the match record with --resume"),
        (("--resume", str(tmp_path / "none.json")), "cannot read"),
    ]
    for args, words in cases:
        run = tavli("play", *args)
        assert run.returncode == 2, args
        assert words in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert "Traceback" not in run.stderr


@pytest.mark.slow
def test_a_match_is_kept_by_default_and_goes_on_with_resume_alone(tmp_path: Path) -> None:
    config = tmp_path / "config"  # the user's folder, the test's own
    kept = config / "tavli" / "matches"
    left = tavli("play", "--white", "human", "--black", "random", "--length", "1", "--games", "fevga",
                 "--seed", "5", stdin="", config=config)
    assert left.returncode == 0, left.stderr
    [path] = kept.glob("*.json")
    said = " ".join(left.stdout.split())  # as the terminal wraps it
    assert f"The match is saved in {path}. To go on with it: tavli play --resume {path}" in said
    assert read(path).games[0].rolled is not None
    resumed = tavli("play", "--resume", stdin="1\n" * 1000, config=config)  # the newest match not won
    assert resumed.returncode == 0, resumed.stderr
    assert "The match goes on" in resumed.stdout and read(path).winner is not None
    assert f"The match is saved in {path}." in " ".join(resumed.stdout.split())
    assert "To go on with it" not in resumed.stdout  # the match is won: it can be reviewed
    assert f"To review it, every play against the best: tavli analyse {path}" in " ".join(resumed.stdout.split())
    again = tavli("play", "--resume", "--lang", "en", config=config)
    assert again.returncode == 2 and "no match to go on with in " in again.stderr
    unkept = tavli("play", "--white", "random", "--black", "random", "--length", "1", "--no-save", config=config)
    assert unkept.returncode == 0 and "saved" not in unkept.stdout
    assert list(kept.glob("*.json")) == [path]


@pytest.mark.slow
def test_the_kept_matches_are_listed_and_one_goes_on_by_its_name(tmp_path: Path) -> None:
    config = tmp_path / "config"
    kept = config / "tavli" / "matches"
    empty = tavli("matches", config=config)
    assert empty.returncode == 0 and f"No match is kept in {kept} yet" in " ".join(empty.stdout.split())
    won = tavli("play", "--white", "beginner", "--black", "random", "--length", "1", "--games", "portes", "--seed", "1",
                config=config)
    assert won.returncode == 0, won.stderr
    time.sleep(1.1)  # the next file is named by a later second, and played later
    left = tavli("play", "--white", "human", "--black", "expert", "--length", "3", "--seed", "2", config=config)
    assert left.returncode == 0, left.stderr
    (kept / "notes.json").write_text("not a match")
    os.utime(kept / "notes.json", (0, 0))  # the oldest
    first, second = sorted(kept.glob("2*.json"))
    winner, score = read(first).winner, read(first).score
    assert winner is not None
    listed = tavli("matches", config=config)
    assert listed.returncode == 0, listed.stderr
    rows = [line.split() for line in listed.stdout.splitlines() if line.startswith("2")]
    assert rows == [[second.stem, "human", "–", "expert", "to", "3,", "Tavli", "0-0", "goes", "on"],
                    [first.stem, "beginner", "–", "random", "to", "1,", "Portes", f"{score[WHITE]}-{score[BLACK]}",
                     "White" if winner == WHITE else "Black", "won"]]
    said = " ".join(listed.stdout.split())
    assert "1 file could not be read as a match record." in said
    assert f"To go on with one: tavli play --resume MATCH (--resume alone takes {second.stem})" in said
    newest = tavli("matches", "--limit", "1", config=config)
    assert second.stem in newest.stdout and first.stem not in newest.stdout and "2 older: --limit 0" in newest.stdout
    greek = tavli("matches", "--lang", "el", config=config)
    table = [line for line in greek.stdout.splitlines() if line.startswith("2")]
    assert "παίκτης – έμπειρος" in table[0] and "συνεχίζεται" in table[0] and "νίκη" in table[1]
    assert all(len(line) <= 80 for line in table) and "…" not in greek.stdout
    for name, plays in ((second.name, ""), (second.stem, "1\n" * 1000)):  # the file's name, or as listed
        resumed = tavli("play", "--resume", name, stdin=plays, config=config)
        assert resumed.returncode == 0, resumed.stderr
        assert "The match goes on" in resumed.stdout
    assert read(second).winner is not None and sorted(kept.glob("2*.json")) == [first, second]


def killed_when(args: list[str], path: Path, ready: Callable[[MatchRecord], bool]) -> MatchRecord:
    """Start ``tavli play ARGS --save PATH``, kill it (SIGKILL: nothing of its own runs after) once
    the record in PATH is ``ready``, and read the record it left."""
    proc = start_tavli("play", *args, "--save", str(path), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env={"NO_COLOR": "1"})
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            with contextlib.suppress(RecordError, OSError):
                if ready(read(path)):
                    break
            time.sleep(0.1)
    finally:
        proc.kill()
        proc.wait()
    # a kill between writing the new text and renaming it over the record can leave the record's
    # one temporary file (the next write replaces it), never another
    assert set(path.parent.glob(".*.tmp")) <= {path.with_name(f".{path.name}.tmp")}
    return read(path)  # whole: every write replaces the file at once


@pytest.mark.slow
def test_a_match_is_written_after_every_turn_so_a_killed_program_loses_nothing(tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "human").mkdir()
    bots = killed_when(["--white", "heuristic", "--black", "random", "--length", "15"], tmp_path / "bots" / "bots.json",
                       lambda r: sum(len(g.turns) for g in r.games) >= 6)
    assert sum(len(g.turns) for g in bots.games) >= 6 and bots.winner is None
    # a human's roll is kept before he sees it: killing the program at his prompt buys no new dice
    human = killed_when(["--white", "human", "--black", "random", "--length", "3", "--seed", "4"],
                        tmp_path / "human" / "human.json", lambda r: r.games[-1].rolled is not None)
    assert human.games[-1].rolled is not None
    assert not list((tmp_path / "human").glob(".*.tmp"))  # killed at his prompt, while nothing was being written
