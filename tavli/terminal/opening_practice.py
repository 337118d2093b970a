"""Practise the openings at the terminal (``tavli practise``): opening rolls dealt as the dice
fall, the player's play of each judged by the opening tables."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console

from tavli.dice import Dice
from tavli.position import Play, Position
from tavli.terminal.board import board
from tavli.terminal.prompt import chosen_play, console_reader, numbered_plays
from tavli.terminal.styles import NOTE_STYLE
from tavli.terminal.words import Words, command_words


@dataclass
class PracticeTally:
    """Opening rolls played in a practice, how many with the best play, and the points given up."""

    played: int = 0
    best: int = 0
    lost: float = 0.0

    def text(self, language: str = "en") -> str:
        """``3 played, 2 best, 0.120 points given up (0.040 a roll)``."""
        mean = self.lost / self.played if self.played else 0.0
        words = Words(language)
        return words.plain("{played} played, {best} best, {lost} points given up ({mean} a roll)", played=self.played,
                           best=self.best, lost=words.number(self.lost, ".3f"), mean=words.number(mean, ".3f"))


def practise_openings(game: str, *, rolls: int | None = None, rng: random.Random | None = None,
                      console: Console | None = None, read_line: Callable[[str], str] | None = None,
                      language: str = "en") -> PracticeTally:
    """Deal opening rolls of ``game`` as the dice fall, read the player's play of each from the
    start position (notation, or a number from ``list``), and judge it by the opening tables
    (``tavli.study.openings.shipped().judged``): what it gives up against the best, doubtful to
    blunder by the review's thresholds. Stops after ``rolls`` rolls, at ``q`` or at the end of
    input. Everything is said in ``language``."""
    from tavli.study.openings import shipped

    words = Words(language)
    commands = command_words(language)
    console = console or Console(highlight=False)
    read = read_line or console_reader(console)
    rng = rng or random.Random()
    tables = shipped()
    start = Position.start(game)
    tally = PracticeTally()

    def say(template: str, style: str = "", /, **params: object) -> None:
        console.print(words(template, style, **params))

    while rolls is None or tally.played < rolls:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        dice = Dice(max(a, b), min(a, b))
        legal = start.legal_plays(dice)
        console.print(board(start, dice=dice, language=language))
        play: Play | None = None
        while play is None:
            try:
                text = read(words.plain("Your play of {dice} (list, q to stop): ", dice=dice)).strip()
            except EOFError:
                return tally
            if text.lower() in commands["quit"]:
                return tally
            if text.lower() in commands["list"]:
                console.print(numbered_plays(legal))
            elif text:
                chosen = chosen_play(legal, text, words)
                if isinstance(chosen, Play):
                    play = chosen
                else:
                    console.print(chosen)
        judged = tables.judged(game, dice)
        mine = judged[str(play)]
        tally.played += 1
        if mine.best:
            tally.best += 1
            say("{tick} {play}: the best play" if len(legal) > 1 else "{tick} {play}: the only play", NOTE_STYLE,
                tick=("✓", "bold green"), play=(str(play), "bold"))
        else:
            tally.lost += mine.loss
            best = next(p for p, j in judged.items() if j.best)
            say("{play}: {skill}, {loss} points behind the best, {best}", NOTE_STYLE, play=(str(play), "bold"),
                skill=words.plain(mine.skill or "a good play"), loss=words.number(mine.loss, ".3f"),
                best=(best, "bold"))
        say("{game}: {tally}.", NOTE_STYLE, game=words.game(game), tally=tally.text(language))
    return tally
