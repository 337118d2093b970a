"""The match as the protocol shows it: the ``state`` message, in White's numbering.

See docs/web.md for every field.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from tavli.fairdice import commitment
from tavli.position import LegalPlays, Position, Step
from tavli.variants import BLACK, WHITE, Color, Variant

if TYPE_CHECKING:
    from tavli.server.service import LiveMatch

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
    variant, color = position.variant, position.turn
    return [{"next": [[white_number(variant, color, step.src), white_number(variant, color, step.dst), step.hit,
                       child] for step, child in node.next], "play": node.play} for node in legal.step_tree()]


COLOR_NAMES = {WHITE: "white", BLACK: "black", None: None}


@functools.cache
def black_numbers(variant: Variant) -> list[int]:
    """Black's number for each of White's points 1 to 24."""
    return [variant.other_numbering(p) for p in range(1, 25)]


def board_json(position: Position) -> dict[str, Any]:
    """The board of the ``state`` message (``LiveMatch.board`` keeps it while the position stands).

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


def shared_state(live: LiveMatch) -> dict[str, Any]:
    """The part of the ``state`` message that is the same for every viewer of the match, for
    ``orjson``: the board and the game's turns come already encoded (``orjson.Fragment``),
    each once (``LiveMatch.board``, ``LiveMatch.moves_json``), not again with every action."""
    match = live.match
    record = match.records[-1]
    game = record.game
    index = len(match.records) - 1
    seeds = live.roller.seeds
    winner = match.winner
    state: dict[str, Any] = {
        "type": "state", "seq": live.seq, "match": live.row.id,
        "settings": live.row.settings,
        "score": {"white": match.score[WHITE], "black": match.score[BLACK]},
        "over": match.is_over, "winner": None if winner is None else ("white" if winner == WHITE else "black"),
        "turn": "white" if match.turn == WHITE else "black",
        "dice": list(match.dice) if match.dice is not None else None,
        "game": orjson.Fragment(joined(orjson.dumps({
            "index": index, "variant": game.variant.name, "rules": str(game.variant),
            "commitment": commitment(seeds[index]) if index < len(seeds) else None,
            "opening": [list(r) for r in record.opening_rolls],
            "result": result_json(game.result),
        }), b'{"moves":' + live.moves_json(index) + b"}", live.board(game.position))),
        "games": [{"index": k, "variant": r.game.variant.name,
                   "commitment": commitment(seeds[k]) if k < len(seeds) else None,
                   "seed": seeds[k].hex() if k < len(seeds) and r.game.is_over else None,
                   "result": result_json(r.game.result)} for k, r in enumerate(match.records)],
        "offer": None if live.offer is None else {k: v for k, v in live.offer.items() if k != "hash"},
        "rematch": live.rematch,
    }
    finished = [k for k, r in enumerate(match.records) if r.game.is_over]
    if finished:  # the final position of the last finished game, to show it once it ends
        last = match.records[finished[-1]].game
        state["games"][finished[-1]]["final"] = orjson.Fragment(live.board(last.position))
        state["games"][finished[-1]]["moves"] = len(last.history)
    return state


def seat_state(live: LiveMatch, you: str, *, steps: bool, connected: dict[str, bool], can_claim: bool,
               claim_after: float, joined: Collection[str] = ()) -> dict[str, Any]:
    """The part of the ``state`` message that depends on who looks (and who is connected).

    ``joined`` names the seats that have come to the match at least once; a seat connected
    now has too.
    """
    match = live.match
    on_turn = you == ("white" if match.turn == WHITE else "black") and not match.is_over
    legal = match.legal_plays() if on_turn and match.dice is not None else None
    state: dict[str, Any] = {
        "you": you,
        "players": {name: {"kind": "bot" if live.bot_level(color) else "human",
                           "level": live.bot_level(color), "connected": connected.get(name, False),
                           "joined": connected.get(name, False) or name in joined,
                           "name": live.names.get(name)}
                    for name, color in (("white", WHITE), ("black", BLACK))},
        "can_roll": on_turn and match.dice is None and not match.game.is_over,
        "can_play": legal is not None and len(legal) > 0,
        "can_claim": can_claim, "claim_after": claim_after,
        "legal": None,
        "can_resign": on_turn and live.offer is None,
    }
    if legal is not None:
        state["legal"] = {"plays": list(live.listed_plays())}
        if steps:
            state["legal"]["tree"] = step_tree_json(legal)
    return state


def joined(*objects: bytes) -> bytes:
    """JSON objects (as bytes) merged into one, their keys all different: the shared part of a
    state is encoded once per action and each viewer's part is appended.

    >>> joined(b'{"a":1}', b'{"b":2}', b'{}')
    b'{"a":1,"b":2}'
    """
    inner = [o[1:-1] for o in objects if len(o) > 2]
    return b"{" + b",".join(inner) + b"}"
