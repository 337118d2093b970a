"""The terminal match: the drawn board, and ``tavli play`` run end to end."""

from __future__ import annotations

import ast
import functools
import importlib.util
import os
import pkgutil
import random
import re
import select
import signal
import subprocess
import time
from io import StringIO
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import run_tavli, start_tavli
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.text import Text

import tavli.cli
import tavli.terminal
from tavli import BLACK, WHITE, Color, Dice, DiceRoller, Position
from tavli.bots import HeuristicBot
from tavli.errors import TavliError, translations
from tavli.formats.record import MatchRecord, read
from tavli.game import Game
from tavli.match import GameRecord, Match, MatchSettings
from tavli.study.analysis import THRESHOLDS
from tavli.study.openings import shipped
from tavli.terminal import reports
from tavli.terminal.board import board, board_lines, render_text
from tavli.terminal.match_loop import Seat, TerminalMatch, make_seats, play_match
from tavli.terminal.opening_practice import PracticeTally, practise_openings
from tavli.terminal.prompt import HELP, LIST_LIMIT
from tavli.terminal.styles import ERROR_STYLE
from tavli.terminal.words import NAMES, Words, command_words

# -- reading a drawn board ----------------------------------------------------


def plain_board(position: Position, bottom: Color = WHITE, dice: Dice | None = None) -> list[str]:
    return [line.plain for line in board_lines(position, bottom, dice)]


def cells(lines: list[str], point: int) -> list[str]:
    """The three-character cells of ``point`` (bottom side's numbering), from the edge inwards."""
    top = point >= 13
    labels = lines[0] if top else lines[-1]
    m = re.search(rf"(?<!\d){point}(?!\d)", labels)
    assert m is not None, f"no label {point} in {labels!r}"
    mid = m.end() - 1
    rows = lines[2:7] if top else lines[12:7:-1]
    return [row[mid - 1:mid + 2] for row in rows]


def bar_cells(lines: list[str]) -> str:
    """Everything drawn in the bar, between the two tables."""
    left = lines[1].index("┬")
    right = lines[1].index("┬", left + 1)
    return "".join(row[left + 1:right] for row in lines[2:13])


def test_start_of_portes_is_drawn_from_whites_side() -> None:
    lines = plain_board(Position.start("portes"))
    assert cells(lines, 24)[:3] == [" ○ ", " ○ ", "   "]
    assert cells(lines, 13) == [" ○ "] * 5
    assert cells(lines, 8)[:4] == [" ○ ", " ○ ", " ○ ", "   "]
    assert cells(lines, 6) == [" ○ "] * 5
    assert cells(lines, 1)[:3] == [" ● ", " ● ", "   "]
    assert cells(lines, 12) == [" ● "] * 5
    assert cells(lines, 17)[:4] == [" ● ", " ● ", " ● ", "   "]
    assert cells(lines, 19) == [" ● "] * 5
    assert cells(lines, 7)[0] == " · "  # an empty point


def test_black_sees_the_board_from_his_side() -> None:
    lines = plain_board(Position.start("portes", BLACK), bottom=BLACK)
    assert cells(lines, 24)[:3] == [" ● ", " ● ", "   "]
    assert cells(lines, 6) == [" ● "] * 5
    assert cells(lines, 1)[:3] == [" ○ ", " ○ ", "   "]


def test_portes_bar_borne_off_and_pips() -> None:
    pos = Position.from_checkers("portes", WHITE, {25: 2, 6: 5, 1: 6}, {25: 1, 13: 14})
    text = render_text(board(pos, dice=Dice(3, 3)))
    assert re.search(r"○ White\s+86 pips\s+2 off\s+2 on the bar", text)
    assert re.search(r"● Black\s+207 pips\s+0 off\s+1 on the bar", text)
    assert "White to move, rolled 3-3" in text
    lines = plain_board(pos)
    bar = bar_cells(lines)
    assert "BAR" in bar
    assert bar.count("○") == 2 and bar.count("●") == 1
    assert cells(lines, 1) == [" ○ "] * 4 + [" 6 "]  # a tall stack ends with its count
    assert "○2" in lines[12]  # White's borne-off checkers, by his home table
    assert cells(lines, 12) == [" ● "] * 4 + ["14 "]


def test_plakoto_pinned_checkers_lie_under_their_pinners() -> None:
    pos = Position.from_checkers("plakoto", BLACK, {24: 10, 21: 1, 5: 1, 3: 2}, {24: 9, 20: 3, 4: 1, 19: 1},
                                 pinned={5: WHITE, 21: BLACK})
    lines = plain_board(pos, bottom=WHITE)
    assert cells(lines, 5)[:5] == ["(○)", " ● ", " ● ", " ● ", "   "]
    assert cells(lines, 21)[:3] == ["(●)", " ○ ", "   "]
    text = render_text(board(pos, bottom=WHITE))
    assert "Pinned: (○) on 5, (●) on 21" in text
    assert re.search(r"▶ ● Black\s+299 pips\s+1 off", text)
    assert re.search(r"○ White\s+272 pips\s+1 off", text)
    # Black's view: the same pins, by Black's numbering
    black_lines = plain_board(pos, bottom=BLACK)
    assert cells(black_lines, 20)[:2] == ["(○)", " ● "]
    assert "Pinned: (●) on 4, (○) on 20" in render_text(board(pos))


def test_fevga_start_puts_each_side_on_his_own_24() -> None:
    pos = Position.start("fevga")
    for bottom in (WHITE, BLACK):
        lines = plain_board(pos, bottom)
        mine, theirs = (" ○ ", " ● ") if bottom == WHITE else (" ● ", " ○ ")
        assert cells(lines, 24) == [mine] * 4 + ["15 "]
        assert cells(lines, 12) == [theirs] * 4 + ["15 "]
        assert all(c == " · " for p in (1, 6, 13, 18) for c in cells(lines, p)[:1])
        assert "BAR" not in bar_cells(lines)
    text = render_text(board(pos))
    assert text.count("360 pips") == 2


def test_finished_game_says_who_won() -> None:
    pos = Position.from_checkers("portes", BLACK, {}, {6: 3})
    text = render_text(board(pos))
    assert "Game over: White wins 1 point (bore off all checkers)" in text
    assert "▶" not in text
    assert "to move" not in text


def test_facts_go_below_a_narrow_board() -> None:
    pos = Position.start("portes")
    wide = render_text(board(pos), width=120).splitlines()
    narrow = render_text(board(pos), width=60).splitlines()
    assert any("│" in line and "pips" in line for line in wide)
    assert not any("│" in line and "pips" in line for line in narrow)
    assert max(len(line.rstrip()) for line in narrow) <= 60
    assert any("167 pips" in line for line in narrow)


def test_dice_are_drawn_on_the_board() -> None:
    lines = plain_board(Position.start("portes"), dice=Dice(6, 2))
    assert re.search(r"│\s+6\s+2\s+│", lines[7])


# -- play_match in process ------------------------------------------------------


def run_match(settings: MatchSettings, seats: dict[Color, str], answers: list[str], seed: int = 1,
              language: str = "en", save: Path | None = None,
              record: MatchRecord | None = None, chances: bool = False) -> tuple[Color | None, str, list[str]]:
    """Play with scripted answers; end of the script is end of input."""
    out = StringIO()
    console = Console(file=out, width=100, color_system=None)
    prompts: list[str] = []
    script = iter(answers)

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(script)
        except StopIteration:
            raise EOFError from None

    winner = play_match(settings, seats, DiceRoller(seed), console=console, read_line=read_line, language=language,
                        save=save, record=record, chances=chances)
    return winner, out.getvalue(), prompts


def test_bots_play_a_whole_tavli_match() -> None:
    winner, out, prompts = run_match(MatchSettings(length=5), {WHITE: "heuristic", BLACK: "random"}, [])
    assert prompts == []
    assert winner is not None
    assert "Game 1: Portes (Portes, Plakoto, Fevga)" in out
    assert "Game 2: Plakoto (Portes, Plakoto, Fevga)" in out
    assert "Game 3: Fevga (Portes, Plakoto, Fevga)" in out
    m = re.search(r"(White|Black) \((heuristic|random)\) wins the match (\d+)-(\d+)", out)
    assert m is not None and m.group(1) == str(winner)
    assert int(m.group(3)) >= 5 > int(m.group(4))


def test_a_human_who_cannot_move_presses_enter_to_pass() -> None:
    closed = Position.from_checkers("portes", WHITE, {25: 1, 6: 14},
                                    {p: 2 for p in range(1, 7)} | {13: 3})
    legal = closed.legal_plays(Dice(6, 5))
    assert len(legal) == 0
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 1:
            raise EOFError
        return ""

    session = TerminalMatch(Match(MatchSettings(length=1)), {WHITE: Seat(WHITE, "human", None, "White"),
                                                            BLACK: Seat(BLACK, "heuristic", HeuristicBot())},
                            Console(file=StringIO()), read_line)
    assert session.human_play(session.seats[WHITE], legal) is None
    assert len(prompts) == 1 and "No legal play with 6-5" in prompts[0]


def test_ctrl_c_stops_the_match_with_status_130() -> None:
    out = StringIO()

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    with pytest.raises(SystemExit) as stop:
        play_match(MatchSettings(length=1), {WHITE: "human", BLACK: "human"}, DiceRoller(2),
                   console=Console(file=out, width=100, color_system=None), read_line=interrupt)
    assert stop.value.code == 130
    assert "Interrupted: the match stops at White 0, Black 0" in out.getvalue()


def test_quit_asks_first_and_two_humans_see_their_own_side() -> None:
    winner, out, prompts = run_match(MatchSettings(length=1, games=("portes",)),
                                     {WHITE: "human", BLACK: "human"}, ["quit", "no", "1", "quit", "y"])
    assert winner is None
    assert "You left the match: the match stops at White 0, Black 0" in out
    assert sum("Leave the match?" in p for p in prompts) == 2
    movers = [p.split()[0] for p in prompts if "to play" in p]
    assert len(movers) == 3 and movers[0] == movers[1] != movers[2]  # "no" kept the turn
    boards = out.split("13 14 15 16 17 18")[1:]
    assert len(boards) == 2  # one board per turn, each drawn for the side to move
    for drawn in boards:
        sides = [line for line in drawn.splitlines() if " pips " in line]
        assert "▶" not in sides[0] and "▶" in sides[1]  # the side to move is at the bottom


# -- the real program ---------------------------------------------------------


WIDE = {"COLUMNS": "100"}


def tavli_play(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``tavli play ARGS``, keeping no record (tests/test_cli_record.py tests the kept ones)."""
    return run_tavli("play", "--no-save", *args, stdin=stdin, timeout=120, env=WIDE)


@pytest.mark.slow
def test_bot_match_runs_to_the_end() -> None:
    run = tavli_play("--white", "heuristic", "--black", "random", "--length", "1", "--games", "portes",
                     "--seed", "3")
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    out = run.stdout
    assert "Game 1: Portes (Portes only)" in out
    assert re.search(r"Opening roll: White \d, Black \d: (White|Black) starts\.", out)
    assert re.search(r"(White \(heuristic\)|Black \(random\)) rolls \d-\d and plays \S", out)
    m = re.search(r"(White|Black) \((heuristic|random)\) wins the match (\d+)-(\d+)", out)
    assert m is not None
    last_score = re.findall(r"Score: White (\d+), Black (\d+)", out)[-1]
    won, lost = int(m.group(3)), int(m.group(4))
    assert (won, lost) == ((int(last_score[0]), int(last_score[1])) if m.group(1) == "White"
                           else (int(last_score[1]), int(last_score[0])))
    assert won >= 1 and lost == 0
    assert re.search(r"Game over: (White|Black) wins \d points?", out)  # the final board
    # the same seed plays the same match
    again = tavli_play("--white", "heuristic", "--black", "random", "--length", "1", "--games", "portes",
                       "--seed", "3")
    assert again.stdout == out


class Script(NamedTuple):
    """A seeded Portes match where White (human) moves first and has a choice on his
    first two turns, with what he can answer."""

    seed: int
    first_dice: Dice
    first_count: int
    first: str
    second: str


@functools.cache
def human_script() -> Script:
    """Replay the program's dice with the library: White picks play 2, then Black's heuristic plays."""
    for seed in range(100):
        match = Match(MatchSettings(length=1, games=("portes",)), DiceRoller(seed))
        if match.turn != WHITE:
            continue
        dice = match.roll()
        first = match.legal_plays()
        match.play(first[1])
        match.roll()
        legal = match.legal_plays()
        match.play(legal[HeuristicBot().choose(legal)] if len(legal) else None)
        if match.is_over or match.turn != WHITE:
            continue
        match.roll()
        second = match.legal_plays()
        if 2 <= len(first) <= LIST_LIMIT and 2 <= len(second) <= LIST_LIMIT:
            return Script(seed, dice, len(first), str(first[1]), str(second[-1]))
    raise AssertionError("no seed found")


@pytest.mark.slow
def test_human_plays_by_number_and_notation_then_leaves_with_eof() -> None:
    script = human_script()
    run = tavli_play("--white", "human", "--black", "heuristic", "--length", "1", "--games", "portes",
                     "--seed", str(script.seed),
                     stdin=f"3/1\n99\nhello\nhelp\nlist\n2\n{script.second}\n")
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    out = run.stdout
    errors = [line for line in out.splitlines() if line.startswith("✗")]
    assert errors == ["✗ you have no checker on point 3",
                      f"✗ there is no play 99: pick 1 to {script.first_count}, or type list to see them",
                      "✗ cannot read 'hello': write moves like 24/18, 13/7(2), bar/22 or 6/off"]
    # six answers to the first prompt: the bad ones and the commands left the turn with White
    assert out.count(f"White to play {script.first_dice} › ") == 6
    assert "Type your move in notation" in out  # help
    first_turn, later = out.split("White (you) rolled", 1)
    assert first_turn.count("  1) ") == 2  # the list, then again on request
    assert "  1) " in later  # and on the next turn
    assert f"White (you) rolled {script.first_dice} and plays {script.first}." in out
    assert re.search(r"Black \(heuristic\) rolls \d-\d and plays \S", out)
    assert re.search(rf"White \(you\) rolled \d-\d and plays {re.escape(script.second)}\.", out)
    assert out.rstrip().endswith("End of input: the match stops at White 0, Black 0 · match to 1.")


@pytest.mark.slow
def test_human_sees_the_board_the_dice_and_the_score() -> None:
    run = tavli_play("--white", "human", "--black", "heuristic", "--length", "3", "--seed",
                     str(human_script().seed))
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Game 1: Portes (Portes, Plakoto, Fevga) · White 0, Black 0 · match to 3" in out
    assert "13 14 15 16 17 18" in out and "12 11 10  9  8  7" in out
    assert re.search(r"▶ ○ White \(you\)\s+167 pips\s+0 off", out)
    assert re.search(r"● Black \(heuristic\)\s+167 pips\s+0 off", out)
    assert re.search(r"White to move, rolled \d-\d", out)
    assert "End of input" in out


@pytest.mark.slow
def test_quitting_from_the_program() -> None:
    run = tavli_play("--white", "human", "--length", "1", "--seed", str(human_script().seed),
                     stdin="quit\ny\n")
    assert run.returncode == 0, run.stderr
    assert "You left the match" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr


def default_ctrl_c() -> None:
    """In the program's process before it starts: Ctrl-C does what it does at a terminal. A job a
    shell starts in the background inherits SIGINT ignored, and so would the program."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_ctrl_c_at_the_prompt_stops_the_program_cleanly() -> None:
    proc = start_tavli("play", "--white", "human", "--length", "1", "--seed", str(human_script().seed),
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=WIDE,
                       preexec_fn=default_ctrl_c)
    assert proc.stdout is not None
    try:
        seen = b""
        deadline = time.monotonic() + 60
        while "›".encode() not in seen:  # wait for the prompt
            assert time.monotonic() < deadline, seen.decode()
            ready, _, _ = select.select([proc.stdout], [], [], 1)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 4096)
                assert chunk, seen.decode()
                seen += chunk
        proc.send_signal(signal.SIGINT)
        # stdin stays open until the program has gone: closed at once, it could read the end
        # of input before the signal arrives on a busy machine, and stop for that instead
        proc.wait(timeout=30)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130
    assert "Interrupted: the match stops at White 0, Black 0" in (seen + out).decode()
    assert b"Traceback" not in err


def test_neural_bots_play_for_the_match() -> None:
    from tavli import Dice, Position
    from tavli.bots.neural import NeuralBot

    # a safe play wins more games, a hit more 2-point games (tests/test_neural.py's GAMMON_GO)
    position = Position.from_string("portes 2w.2w...........1b1w....3b3b3b5b w 0:0 10:0")
    legal = position.legal_plays(Dice(3, 1))
    bot = NeuralBot("advanced")
    seats = {c: Seat(c, "advanced", bot, str(c)) for c in (WHITE, BLACK)}
    one_point = TerminalMatch(Match(MatchSettings(length=1, games=("portes",))), seats, Console(file=StringIO()),
                              input)
    assert str(legal[bot.choose(legal)]) == "16/15*/12"
    assert str(legal[one_point.bot_choice(bot, legal)]) == "16/12"


def test_the_hint_is_for_the_match_at_its_score() -> None:
    from tavli import Dice, Position
    from tavli.bots.neural import NeuralBot

    position = Position.from_string("portes 2w.2w...........1b1w....3b3b3b5b w 0:0 10:0")
    legal = position.legal_plays(Dice(3, 1))
    shown = {}
    for length in (1, 7):  # the game is the match, or a long match where points count as points
        out = StringIO()
        seats = {c: Seat(c, "human", NeuralBot("advanced"), str(c)) for c in (WHITE, BLACK)}
        TerminalMatch(Match(MatchSettings(length=length, games=("portes",))), seats,
                      Console(file=out, width=120), input).show_hint(legal)
        text = out.getvalue()
        assert "for the match at this score" in text
        shown[length] = re.search(r"1\. (\S+(?: \S+)?)  (\d+\.\d)%, ([+-]\d\.\d{3}) points", text)
    one, seven = shown[1], shown[7]
    assert one is not None and seven is not None
    assert one.group(1) == "16/12"  # at 1-away each only the game counts: the safe play
    assert seven.group(1) == "16/15*/12"  # early in a long match the 2-point wins are worth it
    assert float(one.group(2)) > 95.0


def test_position_prints_the_position_and_the_command_that_ranks_its_plays() -> None:
    from tavli.bots.neural import NeuralBot

    out = StringIO()
    seats = {c: Seat(c, "human", NeuralBot("advanced"), str(c)) for c in (WHITE, BLACK)}
    match = Match(MatchSettings(length=3), DiceRoller(seed=2))
    match.roll("31")
    terminal = TerminalMatch(match, seats, Console(file=out, width=200), input)
    assert terminal.read_play(match.legal_plays(), "position") is None
    text = out.getvalue()
    start = str(match.game.position)
    assert f"Position: {start}" in text and "GNU Backgammon Position ID: 4HPwATDgc/ABMA" in text
    command = re.search(r"tavli hint '([^']+)' (\d\d)( .*)$", text, re.MULTILINE)
    assert command is not None and command.group(1) == start and command.group(2) == "31"
    assert command.group(3) == " --match 3 --score 0-0 --games tavli"
    # another order of games is written out
    match = Match(MatchSettings(length=3, games=("portes", "fevga")), DiceRoller(seed=2))
    match.roll("31")
    terminal = TerminalMatch(match, seats, Console(file=out, width=200), input)
    assert terminal.read_play(match.legal_plays(), "position") is None
    assert out.getvalue().rstrip().endswith("--match 3 --score 0-0 --games portes,fevga")


# -- the openings practice ---------------------------------------------------------------------------
def practice_rolls(seed: int, n: int) -> list[Dice]:
    """The rolls ``practise_openings`` deals with ``random.Random(seed)``."""
    rng = random.Random(seed)
    rolls = []
    for _ in range(n):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        rolls.append(Dice(max(a, b), min(a, b)))
    return rolls


def test_the_openings_practice_judges_each_play_by_the_tables() -> None:
    rolls = practice_rolls(5, 3)
    tables = shipped()
    best = [tables.summary("plakoto", d)[0].play for d in rolls]
    worst, lost = max(tables.losses("plakoto", rolls[1]).items(), key=lambda kv: kv[1])
    answers = iter([best[0], "list", "24/1", worst, "", "q"])
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    out = StringIO()
    tally = practise_openings("plakoto", rng=random.Random(5), console=Console(file=out, width=100, color_system=None),
                              read_line=read_line)
    assert tally == PracticeTally(played=2, best=1, lost=lost)
    text = out.getvalue()
    assert f"✓ {best[0]}: the best play" in text
    assert "  1) " in text  # the list
    assert sum(line.startswith("✗ ") for line in text.splitlines()) == 1  # 24/1 is no play of the roll
    skill = THRESHOLDS["plakoto"].skill(lost)
    judged = f"{skill}, " if skill else "a good play, "
    assert f"{worst}: {judged}{lost:.3f} points behind the best, {best[1]}" in text
    assert f"Plakoto: 2 played, 1 best, {lost:.3f} points given up ({lost / 2:.3f} a roll)." in text
    assert prompts == [f"Your play of {d} (list, q to stop): " for d in [rolls[0], *[rolls[1]] * 3, *[rolls[2]] * 2]]


@pytest.mark.slow
def test_the_openings_practice_stops_at_the_end_of_input_and_after_its_rolls() -> None:
    def no_more(prompt: str) -> str:
        raise EOFError

    assert practise_openings("fevga", console=Console(file=StringIO()), read_line=no_more) == PracticeTally()
    run = run_tavli("practise", "fevga", "--rolls", "1", "--seed", "2", stdin="1\n", timeout=120, env=WIDE)
    assert run.returncode == 0, run.stderr
    assert "Fevga: 1 played" in run.stdout and "Traceback" not in run.stdout + run.stderr


# -- in Greek -----------------------------------------------------------------


def terminal_modules() -> list[Path]:
    """The source files of every module of the ``tavli.terminal`` and ``tavli.cli`` packages, the
    packages' own included, however they are split (found, not imported: ``tavli.cli.__main__``
    would run the program)."""
    found = []
    for package in (tavli.terminal, tavli.cli):
        found.append(Path(package.__file__ or ""))
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            spec = importlib.util.find_spec(info.name)
            assert spec is not None and spec.origin is not None, info.name
            found.append(Path(spec.origin))
    return found


def terminal_templates() -> set[str]:
    """Every template the modules of ``tavli.terminal`` and ``tavli.cli`` say: the first argument of each call
    of ``say``, ``plain``, ``error``, a ``Words`` (``words``, ``self``), both branches of a conditional, ``HELP``,
    and the words said by name (``NAMES``, ``HEADINGS``)."""
    found: set[str] = {HELP, *NAMES, *reports.HEADINGS}

    def strings(node: ast.expr) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)
        elif isinstance(node, ast.IfExp):
            strings(node.body)
            strings(node.orelse)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                strings(value)

    sources = (path.read_text(encoding="utf-8") for path in terminal_modules())
    for node in (n for source in sources for n in ast.walk(ast.parse(source))):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("say", "plain", "error", "words", "self"):
                strings(node.args[0])
    return found


def test_the_templates_are_read_from_every_module_of_the_terminal_and_the_command() -> None:
    names = {path.stem for path in terminal_modules()}
    assert {"words", "board", "prompt", "match_loop", "opening_practice", "remote", "reports", "play_commands",
            "study_commands", "options"} <= names


def test_every_template_has_greek_words_with_the_same_fields() -> None:
    templates = terminal_templates()
    greek = translations("el", "terminal")
    assert len(templates) > 70
    assert {"doubtful", "error", "blunder"} <= set(NAMES)  # every skill a judged play can have
    assert sorted(templates - greek.keys()) == []  # said in English in a Greek terminal
    assert sorted(greek.keys() - templates) == []  # stale
    for template in templates:
        fields = re.findall(r"\{([^}]*)\}", template)
        assert all(re.fullmatch(r"\w+", f) for f in fields), template  # values come formatted
        assert sorted(fields) == sorted(re.findall(r"\{(\w+)\}", greek[template])), template


def test_greek_says_agonas_for_a_match_and_paichnidi_for_a_game_as_the_web_app_does() -> None:
    greek = translations("el", "terminal")
    assert [words for words in greek.values() if re.search("παρτίδ", words, re.IGNORECASE)] == []
    assert greek["Joined the match: {score}."] == "Μπήκατε στον αγώνα: {score}."
    assert greek["Resign the match? [y/N] "] == "Παραίτηση από τον αγώνα; [ν/Ο] "
    match_words = command_words("el")["match"]
    assert "αγώνα" in match_words and not any("παρτίδ" in word for word in match_words)
    assert "παραίτηση αγώνα" in greek[HELP]  # what the help says is what the prompt takes


def test_words_keep_each_values_style_and_fall_back_to_english() -> None:
    words = Words("el")
    said = words("{side} rolls {dice} and plays {play}.", side=Text("● Μαύρα", "red"), dice=Dice(6, 2),
                 play=("24/18 13/11", "bold"))
    assert said.plain == "● Μαύρα φέρνουν 6-2 και παίζουν 24/18 13/11."
    assert [(said.plain[span.start:span.end], str(span.style)) for span in said.spans] == [
        ("● Μαύρα", "red"), ("24/18 13/11", "bold")]
    assert words.plain("no such {thing}", thing=1) == "no such 1"  # a template without Greek words
    with pytest.raises(TavliError) as refused:
        Position.start("portes").parse_play("6/1", Dice(5, 1))
    assert words.error(refused.value).plain == "✗ " + refused.value.reason.words("el")
    assert Words().error(refused.value).plain == "✗ 6/1 is blocked"
    assert Words().error(refused.value).style == ERROR_STYLE  # refusals are red
    with pytest.raises(TypeError, match="the style comes second"):
        words("{count} off", style="bold", count=1)
    with pytest.raises(ValueError, match="no words in 'fr'"):
        Words("fr")


def test_a_human_plays_in_greek_with_greek_commands() -> None:
    script = human_script()
    winner, out, prompts = run_match(MatchSettings(length=1, games=("portes",)), {WHITE: "human", BLACK: "heuristic"},
                                     ["λίστα", "βοήθεια", "99", "24/1", "1",
                                      "θέση", "έξοδος", "ν"], seed=script.seed, language="el")
    assert winner is None
    assert "Παιχνίδι 1: Πόρτες (μόνο Πόρτες) · Λευκά 0, Μαύρα 0 · αγώνας στους 1" in out
    assert "Πρώτη ζαριά: Λευκά " in out and "αρχίζουν τα Λευκά." in out
    assert "πόντοι δρόμου" in out and "ΜΠΑΡΑ" in out
    assert "λίστα ή ?   οι νόμιμες κινήσεις ξανά" in out  # the help
    assert f"✗ δεν υπάρχει κίνηση 99: διαλέξτε από 1 ως {script.first_count}" in out
    with pytest.raises(TavliError) as refused:
        Position.start("portes").parse_play("24/1", script.first_dice)
    assert "✗ " + refused.value.reason.words("el") in out
    assert refused.value.reason.words("el") != str(refused.value)
    assert "Θέση: portes " in out and "Position ID του GNU Backgammon: " in out
    assert "○ Λευκά (εσείς) έφεραν " in out and "● Μαύρα (ευρετικός) φέρνουν " in out
    assert "Φύγατε από τον αγώνα: σταματά στο Λευκά 0, Μαύρα 0 · αγώνας στους 1." in out
    assert prompts[0] == f"Παίζουν τα Λευκά {script.first_dice} › "
    assert prompts[-1] == "Να φύγετε από τον αγώνα; [ν/Ο] "
    for english in ("pips", "to play", "Game", "Score", "rolls", "Type a move", "Leave"):
        assert english not in out + "".join(prompts), english


def test_bots_play_a_whole_tavli_match_in_greek() -> None:
    winner, out, prompts = run_match(MatchSettings(length=5), {WHITE: "heuristic", BLACK: "random"}, [],
                                     language="el")
    assert prompts == [] and winner is not None
    assert re.search(r"κερδίζουν το παιχνίδι 1 \(Πόρτες\): [12] πόντο[ις]", out)
    assert "Παιχνίδι 2: Πλακωτό (Πόρτες, Πλακωτό, Φεύγα)" in out
    assert re.search(r"Σκορ: Λευκά \d+, Μαύρα \d+ · αγώνας στους 5", out)
    assert re.search(r"κερδίζουν τον αγώνα \d+-\d+ \(αγώνας στους 5 πόντους\)\.", out)
    assert "Τέλος παιχνιδιού: τα " in out  # the library's result, in Greek
    for english in ("pips", "wins", "Score", "rolls", "Game", "points"):
        assert english not in out, english
    assert not re.search(r"\d off", out)  # the count of borne-off checkers ("6/off" is notation)


@pytest.mark.slow
def test_the_program_speaks_the_locales_language() -> None:
    greek = run_tavli("practise", "fevga", "--rolls", "1", "--seed", "2", stdin="1\n", timeout=120,
                      env=WIDE | {"LANG": "el_GR.UTF-8"})
    assert greek.returncode == 0, greek.stderr
    assert "Φεύγα: ζαριές: 1, " in greek.stdout and "Η κίνησή σας με " in greek.stdout
    assert re.search(r"πόντοι χαμένοι: \d,\d{3} \(\d,\d{3} ανά ζαριά\)", greek.stdout)  # Greek's decimal comma
    english = run_tavli("practise", "fevga", "--rolls", "1", "--seed", "2", "--lang", "en", stdin="1\n", timeout=120,
                        env=WIDE | {"LANG": "el_GR.UTF-8"})
    assert "Fevga: 1 played" in english.stdout


# -- going on with a saved match ----------------------------------------------


def test_a_resumed_match_goes_on_with_the_roll_it_was_left_with(tmp_path: Path) -> None:
    script = human_script()
    path = tmp_path / "left.json"
    _, first, _ = run_match(MatchSettings(length=1, games=("portes",)), {WHITE: "human", BLACK: "heuristic"}, ["2"],
                            seed=script.seed, save=path)
    assert "End of input" in first
    saved = read(path)
    rolled = saved.games[0].rolled
    assert rolled is not None and len(saved.games[0].turns) == 2 and str(saved.games[0].turns[0].play) == script.first
    winner, out, prompts = run_match(saved.settings, {WHITE: "human", BLACK: "heuristic"}, ["quit", "y"], seed=99,
                                     record=saved)
    assert winner is None
    assert out.lstrip().startswith("The match goes on: White 0, Black 0 · match to 1.")
    assert "Opening roll" not in out  # the game was under way
    assert prompts[0] == f"White to play {rolled} › "


# -- resigning ------------------------------------------------------------------


def gammoned_session(answers: list[str], black: str = "expert", score: tuple[int, int] = (0, 0),
                     language: str = "en") -> tuple[TerminalMatch, StringIO, list[str]]:
    """A 5-point Portes match at ``score`` whose game White, to play, has all but lost double."""
    match = Match(MatchSettings(length=5, games=("portes",)), DiceRoller(1))
    match.score = {WHITE: score[0], BLACK: score[1]}
    position = Position.from_checkers("portes", WHITE, {12: 15}, {p: 3 for p in range(1, 6)})
    match.records[-1] = GameRecord(Game("portes", position=position))
    out, prompts, script = StringIO(), [], iter(answers)

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return next(script)

    seats = make_seats({WHITE: "human", BLACK: black}, DiceRoller(1), language)
    session = TerminalMatch(match, seats, Console(file=out, width=100, color_system=None), read_line,
                            words=Words(language))
    return session, out, prompts


def test_a_bot_declines_a_resignation_worth_less_than_playing_on_and_takes_one_worth_more() -> None:
    session, out, prompts = gammoned_session(["resign", "resign 3", "resign 2"])
    session.take_turn(session.match.records[-1])
    text = out.getvalue()
    assert "○ White (you) offers to resign the game for 1 point." in text
    assert "● Black (expert) declines: play on." in text
    assert "✗ type resign, resign 2 or resign match" in text
    assert "○ White (you) offers to resign the game for 2 points." in text and "● Black (expert) accepts." in text
    result = session.match.records[0].game.result
    assert result is not None and (result.winner, result.points, result.reason) == (BLACK, 2, "resigned")
    assert session.match.score == {WHITE: 0, BLACK: 2} and len(session.match.records) == 2
    assert len(prompts) == 3 and session.match.records[0].game.history == []


def test_at_the_score_a_bot_takes_one_point_that_wins_it_the_match() -> None:
    session, out, _ = gammoned_session(["resign"], score=(0, 4), black="heuristic")  # judged by the expert
    session.take_turn(session.match.records[-1])
    assert "● Black (heuristic) accepts." in out.getvalue()
    assert session.match.is_over and session.match.winner == BLACK


def test_between_two_humans_the_opponent_answers_and_a_match_can_be_resigned_in_greek() -> None:
    session, out, prompts = gammoned_session(["παραίτηση", "ο", "παραίτηση αγώνα", "ν"], black="human",
                                             language="el")
    session.take_turn(session.match.records[-1])
    text = out.getvalue()
    assert "○ Λευκά προσφέρουν παραίτηση από το παιχνίδι με 1 πόντο." in text
    assert prompts[1] == "Μαύρα: δέχεστε 1 πόντο; [ν/Ο] "
    assert "● Μαύρα αρνούνται: το παιχνίδι συνεχίζεται." in text
    assert prompts[3] == "Παραίτηση από τον αγώνα; Τον κερδίζουν τα Μαύρα 5-0. [ν/Ο] "
    assert session.match.is_over and session.match.score == {WHITE: 0, BLACK: 5}
    assert session.match.records[0].game.result is not None
    assert session.match.records[0].game.result.reason == "resigned the match"


def test_the_tutor_asks_before_a_blunder_and_lets_a_good_play_through() -> None:
    match = Match(MatchSettings(length=5, games=("portes",)), DiceRoller(1))
    match.records[-1] = GameRecord(Game("portes", WHITE))
    match.roll(Dice(3, 1))
    answers, prompts, out = iter(["24/21 24/23", "n", "24/21 24/23", "y"]), [], StringIO()

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    seats = make_seats({WHITE: "human", BLACK: "expert"}, DiceRoller(1))
    session = TerminalMatch(match, seats, Console(file=out, width=100, color_system=None), read_line, tutor=True)
    assert str(session.human_play(seats[WHITE], match.legal_plays())) == "24/23 24/21"  # confirmed the second time
    assert out.getvalue().count("24/23 24/21 is a blunder: it gives up ") == 2 and " against 8/5 6/5." in out.getvalue()
    assert prompts.count("Play it anyway? [y/N] ") == 2
    good = iter(["8/5 6/5"])
    session.read_line = lambda prompt: next(good)
    assert str(session.human_play(seats[WHITE], match.legal_plays())) == "8/5 6/5"  # the best play: no question
    session.tutor = False
    bad = iter(["24/21 24/23"])
    session.read_line = lambda prompt: next(bad)
    assert str(session.human_play(seats[WHITE], match.legal_plays())) == "24/23 24/21"  # no tutor, no question


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=30) | st.sampled_from(["resign 2 3", "resign match x", "παραίτηση 9", "24/18 13/11 x",
                                               "bar/22", "6/off", "13/7(5)", "0", "-1", "99999999999", "hint 3"]))
def test_whatever_is_typed_plays_a_legal_play_or_changes_nothing(line: str) -> None:
    """A line at the prompt (answering no to any question it asks) is a legal play, or a refusal
    or a command that leaves the match as it was: it never raises."""
    match = Match(MatchSettings(length=3), DiceRoller(5))
    match.roll()
    legal = match.legal_plays()
    before = (str(match.game.position), match.dice, dict(match.score))
    seats = make_seats({WHITE: "human", BLACK: "human"}, DiceRoller(1))
    session = TerminalMatch(match, seats, Console(file=StringIO(), width=100, color_system=None), lambda prompt: "n")
    play = session.read_play(legal, line)
    assert play is None or play in list(legal)
    assert (str(match.game.position), match.dice, dict(match.score)) == before


def test_the_chances_of_winning_the_match_show_beside_each_board() -> None:
    _, out, _ = run_match(MatchSettings(length=3, games=("portes",)), {WHITE: "human", BLACK: "heuristic"}, [],
                          chances=True)
    found = re.findall(r"Match chances: White (\d+\.\d)%, Black (\d+\.\d)%", out)
    assert found and all(abs(float(w) + float(b) - 100.0) < 0.11 for w, b in found)
    _, plain, _ = run_match(MatchSettings(length=3, games=("portes",)), {WHITE: "human", BLACK: "heuristic"}, [])
    assert "Match chances" not in plain
