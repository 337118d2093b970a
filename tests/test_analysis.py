"""Analysis: losses, forced plays, luck, the figures per game and player, and planted blunders."""

from __future__ import annotations

import json
import random

import pytest

from tavli import Dice, Position
from tavli.bots import Player, RandomBot
from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import NeuralBot
from tavli.dice import DiceRoller
from tavli.game import Game
from tavli.match import Match, MatchSettings
from tavli.study.analysis import (
    THRESHOLDS,
    AnalysisError,
    GameInput,
    MatchAnalysis,
    Thresholds,
    analyse_game,
    analyse_games,
    analyse_match,
    evaluate_decision,
    rank_plays,
)
from tavli.variants import BLACK, GAMES, WHITE, Portes


def board(variant: str, spec: dict[int, str]) -> Position:
    return Position.from_string(f"{variant} {''.join(spec.get(p, '.') for p in range(1, 25))} w 0:0 0:0")


# White's mother and one more checker on 24, Black's checkers 2 and 4 pips from it
# and none left on his own start: a pinned mother loses the game double at once.
PLAKOTO = board("plakoto", {24: "2w", 17: "3w", 14: "3w", 9: "3w", 6: "4w",
                            22: "2b", 20: "2b", 16: "3b", 11: "3b", 8: "3b", 3: "2b"})
# White's seven-point prime (2 to 8) holds six Black checkers on 9 and 10.
FEVGA = board("fevga", {8: "1w", 7: "1w", 6: "1w", 5: "1w", 4: "1w", 3: "1w", 2: "1w", 23: "4w", 21: "4w",
                        10: "3b", 9: "3b", 13: "3b", 14: "3b", 16: "3b"})


@pytest.mark.slow
@pytest.mark.parametrize("depth", [0, 1])
def test_leaving_the_mother_to_be_pinned_is_a_blunder(depth: int) -> None:
    d = evaluate_decision(PLAKOTO, Dice(6, 5), "24/18 14/9", depth)
    assert d.skill == "blunder" and d.loss > 1.0
    assert d.best == "17/6" and not d.forced
    best = evaluate_decision(PLAKOTO, Dice(6, 5), d.best, depth)
    assert best.loss == 0.0 and best.skill == ""


@pytest.mark.parametrize("depth", [0, 1])
def test_breaking_a_prime_for_nothing_is_a_blunder(depth: int) -> None:
    d = evaluate_decision(FEVGA, Dice(4, 2), "8/2", depth)
    assert d.skill == "blunder" and d.loss >= THRESHOLDS["fevga"].blunder
    quiet = evaluate_decision(FEVGA, Dice(4, 2), d.best, depth)
    assert quiet.loss == 0.0 and quiet.best not in ("8/2", "8/4 6/4")


def test_the_played_play_is_valued_at_the_depth_of_the_best() -> None:
    # at 2 plies only the plays near the best are searched deeply; the played one is searched too
    d = evaluate_decision(PLAKOTO, Dice(6, 5), "24/18 14/9", 2)
    played = next(c for c in d.candidates if c.play == d.played)
    assert played.depth == d.candidates[0].depth == 2
    assert d.loss == pytest.approx(d.candidates[0].equity - played.equity)


@pytest.mark.slow
def test_three_plies_search_the_played_play_as_deep_as_the_best() -> None:
    d = evaluate_decision(Position.start("portes"), Dice(6, 5), "13/7 13/8", 3)
    assert d.depth == 3 and d.candidates[0].depth == 3
    played = next(c for c in d.candidates if c.play == d.played)
    assert played.depth == 3 and d.best == "24/13"
    assert d.skill in ("doubtful", "error")  # about 0.08 points, at the border of the two
    assert d.loss == pytest.approx(d.candidates[0].equity - played.equity)
    assert sum(c.depth == 3 for c in d.candidates) <= 3  # FILTER's 2, and the played play


@pytest.mark.parametrize("depth", [0, 1, 2])
def test_rank_plays_ranks_every_play_as_a_decision_ranks_its_best(depth: int) -> None:
    dice = Dice(6, 5)
    ranked = rank_plays(PLAKOTO, dice, depth)
    legal = PLAKOTO.legal_plays(dice)
    assert sorted(str(r.play) for r in ranked) == sorted(str(p) for p in legal)
    assert ranked[0].depth == depth and ranked[0].loss == 0.0 and ranked[0].skill == ""
    assert [r.depth for r in ranked] == sorted((r.depth for r in ranked), reverse=True)
    for r in ranked:
        assert r.loss == pytest.approx(ranked[0].equity - r.equity)
        assert r.skill == THRESHOLDS["plakoto"].skill(r.loss)
    # the decision's candidates are the ranking's first plays, with the same values
    decision = evaluate_decision(PLAKOTO, dice, str(ranked[0].play), depth)
    assert [c.play for c in decision.candidates] == [str(r.play) for r in ranked[:len(decision.candidates)]]
    assert decision.candidates[0].equity == pytest.approx(ranked[0].equity)


@pytest.mark.slow
def test_rank_plays_of_a_pass_a_single_play_and_a_finished_game() -> None:
    shut = Position.from_string("portes ......3b.....12w.....2b2b2b2b2b2b w 3:0 0:0")
    assert rank_plays(shut, Dice(6, 5)) == []
    forced = Position.from_checkers("portes", WHITE, {25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2})
    [only] = rank_plays(forced, Dice(6, 6), 2)
    assert only.depth == 0 and only.loss == 0.0
    with pytest.raises(AnalysisError, match="the game is over"):
        rank_plays(Position.from_checkers("portes", BLACK, {}, {6: 15}), Dice(3, 1))
    with pytest.raises(AnalysisError, match="depth is 0 to 3 plies, not 4"):
        rank_plays(shut, Dice(6, 5), 4)


def test_forced_plays_and_passes_are_marked_and_cost_nothing() -> None:
    # Portes, White on the bar against a closed board: no play
    shut = Position.from_string("portes ......3b.....12w.....2b2b2b2b2b2b w 3:0 0:0")
    d = evaluate_decision(shut, Dice(6, 5), "", 1)
    assert d.forced and d.played == "" and d.loss == 0.0 and d.skill == ""
    with pytest.raises(AnalysisError, match="cannot be played"):
        evaluate_decision(shut, Dice(6, 5), "13/7", 1)
    with pytest.raises(AnalysisError, match="game 3, turn 7"):
        evaluate_decision(PLAKOTO, Dice(6, 5), "24/1", 1, game=2, turn=7)
    with pytest.raises(AnalysisError, match="depth is 0 to 3 plies, not 4"):
        evaluate_decision(PLAKOTO, Dice(6, 5), "17/6", 4)


def test_thresholds_classify_losses() -> None:
    t = Thresholds(0.04, 0.08, 0.16)
    assert [t.skill(x) for x in (0.0, 0.039, 0.04, 0.08, 0.159, 0.16, 2.0)] == \
        ["", "", "doubtful", "error", "error", "blunder", "blunder"]
    for rule in THRESHOLDS.values():
        assert 0 < rule.doubtful < rule.error < rule.blunder
    # a house rule's game is judged as its game; a variant that is none raises
    assert Thresholds.of("fevga,prime_limits=off") is THRESHOLDS["fevga"] is not THRESHOLDS["portes"]
    assert Thresholds.of(Position.start("plakoto").variant) is THRESHOLDS["plakoto"]
    with pytest.raises(ValueError):
        Thresholds.of("tavla")


def play_game(variant: str, white: Player, black: Player, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(variant, WHITE if seed % 2 == 0 else BLACK)
    seats = {WHITE: white, BLACK: black}
    while not game.is_over:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        legal = game.legal_plays(dice)
        game.play(dice, legal[seats[game.turn].choose(legal)] if len(legal) else None)
    return game


def test_a_game_adds_up() -> None:
    game = play_game("portes", NeuralBot("beginner", seed=1), RandomBot(seed=1), 4)
    found = analyse_game(game, depth=0, workers=1)
    assert isinstance(found, MatchAnalysis) and len(found.games) == 1
    g = found.games[0]
    assert len(g.decisions) == len(game.history) and g.finished
    assert [d.turn for d in g.decisions] == list(range(1, len(game.history) + 1))
    assert game.result is not None and g.winner == game.result.winner and g.points == game.result.points
    white, black = g.players[WHITE], g.players[BLACK]
    assert white.decisions + black.decisions == len(game.history)
    assert white.result == -black.result == (g.points if g.winner == WHITE else -g.points)
    assert white.luck_adjusted == pytest.approx(-black.luck_adjusted)
    assert white.luck_adjusted == pytest.approx(white.result - white.luck + black.luck)
    for color, stats in g.players.items():
        mine = [d for d in g.decisions if d.color == color]
        unforced = [d for d in mine if not d.forced]
        assert stats.unforced == len(unforced) < stats.decisions == len(mine)
        assert stats.error_rate == pytest.approx(1000 * sum(d.loss for d in unforced) / len(unforced))
        assert stats.blunders == sum(d.skill == "blunder" for d in mine)
        assert stats.luck == pytest.approx(sum(d.luck for d in mine))
    for d in g.decisions:
        assert d.loss >= 0 and 0 <= d.white_win <= 1
        assert (d.loss == 0) == (d.played == d.best) or d.forced
    # the same figures whichever way the work is shared out
    again = analyse_game(game, depth=0, workers=2)
    assert again.decisions == found.decisions


def test_a_match_and_its_json() -> None:
    settings = MatchSettings(length=3, games=GAMES)
    match = Match(settings, DiceRoller(seed=5))
    bots = {WHITE: RandomBot(seed=2), BLACK: NeuralBot("advanced")}
    while not match.is_over:
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bots[match.turn].choose(legal)] if len(legal) else None)
    seen: list[tuple[int, int]] = []
    found = analyse_match(match, depth=0, workers=2, progress=lambda done, total: seen.append((done, total)))
    total = sum(len(g.history) for g in match.games)
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [g.variant for g in found.games] == [str(g.variant) for g in match.games]
    players = found.players
    assert players[WHITE].result == match.score[WHITE] - match.score[BLACK]
    assert players[WHITE].error_rate > players[BLACK].error_rate
    data = json.loads(json.dumps(found.to_json()))
    assert set(data["players"]) == {"white", "black"}
    for seat in data["players"].values():
        assert {"error_rate", "errors", "blunders", "luck"} <= set(seat)
    assert len(data["decisions"]) == total
    first = data["decisions"][0]
    assert {"game", "turn", "player", "dice", "played", "best", "loss"} <= set(first)
    assert data["depth"] == 0 and data["thresholds"]["plakoto"]["blunder"] > 0
    mistakes = found.mistakes(3)
    assert [m.loss for m in mistakes] == sorted((m.loss for m in mistakes), reverse=True)
    # a match is analysed at its score: MWC losses, and per-player totals that add up
    assert found.length == 3 and data["match_length"] == 3
    assert found.games[0].score == {WHITE: 0, BLACK: 0}
    for g in found.games:
        for color, stats in g.players.items():
            unforced = [d for d in g.decisions if d.color == color and not d.forced]
            assert stats.mwc_loss == pytest.approx(sum(d.mwc_loss or 0.0 for d in unforced))
    for color in (WHITE, BLACK):
        assert players[color].mwc_loss == pytest.approx(sum(g.players[color].mwc_loss or 0.0 for g in found.games))
        assert data["players"][str(color).lower()]["mwc_loss"] == pytest.approx(players[color].mwc_loss, abs=1e-5)
    assert (players[WHITE].mwc_loss or 0.0) > (players[BLACK].mwc_loss or 0.0)
    for d in found.decisions:
        assert d.mwc_loss is not None and d.mwc_loss >= 0.0 and d.away is not None
        mwcs = [c.mwc for c in d.candidates if c.depth == d.candidates[0].depth]
        assert all(m is not None and 0.0 <= m <= 1.0 for m in mwcs)
        assert mwcs == sorted(mwcs, reverse=True)  # type: ignore[type-var]
        if d.played == d.best or d.forced:
            assert d.mwc_loss == 0.0
        else:
            played = next(c for c in d.candidates if c.play == d.played)
            assert d.mwc_loss == pytest.approx((d.candidates[0].mwc or 0.0) - (played.mwc or 0.0))
    assert all("mwc_loss" in d and "mwc" in d["candidates"][0] for d in data["decisions"])


# Black to play 6-6 in Portes, 2-away against White 1-away: the blitz (hitting two and closing
# the board) wins a 2-point game, and the match, twice as often as the quiet run, which is
# better for points; at this score Black loses nothing more by a 2-point loss than by a 1-point one.
GAMMON_GO = Position.from_string("portes 2b.2w..5w.4w...4b2w...2b2b5b...1w1w b 0:0 0:0")
BLITZ, RUN = "8/2* 8/2 7/1* 7/1", "24/18(2) 13/7(2)"


def planted(play: str, in_match: bool = True) -> MatchAnalysis:
    """The gammon-go decision as the fourth game of a Portes match to 5 at 3-4 (Black 2-away),
    the earlier games resigned; or as a single game."""
    game = Game("portes", BLACK, position=GAMMON_GO)
    game.play(Dice(6, 6), play)
    if not in_match:
        return analyse_games([GameInput.of(game)], depth=1, workers=1)
    earlier = [GameInput(Portes(), [], WHITE, 2, True), GameInput(Portes(), [], BLACK, 2, True),
               GameInput(Portes(), [], WHITE, 2, True), GameInput(Portes(), [], BLACK, 1, True)]
    return analyse_games([*earlier, GameInput.of(game)], depth=1, workers=1,
                         match=MatchSettings(length=5, games=("portes",)))


def test_a_gammonish_play_is_best_for_the_match_but_not_for_points() -> None:
    match = planted(RUN)
    assert match.games[-1].score == {WHITE: 4, BLACK: 3}
    (d,) = match.games[-1].decisions
    assert d.away == (2, 1) and d.best == BLITZ and d.played == RUN
    blitz, run = d.candidates[0], next(c for c in d.candidates if c.play == RUN)
    assert blitz.mwc is not None and run.mwc is not None
    assert blitz.mwc > run.mwc and blitz.equity < run.equity and blitz.win2 > run.win2 + 0.05
    assert d.mwc_loss == pytest.approx(blitz.mwc - run.mwc) and d.mwc_loss > 0.005
    assert blitz.loss == 0.0 and run.loss == pytest.approx(d.loss)
    # the loss in points is the MWC loss in points of a game at this score (EMG)
    after = MatchScore.at(MatchSettings(length=5, games=("portes",)), 2, 1, 3).after_game()
    assert d.loss == pytest.approx(d.mwc_loss / ((after.win1 - after.lose1) / 2))
    assert match.players[BLACK].mwc_loss == pytest.approx(d.mwc_loss)
    assert match.players[WHITE].mwc_loss == 0.0 and match.players[WHITE].unforced == 0
    right = planted(BLITZ)
    assert right.decisions[0].mwc_loss == 0.0 and right.decisions[0].loss == 0.0
    # for points per game (a single game) the run is the best play, and nothing is said of the match
    money = planted(BLITZ, in_match=False)
    (m,) = money.decisions
    assert m.best == RUN and m.loss > 0.02 and m.mwc_loss is None and m.candidates[0].mwc is None
    assert money.length is None and money.players[BLACK].mwc_loss is None
    assert "match_length" in money.to_json() and "mwc_loss" not in money.to_json()["decisions"][0]


def test_a_game_after_the_match_is_over_cannot_be_analysed_at_a_score() -> None:
    won = GameInput(Portes(), [], WHITE, 2, True)
    game = GameInput.of(play_game("portes", RandomBot(seed=1), RandomBot(seed=2), 0))
    with pytest.raises(AnalysisError, match="game 2: the match to 2 was over"):
        analyse_games([won, game], depth=0, workers=1, match=MatchSettings(length=2, games=("portes",)))


@pytest.mark.slow
@pytest.mark.parametrize("variant", GAMES)
def test_error_rates_order_the_players(variant: str) -> None:
    """random >> beginner >> expert, over a few games each (0-ply analysis)."""
    low = [play_game(variant, RandomBot(seed=s), NeuralBot("beginner", seed=s), s) for s in range(2)]
    high = [play_game(variant, NeuralBot("beginner", seed=s), NeuralBot("expert"), s) for s in range(2, 5)]
    a = analyse_games([GameInput.of(g) for g in low], depth=0, workers=1).players
    b = analyse_games([GameInput.of(g) for g in high], depth=0, workers=1).players
    random_rate = a[WHITE].error_rate
    beginner_rate = (a[BLACK] + b[WHITE]).error_rate
    expert_rate = b[BLACK].error_rate
    assert random_rate > 2 * beginner_rate
    assert beginner_rate > 1.5 * expert_rate
    assert expert_rate < 10


def test_a_record_with_a_resignation_and_a_game_going_on() -> None:
    from tavli.formats.record import MatchRecord, PlayerInfo
    from tavli.study.analysis import analyse_record

    match = Match(MatchSettings(length=3, games=("plakoto",)), DiceRoller(seed=9))
    bot = NeuralBot("advanced")
    for _ in range(10):
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bot.choose(legal)] if len(legal) else None)
    match.concede(WHITE, "resigned", points=2)
    for _ in range(3):
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bot.choose(legal)] if len(legal) else None)
    record = MatchRecord.from_match(match, {WHITE: PlayerInfo("human", "Ada"), BLACK: PlayerInfo("bot", "advanced")})
    found = analyse_record(record, depth=0, workers=1)
    first, second = found.games
    assert (first.finished, first.winner, first.points) == (True, BLACK, 2)
    assert first.players[BLACK].result == 2 and len(first.decisions) == 10
    assert (second.finished, second.winner, second.points, len(second.decisions)) == (False, None, 0, 3)
    assert found.names == {WHITE: "Ada", BLACK: "bot advanced"}
    assert found.players[WHITE].result == -2


def test_rank_plays_at_a_match_score_plays_for_the_match() -> None:
    # docs/match-equity.md, "Gammon-go: the trailer hits": Black trails 1-2 in a match to 3
    position = Position.from_string("portes 2w2w3w.2w3w3b..1b.2b2w1b..1w.4b.2b.2b. b 0:0 0:0")
    score = MatchScore.in_game("portes", mine=1, theirs=2, length=3, games=GAMES)
    for_points, for_match = rank_plays(position, Dice(5, 1), 2), rank_plays(position, Dice(5, 1), 2, score=score)
    assert str(for_points[0].play) == "15/10 11/10" and for_points[0].mwc is None
    assert str(for_match[0].play) == "13/8* 11/10" and for_match[0].mwc_loss == 0.0
    assert for_match[0].equity < next(r.equity for r in for_match if str(r.play) == "15/10 11/10")
    searched = [r for r in for_match if r.depth == 2]
    assert [r.mwc for r in searched] == sorted((r.mwc for r in searched), reverse=True)
