"""Match equity: the chance of winning a Tavli match from any score.

A state of a match is the points each side still needs, which game of the
order comes next and who starts it. As in ``tavli.match.Match``, the first
game's starter is decided by a roll-off (even chances), the winner of a game
starts the next, and after a tie (Plakoto) a roll-off decides again. From
each game's outcome distribution for its starter (``Outcomes``: win 1, win
2, tie, lose 1, lose 2) the equity follows by dynamic programming; ties,
which leave the score as it was, make a small linear system for each score,
solved exactly.

>>> even = Outcomes(win1=0.4, win2=0.1, tie=0.0, lose1=0.4, lose2=0.1)
>>> met = MatchEquity(("portes",), {"portes": even})
>>> met.equity(1, 1)
0.5
>>> round(met.equity(1, 2, starter=Starter.ME), 3)
0.7

The shipped outcome figures (``tavli/data/outcomes.json``, measured by
``tools/outcomes.py``) make the table for a match's settings:

>>> from tavli.match import MatchSettings
>>> met = MatchEquity.for_settings(MatchSettings(length=7))
>>> 0.5 < met.equity(6, 7) < 1.0
True
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np

from tavli.errors import TavliError
from tavli.variants import Color, Variant, make_variant

if TYPE_CHECKING:
    from tavli.match import Match, MatchSettings


class MatchEquityError(TavliError):
    """Outcome figures or a match state that cannot be used."""


class Starter(enum.Enum):
    """Who starts the next game, seen from the side whose equity is asked."""

    ME = "me"
    OPPONENT = "opponent"
    ROLL_OFF = "roll-off"

    @property
    def other(self) -> Starter:
        """The same starter seen from the other side."""
        return {Starter.ME: Starter.OPPONENT, Starter.OPPONENT: Starter.ME}.get(self, self)


@dataclass(frozen=True)
class Outcomes:
    """A game's outcome distribution for the side that starts it.

    >>> o = Outcomes(0.35, 0.2, 0.05, 0.3, 0.1)
    >>> o.flipped()
    Outcomes(win1=0.3, win2=0.1, tie=0.05, lose1=0.35, lose2=0.2)
    >>> round(o.points, 3)
    0.25
    """

    win1: float
    win2: float
    tie: float
    lose1: float
    lose2: float

    def __post_init__(self) -> None:
        values = (self.win1, self.win2, self.tie, self.lose1, self.lose2)
        if any(not 0.0 <= v <= 1.0 for v in values) or abs(sum(values) - 1.0) > 1e-6:
            raise MatchEquityError("outcome rates must lie in 0..1 and add up to 1, not {values}", values=values)

    def flipped(self) -> Outcomes:
        """The same game seen by the side that does not start it."""
        return Outcomes(self.lose1, self.lose2, self.tie, self.win1, self.win2)

    @property
    def points(self) -> float:
        """The starter's expected points per game."""
        return self.win1 + 2 * self.win2 - self.lose1 - 2 * self.lose2


@dataclass(frozen=True)
class AfterGame:
    """The match equity of one side after each outcome of the game being played.

    ``weights`` turn a game's (win, win 2, lose 2) probabilities into match
    equity, scaled so that a point of game equity is worth about one: with
    money play's ``AfterGame.MONEY`` they give ``2 * win - 1 + win2 - lose2``.
    """

    win1: float
    win2: float
    tie: float
    lose1: float
    lose2: float

    def value(self, win: float, win2: float, lose2: float) -> float:
        """Match equity for the chances of a game, a tie counted as half a win and half a loss
        (as the networks count it).

        >>> AfterGame(0.8, 1.0, 0.5, 0.2, 0.0).value(0.5, 0.0, 0.0)
        0.5
        """
        return (self.win1 * (win - win2) + self.win2 * win2 + self.lose2 * lose2
                + self.lose1 * (1.0 - win - lose2))

    def weights(self) -> tuple[float, float, float, float]:
        """``(c0, c1, c2, c3)`` with ``c0 + c1 * win + c2 * win2 + c3 * lose2`` an increasing
        affine image of ``value``, scaled so that a 1-point win less a 1-point loss is 2 (money
        play's weights where the game's result hardly changes the match equity).

        >>> AfterGame(1.0, 2.0, 0.0, -1.0, -2.0).weights()
        (-1.0, 2.0, 1.0, -1.0)
        """
        half = (self.win1 - self.lose1) / 2.0
        if half <= 1e-12:  # the game hardly matters to the match any more: play it for points
            return (-1.0, 2.0, 1.0, -1.0)
        mid = (self.win1 + self.lose1) / 2.0
        return ((self.lose1 - mid) / half, (self.win1 - self.lose1) / half,
                (self.win2 - self.win1) / half, (self.lose2 - self.lose1) / half)


MONEY = AfterGame(1.0, 2.0, 0.0, -1.0, -2.0)
"""Points per game: money play, or a single game."""


def shipped_outcomes() -> dict[str, Outcomes]:
    """The measured outcome rates that ship with the package, by variant (``str(variant)``)."""
    found = {}
    for name, row in _shipped()["variants"].items():
        rates = {k: float(row["rates"][k]) for k in ("win1", "win2", "tie", "lose1", "lose2")}
        total = sum(rates.values())
        if abs(total - 1.0) > 1e-9:  # the file's rounding
            rates = {k: r / total for k, r in rates.items()}
        found[name] = Outcomes(**rates)
    return found


@functools.cache
def _shipped() -> dict[str, Any]:
    path = resources.files("tavli") / "data" / "outcomes.json"
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def outcomes_for(variant: Variant | str, outcomes: Mapping[str, Outcomes] | None = None) -> Outcomes:
    """The outcome rates of a variant: measured with its house rules if they were, else its
    game's with the standard rules (``measured_as`` says which).

    >>> even = Outcomes(0.4, 0.1, 0.0, 0.4, 0.1)
    >>> outcomes_for("fevga,prime_limits=off", {"fevga": even}) == even
    True
    """
    table = shipped_outcomes() if outcomes is None else outcomes
    return table[measured_as(variant, table)]


def measured_as(variant: Variant | str, outcomes: Mapping[str, Outcomes] | None = None) -> str:
    """Which figures ``outcomes_for`` gives a variant: its own (``str(variant)``), or its game's
    with the standard rules where its house rules were not measured.

    >>> even = Outcomes(0.4, 0.1, 0.0, 0.4, 0.1)
    >>> measured_as("fevga,prime_limits=off", {"fevga": even})
    'fevga'
    """
    v = make_variant(variant)
    table = shipped_outcomes() if outcomes is None else outcomes
    for key in (str(v), v.name):
        if key in table:
            return key
    raise MatchEquityError("no outcome figures for {variant}", variant=v)


class MatchEquity:
    """Match equities for an order of games (repeated) and each game's outcomes.

    ``equity(need, opp_need, game, starter)``: the chance that the side who
    still needs ``need`` points wins the match against one who needs
    ``opp_need``, with game number ``game`` of the order (0-based, counted
    from the match's first game) next, started by ``starter``.
    """

    def __init__(self, games: Sequence[Variant | str], outcomes: Mapping[str, Outcomes] | None = None) -> None:
        if not games:
            raise MatchEquityError("a match needs at least one game in its order")
        self.games = tuple(make_variant(g) for g in games)
        self.outcomes = tuple(outcomes_for(v, outcomes) for v in self.games)
        self._solved: dict[tuple[int, int], np.ndarray] = {}

    @classmethod
    def for_settings(cls, settings: MatchSettings, outcomes: Mapping[str, Outcomes] | None = None) -> MatchEquity:
        """For a ``tavli.match.MatchSettings``: its order of games with its house rules (with the
        shipped outcome figures, one shared table per settings)."""
        if outcomes is None:
            return _shipped_table(settings)
        return cls([settings.variant(i) for i in range(len(settings.games))], outcomes)

    def equity(self, need: int, opp_need: int, game: int = 0, starter: Starter = Starter.ROLL_OFF) -> float:
        """The chance of winning the match; 1.0 once ``need <= 0``, 0.0 once ``opp_need <= 0``."""
        if need <= 0:
            return 1.0
        if opp_need <= 0:
            return 0.0
        values = self._solve(need, opp_need)
        g = game % len(self.games)
        if starter is Starter.ME:
            return float(values[g, 0])
        if starter is Starter.OPPONENT:
            return float(values[g, 1])
        return float((values[g, 0] + values[g, 1]) / 2.0)

    def after_game(self, need: int, opp_need: int, game: int) -> AfterGame:
        """The equity of a side after each outcome of game number ``game``, now being played."""
        nxt = game + 1
        return AfterGame(
            win1=self.equity(need - 1, opp_need, nxt, Starter.ME),
            win2=self.equity(need - 2, opp_need, nxt, Starter.ME),
            tie=self.equity(need, opp_need, nxt, Starter.ROLL_OFF),
            lose1=self.equity(need, opp_need - 1, nxt, Starter.OPPONENT),
            lose2=self.equity(need, opp_need - 2, nxt, Starter.OPPONENT),
        )

    def table(self, length: int, game: int = 0, starter: Starter = Starter.ROLL_OFF) -> list[list[float]]:
        """``table[i][j]``: the equity needing ``i + 1`` points against ``j + 1``.

        >>> met = MatchEquity(("fevga",), {"fevga": Outcomes(0.5, 0.0, 0.0, 0.5, 0.0)})
        >>> met.table(2)
        [[0.5, 0.75], [0.25, 0.5]]
        """
        if length < 1:
            raise MatchEquityError("a match is played to 1 point or more, not {length!r}", length=length)
        return [[self.equity(i, j, game, starter) for j in range(1, length + 1)] for i in range(1, length + 1)]

    def _solve(self, a: int, b: int) -> np.ndarray:
        """``values[g, s]`` at this score for each game of the order, ``s`` 0 when I start, 1 when
        the opponent does: the equities with the score changed come first, then the ties' system
        ``x = T x + c`` for this score."""
        if (a, b) in self._solved:
            return self._solved[(a, b)]
        n = len(self.games)
        t = np.zeros((2 * n, 2 * n))
        c = np.zeros(2 * n)
        for g in range(n):
            nxt = (g + 1) % n
            for s in (0, 1):
                o = self.outcomes[g] if s == 0 else self.outcomes[g].flipped()
                row = 2 * g + s
                c[row] = (o.win1 * self.equity(a - 1, b, nxt, Starter.ME)
                          + o.win2 * self.equity(a - 2, b, nxt, Starter.ME)
                          + o.lose1 * self.equity(a, b - 1, nxt, Starter.OPPONENT)
                          + o.lose2 * self.equity(a, b - 2, nxt, Starter.OPPONENT))
                t[row, 2 * nxt] += o.tie / 2.0
                t[row, 2 * nxt + 1] += o.tie / 2.0
        try:
            x = np.linalg.solve(np.eye(2 * n) - t, c)
        except np.linalg.LinAlgError:
            raise MatchEquityError("every game of the order is always a tie: no match ends") from None
        values: np.ndarray = np.clip(x.reshape(n, 2), 0.0, 1.0)
        self._solved[(a, b)] = values
        return values


@functools.cache
def _shipped_table(settings: MatchSettings) -> MatchEquity:
    return MatchEquity([settings.variant(i) for i in range(len(settings.games))])


def parse_order(text: str) -> tuple[str, ...] | None:
    """A match's order of games as the front ends name it: ``tavli`` (Portes, Plakoto, Fevga
    repeated), ``single`` (the position's game alone: None, as ``MatchScore.in_game`` takes it) or
    a comma list like ``fevga,portes``.

    >>> parse_order("tavli"), parse_order("single"), parse_order("Fevga, portes")
    (('portes', 'plakoto', 'fevga'), None, ('fevga', 'portes'))
    """
    from tavli.match import MatchSettings

    if text.strip().lower() == "single":
        return None
    try:
        if text.strip():
            return MatchSettings.parse_games(text)
    except TavliError:
        pass
    raise MatchEquityError("the order of games is tavli, single or a list like fevga,portes, not {text!r}",
                           text=text)


@dataclass(frozen=True)
class MatchScore:
    """Where a match stands for the side to play: the points he and his opponent still
    need, the number of the game being played (0-based) and the match's table.

    >>> from tavli.match import MatchSettings
    >>> score = MatchScore.at(MatchSettings(length=5), need=1, opp_need=4, game=2)
    >>> score.after_game().win1, score.after_game().lose2 < score.after_game().lose1
    (1.0, True)
    """

    table: MatchEquity
    need: int
    opp_need: int
    game: int

    def __post_init__(self) -> None:
        if self.need < 1 or self.opp_need < 1 or self.game < 0:
            raise MatchEquityError("no match is played at {need}-away/{opp_need}-away, game {game}",
                                   need=self.need, opp_need=self.opp_need, game=self.game)

    @classmethod
    def at(cls, settings: MatchSettings, need: int, opp_need: int, game: int) -> MatchScore:
        return cls(MatchEquity.for_settings(settings), need, opp_need, game)

    @classmethod
    def in_game(cls, variant: Variant | str, mine: int, theirs: int, length: int,
                games: Sequence[str] | None = None, game: int | None = None) -> MatchScore:
        """The score of the side to play a game of ``variant`` who has won ``mine`` points of a
        match to ``length`` and his opponent ``theirs``: the match's order of ``games`` (the
        variant's game alone by default), played with the variant's house rules, and ``game`` the
        number (0-based) of the game being played, by default the first of the order that is
        ``variant``'s game (in a repeated order the rest of the match looks the same).

        >>> score = MatchScore.in_game("fevga", mine=4, theirs=3, length=5, games=("portes", "plakoto", "fevga"))
        >>> score.need, score.opp_need, score.game
        (1, 2, 2)
        """
        from tavli.match import MatchSettings

        v = make_variant(variant)
        if not (0 <= mine < length and 0 <= theirs < length):
            raise MatchEquityError("in a match to {length} each side has 0 to {most} points, not {mine} and {theirs}",
                                   length=length, most=length - 1, mine=mine, theirs=theirs)
        order = tuple(games) if games else (v.name,)
        settings = MatchSettings(length=length, games=order, mother_pin=getattr(v, "mother_pin", "double"),
                                 prime_limits=getattr(v, "prime_limits", True),
                                 prime_in_opponent_start=getattr(v, "prime_in_opponent_start", True))
        if game is None:
            if v.name not in order:
                raise MatchEquityError("{game} is not among the match's games ({games})",
                                       game=v.name, games=", ".join(order))
            game = order.index(v.name)
        if settings.variant(game).name != v.name:
            raise MatchEquityError("game {number} of the match is {game}, but the position is {other}",
                                   number=game + 1, game=settings.variant(game).name, other=v.name)
        return cls.at(settings, length - mine, length - theirs, game)

    @classmethod
    def for_colors(cls, variant: Variant | str, turn: Color, white: int, black: int, length: int,
                   games: Sequence[str] | None = None) -> MatchScore:
        """``in_game`` for ``turn`` (the side to play) when White has won ``white`` points of the
        match and Black ``black``, as a position and a score board give them.

        >>> from tavli.variants import BLACK
        >>> score = MatchScore.for_colors("portes", BLACK, white=2, black=0, length=3)
        >>> score.need, score.opp_need
        (3, 1)
        """
        if not (0 <= white < length and 0 <= black < length):
            raise MatchEquityError("in a match to {length} each side has 0 to {most} points, "
                                   "not White {white} and Black {black}",
                                   length=length, most=length - 1, white=white, black=black)
        mine, theirs = (black, white) if turn == Color.BLACK else (white, black)
        return cls.in_game(variant, mine, theirs, length, games)

    @classmethod
    def of(cls, match: Match, side: Color | None = None) -> MatchScore:
        """The score of a running ``tavli.match.Match`` for ``side`` (the side to move by default)."""
        me = match.turn if side is None else side
        length = match.settings.length
        return cls.at(match.settings, length - match.score[me], length - match.score[me.other],
                      len(match.records) - 1)

    def after_game(self) -> AfterGame:
        """The side's match equity after each outcome of the game being played."""
        return self.table.after_game(self.need, self.opp_need, self.game)

