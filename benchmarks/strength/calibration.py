"""How well the networks' chances come true: win, win 2 points and lose 2 points, against results.

    .venv/bin/python benchmarks/strength/calibration.py [--variants portes,plakoto,fevga] [--games 1000]
        [--level advanced] [--seed 1] [--jobs 1] [--no-gnubg] [--network FILE] [--refit OUT]

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

``--network FILE`` measures another network of the one game named (a
checkpoint, say) in place of the shipped one. ``--refit OUT`` fits to the same
games a map ``p -> sigmoid(a logit(p) + b)`` of each 2-point chance that makes
it come true as forecast (logistic regression over the positions the network
values, not the bear-off database's), prints it, and writes OUT: the network
with the maps folded into its output layer, for ``benchmarks/strength/networks.py`` to
measure.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from tavli.bots import gnubg_player
from tavli.bots.bearoff import all_home
from tavli.bots.neural import Evaluator, NeuralBot, Probabilities
from tavli.dice import Dice
from tavli.position import Position
from tavli.variants import GAMES, WHITE, Color

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
    by_network: list[bool] = field(default_factory=list)
    """Whether the network valued the position (not the bear-off database)."""


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


def play_game(job: tuple[str, str, int, bool, str | None]) -> Game:
    """One self-play game of ``variant`` at ``level`` from ``seed``, with every roller's chances,
    by the shipped network or the one in file ``network``."""
    variant, level, seed, with_peer, network = job
    rng = random.Random(seed)
    evaluator = Evaluator.for_variant(variant) if network is None else Evaluator.from_file(network)
    bot = NeuralBot(level, seed=seed, evaluators={evaluator.kernel_id: evaluator})
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
        game.by_network.append(not all_home(position.state, position.variant.kernel_id))
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


def fit(forecasts: np.ndarray, happened: np.ndarray) -> tuple[float, float]:
    """``(a, b)`` of the map ``p -> sigmoid(a logit(p) + b)`` that makes ``forecasts`` likeliest to
    give what ``happened`` (0 or 1 each): logistic regression on the logit, by Newton's method.

    >>> rng = np.random.default_rng(1)
    >>> p = rng.uniform(0.05, 0.5, 20000)
    >>> a, b = fit(p, (rng.random(20000) < 1 / (1 + np.exp(-(np.log(p / (1 - p)) + 0.3)))).astype(float))
    >>> round(a, 1), round(b, 1)
    (1.0, 0.3)
    """
    z = np.log(np.clip(forecasts, 1e-6, 1 - 1e-6) / (1 - np.clip(forecasts, 1e-6, 1 - 1e-6)))
    a, b = 1.0, 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(a * z + b)))
        w = p * (1.0 - p)
        gradient = np.array([np.sum((happened - p) * z), np.sum(happened - p)])
        hessian = np.array([[np.sum(w * z * z), np.sum(w * z)], [np.sum(w * z), np.sum(w)]])
        step = np.linalg.solve(hessian, gradient)
        a, b = a + float(step[0]), b + float(step[1])
        if float(np.abs(step).max()) < 1e-9:
            break
    return a, b


def refit(games: Sequence[Game], network: Path, out: Path) -> str:
    """Fit each 2-point chance's map to the games' positions valued by the network and write the
    network with the maps folded into its output layer (``w -> a w``, ``b -> a b + b'`` for the
    unit's weights and bias) to ``out``; returns what was done, for the report."""
    lines = []
    with np.load(network, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    w2, b2 = arrays["w2"].astype(np.float64), arrays["b2"].astype(np.float64)
    maps = {}
    for k, name in ((1, "win2"), (2, "lose2")):
        pairs = np.array([(f[k], h[k]) for g in games for f, h, n in zip(g.ours, g.happened, g.by_network, strict=True)
                          if n])
        a, b = fit(pairs[:, 0], pairs[:, 1])
        z = np.log(np.clip(pairs[:, 0], 1e-6, 1 - 1e-6) / (1 - np.clip(pairs[:, 0], 1e-6, 1 - 1e-6)))
        mapped = 1.0 / (1.0 + np.exp(-(a * z + b)))
        before, after = np.mean((pairs[:, 0] - pairs[:, 1]) ** 2), np.mean((mapped - pairs[:, 1]) ** 2)
        lines.append(f"  {NAMES[name]}: a = {a:.4f}, b = {b:+.4f} over {len(pairs)} positions; mean forecast "
                     f"{100 * pairs[:, 0].mean():.1f}% -> {100 * mapped.mean():.1f}% (came true "
                     f"{100 * pairs[:, 1].mean():.1f}%), Brier {before:.5f} -> {after:.5f}")
        w2[k] *= a
        b2[k] = a * b2[k] + b
        maps[name] = [round(a, 6), round(b, 6)]
    arrays["w2"], arrays["b2"] = w2.astype(arrays["w2"].dtype), b2.astype(arrays["b2"].dtype)
    meta = json.loads(str(arrays["meta"])) if "meta" in arrays else {}
    meta["recalibrated"] = {"maps": maps, "games": len(games), "from": str(network)}
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(out, **arrays)
    Evaluator.from_file(out)  # what was written reads back as a network of its game
    return "\n".join([f"refit, written to {out}:", *lines])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(GAMES))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--level", default="advanced")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--no-gnubg", action="store_true", help="leave GNU Backgammon out of Portes")
    parser.add_argument("--network", type=Path, help="a network file of the one game named, in place of the shipped")
    parser.add_argument("--refit", type=Path, metavar="OUT", help="write the network with its 2-point chances refitted")
    args = parser.parse_args()
    if args.games < 2:
        parser.error("--games needs 2 or more (the interval is over games)")
    variants = args.variants.split(",")
    if (args.network or args.refit) and len(variants) != 1:
        parser.error("--network and --refit take one game (--variants)")
    if args.network is not None:
        try:
            if Evaluator.from_file(args.network).kernel_id != Position.start(variants[0]).variant.kernel_id:
                parser.error(f"{args.network} is not a {variants[0]} network")
        except ValueError as e:
            parser.error(str(e))
    for variant in variants:
        with_peer = variant == "portes" and not args.no_gnubg and gnubg_player.available()
        network = None if args.network is None else str(args.network)
        jobs = [(variant, args.level, args.seed * 1_000_003 + k, with_peer, network) for k in range(args.games)]
        start = time.monotonic()
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                games = pool.map(play_game, jobs, chunksize=16)
        else:
            games = [play_game(j) for j in jobs]
        print(report(variant, args.level, games, time.monotonic() - start), flush=True)
        if args.refit is not None:
            source = args.network or Path(str(resources.files("tavli") / "weights" / f"{variant}.npz"))
            print(refit(games, source, args.refit), flush=True)


if __name__ == "__main__":
    main()
