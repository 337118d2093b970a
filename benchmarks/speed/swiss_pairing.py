"""How long pairing a Swiss round takes (``tavli.server.cafe.pairing.swiss_round``), against the floor of
issue 72: a 256-player round paired in under 1 s.

    .venv/bin/python benchmarks/speed/swiss_pairing.py [--players 256] [--rounds 5] [--repeats 5] [--seed 7]

Plays ``--rounds`` seeded random rounds (each paired by ``swiss_round``, the winner drawn with the Elo
chance of the ratings), then times the pairing of the next round ``--repeats`` times and prints the
median and the slowest time per pairing and the median's ratio to the floor of 1 s (under 1 passes).
The machine may be shared: the load before the run is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from tavli.server.cafe.pairing import Entrant, Pairing, swiss_round

FLOOR_S = 1.0
"""The issue's floor: a 256-player Swiss round paired in under a second."""


def played(players: list[Entrant], rounds: int, seed: int) -> list[list[Pairing]]:
    """``rounds`` Swiss rounds, paired by ``swiss_round``, their winners drawn by the ratings' chances."""
    rng = random.Random(seed)
    rating = {p.name: p.rating for p in players}
    done: list[list[Pairing]] = []
    for _ in range(rounds):
        finished = []
        for p in swiss_round(players, done):
            if p.black is None:
                finished.append(p)
                continue
            white_wins = 1 / (1 + 10 ** ((rating[p.black] - rating[p.white]) / 400))
            finished.append(p.won(p.white if rng.random() < white_wins else p.black))
        done.append(finished)
    return done


def entrants(count: int, seed: int) -> list[Entrant]:
    rng = random.Random(seed)
    return [Entrant(f"player{k:04d}", round(rng.gauss(1500, 200))) for k in range(count)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5, help="random rounds played before the timed pairing")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    if args.players < 2 or args.rounds < 0 or args.repeats < 1:
        parser.error("--players is at least 2, --rounds at least 0, --repeats at least 1")
    load = os.getloadavg()[0]
    players = entrants(args.players, args.seed)
    done = played(players, args.rounds, args.seed)
    times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        pairs = swiss_round(players, done)
        times.append(time.perf_counter() - start)
    assert sorted(n for p in pairs for n in (p.white, p.black) if n) == sorted(p.name for p in players)
    median = statistics.median(times)
    print(f"Swiss round {args.rounds + 1} of {args.players} players, {args.repeats} pairings "
          f"(load {load:.1f} before): median {median:.3f} s, slowest {max(times):.3f} s, "
          f"ratio to the {FLOOR_S:g} s floor {median / FLOOR_S:.2f}")


if __name__ == "__main__":
    main()
