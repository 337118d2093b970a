"""Each side's chance of winning a match from where it stands.

The chances come from the position before the roll of the side to move: the game's network at
0 ply (``tavli.bots.neural.Evaluator.probabilities``: win, win 2 points, lose 2 points) weighted by
the match equity after each outcome of the game at the score (``tavli.bots.match_equity``, the table the
score-aware bots play by). Between games (a position already over) they are the table's
chance at the new score with the next game's starter still to be rolled for.

>>> from tavli.dice import DiceRoller
>>> from tavli.match import Match, MatchSettings
>>> found = chances_of(Match(MatchSettings(length=5), DiceRoller(seed=1)))
>>> found.white + found.black == 1.0, 0.3 < found.white < 0.7, found.game_win is not None
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tavli.bots.match_equity import MatchEquity, MatchScore, Starter
from tavli.bots.neural import Evaluator
from tavli.match import Match, MatchSettings
from tavli.position import Position
from tavli.variants import BLACK, WHITE, Color


@dataclass(frozen=True)
class MatchChances:
    """White's and Black's chances of winning the match (they add up to 1), and White's chance
    of winning the game being played (None between games and once the match is won)."""

    white: float
    black: float
    game_win: float | None

    def of(self, color: Color) -> float:
        """``color``'s chance of winning the match."""
        return self.white if color == WHITE else self.black


def match_chances(settings: MatchSettings, score: Mapping[Color, int], game: int,
                  position: Position) -> MatchChances:
    """The chances in game number ``game`` (0-based) of a match with ``settings``, at ``score``
    (points won by each side, a game already over in ``position`` included), with ``position``
    on the board: 1 and 0 once a side has won.

    >>> from tavli.match import MatchSettings
    >>> settings = MatchSettings(length=3, games=("portes",))
    >>> match_chances(settings, {WHITE: 3, BLACK: 1}, 2, Position.start("portes"))
    MatchChances(white=1.0, black=0.0, game_win=None)
    """
    length = settings.length
    for color in (WHITE, BLACK):
        if score[color] >= length:
            return MatchChances(1.0 if color == WHITE else 0.0, 0.0 if color == WHITE else 1.0, None)
    side = position.turn
    need, opp_need = length - score[side], length - score[side.other]
    if position.result() is not None:  # a match starts the next game at once; a position may be left so
        mine = MatchEquity.for_settings(settings).equity(need, opp_need, game + 1, Starter.ROLL_OFF)
        game_win = None
    else:
        p = Evaluator.for_variant(position.variant.name).probabilities(position)
        mine = MatchScore.at(settings, need, opp_need, game).after_game().value(p.win, p.win2, p.lose2)
        game_win = p.win if side == WHITE else 1.0 - p.win
    mine = min(1.0, max(0.0, mine))
    white = mine if side == WHITE else 1.0 - mine
    return MatchChances(white, 1.0 - white, game_win)


def chances_of(match: Match) -> MatchChances:
    """The chances of ``match`` as it stands (``match_chances``)."""
    return match_chances(match.settings, match.score, len(match.records) - 1, match.game.position)
