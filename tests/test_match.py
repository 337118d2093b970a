"""A match: who starts, the order of games, the score, and when the dice may be rolled."""

from __future__ import annotations

import pytest

from tavli import (
    BLACK,
    WHITE,
    Dice,
    DiceRoller,
    GameOverError,
    IllegalPlayError,
    Plakoto,
    Position,
    TavliError,
)
from tavli.bots import HeuristicBot
from tavli.game import Game
from tavli.match import CLAIMED, TAVLI_SEQUENCE, GameRecord, Match, MatchSettings


class ScriptedRoller(DiceRoller):
    """Single dice and rolls from scripts, then seeded ones; counts the calls."""

    def __init__(self, dice: list[int] | None = None, rolls: list[tuple[int, int]] | None = None,
                 seed: int = 0) -> None:
        super().__init__(seed)
        self.dice = list(dice or [])
        self.rolls = list(rolls or [])
        self.die_calls = 0
        self.roll_calls = 0

    def die(self) -> int:
        self.die_calls += 1
        return self.dice.pop(0) if self.dice else super().die()

    def roll(self) -> Dice:
        self.roll_calls += 1
        if self.rolls:
            return Dice(*self.rolls.pop(0))
        calls = self.die_calls
        dice = super().roll()
        self.die_calls = calls  # only single-die rolls (the roll-off) are counted
        return dice


BOT = HeuristicBot()


def play_turn(match: Match) -> None:
    match.roll()
    legal = match.legal_plays()
    match.play(legal[BOT.choose(legal)] if len(legal) else None)


def finish_game(match: Match) -> Game:
    """Play the current game to its end with the heuristic bot on both sides."""
    game, count = match.game, len(match.records)
    while len(match.records) == count and not match.is_over:
        play_turn(match)
    assert game.is_over
    return game


# near the end of a Plakoto game: White can pin Black's mother while his own mother is
# pinned, which ends the game as a tie
NEAR_TIE = Position.from_checkers("plakoto", WHITE, {24: 1, 3: 1, 6: 13}, {24: 1, 1: 1, 6: 13},
                                  {24: WHITE})


def test_roll_off_decides_who_starts() -> None:
    roller = ScriptedRoller(dice=[3, 5])
    match = Match(MatchSettings(length=3), roller)
    assert match.records[0].opening_rolls == [(3, 5)]
    assert match.turn == BLACK
    assert match.game.turn == BLACK
    assert match.dice is None
    roller = ScriptedRoller(dice=[6, 1])
    match = Match(MatchSettings(length=3), roller)
    assert match.records[0].opening_rolls == [(6, 1)]
    assert match.turn == WHITE


def test_roll_off_is_repeated_on_equal_dice() -> None:
    roller = ScriptedRoller(dice=[4, 4, 6, 6, 2, 6])
    match = Match(MatchSettings(length=3), roller)
    assert match.records[0].opening_rolls == [(4, 4), (6, 6), (2, 6)]
    assert match.turn == BLACK
    assert roller.die_calls == 6


def test_the_starter_rolls_both_dice_for_his_first_turn() -> None:
    roller = ScriptedRoller(dice=[5, 2], rolls=[(6, 2)])
    match = Match(MatchSettings(length=3), roller)
    assert match.turn == WHITE
    assert match.roll() == Dice(6, 2)
    assert roller.roll_calls == 1
    turn = match.play("24/18 13/11")
    assert turn.color == WHITE
    assert match.turn == BLACK


def test_cannot_roll_twice() -> None:
    match = Match(MatchSettings(length=3), ScriptedRoller(dice=[5, 2], rolls=[(6, 2), (3, 1)]))
    match.roll()
    with pytest.raises(IllegalPlayError):
        match.roll()
    with pytest.raises(IllegalPlayError):
        match.roll("31")
    assert match.dice == Dice(6, 2)


def test_cannot_play_before_rolling() -> None:
    match = Match(MatchSettings(length=3), ScriptedRoller(dice=[5, 2]))
    with pytest.raises(IllegalPlayError):
        match.play("24/18 13/11")
    with pytest.raises(IllegalPlayError):
        match.legal_plays()
    assert match.game.history == []


def test_the_roll_is_used_up_by_a_play() -> None:
    match = Match(MatchSettings(length=3), ScriptedRoller(dice=[5, 2]))
    match.roll("62")
    match.play("24/18 13/11")
    assert match.dice is None
    with pytest.raises(IllegalPlayError):
        match.play("24/18 13/11")


def test_an_illegal_play_keeps_the_roll() -> None:
    match = Match(MatchSettings(length=3), ScriptedRoller(dice=[5, 2]))
    match.roll("51")
    with pytest.raises(IllegalPlayError):
        match.play("6/1")
    assert match.dice == Dice(5, 1)
    assert match.turn == WHITE
    match.play("13/8 6/5")
    assert match.turn == BLACK


def test_set_roll_and_legal_plays() -> None:
    match = Match(MatchSettings(length=3), ScriptedRoller(dice=[5, 2]))
    assert match.roll((6, 2)) == Dice(6, 2)
    assert len(match.legal_plays()) == 14
    match2 = Match(MatchSettings(length=3), ScriptedRoller(dice=[5, 2]))
    with pytest.raises(TavliError):
        match2.roll("77")
    assert match2.dice is None


def test_winner_of_a_game_starts_the_next_without_a_roll_off() -> None:
    roller = ScriptedRoller(dice=[1, 6], seed=11)
    match = Match(MatchSettings(length=25), roller)
    assert match.turn == BLACK
    first = finish_game(match)
    assert first.result is not None
    winner = first.result.winner
    assert winner is not None
    assert len(match.records) == 2
    assert match.records[1].opening_rolls == []
    assert match.game.turn == winner
    assert roller.die_calls == 2
    assert match.dice is None


def test_the_usual_sequence_of_games() -> None:
    match = Match(MatchSettings(length=99), ScriptedRoller(dice=[2, 5], seed=3))
    assert match.settings.games == TAVLI_SEQUENCE
    for _ in range(3):
        finish_game(match)
    assert [g.variant.name for g in match.games] == ["portes", "plakoto", "fevga", "portes"]


def test_custom_order_and_house_rules() -> None:
    settings = MatchSettings(length=99, games=("fevga", "portes"), prime_limits=False,
                             mother_pin="single")
    assert [str(settings.variant(i)) for i in range(4)] == [
        "fevga,prime_limits=off", "portes", "fevga,prime_limits=off", "portes"]
    match = Match(settings, ScriptedRoller(dice=[2, 5], seed=4))
    assert str(match.game.variant) == "fevga,prime_limits=off"
    finish_game(match)
    assert match.game.variant.name == "portes"
    plakoto = MatchSettings(games=("plakoto",), mother_pin="single")
    assert plakoto.variant(0) == Plakoto(mother_pin="single")
    assert plakoto.variant(5) == Plakoto(mother_pin="single")


def test_single_game_match() -> None:
    match = Match(MatchSettings(length=99, games=("plakoto",)), ScriptedRoller(dice=[2, 5], seed=5))
    finish_game(match)
    finish_game(match)
    assert [g.variant.name for g in match.games] == ["plakoto"] * 3


def test_score_adds_up_and_the_match_ends_at_n() -> None:
    match = Match(MatchSettings(length=5, games=("portes",)), ScriptedRoller(dice=[2, 5], seed=6))
    expected = {WHITE: 0, BLACK: 0}
    while not match.is_over:
        game = finish_game(match)
        assert game.result is not None
        if game.result.winner is not None:
            expected[game.result.winner] += game.result.points
        assert match.score == expected
    assert max(expected.values()) >= 5
    assert min(expected.values()) < 5
    winner = match.winner
    assert winner is not None
    assert match.score[winner] >= 5
    # the match stopped right when the winner got there
    last = match.game.result
    assert last is not None and last.winner == winner
    assert match.score[winner] - last.points < 5
    assert match.game is match.games[-1]
    with pytest.raises(GameOverError):
        match.roll()
    with pytest.raises(GameOverError):
        match.play(None)


def test_one_point_match() -> None:
    match = Match(MatchSettings(length=1, games=("portes",)), ScriptedRoller(dice=[2, 5], seed=7))
    finish_game(match)
    assert match.is_over
    assert len(match.records) == 1
    assert match.winner is not None


def test_not_over_while_below_n() -> None:
    match = Match(MatchSettings(length=3), ScriptedRoller(dice=[2, 5]))
    assert match.winner is None
    assert not match.is_over
    assert match.score == {WHITE: 0, BLACK: 0}


def test_after_a_tie_the_roll_off_happens_again() -> None:
    roller = ScriptedRoller(dice=[6, 2, 3, 3, 1, 5])
    match = Match(MatchSettings(length=3, games=("plakoto",)), roller)
    assert match.turn == WHITE
    match.records[-1] = GameRecord(Game(match.game.variant, position=NEAR_TIE), [(6, 2)])
    match.roll("21")
    match.play("6/5 3/1*")
    tied = match.games[0]
    assert tied.result is not None
    assert tied.result.winner is None
    assert match.score == {WHITE: 0, BLACK: 0}
    assert len(match.records) == 2
    assert match.records[1].opening_rolls == [(3, 3), (1, 5)]
    assert match.turn == BLACK
    assert roller.die_calls == 6


def test_settings_validation() -> None:
    for length in (0, -1):
        with pytest.raises(TavliError) as info:
            MatchSettings(length=length)
        assert "1 point or more" in str(info.value)
    with pytest.raises(TavliError) as info:
        MatchSettings(games=("chess",))
    assert "chess" in str(info.value)
    with pytest.raises(TavliError):
        MatchSettings(games=())
    with pytest.raises(TavliError):
        MatchSettings(mother_pin="never")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MatchSettings(length=0)


def test_parse_games() -> None:
    assert MatchSettings.parse_games("tavli") == TAVLI_SEQUENCE
    assert MatchSettings.parse_games("") == TAVLI_SEQUENCE
    assert MatchSettings.parse_games("portes") == ("portes",)
    assert MatchSettings.parse_games("Fevga, portes") == ("fevga", "portes")
    with pytest.raises(TavliError):
        MatchSettings.parse_games("fevga,chess")


def test_default_settings_and_roller() -> None:
    match = Match()
    assert match.settings == MatchSettings()
    assert match.settings.length == 5
    rolls = match.records[0].opening_rolls
    assert rolls and rolls[-1][0] != rolls[-1][1]
    assert all(a == b for a, b in rolls[:-1])
    assert all(1 <= v <= 6 for pair in rolls for v in pair)
    dice = match.roll()
    assert 1 <= dice.first <= 6 and 1 <= dice.second <= 6


def test_seeded_matches_are_reproducible() -> None:
    def run(seed: int) -> list[str]:
        match = Match(MatchSettings(length=1, games=("fevga",)), DiceRoller(seed=seed))
        finish_game(match)
        return [str(t) for t in match.game.history]

    assert run(9) == run(9)


def test_a_claimed_game_ends_for_a_reason_said_in_greek_too() -> None:
    match = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=1))
    result = match.concede(BLACK, CLAIMED)
    assert str(result.words()) == "White wins 1 point (claimed: the opponent was absent)"
    assert result.words().words("el") == "τα Λευκά κερδίζουν 1 πόντο (διεκδικήθηκε: ο αντίπαλος έλειπε)"


def test_a_match_is_aborted_only_before_both_sides_have_played() -> None:
    match = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=2))
    first = match.turn
    match.roll()
    assert match.can_abort  # a roll is no play
    match.play(match.legal_plays()[0])
    assert match.can_abort  # one side has played
    match.roll()
    assert match.can_abort
    match.play(match.legal_plays()[0])
    assert not match.can_abort and match.game.history[0].color == first
    with pytest.raises(IllegalPlayError, match="only before both sides have played"):
        match.abort()


def test_an_aborted_match_is_over_with_no_winner_and_no_points() -> None:
    match = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=2))
    match.roll()
    result = match.abort()
    assert result.winner is None and result.points == 0 and result.reason == "aborted"
    assert match.is_over and match.aborted and match.winner is None and match.dice is None
    assert match.score == {WHITE: 0, BLACK: 0} and len(match.records) == 1 and not match.can_abort
    assert str(result) == "no result (aborted)" and result.words().words("el") == "χωρίς αποτέλεσμα (ακυρώθηκε)"
    with pytest.raises(GameOverError):
        match.roll()
    with pytest.raises(GameOverError):
        match.abort()


def test_a_match_past_its_first_game_cannot_be_aborted() -> None:
    match = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=2))
    match.concede(WHITE, CLAIMED)
    assert not match.can_abort and not match.aborted
