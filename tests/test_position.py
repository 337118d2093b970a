"""Positions: construction, reading, legal plays, playing and results."""

from __future__ import annotations

import numpy as np
import pytest

from tavli import (
    BLACK,
    PASS,
    WHITE,
    Dice,
    DiceError,
    Fevga,
    GameResult,
    IllegalPlayError,
    LegalPlays,
    Plakoto,
    Play,
    PointView,
    Portes,
    Position,
    Step,
    TavliError,
)
from tavli.variants import GAMES


def names(legal: LegalPlays) -> set[str]:
    return {str(p) for p in legal}


# -- construction -----------------------------------------------------------

def test_portes_start() -> None:
    pos = Position.start("portes")
    assert pos.variant == Portes()
    assert pos.turn == WHITE
    for color in (WHITE, BLACK):
        assert pos.layout(color) == {24: 2, 13: 5, 8: 3, 6: 5}
        assert pos.pip_count(color) == 167
        assert pos.borne_off(color) == 0
        assert pos.on_bar(color) == 0
    # White's 24-point holds Black's 1-point: the two back checkers face two black checkers
    assert pos.point(24) == PointView(2, 0, None)
    assert pos.point(1) == PointView(0, 2, None)
    assert pos.point(6) == PointView(5, 0, None)
    assert pos.point(19) == PointView(0, 5, None)
    assert pos.point(12) == PointView(0, 5, None)
    assert pos.point(13) == PointView(5, 0, None)
    assert pos.point(2) == PointView(0, 0, None)
    assert pos.result() is None


def test_plakoto_start() -> None:
    pos = Position.start("plakoto")
    for color in (WHITE, BLACK):
        assert pos.layout(color) == {24: 15}
        assert pos.pip_count(color) == 360
    assert pos.point(24) == PointView(15, 0, None)
    assert pos.point(1) == PointView(0, 15, None)
    assert pos.result() is None


def test_fevga_start() -> None:
    pos = Position.start("fevga")
    for color in (WHITE, BLACK):
        assert pos.layout(color) == {24: 15}
        assert pos.pip_count(color) == 360
    # the opponent starts in the diagonally opposite corner: White's 12-point
    assert pos.point(24) == PointView(15, 0, None)
    assert pos.point(12) == PointView(0, 15, None)
    assert pos.point(1) == PointView(0, 0, None)
    assert pos.result() is None


@pytest.mark.parametrize("game", GAMES)
def test_start_with_black_to_move(game: str) -> None:
    white_first = Position.start(game)
    black_first = Position.start(game, BLACK)
    assert black_first.turn == BLACK
    assert black_first != white_first
    assert black_first == white_first.pass_turn()
    for color in (WHITE, BLACK):
        assert black_first.layout(color) == white_first.layout(color)


def test_start_accepts_a_variant_with_house_rules() -> None:
    pos = Position.start(Fevga(prime_limits=False))
    assert pos.variant == Fevga(prime_limits=False)
    assert pos != Position.start("fevga")


def test_from_checkers_rest_is_borne_off() -> None:
    pos = Position.from_checkers("portes", WHITE, {6: 3, 25: 1}, {1: 2})
    assert pos.borne_off(WHITE) == 11
    assert pos.borne_off(BLACK) == 13
    assert pos.on_bar(WHITE) == 1
    assert pos.checkers(WHITE, 6) == 3
    assert pos.checkers(BLACK, 1) == 2
    assert pos.point(24) == PointView(0, 2, None)
    assert pos.pip_count(WHITE) == 3 * 6 + 25
    assert pos.pip_count(BLACK) == 2


def test_from_checkers_black_numbering_fevga() -> None:
    pos = Position.from_checkers("fevga", WHITE, {1: 1}, {1: 1})
    # Black's 1-point is White's 13-point
    assert pos.point(13) == PointView(0, 1, None)
    assert pos.point(1) == PointView(1, 0, None)


@pytest.mark.parametrize(("white", "black", "fragment"), [
    ({24: 16}, {}, "16 checkers"),
    ({24: 10, 13: 6}, {}, "16 checkers"),
    ({}, {1: 9, 2: 9}, "18 checkers"),
    ({24: -1}, {}, "-1"),
    ({26: 1}, {}, "point 26"),
    ({0: 1}, {}, "point 0"),
])
def test_from_checkers_bad_counts(white: dict[int, int], black: dict[int, int], fragment: str) -> None:
    with pytest.raises(TavliError) as info:
        Position.from_checkers("portes", WHITE, white, black)
    assert fragment in str(info.value)


@pytest.mark.parametrize("game", ["plakoto", "fevga"])
def test_no_bar_outside_portes(game: str) -> None:
    with pytest.raises(TavliError) as info:
        Position.from_checkers(game, WHITE, {25: 1, 24: 14}, {24: 15})
    assert "no bar" in str(info.value)


@pytest.mark.parametrize("game", ["portes", "fevga"])
def test_both_sides_on_one_point(game: str) -> None:
    variant = Position.start(game).variant
    black_point = variant.other_numbering(10)
    with pytest.raises(TavliError) as info:
        Position.from_checkers(game, WHITE, {10: 2}, {black_point: 1})
    assert "point 10" in str(info.value)


def test_plakoto_shared_point_needs_a_pin() -> None:
    with pytest.raises(TavliError) as info:
        Position.from_checkers("plakoto", WHITE, {10: 1}, {15: 1})
    assert "pinned" in str(info.value)


def test_plakoto_pin() -> None:
    pos = Position.from_checkers("plakoto", WHITE, {10: 2, 24: 13}, {15: 1, 24: 14}, {10: BLACK})
    assert pos.point(10) == PointView(2, 1, BLACK)
    assert pos.is_pinned(BLACK, 15)
    assert not pos.is_pinned(WHITE, 10)
    assert pos.checkers(BLACK, 15) == 1


@pytest.mark.parametrize(("white", "black", "pinned"), [
    ({10: 2}, {15: 1}, {10: WHITE}),     # the pinned checker must be alone
    ({10: 2}, {15: 2}, {10: BLACK}),     # two checkers cannot be pinned
    ({10: 2}, {}, {10: BLACK}),          # nobody to pin
    ({10: 1}, {}, {10: WHITE}),          # nobody on top
    ({10: 1}, {15: 1}, {25: WHITE}),     # a pin on the bar
    ({10: 1}, {15: 1}, {0: WHITE}),
])
def test_plakoto_bad_pins(white: dict[int, int], black: dict[int, int], pinned: dict[int, object]) -> None:
    with pytest.raises(TavliError):
        Position.from_checkers("plakoto", WHITE, white, black, pinned)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", ["portes", "fevga"])
def test_pins_only_in_plakoto(game: str) -> None:
    with pytest.raises(TavliError) as info:
        Position.from_checkers(game, WHITE, {10: 2}, {}, {10: BLACK})
    assert "no pinned" in str(info.value)


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        Position.from_checkers("portes", WHITE, {24: 16}, {})


# -- values -------------------------------------------------------------------

def test_equality_and_hash() -> None:
    a = Position.start("portes")
    b = Position.from_checkers("portes", WHITE, {24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, Position.start("portes", BLACK)}) == 2
    assert a != Position.start("portes", BLACK)
    assert a != "portes"


def test_equality_looks_at_the_house_rules() -> None:
    assert Position.start("fevga") != Position.start(Fevga(prime_limits=False))
    assert Position.start("plakoto") != Position.start(Plakoto(mother_pin="off"))
    assert Position.start("plakoto") == Position.start(Plakoto())


def test_positions_are_read_only() -> None:
    pos = Position.start("portes")
    assert not pos.state.flags.writeable
    with pytest.raises(ValueError):
        pos.state[6] = 0


def test_repr_evaluates_back() -> None:
    pos = Position.from_checkers("plakoto", BLACK, {10: 2, 24: 13}, {15: 1, 24: 14}, {10: BLACK})
    assert eval(repr(pos), {"Position": Position}) == pos


# -- legal plays from the start ------------------------------------------------

PORTES_62 = {"24/22 24/18", "24/16", "24/18 13/11", "24/18 8/6", "24/18 6/4", "24/22 13/7",
             "13/11 13/7", "13/7 8/6", "13/5", "13/7 6/4", "24/22 8/2", "13/11 8/2", "8/6 8/2",
             "8/2 6/4"}


def test_portes_62_from_the_start() -> None:
    legal = Position.start("portes").legal_plays(Dice(6, 2))
    assert len(legal) == 14
    assert names(legal) == PORTES_62


def test_dice_order_does_not_matter() -> None:
    pos = Position.start("portes")
    assert names(pos.legal_plays("26")) == names(pos.legal_plays("62"))
    assert names(pos.legal_plays((2, 6))) == PORTES_62


def test_portes_66_from_the_start() -> None:
    legal = Position.start("portes").legal_plays("66")
    assert len(legal) == 11
    assert "24/18(2) 13/7(2)" in names(legal)
    assert "13/7(4)" in names(legal)
    assert all(len(p) == 4 for p in legal)
    # 18/12 and 7/1 are blocked, 2/off is not allowed yet
    assert not any(s.src == 18 or s.src == 7 or s.dst == 0 for p in legal for s in p.steps)


def test_plakoto_65_from_the_start() -> None:
    legal = Position.start("plakoto").legal_plays("65")
    assert names(legal) == {"24/13", "24/18 24/19"} or names(legal) == {"24/13", "24/19 24/18"}
    assert len(legal) == 2


def test_fevga_66_from_the_start() -> None:
    # the first checker runs alone; 18/12 lands on the opponent's start
    assert names(Position.start("fevga").legal_plays("66")) == {"24/18"}


def test_fevga_55_from_the_start() -> None:
    assert names(Position.start("fevga").legal_plays("55")) == {"24/4", "24/19 24/9"}


@pytest.mark.parametrize("game", GAMES)
def test_every_opening_roll_has_distinct_results(game: str) -> None:
    pos = Position.start(game)
    for a in range(1, 7):
        for b in range(a, 7):
            legal = pos.legal_plays(Dice(b, a))
            assert len(legal) > 0
            results = legal.positions()
            assert len(set(results)) == len(legal)
            assert all(r.turn == BLACK for r in results)


@pytest.mark.parametrize("dice", ["71", "00", "6", (7, 1), (0, 3)])
def test_legal_plays_reject_bad_dice(dice: str | tuple[int, int]) -> None:
    with pytest.raises(DiceError):
        Position.start("portes").legal_plays(dice)


@pytest.mark.parametrize(("a", "b"), [(7, 1), (0, 0)])
def test_legal_plays_reject_a_dice_value_that_is_not_a_roll(a: int, b: int) -> None:
    """``Dice(7, 1)`` is not checked when built, so legal_plays must check it (or Dice must).

    Today the kernel is run with a 7 and returns plays such as 13/6.
    """
    with pytest.raises(DiceError):
        Position.start("portes").legal_plays(Dice(a, b))


def test_no_play_means_empty() -> None:
    # a white checker on the bar facing a closed board
    pos = Position.from_checkers("portes", WHITE, {25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    legal = pos.legal_plays("66")
    assert len(legal) == 0
    assert list(legal) == []
    assert legal.positions() == [pos.pass_turn()]
    assert legal.after(0) == pos.pass_turn()
    assert legal.index(PASS) == 0
    assert PASS in legal


# -- LegalPlays as a sequence --------------------------------------------------

def test_legal_plays_indexing() -> None:
    legal = Position.start("portes").legal_plays("62")
    plays = list(legal)
    assert len(plays) == 14
    assert legal[-1] == plays[-1]
    assert legal[0] == plays[0]
    assert legal[-14] == plays[0]
    assert list(legal[2:5]) == plays[2:5]
    assert list(legal[::4]) == plays[::4]
    assert list(legal[:]) == plays
    with pytest.raises(IndexError):
        legal[14]
    with pytest.raises(IndexError):
        legal[-15]
    assert legal.dice == Dice(6, 2)
    assert legal.position == Position.start("portes")


def test_legal_plays_index_and_contains() -> None:
    legal = Position.start("portes").legal_plays("62")
    for k, play in enumerate(legal):
        assert legal.index(play) == k
        assert play in legal
    # the same play with its steps in another order is the same play
    swapped = Play((Step(13, 11), Step(24, 18)))
    assert swapped in legal
    assert str(legal[legal.index(swapped)]) == "24/18 13/11"
    # the same result by another path is the same play
    assert legal.index(Play((Step(13, 11), Step(11, 5)))) == legal.index(Play((Step(13, 7), Step(7, 5))))
    illegal = Play((Step(24, 18), Step(24, 22), Step(13, 11)))
    assert illegal not in legal
    assert Play((Step(6, 0), Step(6, 4))) not in legal
    assert PASS not in legal
    assert "24/18 13/11" not in legal  # type: ignore[comparison-overlap]  # notation is not a Play
    with pytest.raises(IllegalPlayError):
        legal.index(illegal)
    with pytest.raises(IllegalPlayError):
        legal.index(PASS)
    with pytest.raises(TypeError):
        legal.index("24/18 13/11")


def test_legal_plays_after_and_results() -> None:
    pos = Position.start("portes")
    legal = pos.legal_plays("62")
    k = legal.index(pos.parse_play("24/18 13/11", "62"))
    after = legal.after(k)
    assert after.turn == BLACK
    assert after.layout(WHITE) == {24: 1, 18: 1, 13: 4, 11: 1, 8: 3, 6: 5}
    assert after.layout(BLACK) == pos.layout(BLACK)
    assert legal.positions()[k] == after
    assert legal.results.shape[0] == 14
    assert not legal.results.flags.writeable
    assert legal.find_result(legal.results[k]) == k
    assert legal.find_result(pos.state) == -1


# -- playing -------------------------------------------------------------------

def test_play_by_notation_and_by_play() -> None:
    pos = Position.start("portes")
    by_text = pos.play("24/18 13/11", "62")
    by_play = pos.play(Play((Step(24, 18), Step(13, 11))))
    by_play_and_dice = pos.play(Play((Step(13, 11), Step(24, 18))), Dice(2, 6))
    assert by_text == by_play == by_play_and_dice
    assert str(by_text) == "portes 2b....5w.3w..1w5b4w...3b1w5b....1w b 0:0 0:0"
    assert by_text.layout(WHITE) == {24: 1, 18: 1, 13: 4, 11: 1, 8: 3, 6: 5}


def test_play_infers_a_double() -> None:
    pos = Position.start("portes")
    after = pos.play(Play((Step(13, 7), Step(13, 7), Step(8, 2), Step(8, 2))))
    assert after == pos.play("13/7(2) 8/2(2)", "66")


def test_play_needs_dice_it_cannot_infer() -> None:
    pos = Position.start("portes")
    with pytest.raises(TavliError):
        pos.play("24/18 13/11")
    with pytest.raises(TavliError):
        pos.play(PASS)


def test_play_rejects_illegal_plays_and_never_mutates() -> None:
    pos = Position.start("portes")
    text_before = str(pos)
    state_before = pos.state.copy()
    bad: list[tuple[Play | str, str | None]] = [
        (Play((Step(24, 18),)), "62"),                     # only one die used
        (Play((Step(6, 1), Step(6, 5))), "51"),            # 6/1 is blocked
        (Play((Step(24, 18), Step(24, 22))), "61"),        # wrong dice
        ("6/1 8/7", "51"),
        (PASS, "62"),
    ]
    for play, dice in bad:
        with pytest.raises(IllegalPlayError):
            pos.play(play, dice)
        assert str(pos) == text_before
        assert np.array_equal(pos.state, state_before)
    assert pos == Position.start("portes")


def test_legal_play_does_not_mutate_either() -> None:
    pos = Position.start("plakoto")
    before = pos.state.copy()
    for play in pos.legal_plays("65"):
        pos.play(play, "65")
    assert np.array_equal(pos.state, before)
    assert pos == Position.start("plakoto")


def test_pass_turn() -> None:
    pos = Position.from_checkers("plakoto", WHITE, {10: 2, 24: 13}, {15: 1, 24: 14}, {10: BLACK})
    passed = pos.pass_turn()
    assert passed.turn == BLACK
    assert passed.pass_turn() == pos
    for color in (WHITE, BLACK):
        assert passed.layout(color) == pos.layout(color)
    assert passed.point(10) == pos.point(10)
    assert passed.is_pinned(BLACK, 15)


def test_play_pass_when_nothing_can_move() -> None:
    pos = Position.from_checkers("portes", WHITE, {25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert pos.play(PASS, "66") == pos.pass_turn()
    assert pos.play("pass", "66") == pos.pass_turn()


def test_black_plays_in_his_own_numbering() -> None:
    pos = Position.start("portes", BLACK)
    after = pos.play("24/18 13/11", "62")
    assert after.turn == WHITE
    assert after.layout(BLACK) == {24: 1, 18: 1, 13: 4, 11: 1, 8: 3, 6: 5}
    assert after.layout(WHITE) == pos.layout(WHITE)
    # Black's 18-point is White's 7-point
    assert after.point(7) == PointView(0, 1, None)


def test_hit_sends_to_the_bar() -> None:
    pos = Position.from_checkers("portes", WHITE, {13: 2, 6: 13}, {18: 1, 1: 14})
    after = pos.play("13/7* 6/5", "61")
    assert after.on_bar(BLACK) == 1
    assert after.checkers(BLACK, 18) == 0
    assert after.pip_count(BLACK) == 14 + 25


def test_plakoto_pin_by_playing() -> None:
    pos = Position.from_checkers("plakoto", WHITE, {13: 1, 24: 14}, {18: 1, 24: 14})
    after = pos.play("13/7*", "42")
    assert after.point(7) == PointView(1, 1, BLACK)
    assert after.is_pinned(BLACK, 18)
    assert after.checkers(BLACK, 18) == 1


# -- results -------------------------------------------------------------------

def test_result_after_bearing_off_the_last_checker() -> None:
    pos = Position.from_checkers("portes", WHITE, {1: 1}, {6: 15})
    assert pos.result() is None
    end = pos.play("1/off", "21")
    assert end.turn == BLACK
    assert end.result() == GameResult(WHITE, 2, end.result().reason)  # type: ignore[union-attr]
    assert "double" in str(end.result())
    single = Position.from_checkers("portes", WHITE, {1: 1}, {6: 14}).play("1/off", "21")
    result = single.result()
    assert result is not None
    assert (result.winner, result.points) == (WHITE, 1)
    assert str(result) == "White wins 1 point (bore off all checkers)"


def test_result_seen_from_the_winner() -> None:
    pos = Position.from_checkers("portes", BLACK, {}, {3: 2})
    result = pos.result()
    assert result is not None
    assert (result.winner, result.points) == (WHITE, 1)
    pos = Position.from_checkers("portes", WHITE, {3: 2}, {})
    result = pos.result()
    assert result is not None
    assert (result.winner, result.points) == (BLACK, 1)
    pos = Position.from_checkers("portes", WHITE, {3: 15}, {})
    result = pos.result()
    assert result is not None
    assert (result.winner, result.points) == (BLACK, 2)


def test_result_tie_when_nobody_can_move() -> None:
    home = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 4}
    pos = Position.from_checkers("portes", WHITE, {25: 1, **home}, {25: 1, **home})
    result = pos.result()
    assert result is not None
    assert result.winner is None
    assert result.points == 0
    assert str(result).startswith("tie")


def test_result_plakoto_mother() -> None:
    # White pins Black's mother (Black's 24 = White's 1) and has left his own start
    white, black, pins = {1: 1, 6: 14}, {24: 1, 10: 14}, {1: BLACK}
    result = Position.from_checkers("plakoto", BLACK, white, black, pins).result()
    assert result is not None
    assert (result.winner, result.points) == (WHITE, 2)
    single = Position.from_checkers(Plakoto(mother_pin="single"), BLACK, white, black, pins).result()
    assert single is not None
    assert (single.winner, single.points) == (WHITE, 1)
    assert Position.from_checkers(Plakoto(mother_pin="off"), BLACK, white, black, pins).result() is None


def test_result_plakoto_both_mothers() -> None:
    pos = Position.from_checkers("plakoto", WHITE, {1: 1, 24: 1, 6: 13}, {1: 1, 24: 1, 6: 13},
                                 {1: BLACK, 24: WHITE})
    result = pos.result()
    assert result is not None
    assert result.winner is None
    assert result.points == 0


def test_game_result_str() -> None:
    assert str(GameResult(BLACK, 2, "mother pinned")) == "Black wins 2 points (mother pinned)"
    assert str(GameResult(None, 0, "both mothers pinned")) == "tie (both mothers pinned)"


# -- steps and plays -----------------------------------------------------------

def test_step_str() -> None:
    assert str(Step(24, 18)) == "24/18"
    assert str(Step(25, 22, True)) == "bar/22*"
    assert str(Step(6, 0)) == "6/off"
    assert Step(8, 5) == Step(8, 5, False)


def test_play_str_and_len() -> None:
    play = Play((Step(13, 7, True), Step(7, 5), Step(6, 5)))
    assert str(play) == "13/7*/5 6/5"
    assert len(play) == 3
    assert not play.is_pass
    assert PASS.is_pass
    assert len(PASS) == 0
    assert str(PASS) == ""
    assert Play((Step(24, 18),)) == Play((Step(24, 18),))
    assert hash(Play((Step(24, 18),))) == hash(Play((Step(24, 18),)))


def test_a_play_is_made_of_single_die_steps() -> None:
    pos = Position.start("portes")
    with pytest.raises(IllegalPlayError):
        pos.play(Play((Step(13, 5),)), "62")
    assert pos.play(Play((Step(13, 7), Step(7, 5))), "62") == pos.play("13/5", "62")
