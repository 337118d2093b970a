"""Play a Tavli match in the terminal: the board drawn with ``rich``, human
seats typing moves in notation or by number, bots playing their own moves.

The board is drawn from one side's point of view: his points 13-24 on top,
12-1 below, his home table at the bottom right.

>>> from tavli import Position
>>> text = render_text(board(Position.start("portes")))
>>> "White" in text and "167 pips" in text
True
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from tavli.bots import BOTS, Player, make_bot
from tavli.dice import Dice, DiceRoller
from tavli.match import TAVLI_SEQUENCE, GameRecord, Match, MatchSettings
from tavli.position import LegalPlays, Play, PointView, Position
from tavli.variants import BLACK, WHITE, Color, Variant

SEAT_KINDS = ("human", *BOTS)
HINT_LEVEL = "expert"

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
                marks: Collection[int] = ()) -> list[Text]:
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
    lines.append(_middle_row(position, dice, half, bar_width))
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


def _middle_row(position: Position, dice: Dice | None, half: str, bar_width: int) -> Text:
    bar = "BAR" if position.variant.has_bar else ""
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
    row.append(" off", LABEL_STYLE)
    return row


def side_lines(position: Position, names: Mapping[Color, str] | None = None,
               dice: Dice | None = None, bottom: Color = WHITE) -> list[Text]:
    """The facts next to the board: each side's pips, bar and borne-off checkers, the turn."""
    names = names or {WHITE: "White", BLACK: "Black"}
    width = max(len(n) for n in names.values())
    lines = []
    for color in (bottom.other, bottom):
        to_move = color == position.turn and position.result() is None
        line = Text.assemble(("▶ " if to_move else "  ", MARK_STYLE),
                             (f"{GLYPH[color]} ", CHECKER_STYLE[color]),
                             (f"{names[color]:<{width}}  ", "bold"),
                             f"{position.pip_count(color):>3} pips  ",
                             f"{position.borne_off(color):>2} off")
        if position.variant.has_bar and position.on_bar(color):
            line.append(f"  {position.on_bar(color)} on the bar", MARK_STYLE)
        lines.append(line)
    pins = pin_text(position, bottom)
    if pins is not None:
        lines.append(pins)
    lines.append(turn_text(position, dice))
    return lines


def turn_text(position: Position, dice: Dice | None) -> Text:
    """``White to move, rolled 6-2``, or how the game ended."""
    result = position.result()
    if result is not None:
        return Text.assemble("  Game over: ", (str(result), "bold"))
    turn = Text.assemble("  ", (f"{position.turn}", "bold"), " to move")
    if dice is not None:
        turn.append(f", rolled {dice}")
    return turn


def pin_text(position: Position, bottom: Color) -> Text | None:
    """``Pinned: (●) on 5, (○) on 20`` in ``bottom``'s numbering, or None without pins."""
    parts: list[Text] = []
    for p in range(1, 25):
        view = position.point(white_point(position.variant, bottom, p))
        if view.pinned is not None:
            parts.append(Text.assemble((PINNED[view.pinned], CHECKER_STYLE[view.pinned]), f" on {p}"))
    if not parts:
        return None
    return Text("  Pinned: ").append_text(Text(", ").join(parts))


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
          names: Mapping[Color, str] | None = None, marks: Collection[int] = ()) -> BoardView:
    """The board with each side's pips, bar and borne-off checkers, ready to print.

    ``bottom`` is the side whose home table is drawn at the bottom right
    (default: the side to move); ``marks`` are points to highlight in his
    numbering.
    """
    seen_by = position.turn if bottom is None else bottom
    return BoardView(board_lines(position, seen_by, dice, marks), side_lines(position, names, dice, seen_by))


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


# -- the match --------------------------------------------------------------
class LeaveMatch(Exception):
    """The human at the keyboard chose to leave the match."""


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


def make_seats(seats: Mapping[Color, str], roller: DiceRoller) -> dict[Color, Seat]:
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
        out[color] = Seat(color, kind, bot, seat_label(color, kind, humans))
    return out


def seat_label(color: Color, kind: str, humans: int) -> str:
    """``Black (heuristic)``; ``White (you)`` against a bot; ``White`` between two humans."""
    if kind != "human":
        return f"{color} ({kind})"
    return f"{color} (you)" if humans == 1 else str(color)


def _draws_random(kind: str) -> bool:
    from tavli.neural import LEVELS

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
  quit        leave the match"""


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass
class TerminalMatch:
    """A match played at the terminal, turn by turn, until it ends or the human leaves."""

    match: Match
    seats: dict[Color, Seat]
    console: Console
    read_line: Callable[[str], str]
    last_marks: dict[Color, frozenset[int]] = field(default_factory=dict)
    """The points of the last move, in each side's numbering."""

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
    def say(self, *parts: str | tuple[str, str] | Text) -> None:
        self.console.print(Text.assemble(*parts))

    def error(self, message: str) -> None:
        self.say((f"✗ {message}", ERROR_STYLE))

    def mover(self, color: Color) -> Text:
        """``● Black (heuristic)`` in Black's colour."""
        return Text.assemble((f"{GLYPH[color]} ", CHECKER_STYLE[color]), (self.names[color], "bold"))

    def show_board(self, record: GameRecord, dice: Dice | None = None, header: bool = True) -> None:
        position = record.game.position
        viewer = self.viewer(position)
        self.console.print()
        if header:
            self.console.print(self.header(record))
        self.console.print(board(position, bottom=viewer, dice=dice, names=self.names,
                                 marks=self.last_marks.get(viewer, frozenset())))

    def game_number(self, record: GameRecord) -> int:
        return self.match.records.index(record) + 1

    def header(self, record: GameRecord) -> Text:
        """``Game 2: Plakoto (Portes, Plakoto, Fevga) · White 1, Black 0 · match to 5``."""
        games = self.match.settings.games
        order = ", ".join(name.capitalize() for name in games)
        order = order if len(games) > 1 else f"{order} only"
        name = record.game.variant.name.capitalize()
        return Text.assemble((f"Game {self.game_number(record)}: {name}", "bold"),
                             (f" ({order})", LABEL_STYLE), " · ", self.score_text())

    def score_text(self) -> Text:
        """``White 1, Black 0 · match to 5``."""
        score = self.match.score
        return Text.assemble((f"White {score[WHITE]}", CHECKER_STYLE[WHITE]), ", ",
                             (f"Black {score[BLACK]}", CHECKER_STYLE[BLACK]),
                             f" · match to {self.match.settings.length}")

    # -- input --------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        return self.read_line(prompt)

    def pause(self, prompt: str) -> None:
        """Wait for Enter when someone is at the keyboard."""
        if self.humans:
            self.ask(f"{prompt} [Enter] ")

    # -- the flow -----------------------------------------------------------
    def run(self) -> Color | None:
        """Play until the match ends; return the winner."""
        self.announce_game(self.match.records[-1])
        while not self.match.is_over:
            record = self.match.records[-1]
            self.take_turn(record)
            if record.game.is_over:
                self.announce_result(record)
                if not self.match.is_over:
                    self.pause(f"Game {len(self.match.records)} is next.")
                    self.announce_game(self.match.records[-1])
        winner = self.match.winner
        assert winner is not None
        score = self.match.score
        self.console.print()
        self.say(self.mover(winner), (f" wins the match {score[winner]}-{score[winner.other]}", "bold"),
                 f" (match to {plural(self.match.settings.length, 'point')}).")
        return winner

    def announce_game(self, record: GameRecord) -> None:
        self.console.print()
        self.console.rule(self.header(record))
        starter = record.game.turn
        if record.opening_rolls:
            for white, black in record.opening_rolls:
                verdict = "equal, roll again" if white == black else f"{starter} starts"
                self.say("Opening roll: ", (f"White {white}", CHECKER_STYLE[WHITE]), ", ",
                         (f"Black {black}", CHECKER_STYLE[BLACK]), f": {verdict}.")
        else:
            self.say(f"{starter} won the last game and starts.")
        self.last_marks = {}
        if not self.humans:
            self.show_board(record, header=False)

    def take_turn(self, record: GameRecord) -> None:
        seat = self.seats[self.match.turn]
        dice = self.match.roll()
        legal = self.match.legal_plays()
        if seat.bot is not None:
            play = legal[self.bot_choice(seat.bot, legal)] if len(legal) else None
        else:
            self.show_board(record, dice)
            play = self.human_play(seat, legal)
        self.commit(seat, dice, play)

    def bot_choice(self, bot: Player, legal: LegalPlays) -> int:
        """A neural bot plays for the match (``tavli.met``), the others as they always do."""
        from tavli.met import MatchScore
        from tavli.neural import NeuralBot

        if isinstance(bot, NeuralBot):
            return bot.choose(legal, MatchScore.of(self.match))
        return bot.choose(legal)

    def commit(self, seat: Seat, dice: Dice, play: Play | None) -> None:
        """Play the chosen move, tell it, and note its points for the next board."""
        position = self.match.game.position
        self.match.play(play)
        verb = "rolls" if seat.bot is not None else "rolled"
        if play is None or play.is_pass:
            self.say(self.mover(seat.color), f" {verb} {dice}: no legal play, the turn passes.")
            return
        self.say(self.mover(seat.color), f" {verb} {dice} and plays ", (str(play), "bold"), ".")
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
        title = f"game {self.game_number(record)} ({record.game.variant.name.capitalize()})"
        self.console.print()
        if result.winner is None:
            self.say((f"G{title[1:]} is a tie", "bold"), f" ({result.reason}): no points.")
        else:
            self.say(self.mover(result.winner), (f" wins {title}", "bold"),
                     f": {plural(result.points, 'point')}, {result.reason}.")
        self.say("Score: ", self.score_text())

    # -- a human's turn -----------------------------------------------------
    def human_play(self, seat: Seat, legal: LegalPlays) -> Play | None:
        """Ask until the human gives a legal play; None passes a turn that has no play."""
        if not len(legal):
            self.ask(f"No legal play with {legal.dice}: press Enter to pass. ")
            return None
        if len(legal) <= LIST_LIMIT:
            self.show_plays(legal)
            if len(legal) > 1:
                self.say((f"Type a move like {legal[0]}, or its number; help for help.", NOTE_STYLE))
        else:
            self.say((f"{len(legal)} legal plays: type a move like {legal[0]}, or list to see them "
                      "numbered; help for help.", NOTE_STYLE))
        prompt = f"{seat.color} to play {legal.dice} › "
        while True:
            play = self.read_play(legal, self.ask(prompt))
            if play is not None:
                return play

    def show_plays(self, legal: LegalPlays) -> None:
        if len(legal) == 1:
            self.say(("Only one legal play: ", NOTE_STYLE), (str(legal[0]), "bold"),
                     (" (Enter plays it).", NOTE_STYLE))
            return
        self.console.print(numbered_plays(legal))

    def read_play(self, legal: LegalPlays, line: str) -> Play | None:
        """The play that ``line`` names, or None after handling a command or showing an error."""
        text = line.strip()
        command = text.lower()
        if command == "" and len(legal) == 1:
            return legal[0]
        if command == "":
            self.say(("Type a move like 24/18 13/11, a number from the list, or help.", NOTE_STYLE))
        elif command in ("?", "list", "l", "ls"):
            self.show_plays(legal)
        elif command in ("help", "h"):
            self.console.print(Text(HELP, NOTE_STYLE))
        elif command in ("board", "redraw"):
            self.show_board(self.match.records[-1], legal.dice)
        elif command == "hint":
            self.show_hint(legal)
        elif command in ("position", "pos"):
            self.show_position(legal)
        elif command in ("quit", "exit", "q"):
            if self.ask("Leave the match? [y/N] ").strip().lower() in ("y", "yes"):
                raise LeaveMatch
        elif command.isdigit():
            return self.pick(legal, int(command))
        else:
            return self.parse(legal, text)
        return None

    def show_position(self, legal: LegalPlays) -> None:
        """The position string (and a Portes position's GNU Backgammon ID), with the command that
        ranks the roll's plays at this score, to study it later."""
        position, dice = legal.position, legal.dice
        length, score = self.match.settings.length, self.match.score
        self.say(("Position: ", NOTE_STYLE), (str(position), "bold"))
        if position.variant.name == "portes":
            self.say(("GNU Backgammon Position ID: ", NOTE_STYLE), (position.gnubg_id(), "bold"))
        games = self.match.settings.games
        order = "tavli" if games == TAVLI_SEQUENCE else ",".join(games)
        match = f" --match {length} --score {score[WHITE]}-{score[BLACK]} --games {order}"
        command = f"tavli hint '{position}' {dice.first}{dice.second}{match}"
        self.say(("Its plays, ranked: ", NOTE_STYLE), (command, "bold"))

    def show_hint(self, legal: LegalPlays) -> None:
        """The best plays for the match at its score, by the expert bot (as its bots play): each
        play's chance of winning the match, what it gives up against the best, and its expected
        points in the game."""
        from tavli.met import MatchScore
        from tavli.neural import NeuralBot

        found = NeuralBot(HINT_LEVEL).analyse(legal, MatchScore.of(self.match))[:3]
        best = found[0].match_equity or 0.0
        self.say((f"The {HINT_LEVEL} bot's choice for the match at this score: your chance of winning it, "
                  "and your expected points in this game:", NOTE_STYLE))
        for rank, a in enumerate(found, 1):
            mwc = a.match_equity or 0.0
            loss = "" if rank == 1 else f" ({100 * (mwc - best):+.1f})"
            self.say((f"  {rank}. ", NOTE_STYLE), (str(legal[a.index]), "bold"),
                     (f"  {100 * mwc:.1f}%{loss}, {a.equity:+.3f} points", NOTE_STYLE))

    def pick(self, legal: LegalPlays, number: int) -> Play | None:
        if 1 <= number <= len(legal):
            return legal[number - 1]
        self.error(f"there is no play {number}: pick 1 to {len(legal)}, or type list to see them")
        return None

    def parse(self, legal: LegalPlays, text: str) -> Play | None:
        try:
            return legal.position.parse_play(text, legal.dice)
        except ValueError as e:
            self.error(str(e))
            return None


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
               save: Path | None = None) -> Color | None:
    """Play a match at the terminal; return the winner (None if the match was left).

    ``seats`` says who plays each side: ``human``, ``random``, ``heuristic``
    or a neural level (``beginner`` ... ``champion``).
    ``read_line(prompt)`` reads a human's answer (default: the console's
    input); end of input leaves the match cleanly, and so does Ctrl-C (with
    exit status 130). With ``save``, the match record (tavli.record) is
    written there when the match ends or stops.
    """
    console = console or Console(highlight=False)
    players = make_seats(seats, roller)
    session = TerminalMatch(Match(settings, roller), players, console, read_line or console_reader(console))
    try:
        return session.run()
    except (EOFError, LeaveMatch) as e:
        why = "End of input" if isinstance(e, EOFError) else "You left the match"
        console.print()
        console.print(Text.assemble(f"{why}: the match stops at ", session.score_text(), "."))
        return None
    except KeyboardInterrupt:
        console.print()
        console.print(Text.assemble("Interrupted: the match stops at ", session.score_text(), "."))
        raise SystemExit(130) from None
    finally:
        if save is not None:
            save_match(session, save)


def save_match(session: TerminalMatch, path: Path) -> None:
    """Write the record of the match played so far."""
    from tavli import record

    players = {color: record.PlayerInfo("human", "") if seat.is_human else record.PlayerInfo("bot", seat.kind)
               for color, seat in session.seats.items()}
    try:
        record.write(record.MatchRecord.from_match(session.match, players), path)
    except OSError as e:
        session.console.print(Text(f"✗ cannot save the match in {path}: {e.strerror or e}", ERROR_STYLE))
        return
    session.console.print(f"The match is saved in {path}.")


# -- the openings practice --------------------------------------------------
@dataclass
class PracticeTally:
    """Opening rolls played in a practice, how many with the best play, and the points given up."""

    played: int = 0
    best: int = 0
    lost: float = 0.0

    def text(self) -> str:
        mean = self.lost / self.played if self.played else 0.0
        return f"{self.played} played, {self.best} best, {self.lost:.3f} points given up ({mean:.3f} a roll)"


def practise_openings(game: str, *, rolls: int | None = None, rng: random.Random | None = None,
                      console: Console | None = None,
                      read_line: Callable[[str], str] | None = None) -> PracticeTally:
    """Deal opening rolls of ``game`` as the dice fall, read the player's play of each from the
    start position (notation, or a number from ``list``), and judge it by the opening tables
    (``tavli.openings.shipped().judged``): what it gives up against the best, doubtful to
    blunder by the review's thresholds. Stops after ``rolls`` rolls, at ``q`` or at the end of
    input."""
    from tavli.openings import shipped

    console = console or Console(highlight=False)
    read = read_line or console_reader(console)
    rng = rng or random.Random()
    tables = shipped()
    start = Position.start(game)
    tally = PracticeTally()

    def say(*parts: str | tuple[str, str]) -> None:
        console.print(Text.assemble(*parts))

    while rolls is None or tally.played < rolls:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        dice = Dice(max(a, b), min(a, b))
        legal = start.legal_plays(dice)
        console.print(board(start, dice=dice))
        play: Play | None = None
        while play is None:
            try:
                text = read(f"Your play of {dice} (list, q to stop): ").strip()
            except EOFError:
                return tally
            if text.lower() in ("q", "quit", "exit"):
                return tally
            if text.lower() in ("?", "list", "l", "ls"):
                console.print(numbered_plays(legal))
            elif text.isdigit() and 1 <= int(text) <= len(legal):
                play = legal[int(text) - 1]
            elif text:
                try:
                    play = start.parse_play(text, dice)
                except ValueError as e:
                    say((f"✗ {e}", ERROR_STYLE))
        judged = tables.judged(game, dice)
        mine = judged[str(play)]
        tally.played += 1
        if mine.best:
            tally.best += 1
            say(("✓ ", "bold green"), (str(play), "bold"), (": the best play" if len(legal) > 1 else ": the only play",
                                                          NOTE_STYLE))
        else:
            tally.lost += mine.loss
            verdict = f"{mine.skill}, " if mine.skill else "a good play, "
            best = next(p for p, j in judged.items() if j.best)
            say((str(play), "bold"), (f": {verdict}{mine.loss:.3f} points behind the best, ", NOTE_STYLE),
                (best, "bold"))
        say((f"{game.capitalize()}: {tally.text()}.", NOTE_STYLE))
    return tally
