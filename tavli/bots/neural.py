"""Neural evaluators for the three games, and the bots that play by them at each level
(``tavli.bots.levels``).

Each game has a network trained by self-play (see ``tavli.bots.training`` and
docs/training.md); its weights ship in ``tavli/weights``. An evaluator
answers, for a position with one side to roll, the chances of that side
winning, winning 2 points and losing 2 points, and their expected points.

>>> from tavli import Position, Dice
>>> ev = Evaluator.for_variant("portes")
>>> p = ev.probabilities(Position.start("portes"))
>>> 0.4 < p.win < 0.6 and p.win2 < p.win
True
>>> bot = NeuralBot("advanced")
>>> legal = Position.start("portes").legal_plays(Dice(3, 1))
>>> str(legal[bot.choose(legal)])
'8/5 6/5'
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from tavli import _kernel as K
from tavli.bots import bearoff, search
from tavli.bots.features import INPUT_GROUP_ENDS, N_INPUTS, ROLLS
from tavli.bots.levels import DEFAULT_LEVEL as DEFAULT_LEVEL
from tavli.bots.levels import LEVELS as LEVELS
from tavli.bots.levels import Level as Level
from tavli.bots.match_equity import AfterGame, MatchScore
from tavli.bots.network import MONEY, Network, grown
from tavli.dice import Dice
from tavli.errors import TavliError
from tavli.position import LegalPlays, Position
from tavli.variants import Variant, make_variant


class WeightsError(TavliError):
    """A weights file that cannot be used."""


@dataclass(frozen=True)
class Probabilities:
    """Chances for the side to roll: win, win 2 points, lose 2 points."""

    win: float
    win2: float
    lose2: float

    @property
    def equity(self) -> float:
        """Expected points: +2 for a sure 2-point win, -2 for a sure 2-point loss."""
        return 2.0 * self.win - 1.0 + self.win2 - self.lose2

    def __str__(self) -> str:
        return (f"win {100 * self.win:.1f}% (2 points {100 * self.win2:.1f}%), "
                f"lose 2 points {100 * self.lose2:.1f}%, equity {self.equity:+.3f}")


@dataclass(frozen=True)
class Analysis:
    """One play of a roll with its value for the side playing it, at ``depth`` plies;
    analysed at a match score, also his chance of winning the match after it."""

    index: int
    probabilities: Probabilities
    depth: int
    match_equity: float | None = None

    @property
    def equity(self) -> float:
        return self.probabilities.equity


Filters = tuple[tuple[int, float], ...]
"""A search's filter for each ply from the first: ``(keep, margin)``, at most ``keep`` plays
within ``margin`` points (or match equity scaled to points) of the best go a ply deeper."""

FILTERS: Filters = ((8, 0.16), (3, 0.06), (2, 0.04))
"""The bots' filters: the best 8 plays go to 1 ply, 3 of those to 2, 2 of those to 3."""


class Evaluator:
    """One game's network, with the bear-off database for races at home."""

    def __init__(self, kernel_id: int, network: Network, meta: dict[str, object]) -> None:
        self.kernel_id = kernel_id
        self.network = network
        self.meta = meta
        self.race = bearoff.load()  # the bear-off tables (``tavli.bots.network.Tables``)

    @classmethod
    def from_file(cls, path: str | Path) -> Evaluator:
        """Load a network saved by ``tavli train`` (a checkpoint or a shipped file)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                w1, b1, w2, b2 = (np.ascontiguousarray(data[k], dtype=np.float32)
                                  for k in ("w1", "b1", "w2", "b2"))
            kernel_id = int(meta["kernel_id"])
        except (OSError, EOFError, KeyError, TypeError, ValueError, zipfile.BadZipFile, zlib.error) as e:
            raise WeightsError(f"cannot read network {path}: {e}") from None
        if (kernel_id not in (K.PORTES, K.PLAKOTO, K.FEVGA) or w1.ndim != 2 or w1.shape[1] != len(b1)
                or w1.shape[0] not in INPUT_GROUP_ENDS[kernel_id] or w2.shape != (3, len(b1))
                or b2.shape != (3,)):
            raise WeightsError(f"network {path} does not fit its game's inputs")
        # A network from before its game's last inputs were added keeps its own, fewer inputs:
        # ``encode`` leaves out the groups it cannot read, so it does not pay for them.
        return cls(kernel_id, (w1, b1, w2, b2), meta)

    @functools.cached_property
    def fingerprint(self) -> str:
        """A short hash of the weights: which network made a figure (``tavli.study.openings`` keeps it).

        >>> len(Evaluator.for_variant("portes").fingerprint)
        12
        """
        digest = hashlib.sha256()
        # as if the inputs the network cannot read were there with zero weights: the same
        # network whether it was saved before or after its game's inputs grew
        w1, b1, w2, b2 = self.network
        for array in (grown(w1, N_INPUTS[self.kernel_id], 0), b1, w2, b2):
            digest.update(str(array.shape).encode())
            digest.update(np.ascontiguousarray(array, dtype=np.float32).tobytes())
        return digest.hexdigest()[:12]

    @staticmethod
    @functools.cache
    def for_variant(variant: Variant | str) -> Evaluator:
        """The shipped network of a game (house rules share their game's network)."""
        v = make_variant(variant)
        path = resources.files("tavli") / "weights" / f"{v.name}.npz"
        with resources.as_file(path) as p:
            return Evaluator.from_file(p)

    def probabilities(self, position: Position) -> Probabilities:
        """The 0-ply value for the side to roll in ``position``."""
        if position.variant.kernel_id != self.kernel_id:
            raise TavliError(f"this network plays {self.meta.get('variant')}, not {position.variant}")
        w, w2, l2 = search.static_values(position.state[None, :], position.variant.params, self.network,
                                    self.race)[0]
        return Probabilities(float(w), float(w2), float(l2))

    def analyse(self, legal: LegalPlays, depth: int = 0, filters: Filters = FILTERS,
                after: AfterGame | None = None, decide: bool = False) -> list[Analysis]:
        """Every play of ``legal`` valued for the side playing it, best first.

        Every play gets 0 ply; ``filters[i] = (keep, margin)``: at most ``keep``
        plays within ``margin`` of the best at ``i`` plies go on to ``i + 1``
        plies, down to ``depth``. Without ``after`` plays are ranked by equity
        (points per game); with it (the match equity after each outcome of the
        game, ``tavli.bots.match_equity``) by the chance of winning the match, and both sides
        play so in the search. With ``decide`` only the choice matters: the
        search stops where a single play would go deeper (the first's depth
        may then be less than ``depth``).

        >>> from tavli import Position, Dice
        >>> legal = Position.start("portes").legal_plays(Dice(6, 5))
        >>> found = Evaluator.for_variant("portes").analyse(legal, 2, ((3, 1.0), (1, 1.0)))
        >>> [a.depth for a in found]
        [2, 1, 1, 0, 0, 0, 0]
        """
        values, used = self.search(legal, depth, filters, after, decide)
        found = [Analysis(k, Probabilities(*map(float, values[k])), int(used[k]),
                          None if after is None else after.value(*map(float, values[k])))
                 for k in range(len(values))]
        if after is None:
            return sorted(found, key=lambda a: (-a.depth, -a.equity))
        return sorted(found, key=lambda a: (-a.depth, -(a.match_equity or 0.0)))

    def search(self, legal: LegalPlays, depth: int = 0, filters: Filters = FILTERS,
               after: AfterGame | None = None, decide: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``analyse``'s search as arrays in the order of ``legal``: the chances ``[n, 3]`` (win,
        win 2, lose 2) of each play and the depth ``[n]`` it was searched to."""
        if legal.position.variant.kernel_id != self.kernel_id:
            raise TavliError(f"this network plays {self.meta.get('variant')}, not {legal.position.variant}")
        if not 0 <= depth <= search.MAX_DEPTH:
            raise ValueError(f"the search depth is 0 to {search.MAX_DEPTH} plies, not {depth}")
        if len(filters) < depth:
            raise ValueError(f"a {depth}-ply search needs {depth} filters, not {len(filters)}")
        rows = legal.results
        params = legal.position.variant.params
        weights = MONEY if after is None else search_weights(after)
        keeps, margins = _filter_arrays(filters, depth)
        values: np.ndarray
        used: np.ndarray
        values, used = K.with_workspace(lambda ws: search.analyse(
            rows, params, self.network, self.race, ws.args(), depth, keeps, margins, weights, decide))
        return values, used

    def best(self, legal: LegalPlays, depth: int = 0, filters: Filters = FILTERS,
             after: AfterGame | None = None) -> int:
        """The index in ``legal`` of ``analyse(..., decide=True)[0]``, the play a bot chooses,
        without making the analysis of every play.

        >>> from tavli import Position, Dice
        >>> legal = Position.start("portes").legal_plays(Dice(3, 1))
        >>> str(legal[Evaluator.for_variant("portes").best(legal, 1)])
        '8/5 6/5'
        """
        values, used = self.search(legal, depth, filters, after, decide=True)
        if after is None:
            worth = 2.0 * values[:, 0] - 1.0 + values[:, 1] - values[:, 2]
        else:
            worth = np.array([after.value(*map(float, v)) for v in values])
        return int(np.lexsort((-worth, -used))[0])  # as ``analyse``'s sort: deepest, then best, then first


    def roll_probabilities(self, position: Position, after: AfterGame | None = None) -> dict[Dice, Probabilities]:
        """For each of the 21 rolls (lower die first), the chances of the side to roll in
        ``position`` after his best play of it by 0-ply: for points, or with ``after`` (his
        match equity after each outcome of the game) for the match."""
        if position.variant.kernel_id != self.kernel_id:
            raise TavliError(f"this network plays {self.meta.get('variant')}, not {position.variant}")
        weights = MONEY[0] if after is None else search_weights(after)[0]
        values = K.with_workspace(lambda ws: search.roll_values(
            position.state, position.variant.params, self.network, self.race, ws.args(), weights))
        return {Dice(int(d1), int(d2)): Probabilities(*map(float, v))
                for (d1, d2, _), v in zip(ROLLS, values, strict=True)}

    def roll_equities(self, position: Position) -> dict[Dice, float]:
        """For each of the 21 rolls (lower die first), the equity of the side to
        roll in ``position`` after his best play of it by 0-ply."""
        return {dice: p.equity for dice, p in self.roll_probabilities(position).items()}

    def luck(self, position: Position, dice: Dice, after: AfterGame | None = None) -> float:
        """How much better than an average roll ``dice`` are for the side to roll in
        ``position``: his equity after his best play of them less the mean over all 36
        throws, both by 0-ply; with ``after``, his chance of winning the match instead
        (``tavli.bots.match_equity.AfterGame.value``). Its mean over the throws is 0.

        >>> ev = Evaluator.for_variant("portes")
        >>> ev.luck(Position.start("portes"), Dice(3, 1)) > 0
        True
        """
        return roll_luck(self.roll_probabilities(position, after), dice,
                         (lambda p: p.equity) if after is None else (lambda p: after.value(p.win, p.win2, p.lose2)))


@functools.cache
def _filter_arrays(filters: Filters, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """The search's ``keeps`` and ``margins`` for the first ``depth`` filters (shared: the
    search only reads them)."""
    keeps = np.array([keep for keep, _ in filters[:depth]] or [0], np.int64)
    margins = np.array([margin for _, margin in filters[:depth]] or [0.0], np.float64)
    return keeps, margins


def roll_luck(values: Mapping[Dice, Probabilities], dice: Dice, worth: Callable[[Probabilities], float]) -> float:
    """What ``dice`` are worth by ``worth`` against the mean of the 36 throws, given the
    chances after each of the 21 rolls (``Evaluator.roll_probabilities``).

    >>> p = {Dice(a, b): Probabilities(1.0 if a == b else 0.0, 0.0, 0.0) for a in range(1, 7) for b in range(a, 7)}
    >>> roll_luck(p, Dice(2, 2), lambda x: x.win), roll_luck(p, Dice(1, 2), lambda x: x.win)
    (0.8333333333333334, -0.16666666666666666)
    """
    mean = sum(worth(p) * (1 if d.first == d.second else 2) for d, p in values.items()) / 36
    return worth(values[Dice(min(dice), max(dice))]) - mean


def search_weights(after: AfterGame) -> np.ndarray:
    """The search's outcome weights (``tavli.bots.network.weighted``) for the side to play, whose
    match equity after each outcome is ``after``, and for his opponent.

    >>> from tavli.bots import match_equity, network
    >>> (search_weights(match_equity.MONEY) == network.MONEY).all()
    np.True_
    """
    c0, c1, c2, c3 = after.weights()
    return np.array([[c0, c1, c2, c3], [-(c0 + c1), c1, -c3, -c2]], np.float64)


@dataclass(frozen=True)
class NoiseRule:
    """How a game shapes the noisy levels' mistakes.

    ``choices``: the noise picks only among this many best plays (by the bot's
    own judgement); ``None`` for every play. ``scale``: the levels' noise is
    multiplied by this. ``calm_at``: the noise fades linearly as the best
    play's equity moves away from zero, and is gone at this many points
    either way; ``None`` keeps it whole.
    """

    choices: int | None = None
    scale: float = 1.0
    calm_at: float | None = None

    def sigma(self, noise: float, best_equity: float) -> float:
        """The noise (in equity) for a level's ``noise`` when the best play is worth ``best_equity``.

        >>> NoiseRule(scale=2.0, calm_at=1.0).sigma(0.1, 0.25)
        0.15000000000000002
        """
        fade = 1.0 if self.calm_at is None else max(0.0, 1.0 - abs(best_equity) / self.calm_at)
        return noise * self.scale * fade


NOISE_RULES: dict[str, NoiseRule] = {
    "portes": NoiseRule(),
    "plakoto": NoiseRule(choices=3),
    "fevga": NoiseRule(choices=3, scale=1.6, calm_at=1.0),
}
"""Each game's ``NoiseRule``.

In Plakoto and Fevga one wild play can throw away a double game (or the
game) even against random play, so noise over every play makes the low
levels lose against random play far more than a weak human would; noise
among the best few keeps them weaker than the level above without that.
In Fevga, where no checker is ever hit, a game once clearly won or lost is
decided between one point and two by many small choices in a long race, so
even small noise there costs a double game against anybody: the noise fades
as the game becomes one-sided, and is larger while it is in the balance.
"""


class NeuralBot:
    """A player at one of the ``LEVELS`` (by name), or at a ``Level`` of its own to try one,
    using each game's shipped network.

    Noise is drawn once per play and scaled to equity; with ``seed`` the bot
    repeats its choices.

    >>> NeuralBot(Level("3-ply", 3, 0.0, "looks three rolls ahead")).name
    '3-ply'
    """

    def __init__(self, level: str | Level = DEFAULT_LEVEL, seed: int | None = None,
                 evaluators: dict[int, Evaluator] | None = None) -> None:
        if isinstance(level, str):
            if level not in LEVELS:
                raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
            level = LEVELS[level]
        self.level = level
        self.name = level.name
        self._rng = random.Random(seed)
        self._evaluators = evaluators or {}

    def evaluator(self, variant: Variant) -> Evaluator:
        ev = self._evaluators.get(variant.kernel_id)
        return ev if ev is not None else Evaluator.for_variant(variant.name)

    def analyse(self, legal: LegalPlays, score: MatchScore | None = None, decide: bool = False) -> list[Analysis]:
        """The plays valued at this level's depth, best first (without noise): by points per
        game, or at a match ``score`` by the chance of winning the match. With ``decide``
        only the best play's place is sure (``Evaluator.analyse``)."""
        after = None if score is None else score.after_game()
        return self.evaluator(legal.position.variant).analyse(legal, self.level.depth, after=after, decide=decide)

    def choose(self, legal: LegalPlays, score: MatchScore | None = None) -> int:
        """The index of the bot's play in ``legal``: for points per game (a single game, money
        play), or with the match ``score`` of the side to play for the match.

        >>> from tavli.match import MatchSettings
        >>> from tavli.bots.match_equity import MatchScore
        >>> legal = Position.start("portes").legal_plays(Dice(3, 1))
        >>> score = MatchScore.at(MatchSettings(length=5), need=1, opp_need=1, game=0)
        >>> str(legal[NeuralBot("advanced").choose(legal, score)])
        '8/5 6/5'
        """
        if len(legal) == 1:
            return 0
        if self.level.noise == 0.0:
            after = None if score is None else score.after_game()
            return self.evaluator(legal.position.variant).best(legal, self.level.depth, after=after)
        after = None if score is None else score.after_game()
        values, used = self.evaluator(legal.position.variant).search(legal, self.level.depth, after=after)
        equities = 2.0 * values[:, 0] - 1.0 + values[:, 1] - values[:, 2]  # as ``Probabilities.equity``
        worth = equities if after is None else np.array([after.value(*map(float, v)) for v in values])
        order = np.lexsort((-worth, -used))  # ``analyse``'s order: deepest, then best, then first
        rule = NOISE_RULES.get(legal.position.variant.name, NoiseRule())
        sigma = rule.sigma(self.level.noise, float(equities[order[0]]))
        if sigma == 0.0:
            return int(order[0])
        candidates = order[:rule.choices] if rule.choices else order
        # the same noise at a match score, in match equity: a point of equity is worth half a game's swing
        scale = 1.0 if after is None else (after.win1 - after.lose1) / 2.0
        noisy = [(float(worth[k]) + self._rng.gauss(0.0, sigma * scale), int(k)) for k in candidates]
        return max(noisy)[1]

    def accepts_resignation(self, offer: Position | LegalPlays, points: int, score: MatchScore | None = None) -> bool:
        """Whether the bot takes ``points`` from the side to play, who resigns: ``offer`` is his
        position before he rolls, or his roll's ``LegalPlays`` once he has rolled (valued at the
        bot's depth).

        It takes the offer when it is worth at least what the bot expects from playing on: the
        points the network expects it to win or, at a match ``score`` (the resigner's), its
        chance of winning the match.

        >>> from tavli import WHITE, Position
        >>> from tavli.match import MatchSettings
        >>> bot = NeuralBot("expert")
        >>> gammoned = Position.from_checkers("portes", WHITE, {12: 15}, {p: 3 for p in range(1, 6)})
        >>> bot.accepts_resignation(gammoned, 1), bot.accepts_resignation(gammoned, 2)
        (False, True)
        >>> one_away = MatchScore.at(MatchSettings(length=5), need=5, opp_need=1, game=0)  # the resigner's score
        >>> bot.accepts_resignation(gammoned, 1, one_away)  # 1 point is the match
        True
        """
        if isinstance(offer, LegalPlays) and len(offer):
            best = self.analyse(offer, score)[0]
            playing_on = best.equity if score is None else best.match_equity or 0.0
        else:
            position = offer.position if isinstance(offer, LegalPlays) else offer
            p = self.evaluator(position.variant).probabilities(position)
            playing_on = p.equity if score is None else score.after_game().value(p.win, p.win2, p.lose2)
        if score is None:
            return points >= -playing_on
        after = score.after_game()
        return (after.lose1 if points == 1 else after.lose2) <= playing_on
