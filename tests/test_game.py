"""A game: turns checked one by one, passing, undo and the end of the game."""

from __future__ import annotations

import pytest

from tavli import (
    BLACK,
    PASS,
    WHITE,
    Dice,
    GameOverError,
    IllegalPlayError,
    NotationError,
    Play,
    Position,
    Step,
    TavliError,
)
from tavli.game import Game, Turn

CLOSED_OUT = Position.from_checkers("portes", WHITE, {25: 1, 6: 14},
                                    {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})


def test_new_game() -> None:
    game = Game("portes")
    assert game.position == Position.start("portes")
    assert game.start == game.position
    assert game.turn == WHITE
    assert game.history == []
    assert not game.is_over
    assert game.result is None
    assert Game("fevga", BLACK).turn == BLACK


def test_play_with_notation() -> None:
    game = Game("portes")
    turn = game.play("62", "24/18 13/11")
    assert isinstance(turn, Turn)
    assert turn.color == WHITE
    assert turn.dice == Dice(6, 2)
    assert str(turn.play) == "24/18 13/11"
    assert turn.before == Position.start("portes")
    assert turn.after == game.position
    assert game.turn == BLACK
    assert game.position.layout(WHITE) == {24: 1, 18: 1, 13: 4, 11: 1, 8: 3, 6: 5}
    assert game.history == [turn]
    assert str(turn) == "White 6-2: 24/18 13/11"


def test_play_with_a_play_object() -> None:
    game = Game("plakoto")
    legal = game.legal_plays(Dice(6, 5))
    turn = game.play(Dice(6, 5), legal[0])
    assert turn.play == legal[0]
    assert game.position == legal.after(0)


def test_a_play_in_another_step_order_is_stored_as_the_legal_play() -> None:
    game = Game("portes")
    turn = game.play((6, 2), Play((Step(13, 11), Step(24, 18))))
    assert str(turn.play) == "24/18 13/11"
    assert turn.play in Position.start("portes").legal_plays("62")


def test_turns_alternate() -> None:
    game = Game("portes")
    game.play("62", "24/18 13/11")
    turn = game.play("31", "8/5 6/5")
    assert turn.color == BLACK
    assert game.turn == WHITE
    assert game.position.layout(BLACK) == {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}
    assert len(game.history) == 2


def test_pass_only_when_no_play() -> None:
    game = Game("portes")
    for play in (None, PASS, "pass"):
        with pytest.raises(IllegalPlayError) as info:
            game.play("62", play)
        assert "cannot pass" in str(info.value)
    assert game.history == []
    assert game.position == Position.start("portes")


@pytest.mark.parametrize("play", [None, PASS, "pass"])
def test_pass_when_nothing_can_move(play: Play | str | None) -> None:
    game = Game("portes", position=CLOSED_OUT)
    turn = game.play("66", play)
    assert turn.play == PASS
    assert turn.play.is_pass
    assert game.position == CLOSED_OUT.pass_turn()
    assert game.turn == BLACK
    assert str(turn) == "White 6-6: (no play)"


def test_a_move_when_nothing_can_move_is_refused() -> None:
    game = Game("portes", position=CLOSED_OUT)
    with pytest.raises(IllegalPlayError):
        game.play("66", "bar/19")
    assert game.history == []


@pytest.mark.parametrize(("play", "error"), [
    ("6/2 8/7", IllegalPlayError),
    ("24/23", IllegalPlayError),
    ("13/12", IllegalPlayError),
    ("nonsense", NotationError),
    (Play((Step(13, 11),)), IllegalPlayError),
    (Play((Step(24, 18), Step(24, 22))), IllegalPlayError),
])
def test_illegal_play_leaves_the_game_unchanged(play: Play | str, error: type[Exception]) -> None:
    game = Game("portes")
    game.play("62", "24/18 13/11")
    position, history = game.position, list(game.history)
    with pytest.raises(error):
        game.play("51", play)
    assert game.position == position
    assert game.history == history
    assert game.turn == BLACK
    assert game.result is None


def test_bad_dice() -> None:
    game = Game("portes")
    with pytest.raises(TavliError):
        game.play("72", "24/18 13/11")
    with pytest.raises(TavliError):
        game.play((0, 2), "24/18")
    assert game.history == []


def test_undo() -> None:
    game = Game("portes")
    first = game.play("62", "24/18 13/11")
    second = game.play("31", "8/5 6/5")
    assert game.undo() == second
    assert game.position == first.after
    assert game.turn == BLACK
    assert game.undo() == first
    assert game.position == Position.start("portes")
    assert game.history == []
    with pytest.raises(IllegalPlayError):
        game.undo()


def test_undo_then_play_again() -> None:
    game = Game("portes")
    game.play("62", "24/18 13/11")
    game.undo()
    game.play("62", "13/5")
    assert str(game.history[-1].play) == "13/5"
    assert len(game.history) == 1


def test_game_over() -> None:
    start = Position.from_checkers("portes", WHITE, {2: 1, 1: 1}, {6: 15})
    game = Game("portes", position=start)
    assert not game.is_over
    game.play("21", "2/off 1/off")
    assert game.is_over
    assert game.result is not None
    assert game.result.winner == WHITE
    assert game.result.points == 2
    with pytest.raises(GameOverError):
        game.play("21", None)
    with pytest.raises(GameOverError):
        game.play("65", "6/off 6/off")
    assert len(game.history) == 1


def test_undo_reopens_a_finished_game() -> None:
    start = Position.from_checkers("portes", WHITE, {2: 1, 1: 1}, {6: 14})
    game = Game("portes", position=start)
    game.play("21", "2/off 1/off")
    assert game.result is not None
    assert game.result.points == 1
    game.undo()
    assert not game.is_over
    assert game.result is None
    assert game.position == start


def test_a_game_from_a_finished_position_is_over() -> None:
    game = Game("portes", position=Position.from_checkers("portes", BLACK, {}, {6: 15}))
    assert game.is_over
    with pytest.raises(GameOverError):
        game.play("21", None)


def test_game_over_error_is_a_tavli_error() -> None:
    assert issubclass(GameOverError, TavliError)


def test_position_must_match_the_variant() -> None:
    with pytest.raises(ValueError):
        Game("fevga", position=Position.start("plakoto"))
    with pytest.raises(ValueError):
        Game("fevga,prime_limits=off", position=Position.start("fevga"))
    game = Game("fevga,prime_limits=off", position=Position.start("fevga,prime_limits=off"))
    assert game.variant.name == "fevga"


def test_plakoto_mother_pin_ends_the_game() -> None:
    # White can pin Black's mother on White's 1-point and has left his own start
    start = Position.from_checkers("plakoto", WHITE, {3: 1, 8: 14}, {24: 1, 10: 14})
    game = Game("plakoto", position=start)
    game.play("21", "8/7 3/1*")
    assert game.result is not None
    assert (game.result.winner, game.result.points) == (WHITE, 2)
    single = Game("plakoto,mother_pin=single",
                  position=Position.from_checkers("plakoto,mother_pin=single", WHITE,
                                                  {3: 1, 8: 14}, {24: 1, 10: 14}))
    single.play("21", "8/7 3/1*")
    assert single.result is not None
    assert single.result.points == 1
