"""The position string: writing, reading back, and one-line errors for bad input."""

from __future__ import annotations

import pytest

from tavli import (
    BLACK,
    WHITE,
    Fevga,
    Plakoto,
    PointView,
    Position,
    PositionFormatError,
    TavliError,
)
from tavli.position_text import format_position, parse_position

PORTES_START = "portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0"
PLAKOTO_START = "plakoto 15b......................15w w 0:0 0:0"
FEVGA_START = "fevga ...........15b...........15w w 0:0 0:0"


def test_start_strings() -> None:
    assert str(Position.start("portes")) == PORTES_START
    assert str(Position.start("plakoto")) == PLAKOTO_START
    assert str(Position.start("fevga")) == FEVGA_START
    assert str(Position.start("fevga", BLACK)) == FEVGA_START[:-9] + "b 0:0 0:0"
    assert format_position(Position.start("portes")) == PORTES_START


@pytest.mark.parametrize("text", [PORTES_START, PLAKOTO_START, FEVGA_START])
def test_start_strings_read_back(text: str) -> None:
    pos = Position.from_string(text)
    assert pos == Position.start(text.split()[0])
    parsed = parse_position(text)
    assert Position.from_checkers(parsed.variant, parsed.turn, parsed.white, parsed.black, parsed.pinned) == pos


def test_board_tokens_are_white_points_1_to_24() -> None:
    pos = Position.from_string("portes 3w.....................1b2b b 0:0 12:12")
    assert pos.turn == BLACK
    assert pos.point(1) == PointView(3, 0, None)
    assert pos.point(23) == PointView(0, 1, None)
    assert pos.point(24) == PointView(0, 2, None)
    # in Black's own numbering those are his points 2 and 1
    assert pos.layout(BLACK) == {2: 1, 1: 2}
    assert pos.borne_off(WHITE) == 12
    assert pos.borne_off(BLACK) == 12


def test_multi_digit_counts() -> None:
    pos = Position.from_string("portes 10w1b....................1w14b w 0:0 4:0")
    assert pos.point(1) == PointView(10, 0, None)
    assert pos.point(2) == PointView(0, 1, None)
    assert pos.point(23) == PointView(1, 0, None)
    assert pos.point(24) == PointView(0, 14, None)


def test_plakoto_pin_tokens() -> None:
    # two white checkers on top of a pinned black one on White's 1-point (Black's mother)
    text = "plakoto 2wb...........14b..........13w w 0:0 0:0"
    pos = Position.from_string(text)
    assert pos.point(1) == PointView(2, 1, BLACK)
    assert pos.is_pinned(BLACK, 24)
    assert pos.checkers(WHITE, 1) == 2
    assert str(pos) == text
    # a white checker pinned under a black one
    text = "plakoto 14b........1bw.............14w w 0:0 0:0"
    pos = Position.from_string(text)
    assert pos.point(10) == PointView(1, 1, WHITE)
    assert pos.is_pinned(WHITE, 10)
    assert str(pos) == text


@pytest.mark.parametrize("text", [
    PORTES_START,
    "portes 2b....5w.3w...5b5w...3b.5b....1w w 1:0 0:0",
    "portes 3b....14w............2b2b2b2b2b2b w 1:0 0:0",
    "plakoto 14b1wb.....................14w b 0:0 0:0",
    "portes 2b....5w.3w...5b5w...2b.5b....1w b 1:1 0:0",
    "portes ..2w3w4w................... b 0:0 6:15",
    "plakoto 2wb...........14b..........13w b 0:0 0:0",
    "plakoto 1wb....13w.......13b.........1bw w 0:0 0:0",
    "plakoto,mother_pin=single 15b......................15w b 0:0 0:0",
    "plakoto,mother_pin=off 2wb...........14b..........13w w 0:0 0:0",
    "fevga,prime_limits=off ...........15b...........15w w 0:0 0:0",
    "fevga,prime_limits=off,prime_in_opponent_start=off 1w..........14b...........14w b 0:0 0:1",
    "fevga,prime_in_opponent_start=off 1w..........14b...........13w w 0:0 1:1",
])
def test_round_trip(text: str) -> None:
    pos = Position.from_string(text)
    assert str(pos) == text
    assert Position.from_string(str(pos)) == pos
    assert repr(pos) == f"Position.from_string({text!r})"


def test_house_rules_in_the_game_field() -> None:
    pos = Position.from_string("fevga,prime_limits=off ...........15b...........15w w 0:0 0:0")
    assert pos.variant == Fevga(prime_limits=False)
    pos = Position.from_string("plakoto,mother_pin=single 15b......................15w w 0:0 0:0")
    assert pos.variant == Plakoto(mother_pin="single")


def test_bar_and_off_fields() -> None:
    pos = Position.from_string("portes 2b....5w.3w...5b5w...2b.5b....1w b 1:1 0:0")
    assert pos.on_bar(WHITE) == 1
    assert pos.on_bar(BLACK) == 1
    assert pos.pip_count(WHITE) == 167 - 24 + 25
    pos = Position.from_string("portes ..2w3w4w................... b 0:0 6:15")
    assert pos.borne_off(WHITE) == 6
    assert pos.borne_off(BLACK) == 15
    assert pos.result() is not None


# -- errors -----------------------------------------------------------------------

BAD = [
    # wrong field count
    ("portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0", "5 fields"),
    ("portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0 x", "5 fields"),
    ("", "5 fields"),
    # bad token
    ("portes 2b....5w.3w...5b5w...3b.5b....2x w 0:0 0:0", "cannot read"),
    ("portes 2b....5w.3w...5b5w...3b.5b....w2 w 0:0 0:0", "cannot read"),
    ("portes 0b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0", "write ."),
    # 23 or 25 points
    ("portes 2b....5w.3w...5b5w...3b.5b...2w w 0:0 0:0", "23 points"),
    ("portes 2b....5w.3w...5b5w...3b.5b.....2w w 0:0 0:0", "more than 24"),
    # bad turn
    ("portes 2b....5w.3w...5b5w...3b.5b....2w x 0:0 0:0", "w or b"),
    ("portes 2b....5w.3w...5b5w...3b.5b....2w W 0:0 0:0", "w or b"),
    # bad bar / off fields
    ("portes 2b....5w.3w...5b5w...3b.5b....2w w 0-0 0:0", "W:B"),
    ("portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:-1", "W:B"),
    # off count inconsistent with the board
    ("portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 1:0", "not 1"),
    ("portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:3", "not 3"),
    # a pin of one's own colour
    ("plakoto 2ww...........14b..........13w w 0:0 0:0", "own side"),
    # too many checkers
    ("portes 2b....5w.3w...5b5w...3b.5b....3w w 0:0 0:0", "16 checkers"),
    ("portes 2b....5w.3w...5b5w...3b.5b....2w w 1:0 0:0", "16 checkers"),
    # game field
    ("chess 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0", "unknown game"),
    ("portes,foo=1 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0", "no option"),
    # no bar outside Portes, no pins outside Plakoto
    ("plakoto 15b......................14w w 1:0 0:0", "no bar"),
    ("portes 1wb......................13w w 0:0 1:14", "point 1"),
]


@pytest.mark.parametrize(("text", "fragment"), BAD)
def test_malformed_strings(text: str, fragment: str) -> None:
    with pytest.raises(PositionFormatError) as info:
        Position.from_string(text)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message


def test_position_format_error_is_a_value_error() -> None:
    assert issubclass(PositionFormatError, TavliError)
    assert issubclass(PositionFormatError, ValueError)
    with pytest.raises(ValueError):
        Position.from_string("portes")


def test_a_checker_count_error_names_the_side() -> None:
    with pytest.raises(PositionFormatError) as info:
        Position.from_string("portes 2b....5w.3w...5b5w...3b.6b....2w w 0:0 0:0")
    assert "Black" in str(info.value)
