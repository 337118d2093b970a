"""Do Glicko-2 ratings (``tavli.rating``) put the bots in their known order?

    .venv/bin/python benchmarks/strength/rating_ladder.py [--variant portes]
        [--levels random,heuristic,beginner,intermediate,advanced] [--periods 30] [--matches 4]
        [--length 3] [--seed 1] [--tiny]

Every level starts as a newcomer (1500, deviation 350). In each rating period every pair of levels
plays ``--matches`` matches to ``--length`` points (``tavli.match.Match``, seats alternating), and
then each level is rated on all its period's matches at once, every match counting as
``tavli.rating.match_weight(length)`` games, as the web café will rate its players. The levels are
given weakest first, so their order is the known one: the script prints each level's final rating
with its deviation and its matches won, how many pairs of levels the ratings put in the known
order, and the verdict, whether the whole order came out right. It exits 0 either way.

``--tiny`` plays random against the heuristic bot, a few single games (seconds, for the test).
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from dataclasses import dataclass

from tavli.bots.basic import Player, make_bot
from tavli.dice import DiceRoller
from tavli.match import Match, MatchSettings
from tavli.rating import Rating, match_weight, update
from tavli.variants import WHITE

LEVELS = ("random", "heuristic", "beginner", "intermediate", "advanced")
"""The default ladder, weakest first (docs/strength.md): the 0-ply levels decide in well under a
millisecond, so a ladder of hundreds of matches takes minutes."""


@dataclass
class Standing:
    """A level's rating as the periods go, and its matches."""

    level: str
    bot: Player
    rating: Rating
    won: int = 0
    played: int = 0


def play_match(first: Player, second: Player, settings: MatchSettings, seed: int) -> bool:
    """One match, ``first`` with White's checkers; whether ``first`` won it."""
    match = Match(settings, DiceRoller(seed))
    seats = {WHITE: first, WHITE.other: second}
    while not match.is_over:
        match.roll()
        legal = match.legal_plays()
        match.play(legal[seats[match.turn].choose(legal)] if len(legal) else None)
    return match.winner == WHITE


def ladder(levels: list[str], variant: str, periods: int, matches: int, length: int,
           seed: int) -> list[Standing]:
    """The standings after ``periods`` rating periods of every pair playing ``matches`` matches."""
    rng = random.Random(seed)
    standings = [Standing(level, make_bot(level, rng), Rating()) for level in levels]
    settings = MatchSettings(length=length, games=(variant,))
    weight = match_weight(length)
    for period in range(periods):
        results: dict[str, list[tuple[Rating, float]]] = {s.level: [] for s in standings}
        for (i, a), (j, b) in itertools.combinations(enumerate(standings), 2):
            for k in range(matches):
                first, second = (a, b) if k % 2 == 0 else (b, a)
                won = play_match(first.bot, second.bot, settings, seed * 1_000_003 + period * 10_007 + i * 101
                                 + j * 11 + k)
                winner, loser = (first, second) if won else (second, first)
                winner.won += 1
                a.played += 1
                b.played += 1
                # both rated from the ratings they brought to the period, as Glicko-2 rates a period
                results[winner.level].append((loser.rating, 1.0))
                results[loser.level].append((winner.rating, 0.0))
        for s in standings:
            s.rating = update(s.rating, results[s.level], weight=weight)
    return standings


def pairs_in_order(standings: list[Standing]) -> tuple[int, int]:
    """How many pairs of levels the ratings order as the levels are listed (weakest first), of all pairs."""
    pairs = list(itertools.combinations(standings, 2))
    return sum(low.rating.rating < high.rating.rating for low, high in pairs), len(pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="portes", choices=("portes", "plakoto", "fevga"))
    parser.add_argument("--levels", default=",".join(LEVELS), help="bots, weakest first")
    parser.add_argument("--periods", type=int, default=30, help="rating periods (default 30)")
    parser.add_argument("--matches", type=int, default=4, help="matches of each pair a period (default 4)")
    parser.add_argument("--length", type=int, default=3, help="points a match is played to (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tiny", action="store_true", help="random and heuristic, a few single games")
    args = parser.parse_args(argv)
    levels = args.levels.split(",")
    if args.tiny:
        levels, args.periods, args.matches, args.length = ["random", "heuristic"], 2, 2, 1
    started = time.monotonic()
    standings = ladder(levels, args.variant, args.periods, args.matches, args.length, args.seed)
    print(f"{args.variant}: {args.periods} periods, each pair {args.matches} matches to {args.length} "
          f"a period (each counts as {match_weight(args.length):.2f} games), every level from 1500 / 350;"
          f" rating ± two deviations")
    for s in standings:
        r = s.rating
        print(f"{s.level:>13}: {r.rating:7.1f} ± {2 * r.deviation:5.1f}  shown {r.display():>6}  "
              f"won {s.won} of {s.played}")
    in_order, pairs = pairs_in_order(standings)
    verdict = "matches the known order" if in_order == pairs else "differs from the known order"
    print(f"verdict: the ratings' order {verdict} ({' < '.join(levels)}): {in_order} of {pairs} pairs in order; "
          f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
