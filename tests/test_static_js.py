"""The pages' JavaScript that touches no page, run by node in the fast loop: the words of both
languages (``static/strings.js``), the games' names and the shared helpers (``static/common.js``)
against the library's ``GAMES`` and the server's pools, and a play built on the board step by step
(``static/steps.js``, ``StepInput``) and written (``static/board.js``, ``playText``) as the library
builds and writes it, in the three games, from both sides.

The modules are copied to a folder with the two scripts the server makes from the library
(``/static/games.js``, ``/static/reasons.js``) beside them, their ``/static/`` imports made
relative, so that node loads them as the browser does."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from typing import Any

import pytest

from tavli.position import Position
from tavli.server.play.seats import POOLS
from tavli.server.play.view import board_json, step_tree_json, steps_json
from tavli.server.routes.pages import GAMES_SCRIPT, REASONS_SCRIPT
from tavli.server.routes.responses import STATIC
from tavli.variants import BLACK, GAMES, WHITE

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="no node (Debian's nodejs) to run the pages' scripts")

HARNESS = r"""
import { readFileSync } from "node:fs";
import { diceFaces, playText } from "./board.js";
import { POOLS, diceText, gameName, gamesName, isTavli, playWords, poolName, signed } from "./common.js";
import { GAMES } from "./games.js";
import { StepInput } from "./steps.js";
import { STRINGS, t } from "./strings.js";

const kept = new Map();  // the browser's localStorage: the language chosen
globalThis.localStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => kept.set(k, String(v)) };

/** The steps from the tree's root to a node that completes play `k`, depth first. */
function pathTo(tree, k, node = 0, made = []) {
  if (tree[node].play === k) return made;
  for (const [from, to, hit, child] of tree[node].next) {
    const found = pathTo(tree, k, child, [...made, [from, to, hit]]);
    if (found) return found;
  }
  return null;
}

/** Each play of a case built step by step as a player's clicks would, and written from its steps:
 * what the page then says. */
function built(c) {
  const input = new StepInput(() => c.legal);
  return c.legal.plays.map((_, k) => {
    input.clear();
    const offered = [];
    for (const [from, to] of pathTo(c.legal.tree, k)) {
      offered.push(input.sources().has(from) && input.targetsFrom(from).has(to));
      input.step(from, to);
    }
    const board = input.board(c.board, c.turn, c.variant);
    const shown = {
      play: input.play(), text: playText(c.steps[k], c.turn, c.black_numbers), offered,
      // the board the page draws: the library's after the play (shown whole only where it is not)
      board: JSON.stringify(board) === JSON.stringify(c.after[k]) || board,
      used: input.usedDice(diceFaces(c.dice)).filter(Boolean).length, steps: input.made.length,
      left: input.nextSteps().length,
    };
    input.undo();
    shown.undone = input.made.length === 0 || input.play() === null;
    return shown;
  });
}

const out = { keys: { en: Object.keys(STRINGS.en), el: Object.keys(STRINGS.el) }, games: GAMES, pools: POOLS };
out.said = {};
for (const lang of ["en", "el"]) {
  localStorage.setItem("tavli:lang", lang);
  out.said[lang] = {
    games: GAMES.map(gameName), pools: POOLS.map(poolName),
    tavli: gamesName(GAMES), two: gamesName(["fevga", "portes"]), poolTavli: gamesName(GAMES, "pool-tavli"),
    signed: [signed(0.125), signed(-1.5, 1), signed(0, 2)],
    plays: [playWords([], "white", []), playWords([[25, 22, false], [3, 0, false]], "white", [])],
    missing: t("noSuchKey"), filled: t("gameNumber", { n: 3 }),
  };
}
out.dice = [diceText([3, 6]), diceText("2-5"), diceText([4, 4])];
out.isTavli = [isTavli(GAMES), isTavli([...GAMES].reverse()), isTavli(GAMES.slice(0, 1))];
out.plays = JSON.parse(readFileSync(process.argv[2], "utf-8")).map(built);
console.log(JSON.stringify(out));
"""


def case(position: Position, dice: tuple[int, int]) -> dict[str, Any]:
    """A roll to play as the page gets it (``state.legal`` and the board; each play's steps as a
    move of the state has them), with what the library says of each play: its notation and the
    board after it."""
    legal = position.legal_plays(dice)
    board = board_json(position)
    return {
        "legal": {"plays": legal.notations(), "tree": step_tree_json(legal)},
        "board": {key: board[key] for key in ("points", "bar", "off")}, "black_numbers": board["black_numbers"],
        "turn": "white" if position.turn == WHITE else "black", "variant": position.variant.name, "dice": list(dice),
        "steps": [steps_json(position.variant, position.turn, play.steps) for play in legal],
        "after": [{key: board_json(legal.after(k))[key] for key in ("points", "bar", "off")}
                  for k in range(len(legal))],
    }


def cases() -> list[dict[str, Any]]:
    """Rolls of random games of each game, both sides to play, and bear-offs with a larger die."""
    rng = random.Random(7)
    found = []
    for game in GAMES:
        position = Position.start(game)
        for ply in range(90):
            if position.result() is not None:
                break
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            legal = position.legal_plays(dice)
            if ply % 8 == 0 and len(legal):
                found.append(case(position, dice))
            position = legal.after(rng.randrange(len(legal))) if len(legal) else position.pass_turn()
        for turn, dice in ((WHITE, (6, 5)), (BLACK, (4, 4))):
            home = {1: 2, 2: 3, 3: 1}
            found.append(case(Position.from_checkers(game, turn, home, home), dice))
    return found


@pytest.fixture(scope="module")
def said(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the harness says, node running the pages' modules."""
    folder = tmp_path_factory.mktemp("static")
    for path in STATIC.glob("*.js"):
        source = path.read_text(encoding="utf-8")
        (folder / path.name).write_text(re.sub(r'from "/static/', 'from "./', source), encoding="utf-8")
    (folder / "games.js").write_bytes(GAMES_SCRIPT)
    (folder / "reasons.js").write_bytes(REASONS_SCRIPT)
    (folder / "harness.mjs").write_text(HARNESS, encoding="utf-8")
    (folder / "cases.json").write_text(json.dumps(cases()), encoding="utf-8")
    assert NODE is not None
    run = subprocess.run([NODE, str(folder / "harness.mjs"), str(folder / "cases.json")], capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    result: dict[str, Any] = json.loads(run.stdout)
    result["cases"] = json.loads((folder / "cases.json").read_text(encoding="utf-8"))
    return result


def test_both_languages_have_the_same_keys(said: dict[str, Any]) -> None:
    assert len(said["keys"]["en"]) > 300 and set(said["keys"]["en"]) == set(said["keys"]["el"])
    assert said["said"]["en"]["missing"] == "noSuchKey"  # a key missing shows as itself, never as nothing
    assert said["said"]["en"]["filled"] == "Game 3" and said["said"]["el"]["filled"] == "Παιχνίδι 3"


def test_the_games_are_the_librarys(said: dict[str, Any]) -> None:
    assert said["games"] == list(GAMES) and said["pools"] == list(POOLS)
    assert said["isTavli"] == [True, False, False]
    en, el = said["said"]["en"], said["said"]["el"]
    assert en["games"] == ["Portes", "Plakoto", "Fevga"] and el["games"] == ["Πόρτες", "Πλακωτό", "Φεύγα"]
    assert en["pools"] == ["Tavli (the three games)", *en["games"]] and el["pools"][1:] == el["games"]
    assert (en["tavli"], en["two"], en["poolTavli"]) == ("Tavli", "Fevga, Portes", "Tavli (the three games)")
    assert (el["tavli"], el["two"]) == ("Τάβλι", "Φεύγα, Πόρτες")


def test_numbers_dice_and_plays_as_the_pages_write_them(said: dict[str, Any]) -> None:
    assert said["said"]["en"]["signed"] == ["+0.125", "−1.5", "+0.00"]
    assert said["said"]["el"]["signed"] == ["+0,125", "−1,5", "+0,00"]
    assert said["dice"] == ["6-3", "5-2", "4-4"]
    assert said["said"]["en"]["plays"] == ["no play", "bar/22 3/off"]
    assert said["said"]["el"]["plays"] == ["καμία κίνηση", "μπάρα/22 3/έξω"]


def test_a_play_built_on_the_board_is_the_librarys(said: dict[str, Any]) -> None:
    plays = 0
    assert {c["variant"] for c in said["cases"]} == set(GAMES)
    assert {c["turn"] for c in said["cases"]} == {"white", "black"}
    for c, shown in zip(said["cases"], said["plays"], strict=True):
        for k, page in enumerate(shown):
            where = (c["variant"], c["turn"], c["dice"], c["legal"]["plays"][k])
            assert all(page["offered"]), where  # every step offered on the board, one at a time
            assert page["play"] == page["text"] == c["legal"]["plays"][k], where
            assert page["board"] is True, (where, page["board"], c["after"][k])
            assert page["used"] == page["steps"] and page["left"] == 0 and page["undone"], where
            plays += 1
    assert plays > 200
