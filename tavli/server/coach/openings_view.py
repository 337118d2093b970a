"""The opening tables as the web app serves them (``GET /api/openings/...``, docs/web.md).

The figures are ``tavli.study.openings.shipped()``'s; this module adds what a page needs to draw
them: the board after each play and the steps of the play, in White's numbering (the
starter is White, as in the tables).

>>> overview = openings_json("plakoto")
>>> len(overview["rolls"]), overview["rolls"][-1]["roll"], overview["rolls"][-1]["best"]["play"]
(21, '6-6', '24/12(2)')
>>> detail = roll_json("plakoto", "56")
>>> detail["roll"], detail["plays"][0]["play"], detail["plays"][0]["steps"]
('6-5', '24/13', [[24, 18, False], [18, 13, False]])
>>> quiz = practice_json("portes", "3-1")
>>> quiz["legal"]["plays"][quiz["best"]["index"]], len(quiz["losses"]) == len(quiz["legal"]["plays"])
('8/5 6/5', True)
"""

from __future__ import annotations

import functools
from typing import Any

from tavli.position import Position
from tavli.server.play.view import board_json, step_tree_json, steps_json
from tavli.study.openings import OpeningsError, opening_roll, shipped
from tavli.variants import GAMES, WHITE

SHOWN_PLAYS = 8
"""Plays listed for a roll: every rolled-out one, then the next by 2-ply up to this many."""


def _game(game: str) -> str:
    if game not in GAMES:
        raise OpeningsError("no opening tables for {game!r}: choose from {games}", game=game, games=", ".join(GAMES))
    return game


@functools.cache
def openings_json(game: str) -> dict[str, Any]:
    """One game's tables in brief: how they were made, the value of starting (``mean``), the
    start's board, and per roll its best play (``PlaySummary.to_json``), how many throws of the
    36 give it and how many legal plays it has."""
    tables = shipped()
    rolls = []
    for dice in tables.rolls(_game(game)):
        rolls.append({"roll": str(dice), "throws": 1 if dice.first == dice.second else 2,
                      "legal": len(Position.start(game).legal_plays(dice)),
                      "best": tables.summary(game, dice)[0].to_json()})
    return {"game": game, "level": tables.settings.level, "trials": tables.settings.trials, "mean": tables.mean(game),
            "start": board_json(Position.start(game)), "rolls": rolls}


@functools.cache
def _roll_json(game: str, key: str) -> dict[str, Any]:
    dice = opening_roll(key)
    start = Position.start(game)
    plays: list[dict[str, Any]] = []
    for summary in shipped().summary(game, dice):
        if not summary.rolled_out and len(plays) >= SHOWN_PLAYS:
            break
        play = start.parse_play(summary.play, dice)
        plays.append(summary.to_json() | {"steps": steps_json(start.variant, WHITE, play.steps),
                                          "board": board_json(start.play(play, dice))})
    return {"game": game, "roll": str(dice), "legal": len(start.legal_plays(dice)), "plays": plays}


def roll_json(game: str, roll: str) -> dict[str, Any]:
    """The plays of one opening ``roll`` (``6-5``, ``65``, ``5-6``), best first: the rolled-out
    ones with their figures (``PlaySummary.to_json``), then the next by 2-ply, each with its
    steps and the board after it. ``OpeningsError`` for an unknown game or roll."""
    dice = opening_roll(roll)
    if dice not in shipped().rolls(_game(game)):
        raise OpeningsError("no table for {game} {dice} yet", game=game, dice=dice)
    return _roll_json(game, str(dice))


@functools.cache
def _practice_json(game: str, key: str) -> dict[str, Any]:
    dice = opening_roll(key)
    start = Position.start(game)
    legal = start.legal_plays(dice)
    plays = [str(p) for p in legal]
    judged = shipped().judged(game, dice)
    best = shipped().summary(game, dice)[0]
    k = plays.index(best.play)
    return {"game": game, "roll": str(dice), "start": board_json(start),
            "legal": {"plays": plays, "tree": step_tree_json(legal)},
            "losses": [round(judged[p].loss, 4) for p in plays],
            "skills": [judged[p].skill for p in plays],
            "best": best.to_json() | {"index": k, "steps": steps_json(start.variant, WHITE, legal[k].steps),
                                      "board": board_json(start.play(legal[k], dice))}}


def practice_json(game: str, roll: str) -> dict[str, Any]:
    """An opening ``roll`` to be played from the start position: its legal plays with the step
    tree that builds them on the board (as the match page's ``legal``), what each gives up
    against the best and its skill by the game's thresholds (doubtful, error, blunder:
    ``OpeningTables.judged``), and the best play with its figures, steps and board."""
    dice = opening_roll(roll)
    if dice not in shipped().rolls(_game(game)):
        raise OpeningsError("no table for {game} {dice} yet", game=game, dice=dice)
    return _practice_json(game, str(dice))
