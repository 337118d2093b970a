"""The match as the protocol shows it: the ``state`` message, in White's numbering.

See docs/web.md for every field.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import TYPE_CHECKING, Any

import numpy as np

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


def step_orders(legal: LegalPlays) -> list[dict[str, Any]]:
    """Every order in which each legal play can be made one die at a time.

    A board offers a checker's legal destinations from these, and lets the
    player take steps back before confirming the whole play.
    """
    position = legal.position
    variant, color = position.variant, position.turn
    out: list[dict[str, Any]] = []
    results = legal.results
    for index, play in enumerate(legal):
        seen: set[tuple[Step, ...]] = set()
        for order in permutations(play.steps):
            bare = tuple(Step(s.src, s.dst) for s in order)
            if bare in seen:
                continue
            seen.add(bare)
            replayed = position.replay(bare)
            if replayed is None or not np.array_equal(replayed[1], results[index]):
                continue
            out.append({"play": index, "steps": steps_json(variant, color, replayed[0])})
    return out


def board_json(position: Position) -> dict[str, Any]:
    variant = position.variant
    points = []
    for p in range(1, 25):
        view = position.point(p)
        pinned = None if view.pinned is None else ("white" if view.pinned == WHITE else "black")
        points.append({"white": view.white, "black": view.black, "pinned": pinned})
    return {
        "points": points,
        "black_numbers": [variant.other_numbering(p) for p in range(1, 25)],
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


def state_json(live: LiveMatch, you: str, *, steps: bool, connected: dict[str, bool], can_claim: bool,
               claim_after: float) -> dict[str, Any]:
    """The ``state`` message of a match for one seat (``white``, ``black``) or a ``spectator``."""
    match = live.match
    record = match.records[-1]
    game = record.game
    index = len(match.records) - 1
    seeds = live.roller.seeds
    winner = match.winner
    turn = "white" if match.turn == WHITE else "black"
    on_turn = you == turn and not match.is_over
    legal = match.legal_plays() if on_turn and match.dice is not None else None
    state: dict[str, Any] = {
        "type": "state", "seq": live.seq, "match": live.row.id, "you": you,
        "settings": live.row.settings,
        "players": {name: {"kind": "bot" if live.bot_level(color) else "human",
                           "level": live.bot_level(color), "connected": connected.get(name, False)}
                    for name, color in (("white", WHITE), ("black", BLACK))},
        "score": {"white": match.score[WHITE], "black": match.score[BLACK]},
        "over": match.is_over, "winner": None if winner is None else ("white" if winner == WHITE else "black"),
        "turn": turn, "dice": list(match.dice) if match.dice is not None else None,
        "can_roll": on_turn and match.dice is None and not game.is_over,
        "can_play": legal is not None and len(legal) > 0,
        "can_claim": can_claim, "claim_after": claim_after,
        "game": {
            "index": index, "variant": game.variant.name, "rules": str(game.variant),
            "commitment": commitment(seeds[index]) if index < len(seeds) else None,
            "opening": [list(r) for r in record.opening_rolls],
            **board_json(game.position),
            "moves": live.moves[index] if index < len(live.moves) else [],
            "result": result_json(game.result),
        },
        "games": [{"index": k, "variant": r.game.variant.name,
                   "commitment": commitment(seeds[k]) if k < len(seeds) else None,
                   "seed": seeds[k].hex() if k < len(seeds) and r.game.is_over else None,
                   "result": result_json(r.game.result)} for k, r in enumerate(match.records)],
        "legal": None,
        "can_resign": on_turn and live.offer is None,
        "offer": None if live.offer is None else {k: v for k, v in live.offer.items() if k != "hash"},
        "rematch": live.rematch,
    }
    finished = [k for k, r in enumerate(match.records) if r.game.is_over]
    if finished:  # the final position of the last finished game, to show it once it ends
        last = match.records[finished[-1]].game
        state["games"][finished[-1]]["final"] = board_json(last.position)
        state["games"][finished[-1]]["moves"] = len(last.history)
    if legal is not None:
        state["legal"] = {"plays": list(live.listed_plays())}
        if steps:
            state["legal"]["orders"] = step_orders(legal)
    return state
