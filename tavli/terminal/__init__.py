"""Play a Tavli match in the terminal: the board drawn with ``rich``, human
seats typing moves in notation or by number, bots playing their own moves.

The board is drawn from one side's point of view: his points 13-24 on top,
12-1 below, his home table at the bottom right.

Everything is said in English or in Greek (``language``): each sentence is an
English template whose Greek words are the library's table
``tavli/data/terminal.el.json``; the library's own reasons (an illegal move,
how a game ended) come in the same language from its table of reasons.

>>> from tavli import Position
>>> text = render_text(board(Position.start("portes")))
>>> "White" in text and "167 pips" in text
True
>>> "Λευκά" in render_text(board(Position.start("portes"), language="el"))
True
"""

from __future__ import annotations

import contextlib
import random
import re
import shlex
import sys
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from tavli.bots import BOTS, Player, make_bot
from tavli.dice import Dice, DiceRoller
from tavli.errors import LANGUAGES, Reason, TavliError, translations
from tavli.formats.record import MatchRecord, PlayerInfo, write
from tavli.match import TAVLI_SEQUENCE, GameRecord, Match, MatchSettings
from tavli.position import GameResult, LegalPlays, Play, PointView, Position
from tavli.study.chances import chances_of
from tavli.variants import BLACK, WHITE, Color, Variant

if TYPE_CHECKING:
    from tavli.study.analysis import RankedPlay

SEAT_KINDS = ("human", *BOTS)
HINT_LEVEL = "expert"
TUTOR_DEPTH = 1
"""Plies of the tutor's judgement of a play: the web app's hints' depth."""

ROWS = 5
"""Checkers drawn per point before the last cell shows the count instead."""
CELL = 3
"""Characters per point."""
LIST_LIMIT = 40
"""Longer lists of legal plays are shown only on request."""
GUTTER = 2
"""Spaces between the board and the facts beside it."""

GLYPH = {WHITE: "○", BLACK: "●"}
PINNED = {WHITE: "(○)", BLACK: "(●)"}
CHECKER_STYLE = {WHITE: "bold bright_white", BLACK: "bold red"}
BOARD_STYLE = "on grey11"
FRAME_STYLE = "grey50"
LABEL_STYLE = "grey62"
MARK_STYLE = "bold yellow"
EMPTY_STYLE = "grey30"
ERROR_STYLE = "bold red"
NOTE_STYLE = "cyan"

Cell = tuple[str, str]
"""Text of one cell of the board (CELL characters wide) and its style."""


# -- words --------------------------------------------------------------------
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
               "resign": ("resign",), "match": ("match",), "yes": ("y", "yes")}
    if language != "el":
        return english
    greek = {"list": ("λίστα",), "help": ("βοήθεια",), "board": ("ταμπλό",), "hint": ("συμβουλή",),
             "position": ("θέση",), "quit": ("έξοδος", "τέλος"), "resign": ("παραίτηση",), "match": ("παρτίδα",),
             "yes": ("ν", "ναι")}
    return {name: words + greek[name] for name, words in english.items()}


# -- the board --------------------------------------------------------------
def white_point(variant: Variant, viewer: Color, point: int) -> int:
    """A point in ``viewer``'s numbering, in White's numbering."""
    return point if viewer == WHITE else variant.other_numbering(point)


def viewer_point(variant: Variant, viewer: Color, mover: Color, point: int) -> int | None:
    """A point 1..24 in ``mover``'s numbering, in ``viewer``'s; None for the bar and off."""
    if not 1 <= point <= 24:
        return None
    return point if mover == viewer else variant.other_numbering(point)


def checker(color: Color) -> Cell:
    return f" {GLYPH[color]} ", CHECKER_STYLE[color]


def count_cell(color: Color, count: int) -> Cell:
    return f"{count:^{CELL}}", CHECKER_STYLE[color]


def stack(color: Color, count: int, room: int = ROWS) -> list[Cell]:
    """Cells of ``count`` checkers of one side; a tall stack ends with its count."""
    if count <= room:
        return [checker(color)] * count
    return [checker(color)] * (room - 1) + [count_cell(color, count)]


def point_cells(view: PointView) -> list[Cell]:
    """Cells of one point from the edge of the board inwards.

    A pinned checker (Plakoto) lies at the edge, under its pinner's checkers.
    """
    if view.pinned is not None:
        top = view.pinned.other
        on_top = view.black if top == BLACK else view.white
        return [(PINNED[view.pinned], CHECKER_STYLE[view.pinned]), *stack(top, on_top, ROWS - 1)]
    if view.white:
        return stack(WHITE, view.white)
    return stack(BLACK, view.black)


def _cell_row(columns: list[list[Cell]], depth: int) -> Text:
    """One row of six points: ``depth`` counts from the edge of the board."""
    row = Text(" ")
    for cells in columns:
        if depth < len(cells):
            row.append(*cells[depth])
        else:
            row.append(f" {'·' if depth == 0 else ' '} ", EMPTY_STYLE)
    row.append(" ")
    return row


def _labels(points: Iterable[int], marks: Collection[int]) -> Text:
    row = Text(" ")
    for p in points:
        row.append(f"{p:^{CELL}}", MARK_STYLE if p in marks else LABEL_STYLE)
    return row


TOP_LEFT, TOP_RIGHT = range(13, 19), range(19, 25)
BOTTOM_LEFT, BOTTOM_RIGHT = range(12, 6, -1), range(6, 0, -1)
"""The points of each quarter of the board, left to right, in the viewer's numbering."""


def board_lines(position: Position, bottom: Color = WHITE, dice: Dice | None = None,
                marks: Collection[int] = (), language: str = "en") -> list[Text]:
    """The drawn board, one Text per line, seen by ``bottom``.

    ``marks`` are points (in ``bottom``'s numbering) whose labels are
    highlighted, such as the points of the last move.
    """
    variant = position.variant
    opponent = bottom.other

    def columns(points: Iterable[int]) -> list[list[Cell]]:
        return [point_cells(position.point(white_point(variant, bottom, p))) for p in points]

    quarters = [columns(q) for q in (TOP_LEFT, TOP_RIGHT, BOTTOM_LEFT, BOTTOM_RIGHT)]
    bar_top = stack(bottom, position.on_bar(bottom)) if variant.has_bar else []
    bar_bottom = stack(opponent, position.on_bar(opponent)) if variant.has_bar else []
    half = " " * (2 + 6 * CELL)
    bar_width = CELL + 2
    lines = [Text("  ").append_text(_labels(TOP_LEFT, marks)).append(" " * (bar_width + 3))
             .append_text(_labels(TOP_RIGHT, marks))]
    frame = "─" * len(half)
    lines.append(Text(f" ┌{frame}┬{'─' * bar_width}┬{frame}┐", FRAME_STYLE))
    for depth in range(ROWS):
        lines.append(_board_row(quarters[0], quarters[1], depth,
                                _bar_cell(bar_top, ROWS - 1 - depth),
                                _off_cell(opponent, position.borne_off(opponent), depth == 0)))
    lines.append(_middle_row(position, dice, half, bar_width, Words(language)))
    for depth in reversed(range(ROWS)):
        lines.append(_board_row(quarters[2], quarters[3], depth,
                                _bar_cell(bar_bottom, ROWS - 1 - depth),
                                _off_cell(bottom, position.borne_off(bottom), depth == 0)))
    lines.append(Text(f" └{frame}┴{'─' * bar_width}┴{frame}┘", FRAME_STYLE))
    lines.append(Text("  ").append_text(_labels(BOTTOM_LEFT, marks)).append(" " * (bar_width + 3))
                 .append_text(_labels(BOTTOM_RIGHT, marks)))
    return lines


def _bar_cell(cells: list[Cell], depth: int) -> Cell:
    return cells[depth] if depth < len(cells) else (" " * CELL, "")


def _off_cell(color: Color, count: int, show: bool) -> Cell:
    if not show or not count:
        return "", ""
    return f" {GLYPH[color]}{count}", CHECKER_STYLE[color]


def _board_row(left: list[list[Cell]], right: list[list[Cell]], depth: int, bar: Cell, off: Cell) -> Text:
    row = Text(" ")
    row.append("│", FRAME_STYLE)
    row.append_text(_styled(_cell_row(left, depth)))
    row.append("│", FRAME_STYLE)
    row.append_text(_styled(Text(" ").append(*bar).append(" ")))
    row.append("│", FRAME_STYLE)
    row.append_text(_styled(_cell_row(right, depth)))
    row.append("│", FRAME_STYLE)
    row.append(*off)
    return row


def _styled(text: Text) -> Text:
    text.stylize(BOARD_STYLE)
    return text


def _middle_row(position: Position, dice: Dice | None, half: str, bar_width: int, words: Words) -> Text:
    bar = words.plain("BAR")[:bar_width] if position.variant.has_bar else ""
    row = Text(" ")
    row.append("│", FRAME_STYLE)
    row.append(half, BOARD_STYLE)
    row.append("│", FRAME_STYLE)
    row.append(f"{bar:^{bar_width}}", f"{LABEL_STYLE} {BOARD_STYLE}")
    row.append("│", FRAME_STYLE)
    right = Text()
    if dice is not None:
        style = f"reverse {CHECKER_STYLE[position.turn]}"
        right = Text.assemble((f" {dice.first} ", style), "  ", (f" {dice.second} ", style))
    pad = len(half) - right.cell_len
    row.append_text(_styled(Text(" " * (pad // 2)).append_text(right).append(" " * (pad - pad // 2))))
    row.append("│", FRAME_STYLE)
    row.append(" " + words.plain("off"), LABEL_STYLE)
    return row


def side_lines(position: Position, names: Mapping[Color, str] | None = None,
               dice: Dice | None = None, bottom: Color = WHITE, language: str = "en",
               extra: Sequence[Text] = ()) -> list[Text]:
    """The facts next to the board: each side's pips, bar and borne-off checkers, the turn."""
    words = Words(language)
    names = names or {color: words.color(color) for color in (WHITE, BLACK)}
    width = max(len(n) for n in names.values())
    lines = []
    for color in (bottom.other, bottom):
        to_move = color == position.turn and position.result() is None
        line = Text.assemble(("▶ " if to_move else "  ", MARK_STYLE),
                             (f"{GLYPH[color]} ", CHECKER_STYLE[color]),
                             (f"{names[color]:<{width}}  ", "bold"),
                             words("{count} pips", count=f"{position.pip_count(color):>3}"), "  ",
                             words("{count} off", count=f"{position.borne_off(color):>2}"))
        if position.variant.has_bar and position.on_bar(color):
            line.append_text(words("  {count} on the bar", MARK_STYLE, count=position.on_bar(color)))
        lines.append(line)
    pins = pin_text(position, bottom, language)
    if pins is not None:
        lines.append(pins)
    lines.append(turn_text(position, dice, language))
    lines.extend(extra)
    return lines


def turn_text(position: Position, dice: Dice | None, language: str = "en") -> Text:
    """``White to move, rolled 6-2``, or how the game ended."""
    words = Words(language)
    result = position.result()
    if result is not None:
        return words("  Game over: {result}", result=(result.words().words(language), "bold"))
    side = (words.color(position.turn), "bold")
    if dice is None:
        return words("  {side} to move", side=side)
    return words("  {side} to move, rolled {dice}", side=side, dice=dice)


def pin_text(position: Position, bottom: Color, language: str = "en") -> Text | None:
    """``Pinned: (●) on 5, (○) on 20`` in ``bottom``'s numbering, or None without pins."""
    words = Words(language)
    parts: list[Text] = []
    for p in range(1, 25):
        view = position.point(white_point(position.variant, bottom, p))
        if view.pinned is not None:
            parts.append(words("{checker} on {point}", checker=(PINNED[view.pinned], CHECKER_STYLE[view.pinned]),
                               point=p))
    if not parts:
        return None
    return words("  Pinned: {pins}", pins=Text(", ").join(parts))


@dataclass(frozen=True)
class BoardView:
    """The drawn board with the facts of the position beside it, or below it
    where the console is too narrow."""

    drawn: list[Text]
    facts: list[Text]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        needed = GUTTER + sum(max(line.cell_len for line in part) for part in (self.drawn, self.facts))
        if options.max_width < needed:
            yield Group(*self.drawn, Text(), *self.facts)
            return
        grid = Table.grid(padding=(0, GUTTER))
        grid.add_column(no_wrap=True)
        grid.add_column(vertical="middle", no_wrap=True)
        grid.add_row(Group(*self.drawn), Group(*self.facts))
        yield grid


def board(position: Position, *, bottom: Color | None = None, dice: Dice | None = None,
          names: Mapping[Color, str] | None = None, marks: Collection[int] = (),
          language: str = "en", extra: Sequence[Text] = ()) -> BoardView:
    """The board with each side's pips, bar and borne-off checkers, ready to print.

    ``bottom`` is the side whose home table is drawn at the bottom right
    (default: the side to move); ``marks`` are points to highlight in his
    numbering; the words are in ``language``; ``extra`` lines go under the
    facts beside the board.
    """
    seen_by = position.turn if bottom is None else bottom
    return BoardView(board_lines(position, seen_by, dice, marks, language),
                     side_lines(position, names, dice, seen_by, language, extra))


def render_text(renderable: RenderableType, width: int = 100) -> str:
    """What ``renderable`` looks like printed without colour, as plain text."""
    console = Console(file=StringIO(), width=width, color_system=None, highlight=False)
    console.print(renderable)
    out = console.file
    assert isinstance(out, StringIO)
    return out.getvalue()


def numbered_plays(legal: LegalPlays) -> Columns:
    """The legal plays in columns, numbered from 1 as the player may pick them."""
    return Columns([Text.assemble((f"{k:>3}) ", LABEL_STYLE), str(play)) for k, play in enumerate(legal, 1)],
                   padding=(0, 2))


Answer = TypeVar("Answer")


class LeaveMatch(Exception):
    """The human at the keyboard chose to leave the match."""


PROMPT_COMMANDS = ("list", "help", "board", "hint", "position", "quit", "resign")
"""The commands of the play prompt (``tavli play``, ``tavli join``), as ``command_words`` names them."""


def prompt_command(line: str, language: str = "en") -> tuple[str, list[str]]:
    """What a line typed at the play prompt asks: ``("", [])`` for nothing, one of
    ``PROMPT_COMMANDS`` with the words after it (``resign 2``), or ``("play", [text])``: a play,
    by its number in the list or in notation (``chosen_play``).

    >>> prompt_command(" Resign 2 "), prompt_command("λίστα", "el"), prompt_command("13/7 8/7", "el")
    (('resign', ['2']), ('list', []), ('play', ['13/7 8/7']))
    """
    text = line.strip()
    said = text.lower().split()
    if not said:
        return "", []
    commands = command_words(language)
    if said[0] in commands["resign"]:
        return "resign", said[1:]
    for name in PROMPT_COMMANDS:
        if " ".join(said) in commands[name]:
            return name, []
    return "play", [text]


def chosen_play(legal: LegalPlays, text: str, words: Words) -> Play | Text:
    """The play ``text`` names, by its number in the list or in notation; else why not, in words."""
    if text.isdecimal():  # not isdigit: "¹" is a digit that int() refuses
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return words("✗ there is no play {number}: pick 1 to {count}, or type list to see them", ERROR_STYLE,
                     number=number, count=len(legal))
    try:
        return legal.position.parse_play(text, legal.dice)
    except ValueError as e:
        return words.error(e)


def answer_prompt(line: str, legal: LegalPlays, words: Words, console: Console, ask: Callable[[str], str],
                  actions: Mapping[str, Callable[[list[str]], Answer | None]]) -> Play | Answer | None:
    """One line typed at the play prompt of ``tavli play`` or ``tavli join``: the play it names
    (Enter alone: the only one), else what its command's action in ``actions`` answers (one for
    each of ``PROMPT_COMMANDS`` but ``help`` and ``quit``, which are the same everywhere:
    ``quit`` raises ``LeaveMatch`` once the player says yes), or None after saying why the line
    names no play."""
    name, args = prompt_command(line, words.language)
    if name == "" and len(legal) == 1:
        return legal[0]
    if name == "":
        console.print(words("Type a move like 24/18 13/11, a number from the list, or help.", NOTE_STYLE))
    elif name == "help":
        console.print(words(HELP, NOTE_STYLE))
    elif name == "quit":
        if ask(words.plain("Leave the match? [y/N] ")).strip().lower() in command_words(words.language)["yes"]:
            raise LeaveMatch
    elif name == "play":
        chosen = chosen_play(legal, args[0], words)
        if isinstance(chosen, Play):
            return chosen
        console.print(chosen)
    else:
        return actions[name](args)
    return None


def resignation(what: list[str], words: Words, console: Console) -> int | Literal["match"] | None:
    """What ``resign`` and the words after it offer: the game for 1 or 2 points, or the whole
    match; None, after saying how to write it, for anything else.

    >>> resignation(["2"], Words(), Console()), resignation(["παρτίδα"], Words("el"), Console())
    (2, 'match')
    """
    if what in ([], ["1"], ["2"]):
        return int(what[0]) if what else 1
    if len(what) == 1 and what[0] in command_words(words.language)["match"]:
        return "match"
    console.print(words("✗ type resign, resign 2 or resign match", ERROR_STYLE))
    return None


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


def hint_view(position: Position, dice: Dice, ranked: Sequence[RankedPlay], match: tuple[int, str, str] | None,
              language: str = "en") -> Group:
    """``tavli hint``'s answer: every play of ``dice`` ranked (``tavli.study.analysis.rank_plays``),
    with its values, in a table; ``match`` is the match's length, score and order when the plays
    are ranked for the match."""
    words = Words(language)
    side = words.color(position.turn)
    if not ranked:
        return Group(words("{side} cannot play {dice} in {position}: the turn passes", side=side, dice=dice,
                           position=position))
    if match is None:
        head = words("{side} to play {dice} in {position}", side=side, dice=dice, position=position)
    else:
        length, score, order = match
        head = words("{side} to play {dice} in {position}, match to {length} at {score} ({order} order), "
                     "ranked for the match", side=side, dice=dice, position=position, length=length, score=score,
                     order=order)
    table = Table(box=None, pad_edge=False, header_style="bold")
    names = ["", words.plain("play"), words.plain("equity"), words.plain("win"), words.plain("win 2"),
             words.plain("lose 2"), *([words.plain("match")] if match else []), words.plain("loss"),
             words.plain("ply"), ""]
    for k, name in enumerate(names):
        table.add_column(name, justify="left" if k in (0, 1, len(names) - 1) else "right", no_wrap=True,
                         min_width=7 if k == len(names) - 1 else None)  # "blunder" whole
    for k, r in enumerate(ranked, 1):
        p = r.probabilities
        mwc = [] if r.mwc is None else [words.number(100 * r.mwc, ".1f") + "%"]
        chances = [words.number(100 * x, ".1f") + "%" for x in (p.win, p.win2, p.lose2)]
        table.add_row(str(k), str(r.play), words.number(r.equity, "+.3f"), *chances, *mwc,
                      words.number(-r.loss, "+.3f") if k > 1 else "", str(r.depth),
                      words.plain(r.skill) if r.skill else "")
    note = words("equity: points per game after the play for the side playing (-2 to +2); plays within reach of "
                 "the best are searched deeper and ranked first")
    if match:
        note.append_text(words("; match: his chance of winning the match after it, by which the plays are ranked"))
    return Group(head, table, note)


# -- the match --------------------------------------------------------------


class Resigned(Exception):
    """The human to play resigned, and the game (or the match) is over."""


@dataclass
class Seat:
    """Who plays one side: a human at the keyboard or a bot."""

    color: Color
    kind: str
    bot: Player | None = None
    label: str = ""

    @property
    def is_human(self) -> bool:
        return self.bot is None


def make_seats(seats: Mapping[Color, str], roller: DiceRoller, language: str = "en") -> dict[Color, Seat]:
    """Seats from their kinds; a random bot takes its seed from the dice, so a
    seeded match replays the same."""
    out: dict[Color, Seat] = {}
    humans = sum(kind == "human" for kind in seats.values())
    for color in (WHITE, BLACK):
        kind = seats[color]
        if kind not in SEAT_KINDS:
            raise ValueError(f"unknown player {kind!r}: choose {', '.join(SEAT_KINDS)}")
        bot: Player | None = None
        if kind != "human":
            # only bots that draw random numbers take a seed (from the dice, so a seeded match replays)
            rng = random.Random(_seed_from(roller)) if _draws_random(kind) else None
            bot = make_bot(kind, rng)
        out[color] = Seat(color, kind, bot, seat_label(color, kind, humans, language))
    return out


def seat_label(color: Color, kind: str, humans: int, language: str = "en") -> str:
    """``Black (heuristic)``; ``White (you)`` against a bot; ``White`` between two humans."""
    words = Words(language)
    side = words.color(color)
    if kind != "human":
        return words.plain("{side} ({kind})", side=side, kind=words.plain(kind))
    return words.plain("{side} (you)", side=side) if humans == 1 else side


def _draws_random(kind: str) -> bool:
    from tavli.bots.neural import LEVELS

    return kind == "random" or (kind in LEVELS and LEVELS[kind].noise > 0)


def _seed_from(roller: DiceRoller) -> int:
    seed = 0
    for _ in range(16):
        seed = seed * 6 + roller.die() - 1
    return seed


HELP = """\
Type your move in notation, from your side (your points are numbered 24 down to 1):
  24/18 13/11    two checkers, one die each     13/7(2)   the same move twice
  13/7/5 or 13/5 one checker with both dice     8/4*/2    * marks a hit or a pin
  bar/22         enter from the bar (Portes)    6/off     bear off
or type the number of a play in the list.
  list or ?   show the legal plays again       board   draw the board again
  hint        the expert bot's best plays      help    this help
  position    the position string, for tavli hint or the web app's position page
  resign      offer to resign the game for 1 point; resign 2 for 2 points; resign match
  quit        leave the match (--save keeps it, tavli play --resume goes on)"""


@dataclass
class TerminalMatch:
    """A match played at the terminal, turn by turn, until it ends or the human leaves."""

    match: Match
    seats: dict[Color, Seat]
    console: Console
    read_line: Callable[[str], str]
    last_marks: dict[Color, frozenset[int]] = field(default_factory=dict)
    """The points of the last move, in each side's numbering."""
    words: Words = field(default_factory=Words)
    """The words of everything it says, in the player's language."""
    origin: MatchRecord | None = None
    """The record a resumed match went on from."""
    tutor: bool = False
    """Ask before a human's blunder is played."""
    chances: bool = False
    """Show each side's chance of winning the match beside the board."""
    save: Path | None = None
    """Where the match is kept: written after every turn and every roll of a human's, so that
    nothing is lost however the program stops."""

    # -- who is who -------------------------------------------------------
    @property
    def names(self) -> dict[Color, str]:
        return {color: seat.label for color, seat in self.seats.items()}

    @property
    def humans(self) -> list[Color]:
        return [color for color, seat in self.seats.items() if seat.is_human]

    def viewer(self, position: Position) -> Color:
        """The side drawn at the bottom: the only human, else the side to move (White for bots)."""
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        return position.turn if humans else WHITE

    # -- output -------------------------------------------------------------
    def say(self, template: str, style: str = "", /, **params: object) -> None:
        self.console.print(self.words(template, style, **params))

    @property
    def commands(self) -> dict[str, tuple[str, ...]]:
        return command_words(self.words.language)

    def mover(self, color: Color) -> Text:
        """``● Black (heuristic)`` in Black's colour."""
        return mover_text(color, self.names[color])

    def show_board(self, record: GameRecord, dice: Dice | None = None, header: bool = True) -> None:
        position = record.game.position
        viewer = self.viewer(position)
        self.console.print()
        if header:
            self.console.print(self.header(record))
        extra = [self.chances_text()] if self.chances else []
        self.console.print(board(position, bottom=viewer, dice=dice, names=self.names,
                                 marks=self.last_marks.get(viewer, frozenset()), language=self.words.language,
                                 extra=extra))

    def chances_text(self) -> Text:
        """``  Match chances: White 54.2%, Black 45.8%`` (``tavli.study.chances``)."""
        found = chances_of(self.match)
        white_percent, black_percent = (self.words.number(100 * x, ".1f") + "%" for x in (found.white, found.black))
        return self.words("  Match chances: {white}, {black}",
                          white=self.words("White {percent}", CHECKER_STYLE[WHITE], percent=white_percent),
                          black=self.words("Black {percent}", CHECKER_STYLE[BLACK], percent=black_percent))

    def keep(self) -> None:
        """Write the match to ``save`` as it stands (quietly: a failure is said at the end)."""
        if self.save is not None:
            with contextlib.suppress(OSError):
                write(self.record(), self.save)

    def record(self) -> MatchRecord:
        """The match record so far; a resumed match keeps its record's meta and the names of
        players who kept their seats."""
        origin = self.origin
        players = {}
        for color, seat in self.seats.items():
            info = PlayerInfo("human", "") if seat.is_human else PlayerInfo("bot", seat.kind)
            before = origin.players.get(color) if origin is not None else None
            players[color] = before if before is not None and before.kind == info.kind and (
                info.kind == "human" or before.name == info.name) else info
        return MatchRecord.from_match(self.match, players, meta=None if origin is None else origin.meta)

    def game_number(self, record: GameRecord) -> int:
        return self.match.records.index(record) + 1

    def header(self, record: GameRecord) -> Text:
        """``Game 2: Plakoto (Portes, Plakoto, Fevga) · White 1, Black 0 · match to 5``."""
        return header_words(self.words, self.match.settings.games, self.game_number(record),
                            record.game.variant.name, self.score_text())

    def score_text(self) -> Text:
        """``White 1, Black 0 · match to 5``."""
        return score_words(self.words, self.match.score, self.match.settings.length)

    # -- input --------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        return self.read_line(prompt)

    def pause(self, prompt: str) -> None:
        """Wait for Enter when someone is at the keyboard."""
        if self.humans:
            self.ask(self.words.plain("{prompt} [Enter] ", prompt=prompt))

    # -- the flow -----------------------------------------------------------
    def run(self) -> Color | None:
        """Play until the match ends; return the winner."""
        record = self.match.records[-1]
        if len(self.match.records) > 1 or record.game.history or self.match.dice is not None:
            self.say("The match goes on: {score}.", score=self.score_text())
        if record.game.history or self.match.dice is not None:  # resumed within a game: its start is past
            self.console.print()
            self.console.rule(self.header(record))
        else:
            self.announce_game(record)
        while not self.match.is_over:
            record = self.match.records[-1]
            self.take_turn(record)
            self.keep()
            if record.game.is_over:
                self.announce_result(record)
                if not self.match.is_over:
                    self.pause(self.words.plain("Game {n} is next.", n=len(self.match.records)))
                    self.announce_game(self.match.records[-1])
        winner = self.match.winner
        assert winner is not None
        score = self.match.score
        self.console.print()
        self.console.print(match_won_words(self.words, self.mover(winner), score[winner], score[winner.other],
                                           self.match.settings.length))
        return winner

    def announce_game(self, record: GameRecord) -> None:
        self.console.print()
        self.console.rule(self.header(record))
        starter = self.words.color(record.game.turn)
        if record.opening_rolls:
            for white, black in record.opening_rolls:
                rolls = {"white": self.words("White {points}", CHECKER_STYLE[WHITE], points=white),
                         "black": self.words("Black {points}", CHECKER_STYLE[BLACK], points=black)}
                if white == black:
                    self.say("Opening roll: {white}, {black}: equal, roll again.", **rolls)
                else:
                    self.say("Opening roll: {white}, {black}: {side} starts.", side=starter, **rolls)
        else:
            self.say("{side} won the last game and starts.", side=starter)
        self.last_marks = {}
        if not self.humans:
            self.show_board(record, header=False)

    def take_turn(self, record: GameRecord) -> None:
        seat = self.seats[self.match.turn]
        dice = self.match.dice or self.match.roll()  # a resumed match may hold a roll still to play
        legal = self.match.legal_plays()
        if seat.bot is not None:
            play = legal[self.bot_choice(seat.bot, legal)] if len(legal) else None
        else:
            self.keep()  # the roll is kept before the player sees it: stopping the program rolls nothing anew
            self.show_board(record, dice)
            try:
                play = self.human_play(seat, legal)
            except Resigned:
                return
        self.commit(seat, dice, play)

    def bot_choice(self, bot: Player, legal: LegalPlays) -> int:
        """A neural bot plays for the match (``tavli.bots.match_equity``), the others as they always do."""
        from tavli.bots.match_equity import MatchScore
        from tavli.bots.neural import NeuralBot

        if isinstance(bot, NeuralBot):
            return bot.choose(legal, MatchScore.of(self.match))
        return bot.choose(legal)

    def commit(self, seat: Seat, dice: Dice, play: Play | None) -> None:
        """Play the chosen move, tell it, and note its points for the next board."""
        position = self.match.game.position
        self.match.play(play)
        mover = self.mover(seat.color)
        if play is None or play.is_pass:
            self.say("{side} rolls {dice}: no legal play, the turn passes." if seat.bot is not None else
                     "{side} rolled {dice}: no legal play, the turn passes.", side=mover, dice=dice)
            return
        self.say("{side} rolls {dice} and plays {play}." if seat.bot is not None else
                 "{side} rolled {dice} and plays {play}.", side=mover, dice=dice, play=(str(play), "bold"))
        self.last_marks = {color: self.play_points(position, play, color) for color in (WHITE, BLACK)}

    @staticmethod
    def play_points(position: Position, play: Play, viewer: Color) -> frozenset[int]:
        points = {viewer_point(position.variant, viewer, position.turn, p)
                  for step in play.steps for p in (step.src, step.dst)}
        return frozenset(p for p in points if p is not None)

    def announce_result(self, record: GameRecord) -> None:
        result = record.game.result
        assert result is not None
        self.show_board(record)
        self.console.print()
        winner = None if result.winner is None else self.mover(result.winner)
        self.console.print(result_words(self.words, self.game_number(record), record.game.variant.name, result, winner))
        self.say("Score: {score}", score=self.score_text())

    # -- a human's turn -----------------------------------------------------
    def human_play(self, seat: Seat, legal: LegalPlays) -> Play | None:
        """Ask until the human gives a legal play; None passes a turn that has no play."""
        if not len(legal):
            self.ask(self.words.plain("No legal play with {dice}: press Enter to pass. ", dice=legal.dice))
            return None
        if len(legal) <= LIST_LIMIT:
            self.show_plays(legal)
            if len(legal) > 1:
                self.say("Type a move like {play}, or its number; help for help.", NOTE_STYLE, play=legal[0])
        else:
            self.say("{count} legal plays: type a move like {play}, or list to see them numbered; help for help.",
                     NOTE_STYLE, count=len(legal), play=legal[0])
        prompt = self.words.plain("{side} to play {dice} › ", side=self.words.color(seat.color), dice=legal.dice)
        while True:
            play = self.read_play(legal, self.ask(prompt))
            if play is not None and (not self.tutor or self.tutor_allows(legal, play)):
                return play

    def tutor_allows(self, legal: LegalPlays, play: Play) -> bool:
        """The tutor (``--tutor``): a blunder, by the hints' judgement at the match's score
        (``tavli.study.analysis``), is played only once the player says so, as on the web app's board."""
        from tavli.bots.match_equity import MatchScore
        from tavli.study.analysis import evaluate_decision

        if len(legal) < 2:
            return True
        decision = evaluate_decision(legal.position, legal.dice, str(play), TUTOR_DEPTH,
                                     score=MatchScore.of(self.match))
        if decision.skill != "blunder":
            return True
        self.say("{play} is a blunder: it gives up {loss} points against {best}.", ERROR_STYLE,
                 play=(str(play), "bold"), loss=self.words.number(decision.loss, ".3f"), best=(decision.best, "bold"))
        return self.ask(self.words.plain("Play it anyway? [y/N] ")).strip().lower() in self.commands["yes"]

    def show_plays(self, legal: LegalPlays) -> None:
        if len(legal) == 1:
            self.say("Only one legal play: {play} (Enter plays it).", NOTE_STYLE, play=(str(legal[0]), "bold"))
            return
        self.console.print(numbered_plays(legal))

    def read_play(self, legal: LegalPlays, line: str) -> Play | None:
        """The play that ``line`` names, or None after handling a command or showing an error."""
        actions: dict[str, Callable[[list[str]], None]] = {
            "list": lambda _: self.show_plays(legal),
            "board": lambda _: self.show_board(self.match.records[-1], legal.dice),
            "hint": lambda _: self.show_hint(legal),
            "position": lambda _: self.show_position(legal),
            "resign": lambda args: self.resign(legal, args),
        }
        return answer_prompt(line, legal, self.words, self.console, self.ask, actions)

    def resign(self, legal: LegalPlays, what: list[str]) -> None:
        """``resign`` (the game, 1 point), ``resign 2`` or ``resign match``: a bot takes the
        offer when it is worth what it expects from playing on (``NeuralBot.accepts_resignation``,
        at the match's score), a human is asked. Raises ``Resigned`` once the game is over."""
        commands, match = self.commands, self.match
        mine = match.turn
        theirs = self.seats[mine.other]
        points = resignation(what, self.words, self.console)
        if points is None:
            return
        if points == "match":
            score = dict(match.score)
            score[mine.other] = match.settings.length
            prompt = self.words.plain("Resign the match? {side} wins it {won}-{lost}. [y/N] ",
                                      side=self.names[mine.other], won=score[mine.other], lost=score[mine])
            if self.ask(prompt).strip().lower() in commands["yes"]:
                match.resign_match(mine)
                raise Resigned
            return
        self.console.print(offer_words(self.words, self.mover(mine), points))
        if theirs.bot is not None:
            from tavli.bots.match_equity import MatchScore
            from tavli.bots.neural import NeuralBot

            judge = theirs.bot if isinstance(theirs.bot, NeuralBot) else NeuralBot(HINT_LEVEL)
            takes = judge.accepts_resignation(legal, points, MatchScore.of(match))
        else:
            takes = self.ask(accept_prompt(self.words, theirs.label, points)).strip().lower() in commands["yes"]
        if not takes:
            self.say("{side} declines: play on.", side=self.mover(mine.other))
            return
        self.say("{side} accepts.", side=self.mover(mine.other))
        match.resign(mine, points)
        raise Resigned

    def show_position(self, legal: LegalPlays) -> None:
        """The position string (and a Portes position's GNU Backgammon ID), with the command that
        ranks the roll's plays at this score, to study it later."""
        position, dice = legal.position, legal.dice
        length, score = self.match.settings.length, self.match.score
        self.say("Position: {position}", NOTE_STYLE, position=(str(position), "bold"))
        if position.variant.name == "portes":
            self.say("GNU Backgammon Position ID: {id}", NOTE_STYLE, id=(position.gnubg_id(), "bold"))
        games = self.match.settings.games
        order = "tavli" if games == TAVLI_SEQUENCE else ",".join(games)
        match = f" --match {length} --score {score[WHITE]}-{score[BLACK]} --games {order}"
        command = f"tavli hint '{position}' {dice.first}{dice.second}{match}"
        self.say("Its plays, ranked: {command}", NOTE_STYLE, command=(command, "bold"))

    def show_hint(self, legal: LegalPlays) -> None:
        """The best plays for the match at its score, by the expert bot (as its bots play): each
        play's chance of winning the match, what it gives up against the best, and its expected
        points in the game."""
        from tavli.bots.match_equity import MatchScore
        from tavli.bots.neural import NeuralBot

        found = NeuralBot(HINT_LEVEL).analyse(legal, MatchScore.of(self.match))[:3]
        for line in hint_lines(self.words, [(str(legal[a.index]), a.match_equity or 0.0, a.equity) for a in found]):
            self.console.print(line)



def console_reader(console: Console) -> Callable[[str], str]:
    """Read a line at ``console``'s prompt (with line editing where the
    platform has readline); echo it when stdin is not a terminal."""
    echo = not sys.stdin.isatty()
    if not echo:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (input() edits lines once it is loaded)

    def read(prompt: str) -> str:
        line = console.input(Text(prompt, style="bold"))
        if echo:
            console.print(line, markup=False, highlight=False)
        return line

    return read


def play_match(settings: MatchSettings, seats: dict[Color, str], roller: DiceRoller, *,
               console: Console | None = None, read_line: Callable[[str], str] | None = None,
               save: Path | None = None, language: str = "en",
               record: MatchRecord | None = None, tutor: bool = False, chances: bool = False) -> Color | None:
    """Play a match at the terminal; return the winner (None if the match was left).

    ``seats`` says who plays each side: ``human``, ``random``, ``heuristic``
    or a neural level (``beginner`` ... ``champion``).
    ``read_line(prompt)`` reads a human's answer (default: the console's
    input); end of input leaves the match cleanly, and so does Ctrl-C (with
    exit status 130). With ``save``, the match record (tavli.formats.record) is
    written there when the match ends or stops. Everything is said in
    ``language`` (``en`` or ``el``). With ``record`` (``tavli.formats.record``), the
    match goes on from where the record leaves it, with its settings; the
    dice from then on are ``roller``'s. With ``tutor``, a human's blunder is
    played only once he confirms it; with ``chances``, each board shows each
    side's chance of winning the match (``tavli.study.chances``).
    """
    words = Words(language)
    console = console or Console(highlight=False)
    players = make_seats(seats, roller, language)
    match = record.to_match(roller) if record is not None else Match(settings, roller)
    session = TerminalMatch(match, players, console, read_line or console_reader(console), words=words,
                            origin=record, tutor=tutor, chances=chances, save=save)
    try:
        return session.run()
    except (EOFError, LeaveMatch) as e:
        console.print()
        session.say("End of input: the match stops at {score}." if isinstance(e, EOFError) else
                    "You left the match: the match stops at {score}.", score=session.score_text())
        return None
    except KeyboardInterrupt:
        console.print()
        session.say("Interrupted: the match stops at {score}.", score=session.score_text())
        raise SystemExit(130) from None
    finally:
        if save is not None:
            save_match(session, save)


def save_match(session: TerminalMatch, path: Path) -> None:
    """Write the record of the match played so far, and say where (or why not), with the
    command that goes on with a match not yet won."""
    try:
        write(session.record(), path)
    except OSError as e:
        session.say("✗ cannot save the match in {path}: {why}", ERROR_STYLE, path=path, why=e.strerror or e)
        return
    words, quoted = session.words, shlex.quote(str(path))
    said = [words("The match is saved in {path}.", path=path)]
    if not session.match.is_over:
        said.append(words("To go on with it: {command}", command=(f"tavli play --resume {quoted}", "bold")))
    else:
        said.append(words("To review it, every play against the best: {command}",
                          command=(f"tavli analyse {quoted}", "bold")))
    for line in said:
        session.console.print(line, soft_wrap=True)  # unbroken, to be copied whole


# -- the openings practice --------------------------------------------------
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
