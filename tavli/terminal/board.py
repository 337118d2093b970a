"""The board drawn with ``rich`` from one side's point of view: his points 13-24 on top, 12-1
below, his home table at the bottom right; beside it each side's pips, bar and borne-off
checkers, and whose turn it is.

>>> from tavli import Position
>>> text = render_text(board(Position.start("portes")))
>>> "White" in text and "167 pips" in text
True
>>> "Λευκά" in render_text(board(Position.start("portes"), language="el"))
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from io import StringIO

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from tavli.dice import Dice
from tavli.position import PointView, Position
from tavli.terminal.styles import (
    BOARD_STYLE,
    CHECKER_STYLE,
    EMPTY_STYLE,
    FRAME_STYLE,
    GLYPH,
    LABEL_STYLE,
    MARK_STYLE,
    PINNED,
)
from tavli.terminal.words import Words
from tavli.variants import BLACK, WHITE, Color, Variant

ROWS = 5
"""Checkers drawn per point before the last cell shows the count instead."""
CELL = 3
"""Characters per point."""
GUTTER = 2
"""Spaces between the board and the facts beside it."""

Cell = tuple[str, str]
"""Text of one cell of the board (CELL characters wide) and its style."""


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


