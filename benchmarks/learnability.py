"""How much of what a search of one roll adds to a network's judgement another network can learn.

    .venv/bin/python benchmarks/learnability.py [--variant fevga] [--seconds 900] [--jobs 2]
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
``tavli._neural.INPUT_GROUP_ENDS`` lists them), a fresh network with a linear output learns the
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
import itertools
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tavli import Dice, Position
from tavli import _neural as N
from tavli.bearoff import all_home
from tavli.errors import TavliError
from tavli.neural import Evaluator, Probabilities
from tavli.training import TrainConfig
from tavli.variants import make_variant

KEEP = 3
"""One turn in this many is kept, so that the positions of a game are not all alike."""
EXPLORE = 0.05
HELD_OUT = 20_000
BATCH = 256
LEARNING_RATE = 1e-3
FINE_TUNE_RATE = 3e-4
MAX_TURNS = 2_000


def equity(chances: np.ndarray) -> np.ndarray:
    """Expected points of rows of chances (win, win 2 points, lose 2 points)."""
    return np.asarray(2.0 * chances[:, 0] - 1.0 + chances[:, 1] - chances[:, 2])


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


def one_ply(evaluator: Evaluator, position: Position) -> Probabilities:
    """The 1-ply chances of ``position`` for the side to roll: the mean over the 36 throws of his
    chances after his best play by 0-ply, as ``tavli._neural.pre1`` gives the expert's search.

    >>> ev = Evaluator.for_variant("portes")
    >>> abs(one_ply(ev, Position.start("portes")).equity - ev.probabilities(Position.start("portes")).equity) < 0.1
    True
    """
    values = evaluator.roll_probabilities(position)
    mean = np.sum([np.array([p.win, p.win2, p.lose2]) * (1 if d.first == d.second else 2)
                   for d, p in values.items()], axis=0) / 36
    return Probabilities(*map(float, mean))


def sample(network: str | None, variant: str, seconds: float, seed: int) -> Positions:
    """Positions of the network's self-play at 0 ply for ``seconds`` (at least one game)."""
    evaluator = Evaluator.from_file(network) if network else Evaluator.for_variant(variant)
    rng = random.Random(seed)
    states: list[np.ndarray] = []
    chances: list[tuple[Probabilities, Probabilities]] = []
    kernel_id = make_variant(variant).kernel_id
    stop = time.monotonic() + seconds
    while not states or time.monotonic() < stop:
        position = Position.start(variant)
        for _ in range(MAX_TURNS):
            if position.result() is not None:
                break
            if rng.randrange(KEEP) == 0 and not all_home(position.state, kernel_id):
                states.append(position.state.copy())
                chances.append((evaluator.probabilities(position), one_ply(evaluator, position)))
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
    kernel_id = make_variant(variant).kernel_id
    x = np.zeros(width, np.float32)
    out = np.zeros((len(states), width), np.float32)
    for i, state in enumerate(states):
        N.encode(state, kernel_id, x)
        out[i] = x
    return out


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(a, -30.0, 30.0)))  # type: ignore[no-any-return]


class Regressor:
    """Hidden layers of sigmoid units and a linear output, learned by Adam on squared error;
    or, made by ``of_network``, a game's network itself, with its three sigmoid outputs.

    >>> rng = np.random.default_rng(0)
    >>> x = rng.random((2000, 5), dtype=np.float32)
    >>> y = x @ np.array([1.0, -2.0, 0.5, 0.0, 1.0], np.float32)
    >>> model = Regressor(5, (8,), seed=0)
    >>> for _ in range(30): model.epoch(x, y, 0.01, rng)
    >>> float(np.sqrt(np.mean((model.predict(x) - y) ** 2))) < 0.1 * float(np.std(y))
    True
    """

    def __init__(self, n_in: int, hidden: Sequence[int], seed: int) -> None:
        rng = np.random.default_rng(seed)
        sizes = [n_in, *hidden]
        self.params: list[np.ndarray] = []
        for a, b in itertools.pairwise(sizes):
            self.params += [rng.normal(0.0, 2.0 / np.sqrt(a), (a, b)).astype(np.float32), np.zeros(b, np.float32)]
        # the output starts at zero: the correction learned is none until the data say otherwise
        self.params += [np.zeros((sizes[-1], 1), np.float32), np.zeros(1, np.float32)]
        self.sigmoid_output = False
        self._m = [np.zeros_like(p) for p in self.params]
        self._v = [np.zeros_like(p) for p in self.params]
        self._t = 0

    @classmethod
    def of_network(cls, network: N.Network) -> Regressor:
        """A game's network (``tavli._neural.Network``) to go on learning, its weights copied.

        >>> ev = Evaluator.for_variant("fevga")
        >>> x = inputs(Position.start("fevga").state[None, :], "fevga", ev.network[0].shape[0])
        >>> p = ev.probabilities(Position.start("fevga"))
        >>> bool(np.allclose(Regressor.of_network(ev.network).predict(x)[0], [p.win, p.win2, p.lose2], atol=1e-6))
        True
        """
        w1, b1, w2, b2 = network
        model = cls(w1.shape[0], (b1.shape[0],), seed=0)
        model.params = [np.array(a, np.float32) for a in (w1, b1, w2.T, b2)]
        model.sigmoid_output = True
        model._m = [np.zeros_like(p) for p in model.params]
        model._v = [np.zeros_like(p) for p in model.params]
        return model

    def network(self) -> N.Network:
        """The weights as a game's network (``of_network``'s models only)."""
        w1, b1, w2, b2 = (np.ascontiguousarray(a, np.float32) for a in self.params)
        return w1, b1, np.ascontiguousarray(w2.T), b2

    def _forward(self, x: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        acts = [x]
        for i in range(0, len(self.params) - 2, 2):
            acts.append(_sigmoid(acts[-1] @ self.params[i] + self.params[i + 1]))
        out = acts[-1] @ self.params[-2] + self.params[-1]
        return acts, _sigmoid(out) if self.sigmoid_output else out

    def predict(self, x: np.ndarray) -> np.ndarray:
        """One row of outputs for each row of ``x``; a linear output's column alone."""
        out = self._forward(x)[1]
        return out if self.sigmoid_output else out[:, 0]

    def epoch(self, x: np.ndarray, y: np.ndarray, rate: float, rng: np.random.Generator) -> None:
        """One pass over ``x`` in random batches."""
        order = rng.permutation(len(x))
        for k in range(0, len(x) - BATCH + 1 if len(x) >= BATCH else 1, BATCH):
            batch = order[k:k + BATCH]
            self._step(x[batch], y[batch], rate)

    def _step(self, x: np.ndarray, y: np.ndarray, rate: float) -> None:
        acts, out = self._forward(x)
        delta = (out - y.reshape(out.shape)) * (2.0 / len(x))
        if self.sigmoid_output:
            delta *= out * (1.0 - out)
        grads: list[np.ndarray] = [np.empty(0)] * len(self.params)
        for layer in range(len(self.params) // 2 - 1, -1, -1):
            grads[2 * layer] = acts[layer].T @ delta
            grads[2 * layer + 1] = delta.sum(axis=0)
            if layer:
                delta = (delta @ self.params[2 * layer].T) * acts[layer] * (1.0 - acts[layer])
        self._t += 1
        for i, g in enumerate(grads):
            self._m[i] = 0.9 * self._m[i] + 0.1 * g
            self._v[i] = 0.999 * self._v[i] + 0.001 * g * g
            m = self._m[i] / (1.0 - 0.9 ** self._t)
            v = self._v[i] / (1.0 - 0.999 ** self._t)
            self.params[i] -= (rate * m / (np.sqrt(v) + 1e-8)).astype(np.float32)


@dataclass(frozen=True)
class Fit:
    width: int
    hidden: tuple[int, ...]
    held_out: float
    training: float
    seconds: float


def rms(a: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(a))))


def split(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the positions held out and of those learned from."""
    order = np.random.default_rng(seed).permutation(n)
    held = min(HELD_OUT, n // 5)
    return order[:held], order[held:]


def fit(positions: Positions, width: int, hidden: tuple[int, ...], epochs: int, seed: int) -> Fit:
    """A fresh network of ``hidden`` units over ``width`` inputs, learning the correction."""
    started = time.monotonic()
    x = inputs(positions.states, positions.variant, width)
    y = positions.correction.astype(np.float32)
    held, train = split(len(y), seed)
    model = Regressor(width, hidden, seed)
    rng = np.random.default_rng(seed + 1)
    for k in range(epochs):
        # the rate halves each pass over the second half
        rate = LEARNING_RATE * 0.5 ** max(0, k + 1 - epochs // 2)
        model.epoch(x[train], y[train], rate, rng)
    sample = train[:len(held)]
    return Fit(width, hidden, rms(model.predict(x[held]) - y[held]), rms(model.predict(x[sample]) - y[sample]),
               time.monotonic() - started)


def fine_tune(positions: Positions, network: N.Network, epochs: int, seed: int) -> tuple[N.Network, float, float]:
    """``network`` after its own weights learned the positions' 1-ply chances (as ``fit``, over the
    positions not held out, at under a third of its rate: the weights start where self-play left
    them),
    with the held-out rms of its equity less the 1-ply equity before and after."""
    x = inputs(positions.states, positions.variant, network[0].shape[0])
    y = positions.chances1.astype(np.float32)
    held, train = split(len(y), seed)
    model = Regressor.of_network(network)
    before = rms(equity(model.predict(x[held])) - equity(y[held]))
    rng = np.random.default_rng(seed + 1)
    for k in range(epochs):
        model.epoch(x[train], y[train], FINE_TUNE_RATE * 0.5 ** max(0, k + 1 - epochs // 2), rng)
    return model.network(), before, rms(equity(model.predict(x[held])) - equity(y[held]))


def save_network(path: Path, network: N.Network, meta: dict[str, object]) -> None:
    """A network file ``Evaluator.from_file`` and ``tavli train`` read."""
    w1, b1, w2, b2 = network
    np.savez_compressed(path, w1=w1, b1=b1, w2=w2, b2=b2, meta=np.array(json.dumps(meta)))


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
    parser.add_argument("--variant", choices=("portes", "plakoto", "fevga"), default="fevga")
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
                             "(for benchmarks/networks.py)")
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
