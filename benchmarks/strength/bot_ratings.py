"""The lobby's ratings of the bot levels, worked out from the measured edge of each level over the
one below (docs/strength.md, "The levels now" and "The levels' lobby ratings").

    .venv/bin/python benchmarks/strength/bot_ratings.py [--length 5] [--games tavli]
        [--anchor intermediate=1500]

For each game, a level's points a game less luck over the level below (the table of
docs/strength.md, read from the file) become its chance of winning a game: the game's outcome
rates measured in the expert's self-play (``tavli/data/outcomes.json``: the share of ties and of
double games) made even between the seats, the edge taken as a shift of who wins with the share
of double games kept, so ``points = (1 − ties) × (2p − 1) × (1 + doubles)``. Those chances play a
match of ``--length`` points of the Tavli sequence (Portes, Plakoto, Fevga in turn, as the
lobby's default match; ``--games portes`` for one game): the chance ``q`` that the stronger level
wins it. The rating gap is the one that makes Glicko-2 (``tavli.rating``, with settled deviations) expect that score:
``SCALE × ln(q / (1 − q))``, 400·log10 in the old Elo units. The ratings add the gaps up from the
anchor level, whose rating is a newcomer's (1500), so that a newcomer in "play now" is offered the
level he was offered before. It reads and prints; it plays no game (under a second).
"""

from __future__ import annotations

import argparse
import functools
import math
import re
from pathlib import Path

from tavli.bots.levels import LEVELS
from tavli.bots.match_equity import Outcomes, shipped_outcomes
from tavli.rating import SCALE
from tavli.variants import GAMES

ROOT = Path(__file__).resolve().parents[2]
STRENGTH = ROOT / "docs" / "strength.md"
ROW = re.compile(r"^\| (\w+) \| (\w+) \| ([+-]\d+\.\d+) ±")
Outcome = tuple[float, float, float, float, float]
"""A game's rates for one side: win 1, win 2, tie, lose 1, lose 2."""


def measured_edges(text: str) -> dict[str, dict[str, float]]:
    """Each game's levels' points a game less luck over the level below, from docs/strength.md's
    table (``{"portes": {"casual": 0.373, ...}, ...}``); the lowest level has none."""
    edges: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        found = ROW.match(line)
        if found and found.group(1).lower() in GAMES and found.group(2) in LEVELS:
            edges.setdefault(found.group(1).lower(), {})[found.group(2)] = float(found.group(3))
    return edges


def game_chances(outcomes: Outcomes, edge: float) -> tuple[Outcome, float]:
    """The stronger side's rates in a game where it scores ``edge`` points a game more than an
    equal opponent would: the even game's ties and share of double games kept, the wins shifted;
    and its chance of winning the game."""
    ties = outcomes.tie
    doubles = (outcomes.win2 + outcomes.lose2) / (1.0 - ties)
    p = 0.5 + edge / (2.0 * (1.0 - ties) * (1.0 + doubles))
    decided = 1.0 - ties
    return (p * decided * (1 - doubles), p * decided * doubles, ties,
            (1 - p) * decided * (1 - doubles), (1 - p) * decided * doubles), p


def match_chance(rates: dict[str, Outcome], order: tuple[str, ...], length: int) -> float:
    """The chance that the side with ``rates`` (by game) wins a match to ``length`` points playing
    ``order`` in turn; a tie scores nothing, and the next game of the order follows."""
    if math.prod(rates[game][2] for game in order) >= 1.0:
        raise ValueError("games that always tie never end a match")

    @functools.cache
    def win(mine: int, theirs: int, game: int) -> float:
        if mine <= 0:
            return 1.0
        if theirs <= 0:
            return 0.0
        # the ties lead round the order back to this game: the sum of that series
        total, tied = 0.0, 1.0
        for step in range(len(order)):
            at = (game + step) % len(order)
            w1, w2, tie, l1, l2 = rates[order[at]]
            after = (at + 1) % len(order)
            total += tied * (w1 * win(mine - 1, theirs, after) + w2 * win(mine - 2, theirs, after)
                             + l1 * win(mine, theirs - 1, after) + l2 * win(mine, theirs - 2, after))
            tied *= tie
        return total / (1.0 - tied)
    return win(length, length, 0)


def rating_gap(score: float) -> float:
    """The rating gap at which Glicko-2, both deviations settled, expects ``score``."""
    return SCALE * math.log(score / (1.0 - score))


def ratings(edges: dict[str, dict[str, float]], length: int = 5, anchor: tuple[str, float] = ("intermediate", 1500.0),
            order: tuple[str, ...] = tuple(GAMES)) -> dict[str, float]:
    """The levels' ratings: each gap over the level below from its edges in the games of
    ``order`` (the Tavli sequence), added up from ``anchor`` (a level and its rating)."""
    base = shipped_outcomes()
    even = {game: _even(base[game]) for game in GAMES}
    levels = [level for level in LEVELS if level not in ("random", "heuristic")]
    gaps = {}
    for level in levels[1:]:
        rates = {game: game_chances(even[game], edges[game][level])[0] for game in order}
        gaps[level] = rating_gap(match_chance(rates, order, length))
    found = {levels[0]: 0.0}
    for level in levels[1:]:
        found[level] = found[levels[levels.index(level) - 1]] + gaps[level]
    shift = anchor[1] - found[anchor[0]]
    return {level: value + shift for level, value in found.items()}


def _even(outcomes: Outcomes) -> Outcomes:
    """A game's rates with the starter's advantage taken out: the mean of both seats'."""
    flipped = outcomes.flipped()
    return Outcomes((outcomes.win1 + flipped.win1) / 2, (outcomes.win2 + flipped.win2) / 2, outcomes.tie,
                    (outcomes.lose1 + flipped.lose1) / 2, (outcomes.lose2 + flipped.lose2) / 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=5, help="the match's length in points (5: the lobby's default)")
    parser.add_argument("--games", default="tavli", help="tavli (the sequence) or one game")
    parser.add_argument("--anchor", default="intermediate=1500", help="LEVEL=RATING: the level rated as a newcomer")
    args = parser.parse_args(argv)
    level, rating = args.anchor.split("=", 1)
    edges = measured_edges(STRENGTH.read_text(encoding="utf-8"))
    order = tuple(GAMES) if args.games == "tavli" else (args.games,)
    found = ratings(edges, args.length, (level, float(rating)), order)
    print(f"{', '.join(order)}, {args.length}-point matches; {level} = {float(rating):g}")
    before = None
    for name, value in found.items():
        gap = "" if before is None else f"  (+{value - before:.0f} over the level below)"
        print(f"{name:>12}: {value:6.0f}  rounded {round(value, -1):.0f}{gap}")
        before = value
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
