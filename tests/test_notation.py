"""Move notation: writing plays, reading them back, and saying why a play is illegal."""

from __future__ import annotations

import pytest

from tavli import (
    BLACK,
    PASS,
    WHITE,
    AmbiguousPlayError,
    Dice,
    IllegalPlayError,
    NotationError,
    Play,
    Position,
    Step,
    TavliError,
)
from tavli.notation import format_steps, parse_movements

START = Position.start("portes")

# White to move; a black blot on White's 7-point (Black's 18)
BLOT_ON_7 = Position.from_checkers("portes", WHITE, {24: 2, 13: 5, 8: 3, 6: 5},
                                   {24: 2, 13: 5, 8: 3, 6: 4, 18: 1})
# White on the bar, everything else at home; Black all on his 24 (White's 1)
ON_BAR = Position.from_checkers("portes", WHITE, {25: 1, 6: 14}, {24: 15})
# a white checker on the bar facing a closed board: no play with any roll
CLOSED_OUT = Position.from_checkers("portes", WHITE, {25: 1, 6: 14},
                                    {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})


def play_names(pos: Position, dice: str) -> list[str]:
    return [str(p) for p in pos.legal_plays(dice)]


def illegal_reason(pos: Position, text: str, dice: str) -> str:
    with pytest.raises(IllegalPlayError) as info:
        pos.parse_play(text, dice)
    return str(info.value)


# -- writing -------------------------------------------------------------------

def test_format_single_steps() -> None:
    assert format_steps([Step(24, 18), Step(13, 11)]) == "24/18 13/11"
    assert format_steps([Step(25, 22)]) == "bar/22"
    assert format_steps([Step(6, 0)]) == "6/off"
    assert format_steps([]) == ""


def test_format_chains_one_checker() -> None:
    assert format_steps([Step(24, 18), Step(18, 13)]) == "24/13"
    assert format_steps([Step(13, 7, True), Step(7, 5)]) == "13/7*/5"
    assert format_steps([Step(13, 7), Step(7, 5, True)]) == "13/5*"
    assert format_steps([Step(25, 22), Step(22, 16)]) == "bar/16"
    assert format_steps([Step(6, 4), Step(4, 0)]) == "6/off"
    assert format_steps([Step(24, 18), Step(18, 12), Step(12, 6, True), Step(6, 0)]) == "24/6*/off"


def test_format_counts_repeats() -> None:
    assert format_steps([Step(13, 7)] * 2) == "13/7(2)"
    assert format_steps([Step(13, 7), Step(13, 7), Step(13, 7), Step(8, 2)]) == "13/7(3) 8/2"
    assert format_steps([Step(6, 0)] * 2 + [Step(5, 0)] * 2) == "6/off(2) 5/off(2)"
    # two checkers each moving twice
    assert format_steps([Step(13, 10), Step(10, 7), Step(13, 10), Step(10, 7)]) == "13/7(2)"
    # only the first one hits: the two moves are not the same
    assert format_steps([Step(13, 7, True), Step(13, 7)]) == "13/7* 13/7"


def test_format_order_like_gnu_backgammon() -> None:
    # highest source first; from one source the shorter move first
    assert format_steps([Step(24, 18), Step(24, 22)]) == "24/22 24/18"
    assert format_steps([Step(24, 22), Step(24, 18)]) == "24/22 24/18"
    assert format_steps([Step(13, 11), Step(24, 18)]) == "24/18 13/11"
    assert format_steps([Step(6, 0), Step(6, 2)]) == "6/2 6/off"
    assert format_steps([Step(13, 7), Step(25, 22)]) == "bar/22 13/7"
    assert format_steps([Step(25, 22, True), Step(25, 20)]) == "bar/22* bar/20"


def test_legal_plays_are_written_in_standard_notation() -> None:
    names = play_names(START, "62")
    assert "24/22 24/18" in names
    assert "24/18 13/11" in names
    assert "24/16" in names
    assert "13/5" in names
    assert "13/7(4)" in play_names(START, "66")
    assert "24/18(2) 13/7(2)" in play_names(START, "66")
    assert "13/7*/5" in play_names(BLOT_ON_7, "62")
    assert "24/22 13/7*" in play_names(BLOT_ON_7, "62")
    assert set(play_names(ON_BAR, "31")) == {"bar/21", "bar/22 6/5", "bar/24 6/3"}
    bear_off = Position.from_checkers("portes", WHITE, {6: 2, 5: 1}, {24: 15})
    assert set(play_names(bear_off, "61")) == {"6/5 6/off", "6/off 5/4"}


def test_a_checker_that_moves_on_is_written_as_one_move() -> None:
    """13/9 with the 4 and 9/3 with the 6 leave the same position as 13/9/3: GNU Backgammon
    writes 13/3, and so should ``str(play)`` whichever path the generator recorded."""
    pos = Position.from_checkers("portes", WHITE, {13: 1, 9: 1, 6: 13}, {18: 2, 24: 13})
    assert set(play_names(pos, "64")) == {"13/3", "9/3 6/2"}
    # without a position the writer joins only steps in playing order: the
    # legal plays put a checker's steps in that order when the rules allow
    assert format_steps([Step(13, 8), Step(8, 2)]) == "13/2"
    assert format_steps([Step(8, 2), Step(13, 8)]) == "13/8 8/2"


def test_steps_are_not_reordered_against_the_first_checker_rule() -> None:
    # Fevga 5-5: the lead must pass before others leave 24, so 24/19/14 then
    # 14/9 by the lead cannot be written 24/9; every play must read back
    pos = Position.from_string("fevga .....1b.....14b.1w.........14w w 0:0 0:0")
    legal = pos.legal_plays("55")
    for play in legal:
        assert legal.index(pos.parse_play(str(play), "55")) == legal.index(play)


def test_black_plays_are_written_in_his_numbering() -> None:
    assert set(play_names(Position.start("portes", BLACK), "62")) == set(play_names(START, "62"))


# -- reading -------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "24/18 13/11", "13/11 24/18", "24-18 13-11", "13-11 24-18", "24/18, 13/11", "24/18,13/11",
    "  24/18   13/11 ",
])
def test_parse_forms(text: str) -> None:
    assert str(START.parse_play(text, "62")) == "24/18 13/11"


def test_parse_steps_in_any_order() -> None:
    # the second step of a checker may be written before the first
    assert str(START.parse_play("18/16 24/18", "62")) == "24/16"
    assert str(START.parse_play("8/2 13/7 8/2 13/7", "66")) == "13/7(2) 8/2(2)"


def test_parse_full_path_or_ends_only() -> None:
    for text in ("24/13", "24/18/13", "24-18-13"):
        assert str(START.parse_play(text, "65")) == "24/13"
    # 24/19 is Black's 6-point: the checker must go through 18
    assert illegal_reason(START, "24/19/13", "65") == "24/19 is blocked"
    plakoto = Position.start("plakoto")
    for text in ("24/13", "24/18/13", "24/19/13"):
        assert str(plakoto.parse_play(text, "65")) == "24/13"


def test_parse_repeats() -> None:
    expected = START.parse_play("13/7 13/7 8/2 8/2", "66")
    assert START.parse_play("13/7(2) 8/2(2)", "66") == expected
    assert str(START.parse_play("13/7(4)", "66")) == "13/7(4)"


def test_parse_bar_and_off_spellings() -> None:
    for text in ("bar/22 6/5", "b/22 6/5", "25/22 6/5", "BAR/22 6/5", "bar-22 6-5"):
        assert str(ON_BAR.parse_play(text, "31")) == "bar/22 6/5"
    bear_off = Position.from_checkers("portes", WHITE, {6: 2, 5: 1}, {24: 15})
    for text in ("6/off 6/5", "6/o 6/5", "6/0 6/5", "6/OFF 6/5", "6/5 6/off"):
        assert str(bear_off.parse_play(text, "61")) == "6/5 6/off"


def test_parse_hits_marked_or_not() -> None:
    assert str(BLOT_ON_7.parse_play("13/7*/5", "62")) == "13/7*/5"
    # written through 7 without the star: it can only hit there
    assert str(BLOT_ON_7.parse_play("13/7/5", "62")) == "13/7*/5"
    # through 11: no hit
    assert str(BLOT_ON_7.parse_play("13/11/5", "62")) == "13/5"
    assert str(BLOT_ON_7.parse_play("24/22 13/7", "62")) == "24/22 13/7*"
    assert str(BLOT_ON_7.parse_play("24/22 13/7*", "62")) == "24/22 13/7*"


def test_a_star_where_nothing_is_hit_is_illegal() -> None:
    with pytest.raises(IllegalPlayError):
        START.parse_play("24/18* 13/11", "62")
    with pytest.raises(IllegalPlayError):
        BLOT_ON_7.parse_play("13/11*/5", "62")


def test_plakoto_pin_notation() -> None:
    pos = Position.from_checkers("plakoto", WHITE, {13: 2, 24: 13}, {18: 1, 24: 14})
    play = pos.parse_play("24/22 13/7*", "62")
    assert str(play) == "24/22 13/7*"
    assert pos.play(play, "62").is_pinned(BLACK, 18)
    assert pos.parse_play("13/7 24/22", "62") == play


def test_unmarked_path_means_no_hit() -> None:
    # 13/5 with 6-2: 13/7*/5 hits the blot, 13/11/5 does not. Hits are marked,
    # so the unmarked path is the quiet one and the marked one is the hit.
    quiet = BLOT_ON_7.parse_play("13/5", "62")
    assert not any(step.hit for step in quiet.steps)
    assert str(quiet) == "13/5"
    hit = BLOT_ON_7.parse_play("13/7*/5", "62")
    assert str(hit) == "13/7*/5"
    assert BLOT_ON_7.play(quiet) != BLOT_ON_7.play(hit)


def test_ambiguous_between_two_hits() -> None:
    # blots on 11 and 7: 13/5 hits one of them either way, and the text does not say which
    pos = Position.from_checkers("portes", WHITE, {13: 1, 6: 14}, {14: 1, 18: 1, 24: 13})
    with pytest.raises(AmbiguousPlayError) as info:
        pos.parse_play("13/5", "62")
    message = str(info.value)
    assert "ambiguous" in message
    assert "13/7*/5" in message and "13/11*/5" in message
    assert issubclass(AmbiguousPlayError, IllegalPlayError)
    assert str(pos.parse_play("13/11*/5", "62")) == "13/11*/5"


def test_same_result_is_not_ambiguous() -> None:
    # without a blot both paths lead to the same position
    assert str(START.parse_play("13/5", "62")) == "13/5"
    # Plakoto: pinning on the way and moving on leaves no pin, the same as the other path
    pos = Position.from_checkers("plakoto", WHITE, {13: 2, 24: 13}, {18: 1, 24: 14})
    by_pin = pos.parse_play("13/7*/5", "62")
    assert pos.parse_play("13/5", "62") == by_pin
    assert pos.parse_play("13/11/5", "62") == by_pin


@pytest.mark.parametrize("text", [
    "xyz", "24", "24/18/", "24//18", "24/18 13", "24:18", "13/7(x)", "24/18(2)x",
])
def test_unreadable_notation(text: str) -> None:
    with pytest.raises(NotationError) as info:
        START.parse_play(text, "62")
    assert "cannot read" in str(info.value)


@pytest.mark.parametrize(("text", "fragment"), [
    ("24/30", "no point 30"),
    ("26/20", "no point 26"),
    ("13/15", "higher to lower"),
    ("13/13", "higher to lower"),
    ("off/18", "borne off"),
    ("6/bar", "to the bar"),
    ("24/18(5)", "1 to 4"),
    ("24/18(0)", "1 to 4"),
])
def test_impossible_notation(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_movements(text)
    assert fragment in str(info.value)
    with pytest.raises(NotationError):
        START.parse_play(text, "62")


def test_notation_error_is_not_an_illegal_play() -> None:
    assert issubclass(NotationError, TavliError)
    assert not issubclass(NotationError, IllegalPlayError)
    assert issubclass(IllegalPlayError, ValueError)


def test_parse_movements() -> None:
    moves = parse_movements("bar/22* 13/7(2) 6/off")
    assert [m.points for m in moves] == [(25, 22), (13, 7), (13, 7), (6, 0)]
    assert [m.hits for m in moves] == [(True,), (False,), (False,), (False,)]
    assert [str(m) for m in moves] == ["bar/22*", "13/7", "13/7", "6/off"]
    assert parse_movements("pass") == []


# -- why a play is illegal -------------------------------------------------------

def test_reason_blocked() -> None:
    assert illegal_reason(START, "6/1", "51") == "6/1 is blocked"
    assert illegal_reason(START, "6/1 8/7", "51") == "6/1 is blocked"
    assert illegal_reason(START, "13/1", "66") == "13/1 is blocked"


def test_reason_both_dice() -> None:
    assert illegal_reason(START, "24/23", "51") == "you must use both dice"
    assert illegal_reason(START, "13/8", "51") == "you must use both dice"


def test_reason_all_four_moves() -> None:
    assert "4 of your 4 moves" in illegal_reason(START, "13/7(2)", "66")


def test_reason_higher_die() -> None:
    # one white checker can move: 13/7 or 13/8, and then 2 is closed
    pos = Position.from_checkers("portes", WHITE, {13: 1, 1: 14}, {23: 2, 14: 13})
    assert play_names(pos, "65") == ["13/7"]
    assert illegal_reason(pos, "13/8", "65") == "you must play the higher die (6)"
    assert str(pos.parse_play("13/7", "65")) == "13/7"


def test_reason_fevga_first_checker() -> None:
    pos = Position.from_checkers("fevga", WHITE, {24: 14, 18: 1}, {24: 15})
    assert play_names(pos, "65") == ["18/7"]
    assert illegal_reason(pos, "24/19 24/18", "65") == "your first checker must pass 12 first"
    assert illegal_reason(pos, "24/13", "65") == "your first checker must pass 12 first"


def test_reason_plakoto_pinned() -> None:
    pos = Position.from_checkers("plakoto", WHITE, {24: 14, 10: 1}, {24: 14, 15: 1}, {10: WHITE})
    assert illegal_reason(pos, "10/5 24/18", "65") == "your checker on 10 is pinned"
    assert illegal_reason(pos, "10/4", "65") == "your checker on 10 is pinned"


def test_reason_fevga_prime_in_own_start() -> None:
    white = {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}
    pos = Position.from_checkers("fevga", WHITE, white, {24: 15})
    assert (illegal_reason(pos, "24/19 5/4", "51")
            == "you may not hold all six points of your starting table (19 to 24)")
    off = Position.from_checkers("fevga,prime_limits=off", WHITE, white, {24: 15})
    assert str(off.parse_play("24/19 5/4", "51")) == "24/19 5/4"


def test_reason_fevga_prime_in_opponent_start() -> None:
    white = {13: 9, 12: 1, 11: 1, 10: 1, 9: 1, 8: 1, 2: 1}
    pos = Position.from_checkers("fevga", WHITE, white, {4: 15})
    assert (illegal_reason(pos, "13/7 2/1", "61")
            == "you may not hold all six points of your opponent's starting table (7 to 12)")
    for house_rules in ("fevga,prime_in_opponent_start=off", "fevga,prime_limits=off"):
        allowed = Position.from_checkers(house_rules, WHITE, white, {4: 15})
        assert str(allowed.parse_play("13/7 2/1", "61")) == "13/7 2/1"


def test_reason_bar_first() -> None:
    pos = Position.from_checkers("portes", WHITE, {25: 1, 24: 1, 13: 5, 8: 3, 6: 5},
                                 {24: 2, 13: 5, 8: 3, 6: 5})
    assert illegal_reason(pos, "13/7 13/8", "65") == "you must enter your checkers from the bar first"
    assert illegal_reason(pos, "bar/19 13/8", "65") == "bar/19 is blocked"
    assert str(pos.parse_play("bar/20 13/7", "65")) == "bar/20 13/7"
    assert illegal_reason(START, "bar/20 13/7", "65") == "you have no checker on the bar"


def test_reason_bearing_off_too_early() -> None:
    pos = Position.from_checkers("portes", WHITE, {6: 14, 7: 1}, {24: 15})
    assert (illegal_reason(pos, "6/off 7/1", "61")
            == "you cannot bear off until all your checkers are in your home table")


def test_reason_bearing_off_with_a_higher_die() -> None:
    pos = Position.from_checkers("portes", WHITE, {6: 2, 5: 1}, {24: 15})
    assert "higher points" in illegal_reason(pos, "5/off 6/5", "61")


def test_reason_no_checker() -> None:
    assert illegal_reason(START, "9/3 6/5", "61") == "you have no checker on point 9"
    assert illegal_reason(START, "5/off 6/5", "61") == "you have no checker on point 5"


def test_reason_wrong_distance() -> None:
    assert "14 pips" in illegal_reason(START, "24/10", "62")
    assert "3 pips" in illegal_reason(START, "13/10/5", "62")


def test_reason_too_many_moves() -> None:
    assert "3 checkers" in illegal_reason(START, "24/18 13/11 8/6", "62")


# -- passing ---------------------------------------------------------------------

@pytest.mark.parametrize("text", ["pass", "PASS", " pass ", "", "-", "none", "no move"])
def test_pass_accepted_when_no_play_exists(text: str) -> None:
    assert len(CLOSED_OUT.legal_plays("66")) == 0
    assert CLOSED_OUT.parse_play(text, "66") == PASS


@pytest.mark.parametrize("text", ["pass", "", "-"])
def test_pass_refused_when_a_play_exists(text: str) -> None:
    reason = illegal_reason(START, text, "62")
    assert "cannot pass" in reason
    assert "14 legal plays" in reason


def test_a_move_refused_when_no_play_exists() -> None:
    assert "turn passes" in illegal_reason(CLOSED_OUT, "bar/19", "66")


# -- writing and reading agree ---------------------------------------------------------

@pytest.mark.parametrize(("pos", "dice"), [
    (START, "62"), (START, "66"), (START, "21"), (ON_BAR, "31"),
    (Position.start("plakoto"), "65"), (Position.start("fevga"), "55"),
    (BLOT_ON_7, "43"),
])
def test_every_legal_play_reads_back(pos: Position, dice: str) -> None:
    """What ``str(play)`` writes, ``parse_play`` reads as that same play."""
    legal = pos.legal_plays(dice)
    for k, play in enumerate(legal):
        assert legal.index(pos.parse_play(str(play), dice)) == k, str(play)


def test_a_play_that_avoids_a_blot_is_written_so_that_it_reads_back() -> None:
    """The checker going 13/11/5 past the blot on 7 must not be written as plain 13/5.

    parse_play reads "13/5" as ambiguous (13/7*/5 or 13/11/5), so writing the quiet
    play that way gives text that the library itself cannot read back.
    """
    quiet = BLOT_ON_7.parse_play("13/11/5", "62")
    after = BLOT_ON_7.play(quiet, "62")
    assert after.on_bar(BLACK) == 0
    assert BLOT_ON_7.parse_play(str(quiet), "62") == quiet


def test_play_str_and_parse_agree_for_a_hit_on_entry() -> None:
    pos = Position.from_checkers("portes", WHITE, {25: 1, 6: 14}, {3: 1, 24: 14})
    play = pos.parse_play("bar/22* 6/5", Dice(3, 1))
    assert play.steps[0] == Step(25, 22, True)
    assert str(play) == "bar/22* 6/5"
    assert pos.play(play, "31").on_bar(BLACK) == 1
    assert isinstance(play, Play)
