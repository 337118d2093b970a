"""The terminal's words in English or in Greek: ``Words`` says a sentence, an English template
whose Greek words are the library's table ``tavli/data/terminal.el.json``; the library's own
reasons (an illegal move, how a game ended) come in the same language from its table of reasons.
Here too are the words the player may type for each command, and the sentences of a match that
both the terminal's match (``tavli play``) and the server's (``tavli join``) say.

>>> Words("el").plain("{count} pips", count=167), Words("el").color(WHITE)
('167 πόντοι δρόμου', 'Λευκά')
>>> command_words("el")["quit"]
('quit', 'exit', 'q', 'έξοδος', 'τέλος')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.text import Text

from tavli.bots import BOTS
from tavli.errors import LANGUAGES, Reason, TavliError, translations
from tavli.position import GameResult
from tavli.terminal.styles import CHECKER_STYLE, ERROR_STYLE, GLYPH, LABEL_STYLE, NOTE_STYLE
from tavli.variants import BLACK, WHITE, Color

SEAT_KINDS = ("human", *BOTS)
"""Who may take a seat: a human at the keyboard or a bot by name."""
HINT_LEVEL = "expert"
"""The bot whose choice the ``hint`` command shows."""


FIELD = re.compile(r"\{(\w+)\}")
"""A field of a template: a name in braces, its value given already formatted."""


@dataclass(frozen=True)
class Words:
    """The terminal's words in one of ``tavli.errors.LANGUAGES``.

    A sentence is an English template with ``{name}`` fields; its words in the language come
    from the table, and each value keeps its own style: a ``Text``, a ``(text, style)`` pair,
    a ``Reason`` or library error (said in the same language), or anything ``str`` can say.

    >>> Words("el")("{count} off", count=3).plain
    '3 έξω'
    """

    language: str = "en"

    def __post_init__(self) -> None:
        if self.language not in LANGUAGES:
            raise ValueError(f"no words in {self.language!r}: the languages are {', '.join(LANGUAGES)}")

    def __call__(self, template: str, style: str = "", /, **params: object) -> Text:
        if "style" in params:  # a template has no {style}: this is the sentence's style misplaced
            raise TypeError("the style comes second, by position: words(template, style, **values)")
        words = translations(self.language, "terminal").get(template, template)
        text = Text(style=style)
        at = 0
        for field_match in FIELD.finditer(words):
            text.append(words[at:field_match.start()])
            text.append_text(self.value(params[field_match.group(1)]))
            at = field_match.end()
        text.append(words[at:])
        return text

    def value(self, value: object) -> Text:
        if isinstance(value, Text):
            return value
        if type(value) is tuple:  # (text, style); not a NamedTuple such as Dice
            return Text(*value)
        if isinstance(value, TavliError):
            value = value.reason
        if isinstance(value, Reason):
            return Text(value.words(self.language))
        return Text(str(value))

    def plain(self, template: str, /, **params: object) -> str:
        """The words without styles: for prompts and file names."""
        return self(template, **params).plain

    def number(self, value: float, spec: str) -> str:
        """``value`` formatted by ``spec`` (``str.format``) as the language writes it: a decimal
        comma in Greek.

        >>> Words("el").number(-0.1234, "+.3f"), Words().number(54.21, ".1f")
        ('-0,123', '54.2')
        """
        text = format(value, spec)
        return text.replace(".", ",") if self.language == "el" else text

    def color(self, color: Color) -> str:
        """``White`` or ``Black``, in the language."""
        return self.plain("White" if color == WHITE else "Black")

    def game(self, name: str) -> str:
        """``Portes``, ``Plakoto`` or ``Fevga``, in the language."""
        return self.plain(name.capitalize())

    def error(self, error: Exception) -> Text:
        """A refusal: ``✗`` and its reason in the language."""
        return self("✗ {why}", ERROR_STYLE, why=error if isinstance(error, TavliError) else str(error))


NAMES = ("White", "Black", "Portes", "Plakoto", "Fevga", *SEAT_KINDS, "doubtful", "error", "blunder", "a good play")
"""Words said by name rather than by a template in the code: the sides, the games, the seats'
kinds and levels, and the skill of a play (``tavli.study.analysis``)."""


def command_words(language: str) -> dict[str, tuple[str, ...]]:
    """What the player may type for each command: the English words, and in Greek the Greek
    ones too."""
    english = {"list": ("?", "list", "l", "ls"), "help": ("help", "h"), "board": ("board", "redraw"),
               "hint": ("hint",), "position": ("position", "pos"), "quit": ("quit", "exit", "q"),
               "resign": ("resign",), "match": ("match",), "yes": ("y", "yes"),
               "abort": ("abort",)}
    if language != "el":
        return english
    greek = {"list": ("λίστα",), "help": ("βοήθεια",), "board": ("ταμπλό",), "hint": ("συμβουλή",),
             "position": ("θέση",), "quit": ("έξοδος", "τέλος"), "resign": ("παραίτηση",),
             "match": ("αγώνα", "αγώνας"), "yes": ("ν", "ναι"), "abort": ("ακύρωση",)}
    return {name: words + greek[name] for name, words in english.items()}


def offer_words(words: Words, side: Text, points: int) -> Text:
    """``○ White (you) offers to resign the game for 2 points.``"""
    return words("{side} offers to resign the game for {points} point." if points == 1 else
                 "{side} offers to resign the game for {points} points.", side=side, points=points)


def mover_text(color: Color, name: str) -> Text:
    """``● Black (heuristic)``: the side's checker in its colour, and its name."""
    return Text.assemble((f"{GLYPH[color]} ", CHECKER_STYLE[color]), (name, "bold"))


def score_words(words: Words, score: Mapping[Color, int], length: int) -> Text:
    """``White 1, Black 0 · match to 5``, each side in its colour."""
    return words("{white}, {black} · match to {length}", length=length,
                 white=words("White {points}", CHECKER_STYLE[WHITE], points=score[WHITE]),
                 black=words("Black {points}", CHECKER_STYLE[BLACK], points=score[BLACK]))


def header_words(words: Words, games: Sequence[str], number: int, variant: str, score: Text) -> Text:
    """``Game 2: Plakoto (Portes, Plakoto, Fevga) · White 1, Black 0 · match to 5``."""
    order = ", ".join(words.game(name) for name in games)
    order = order if len(games) > 1 else words.plain("{game} only", game=order)
    return words("{game} ({order}) · {score}", game=words("Game {n}: {name}", "bold", n=number,
                                                          name=words.game(variant)),
                 order=(order, LABEL_STYLE), score=score)


def result_words(words: Words, number: int, variant: str, result: GameResult, winner: Text | None) -> Text:
    """How game ``number`` ended: ``● Black (expert) wins game 1 (Portes): 2 points, …``, or a tie."""
    name = words.game(variant)
    if result.winner is None or winner is None:
        return words("{tie} ({why}): no points.", tie=words("Game {n} ({name}) is a tie", "bold", n=number, name=name),
                     why=result.why())
    return words("{side} {won}: {points} point, {why}." if result.points == 1 else
                 "{side} {won}: {points} points, {why}.", side=winner,
                 won=words("wins game {n} ({name})", "bold", n=number, name=name), points=result.points,
                 why=result.why())


def match_won_words(words: Words, winner: Text, won: int, lost: int, length: int) -> Text:
    """``○ White (you) wins the match 5-3 (match to 5 points).``"""
    return words("{side} wins the match {mine}-{theirs} (match to {length} point)." if length == 1 else
                 "{side} wins the match {mine}-{theirs} (match to {length} points).", side=winner, mine=won,
                 theirs=lost, length=length)


def accept_prompt(words: Words, side: str, points: int) -> str:
    """``Black: accept 2 points? [y/N] ``: the question to the side offered a resignation."""
    return words.plain("{side}: accept {points} point? [y/N] " if points == 1 else
                       "{side}: accept {points} points? [y/N] ", side=side, points=points)


def hint_lines(words: Words, plays: Sequence[tuple[str, float, float]]) -> list[Text]:
    """The hint's best plays, each ``(play, chance of winning the match, points per game)``,
    best first: each one's chance, what it gives up against the best, and its points."""
    lines = [words("The {level} bot's choice for the match at this score: your chance of winning it, "
                   "and your expected points in this game:", NOTE_STYLE, level=words.plain(HINT_LEVEL))]
    best = plays[0][1] if plays else 0.0
    for rank, (play, mwc, equity) in enumerate(plays, 1):
        loss = "" if rank == 1 else f" ({words.number(100 * (mwc - best), '+.1f')})"
        lines.append(words("  {rank}. {play}  {chance}%{loss}, {equity} points", NOTE_STYLE, rank=rank,
                           play=(play, "bold"), chance=words.number(100 * mwc, ".1f"), loss=loss,
                           equity=words.number(equity, "+.3f")))
    return lines


