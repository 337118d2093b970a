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
from collections.abc import Sequence

from tavli.errors import PositionFormatError

POSITION_ID = re.compile(r"[A-Za-z0-9+/]{14}")
"""The shape of a Position ID: 14 base64 characters (a position string never has it)."""


def encode_position_id(not_on_roll: Sequence[int], on_roll: Sequence[int]) -> str:
    """The Position ID of a Portes position (``Position.gnubg_id``) from each side's checkers on
    his own points 1..24 and the bar (25), ``side[point - 1]``: the player not on roll first."""
    bits: list[int] = []
    for side in (not_on_roll, on_roll):
        for count in side:
            bits.extend([1] * count)
            bits.append(0)
    bits.extend([0] * (80 - len(bits)))
    data = bytearray(10)
    for k, bit in enumerate(bits):
        if bit:
            data[k >> 3] |= 1 << (k & 7)
    return base64.b64encode(bytes(data)).decode("ascii")[:14]


def decode_position_id(position_id: str) -> tuple[dict[int, int], dict[int, int]]:
    """Read a Position ID (``Position.from_gnubg_id``): the checkers of the player not on roll,
    then of the player on roll, ``{point: count}`` in each one's own numbering (25: the bar)."""
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
    return sides[0], sides[1]
