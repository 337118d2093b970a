"""Two networks of one game against each other, to decide whether a newly trained one ships.

    .venv/bin/python benchmarks/strength/networks.py --variant fevga checkpoints/fevga.npz \\
        [tavli/weights/fevga.npz] [--games 4000] [--games-random 1000] [--level advanced] [--jobs J]

Each network plays at ``--level`` (``advanced``, the network's own 0-ply
judgement, by default) through ``tavli.bots.neural.NeuralBot``. The first file
plays the second (the shipped network when it is left out; ``gnubg``: GNU
Backgammon at 0 ply, in Portes) over ``--games`` games in mirrored pairs, then
each plays ``--games-random`` games against random play. Games are spread over
``--jobs`` processes in parts with their own dice. Prints points per game of
the first named player with the half-width of its 95% confidence interval
(each mirrored pair one sample), then the same less the rolls' luck as the
shipped network judges it at 0-ply (``tavli.bots.duel``): the same expectation, a
far narrower interval.
"""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.pool
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from tavli.bots import Player, RandomBot
from tavli.bots.duel import DuelResult, duel
from tavli.bots.gnubg_player import GnubgPlayer
from tavli.bots.levels import LEVELS
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.variants import GAMES

Job = tuple[str, str, str, str, int, int]
"""(game, level, first player, second player, games, seed); a player is a network file, ``random``
or ``gnubg``."""
GNUBG = "gnubg"


def player(name: str, level: str, seed: int) -> Player:
    if name == "random":
        return RandomBot(seed)
    if name == GNUBG:
        return GnubgPlayer(0)
    ev = Evaluator.from_file(name)
    return NeuralBot(level, seed=seed, evaluators={ev.kernel_id: ev})


def play(job: Job) -> tuple[list[int], list[float]]:
    game, level, a, b, games, seed = job
    result = duel(game, player(a, level, seed), player(b, level, seed + 1), games, seed=seed,
                  luck=Evaluator.for_variant(game).luck)
    return result.points, result.luck


def match(pool: multiprocessing.pool.Pool, game: str, level: str, a: str, b: str, games: int, parts: int,
          seed: int) -> DuelResult:
    pairs = games // 2 + games % 2
    parts = max(1, min(parts, pairs))
    jobs: list[Job] = [(game, level, a, b, 2 * (pairs // parts + (k < pairs % parts)), seed * 1009 + k)
                       for k in range(parts)]
    played = pool.map(play, jobs)
    return DuelResult(points=[p for points, _ in played for p in points], luck=[x for _, luck in played for x in luck])


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Two network files of one game against each other and "
                                                 "against random play.")
    parser.add_argument("network", type=Path, help="the candidate network (a checkpoint or a shipped file)")
    parser.add_argument("baseline", type=Path, nargs="?",
                        help="the network to beat (default: the shipped one), or gnubg: GNU Backgammon 0-ply (Portes)")
    parser.add_argument("--variant", required=True, choices=GAMES)
    parser.add_argument("--level", default="advanced", choices=list(LEVELS))
    parser.add_argument("--games", type=int, default=4000, help="games between the two (default 4000)")
    parser.add_argument("--games-random", type=int, default=1000, help="games of each against random play")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    baseline = args.baseline or Path(str(resources.files("tavli") / "weights" / f"{args.variant}.npz"))
    networks = [args.network] if str(baseline) == GNUBG else [args.network, baseline]
    if str(baseline) == GNUBG and args.variant != "portes":
        parser.error("GNU Backgammon plays Portes only")
    for path in networks:
        try:
            Evaluator.from_file(path)  # a bad file fails here, in one line, before any game
        except ValueError as e:
            parser.error(str(e))
    started = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        head = match(pool, args.variant, args.level, str(args.network), str(baseline), args.games, args.jobs,
                     args.seed)
        print(f"{args.network} vs {baseline} ({args.level}): {head}", flush=True)
        if args.games_random:
            for path in networks:
                result = match(pool, args.variant, args.level, str(path), "random", args.games_random, args.jobs,
                               args.seed + 1)
                print(f"{path} vs random ({args.level}): {result}", flush=True)
    print(f"{time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main()
