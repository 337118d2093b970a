"""GNU Backgammon Position IDs for Portes positions.

The ID packs both sides into 80 bits, 14 base64 characters: for each side,
for each of its points 1..24 then the bar, as many 1 bits as checkers and a
0 bit. GNU Backgammon writes the player *not* on roll first and the player
on roll second (whatever its manual says), each in his own numbering.

>>> from tavli import Position
>>> Position.start("portes").gnubg_id()
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import TYPE_CHECKING

from tavli.errors import PositionFormatError
from tavli.variants import WHITE, Color

if TYPE_CHECKING:
    from tavli.position import Position

POSITION_ID = re.compile(r"[A-Za-z0-9+/]{14}")
"""The shape of a Position ID: 14 base64 characters (a position string never has it)."""


def gnubg_id(pos: Position) -> str:
    """The Position ID of a Portes position, the player to move on roll."""
    if pos.variant.name != "portes":
        raise PositionFormatError("GNU Backgammon Position IDs exist for Portes only")
    bits: list[int] = []
    for color in (pos.turn.other, pos.turn):
        for point in range(1, 26):
            bits.extend([1] * pos.checkers(color, point))
            bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    data = bytearray(10)
    for k, bit in enumerate(bits):
        if bit:
            data[k >> 3] |= 1 << (k & 7)
    return base64.b64encode(bytes(data)).decode("ascii")[:14]


def position_from_gnubg_id(position_id: str, turn: Color = WHITE) -> Position:
    """Read a Position ID; ``turn`` is the colour of the player on roll."""
    from tavli.position import Position

    text = position_id.strip()
    if not POSITION_ID.fullmatch(text):
        raise PositionFormatError("a Position ID is 14 base64 characters, not {text!r}", text=position_id)
    try:
        data = base64.b64decode(text + "==", validate=True)
    except binascii.Error:
        raise PositionFormatError("{text!r} is not valid base64", text=position_id) from None
    sides: list[dict[int, int]] = [{}, {}]
    side, point = 0, 1
    for k in range(80):
        if side > 1:
            if (data[k >> 3] >> (k & 7)) & 1:
                raise PositionFormatError("{text!r} has bits after both sides", text=position_id)
            continue
        if (data[k >> 3] >> (k & 7)) & 1:
            sides[side][point] = sides[side].get(point, 0) + 1
            if sum(sides[side].values()) > 15:
                raise PositionFormatError("{text!r} gives a side more than 15 checkers", text=position_id)
        else:
            point += 1
            if point == 26:
                side, point = side + 1, 1
    if side < 2:
        raise PositionFormatError("{text!r} does not describe both sides", text=position_id)
    opponent, mover = sides
    white, black = (mover, opponent) if turn == WHITE else (opponent, mover)
    try:
        return Position.from_checkers("portes", turn, white, black)
    except PositionFormatError:
        raise
    except ValueError as e:
        raise PositionFormatError("{text!r}: {reason}", text=position_id, reason=e) from None
