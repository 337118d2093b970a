"""Analysis of played games: every decision's loss against the best play, and every roll's luck.

For each turn the legal plays are ranked by the game's network at a chosen
depth (0 to 3 plies, as ``tavli.bots.neural.Evaluator.analyse``); the played
play's *loss* is the best play's equity less the played play's, in points
per game, both valued at the same depth. A turn with one legal play or none
is *forced*: it is listed, and left out of the rates. Each roll's *luck* is
what the roll was worth against the mean of all 36 throws
(``tavli.bots.neural.Evaluator.luck``).

Per game, per player and per match the figures are the error rate (mean loss
per unforced decision in millipoints, ``ERROR_SCALE``; read like GNU
Backgammon's mEMG per move), the counts of doubtful plays, errors and
blunders (``THRESHOLDS``, per game), the luck and the luck-adjusted result.
docs/analysis.md gives the scale, the thresholds and the data behind them.

A match (``analyse_match``, ``analyse_record`` of a match record) is analysed
at its score: each decision's plays are searched and ranked by the chance of
winning the match (MWC, ``tavli.bots.match_equity``: the match equity after each outcome of
the game weighting the network's outcome probabilities), each candidate has
its MWC, the play made its MWC loss against the best, and the points loss is
that MWC loss in points of a game at this score (GNU Backgammon's EMG), so
that the error rates stay in points. Single games and series are analysed for
points per game.

>>> import random
>>> from tavli import Dice
>>> from tavli.game import Game
>>> from tavli.bots import RandomBot
>>> game, bot, rng = Game("portes"), RandomBot(seed=3), random.Random(3)
>>> while not game.is_over:
...     legal = game.legal_plays(dice := Dice(rng.randint(1, 6), rng.randint(1, 6)))
...     _ = game.play(dice, legal[bot.choose(legal)] if len(legal) else None)
>>> found = analyse_game(game, depth=0, workers=1)
>>> found.players[WHITE].error_rate > 20
True
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from tavli import _kernel as K
from tavli.bots import search
from tavli.bots.match_equity import AfterGame, MatchEquityError, MatchScore
from tavli.bots.network import MONEY
from tavli.bots.neural import Evaluator, Filters, Probabilities, search_weights
from tavli.dice import Dice
from tavli.errors import TavliError
from tavli.game import Game, Turn
from tavli.position import LegalPlays, Play, Position
from tavli.variants import BLACK, WHITE, Color, Variant, make_variant

if TYPE_CHECKING:
    from tavli.bots.rollout import RolloutSettings
    from tavli.formats.record import MatchRecord
    from tavli.match import Match, MatchSettings

DEFAULT_DEPTH = 2
"""The strongest depth that analyses a whole 7-point match within the speed goal
(benchmarks/speed/analysis_speed.py)."""

ERROR_SCALE = 1000.0
"""Error rates are in millipoints per unforced decision: 1000 times the mean loss."""

DEPTHS = (0, 1, 2, 3)
"""The depths an analysis can search (3 plies takes 3 to 20 times as long as 2: docs/strength.md)."""

FILTER: Filters = ((8, 0.16), (2, 0.04), (2, 0.02))
"""Which plays are searched deeper (``tavli.bots.neural.Evaluator.analyse``): at most 8 within
0.16 points of the best at 0-ply go to 1 ply, of those at most 2 within 0.04 to 2 plies
(GNU Backgammon's own filter for its 2-ply analysis), and of those at most 2 within 0.02
to 3 plies. The played play is always searched to the depth of the best."""

CANDIDATES = 5
"""How many of the best plays each decision keeps (the played play is kept besides)."""


class AnalysisError(TavliError):
    """Something that cannot be analysed (an unknown depth, a game that does not replay)."""


@dataclass(frozen=True)
class Thresholds:
    """Losses (points per game) from which a play is doubtful, an error, a blunder.

    >>> THRESHOLDS["portes"].skill(0.1)
    'error'
    """

    doubtful: float
    error: float
    blunder: float

    def skill(self, loss: float) -> str:
        """``"blunder"``, ``"error"``, ``"doubtful"`` or ``""`` for a loss."""
        if loss >= self.blunder:
            return "blunder"
        if loss >= self.error:
            return "error"
        if loss >= self.doubtful:
            return "doubtful"
        return ""

    @staticmethod
    def of(variant: Variant | str) -> Thresholds:
        """The thresholds of a variant's game (house rules share their game's).

        >>> Thresholds.of("plakoto,mother_pin=single") == THRESHOLDS["plakoto"]
        True
        """
        return THRESHOLDS[make_variant(variant).name]


THRESHOLDS: dict[str, Thresholds] = {
    # GNU Backgammon's defaults for backgammon, which Portes is without the cube
    "portes": Thresholds(0.04, 0.08, 0.16),
    # as rare as Portes' in bot games: the same quantiles of the losses
    # (benchmarks/strength/analysis_thresholds.py, docs/analysis.md)
    "plakoto": Thresholds(0.025, 0.05, 0.115),
    "fevga": Thresholds(0.015, 0.035, 0.085),
}


@dataclass(frozen=True)
class Candidate:
    """One play of a roll and its value for the side playing it."""

    play: str
    """Notation, ``""`` for a pass."""
    equity: float
    win: float
    win2: float
    lose2: float
    depth: int
    """The plies it was searched to (``-1`` for a rollout)."""
    ci95: float | None = None
    """Half-width of the 95% interval of ``equity`` when it comes from a rollout."""
    mwc: float | None = None
    """At a match score: the player's chance of winning the match after this play (0..1)."""
    loss: float | None = None
    """Its loss against the best play, as the decision's ``loss`` (points per game; at a match
    score, its MWC loss in points of a game at the score)."""


@dataclass(frozen=True)
class Decision:
    """One turn of a game: the roll, the play, its loss and the roll's luck."""

    game: int
    """0-based index of the game in the match."""
    turn: int
    """1-based turn number in the game."""
    color: Color
    dice: Dice
    position: str
    """The position before the play (``Position.__str__``)."""
    played: str
    best: str
    loss: float
    """Best play's equity less the played play's, in points per game (0 for a forced play)."""
    forced: bool
    """One legal play or none: left out of the rates."""
    luck: float
    """The roll's value against the mean of all 36, for the roller."""
    white_win: float
    """White's chances of winning the game after the play."""
    candidates: tuple[Candidate, ...]
    """The best plays (``CANDIDATES``), best first, and the played play if it is not among them."""
    skill: str
    """``"blunder"``, ``"error"``, ``"doubtful"`` or ``""``."""
    depth: int
    """The depth of the analysis; the candidates' values come from a rollout when they say so."""
    mwc_loss: float | None = None
    """At a match score: the best play's chance of winning the match less the played play's
    (0..1; 0.012 is 1.2 percentage points; 0 when forced); None outside a match."""
    away: tuple[int, int] | None = None
    """At a match score: the points the player and his opponent still needed."""

    @property
    def played_equity(self) -> float:
        return next(c.equity for c in self.candidates if c.play == self.played)

    @property
    def best_equity(self) -> float:
        return self.candidates[0].equity if self.candidates else 0.0


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures over a game or a match."""

    decisions: int
    unforced: int
    loss: float
    """Total loss over his unforced decisions (points)."""
    doubtful: int
    errors: int
    """Errors that are not blunders (GNU Backgammon's "bad")."""
    blunders: int
    luck: float
    """Total luck of his rolls (points)."""
    result: float
    """Points won less points lost."""
    luck_adjusted: float
    """``result`` less his luck and plus his opponent's: what skill alone earned."""
    mwc_loss: float | None = None
    """At a match score: total chance of winning the match lost over his unforced decisions
    (0..1); None outside a match."""

    @property
    def error_rate(self) -> float:
        """Millipoints lost per unforced decision (``ERROR_SCALE`` times the mean loss)."""
        return ERROR_SCALE * self.loss / self.unforced if self.unforced else 0.0

    def __add__(self, other: PlayerStats) -> PlayerStats:
        return PlayerStats(self.decisions + other.decisions, self.unforced + other.unforced,
                           self.loss + other.loss, self.doubtful + other.doubtful, self.errors + other.errors,
                           self.blunders + other.blunders, self.luck + other.luck, self.result + other.result,
                           self.luck_adjusted + other.luck_adjusted,
                           None if self.mwc_loss is None and other.mwc_loss is None
                           else (self.mwc_loss or 0.0) + (other.mwc_loss or 0.0))

    def to_json(self) -> dict[str, Any]:
        return {"error_rate": round(self.error_rate, 2), "decisions": self.decisions, "unforced": self.unforced,
                "loss": round(self.loss, 4), "doubtful": self.doubtful, "errors": self.errors,
                "blunders": self.blunders, "luck": round(self.luck, 4), "result": self.result,
                "luck_adjusted": round(self.luck_adjusted, 4)} | (
                    {"mwc_loss": round(self.mwc_loss, 6)} if self.mwc_loss is not None else {})


EMPTY = PlayerStats(0, 0, 0.0, 0, 0, 0, 0.0, 0.0, 0.0)


@dataclass(frozen=True)
class GameAnalysis:
    """One game's decisions and figures."""

    index: int
    variant: str
    winner: Color | None
    points: int
    """Points the winner scored (0 for a tie or an unfinished game)."""
    finished: bool
    decisions: tuple[Decision, ...]
    players: dict[Color, PlayerStats]
    score: dict[Color, int] | None = None
    """In a match: the points each side had before the game."""


@dataclass(frozen=True)
class MatchAnalysis:
    """A match's (or a single game's) analysis: its games and each player's totals."""

    depth: int
    games: tuple[GameAnalysis, ...]
    names: dict[Color, str] = field(default_factory=dict)
    """Who sat where (a bot's level or a person's name), when known."""
    length: int | None = None
    """The match's length when it was analysed at its score (by the chance of winning the
    match); None for single games and series, analysed for points."""

    @property
    def players(self) -> dict[Color, PlayerStats]:
        """Each player's figures over the whole match."""
        total = {WHITE: EMPTY, BLACK: EMPTY}
        for g in self.games:
            for c in (WHITE, BLACK):
                total[c] = total[c] + g.players[c]
        return total

    @property
    def decisions(self) -> list[Decision]:
        return [d for g in self.games for d in g.decisions]

    def mistakes(self, limit: int | None = None) -> list[Decision]:
        """Doubtful plays, errors and blunders, the costliest first."""
        found = sorted((d for d in self.decisions if d.skill), key=lambda d: -d.loss)
        return found[:limit] if limit is not None else found

    def to_json(self) -> dict[str, Any]:
        """One JSON object: the schema is in docs/analysis.md."""
        def seat(stats: PlayerStats, color: Color) -> dict[str, Any]:
            return {"name": self.names.get(color, "")} | stats.to_json()

        def score(g: GameAnalysis) -> dict[str, Any]:
            return {} if g.score is None else {"score": {str(c).lower(): n for c, n in g.score.items()}}

        return {
            "format": "tavli-analysis", "version": 1, "depth": self.depth,
            "scale": "error_rate in millipoints (1/1000 point per game) per unforced decision",
            "match_length": self.length,
            "thresholds": {name: vars(t) for name, t in THRESHOLDS.items()},
            "players": {str(c).lower(): seat(s, c) for c, s in self.players.items()},
            "games": [{"game": g.index, "variant": g.variant, "finished": g.finished,
                       "winner": str(g.winner).lower() if g.winner is not None else None, "points": g.points}
                      | score(g) | {"players": {str(c).lower(): s.to_json() for c, s in g.players.items()}}
                      for g in self.games],
            "decisions": [_decision_json(d) for d in self.decisions],
        }


def _decision_json(d: Decision) -> dict[str, Any]:
    match = {} if d.mwc_loss is None else {"mwc_loss": round(d.mwc_loss, 6),
                                           "away": list(d.away) if d.away is not None else None}
    return {"game": d.game, "turn": d.turn, "player": str(d.color).lower(), "dice": str(d.dice),
            "position": d.position, "played": d.played, "best": d.best, "loss": round(d.loss, 4)} | match | {
            "skill": d.skill, "forced": d.forced, "luck": round(d.luck, 4), "white_win": round(d.white_win, 4),
            "candidates": [{"play": c.play, "equity": round(c.equity, 4), "win": round(c.win, 4),
                            "win2": round(c.win2, 4), "lose2": round(c.lose2, 4), "depth": c.depth}
                           | ({"mwc": round(c.mwc, 6)} if c.mwc is not None else {})
                           | ({"loss": round(c.loss, 4)} if c.loss is not None else {})
                           | ({"ci95": round(c.ci95, 4)} if c.ci95 is not None else {})
                           for c in d.candidates]}


# -- one decision ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Task:
    game: int
    turn: int
    before: Position
    dice: Dice
    played: str
    depth: int
    rollout: RolloutSettings | None = None
    score: MatchScore | None = None


def _searched(ev: Evaluator, legal: LegalPlays, k: int, depth: int, after: AfterGame | None) -> Probabilities:
    """Play ``k`` of ``legal`` valued at ``depth`` whatever its 0-ply value."""
    rows = np.ascontiguousarray(legal.results[k:k + 1])
    params = legal.position.variant.params
    weights = MONEY if after is None else search_weights(after)
    plies = max(depth, 1)  # one filter per ply, each letting the play through
    values, _ = K.with_workspace(lambda ws: search.analyse(
        rows, params, ev.network, ev.race, ws.args(), depth, np.ones(plies, np.int64), np.full(plies, math.inf),
        weights))
    return Probabilities(*map(float, values[0]))


def _candidate(play: str, p: Probabilities, depth: int, after: AfterGame | None) -> Candidate:
    mwc = None if after is None else after.value(p.win, p.win2, p.lose2)
    return Candidate(play, p.equity, p.win, p.win2, p.lose2, depth, mwc=mwc)


def _match_value(after: AfterGame | None, p: Probabilities) -> float:
    """What the analysis ranks plays by: points per game, or at a match score the MWC."""
    return p.equity if after is None else after.value(p.win, p.win2, p.lose2)


def evaluate_decision(before: Position, dice: Dice, played: str, depth: int = DEFAULT_DEPTH,
                      game: int = 0, turn: int = 1, rollout: RolloutSettings | None = None,
                      score: MatchScore | None = None) -> Decision:
    """One decision: ``played`` (notation, ``""`` to pass) with ``dice`` in ``before``.

    At a match ``score`` (the player's, ``tavli.bots.match_equity.MatchScore``) the plays are searched and
    ranked by the chance of winning the match, and the loss is the MWC loss in points of a game
    at this score.

    >>> from tavli import Position
    >>> d = evaluate_decision(Position.start("portes"), Dice(3, 1), "24/21 24/23", depth=0)
    >>> d.best, d.loss > 0.1, d.skill, d.mwc_loss
    ('8/5 6/5', True, 'blunder', None)
    >>> from tavli.match import MatchSettings
    >>> at = MatchScore.at(MatchSettings(length=5), need=5, opp_need=5, game=0)
    >>> m = evaluate_decision(Position.start("portes"), Dice(3, 1), "24/21 24/23", depth=0, score=at)
    >>> m.best, 0.01 < m.mwc_loss < 0.1
    ('8/5 6/5', True)
    """
    if depth not in DEPTHS:
        raise AnalysisError("the depth is 0 to {most} plies, not {depth}", most=DEPTHS[-1], depth=depth)
    after = None if score is None else score.after_game()
    away = None if score is None else (score.need, score.opp_need)
    # a point of a game at this score, in MWC: half the swing between a 1-point win and loss
    half = 1.0 if after is None else (after.win1 - after.lose1) / 2.0
    ev = Evaluator.for_variant(before.variant)
    luck = ev.luck(before, dice)
    legal = before.legal_plays(dice)
    color = before.turn
    if len(legal) == 0:
        if played:
            raise AnalysisError("game {number}, turn {turn}: {play} is played but {dice} cannot be played",
                                number=game + 1, turn=turn, play=played, dice=dice)
        passed = before.pass_turn()
        opp = ev.probabilities(passed) if passed.result() is None else None
        p = Probabilities(1.0 - opp.win, opp.lose2, opp.win2) if opp is not None else Probabilities(0.5, 0.0, 0.0)
        white = p.win if color == WHITE else 1.0 - p.win
        return Decision(game, turn, color, dice, str(before), "", "", 0.0, True, luck, white,
                        (_candidate("", p, 0, after),), "", depth, None if after is None else 0.0, away)
    try:
        k = legal.index(before.parse_play(played, dice))
    except ValueError as e:
        raise AnalysisError("game {number}, turn {turn}: {reason}", number=game + 1, turn=turn, reason=e) from None
    found = ev.analyse(legal, depth if len(legal) > 1 else 0, FILTER, after=after)
    values = {a.index: (a.probabilities, a.depth) for a in found}
    top = found[0].depth
    if values[k][1] < top:
        values[k] = (_searched(ev, legal, k, top, after), top)
    order = sorted(values, key=lambda i: (-values[i][1], -_match_value(after, values[i][0])))
    shown = order[:CANDIDATES] if k in order[:CANDIDATES] else [*order[:CANDIDATES], k]
    plays = {i: str(legal[i]) for i in shown}
    candidates = [_candidate(plays[i], *values[i], after) for i in shown]
    if rollout is not None and len(legal) > 1:
        top_plays = [i for i in order[:CANDIDATES] if values[i][1] == top]
        candidates = _rolled_out(legal, top_plays, k, rollout, after)
    best = candidates[0]

    def lost(c: Candidate) -> float:
        if best.mwc is not None and c.mwc is not None and half > 1e-12:
            return max(0.0, best.mwc - c.mwc) / half
        return max(0.0, best.equity - c.equity)

    candidates = [replace(c, loss=lost(c)) for c in candidates]
    best = candidates[0]
    mine = next(c for c in candidates if c.play == plays[k])
    forced = len(legal) == 1
    mwc_loss = None
    if best.mwc is not None and mine.mwc is not None:
        mwc_loss = 0.0 if forced else max(0.0, best.mwc - mine.mwc)
        loss = mwc_loss / half if half > 1e-12 else max(0.0, best.equity - mine.equity)
    else:
        loss = 0.0 if forced else max(0.0, best.equity - mine.equity)
    skill = "" if forced else Thresholds.of(before.variant).skill(loss)
    white = mine.win if color == WHITE else 1.0 - mine.win
    return Decision(game, turn, color, dice, str(before), plays[k], best.play, loss, forced, luck, white,
                    tuple(candidates), skill, depth, mwc_loss, away)


@dataclass(frozen=True)
class RankedPlay:
    """One play of a roll as ``rank_plays`` values it, for the side playing it."""

    play: Play
    probabilities: Probabilities
    depth: int
    """The plies it was searched to."""
    loss: float
    """What it gives up against the best, in points per game (at a match score, its loss in the
    chance of winning the match as points of a game at that score, as a decision's)."""
    skill: str
    """``""``, ``"doubtful"``, ``"error"`` or ``"blunder"`` by its game's ``THRESHOLDS``."""
    mwc: float | None = None
    """At a match score: the chance of winning the match after it."""
    mwc_loss: float | None = None
    """At a match score: the best play's ``mwc`` less its own."""

    @property
    def equity(self) -> float:
        return self.probabilities.equity


def rank_plays(position: Position, dice: Dice, depth: int = 1, filters: Filters = FILTER,
               score: MatchScore | None = None) -> list[RankedPlay]:
    """Every legal play of ``dice`` in ``position``, best first: each valued at 0 plies, those
    within reach of the best searched on to ``depth`` (``filters``), as the analysis ranks a
    decision's plays; for points per game, or at a match ``score`` (the side to play's,
    ``tavli.bots.match_equity.MatchScore``) by the chance of winning the match. Empty when the roll cannot be
    played.

    >>> ranked = rank_plays(Position.start("portes"), Dice(3, 1), depth=1)
    >>> str(ranked[0].play), ranked[0].depth, ranked[0].loss, len(ranked)
    ('8/5 6/5', 1, 0.0, 16)
    >>> ranked[-1].skill
    'blunder'
    """
    if depth not in DEPTHS:
        raise AnalysisError("the depth is 0 to {most} plies, not {depth}", most=DEPTHS[-1], depth=depth)
    if position.result() is not None:
        raise AnalysisError("the game is over in this position: there is nothing to play")
    legal = position.legal_plays(dice)
    if len(legal) == 0:
        return []
    after = None if score is None else score.after_game()
    found = Evaluator.for_variant(position.variant).analyse(legal, depth if len(legal) > 1 else 0, filters,
                                                            after=after)
    thresholds = Thresholds.of(position.variant)
    # a point of a game at this score, in the chance of winning the match: half the swing between a 1-point win and loss
    half = 1.0 if after is None else (after.win1 - after.lose1) / 2.0
    ranked = []
    for a in found:
        mwc = a.match_equity
        if mwc is None or found[0].match_equity is None:
            mwc_loss, loss = None, max(0.0, found[0].equity - a.equity)
        else:
            mwc_loss = max(0.0, found[0].match_equity - mwc)
            loss = mwc_loss / half if half > 1e-12 else max(0.0, found[0].equity - a.equity)
        ranked.append(RankedPlay(legal[a.index], a.probabilities, a.depth, loss, thresholds.skill(loss), mwc, mwc_loss))
    return ranked


def _rolled_out(legal: LegalPlays, indices: list[int], played: int, settings: RolloutSettings,
                after: AfterGame | None) -> list[Candidate]:
    from tavli.bots.rollout import rollout, turned

    chosen = indices if played in indices else [*indices, played]
    found = []
    for i in chosen:
        # the rollout is for the side to roll after the play: the opponent
        r = turned(rollout(legal.after(i), settings, workers=1))
        mwc = None if after is None else after.value(r.win, r.win2, r.lose2)
        found.append(Candidate(str(legal[i]), r.equity, r.win, r.win2, r.lose2, -1, r.ci95, mwc))
    return sorted(found, key=lambda c: -(c.equity if c.mwc is None else c.mwc))


def _run(task: _Task) -> Decision:
    return evaluate_decision(task.before, task.dice, task.played, task.depth, task.game, task.turn, task.rollout,
                             task.score)


# -- games and matches ---------------------------------------------------------------------------

@dataclass(frozen=True)
class GameInput:
    """A game to analyse: its turns and how it ended (a record may end it by resignation)."""

    variant: Variant
    turns: Sequence[Turn]
    winner: Color | None = None
    points: int = 0
    finished: bool = False

    @classmethod
    def of(cls, game: Game) -> GameInput:
        r = game.result
        return cls(game.variant, list(game.history), r.winner if r else None, r.points if r else 0, r is not None)


Progress = Callable[[int, int], None]
"""Called with (decisions done, decisions in all) as the analysis goes."""

Pool = Literal["thread", "process"]


def _executor(pool: Pool, workers: int) -> Executor:
    if pool == "process":
        return ProcessPoolExecutor(workers, mp_context=get_context("spawn"))
    return ThreadPoolExecutor(workers)


def analyse_games(games: Sequence[GameInput], depth: int = DEFAULT_DEPTH, workers: int | None = None,
                  progress: Progress | None = None, pool: Pool = "thread",
                  rollouts: Mapping[tuple[int, int], RolloutSettings] | None = None,
                  names: Mapping[Color, str] | None = None, match: MatchSettings | None = None) -> MatchAnalysis:
    """Analyse games in order, as the games of one match.

    ``workers`` decisions are valued at once (default: one per core), in
    threads (the search kernels release the GIL) or processes. ``rollouts``
    maps (game index, turn number) to rollout settings: those decisions'
    plays are valued by rollouts instead. With ``match`` (the match's
    settings: its length, order of games and house rules) each game is
    analysed at the score before it, by the chance of winning the match;
    without it, for points per game.
    """
    if depth not in DEPTHS:
        raise AnalysisError("the depth is 0 to {most} plies, not {depth}", most=DEPTHS[-1], depth=depth)
    rollouts = rollouts or {}
    scores = _scores_before(games)

    def at(g: int, color: Color) -> MatchScore | None:
        if match is None:
            return None
        score = scores[g]
        try:
            return MatchScore.at(match, match.length - score[color], match.length - score[color.other], g)
        except MatchEquityError:
            raise AnalysisError("game {number}: the match to {length} was over before it ({white}-{black})",
                                number=g + 1, length=match.length, white=score[WHITE], black=score[BLACK]) from None

    tasks = [_Task(g, t + 1, turn.before, turn.dice, "" if turn.play.is_pass else str(turn.play), depth,
                   rollouts.get((g, t + 1)), at(g, turn.color))
             for g, game in enumerate(games) for t, turn in enumerate(game.turns)]
    workers = workers or os.cpu_count() or 1
    results: list[Decision] = []
    if progress is not None:
        progress(0, len(tasks))
    if workers <= 1 or len(tasks) < 2:
        for task in tasks:
            results.append(_run(task))
            if progress is not None:
                progress(len(results), len(tasks))
    else:
        with _executor(pool, workers) as ex:
            chunk = 1 if pool == "thread" else 4
            for decision in ex.map(_run, tasks, chunksize=chunk):
                results.append(decision)
                if progress is not None:
                    progress(len(results), len(tasks))
    by_game: list[list[Decision]] = [[] for _ in games]
    for d in results:
        by_game[d.game].append(d)
    return MatchAnalysis(depth, tuple(_game_analysis(k, games[k], by_game[k], scores[k] if match else None)
                                      for k in range(len(games))),
                         dict(names or {}), match.length if match is not None else None)


def _scores_before(games: Sequence[GameInput]) -> list[dict[Color, int]]:
    """The points of each side before each game."""
    score = {WHITE: 0, BLACK: 0}
    found = []
    for game in games:
        found.append(dict(score))
        if game.winner is not None:
            score[game.winner] += game.points
    return found


def _stats(decisions: Iterable[Decision], color: Color, result: float, opponent_luck: float,
           scored: bool) -> PlayerStats:
    mine = [d for d in decisions if d.color == color]
    unforced = [d for d in mine if not d.forced]
    luck = sum(d.luck for d in mine)
    return PlayerStats(len(mine), len(unforced), sum(d.loss for d in unforced),
                       sum(d.skill == "doubtful" for d in unforced), sum(d.skill == "error" for d in unforced),
                       sum(d.skill == "blunder" for d in unforced), luck, result,
                       result - luck + opponent_luck,
                       sum(d.mwc_loss or 0.0 for d in unforced) if scored else None)


def _game_analysis(index: int, game: GameInput, decisions: list[Decision],
                   score: dict[Color, int] | None) -> GameAnalysis:
    luck = {c: sum(d.luck for d in decisions if d.color == c) for c in (WHITE, BLACK)}
    points = game.points if game.winner is not None else 0
    result = {c: float(points if game.winner == c else -points) for c in (WHITE, BLACK)}
    players = {c: _stats(decisions, c, result[c], luck[c.other], score is not None) for c in (WHITE, BLACK)}
    return GameAnalysis(index, str(game.variant), game.winner, points, game.finished, tuple(decisions), players,
                        score)


def analyse_game(game: Game, depth: int = DEFAULT_DEPTH, workers: int | None = None,
                 progress: Progress | None = None, pool: Pool = "thread") -> MatchAnalysis:
    """Analyse one game (a match of one game)."""
    return analyse_games([GameInput.of(game)], depth, workers, progress, pool)


def analyse_match(match: Match, depth: int = DEFAULT_DEPTH, workers: int | None = None,
                  progress: Progress | None = None, pool: Pool = "thread") -> MatchAnalysis:
    """Analyse every game of a match at its score, the last one too if it is still going."""
    inputs = []
    for g in match.games:
        inputs.append(GameInput.of(g))
    return analyse_games(inputs, depth, workers, progress, pool, match=match.settings)


def record_inputs(record: MatchRecord) -> list[GameInput]:
    """The games of a match record, each replayed by the rules (``RecordError`` naming where)."""
    games = record.check()
    inputs = []
    for played, recorded in zip(games, record.games, strict=True):
        end = recorded.end
        inputs.append(GameInput(played.variant, list(played.history), end.winner if end else None,
                                end.points if end and end.winner is not None else 0, end is not None))
    return inputs


def analyse_record(record: MatchRecord, depth: int = DEFAULT_DEPTH, workers: int | None = None,
                   progress: Progress | None = None, pool: Pool = "thread",
                   rollouts: Mapping[tuple[int, int], RolloutSettings] | None = None) -> MatchAnalysis:
    """Analyse every game of a match record (see ``analyse_games``): a match at its score, a
    series (``MatchRecord.series``) for points.

    >>> from tavli.dice import DiceRoller
    >>> from tavli.match import Match, MatchSettings
    >>> from tavli.formats.record import MatchRecord, PlayerInfo
    >>> m = Match(MatchSettings(length=1, games=("fevga",)), DiceRoller(seed=3))
    >>> for _ in range(6):
    ...     _ = m.roll(); _ = m.play(m.legal_plays()[-1])
    >>> record = MatchRecord.from_match(m, {WHITE: PlayerInfo("human", "Ada"), BLACK: PlayerInfo("bot", "expert")})
    >>> found = analyse_record(record, depth=0, workers=1)
    >>> len(found.decisions), found.names[BLACK]
    (6, 'bot expert')
    """
    return analyse_games(record_inputs(record), depth, workers, progress, pool, rollouts,
                         {c: str(p) for c, p in record.players.items()},
                         None if record.series else record.settings)


SKILL_COLOURS = {"doubtful": "#e0b000", "error": "#e07000", "blunder": "#d00000"}


def plot(analysis: MatchAnalysis, path: str | Path) -> None:
    """Draw White's chances of winning each game through the match, mistakes marked, into a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    decisions = analysis.decisions
    fig, ax = plt.subplots(figsize=(max(8.0, min(24.0, len(decisions) / 25)), 4.5))
    x0 = 0
    for g in analysis.games:
        xs = list(range(x0, x0 + len(g.decisions) + 1))
        ys = [0.5] + [d.white_win for d in g.decisions]
        ax.plot(xs, ys, color="#2060a0", linewidth=1.2)
        ax.axvline(x0, color="#999999", linewidth=0.6)
        winner = f", {g.winner} +{g.points}" if g.winner is not None else ""
        ax.text(x0 + 1, 1.02, f"{g.index + 1}. {g.variant.split(',')[0]}{winner}", fontsize=8, va="bottom")
        for k, d in enumerate(g.decisions, start=1):
            if d.skill:
                ax.scatter([x0 + k], [d.white_win], s=18 + 40 * min(d.loss, 1.0), color=SKILL_COLOURS[d.skill],
                           marker="o" if d.color == WHITE else "v", zorder=3)
        x0 += len(g.decisions)
    for skill, colour in SKILL_COLOURS.items():
        ax.scatter([], [], color=colour, label=skill)
    ax.scatter([], [], color="#666666", marker="o", label="White's mistake")
    ax.scatter([], [], color="#666666", marker="v", label="Black's mistake")
    players = analysis.players
    names = {c: analysis.names.get(c) or str(c) for c in (WHITE, BLACK)}
    ax.set_title(f"White ({names[WHITE]}): error rate {players[WHITE].error_rate:.1f}, "
                 f"{players[WHITE].blunders} blunders   Black ({names[BLACK]}): error rate "
                 f"{players[BLACK].error_rate:.1f}, {players[BLACK].blunders} blunders   "
                 f"({analysis.depth}-ply)", fontsize=9, pad=16)
    ax.set_ylim(0, 1)
    ax.set_xlim(0, max(1, x0))
    ax.set_xlabel("turn (through the match)")
    ax.set_ylabel("White's chances of winning the game")
    ax.legend(loc="lower left", fontsize=7, ncol=5)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
