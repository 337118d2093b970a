"""The arena engine: boards, protocol lines, errors, a real process playing real games, and the
choice between the arena's protocol and Tavli's."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tavli import BLACK, WHITE, Dice, Position
from tavli.bots import HeuristicBot, RandomBot
from tavli.bots.neural import NeuralBot
from tavli.engines.arena import ProtocolError, answer, position_from_board, serve

START_BOARD = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0, 0, 0]
CLOSED_OUT = Position.from_checkers("portes", WHITE, {25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})


def board_of(pos: Position) -> list[int]:
    """The arena's X0..X27 for the side to move in ``pos``."""
    me, them = pos.turn, pos.turn.other
    x = [0] * 28
    for p in range(1, 25):
        x[p] = pos.checkers(me, p) - pos.checkers(them, 25 - p)
    x[0] = -pos.on_bar(them)
    x[25] = pos.on_bar(me)
    x[26] = pos.borne_off(me)
    x[27] = -pos.borne_off(them)
    return x


def move_line(pos: Position, dice: Dice) -> str:
    board = " ".join(map(str, board_of(pos)))
    return f"move {dice.first} {dice.second} {board} {pos.gnubg_id()}"


def game_positions(seed: int, games: int = 3) -> list[tuple[Position, Dice]]:
    """(position, roll) from Portes games of the heuristic bot against a random one."""
    rng = random.Random(seed)
    seats = {WHITE: HeuristicBot(), BLACK: RandomBot(seed)}
    out = []
    for g in range(games):
        pos = Position.start("portes", WHITE if g % 2 == 0 else BLACK)
        while pos.result() is None:
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            legal = pos.legal_plays(dice)
            out.append((pos, dice))
            pos = legal.after(seats[pos.turn].choose(legal)) if len(legal) else pos.pass_turn()
    return out


def ask(*lines: str, level: str = "advanced") -> list[str]:
    out = io.StringIO()
    serve(io.StringIO("".join(line + "\n" for line in lines)), out, level)
    return out.getvalue().splitlines()


# -- boards ----------------------------------------------------------------------

def test_start_board() -> None:
    assert board_of(Position.start("portes")) == START_BOARD
    assert board_of(Position.start("portes", BLACK)) == START_BOARD
    pos = position_from_board(START_BOARD)
    assert pos == Position.start("portes", WHITE)


def test_boards_round_trip_along_games() -> None:
    seen_bar = seen_off = 0
    for pos, _ in game_positions(1):
        board = board_of(pos)
        back = position_from_board(board)
        assert back.turn == WHITE
        assert back.state.tobytes() == pos.state.tobytes()  # the same position seen by the mover
        assert board_of(back) == board
        if pos.turn == WHITE:
            assert back == pos
        else:
            assert back.pass_turn().state.tobytes() == pos.pass_turn().state.tobytes()
        seen_bar += board[25] > 0 or board[0] < 0
        seen_off += board[26] > 0 or board[27] < 0
    assert seen_bar and seen_off  # the games reached the bar and the bear-off


def test_bar_and_borne_off_signs() -> None:
    pos = Position.from_checkers("portes", WHITE, {25: 1, 6: 10}, {25: 2, 1: 3})
    board = board_of(pos)
    assert (board[0], board[25], board[26], board[27]) == (-2, 1, 4, -10)
    assert board[24] == -3 and board[6] == 10
    assert position_from_board(board) == pos


@pytest.mark.parametrize(("board", "message"), [
    (START_BOARD[:27], "28 numbers, not 27"),
    ([*START_BOARD, 0], "28 numbers, not 29"),
    ([*START_BOARD[:24], 3, *START_BOARD[25:]], "15 checkers"),  # 16 checkers
    ([*START_BOARD[:6], 4, *START_BOARD[7:]], "15 checkers"),  # 14 checkers
    ([*START_BOARD[:1], 0, *START_BOARD[2:]], "15 checkers"),  # the opponent with 13
    ([*START_BOARD[:25], -1, *START_BOARD[26:]], "wrong signs"),
    ([*START_BOARD[:27], 2], "wrong signs"),
    ([1, *START_BOARD[1:]], "wrong signs"),
])
def test_bad_boards(board: list[int], message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        position_from_board(board)


# -- protocol lines ---------------------------------------------------------------

def test_answers_to_each_command() -> None:
    bot = NeuralBot("advanced")
    assert answer("hello 1", bot) == "ok tavli-advanced"
    assert answer("newgame 1 1", bot) is None
    assert answer("gameover -2", bot) is None
    assert answer("   ", bot) is None
    start = " ".join(map(str, START_BOARD))
    play = answer(f"move 6 5 {start} 4HPwATDgc/ABMA", bot)
    assert play is not None
    assert Position.start("portes").parse_play(play, Dice(6, 5)) in Position.start("portes").legal_plays("65")


def test_a_blocked_roll_is_answered_none() -> None:
    assert len(CLOSED_OUT.legal_plays("61")) == 0
    assert answer(move_line(CLOSED_OUT, Dice(6, 1)), NeuralBot("advanced")) == "none"


@pytest.mark.parametrize(("line", "message"), [
    ("move 3 1 " + " ".join(["0"] * 27), "error: move needs two dice and 28 board numbers"),
    ("move 3 1", "error: move needs two dice and 28 board numbers"),
    ("move three 1 " + " ".join(map(str, START_BOARD)), "error: dice and board must be integers"),
    ("move 3 1 " + " ".join(map(str, START_BOARD[:5])) + " x " + " ".join(map(str, START_BOARD[6:])),
     "error: dice and board must be integers"),
    ("move 3 1 " + " ".join(map(str, [*START_BOARD[:6], 4, *START_BOARD[7:]])),
     "error: each side must have 15 checkers"),
    ("move 7 1 " + " ".join(map(str, START_BOARD)), "error: dice must be two numbers from 1 to 6"),
    ("resign", "error: unknown command 'resign'"),
])
def test_error_lines_and_the_engine_goes_on(line: str, message: str) -> None:
    start = " ".join(map(str, START_BOARD))
    replies = ask("hello 1", line, f"move 3 1 {start} 4HPwATDgc/ABMA", "quit", "hello 1")
    assert len(replies) == 3
    assert replies[0] == "ok tavli-advanced"
    assert replies[1].startswith(message)
    start_position = Position.start("portes")
    assert start_position.parse_play(replies[2], Dice(3, 1)) in start_position.legal_plays("31")


def test_serve_stops_at_quit_or_end_of_input() -> None:
    assert ask("hello 1", "quit", "hello 1") == ["ok tavli-advanced"]
    assert ask("hello 1", "hello 1") == ["ok tavli-advanced"] * 2


def test_noisy_levels_repeat_with_a_seed() -> None:
    lines = ["hello 1", *(move_line(pos, dice) for pos, dice in game_positions(7, 1)
                          if len(pos.legal_plays(dice)) > 1)]
    runs = []
    for _ in range(2):
        out = io.StringIO()
        serve(io.StringIO("\n".join(lines) + "\n"), out, "beginner", seed=3)
        runs.append(out.getvalue())
    assert runs[0] == runs[1]
    assert runs[0].splitlines()[0] == "ok tavli-beginner"


# -- a real process -----------------------------------------------------------------

def engine_command(*args: str) -> list[str]:
    script = Path(sys.executable).parent / "tavli"
    if script.is_file():
        return [str(script), "engine", *args]
    return [sys.executable, "-c", "from tavli.cli import main; main()", "engine", *args]


def test_engine_process_plays_legal_moves() -> None:
    positions = [(pos, dice) for pos, dice in game_positions(3) if len(pos.legal_plays(dice))]
    rng = random.Random(4)
    positions = rng.sample(positions, 40)
    lines = ["hello 1", "newgame 1 1"]
    for k, (pos, dice) in enumerate(positions):
        lines.append(move_line(pos, dice))
        if k == 20:
            lines += ["gameover 1", "newgame 2 0"]
    lines += ["gameover -1", "quit"]
    run = subprocess.run(engine_command("--level", "advanced"), input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    replies = run.stdout.splitlines()
    assert replies[0] == "ok tavli-advanced"
    assert len(replies) == 1 + len(positions)
    bot = NeuralBot("advanced")
    for (pos, dice), reply in zip(positions, replies[1:], strict=True):
        legal = pos.legal_plays(dice)
        play = pos.parse_play(reply, dice)
        k = legal.index(play)
        assert k == bot.choose(legal), (str(pos), dice, reply)  # the same choice as in-process


def test_engine_process_reports_bad_lines_and_answers_none() -> None:
    start = Position.start("portes")
    lines = ["hello 1", "bogus", move_line(CLOSED_OUT, Dice(5, 5)), move_line(start, Dice(2, 1)), "quit"]
    run = subprocess.run(engine_command("--level", "beginner", "--seed", "1"), input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    replies = run.stdout.splitlines()
    assert replies[:3] == ["ok tavli-beginner", "error: unknown command 'bogus'", "none"]
    assert start.parse_play(replies[3], Dice(2, 1)) in start.legal_plays("21")


# -- the protocol chosen by the first command -------------------------------------------------

def test_the_first_command_chooses_the_protocol() -> None:
    def session(text: str) -> list[str]:
        out = io.StringIO()
        serve(io.StringIO(text), out, "advanced", protocol="auto")
        return out.getvalue().splitlines()

    start = "0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0 0 0"
    assert session(f"\nhello 1\nmove 3 1 {start} 4HPwATDgc/ABMA\nquit\n") == ["ok tavli-advanced", "8/5 6/5"]
    assert session("\n  \nset variant fevga\nplay 6 5\n") == ["ok", "24/13"]
    assert session("tavli\nhello 1\n")[1].startswith("error: unknown command 'hello'")
    assert session("bogus\nplay 3 1\n") == ["error: unknown command 'bogus' (commands: tavli, help, options, set, "
                                              "position, play, hint, evaluate, apply, quit)", "8/5 6/5"]
    assert session("") == []
    out = io.StringIO()
    serve(io.StringIO("play 3 1\n"), out, "advanced", protocol="tavli")
    assert out.getvalue() == "8/5 6/5\n"


def test_the_protocol_can_be_forced() -> None:
    run = subprocess.run(engine_command("--protocol", "arena", "--level", "advanced"), input="play 3 1\nhello 1\n",
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["error: unknown command 'play'", "ok tavli-advanced"]
    with pytest.raises(ProtocolError, match="unknown protocol 'uci'"):
        serve(io.StringIO(""), io.StringIO(), "advanced", protocol="uci")
