"""Rollouts: a position valued by playing it out many times with a bot level.

Each trial plays the game to its end with one of the neural levels on both
sides and scores it for the side to roll. Two things narrow the interval:

* stratified dice: over every 36 trials the first roll runs through all 36
  throws, and over every 1296 the first two rolls through all 1296 pairs
  (the trials' later rolls are random);
* luck subtraction, as in ``tavli.bots.duel``: each trial's points less the luck
  of every roll (``tavli.bots.neural.Evaluator.luck``, its value against the mean
  of all 36 throws), the roller's luck counted for him and against his
  opponent. Each roll's luck averages zero over the throws, so the mean is
  the same; the spread is several times smaller.

Plays of a roll are rolled out on the same dice (common random numbers), so
their differences are sharper still.

>>> from tavli import Position
>>> r = rollout(Position.start("portes"), RolloutSettings(trials=36), workers=1)
>>> r.trials, abs(r.equity) < 0.5
(36, True)
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context

from tavli.bots.duel import interval95
from tavli.bots.levels import LEVELS
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.dice import Dice
from tavli.errors import TavliError
from tavli.position import Position

MAX_TURNS = 2000
THROWS = tuple(Dice(a, b) for a in range(1, 7) for b in range(1, 7))
"""The 36 throws, in the order the stratified rolls take them."""


class RolloutError(TavliError):
    """A rollout that cannot be made (a finished position, an unknown level, no trials)."""


@dataclass(frozen=True)
class RolloutSettings:
    """How to roll out: how many trials, with which level, on which dice."""

    trials: int = 1296
    level: str = "advanced"
    """The level that plays both sides (``tavli.bots.levels.LEVELS``)."""
    seed: int = 1
    luck: bool = True
    """Subtract each roll's luck (variance reduction)."""

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise RolloutError(f"unknown level {self.level!r}: choose one of {', '.join(LEVELS)}")
        if self.trials < 1:
            raise RolloutError(f"a rollout needs at least 1 trial, not {self.trials}")


@dataclass(frozen=True)
class RolloutResult:
    """A rollout's value for the side to roll, with its 95% interval."""

    trials: int
    equity: float
    """Points per game (less luck when luck was subtracted)."""
    ci95: float
    """Half-width of the 95% interval of ``equity``."""
    win: float
    win2: float
    lose2: float
    lose: float
    """Share of trials lost (with ``win``, less than 1 when ties are possible)."""
    raw_equity: float
    """The plain mean of the points, luck not subtracted."""
    raw_ci95: float
    points: tuple[float, ...] = field(default=(), repr=False)
    """Each trial's value (points less luck when luck is subtracted)."""

    def __str__(self) -> str:
        return (f"{self.equity:+.3f} ± {self.ci95:.3f} over {self.trials} trials (win {100 * self.win:.1f}%, "
                f"2 points {100 * self.win2:.1f}%, lose 2 points {100 * self.lose2:.1f}%)")


def stratified_dice(trial: int, roll: int, rng: random.Random) -> Dice:
    """The dice of roll ``roll`` (0-based) of trial ``trial``: the first two stratified.

    >>> sorted({stratified_dice(t, 0, random.Random()) for t in range(36)}) == sorted(THROWS)
    True
    """
    if roll == 0:
        return THROWS[trial % 36]
    if roll == 1:
        return THROWS[(trial // 36 + trial) % 36]
    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def play_out(position: Position, trial: int, settings: RolloutSettings,
             bot: NeuralBot | None = None) -> tuple[int, float]:
    """One trial from ``position``: the points of the side to roll (negative when he
    loses) and his luck less his opponent's (0.0 without luck subtraction)."""
    rng = random.Random(settings.seed * 1_000_003 + trial)
    bot = bot or NeuralBot(settings.level, seed=rng.randrange(2**32))
    ev = Evaluator.for_variant(position.variant)
    root = position.turn
    pos = position
    luck = 0.0
    for roll in range(MAX_TURNS):
        dice = stratified_dice(trial, roll, rng)
        if settings.luck:
            x = ev.luck(pos, dice)
            luck += x if pos.turn == root else -x
        legal = pos.legal_plays(dice)
        pos = pos.pass_turn() if len(legal) == 0 else legal.after(bot.choose(legal))
        result = pos.result()
        if result is not None:
            if result.winner is None:
                return 0, luck
            return (result.points if result.winner == root else -result.points), luck
    raise RolloutError(f"a trial did not end in {MAX_TURNS} turns")


def run_chunk(job: tuple[Position, range, RolloutSettings]) -> list[tuple[int, float]]:
    """The trials ``trials`` of ``position`` (``job``), each as ``play_out`` answers: a worker's share."""
    position, trials, settings = job
    bot = NeuralBot(settings.level, seed=settings.seed + trials.start)
    return [play_out(position, t, settings, bot) for t in trials]


def summarise(outcomes: Sequence[tuple[int, float]], settings: RolloutSettings) -> RolloutResult:
    """A result from trials' (points, luck)."""
    n = len(outcomes)
    raw = [float(p) for p, _ in outcomes]
    values = [p - x for p, x in outcomes] if settings.luck else raw
    return RolloutResult(n, sum(values) / n, interval95(values), sum(p > 0 for p in raw) / n,
                         sum(p >= 2 for p in raw) / n, sum(p <= -2 for p in raw) / n, sum(p < 0 for p in raw) / n,
                         sum(raw) / n, interval95(raw), tuple(values))


Progress = Callable[[int, int], None]
"""Called with (trials done, trials in all)."""


def _run_all(positions: Sequence[Position], settings: RolloutSettings, workers: int | None,
             progress: Progress | None) -> list[RolloutResult]:
    """Roll out each position; one where the game is over is worth its result in every trial."""
    workers = workers or os.cpu_count() or 1
    size = max(1, min(36, settings.trials // max(1, 4 * workers)))
    jobs = [(k, (p, range(s, min(s + size, settings.trials)), settings))
            for k, p in enumerate(positions) if p.result() is None for s in range(0, settings.trials, size)]
    found: list[list[tuple[int, float]]] = [[] for _ in positions]
    for k, p in enumerate(positions):
        result = p.result()
        if result is not None:
            points = 0 if result.winner is None else result.points if result.winner == p.turn else -result.points
            found[k] = [(points, 0.0)] * settings.trials
    total = settings.trials * len(positions)
    done = sum(len(f) for f in found)
    if progress is not None:
        progress(0, total)
    if workers <= 1:
        results = (run_chunk(job) for _, job in jobs)
        for (k, _), outcome in zip(jobs, results, strict=True):
            found[k].extend(outcome)
            done += len(outcome)
            if progress is not None:
                progress(done, total)
    else:
        with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as ex:
            for (k, _), outcome in zip(jobs, ex.map(run_chunk, [job for _, job in jobs]), strict=True):
                found[k].extend(outcome)
                done += len(outcome)
                if progress is not None:
                    progress(done, total)
    return [summarise(f, settings) for f in found]


def rollout(position: Position, settings: RolloutSettings | None = None, workers: int | None = None,
            progress: Progress | None = None) -> RolloutResult:
    """Roll ``position`` out for the side to roll, in ``workers`` processes (default: one per core)."""
    if position.result() is not None:
        raise RolloutError("the game is over in this position: nothing to roll out")
    return _run_all([position], settings or RolloutSettings(), workers, progress)[0]


@dataclass(frozen=True)
class PlayRollout:
    """One play of a roll rolled out, valued for the side that plays it."""

    play: str
    result: RolloutResult
    """The rollout of the position after the play, turned to the player's side."""


def rollout_plays(position: Position, dice: Dice, settings: RolloutSettings | None = None,
                  candidates: int = 5, workers: int | None = None,
                  progress: Progress | None = None) -> list[PlayRollout]:
    """The ``candidates`` best plays of ``dice`` (by 1-ply) rolled out on the same dice, best first."""
    settings = settings or RolloutSettings()
    legal = position.legal_plays(dice)
    if len(legal) == 0:
        raise RolloutError(f"{dice} cannot be played here: the turn passes")
    ranked = Evaluator.for_variant(position.variant).analyse(legal, 1)[:max(1, candidates)]
    results = _run_all([legal.after(a.index) for a in ranked], settings, workers, progress)
    found = [PlayRollout(str(legal[a.index]), turned(r)) for a, r in zip(ranked, results, strict=True)]
    return sorted(found, key=lambda f: -f.result.equity)


def turned(r: RolloutResult) -> RolloutResult:
    """The same rollout seen by the other side."""
    return RolloutResult(r.trials, -r.equity, r.ci95, r.lose, r.lose2, r.win2, r.win, -r.raw_equity, r.raw_ci95,
                         tuple(-v for v in r.points))
