"""What each group of a game's network inputs costs to compute.

    .venv/bin/python benchmarks/speed/encode.py [--variants portes plakoto fevga] [--games 20]
        [--repeats 20] [--seed 1]

A network reads only the groups of inputs its first layer is as wide as (``INPUT_GROUP_ENDS``),
and ``encode`` computes no more. For each game the benchmark collects the positions of
``--games`` games of random plays and times ``encode`` over them, in a loop compiled with numba,
with the inputs up to the end of each group: the best of five runs of ``--repeats`` passes. Each
line gives the time a position, what that group added, and the ratio to the time the game's
shipped network takes to evaluate the inputs (``forward``, timed over the same positions in the
same run, so that the ratios carry from one machine to another): what a group costs next to the
evaluation it feeds. The widths of the shipped networks are marked.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

import numpy as np
from numba import njit

from tavli import Dice, Position
from tavli.bots import RandomBot
from tavli.bots import features as F
from tavli.bots import network as N
from tavli.bots.neural import Evaluator
from tavli.variants import GAMES

MAX_TURNS = 2_000


def positions(variant: str, games: int, seed: int) -> np.ndarray:
    """The states of every turn of ``games`` games of random plays, one row each."""
    rng = random.Random(seed)
    bot = RandomBot(seed)
    states = []
    for _ in range(games):
        position = Position.start(variant)
        for _ in range(MAX_TURNS):
            if position.result() is not None:
                break
            states.append(position.state.copy())
            legal = position.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
            position = legal.after(bot.choose(legal)) if len(legal) else position.pass_turn()
    return np.array(states)


@njit(cache=True)
def _encode_all(states: np.ndarray, kernel_id: int, x: np.ndarray, repeats: int) -> float:
    check = 0.0  # read the inputs, so that the loop is not optimised away
    for _ in range(repeats):
        for i in range(states.shape[0]):
            F.encode(states[i], kernel_id, x)
            check += x[x.shape[0] - 1]
    return check


@njit(cache=True)
def _forward_all(inputs: np.ndarray, network: N.Network, repeats: int) -> float:
    w1, b1, w2, b2 = network
    h = np.zeros(b1.shape[0])
    out = np.zeros(3)
    check = 0.0
    for _ in range(repeats):
        for i in range(inputs.shape[0]):
            N.forward(inputs[i], w1, b1, w2, b2, h, out)
            check += out[0]
    return check


def best_of_five(run: Callable[[], object]) -> float:
    """The shortest of five timings of ``run``, after one untimed call (which compiles it)."""
    run()
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def forward_seconds(states: np.ndarray, kernel_id: int, network: N.Network, repeats: int) -> float:
    """The time ``network`` takes to evaluate one position's inputs (best of five)."""
    inputs = np.zeros((len(states), network[0].shape[0]))
    for i, state in enumerate(states):
        F.encode(state, kernel_id, inputs[i])
    return best_of_five(lambda: _forward_all(inputs, network, repeats)) / repeats / len(states)


def seconds_a_position(states: np.ndarray, kernel_id: int, width: int, repeats: int) -> float:
    """The time ``encode`` takes for one position with ``width`` inputs (best of five)."""
    x = np.zeros(width)
    return best_of_five(lambda: _encode_all(states, kernel_id, x, repeats)) / repeats / len(states)


def report(variant: str, games: int, repeats: int, seed: int) -> list[str]:
    """One game's lines: each width of its inputs, its cost and the ratio to an evaluation."""
    states = positions(variant, games, seed)
    kernel_id = Position.start(variant).variant.kernel_id
    network = Evaluator.for_variant(variant).network
    shipped = network[0].shape[0]
    forward = forward_seconds(states, kernel_id, network, repeats)
    lines = [f"{variant}: {len(states):,} positions of {games} random games; the shipped network "
             f"({shipped} inputs, {network[1].shape[0]} hidden) evaluates one in {forward * 1e6:.2f} µs"]
    previous = 0.0
    for width in F.INPUT_GROUP_ENDS[kernel_id]:
        cost = seconds_a_position(states, kernel_id, width, repeats)
        mark = "  shipped" if width == shipped else ""
        lines.append(f"  {width:4d} inputs  {cost * 1e6:5.2f} µs a position  (+{(cost - previous) * 1e6:5.2f})"
                     f"  {cost / forward:4.2f} × an evaluation{mark}")
        previous = cost
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", nargs="+", choices=GAMES, default=list(GAMES))
    parser.add_argument("--games", type=int, default=20, help="random games whose positions are encoded")
    parser.add_argument("--repeats", type=int, default=20, help="passes over the positions in one timing")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for variant in args.variants:
        print("\n".join(report(variant, args.games, args.repeats, args.seed)), flush=True)


if __name__ == "__main__":
    main()
