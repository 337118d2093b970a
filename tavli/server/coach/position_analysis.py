"""Any position analysed for the web app (``GET /api/position``, docs/web.md, "Analysing a position").

A position string or a GNU Backgammon Position ID (Portes, White on roll) and a roll in;
out, every legal play of the roll ranked by the network's search at 0, 1 or 2 plies, best
first (``tavli.study.analysis.rank_plays``: plays within reach of the best go deeper, as in the
review), each with its chances, its loss against the best, the board after it and the steps of
the play in White's numbering, so that a page can draw them.

>>> found = position_json("4HPwATDgc/ABMA", "31", depth=0)
>>> found["game"], found["turn"], found["dice"], found["legal"], found["plays"][0]["play"]
('portes', 'white', '3-1', 16, '8/5 6/5')
>>> found["plays"][0]["steps"]
[[8, 5, False], [6, 5, False]]
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tavli.bots.match_equity import MatchScore, parse_order
from tavli.bots.neural import Evaluator, Probabilities
from tavli.dice import Dice
from tavli.errors import PositionFormatError, TavliError
from tavli.gnubg_id import POSITION_ID
from tavli.position import Position
from tavli.server.play.view import COLOR_NAMES, board_json, steps_json
from tavli.study.analysis import Thresholds, rank_plays
from tavli.variants import Color

DEPTHS = (0, 1, 2)
"""The plies the server searches: the advanced, expert and champion levels' own (3 plies
would cost the server seconds a request)."""

MAX_LENGTH = 25
"""The longest match analysed at its score (as the longest the server plays)."""

MAX_TEXT = 200
"""The longest position text read (a position string is under 100 characters)."""


class PositionAnalysisError(TavliError):
    """A request that cannot be analysed: a malformed position or roll, a depth out of range,
    a game already over."""


def read_position(text: str) -> Position:
    """A position string (docs/formats.md) or a GNU Backgammon Position ID (Portes, White on roll).

    >>> str(read_position("4HPwATDgc/ABMA")) == str(Position.start("portes"))
    True
    """
    text = text.strip()
    if not text:
        raise PositionFormatError("give a position: a position string or a GNU Backgammon Position ID")
    if len(text) > MAX_TEXT:
        raise PositionFormatError("a position is at most {most} characters", most=MAX_TEXT)
    return Position.from_gnubg_id(text) if POSITION_ID.fullmatch(text) else Position.from_string(text)


def _chances(p: Probabilities) -> dict[str, float]:
    return {"win": round(p.win, 4), "win2": round(p.win2, 4), "lose2": round(p.lose2, 4),
            "equity": round(p.equity, 4)}


def position_json(position_text: str, dice_text: str, depth: int = 1, length: int = 0, white: int = 0,
                  black: int = 0, order: str = "tavli") -> dict[str, Any]:
    """The analysis of a roll in a position (see the module): for points per game, or with a match
    ``length`` at the score ``white``-``black`` of a match of the Tavli ``order`` or of the
    position's game alone (``single``), by the chance of winning the match.
    ``PositionAnalysisError`` (a ``ValueError``) with a one-line reason for whatever cannot be read
    or analysed."""
    if depth not in DEPTHS:
        raise PositionAnalysisError("the depth is 0, 1 or 2 plies, not {depth}", depth=depth)
    try:
        position = read_position(position_text)
        rolled = Dice.parse(dice_text.strip())
    except TavliError as exc:
        raise PositionAnalysisError(exc.reason) from None
    dice = Dice(max(rolled), min(rolled))  # shown high-low, as players say it
    if position.result() is not None:
        raise PositionAnalysisError("the game is over in this position: there is nothing to play")
    variant, color = position.variant, position.turn
    score = _score(variant.name, color, length, white, black, order)
    plays = []
    for r in rank_plays(position, dice, depth, score=score):
        play = {"play": str(r.play), "depth": r.depth, **_chances(r.probabilities), "loss": round(r.loss, 4),
                "skill": r.skill, "steps": steps_json(variant, color, r.play.steps),
                "board": board_json(position.play(r.play, dice))}
        if r.mwc is not None:
            play |= {"mwc": round(r.mwc, 4), "mwc_loss": round(r.mwc_loss or 0.0, 4)}
        plays.append(play)
    before = Evaluator.for_variant(variant).probabilities(position)
    chances = _chances(before)
    if score is not None:
        chances["mwc"] = round(score.after_game().value(before.win, before.win2, before.lose2), 4)
    return {
        "position": str(position),
        "gnubg_id": position.gnubg_id() if variant.name == "portes" else None,
        "game": variant.name,
        "variant": str(variant),
        "turn": COLOR_NAMES[color],
        "dice": str(dice),
        "depth": depth,
        "legal": len(plays),
        "match": None if score is None else {"length": length, "white": white, "black": black, "order": order,
                                              "game": score.game + 1},
        "chances": chances,
        "board": board_json(position),
        "plays": plays,
        "thresholds": dataclasses.asdict(Thresholds.of(variant)),
    }


def _score(game: str, color: Color, length: int, white: int, black: int, order: str) -> MatchScore | None:
    """The side to play's ``MatchScore``, or None for points per game (``length`` 0)."""
    if length == 0:
        return None
    if not 1 <= length <= MAX_LENGTH:
        raise PositionAnalysisError("a match is played to 1 to {most} points, not {length}", most=MAX_LENGTH,
                                    length=length)
    try:
        return MatchScore.for_colors(game, color, white, black, length, parse_order(order))
    except TavliError as exc:
        raise PositionAnalysisError(exc.reason) from None
