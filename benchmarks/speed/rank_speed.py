"""How long ranking every play of a roll takes (``tavli.study.analysis.rank_plays``, the position page and
``tavli hint``), at each depth, against the bot of the same depth choosing its play.

    .venv/bin/python benchmarks/speed/rank_speed.py [--positions 60] [--seed 5] [--depths 0,1,2]

Plays seeded games of the three games between two intermediate bots and keeps every fourth
decision with more than one legal play, up to ``--positions`` a game. For each depth it times
``rank_plays`` (every play valued, the best searched deeper with the analysis's filter) and the
level of that depth choosing its play (``NeuralBot.choose``: advanced, expert, champion, which
stop searching once the best play is sure) on the same positions, and prints median and 90th
percentile milliseconds and their ratio. The networks are loaded and the kernels compiled before
the clock starts, as in a running server. The machine may be shared: the ratio is the figure that
means something across runs.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.table import Table

from tavli.bots.neural import NeuralBot
from tavli.dice import Dice
from tavli.position import Position
from tavli.study.analysis import rank_plays
from tavli.variants import GAMES

LEVEL_OF_DEPTH = {0: "advanced", 1: "expert", 2: "champion"}
Case = tuple[Position, Dice]


def sample_positions(game: str, count: int, seed: int) -> list[Case]:
    """Up to ``count`` decisions of ``game`` with more than one legal play, from seeded games."""
    rng = random.Random(f"{seed}:{game}")
    bot = NeuralBot("intermediate", seed=seed)
    found: list[Case] = []
    while len(found) < count:
        position, k = Position.start(game), 0
        while position.result() is None and len(found) < count:
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            legal = position.legal_plays(dice)
            if len(legal) > 1 and k % 4 == 0:
                found.append((position, dice))
            position = legal.after(bot.choose(legal)) if len(legal) else position.pass_turn()
            k += 1
    return found


def milliseconds(run: Callable[[Case], object], cases: Sequence[Case]) -> list[float]:
    """How long ``run`` takes on each case."""
    times = []
    for case in cases:
        start = time.perf_counter()
        run(case)
        times.append(1000 * (time.perf_counter() - start))
    return times


def ranker(depth: int) -> Callable[[Case], object]:
    return lambda case: rank_plays(case[0], case[1], depth=depth)


def chooser(bot: NeuralBot) -> Callable[[Case], object]:
    return lambda case: bot.choose(case[0].legal_plays(case[1]))


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60, help="decisions per game")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--depths", default="0,1,2")
    args = parser.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    if not set(depths) <= set(LEVEL_OF_DEPTH):
        parser.error(f"--depths are among {', '.join(map(str, LEVEL_OF_DEPTH))}, not {args.depths}")
    cases = {g: sample_positions(g, args.positions, args.seed) for g in GAMES}
    bots = {d: NeuralBot(LEVEL_OF_DEPTH[d]) for d in depths}
    for found in cases.values():  # load the networks and compile the kernels before the clock starts
        rank_plays(*found[0], depth=max(depths))
        for bot in bots.values():
            bot.choose(found[0][0].legal_plays(found[0][1]))
    table = Table(title=f"rank_plays against the level choosing its play: median and 90th percentile ms, the "
                        f"ratio of medians (load {os.getloadavg()[0]:.1f} before)")
    for name in ("game", "depth", "positions", "rank ms", "rank p90", "choose ms", "choose p90", "ratio"):
        table.add_column(name, justify="left" if name == "game" else "right")
    for g, found in cases.items():
        for d in depths:
            rank = milliseconds(ranker(d), found)
            choose = milliseconds(chooser(bots[d]), found)
            r, c = statistics.median(rank), statistics.median(choose)
            table.add_row(g, str(d), str(len(found)), f"{r:.1f}", f"{quantile(rank, 0.9):.1f}", f"{c:.1f}",
                          f"{quantile(choose, 0.9):.1f}", f"{r / c:.2f}")
    Console().print(table)


if __name__ == "__main__":
    main()
