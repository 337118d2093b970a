"""GNU Backgammon's .mat files: export, import, and GNU Backgammon itself reading what Tavli writes."""

from __future__ import annotations

import itertools
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tavli.bots import HeuristicBot, Player, RandomBot
from tavli.errors import Reason
from tavli.fairdice import SeededRoller
from tavli.formats.mat import MatError, backgammon, export_mat, import_mat, read_mat
from tavli.formats.record import GameEnd, MatchRecord, PlayerInfo, RecordedGame, TurnRecord, dumps, loads
from tavli.match import Match, MatchSettings
from tavli.position import Position
from tavli.variants import BLACK, WHITE, Color

GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
BOTS = {WHITE: PlayerInfo("bot", "random"), BLACK: PlayerInfo("bot", "heuristic")}


def bot_match(seed: int, length: int = 5, games: tuple[str, ...] = ("portes",), resign_at: int | None = None,
              series_games: int = 0) -> MatchRecord:
    """A match between the random and the heuristic bot; the side to move resigns at turn ``resign_at``."""
    rng = random.Random(seed)
    roller = SeededRoller(make_seed=lambda: rng.randbytes(32))
    match = Match(MatchSettings(length=length, games=games), roller)
    bots: dict[Color, Player] = {WHITE: RandomBot(seed), BLACK: HeuristicBot()}
    turns = 0
    while not match.is_over:
        if turns == resign_at:
            match.concede(match.turn, "resigned", 2)
        else:
            match.roll()
            legal = match.legal_plays()
            match.play(legal[bots[match.turn].choose(legal)] if len(legal) else None)
        turns += 1
    return MatchRecord.from_match(match, BOTS, roller.seeds)


def as_exported(game: RecordedGame) -> tuple[list[TurnRecord], tuple[Color | None, int] | None]:
    """The turns and the end that a .mat file keeps of a game: without the last move of a game that
    backgammon would score 3, which ends in the loser resigning a gammon instead."""
    end = None if game.end is None else (game.end.winner, game.end.points)
    if game.turns and backgammon(Position.from_string(game.turns[-1].position)):
        return game.turns[:-1], end
    return game.turns, end


def kept(record: MatchRecord) -> list[tuple[list[TurnRecord], tuple[Color | None, int] | None]]:
    return [(g.turns, None if g.end is None else (g.end.winner, g.end.points)) for g in record.games]


# -- export ------------------------------------------------------------------
def test_export_layout() -> None:
    record = bot_match(1)
    text = export_mat(record)
    lines = text.splitlines()
    assert ' 5 point match' in lines
    assert lines[lines.index(" Game 1") + 1] == " bot-random : 0                 bot-heuristic : 0"
    moves = [line for line in lines if re.match(r"^ {0,2}\d+\) ", line)]
    assert len(moves) >= sum(len(g.turns) for g in record.games) // 2
    # the second column starts at column 33, each step written alone, 25 the bar and 0 off
    assert all(line[33:35].isdigit() for line in moves if len(line) > 40 and line[5:7].isdigit())
    assert re.search(r"\b25/\d+", text) and re.search(r"\b\d/0\b", text)
    assert "off" not in text and "bar" not in text
    # a pass is the dice alone
    assert re.search(r"[1-6][1-6]:( {20,}|$)", text, re.M)
    # each game ends with the winner's line in his column
    wins = [line for line in lines if "Wins" in line]
    assert len(wins) == len(record.games)
    for line, game in zip(wins, record.games, strict=True):
        assert game.end is not None
        assert line.index("Wins") == (6 if game.end.winner == WHITE else 34)
        assert line.strip() == f"Wins {game.end.points} point{'s' if game.end.points > 1 else ''}"


def test_export_skips_other_games_but_keeps_the_score() -> None:
    record = bot_match(4, length=5, games=("plakoto", "portes", "fevga"))
    text = export_mat(record)
    assert text.count(" Game ") == sum(g.variant == "portes" for g in record.games)
    first_portes = next(k for k, g in enumerate(record.games) if g.variant == "portes")
    before = MatchRecord(record.settings, record.players, record.games[:first_portes], {}).score
    assert f"bot-random : {before[WHITE]}" in text.split(" Game 1\n")[1].splitlines()[0]


def test_export_needs_a_portes_game() -> None:
    with pytest.raises(MatError, match="no game of Portes"):
        export_mat(bot_match(2, length=1, games=("fevga",)))


def test_a_series_is_a_money_session() -> None:
    games = [g for seed in (1, 2) for g in bot_match(seed, length=1).games]
    record = MatchRecord(MatchSettings(length=1, games=("portes",)), BOTS, games, {}, series=True)
    text = export_mat(record)
    assert " 0 point match" in text.splitlines()
    back = import_mat(text)
    assert back.series and kept(back) == [as_exported(g) for g in games]


# -- import ------------------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 5), st.none() | st.integers(0, 120))
@example(seed=0, length=1, resign_at=0)  # Black to move resigns before the first move
def test_export_then_import_gives_the_same_games(seed: int, length: int, resign_at: int | None) -> None:
    record = bot_match(seed, length, resign_at=resign_at)
    back = import_mat(export_mat(record))
    assert back.players == record.players
    assert back.settings.length == length
    assert kept(back) == [as_exported(g) for g in record.games]
    assert [g.first for g in back.games if g.turns] == [g.first for g in record.games if g.turns]
    assert back.score == record.score
    assert loads(dumps(back)) == back
    assert export_mat(back) == export_mat(record).replace(
        f'; [EventDate "{record.meta["created"][:10].replace("-", ".")}"]',
        f'; [EventDate "{export_mat(back).split("EventDate ")[1][1:11]}"]')


HEADER = " 3 point match\n\n Game 1\n Ada : 0                        Bob : 0\n"


@pytest.mark.parametrize(("body", "pattern"), [
    ("  1) 31: 8/5 6/5                 Doubles => 2\n", r"^line 5: a cube action .*without the cube$"),
    ("  1) 31: 8/4 6/5\n", r"^line 5: 8/4 6/5 with 3-1: "),
    ("  1) 31: 8/5 6/5                 64: 24/18 13/9\n  2) 62:\n", r"^line 6: no move with 6-2: you cannot pass"),
    ("  1) 31: 8/5 6/5\n  2) 62: 24/18 13/11\n",
     r"^line 6: the first player moves, but it is the second player's turn$"),
    ("  1) 31: 8/5 6/5\n      Wins 3 points\n", r"^line 6: a game scored 3 \(a backgammon or a doubled cube\)"),
    ("  1) 31: 8/5 6/5 hello\n", r"^line 5: "),
    ("  1) 31: 8/5 6/5\n      Wins 1 point\n  2) 62: 24/18 13/11\n", r"^line 7: a move after the game was won$"),
    ("  1) 31: 8/5 6/5\n      Wins 1 point\n\n Game 2\n Ada : 0                        Bob : 1\n",
     r"^line 8, game 2: the score line says 0-1, but the games before make it 1-0$"),
    ("  1) 31: 8/5 6/5\n\n Game 2\n Ada : 0                        Bob : 0\n",
     r"^line 7, game 2: game 1 has no winner, yet another game follows$"),
    ("what is this\n", r"^line 5: cannot read 'what is this'$"),
])
def test_bad_mat_files_get_one_line_naming_the_line(body: str, pattern: str) -> None:
    with pytest.raises(MatError, match=pattern) as caught:
        import_mat(HEADER + body)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("text", "pattern"), [
    ("", r"^no match length"),
    (" Game 1\n", r"^line 1: a game before the match length"),
    (" 3 point match\n", r"^no game in the file$"),
    (" 3 point match\n Game 1\n  1) 31: 8/5 6/5\n", r"^line 3: expected the score line"),
    (" 3 point match\n Game 1\n Ada : 1   Bob : 0\n",
     r"^line 2, game 1: the score line says 1-0, but a match starts at 0-0$"),
    ('; [Variation "Nackgammon"]\n' + HEADER, r"^line 1: the variation 'Nackgammon' does not start as Portes does$"),
])
def test_files_that_are_not_portes_matches(text: str, pattern: str) -> None:
    with pytest.raises(MatError, match=pattern):
        import_mat(text)


def test_a_resignation_imports_as_one() -> None:
    record = import_mat(HEADER + "  1) 31: 8/5 6/5                 64: 24/18 13/9\n"
                                 "                                  Wins 2 points\n")
    assert record.games[0].end == GameEnd(BLACK, 2, "resigned")
    assert record.score == {WHITE: 0, BLACK: 2}


@pytest.mark.parametrize("seed", [0, 4])  # won 2 points and 1 point, by bearing off (no backgammon)
def test_a_move_after_the_last_checker_is_borne_off(seed: int) -> None:
    record = bot_match(seed, length=1)
    result = Position.from_string(record.games[0].turns[-1].position).result()
    lines = [line for line in export_mat(record).splitlines() if "Wins" not in line] + [" 99) 31: 8/5 6/5"]
    with pytest.raises(MatError) as caught:
        import_mat("\n".join(lines))
    assert str(caught.value) == f"line {len(lines)}: a move after the game was over ({result})"


def test_a_reason_names_its_source_and_line_as_reasons_of_their_own() -> None:
    with pytest.raises(MatError) as caught:
        import_mat(HEADER + "  1) Doubles => 2\n", source="x.mat")
    assert str(caught.value) == "x.mat: line 5: a cube action ('1) Doubles => 2'): Portes is played without the cube"
    outer = caught.value.reason
    assert outer.template == "{source}: {reason}" and outer.params["source"] == "x.mat"
    inner = outer.values()["reason"]
    assert inner.template == "{at}: a cube action ({text!r}): Portes is played without the cube"
    assert inner.values() == {"at": Reason("line {line}", line=5), "text": "'1) Doubles => 2'"}


def test_read_mat_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "x.mat"
    path.write_text(HEADER + "  1) 31: 8/3\n")
    with pytest.raises(MatError, match=r"x\.mat: line 5: 8/3 with 3-1"):
        read_mat(path)
    with pytest.raises(MatError, match=r"^cannot read .*none\.mat"):
        read_mat(tmp_path / "none.mat")


# -- GNU Backgammon ----------------------------------------------------------
def gnubg_final_states(files: list[Path]) -> list[tuple[str, tuple[int, int], str]]:
    """For each .mat file: GNU Backgammon's Position ID and score after importing it, and its output."""
    assert GNUBG is not None
    script = "set jacoby off\n" + "".join(f"import mat {f}\nshow score\nshow board\n" for f in files)
    out = subprocess.run([GNUBG, "-t", "-q"], input=script, capture_output=True, text=True, timeout=120,
                         check=True).stdout
    pieces = out.split("The score (after ")
    assert len(pieces) == len(files) + 1, out[-2000:]
    states = []
    for imported, chunk in itertools.pairwise(pieces):  # what importing said, then the score
        score = re.match(r"\d+ games?\) is: \S+ (\d+), \S+ (\d+) ", chunk)
        position = re.search(r"Position ID: (\S+)", chunk)
        assert score is not None and position is not None, chunk[:500]
        said = imported.split("Position ID:")[0] if imported is not pieces[0] else imported
        states.append((position.group(1), (int(score.group(1)), int(score.group(2))), said))
    return states


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed (apt-get install gnubg)")
def test_gnubg_imports_every_game_to_the_same_position_and_score(tmp_path: Path) -> None:
    records = [bot_match(seed, length=7) for seed in range(6)] + [bot_match(9, length=3, resign_at=30)]
    games = [g for r in records for g in r.games]
    finals = [Position.from_string(g.turns[-1].position) for g in games]
    assert any(g.end is not None and g.end.points == 2 and not backgammon(f)
               for g, f in zip(games, finals, strict=True))
    assert any(backgammon(f) for f in finals)
    assert any(t.play == "" for g in games for t in g.turns)
    assert any(g.end is not None and g.end.reason == "resigned" for g in games)
    files, expected = [], []
    for r, record in enumerate(records):
        for k, game in enumerate(record.games, 1):
            # the match up to game k: GNU Backgammon shows the end of the last game imported
            prefix = MatchRecord(record.settings, record.players, record.games[:k], record.meta)
            path = tmp_path / f"m{r}-{k}.mat"
            path.write_text(export_mat(prefix))
            files.append(path)
            before = MatchRecord(record.settings, record.players, record.games[:k - 1], record.meta).score
            assert game.end is not None and game.end.winner is not None
            score = dict(before)
            score[game.end.winner] += game.end.points
            final = Position.from_string(game.turns[-1].position)
            if backgammon(final):  # written up to the winner's last roll, the loser resigning a gammon
                final = Position.from_string(game.turns[-2].position)
            expected.append((final.gnubg_id(), (score[WHITE], score[BLACK])))
    states = gnubg_final_states(files)
    for path, (position_id, got_score, output), (want_id, want_score) in zip(files, states, expected, strict=True):
        assert not re.search(r"warning|invalid|error|illegal", output, re.I), f"{path.name}: {output[:300]}"
        assert (position_id, got_score) == (want_id, want_score), path.name
    assert len(files) > 20


@pytest.mark.gnubg
@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed (apt-get install gnubg)")
def test_a_match_gnubg_plays_without_the_cube_imports(tmp_path: Path) -> None:
    assert GNUBG is not None
    path = tmp_path / "gnubg.mat"
    for seed in range(5, 10):  # a match with no backgammon, which Portes would score differently
        script = ("set player 0 gnubg\nset player 1 gnubg\nset player 0 chequerplay evaluation plies 0\n"
                  f"set player 1 chequerplay evaluation plies 0\nset cube use off\nset seed {seed}\n"
                  f"new match 3\nexport match mat {path}\nshow score\n")
        out = subprocess.run([GNUBG, "-t", "-q"], input=script, capture_output=True, text=True, timeout=300,
                             check=True).stdout
        if "Wins 3 points" not in path.read_text():
            break
    else:
        pytest.fail("GNU Backgammon played a backgammon in every match")
    score = re.findall(r"The score \(after (\d+) games?\) is: gnubg (\d+), \S+ (\d+)", out)[-1]
    record = read_mat(path)  # every move legal in Portes
    assert len(record.games) == int(score[0])
    assert (record.score[WHITE], record.score[BLACK]) == (int(score[1]), int(score[2]))
    assert record.winner is not None and record.players[WHITE] == PlayerInfo("human", "gnubg")
    assert all(g.end is not None for g in record.games)  # borne off, or resigned (GNU Backgammon resigns)


def test_an_aborted_match_exports_its_game_as_it_stands() -> None:
    roller = SeededRoller()
    match = Match(MatchSettings(length=3, games=("portes",)), roller)
    match.roll()
    match.play(match.legal_plays()[0])
    match.abort()
    record = MatchRecord.from_match(match, BOTS, roller.seeds)
    text = export_mat(record)
    assert " 3 point match" in text and " Game 1" in text and "Wins" not in text
    again = import_mat(text)  # GNU Backgammon's view: a match left unfinished, its one move kept
    assert len(again.games) == 1 and again.games[0].end is None and len(again.games[0].turns) == 1
