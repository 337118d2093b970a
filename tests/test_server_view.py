"""``tavli.server.play.view``: the ``state`` message's board, steps and results, in White's numbering,
as the pages draw them."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavli import Dice, Position
from tavli.dice import DiceRoller
from tavli.match import CLAIMED, RESIGNED_MATCH, Match, MatchSettings
from tavli.position import GameResult
from tavli.server.play.view import BAR, OFF, WHY, board_json, joined, result_json, steps_json, white_number
from tavli.variants import BLACK, WHITE, Color, make_variant

STRINGS = "".join((Path(__file__).resolve().parents[1] / "tavli" / "server" / "static" / f"strings-{lang}.js")
                  .read_text() for lang in ("en", "el"))
HOME = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 4}


def every_end() -> list[GameResult]:
    """One game ended each way the library and the server end one."""
    ends = [
        Position.from_checkers("portes", BLACK, {}, {3: 2}).result(),  # bore off, 1 point
        Position.from_checkers("portes", WHITE, {3: 15}, {}).result(),  # a double game
        Position.from_checkers("plakoto", BLACK, {1: 1, 6: 14}, {24: 1, 10: 14}, {1: BLACK}).result(),
        Position.from_checkers("plakoto", WHITE, {1: 1, 24: 1, 6: 13}, {1: 1, 24: 1, 6: 13},
                               {1: BLACK, 24: WHITE}).result(),
        Position.from_checkers("portes", WHITE, {25: 1, **HOME}, {25: 1, **HOME}).result(),
    ]
    resigned, match_resigned, claimed, timed, forfeited, aborted = (
        Match(MatchSettings(length=3), DiceRoller(seed=1)) for _ in range(6))
    ends += [resigned.resign(WHITE, 2), match_resigned.resign_match(BLACK), claimed.concede(WHITE, CLAIMED),
             timed.lose_on_time(BLACK), forfeited.forfeit(WHITE), aborted.abort()]
    assert all(e is not None for e in ends)
    return [e for e in ends if e is not None]


def test_every_end_of_a_game_has_a_code_and_words_in_both_languages() -> None:
    found = [result_json(end) for end in every_end()]
    codes = [r["why"] for r in found if r is not None]
    assert sorted(codes) == sorted([*WHY.values(), "claimed"])  # each end its own code, none "other"
    assert RESIGNED_MATCH in WHY
    for code in [*codes, "other"]:
        assert len(re.findall(f'"why-{code}":', STRINGS)) == 2, code  # English and Greek
    tie = found[3]
    assert tie == {"winner": None, "points": 0, "reason": "both mothers pinned", "why": "tie-mothers"}
    assert result_json(None) is None
    assert result_json(GameResult(WHITE, 1, "a reason of the future"))["why"] == "other"  # type: ignore[index]


def test_black_numbers_are_whites_turned_round() -> None:
    for game in ("portes", "plakoto", "fevga"):
        v = make_variant(game)
        numbers = [white_number(v, BLACK, p) for p in range(1, 25)]
        assert sorted(numbers) == list(range(1, 25))
        assert [white_number(v, BLACK, n) for n in numbers] == list(range(1, 25))
        assert board_json(Position.start(game))["black_numbers"] == numbers
        assert white_number(v, BLACK, BAR) == BAR and white_number(v, BLACK, OFF) == OFF
        assert [white_number(v, WHITE, p) for p in range(26)] == list(range(26))
    # Portes' sides run against each other, Fevga's the same way round
    assert white_number(make_variant("portes"), BLACK, 24) == 1
    assert white_number(make_variant("fevga"), BLACK, 24) == 12


Counts = dict[str, Any]


def counts(board: dict[str, Any]) -> Counts:
    return {"points": [[p["white"], p["black"]] for p in board["points"]],
            "bar": dict(board["bar"]), "off": dict(board["off"])}


def replay(before: Counts, steps: list[list[Any]], color: Color, game: str) -> Counts:
    """The board a page draws by moving checkers as the steps say: one of the mover's from each
    step's start to its end (25 the bar, 0 off), a Portes hit sending the checker there to the bar
    (in Plakoto a hit pins it where it stands)."""
    side, other = ("white", "black") if color == WHITE else ("black", "white")
    k = 0 if color == WHITE else 1
    board: Counts = {"points": [list(p) for p in before["points"]], "bar": dict(before["bar"]),
                     "off": dict(before["off"])}
    for src, dst, hit in steps:
        if src == BAR:
            board["bar"][side] -= 1
        else:
            board["points"][src - 1][k] -= 1
        if dst == OFF:
            board["off"][side] += 1
            continue
        board["points"][dst - 1][k] += 1
        if hit and game == "portes":
            board["points"][dst - 1][1 - k] -= 1
            board["bar"][other] += 1
    return board


@pytest.mark.slow
@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["portes", "plakoto", "fevga"]))
def test_the_steps_move_the_drawn_board_to_the_next(seed: int, game: str) -> None:
    rnd = random.Random(seed)
    position = Position.start(game)
    for _ in range(rnd.randrange(120)):
        if position.result() is not None:
            break
        dice = Dice(rnd.randint(1, 6), rnd.randint(1, 6))
        legal = position.legal_plays(dice)
        if len(legal) == 0:
            position = position.pass_turn()
            continue
        board = board_json(position)
        for play in rnd.sample(list(legal), min(4, len(legal))):
            after = board_json(position.play(play, dice))
            steps = steps_json(position.variant, position.turn, play.steps)
            assert replay(counts(board), steps, position.turn, game) == counts(after), (str(position), str(play))
            assert after["position"] == str(position.play(play, dice))
        position = position.play(rnd.choice(list(legal)), dice)
    board = board_json(position)
    for side in ("white", "black"):
        on_board = sum(p[side] for p in board["points"])
        assert on_board + board["bar"][side] + board["off"][side] == 15


def test_joined_merges_encoded_objects() -> None:
    assert joined(b"{}", b"{}") == b"{}"
    assert joined(b'{"a":[1,{"b":2}]}', b"{}", b'{"c":"}"}') == b'{"a":[1,{"b":2}],"c":"}"}'
