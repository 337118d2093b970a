"""The game as the pages draw it: boards, steps and results, in White's numbering.

The parts of the ``state`` message (``tavli.server.realtime.state_message``), of the opening
tables, of a position's analysis and of a review; see docs/web.md for every field.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from tavli.position import LegalPlays, Position, Step
from tavli.variants import BLACK, WHITE, Color, Variant

BAR, OFF = 25, 0


def white_number(variant: Variant, color: Color, point: int) -> int:
    """A point (25 = bar, 0 = off) in ``color``'s numbering, in White's."""
    if color == WHITE or point in (BAR, OFF):
        return point
    return variant.other_numbering(point)


def steps_json(variant: Variant, color: Color, steps: Sequence[Step]) -> list[list[Any]]:
    """``[from, to, hit]`` per step, in White's numbering.

    >>> from tavli import Portes
    >>> steps_json(Portes(), BLACK, [Step(24, 18), Step(6, 0)])
    [[1, 7, False], [19, 0, False]]
    """
    return [[white_number(variant, color, s.src), white_number(variant, color, s.dst), bool(s.hit)] for s in steps]


def step_tree_json(legal: LegalPlays) -> list[dict[str, Any]]:
    """``LegalPlays.step_tree`` for a board, in White's numbering: per node, ``next`` as
    ``[from, to, hit, node]`` and ``play``, the index of the play it completes (or None).

    >>> from tavli import Position
    >>> tree = step_tree_json(Position.start("portes").legal_plays("2-1"))
    >>> tree[0]["play"], len(tree[0]["next"]), tree[0]["next"][0]
    (None, 7, [24, 22, False, 18])
    """
    position = legal.position
    nodes, edges = legal.step_graph()
    if position.turn != WHITE:
        edges[:, :2] = white_numbering(position.variant)[edges[:, :2]]
    rows = edges.tolist()
    return [{"next": [[src, dst, hit == 1, child] for src, dst, hit, child in rows[first:first + count]],
             "play": None if play < 0 else play} for play, first, count in nodes.tolist()]


@functools.cache
def white_numbering(variant: Variant) -> np.ndarray:
    """Black's points 0 to 25 (off, 1–24, bar) in White's numbering, as an array to index."""
    return np.array([white_number(variant, BLACK, p) for p in range(26)], np.int64)


COLOR_NAMES = {WHITE: "white", BLACK: "black", None: None}


@functools.cache
def black_numbers(variant: Variant) -> list[int]:
    """Black's number for each of White's points 1 to 24."""
    return [variant.other_numbering(p) for p in range(1, 25)]


def board_json(position: Position) -> dict[str, Any]:
    """The board of the ``state`` message (``LiveMatch.board`` keeps it while the position stands)
    and of every page that draws one.

    >>> board = board_json(Position.start("portes"))
    >>> board["points"][5], board["pips"]
    ({'white': 5, 'black': 0, 'pinned': None}, {'white': 167, 'black': 167})
    """
    return {
        "points": [{"white": view.white, "black": view.black, "pinned": COLOR_NAMES[view.pinned]}
                   for view in position.points()],
        "black_numbers": black_numbers(position.variant),
        "bar": {"white": position.on_bar(WHITE), "black": position.on_bar(BLACK)},
        "off": {"white": position.borne_off(WHITE), "black": position.borne_off(BLACK)},
        "pips": {"white": position.pip_count(WHITE), "black": position.pip_count(BLACK)},
        "position": str(position),
    }


WHY = {
    "bore off all checkers": "bore-off",
    "double game: the loser bore off nothing": "double",
    "mother pinned": "mother",
    "both mothers pinned": "tie-mothers",
    "neither side can move": "tie-stuck",
    "resigned": "resigned",
    "resigned the match": "resigned-match",
    "lost on time": "time",
    "forfeited: did not come": "forfeit",
    "aborted": "aborted",
}
"""Why a game ended, as a code a page can put in words (``claimed`` for a claim)."""


def result_json(result: Any) -> dict[str, Any] | None:
    """``{"winner", "points", "reason", "why"}`` of a finished game.

    >>> from tavli.position import GameResult
    >>> result_json(GameResult(BLACK, 2, "double game: the loser bore off nothing"))["why"]
    'double'
    """
    if result is None:
        return None
    winner = None if result.winner is None else ("white" if result.winner == WHITE else "black")
    why = WHY.get(result.reason, "claimed" if result.reason.startswith("claimed") else "other")
    return {"winner": winner, "points": result.points, "reason": result.reason, "why": why}


def joined(*objects: bytes) -> bytes:
    """JSON objects (as bytes) merged into one, their keys all different: the shared part of a
    state is encoded once per action and each viewer's part is appended.

    >>> joined(b'{"a":1}', b'{"b":2}', b'{}')
    b'{"a":1,"b":2}'
    """
    inner = [o[1:-1] for o in objects if len(o) > 2]
    return b"{" + b",".join(inner) + b"}"
