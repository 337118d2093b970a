"""The built-in bots: the random bot is reproducible, the heuristic one plays well."""

from __future__ import annotations

import random

import pytest

from tavli import BLACK, WHITE, Color, Dice, Position
from tavli.bots import BOTS, HeuristicBot, Player, RandomBot, make_bot
from tavli.game import Game
from tavli.variants import GAMES


def positions_along_a_game(game: str, seed: int, turns: int = 40) -> list[tuple[Position, Dice]]:
    rng = random.Random(seed)
    bot = RandomBot(seed)
    pos = Position.start(game)
    out = []
    for _ in range(turns):
        if pos.result() is not None:
            break
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        legal = pos.legal_plays(dice)
        out.append((pos, dice))
        pos = legal.after(bot.choose(legal)) if len(legal) else pos.pass_turn()
    return out


@pytest.mark.parametrize("game", GAMES)
def test_random_bot_returns_valid_indices(game: str) -> None:
    bot = RandomBot(seed=1)
    seen = set()
    for pos, dice in positions_along_a_game(game, 2):
        legal = pos.legal_plays(dice)
        if not len(legal):
            continue
        for _ in range(5):
            k = bot.choose(legal)
            assert isinstance(k, int)
            assert 0 <= k < len(legal)
            seen.add(k)
    assert len(seen) > 3  # not stuck on one index


def test_random_bot_is_reproducible_with_a_seed() -> None:
    legal = Position.start("portes").legal_plays("62")
    a, b = RandomBot(seed=7), RandomBot(seed=7)
    picks_a = [a.choose(legal) for _ in range(50)]
    picks_b = [b.choose(legal) for _ in range(50)]
    assert picks_a == picks_b
    assert picks_a != [RandomBot(seed=8).choose(legal) for _ in range(50)]


def test_random_bot_covers_every_play() -> None:
    legal = Position.start("portes").legal_plays("62")
    bot = RandomBot(seed=3)
    assert {bot.choose(legal) for _ in range(500)} == set(range(14))


@pytest.mark.parametrize("game", GAMES)
def test_heuristic_bot_returns_valid_indices(game: str) -> None:
    bot = HeuristicBot()
    for pos, dice in positions_along_a_game(game, 4):
        legal = pos.legal_plays(dice)
        if len(legal):
            k = bot.choose(legal)
            assert 0 <= k < len(legal)
            assert bot.choose(legal) == k  # deterministic


def test_heuristic_bears_off_the_last_checkers() -> None:
    # 6/off 5/off wins; 6/1 5/off does not
    pos = Position.from_checkers("portes", WHITE, {6: 1, 5: 1}, {13: 15})
    legal = pos.legal_plays("65")
    assert {str(p) for p in legal} == {"6/off 5/off", "6/1 5/off"}
    chosen = legal.after(HeuristicBot().choose(legal))
    result = chosen.result()
    assert result is not None
    assert result.winner == WHITE


def test_heuristic_bears_off_as_black_too() -> None:
    pos = Position.from_checkers("portes", BLACK, {13: 15}, {6: 1, 5: 1})
    legal = pos.legal_plays("65")
    result = legal.after(HeuristicBot().choose(legal)).result()
    assert result is not None
    assert result.winner == BLACK


def test_heuristic_pins_the_mother_to_win() -> None:
    # White has left his start; 3/1* pins Black's mother and wins two points
    pos = Position.from_checkers("plakoto", WHITE, {3: 1, 8: 14}, {24: 1, 10: 14})
    legal = pos.legal_plays("21")
    winning = [k for k in range(len(legal)) if legal.after(k).result() is not None]
    assert len(winning) == 1
    assert len(legal) > 1
    k = HeuristicBot().choose(legal)
    assert k == winning[0]
    assert str(legal[k]) == "8/7 3/1*"
    result = legal.after(k).result()
    assert result is not None
    assert (result.winner, result.points) == (WHITE, 2)


def test_heuristic_prefers_the_double_win() -> None:
    # with Black having borne off nothing, bearing off the last two wins 2 points,
    # the alternative wins nothing yet
    pos = Position.from_checkers("portes", WHITE, {2: 1, 1: 1}, {13: 15})
    legal = pos.legal_plays("21")
    result = legal.after(HeuristicBot().choose(legal)).result()
    assert result is not None
    assert result.points == 2


def test_heuristic_opening_moves_are_sensible() -> None:
    bot = HeuristicBot()
    legal = Position.start("portes").legal_plays("31")
    assert str(legal[bot.choose(legal)]) == "8/5 6/5"


def play_match_up(game: str, games: int, seed: int) -> tuple[int, int]:
    """Heuristic against random, alternating colours and who starts: (heuristic wins, points)."""
    rng = random.Random(seed)
    heuristic, rand = HeuristicBot(), RandomBot(seed)
    wins = points = 0
    for index in range(games):
        hcolor = WHITE if index % 2 == 0 else BLACK
        seats: dict[Color, Player] = {hcolor: heuristic, hcolor.other: rand}
        g = Game(game, WHITE if index % 4 < 2 else BLACK)
        while not g.is_over:
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            legal = g.legal_plays(dice)
            g.play(dice, legal[seats[g.turn].choose(legal)] if len(legal) else None)
        assert g.result is not None
        if g.result.winner == hcolor:
            wins += 1
            points += g.result.points
        elif g.result.winner is not None:
            points -= g.result.points
    return wins, points


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_heuristic_beats_random(game: str) -> None:
    wins, points = play_match_up(game, 60, seed=2024)
    assert wins >= 42, f"heuristic won only {wins} of 60 {game} games"
    assert points > 40


def test_make_bot() -> None:
    assert BOTS == ("random", "heuristic", "beginner", "casual", "intermediate", "advanced", "expert",
                    "champion")
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    expert = make_bot("expert", random.Random(1))
    assert expert.name == "expert" and type(expert).__name__ == "NeuralBot"
    bot = make_bot("random", random.Random(1))
    assert isinstance(bot, RandomBot)
    legal = Position.start("portes").legal_plays("62")
    again = make_bot("random", random.Random(1))
    assert [bot.choose(legal) for _ in range(20)] == [again.choose(legal) for _ in range(20)]
    assert make_bot("random").name == "random"
    with pytest.raises(ValueError) as info:
        make_bot("gnubg")
    assert "gnubg" in str(info.value)
