"""Each side's chance of winning a match: tavli.study.chances."""

from __future__ import annotations

import pytest

from tavli import BLACK, WHITE, DiceRoller, Position
from tavli.bots import RandomBot
from tavli.bots.match_equity import MatchEquity, Starter
from tavli.bots.neural import Evaluator
from tavli.match import Match, MatchSettings
from tavli.study.chances import chances_of, match_chances

SETTINGS = MatchSettings(length=5)


def test_the_chances_add_up_and_are_the_same_for_either_side_to_move() -> None:
    for white, black in [(0, 0), (3, 1), (1, 4), (4, 4)]:
        found = match_chances(SETTINGS, {WHITE: white, BLACK: black}, 0, Position.start("portes"))
        mirrored = match_chances(SETTINGS, {WHITE: black, BLACK: white}, 0, Position.start("portes", BLACK))
        assert found.white + found.black == pytest.approx(1.0) and 0.0 < found.white < 1.0
        assert found.white == pytest.approx(mirrored.black, abs=1e-9)
        assert found.of(WHITE) == found.white and found.of(BLACK) == found.black
    ahead = match_chances(SETTINGS, {WHITE: 3, BLACK: 0}, 0, Position.start("portes"))
    behind = match_chances(SETTINGS, {WHITE: 0, BLACK: 3}, 0, Position.start("portes"))
    assert ahead.white > 0.5 > behind.white


def test_they_weigh_the_networks_outcomes_by_the_match_equity_after_each() -> None:
    position = Position.start("plakoto")
    p = Evaluator.for_variant("plakoto").probabilities(position)
    found = match_chances(SETTINGS, {WHITE: 2, BLACK: 1}, 1, position)
    table = MatchEquity.for_settings(SETTINGS)
    after = table.after_game(3, 4, 1)
    assert found.white == pytest.approx(after.value(p.win, p.win2, p.lose2))
    assert found.game_win == pytest.approx(p.win)


def test_a_match_won_is_certain_and_a_game_over_looks_to_the_next() -> None:
    won = match_chances(SETTINGS, {WHITE: 1, BLACK: 6}, 3, Position.start("fevga"))
    assert (won.white, won.black, won.game_win) == (0.0, 1.0, None)
    over = Position.from_checkers("portes", BLACK, {}, {1: 15})  # White has borne off everything
    assert over.result() is not None
    found = match_chances(SETTINGS, {WHITE: 3, BLACK: 2}, 0, over)  # the score with the game's points
    assert found.game_win is None  # the next game's starter is rolled for
    assert found.black == pytest.approx(MatchEquity.for_settings(SETTINGS).equity(3, 2, 1, Starter.ROLL_OFF))


def test_chances_of_a_match_follow_its_score_and_game() -> None:
    match = Match(MatchSettings(length=3), DiceRoller(2))
    bot = RandomBot(2)
    while len(match.records) < 2:
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bot.choose(legal)] if len(legal) else None)
    assert chances_of(match) == match_chances(match.settings, match.score, 1, match.game.position)
