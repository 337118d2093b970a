"""GNU Backgammon Position IDs of Portes positions."""

from __future__ import annotations

import base64
from collections.abc import Sequence

import pytest

from tavli import BLACK, WHITE, Position, PositionFormatError

START_ID = "4HPwATDgc/ABMA"


def encode(opponent: Sequence[int], mover: Sequence[int]) -> str:
    """An independent encoder: 25 counts per side (points 1..24, then the bar)."""
    bits: list[int] = []
    for side in (opponent, mover):
        for count in side:
            bits += [1] * count + [0]
    bits += [0] * (80 - len(bits))
    data = bytes(sum(bits[8 * k + j] << j for j in range(8)) for k in range(10))
    return base64.b64encode(data).decode()[:14]


def side(layout: dict[int, int]) -> list[int]:
    return [layout.get(p, 0) for p in range(1, 26)]


def test_start() -> None:
    assert Position.start("portes").gnubg_id() == START_ID
    assert Position.start("portes", BLACK).gnubg_id() == START_ID
    assert Position.from_gnubg_id(START_ID) == Position.start("portes")
    assert Position.from_gnubg_id(START_ID, BLACK) == Position.start("portes", BLACK)


def test_independent_encoder_agrees_on_the_start() -> None:
    layout = side({24: 2, 13: 5, 8: 3, 6: 5})
    assert encode(layout, layout) == START_ID


@pytest.mark.parametrize(("text", "position_id"), [
    # after 24/18 13/11, Black on roll: the first half is White's side
    ("portes 2b....5w.3w..1w5b4w...3b1w5b....1w b 0:0 0:0", "4HPkQSDgc/ABMA"),
    ("portes 2b....5w.3w...5b5w...2b.5b....1w b 1:1 0:0", "4HPwAVDgM/gAWA"),
    ("portes ...5w5w5w.................13b w 0:2 0:0", "/x8AAGD4vg8AAA"),
    ("portes ........................ w 0:0 15:15", "AAAAAAAAAAAAAA"),
])
def test_known_ids(text: str, position_id: str) -> None:
    pos = Position.from_string(text)
    assert pos.gnubg_id() == position_id
    assert Position.from_gnubg_id(position_id, pos.turn) == pos


def test_the_player_on_roll_is_written_second() -> None:
    pos = Position.from_checkers("portes", WHITE, {6: 5, 5: 5, 4: 5}, {25: 2, 1: 13})
    white = side(pos.layout(WHITE))
    black = side(pos.layout(BLACK))
    assert pos.gnubg_id() == encode(black, white)
    assert pos.pass_turn().gnubg_id() == encode(white, black)
    assert pos.gnubg_id() != pos.pass_turn().gnubg_id()


def test_turn_parameter_names_the_player_on_roll() -> None:
    position_id = "/x8AAGD4vg8AAA"
    as_white = Position.from_gnubg_id(position_id)
    as_black = Position.from_gnubg_id(position_id, BLACK)
    assert as_white.turn == WHITE
    assert as_black.turn == BLACK
    # the player on roll has the 15 checkers on his 4, 5 and 6 points
    assert as_white.layout(WHITE) == {4: 5, 5: 5, 6: 5}
    assert as_black.layout(BLACK) == {4: 5, 5: 5, 6: 5}
    assert as_black.layout(WHITE) == {1: 13, 25: 2}
    assert as_black.on_bar(WHITE) == 2


def test_ids_of_many_played_positions_read_back() -> None:
    pos = Position.start("portes")
    for dice in ("31", "64", "52", "66", "41", "55", "21", "63", "44", "65"):
        legal = pos.legal_plays(dice)
        for after in legal.positions():
            assert Position.from_gnubg_id(after.gnubg_id(), after.turn) == after
        pos = legal.after(len(legal) // 2) if len(legal) else pos.pass_turn()


@pytest.mark.gnubg
def test_agrees_with_the_gnubg_module() -> None:
    gnubg = pytest.importorskip("gnubg")
    pos = Position.start("portes")
    for dice in ("62", "31", "55", "43", "66", "12"):
        for after in pos.legal_plays(dice).positions():
            board = tuple(tuple(after.checkers(color, p) for p in range(1, 26))
                          for color in (after.turn.other, after.turn))
            assert gnubg.positionid(board) == after.gnubg_id()
        pos = pos.legal_plays(dice).after(0)


def test_surrounding_spaces_are_ignored() -> None:
    assert Position.from_gnubg_id(f"  {START_ID}\n") == Position.start("portes")


@pytest.mark.parametrize("position_id", [
    "4HPwATDgc/AB", "4HPwATDgc/ABMAA", "", "4HPwATDgc/ABM!", "4HPwATDgc ABMA", "4HPwATDgc-ABMA",
    "4HPwATDgc/ABM=",
])
def test_bad_length_or_characters(position_id: str) -> None:
    with pytest.raises(PositionFormatError) as info:
        Position.from_gnubg_id(position_id)
    assert "14 base64 characters" in str(info.value)


def test_too_many_checkers() -> None:
    with pytest.raises(PositionFormatError) as info:
        Position.from_gnubg_id("//////////////")
    assert "more than 15" in str(info.value)
    with pytest.raises(PositionFormatError):
        Position.from_gnubg_id(encode(side({6: 16}), side({6: 15})))


def test_bits_after_both_sides() -> None:
    with pytest.raises(PositionFormatError) as info:
        Position.from_gnubg_id("AAAAAAAAAABAAA")
    assert "after both sides" in str(info.value)


def test_both_sides_on_one_point() -> None:
    # the mover's 1-point is the opponent's 24-point
    position_id = encode(side({24: 1}), side({1: 1}))
    with pytest.raises(PositionFormatError) as info:
        Position.from_gnubg_id(position_id)
    assert position_id in str(info.value)


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        Position.from_gnubg_id("nope")


@pytest.mark.parametrize("game", ["plakoto", "fevga"])
def test_only_portes_has_ids(game: str) -> None:
    with pytest.raises(PositionFormatError) as info:
        Position.start(game).gnubg_id()
    assert "Portes" in str(info.value)
