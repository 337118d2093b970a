"""The position string: a compact, readable text for any position.

Five fields separated by spaces::

    portes 2b....5w.3w...5b5w...3b.5b....2w w 0:0 0:0
    ^game  ^board (White's points 1..24)    ^turn ^bar W:B ^off W:B

The board lists White's points 1 to 24, one token each: ``.`` for an empty
point, ``5w`` for five white checkers, ``2b`` for two black ones, and for a
Plakoto pin ``2wb``: two white checkers on top of one pinned black checker.
The game may carry house rules: ``fevga,prime_limits=off``.

>>> from tavli import Position
>>> str(Position.start("fevga"))
'fevga ...........15b...........15w w 0:0 0:0'
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple, Protocol

from tavli.errors import PositionFormatError, TavliError
from tavli.variants import BLACK, WHITE, Color, Variant, variant_from_string


class PointView(NamedTuple):
    """What stands on one point: counts of each side and who is pinned there."""

    white: int
    black: int
    pinned: Color | None


class Writable(Protocol):
    """What writing a position string needs of a position (``tavli.position.Position``): this
    module does not import the positions, which write and read themselves through it."""

    @property
    def variant(self) -> Variant: ...

    @property
    def turn(self) -> Color: ...

    def points(self) -> list[PointView]: ...

    def on_bar(self, color: Color) -> int: ...

    def borne_off(self, color: Color) -> int: ...


class PositionText(NamedTuple):
    """A position string read (``parse_position``): what ``Position.from_checkers`` takes, and the
    checkers it says are borne off (``check_borne_off``)."""

    variant: Variant
    turn: Color
    white: dict[int, int]
    black: dict[int, int]
    pinned: dict[int, Color]
    off: tuple[int, int]


_TOKEN = re.compile(r"\.|(\d+)([wb])([wb])?")


@functools.cache
def _point_token(view: PointView) -> str:
    """One point of the board field: ``.``, ``5w``, ``2b`` or a pin such as ``2wb``."""
    if view.pinned is not None:
        top = view.pinned.other
        count = view.white if top == WHITE else view.black
        return f"{count}{top.letter}{view.pinned.letter}"
    if view.white:
        return f"{view.white}w"
    if view.black:
        return f"{view.black}b"
    return "."


def format_position(pos: Writable) -> str:
    """Write ``pos`` as a position string."""
    tokens = [_point_token(view) for view in pos.points()]
    bar = f"{pos.on_bar(WHITE)}:{pos.on_bar(BLACK)}"
    off = f"{pos.borne_off(WHITE)}:{pos.borne_off(BLACK)}"
    return f"{pos.variant} {''.join(tokens)} {pos.turn.letter} {bar} {off}"


def _pair(text: str, on_bar: bool) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+):(\d+)", text)
    if not m:
        raise PositionFormatError("the bar must be written W:B, like 0:0, not {text!r}" if on_bar else
                                  "borne-off checkers must be written W:B, like 0:0, not {text!r}", text=text)
    return int(m.group(1)), int(m.group(2))


def parse_position(text: str) -> PositionText:
    """Read a position string (``Position.from_string`` makes the position of it); raise
    PositionFormatError with the reason."""
    fields = text.split()
    if len(fields) != 5:
        raise PositionFormatError(
            "a position string has 5 fields (game, board, turn, bar W:B, off W:B), not {count}", count=len(fields))
    game, board, turn_text, bar_text, off_text = fields
    try:
        variant = variant_from_string(game)
    except TavliError as e:
        raise PositionFormatError(e.reason) from None
    white: dict[int, int] = {}
    black: dict[int, int] = {}
    pinned: dict[int, Color] = {}
    pos, point = 0, 1
    while pos < len(board):
        m = _TOKEN.match(board, pos)
        if not m:
            raise PositionFormatError("cannot read the board at {text!r} (point {point})", text=board[pos:pos + 6],
                                      point=point)
        if point > 24:
            raise PositionFormatError("the board has more than 24 points")
        if m.group(0) != ".":
            count, top, under = int(m.group(1)), m.group(2), m.group(3)
            if count == 0:
                raise PositionFormatError("point {point}: write . for an empty point, not 0{top}", point=point, top=top)
            top_side = white if top == "w" else black
            top_color = WHITE if top == "w" else BLACK
            top_side[_own(variant, top_color, point)] = count
            if under:
                if under == top:
                    raise PositionFormatError("point {point}: {token} pins a checker of its own side", point=point,
                                              token=m.group(0))
                under_color = top_color.other
                (white if under == "w" else black)[_own(variant, under_color, point)] = 1
                pinned[point] = under_color
        pos = m.end()
        point += 1
    if point != 25:
        raise PositionFormatError("the board has {count} points, not 24", count=point - 1)
    if turn_text not in ("w", "b"):
        raise PositionFormatError("the side to move is w or b, not {text!r}", text=turn_text)
    bar = _pair(bar_text, on_bar=True)
    off = _pair(off_text, on_bar=False)
    for side, n in ((white, bar[0]), (black, bar[1])):
        if n:
            side[25] = n
    return PositionText(variant, WHITE if turn_text == "w" else BLACK, white, black, pinned, off)


def check_borne_off(parsed: PositionText, white_off: int, black_off: int) -> None:
    """Raise PositionFormatError unless the position has as many checkers borne off as its
    string says (``white_off``, ``black_off``: how many the checkers on the board leave)."""
    for color, n, have in ((WHITE, parsed.off[0], white_off), (BLACK, parsed.off[1], black_off)):
        if have != n:
            raise PositionFormatError(
                "White has {count} checkers on the board and bar, so {off} off, not {n}" if color == WHITE else
                "Black has {count} checkers on the board and bar, so {off} off, not {n}",
                count=15 - have, off=have, n=n)


def _own(variant: Variant, color: Color, white_point: int) -> int:
    return white_point if color == WHITE else variant.other_numbering(white_point)
