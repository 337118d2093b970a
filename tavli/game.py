"""A game: a position, the turns played and how it ended.

>>> from tavli import Dice
>>> game = Game("portes")
>>> turn = game.play(Dice(6, 2), "24/18 13/11")
>>> game.turn, len(game.history)
(<Color.BLACK: 1>, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from tavli.dice import Dice
from tavli.errors import GameOverError, IllegalPlayError, TavliError
from tavli.position import PASS, GameResult, LegalPlays, Play, Position
from tavli.variants import WHITE, Color, Variant, make_variant


@dataclass(frozen=True)
class Turn:
    """One turn of a game: who rolled what and played what, from where."""

    color: Color
    dice: Dice
    play: Play
    before: Position
    after: Position

    def __str__(self) -> str:
        return f"{self.color} {self.dice}: {self.play if not self.play.is_pass else '(no play)'}"


class Game:
    """One game of Portes, Plakoto or Fevga, checked move by move."""

    def __init__(self, variant: Variant | str, first: Color = WHITE,
                 position: Position | None = None) -> None:
        self.variant = make_variant(variant)
        if position is not None and position.variant != self.variant:
            raise TavliError("the position is {position}, the game {game}",
                             position=position.variant, game=self.variant)
        self.start = position if position is not None else Position.start(self.variant, first)
        self.position = self.start
        self.history: list[Turn] = []
        self.result: GameResult | None = self.position.result()
        self._legal: LegalPlays | None = None  # the last roll's plays, reused by play()

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self.position.turn

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def legal_plays(self, dice: Dice | tuple[int, int] | str) -> LegalPlays:
        d = Dice.of(dice)
        if self._legal is None or self._legal.position is not self.position or self._legal.dice != d:
            self._legal = self.position.legal_plays(d)
        return self._legal

    def play(self, dice: Dice | tuple[int, int] | str, play: Play | str | None = None) -> Turn:
        """Play a turn: ``play`` may be a legal Play, notation, or None to pass.

        Passing is allowed only when the dice cannot be played; a bad play
        raises IllegalPlayError and leaves the game unchanged.
        """
        if self.result is not None:
            raise GameOverError("the game is over: {result}", result=self.result.words())
        d = Dice.of(dice)
        legal = self.legal_plays(d)
        if isinstance(play, str):
            play = self.position.parse_play(play, d)
        if play is None or play.is_pass:
            if len(legal):
                raise IllegalPlayError("you cannot pass: {count} legal plays with {dice}", count=len(legal), dice=d)
            chosen, after = PASS, self.position.pass_turn()
        else:
            k = legal.index(play)
            chosen = play if legal.is_listed(play, k) else legal[k]
            after = legal.after(k)
        turn = Turn(self.position.turn, d, chosen, self.position, after)
        self.history.append(turn)
        self.position = after
        self.result = after.result()
        return turn

    def undo(self) -> Turn:
        """Take back the last turn."""
        if not self.history:
            raise IllegalPlayError("there is no turn to take back")
        turn = self.history.pop()
        self.position = turn.before
        self.result = self.position.result()
        return turn
