"""Glicko-2 ratings: a player's rating, how sure it is, and how it moves with results.

The formulas are Mark Glickman's, step by step as in "Example of the Glicko-2 system" (2013):
a ``Rating`` is a rating, a deviation (how far off the rating may be) and a volatility (how much
the player's strength swings); ``update`` rates one period of games, ``rate_match`` one match
between two players, both at once. A match of N points counts like √N games (``match_weight``).

>>> a, b = rate_match(Rating(), Rating(), 1.0, weight=match_weight(5))
>>> str(a), str(b)
('1762?', '1238?')
>>> a.rating - 1500 == 1500 - b.rating
True
>>> str(Rating(1623.4, 80.0))
'1623'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from tavli.errors import TavliError

SCALE = 173.7178
"""Glicko-2 units per rating point's unit: μ = (r − 1500) / 173.7178, φ = RD / 173.7178."""
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
"""The system constant τ: how far one period may move the volatility (the paper: 0.3 to 1.2)."""
TOLERANCE = 0.000001
"""Where the volatility's iteration stops, as in the paper."""
PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is over this is provisional: shown with ``?``, kept off the leaderboard."""


class RatingError(TavliError):
    """A rating, result or setting that the formulas cannot take.

    >>> Rating(deviation=-5)
    Traceback (most recent call last):
    ...
    tavli.rating.RatingError: a rating's deviation must be a positive number, not -5
    """


def _check(value: float, template: str, low: float = 0.0, high: float = math.inf, *, open_low: bool = True) -> None:
    # NaN fails every comparison, so ``not (...)`` catches it with the out-of-range values
    inside = (low < value if open_low else low <= value) and value <= high and math.isfinite(value)
    if not inside:
        raise RatingError(template, value=value)


@dataclass(frozen=True)
class Rating:
    """A player's rating on the usual scale (1500 for a newcomer), its deviation and volatility.

    >>> Rating()
    Rating(rating=1500.0, deviation=350.0, volatility=0.06)
    >>> provisional(Rating()), Rating().display()
    (True, '1500?')
    """

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        _check(self.rating, "a rating must be a finite number, not {value}", -math.inf)
        _check(self.deviation, "a rating's deviation must be a positive number, not {value}")
        _check(self.volatility, "a rating's volatility must be a positive number, not {value}")

    @property
    def provisional(self) -> bool:
        """Whether the rating is still uncertain: its deviation is over ``PROVISIONAL_DEVIATION``."""
        return self.deviation > PROVISIONAL_DEVIATION

    def display(self) -> str:
        """The rating as players see it: whole points, ``?`` after a provisional one."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    def __str__(self) -> str:
        return self.display()


def provisional(rating: Rating) -> bool:
    """Whether ``rating``'s deviation is over ``PROVISIONAL_DEVIATION`` (110)."""
    return rating.provisional


def match_weight(length: int) -> float:
    """How many games a match of ``length`` points counts as: √length, as FIBS weighs matches.

    >>> match_weight(1), match_weight(9)
    (1.0, 3.0)
    """
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise RatingError("a match's length must be a whole number of points from 1, not {value}", value=length)
    return math.sqrt(length)


def _g(phi: float) -> float:
    # how much an opponent's own uncertainty blunts what a result against him says
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility σ′, the root of f found by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > TOLERANCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0  # the Illinois step: halving keeps the old end from sticking
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = DEFAULT_TAU,
           weight: float = 1.0) -> Rating:
    """``player``'s rating after one period whose ``results`` are (opponent's rating, score) pairs,
    scores from 0 (a loss) to 1 (a win), each result counting as ``weight`` games.

    With no results the deviation grows by the volatility and the rating stays. The opponents'
    ratings are theirs from before the period.

    >>> new = update(Rating(1500, 200), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    >>> f"{new.rating:.2f} {new.deviation:.2f} {new.volatility:.6f}"
    '1464.05 151.52 0.059996'

    (The paper rounds μ′ to −0.2069 on the way and so shows 1464.06.)
    """
    _check(tau, "the system constant tau must be a positive number, not {value}")
    _check(weight, "a result's weight must be a positive number of games, not {value}")
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    information = 0.0  # 1 / v: what the period's games say about the player, summed
    pull = 0.0  # Σ g(φj)(sj − Ej): how far the results lie from what was expected
    for opponent, score in results:
        if not isinstance(opponent, Rating):
            raise RatingError("an opponent must be a Rating, not {value!r}", value=opponent)
        _check(score, "a score must be from 0 to 1, not {value}", open_low=False, high=1.0)
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        g, e = _g(phi_j), _expected(mu, mu_j, phi_j)
        information += weight * g * g * e * (1.0 - e)
        pull += weight * g * (score - e)
    if information == 0.0:
        # no games (or only results so certain that they say nothing): step 6 alone, the
        # deviation grows and the rating and volatility stay
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    v = 1.0 / information
    new_sigma = _volatility(sigma, phi, v, v * pull, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + information)
    new_mu = mu + new_phi * new_phi * pull
    return Rating(SCALE * new_mu + DEFAULT_RATING, SCALE * new_phi, new_sigma)


def rate_match(a: Rating, b: Rating, score_a: float, *, weight: float = 1.0,
               tau: float = DEFAULT_TAU) -> tuple[Rating, Rating]:
    """Both players' ratings after a match that ``a`` scored ``score_a`` in (1 won, 0 lost), rated
    as a period of its own for each, both from the ratings before it. ``weight`` is how many games
    the match counts as: ``match_weight(length)`` for a match to ``length`` points.

    >>> a, b = rate_match(Rating(1600, 80), Rating(1500, 80), 0.0)
    >>> round(a.rating), round(b.rating), round(a.deviation)
    (1578, 1522, 79)
    """
    _check(score_a, "a score must be from 0 to 1, not {value}", open_low=False, high=1.0)
    return update(a, [(b, score_a)], tau=tau, weight=weight), update(b, [(a, 1.0 - score_a)], tau=tau, weight=weight)


__all__ = [
    "DEFAULT_DEVIATION", "DEFAULT_RATING", "DEFAULT_TAU", "DEFAULT_VOLATILITY", "PROVISIONAL_DEVIATION", "SCALE",
    "TOLERANCE", "Rating", "RatingError", "match_weight", "provisional", "rate_match", "update",
]
