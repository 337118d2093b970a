"""How much of what a search of one roll adds to a network's judgement another network can learn.

    .venv/bin/python benchmarks/strength/learnability.py [--variant fevga] [--seconds 900] [--jobs 2]
        [--shapes 96 512 256,128] [--inputs 253 273] [--epochs 12] [--seed 1]
        [--positions-file FILE] [NETWORK]

The expert level values a play by the network's 1-ply search; training on 1-ply values
(``tavli train --lookahead 1``) asks the network to hold that judgement at 0 ply. This measures
how far a network of a given shape and inputs can get there, in minutes rather than the hours a
training run and its matches take.

It plays the network against itself at 0 ply (exploring, as training does, with chance 0.05),
for ``--seconds`` on each of ``--jobs`` processes, and keeps one turn in three before the roll,
leaving out races with everything home (the bear-off database values those, not the network).
Each kept position gets the network's 0-ply and 1-ply values (``Evaluator.probabilities`` and
the mean of ``Evaluator.roll_probabilities``); the *correction* is the 1-ply equity less the
0-ply one. For each shape (hidden layers of sigmoid units: ``512`` is one layer, ``256,128``
two) and each input width (``--inputs``: where one of the game's input groups ends, as
``tavli.bots.features.INPUT_GROUP_ENDS`` lists them), a fresh network with a linear output learns the
correction from the positions' inputs by Adam for ``--epochs`` passes over all but 20,000 of the
positions, and the benchmark prints its root mean square error on those 20,000 held out, against
the correction's own (the error of predicting no correction at all), and the share of the
correction's square it explains. Training error beside held-out error tells a network that
cannot learn more (the two alike) from one that learned the positions by heart (the training
error far lower).

``--positions-file`` keeps the positions and their values: read when it exists, written when it
does not, so that other shapes and inputs can be fitted to the same positions.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tavli import Dice, Position
from tavli.bots import network as N
from tavli.bots import teacher
from tavli.bots.bearoff import all_home
from tavli.bots.neural import Evaluator, Probabilities
from tavli.bots.teacher import Lesson, Regressor, SearchTeacher, equity, learning_rates, rms, save_network, split
from tavli.bots.training import TrainConfig
from tavli.errors import TavliError
from tavli.variants import GAMES, make_variant

KEEP = 3
"""One turn in this many is kept, so that the positions of a game are not all alike."""
EXPLORE = 0.05
LEARNING_RATE = 1e-3
FINE_TUNE_RATE = teacher.RATE
MAX_TURNS = 2_000


@dataclass
class Positions:
    """Kept positions (kernel states, mover to roll) with the network's 0-ply and 1-ply chances
    (rows of win, win 2 points, lose 2 points)."""

    variant: str
    states: np.ndarray
    chances0: np.ndarray
    chances1: np.ndarray

    @property
    def correction(self) -> np.ndarray:
        """What the 1-ply search adds to each position's equity."""
        return np.asarray(equity(self.chances1) - equity(self.chances0))

    def save(self, path: Path) -> None:
        np.savez_compressed(path, variant=self.variant, states=self.states, chances0=self.chances0,
                            chances1=self.chances1)

    @classmethod
    def load(cls, path: Path) -> Positions:
        with np.load(path, allow_pickle=False) as data:
            return cls(str(data["variant"]), data["states"], data["chances0"], data["chances1"])

    @classmethod
    def joined(cls, parts: Sequence[Positions]) -> Positions:
        return cls(parts[0].variant, *(np.concatenate([getattr(p, name) for p in parts])
                                       for name in ("states", "chances0", "chances1")))


def sample(network: str | None, variant: str, seconds: float, seed: int) -> Positions:
    """Positions of the network's self-play at 0 ply for ``seconds`` (at least one game)."""
    evaluator = Evaluator.from_file(network) if network else Evaluator.for_variant(variant)
    rng = random.Random(seed)
    states: list[np.ndarray] = []
    chances: list[tuple[Probabilities, Probabilities]] = []
    kernel_id = make_variant(variant).kernel_id
    one_ply = SearchTeacher(evaluator, 1)
    stop = time.monotonic() + seconds
    while not states or time.monotonic() < stop:
        position = Position.start(variant)
        for _ in range(MAX_TURNS):
            if position.result() is not None:
                break
            if rng.randrange(KEEP) == 0 and not all_home(position.state, kernel_id):
                states.append(position.state.copy())
                chances.append((evaluator.probabilities(position), one_ply.probabilities(position)))
            legal = position.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
            if not len(legal):
                position = position.pass_turn()
                continue
            pick = (rng.randrange(len(legal)) if rng.random() < EXPLORE
                    else evaluator.analyse(legal, 0)[0].index)
            position = legal.after(pick)
    rows = [[(p.win, p.win2, p.lose2) for p in pair] for pair in chances]
    return Positions(variant, np.array(states), np.array([r[0] for r in rows]), np.array([r[1] for r in rows]))


def inputs(states: np.ndarray, variant: str, width: int) -> np.ndarray:
    """The network inputs of each state, up to ``width`` (where one of the game's groups ends, as
    ``tavli train --inputs`` takes it)."""
    TrainConfig(variant=variant, inputs=width).input_count()  # refuses a width that is no group's end
    return teacher.inputs(states, variant, width)


@dataclass(frozen=True)
class Fit:
    width: int
    hidden: tuple[int, ...]
    held_out: float
    training: float
    seconds: float


def fit(positions: Positions, width: int, hidden: tuple[int, ...], epochs: int, seed: int) -> Fit:
    """A fresh network of ``hidden`` units over ``width`` inputs, learning the correction."""
    started = time.monotonic()
    x = inputs(positions.states, positions.variant, width)
    y = positions.correction.astype(np.float32)
    held, train = split(len(y), seed)
    model = Regressor(width, hidden, seed)
    rng = np.random.default_rng(seed + 1)
    for rate in learning_rates(LEARNING_RATE, epochs):
        model.epoch(x[train], y[train], rate, rng)
    sample = train[:len(held)]
    return Fit(width, hidden, rms(model.predict(x[held]) - y[held]), rms(model.predict(x[sample]) - y[sample]),
               time.monotonic() - started)


def fine_tune(positions: Positions, network: N.Network, epochs: int, seed: int) -> tuple[N.Network, float, float]:
    """``network`` after its own weights learned the positions' 1-ply chances (``tavli.bots.teacher.fit``,
    at under a third of the fresh networks' rate: the weights start where self-play left them),
    with the held-out rms of its equity less the 1-ply equity before and after."""
    fitted = teacher.fit(network, Lesson(positions.variant, positions.states, positions.chances1), epochs,
                         FINE_TUNE_RATE, seed)
    return fitted.network, fitted.before, fitted.after


def _sample_job(job: tuple[str | None, str, float, int]) -> Positions:
    return sample(*job)


def _fit_job(job: tuple[Positions, int, tuple[int, ...], int, int]) -> Fit:
    return fit(*job)


def shape(text: str) -> tuple[int, ...]:
    try:
        hidden = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a shape is hidden units per layer, like 512 or 256,128: {text!r}") from None
    if not hidden or min(hidden) < 1:
        raise argparse.ArgumentTypeError(f"every layer needs at least one unit: {text!r}")
    return hidden


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="How much of a 1-ply search's correction to a network's "
                                                 "judgement other networks can learn.")
    parser.add_argument("network", nargs="?", help="a network file (default: the game's shipped one)")
    parser.add_argument("--variant", choices=GAMES, default="fevga")
    parser.add_argument("--seconds", type=float, default=900.0, help="self-play on each process (default 900)")
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--shapes", type=shape, nargs="*", default=[(96,), (512,), (256, 128)],
                        help="hidden units per layer of each fresh network (default: 96 512 256,128)")
    parser.add_argument("--inputs", type=int, nargs="+", help="input widths (default: the network's own)")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--positions-file", type=Path, help="positions to read, or to write when missing")
    parser.add_argument("--fine-tune", type=Path, metavar="FILE",
                        help="also let the network's own weights learn the 1-ply chances, and save it to FILE "
                             "(for benchmarks/strength/networks.py)")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.epochs < 1 or args.seconds < 0:
        parser.error("--jobs and --epochs must be at least 1, --seconds at least 0")
    started = time.monotonic()
    try:
        evaluator = Evaluator.from_file(args.network) if args.network else Evaluator.for_variant(args.variant)
        if evaluator.kernel_id != make_variant(args.variant).kernel_id:
            raise TavliError(f"{args.network} is not a {args.variant} network")
        widths = args.inputs or [evaluator.network[0].shape[0]]
        for width in widths:  # refused here, before any self-play
            TrainConfig(variant=args.variant, inputs=width).input_count()
        ctx = multiprocessing.get_context("spawn")
        if args.positions_file and args.positions_file.exists():
            positions = Positions.load(args.positions_file)
            if positions.variant != args.variant:
                raise TavliError(f"{args.positions_file} holds {positions.variant} positions, not {args.variant}")
            source = f"read from {args.positions_file}"
        else:
            with ctx.Pool(args.jobs) as pool:
                parts = pool.map(_sample_job, [(args.network, args.variant, args.seconds, args.seed * 1009 + k)
                                               for k in range(args.jobs)])
            positions = Positions.joined(parts)
            source = f"{args.jobs} × {args.seconds:.0f} s of self-play at 0 ply"
            if args.positions_file:
                positions.save(args.positions_file)
        held, _ = split(len(positions.states), args.seed)
        with ctx.Pool(args.jobs) as pool:
            fits = pool.map(_fit_job, [(positions, width, hidden, args.epochs, args.seed)
                                       for width in widths for hidden in args.shapes])
        tuned = None
        if args.fine_tune:
            network, before, after = fine_tune(positions, evaluator.network, args.epochs, args.seed)
            save_network(args.fine_tune, network, {**evaluator.meta, "fine_tuned": {
                "to": "1-ply chances", "positions": len(positions.states), "epochs": args.epochs,
                "rate": FINE_TUNE_RATE, "from": evaluator.fingerprint}})
            tuned = (before, after)
    except (TavliError, OSError, ValueError, KeyError) as e:
        parser.exit(2, f"learnability.py: {e}\n")
    base = rms(positions.correction[held])
    print(f"{args.variant}: {len(positions.states):,} positions ({source}), {len(held):,} held out")
    print(f"the correction (1-ply equity less 0-ply): rms {base:.4f} held out, "
          f"{rms(positions.correction):.4f} over all")
    print(f"{'inputs':>6s} {'hidden':>10s} {'held out':>9s} {'explained':>9s} {'training':>9s} {'time':>6s}")
    for f in fits:
        explained = 1.0 - (f.held_out / base) ** 2 if base else 0.0
        print(f"{f.width:6d} {','.join(map(str, f.hidden)):>10s} {f.held_out:9.4f} {explained:9.1%} "
              f"{f.training:9.4f} {f.seconds:5.0f}s")
    if tuned:
        print(f"the network's own weights, learning the 1-ply chances: its equity less the 1-ply equity, "
              f"rms {tuned[0]:.4f} → {tuned[1]:.4f} held out; saved {args.fine_tune}")
    print(f"{time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main(sys.argv[1:])
