"""Teach a network another player's judgement: positions of its own games, valued by a teacher.

Self-play (``tavli.bots.training``) teaches a network what its own play leads to. A *teacher* can
teach it faster what a stronger judge thinks: anything with ``probabilities(position)`` giving
the chances of the side to roll (win, win 2 points, lose 2 points). GNU Backgammon is one for
Portes (``tavli.bots.gnubg_player.GnubgPlayer``, at any depth); ``SearchTeacher`` makes one of a
network's own search. ``sample`` plays a network against itself at 0 ply, exploring, and keeps
the positions before each roll (races with every checker home left out: the bear-off database
values those, not the network); ``label`` asks the teacher; ``fit`` lets the network's own
weights learn the teacher's chances, by Adam on the squared error of its three outputs, and says
how far the network's equity is from the teacher's on positions it did not learn from, before and
after. ``tavli teach`` runs the three.

>>> from tavli.bots.neural import Evaluator
>>> ev = Evaluator.for_variant("fevga")
>>> taught = label(sample(ev, "fevga", 40, seed=1), SearchTeacher(ev, 0))
>>> p = ev.probabilities(taught.position(0))
>>> bool(np.allclose(taught.targets[0], [p.win, p.win2, p.lose2]))
True
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from tavli.bots.bearoff import all_home
from tavli.bots.features import N_INPUTS, encode
from tavli.bots.network import Network, widened
from tavli.bots.neural import Evaluator, Probabilities
from tavli.dice import Dice
from tavli.errors import TavliError
from tavli.position import Position
from tavli.variants import WHITE, Variant, make_variant

BATCH = 256
HELD_OUT = 20_000
"""Positions held out of the learning to measure it (a fifth of them, if there are fewer than
five times as many)."""
RATE = 3e-4
"""Adam's step for a network's own weights: they start where self-play left them."""
MAX_TURNS = 2_000


class TeacherError(TavliError):
    """A teacher that cannot value a game, or positions that do not fit a network."""


class Teacher(Protocol):
    """Anything that values a position for the side to roll."""

    def probabilities(self, position: Position) -> Probabilities: ...


class SearchTeacher:
    """A network's own search as a teacher: at 0 ply its chances, at 1 ply the mean over the 36
    throws of its chances after its best play by 0 ply (the expert's search).

    >>> ev = Evaluator.for_variant("portes")
    >>> start = Position.start("portes")
    >>> abs(SearchTeacher(ev, 1).probabilities(start).equity - ev.probabilities(start).equity) < 0.1
    True
    """

    def __init__(self, evaluator: Evaluator, depth: int) -> None:
        if depth not in (0, 1):
            raise TeacherError("a network teaches at 0 or 1 ply")
        self.evaluator = evaluator
        self.depth = depth

    def probabilities(self, position: Position) -> Probabilities:
        if self.depth == 0:
            return self.evaluator.probabilities(position)
        values = self.evaluator.roll_probabilities(position)
        mean = np.sum([np.array([p.win, p.win2, p.lose2]) * (1 if d.first == d.second else 2)
                       for d, p in values.items()], axis=0) / 36
        return Probabilities(*map(float, mean))


@dataclass
class Lesson:
    """Positions (kernel states, the side to move to roll) of one game, and a teacher's chances
    for each (rows of win, win 2 points, lose 2 points; empty before ``label``)."""

    variant: str
    states: np.ndarray
    targets: np.ndarray

    def __len__(self) -> int:
        return len(self.states)

    def position(self, i: int) -> Position:
        """The ``i``-th position."""
        return Position(make_variant(self.variant), WHITE, self.states[i].copy())

    def save(self, path: Path) -> None:
        np.savez_compressed(path, variant=self.variant, states=self.states, targets=self.targets)

    @classmethod
    def load(cls, path: Path) -> Lesson:
        """A saved lesson; a file that is not one is refused in one line."""
        try:
            with np.load(path, allow_pickle=False) as data:
                lesson = cls(str(data["variant"]), np.asarray(data["states"], np.int8), np.asarray(data["targets"]))
        except (OSError, ValueError, KeyError) as e:
            raise TeacherError(f"{path} is not a file of taught positions: {e}") from None
        if lesson.targets.shape != (len(lesson.states), 3):
            raise TeacherError(f"{path} holds positions without a teacher's chances")
        return lesson

    @classmethod
    def joined(cls, parts: Sequence[Lesson]) -> Lesson:
        return cls(parts[0].variant, np.concatenate([p.states for p in parts]),
                   np.concatenate([p.targets for p in parts]))


def sample(evaluator: Evaluator, variant: Variant | str, count: int, explore: float = 0.1, seed: int = 1) -> Lesson:
    """``count`` positions of ``evaluator``'s self-play at 0 ply in ``variant``, each before a
    roll, where a turn plays a random legal play with chance ``explore`` (so that the network also
    learns positions its best play avoids); races with every checker home are left out."""
    variant = make_variant(variant)
    if variant.kernel_id != evaluator.kernel_id:
        raise TeacherError(f"the network does not play {variant.name}")
    rng = random.Random(seed)
    states: list[np.ndarray] = []
    while len(states) < count:
        position = Position.start(variant)
        for _ in range(MAX_TURNS):
            if position.result() is not None or len(states) == count:
                break
            if not all_home(position.state, variant.kernel_id):
                states.append(position.state.copy())
            legal = position.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
            if not len(legal):
                position = position.pass_turn()
                continue
            pick = rng.randrange(len(legal)) if rng.random() < explore else evaluator.analyse(legal, 0)[0].index
            position = legal.after(pick)
    shape = (0, len(Position.start(variant).state))
    return Lesson(variant.name, np.array(states, np.int8) if states else np.empty(shape, np.int8),
                  np.empty((0, 3)))


def _row(p: Probabilities) -> tuple[float, float, float]:
    return p.win, p.win2, p.lose2


def label(lesson: Lesson, teacher: Teacher) -> Lesson:
    """The lesson's positions with ``teacher``'s chances for each."""
    targets = [_row(teacher.probabilities(lesson.position(i))) for i in range(len(lesson))]
    return Lesson(lesson.variant, lesson.states, np.array(targets, np.float64).reshape(len(lesson), 3))


def inputs(states: np.ndarray, variant: str, width: int) -> np.ndarray:
    """The network inputs of each state, up to ``width`` (where one of the game's groups ends)."""
    kernel_id = make_variant(variant).kernel_id
    x = np.zeros(width, np.float32)
    out = np.zeros((len(states), width), np.float32)
    for i, state in enumerate(states):
        encode(state, kernel_id, x)
        out[i] = x
    return out


def equity(chances: np.ndarray) -> np.ndarray:
    """Expected points of rows of chances (win, win 2 points, lose 2 points)."""
    return np.asarray(2.0 * chances[:, 0] - 1.0 + chances[:, 1] - chances[:, 2])


def rms(a: np.ndarray) -> float:
    return float(np.sqrt(np.mean(np.square(a)))) if len(a) else 0.0


def split(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the positions held out and of those learned from."""
    order = np.random.default_rng(seed).permutation(n)
    held = min(HELD_OUT, n // 5)
    return order[:held], order[held:]


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
        # the output starts at zero: the value learned is none until the data say otherwise
        self.params += [np.zeros((sizes[-1], 1), np.float32), np.zeros(1, np.float32)]
        self.sigmoid_output = False
        self._m = [np.zeros_like(p) for p in self.params]
        self._v = [np.zeros_like(p) for p in self.params]
        self._t = 0

    @classmethod
    def of_network(cls, network: Network) -> Regressor:
        """A game's network (``tavli.bots.network.Network``) to go on learning, its weights copied.

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

    def network(self) -> Network:
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


def learning_rates(rate: float, epochs: int) -> list[float]:
    """Each pass's step: ``rate``, halving each pass over the second half.

    >>> learning_rates(1.0, 4)
    [1.0, 1.0, 0.5, 0.25]
    """
    return [rate * 0.5 ** max(0, k + 1 - max(1, epochs // 2)) for k in range(epochs)]


@dataclass(frozen=True)
class Fitted:
    """A network after ``fit``, and the root mean square of its equity less the teacher's on the
    positions held out, before and after."""

    network: Network
    before: float
    after: float
    held_out: int


def fit(network: Network, lesson: Lesson, epochs: int, rate: float = RATE, seed: int = 1,
        hidden: int = 0) -> Fitted:
    """``network`` after its own weights learned ``lesson``'s chances for ``epochs`` passes over
    all the positions but those held out; first widened to ``hidden`` hidden units, if more than
    it has (the new units start silent: ``tavli.bots.network.widened``)."""
    if epochs < 1:
        raise TeacherError("a fit takes at least one pass")
    if hidden > network[1].shape[0]:
        network = widened(network, hidden, seed)
    if len(lesson) < 2:
        raise TeacherError("a fit needs at least two positions")
    kernel_id = make_variant(lesson.variant).kernel_id
    if N_INPUTS[kernel_id] < network[0].shape[0]:
        raise TeacherError(f"the network reads more inputs than a {lesson.variant} position has")
    x = inputs(lesson.states, lesson.variant, network[0].shape[0])
    y = lesson.targets.astype(np.float32)
    held, train = split(len(y), seed)
    model = Regressor.of_network(network)
    before = rms(equity(model.predict(x[held])) - equity(y[held]))
    rng = np.random.default_rng(seed + 1)
    for step in learning_rates(rate, epochs):
        model.epoch(x[train], y[train], step, rng)
    return Fitted(model.network(), before, rms(equity(model.predict(x[held])) - equity(y[held])), len(held))


def save_network(path: Path, network: Network, meta: dict[str, object]) -> None:
    """A network file ``Evaluator.from_file`` and ``tavli train`` read."""
    w1, b1, w2, b2 = network
    np.savez_compressed(path, w1=w1, b1=b1, w2=w2, b2=b2, meta=np.array(json.dumps(meta)))


TEACHERS = ("gnubg", "network")


def make_teacher(name: str, ply: int, evaluator: Evaluator, variant: Variant | str) -> Teacher:
    """``gnubg``: GNU Backgammon at ``ply`` plies (Portes only); ``network``: ``evaluator``'s own
    search at ``ply`` (0 or 1)."""
    variant = make_variant(variant)
    if name == "gnubg":
        from tavli.bots import gnubg_player
        if variant.kernel_id != make_variant("portes").kernel_id:
            raise TeacherError(f"GNU Backgammon teaches Portes only, not {variant.name}")
        if not gnubg_player.available():
            raise TeacherError("GNU Backgammon's module cannot be imported: pip install gnubg")
        return gnubg_player.GnubgPlayer(ply)
    if name == "network":
        return SearchTeacher(evaluator, ply)
    raise TeacherError(f"unknown teacher {name!r}: choose one of {', '.join(TEACHERS)}")


def lesson(network: str | None, variant: str, count: int, explore: float, seed: int, teacher: str,
           ply: int) -> Lesson:
    """``count`` positions of a network's self-play (a file, or the game's shipped one), each
    valued by the teacher ``make_teacher`` makes: one process's share of ``tavli teach``."""
    evaluator = Evaluator.from_file(network) if network else Evaluator.for_variant(variant)
    return label(sample(evaluator, variant, count, explore, seed), make_teacher(teacher, ply, evaluator, variant))
