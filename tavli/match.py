"""A match of Tavli: games in sequence until a side reaches N points.

The dice live in the match: a side can roll only when it is his turn and
the previous play is final, so an early roll is impossible.

>>> from tavli import DiceRoller
>>> m = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=1))
>>> m.game.variant.name, m.score
('portes', {<Color.WHITE: 0>: 0, <Color.BLACK: 1>: 0})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tavli.dice import Dice, DiceRoller
from tavli.errors import GameOverError, IllegalPlayError, TavliError
from tavli.game import Game, Turn
from tavli.position import GameResult, LegalPlays, Play
from tavli.variants import BLACK, GAMES, VARIANTS, WHITE, Color, Fevga, MotherPin, Plakoto, Portes, Variant

TAVLI_SEQUENCE = GAMES
RESIGNED = "resigned"
RESIGNED_MATCH = "resigned the match"
CLAIMED = "claimed: the opponent was absent"
"""Why a game ended that its winner claimed when his opponent stayed away (the web app's claim)."""
LOST_ON_TIME = "lost on time"
"""Why a game ended whose loser's clock ran out (the web app's clocks): it ends the match."""
FORFEITED = "forfeited: did not come"
"""Why a match ended whose loser never came to his board in time (a tournament's forfeit): it ends the match."""
MATCH_ENDINGS = (RESIGNED_MATCH, LOST_ON_TIME, FORFEITED)
"""The reasons that end a whole match at once: the winner scores the points still missing."""
ABORTED = "aborted"
"""Why the first game ended when the match was called off before both sides had played
(``Match.abort``): no winner, no points, and the match is over without a winner."""


@dataclass(frozen=True)
class MatchSettings:
    """Length, order of games and house rules of a match."""

    length: int = 5
    games: tuple[str, ...] = TAVLI_SEQUENCE
    """The order of games, repeated; one name for a single-game match."""
    mother_pin: MotherPin = "double"
    prime_limits: bool = True
    prime_in_opponent_start: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.length, int) or self.length < 1:
            raise TavliError("a match is played to 1 point or more, not {length!r}", length=self.length)
        if not self.games:
            raise TavliError("a match needs at least one game in its order")
        for name in self.games:
            if name not in VARIANTS:
                raise TavliError("unknown game {name!r}: choose portes, plakoto or fevga", name=name)
        Plakoto(mother_pin=self.mother_pin)  # validates the option

    @classmethod
    def parse_games(cls, text: str) -> tuple[str, ...]:
        """``tavli`` (the usual order), one game, or a comma list like ``fevga,portes``."""
        text = text.strip().lower()
        if text in ("tavli", ""):
            return TAVLI_SEQUENCE
        names = tuple(n.strip() for n in text.split(","))
        for name in names:
            if name not in VARIANTS:
                raise TavliError("unknown game {name!r}: choose portes, plakoto or fevga", name=name)
        return names

    def variant(self, index: int) -> Variant:
        """The variant of game number ``index`` (0-based), with the house rules."""
        name = self.games[index % len(self.games)]
        if name == "plakoto":
            return Plakoto(mother_pin=self.mother_pin)
        if name == "fevga":
            return Fevga(prime_limits=self.prime_limits,
                         prime_in_opponent_start=self.prime_in_opponent_start)
        return Portes()


@dataclass
class GameRecord:
    """A finished or running game of the match, with how it was started."""

    game: Game
    opening_rolls: list[tuple[int, int]] = field(default_factory=list)
    """The one-die roll-off (White's die, Black's die), if there was one."""


class Match:
    """A whole match; ``roll`` then ``play`` for the side to move."""

    def __init__(self, settings: MatchSettings | None = None, roller: DiceRoller | None = None) -> None:
        self.settings = settings or MatchSettings()
        self.roller = roller or DiceRoller()
        self.score: dict[Color, int] = {WHITE: 0, BLACK: 0}
        self.records: list[GameRecord] = []
        self.dice: Dice | None = None
        """The dice rolled for the side to move and not yet played."""
        self._start_game()

    # -- state ------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game being played (the last one once the match is over)."""
        return self.records[-1].game

    @property
    def games(self) -> Sequence[Game]:
        return [r.game for r in self.records]

    @property
    def winner(self) -> Color | None:
        for color in (WHITE, BLACK):
            if self.score[color] >= self.settings.length:
                return color
        return None

    @property
    def is_over(self) -> bool:
        """Won by a side, or aborted (``aborted``: then ``winner`` stays None)."""
        return self.winner is not None or self.aborted

    @property
    def aborted(self) -> bool:
        """Whether the match was called off (``abort``)."""
        result = self.game.result
        return result is not None and result.reason == ABORTED

    @property
    def can_abort(self) -> bool:
        """Whether the match may still be aborted: in its first game, before both sides have
        played (the roll-off is no play, nor is a roll not yet played; a pass is a turn).

        >>> m = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=1))
        >>> m.can_abort
        True
        >>> _ = m.roll(); _ = m.play(m.legal_plays()[0]); m.can_abort
        True
        >>> _ = m.roll(); _ = m.play(m.legal_plays()[0]); m.can_abort
        False
        """
        if self.is_over or len(self.records) > 1:
            return False
        return len({turn.color for turn in self.game.history}) < 2

    @property
    def turn(self) -> Color:
        return self.game.turn

    # -- actions ----------------------------------------------------------
    def roll(self, dice: Dice | tuple[int, int] | str | None = None) -> Dice:
        """Roll for the side to move (or set the roll, for replays and tests)."""
        if self.is_over:
            raise GameOverError("the match is over")
        if self.dice is not None:
            raise IllegalPlayError("the dice are already rolled ({dice}): play first", dice=self.dice)
        self.dice = Dice.of(dice) if dice is not None else self.roller.roll()
        return self.dice

    def legal_plays(self) -> LegalPlays:
        if self.dice is None:
            raise IllegalPlayError("roll the dice first")
        return self.game.legal_plays(self.dice)

    def play(self, play: Play | str | None = None) -> Turn:
        """Play the rolled dice; a game that ends starts the next one."""
        if self.is_over:
            raise GameOverError("the match is over")
        if self.dice is None:
            raise IllegalPlayError("roll the dice first")
        turn = self.game.play(self.dice, play)
        self.dice = None
        result = self.game.result
        if result is not None:
            if result.winner is not None:
                self.score[result.winner] += result.points
            if not self.is_over:
                self._start_game(result.winner)
        return turn

    def concede(self, loser: Color, reason: str, points: int = 1) -> GameResult:
        """End the game now in favour of ``loser``'s opponent (a resignation, a claim).

        >>> m = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=1))
        >>> m.concede(BLACK, "opponent absent")
        GameResult(winner=<Color.WHITE: 0>, points=1, reason='opponent absent')
        >>> m.score[WHITE], len(m.records)
        (1, 2)
        """
        if self.is_over:
            raise GameOverError("the match is over")
        if points < 1:
            raise TavliError("a conceded game is worth 1 point or more, not {points!r}", points=points)
        result = GameResult(loser.other, points, reason)
        self.game.result = result
        self.dice = None
        self.score[loser.other] += points
        if not self.is_over:
            self._start_game(loser.other)
        return result

    def resign(self, loser: Color, points: int = 1) -> GameResult:
        """``loser`` resigns the game for ``points`` (an offer the opponent accepted).

        >>> m = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=1))
        >>> m.resign(WHITE, 2).reason, m.score[BLACK]
        ('resigned', 2)
        """
        if points not in (1, 2):
            raise TavliError("a game is resigned for 1 or 2 points, not {points!r}", points=points)
        return self.concede(loser, RESIGNED, points)

    def resign_match(self, loser: Color) -> GameResult:
        """``loser`` resigns the whole match: the opponent gets the points still missing.

        >>> m = Match(MatchSettings(length=5, games=("portes",)), DiceRoller(seed=1))
        >>> m.resign_match(BLACK).points, m.is_over, m.winner
        (5, True, <Color.WHITE: 0>)
        """
        if self.is_over:
            raise GameOverError("the match is over")
        return self.concede(loser, RESIGNED_MATCH, self.settings.length - self.score[loser.other])

    def lose_on_time(self, loser: Color) -> GameResult:
        """``loser``'s clock ran out: he loses the match, the opponent scoring the points still missing.

        >>> m = Match(MatchSettings(length=3, games=("fevga",)), DiceRoller(seed=1))
        >>> m.lose_on_time(WHITE).reason, m.score[BLACK], m.winner
        ('lost on time', 3, <Color.BLACK: 1>)
        """
        if self.is_over:
            raise GameOverError("the match is over")
        return self.concede(loser, LOST_ON_TIME, self.settings.length - self.score[loser.other])

    def forfeit(self, loser: Color) -> GameResult:
        """``loser`` did not come to the board in time (a tournament's forfeit): he loses the match,
        the opponent scoring the points still missing.

        >>> m = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=1))
        >>> m.forfeit(BLACK).reason, m.score[WHITE], m.winner
        ('forfeited: did not come', 3, <Color.WHITE: 0>)
        """
        if self.is_over:
            raise GameOverError("the match is over")
        return self.concede(loser, FORFEITED, self.settings.length - self.score[loser.other])

    def abort(self) -> GameResult:
        """Call the match off before both sides have played (``can_abort``): the first game ends
        with no winner and no points (reason ``ABORTED``), and the match is over with no winner.

        >>> m = Match(MatchSettings(length=3, games=("portes",)), DiceRoller(seed=1))
        >>> m.abort().reason, m.is_over, m.aborted, m.winner, m.score[WHITE] + m.score[BLACK]
        ('aborted', True, True, None, 0)
        """
        if self.is_over:
            raise GameOverError("the match is over")
        if not self.can_abort:
            raise IllegalPlayError("a match can be aborted only before both sides have played")
        result = GameResult(None, 0, ABORTED)
        self.game.result = result
        self.dice = None
        return result

    def _start_game(self, starter: Color | None = None) -> None:
        self.roller.start_game(len(self.records))
        rolls: list[tuple[int, int]] = []
        while starter is None:
            white, black = self.roller.die(), self.roller.die()
            rolls.append((white, black))
            if white != black:
                starter = WHITE if white > black else BLACK
        variant = self.settings.variant(len(self.records))
        self.records.append(GameRecord(Game(variant, starter), rolls))
