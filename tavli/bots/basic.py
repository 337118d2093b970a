"""Simple built-in players: random play and a one-move-lookahead heuristic.

A player looks at the legal plays of a roll and returns the index of its
choice.

>>> from tavli import Position, Dice
>>> legal = Position.start("portes").legal_plays(Dice(3, 1))
>>> str(legal[HeuristicBot().choose(legal)])
'8/5 6/5'
"""

from __future__ import annotations

import random
from typing import Protocol

import numpy as np

from tavli import _kernel as K
from tavli.bots.levels import LEVEL_NAMES
from tavli.position import LegalPlays


class Player(Protocol):
    """Anything that picks a play: returns an index into ``legal`` (which is not empty)."""

    name: str

    def choose(self, legal: LegalPlays) -> int: ...


class RandomBot:
    """Picks a legal play uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, legal: LegalPlays) -> int:
        return self._rng.randrange(len(legal))


_POINTS = np.arange(1, 25)


class HeuristicBot:
    """Scores every resulting position with a hand-made evaluation of the game; plays the best.

    It wins a game outright when it can, then weighs the race, safety,
    blocks and (in Plakoto) pins.
    """

    name = "heuristic"

    def choose(self, legal: LegalPlays) -> int:
        results = legal.results.astype(np.int64)
        params = legal.position.variant.params
        scores = self.evaluate(results, legal.position.variant.kernel_id)
        for k in range(len(results)):
            code = int(K.outcome(legal.results[k], params))
            if code != K.ONGOING and code != K.TIE:
                scores[k] += 1000.0 * code
        return int(np.argmax(scores))

    @staticmethod
    def evaluate(results: np.ndarray, variant: int) -> np.ndarray:
        """Score kernel states seen by the side that just moved; higher is better for it."""
        mine = results[:, 1:25]
        theirs = results[:, K.OPP + 1:K.OPP + 25]
        my_pips = mine @ _POINTS + 25 * results[:, K.BAR]
        if variant == K.FEVGA:
            their_points = np.where(_POINTS > 12, _POINTS - 12, _POINTS + 12)
        else:
            their_points = 25 - _POINTS
        their_pips = theirs @ their_points + 25 * results[:, K.OPP + K.BAR]
        score: np.ndarray = (their_pips - my_pips).astype(np.float64)
        made = mine >= 2
        if variant == K.PORTES:
            score += _portes_terms(mine, theirs, made, results)
        elif variant == K.PLAKOTO:
            score += _plakoto_terms(mine, theirs, made, results)
        else:
            score += _fevga_terms(mine, theirs)
        return score


def _threatened(mine: np.ndarray, theirs: np.ndarray, opp_bar: np.ndarray | None) -> np.ndarray:
    """For each of my points: is an opposing checker 1 to 11 points behind it?

    In Portes and Plakoto the opponent moves up my numbering.
    """
    n = len(mine)
    behind = np.zeros((n, 24), np.bool_)
    present = theirs > 0
    for dist in range(1, 12):
        behind[:, dist:] |= present[:, :-dist]
    if opp_bar is not None:
        behind[:, :12] |= (opp_bar > 0)[:, None]
    return behind


def _portes_terms(mine: np.ndarray, theirs: np.ndarray, made: np.ndarray,
                  results: np.ndarray) -> np.ndarray:
    blots = mine == 1
    exposed = blots & _threatened(mine, theirs, results[:, K.OPP + K.BAR])
    cost = 25 - _POINTS  # pips lost when hit
    score: np.ndarray = -(exposed * (4 + cost * 0.5)).sum(axis=1)
    score += 10.0 * results[:, K.OPP + K.BAR]
    score += (made * np.where(_POINTS <= 6, 4.0, np.where(_POINTS <= 9, 2.5, 1.0))).sum(axis=1)
    score += 3.0 * _longest_run(made)
    return score


def _plakoto_terms(mine: np.ndarray, theirs: np.ndarray, made: np.ndarray,
                   results: np.ndarray) -> np.ndarray:
    pins = results[:, K.PIN + 1:K.PIN + 25]
    theirs_pinned = pins == K.PIN_THEIRS
    mine_pinned = pins == K.PIN_MINE
    # a pinned checker of theirs far from their home costs them most
    score: np.ndarray = (theirs_pinned * (8.0 + 0.6 * _POINTS)).sum(axis=1)
    score -= (mine_pinned * (8.0 + 0.6 * (25 - _POINTS))).sum(axis=1)
    free_blots = (mine == 1) & ~mine_pinned & ~theirs_pinned
    exposed = free_blots & _threatened(mine, np.where(theirs_pinned, 0, theirs), None)
    score -= (exposed * (3.0 + 0.4 * (25 - _POINTS))).sum(axis=1)
    # the mother: my last checker at home is a liability while they can reach it
    score -= 25.0 * ((mine[:, 23] == 1) & (theirs[:, :23].sum(axis=1) > 0))
    score += (made * 1.5).sum(axis=1) + 2.0 * _longest_run(made | theirs_pinned)
    return score


def _fevga_terms(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    held = mine > 0
    # points I hold just in front of their checkers (they move down my numbering, wrapping)
    front = np.zeros_like(held)
    present = theirs > 0
    for dist in range(1, 7):
        front |= np.roll(present, -dist, axis=1)
    score: np.ndarray = 2.5 * (held & front).sum(axis=1) + 1.0 * held.sum(axis=1)
    score += 3.0 * _longest_run(held)
    score -= 0.8 * np.clip(mine - 3, 0, None).sum(axis=1)
    return score


def _longest_run(made: np.ndarray) -> np.ndarray:
    run = np.zeros(len(made), np.int64)
    best: np.ndarray = np.zeros(len(made), np.int64)
    for p in range(made.shape[1]):
        run = np.where(made[:, p], run + 1, 0)
        best = np.maximum(best, run)
    return best


LEVELS = LEVEL_NAMES
"""The neural bots' levels by name, weakest first (``tavli.bots.levels.LEVELS`` has the levels)."""
BOTS = ("random", "heuristic", *LEVEL_NAMES)


def make_bot(name: str, rng: random.Random | None = None) -> Player:
    """A built-in bot by name: ``random``, ``heuristic`` or a neural level like
    ``expert``. Bots that draw random numbers take their seed from ``rng``."""
    seed = rng.randrange(2**32) if rng is not None else None
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        return HeuristicBot()
    if name in LEVELS:
        from tavli.bots.neural import NeuralBot  # the networks load only when asked for

        return NeuralBot(name, seed=seed)
    raise ValueError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}")
