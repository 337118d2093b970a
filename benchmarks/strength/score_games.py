"""What playing the score gains at one score: single games, the same dice played twice.

    .venv/bin/python benchmarks/strength/score_games.py --game portes --away 2,1 [--level advanced]
        [--games N] [--jobs J] [--seed X] [--length L]

The side that needs ``NEED`` points against ``OPP`` (``--away NEED,OPP``, in a
match of ``--length`` points, one game of ``--game`` after another) plays one
game against score-blind play twice on the same dice: once choosing for the
match (``NeuralBot.choose(legal, MatchScore)``), once for points like his
opponent. Each game is worth his match-winning chance after its outcome
(``tavli.bots.match_equity.AfterGame``), less the luck of its rolls in that chance (each
roll's worth to the roller by the network at 0 ply against the mean of the 36
throws, both sides at their own score: ``Evaluator.luck``). The difference
between the two plays of the same dice is the gain; games alternate who
starts. Prints the mean gain in points of match-winning chance with its 95%
interval, and the same without the luck taken off.

``benchmarks/strength/matchplay.py`` measures whole matches; this one finds which
scores and games the difference comes from, with far fewer games.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics

from tavli.bots.match_equity import AfterGame, MatchScore
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.dice import Dice
from tavli.match import MatchSettings
from tavli.position import Position
from tavli.variants import BLACK, WHITE, Color

MAX_TURNS = 2000


def worth(after: AfterGame, winner: Color | None, points: int, me: Color) -> float:
    """My match-winning chance after the game's result."""
    if winner is None:
        return after.tie
    if winner == me:
        return after.win1 if points == 1 else after.win2
    return after.lose1 if points == 1 else after.lose2


def play(game: str, mine: MatchScore, his: MatchScore, level: str, me: Color, aware: bool,
         seed: int) -> tuple[float, float]:
    """One game with the dice of ``seed``, White starting; my match-winning chance after it and
    my luck in it."""
    rng = random.Random(seed)
    bot, ev = NeuralBot(level, seed=seed), Evaluator.for_variant(game)
    my_after, his_after = mine.after_game(), his.after_game()
    position, luck = Position.start(game, WHITE), 0.0
    for _ in range(MAX_TURNS):
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        mover_is_me = position.turn == me
        x = ev.luck(position, dice, my_after if mover_is_me else his_after)
        luck += x if mover_is_me else -x
        legal = position.legal_plays(dice)
        if len(legal) == 0:
            position = position.pass_turn()
        else:
            position = legal.after(bot.choose(legal, mine if mover_is_me and aware else None))
        result = position.result()
        if result is not None:
            return worth(my_after, result.winner, result.points, me), luck
    raise RuntimeError(f"game not over after {MAX_TURNS} turns")


def pair(job: tuple[str, int, int, int, str, int]) -> tuple[float, float]:
    """The gain, less luck and plain, of playing the score in game ``k``."""
    game, length, need, opp, level, k = job
    settings = MatchSettings(length=length, games=(game,))
    mine, his = MatchScore.at(settings, need, opp, 0), MatchScore.at(settings, opp, need, 0)
    me = WHITE if k % 2 == 0 else BLACK
    aware, aware_luck = play(game, mine, his, level, me, True, k)
    blind, blind_luck = play(game, mine, his, level, me, False, k)
    return (aware - aware_luck) - (blind - blind_luck), aware - blind


def ci95(values: list[float]) -> float:
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="portes")
    parser.add_argument("--away", default="2,1", help="NEED,OPP: the points each side still needs")
    parser.add_argument("--length", type=int, default=7)
    parser.add_argument("--level", default="advanced")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    need, opp = (int(x) for x in args.away.split(","))
    if not (1 <= need <= args.length and 1 <= opp <= args.length):
        parser.error(f"--away needs 1 to {args.length} points each (--length), not {args.away}")
    jobs = [(args.game, args.length, need, opp, args.level, args.seed * 1_000_003 + k) for k in range(args.games)]
    with multiprocessing.Pool(args.jobs) as pool:
        found = pool.map(pair, jobs, chunksize=8)
    less_luck, plain = [f[0] for f in found], [f[1] for f in found]
    after = MatchScore.at(MatchSettings(length=args.length, games=(args.game,)), need, opp, 0).after_game()
    print(f"{args.game} at {need}-away/{opp}-away ({args.level}, {args.games} games): playing the score gains "
          f"{100 * statistics.mean(less_luck):+.2f} ± {100 * ci95(less_luck):.2f} points of match-winning chance "
          f"less luck ({100 * statistics.mean(plain):+.2f} ± {100 * ci95(plain):.2f} plain); after a win of 1 or 2, "
          f"a loss of 1 or 2: {after.win1:.3f} {after.win2:.3f} {after.lose1:.3f} {after.lose2:.3f}")


if __name__ == "__main__":
    main()
