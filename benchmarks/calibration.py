"""How well the networks' chances come true: win, win 2 points and lose 2 points, against results.

    .venv/bin/python benchmarks/calibration.py [--variants portes,plakoto,fevga] [--games 1000]
        [--level advanced] [--seed 1] [--jobs 1] [--no-gnubg]

Plays ``--games`` self-play games of each game at ``--level`` and, before
every roll, asks the game's network at 0 ply (``Evaluator.probabilities``)
for the roller's chances; when the game ends, each position's chances are
set beside what happened to its roller (a tie is half a win, as the networks
count it). A score-aware bot trades a little of the chance of winning for a
2-point result or the other way, so its gain rests on the 2-point chances
above all (docs/match-equity.md).

Prints for each game and each chance: the mean forecast and the rate that
came true, their difference (the bias) with a 95% interval (games as samples:
one game's positions share its result), and the Brier score (mean squared
error) beside the floor of always forecasting the rate that came true, as the
skill ratio 1 - Brier / floor (1 is perfect, 0 no better than the floor).
Then the 2-point chances (win 2 and lose 2 together) by band of forecast:
how often a forecast of 5-10% came true, and so on. In Portes, GNU
Backgammon's 0-ply chances of the same positions (``GnubgPlayer.probabilities``,
gammons and backgammons together) are the peer: each of its rows, and the
ratio of our Brier score to its.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from tavli import gnubg_player
from tavli.dice import Dice
from tavli.neural import Evaluator, NeuralBot, Probabilities
from tavli.position import Position
from tavli.variants import WHITE, Color

CHANCES = ("win", "win2", "lose2")
NAMES = {"win": "win", "win2": "win 2 points", "lose2": "lose 2 points"}
BANDS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0)
MAX_TURNS = 2_000


@dataclass
class Game:
    """One game's forecasts (per position: win, win 2, lose 2 for the side to roll) and what
    came true for each position's roller."""

    ours: list[tuple[float, float, float]] = field(default_factory=list)
    peer: list[tuple[float, float, float]] = field(default_factory=list)
    happened: list[tuple[float, float, float]] = field(default_factory=list)


def outcome_for(winner: Color | None, points: int, roller: Color) -> tuple[float, float, float]:
    """What came true for ``roller``: won (½ for a tie), won 2 points, lost 2 points.

    >>> from tavli.variants import BLACK
    >>> outcome_for(WHITE, 2, BLACK), outcome_for(None, 0, WHITE)
    ((0.0, 0.0, 1.0), (0.5, 0.0, 0.0))
    """
    if winner is None:
        return (0.5, 0.0, 0.0)
    won = winner == roller
    return (1.0 if won else 0.0, 1.0 if won and points >= 2 else 0.0, 1.0 if not won and points >= 2 else 0.0)


def triple(p: Probabilities) -> tuple[float, float, float]:
    return (p.win, p.win2, p.lose2)


def play_game(job: tuple[str, str, int, bool]) -> Game:
    """One self-play game of ``variant`` at ``level`` from ``seed``, with every roller's chances."""
    variant, level, seed, with_peer = job
    rng = random.Random(seed)
    bot = NeuralBot(level, seed=seed)
    evaluator = Evaluator.for_variant(variant)
    peer = gnubg_player.GnubgPlayer() if with_peer else None
    position = Position.start(variant, WHITE if rng.random() < 0.5 else WHITE.other)
    game, rollers = Game(), list[Color]()
    for _ in range(MAX_TURNS):
        result = position.result()
        if result is not None:
            game.happened = [outcome_for(result.winner, result.points, c) for c in rollers]
            return game
        rollers.append(position.turn)
        game.ours.append(triple(evaluator.probabilities(position)))
        if peer is not None:
            game.peer.append(triple(peer.probabilities(position)))
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        legal = position.legal_plays(dice)
        position = position.pass_turn() if len(legal) == 0 else position.play(legal[bot.choose(legal)], dice)
    raise RuntimeError(f"a {variant} game not over after {MAX_TURNS} turns")


@dataclass(frozen=True)
class Row:
    """One chance over many games: mean forecast, rate come true, bias with its 95% interval
    (games as samples), Brier score and its floor."""

    forecast: float
    happened: float
    bias: float
    bias_ci95: float
    brier: float
    floor: float

    @property
    def skill(self) -> float:
        return 1.0 - self.brier / self.floor if self.floor > 0 else math.nan


def row(games: Sequence[Game], k: int, peer: bool = False) -> Row:
    """Chance ``k`` (0 win, 1 win 2, 2 lose 2) of ``games``' positions, by our network or the peer.

    The bias is a ratio over games (their sums of forecast less result over their positions),
    its interval from the spread of the games' sums about it.

    >>> g = Game(ours=[(0.5, 0.1, 0.1), (0.7, 0.1, 0.1)], happened=[(1.0, 0.0, 0.0), (0.0, 0.0, 0.0)])
    >>> r = row([g], 0)
    >>> r.forecast, r.happened, r.bias, r.brier, r.floor
    (0.6, 0.5, 0.09999999999999998, 0.37, 0.25)
    """
    sums, counts, squares, pairs = [], [], 0.0, []
    for g in games:
        forecasts = g.peer if peer else g.ours
        diffs = [f[k] - h[k] for f, h in zip(forecasts, g.happened, strict=True)]
        sums.append(sum(diffs))
        counts.append(len(diffs))
        squares += sum(d * d for d in diffs)
        pairs += [(f[k], h[k]) for f, h in zip(forecasts, g.happened, strict=True)]
    n = sum(counts)
    if n == 0:
        raise ValueError("no positions to measure")
    bias = sum(sums) / n
    spread = sum((s - bias * c) ** 2 for s, c in zip(sums, counts, strict=True))
    half = 1.96 * math.sqrt(spread * len(games) / max(1, len(games) - 1)) / n
    forecast = sum(f for f, _ in pairs) / n
    happened = sum(h for _, h in pairs) / n
    floor = sum((h - happened) ** 2 for _, h in pairs) / n
    return Row(forecast, happened, bias, half, squares / n, floor)


def bands(games: Sequence[Game], peer: bool = False) -> list[tuple[float, float, int, float, float]]:
    """The 2-point forecasts (win 2 and lose 2 alike) by band: ``(low, high, positions, mean
    forecast, rate come true)`` for each band that holds any."""
    found: list[list[tuple[float, float]]] = [[] for _ in BANDS[1:]]
    for g in games:
        for f, h in zip(g.peer if peer else g.ours, g.happened, strict=True):
            for k in (1, 2):
                b = next(i for i, high in enumerate(BANDS[1:]) if f[k] < high or high == BANDS[-1])
                found[b].append((f[k], h[k]))
    return [(BANDS[i], BANDS[i + 1], len(v), sum(f for f, _ in v) / len(v), sum(h for _, h in v) / len(v))
            for i, v in enumerate(found) if v]


def report(variant: str, level: str, games: Sequence[Game], seconds: float) -> str:
    peer = bool(games[0].peer)
    positions = sum(len(g.ours) for g in games)
    lines = [f"{variant}: {len(games)} games at the {level} level, {positions} positions, {seconds:.0f} s"]
    lines.append(f"  {'chance':<15}{'by':<10}{'forecast':>9}{'came true':>11}{'bias (95%)':>17}"
                 f"{'Brier':>8}{'floor':>8}{'skill':>7}")
    for k, name in enumerate(CHANCES):
        for who, r in (("network", row(games, k)), *((("gnubg", row(games, k, True)),) if peer else ())):
            lines.append(f"  {NAMES[name]:<15}{who:<10}{100 * r.forecast:>8.1f}%{100 * r.happened:>10.1f}%"
                         f"{100 * r.bias:>+9.2f} ± {100 * r.bias_ci95:4.2f}{r.brier:>8.4f}{r.floor:>8.4f}"
                         f"{r.skill:>7.3f}")
        if peer:
            ours, theirs = row(games, k), row(games, k, True)
            lines.append(f"  {'':<15}Brier score ours / GNU Backgammon's: {ours.brier / theirs.brier:.3f}")
    lines.append("  2-point chances (win 2 and lose 2 together) by band of forecast: forecast → came true (positions)")
    columns = [("network", bands(games)), *((("gnubg", bands(games, True)),) if peer else ())]
    lines.append(f"    {'band':<10}" + "".join(f"{who:<28}" for who, _ in columns).rstrip())
    for i in range(len(BANDS) - 1):
        cells = []
        for _, found in columns:
            got = [f"{100 * f:.1f}% → {100 * h:.1f}% ({n})" for lo, _, n, f, h in found if lo == BANDS[i]]
            cells.append(f"{got[0] if got else '–':<28}")
        lines.append(f"    {f'{100 * BANDS[i]:g}–{100 * BANDS[i + 1]:g}%':<10}" + "".join(cells).rstrip())
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="portes,plakoto,fevga")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--level", default="advanced")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--no-gnubg", action="store_true", help="leave GNU Backgammon out of Portes")
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games needs 2 or more (the interval is over games)")
    for variant in args.variants.split(","):
        with_peer = variant == "portes" and not args.no_gnubg and gnubg_player.available()
        jobs = [(variant, args.level, args.seed * 1_000_003 + k, with_peer) for k in range(args.games)]
        start = time.monotonic()
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                games = pool.map(play_game, jobs, chunksize=16)
        else:
            games = [play_game(j) for j in jobs]
        print(report(variant, args.level, games, time.monotonic() - start), flush=True)


if __name__ == "__main__":
    main()
