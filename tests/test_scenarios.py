"""Rules scenarios kept as data: ``tests/scenarios/*.toml`` (format in its README.md).

Every expected answer in those files was worked out by hand from RULES.md;
this module only loads them and compares them with the library.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tavli import BLACK, WHITE, DiceRoller, GameResult, Position, TavliError
from tavli.game import Game
from tavli.match import Match, MatchSettings

SCENARIOS = Path(__file__).parent / "scenarios"

SCENARIO_KEYS = {"name", "rule", "note", "position", "dice", "plays", "count", "results", "play",
                 "error", "after", "outcome", "outcome_before", "reason"}
MATCH_KEYS = {"name", "rule", "note", "length", "games", "options", "dice", "steps", "error"}


def _load(kind: str) -> list[Any]:
    params = []
    for path in sorted(SCENARIOS.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for item in data.get(kind, []):
            params.append(pytest.param(item, id=item["name"]))
    return params


SCENARIO_PARAMS = _load("scenario")
MATCH_PARAMS = _load("match")


def test_scenario_names_are_unique() -> None:
    names = Counter(p.id for p in SCENARIO_PARAMS + MATCH_PARAMS)
    assert [n for n, k in names.items() if k > 1] == []
    assert len(names) >= 80


# -- helpers ---------------------------------------------------------------

def normalize(play: str) -> str:
    """A play's notation with repeats expanded and moves sorted: '13/7(2) 8/2' -> '13/7 13/7 8/2'."""
    moves: list[str] = []
    for token in play.split():
        m = re.fullmatch(r"(.+)\((\d)\)", token)
        moves.extend([m.group(1)] * int(m.group(2)) if m else [token])
    return " ".join(sorted(moves))


def parse_outcome(text: str) -> tuple[object, int] | None:
    """'white 2', 'black 1', 'tie' or 'none' (the game goes on)."""
    if text == "none":
        return None
    if text == "tie":
        return (None, 0)
    color, points = text.split()
    return ({"white": WHITE, "black": BLACK}[color], int(points))


def check_outcome(result: GameResult | None, expected: str, reason: str | None = None) -> None:
    want = parse_outcome(expected)
    got = None if result is None else (result.winner, result.points)
    assert got == want, f"expected {expected}, got {result}"
    if reason is not None:
        assert result is not None and reason in result.reason


# -- position scenarios ------------------------------------------------------

@pytest.mark.parametrize("sc", SCENARIO_PARAMS)
def test_scenario(sc: dict[str, Any]) -> None:
    assert set(sc) <= SCENARIO_KEYS, f"unknown keys {set(sc) - SCENARIO_KEYS}"
    pos = Position.from_string(sc["position"])
    assert str(pos) == sc["position"], "the position string should be written back unchanged"
    dice = sc.get("dice")
    checked = False

    if "outcome_before" in sc or ("outcome" in sc and "play" not in sc):
        check_outcome(pos.result(), sc.get("outcome_before", sc.get("outcome")), sc.get("reason"))
        checked = True

    if any(k in sc for k in ("plays", "count", "results")):
        legal = pos.legal_plays(dice)
        got = sorted(normalize(str(p)) for p in legal)
        if "plays" in sc:
            want = sorted(normalize(p) for p in sc["plays"])
            assert got == want, f"legal plays {[str(p) for p in legal]}"
        if "count" in sc:
            assert len(legal) == sc["count"], f"legal plays {[str(p) for p in legal]}"
        if "results" in sc:
            after = sorted(str(legal.after(i)) for i in range(len(legal)))
            assert after == sorted(sc["results"])
        checked = True

    if "play" in sc:
        if "error" in sc:
            with pytest.raises(TavliError) as info:
                pos.parse_play(sc["play"], dice)
            assert sc["error"] in str(info.value)
        else:
            after = pos.play(pos.parse_play(sc["play"], dice), dice)
            if "after" in sc:
                assert str(after) == sc["after"]
            if "outcome" in sc:
                check_outcome(after.result(), sc["outcome"], sc.get("reason"))
        checked = True
    assert checked, "the scenario checks nothing"


# -- match scenarios -----------------------------------------------------------

class ScriptedRoller(DiceRoller):
    """Gives the one-die rolls of a scenario in order."""

    def __init__(self, dice: list[int]) -> None:
        super().__init__(seed=0)
        self.script = list(dice)

    def die(self) -> int:
        assert self.script, "the match asked for more roll-off dice than the scenario gives"
        return self.script.pop(0)


def _check_match(m: Match, expect: dict[str, Any]) -> None:
    letters = {WHITE: "w", BLACK: "b"}
    actual: dict[str, Any] = {
        "game": str(m.game.variant),
        "turn": letters[m.turn],
        "score": f"{m.score[WHITE]}:{m.score[BLACK]}",
        "opening_rolls": [list(r) for r in m.records[-1].opening_rolls],
        "rolled": m.dice is not None,
        "over": m.is_over,
        "winner": None if m.winner is None else letters[m.winner],
        "games": len(m.records),
    }
    unknown = set(expect) - set(actual)
    assert not unknown, f"unknown expectations {unknown}"
    assert {k: actual[k] for k in expect} == expect


def _act(m: Match, action: str, arg: str) -> None:
    if action == "roll":
        m.roll(arg)
    else:
        m.play(arg)


@pytest.mark.parametrize("mc", MATCH_PARAMS)
def test_match(mc: dict[str, Any]) -> None:
    assert set(mc) <= MATCH_KEYS, f"unknown keys {set(mc) - MATCH_KEYS}"
    kwargs = dict(mc.get("options", {}))
    if "games" in mc:
        kwargs["games"] = tuple(mc["games"])
    roller = ScriptedRoller(mc.get("dice", []))
    if "error" in mc:
        with pytest.raises(TavliError) as info:
            Match(MatchSettings(length=mc["length"], **kwargs), roller)
        assert mc["error"] in str(info.value)
        return
    m = Match(MatchSettings(length=mc["length"], **kwargs), roller)
    for step in mc["steps"]:
        if "expect" in step:
            _check_match(m, step["expect"])
        if "position" in step:
            # start the current game from a set position (same game, same side to move)
            pos = Position.from_string(step["position"])
            assert pos.turn == m.game.turn and not m.game.history
            m.records[-1].game = Game(m.game.variant, position=pos)
        actions = [k for k in ("roll", "play") if k in step]
        for k, action in enumerate(actions):
            if "error" in step and k == len(actions) - 1:
                with pytest.raises(TavliError) as info:
                    _act(m, action, step[action])
                assert step["error"] in str(info.value)
            else:
                _act(m, action, step[action])
    assert not roller.script, "roll-off dice left over"
