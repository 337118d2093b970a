"""What the network itself expects playing the score to gain in a Tavli match.

    .venv/bin/python benchmarks/strength/score_gain.py [--length 5] [--matches 100] [--seed 5000] [--jobs 2]

Plays ``--matches`` matches (the Tavli order) in which both sides choose at
the advanced level for points per game, as the score-blind side of
``benchmarks/strength/matchplay.py`` does. At every decision where the score-aware
choice (``NeuralBot.choose(legal, score)``, 0 ply) differs from the play
made, both plays are valued in match-winning chance by the network at 0 ply
and at 1 ply (every play searched), and the aware play's lead is added up.

Prints, per match and for both sides together, the chance of winning the
match that score-blind play gives away by the network's own judgement at
each depth, with a 95% interval at 1 ply (matches as samples), and how often
the 1-ply search agrees that the aware play is the better. To first order
(the performance-difference identity) this is what a score-aware side would
gain against a score-blind one if the network's chances were exact; set
beside ``matchplay.py``'s measured gain, the difference is the network's own
error in the choices where the score matters.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time

from tavli.bots.match_equity import MatchScore
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.dice import DiceRoller
from tavli.match import Match, MatchSettings


def expected_gain(job: tuple[int, int]) -> tuple[float, float, int, int]:
    """One match from seed ``job[1]`` at length ``job[0]``: the aware plays' lead by 0 ply and by
    1 ply (both sides), the decisions where the choices differ, and those where 1 ply agrees."""
    length, seed = job
    bot = NeuralBot("advanced")
    match = Match(MatchSettings(length=length), DiceRoller(seed))
    by0 = by1 = 0.0
    differ = agree = 0
    while not match.is_over:
        score = MatchScore.of(match)
        match.roll()
        legal = match.legal_plays()
        if len(legal) == 0:
            match.play(None)
            continue
        blind = bot.choose(legal)
        aware = bot.choose(legal, score)
        if aware != blind:
            after = score.after_game()
            ev = Evaluator.for_variant(match.game.variant)
            flat = {a.index: a.match_equity or 0.0 for a in ev.analyse(legal, 0, after=after)}
            deep = {a.index: a.match_equity or 0.0
                    for a in ev.analyse(legal, 1, ((len(legal), math.inf),), after=after)}
            by0 += flat[aware] - flat[blind]
            by1 += deep[aware] - deep[blind]
            differ += 1
            agree += deep[aware] > deep[blind]
        match.play(legal[blind])
    return by0, by1, differ, agree


def main() -> None:
    parser = argparse.ArgumentParser(description="The match-winning chance that score-blind play gives "
                                                 "away, by the network's own judgement.")
    parser.add_argument("--length", type=int, default=5)
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.monotonic()
    jobs = [(args.length, args.seed + m) for m in range(args.matches)]
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        found = pool.map(expected_gain, jobs, chunksize=1)
    by0 = [f[0] for f in found]
    by1 = [f[1] for f in found]
    differ = sum(f[2] for f in found)
    agree = sum(f[3] for f in found)
    half = 1.96 * statistics.stdev(by1) / math.sqrt(len(by1)) if len(by1) > 1 else math.inf
    print(f"{args.matches} matches to {args.length} (Tavli order, advanced level, both sides for points): "
          f"{differ} decisions where the score-aware play differs")
    print(f"given away a match, both sides: {100 * statistics.fmean(by0):.2f} points of match-winning chance "
          f"by 0 ply, {100 * statistics.fmean(by1):.2f} ± {100 * half:.2f} by 1 ply; "
          f"1 ply prefers the aware play in {agree} of {differ}")
    print(f"time: {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
