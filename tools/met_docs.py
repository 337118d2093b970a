"""Rewrite docs/match-equity.md's figures from the shipped outcome data.

    .venv/bin/python tools/met_docs.py [--docs docs/match-equity.md]

Fills the blocks between ``<!-- NAME -->`` and ``<!-- /NAME -->``: ``outcomes``
(``tavli/data/outcomes.json`` as a table), ``met7`` (``tavli met --length 7``),
``ours-row`` (its first row, beside GNU Backgammon's tables), ``example``
(the expert's values of the gammon-go position of ``tests/test_neural.py``)
and ``score-examples`` (what ``benchmarks/strength/score_examples.py`` prints). Run it
after ``tools/outcomes.py merge``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

from tavli import Dice, Position
from tavli.bots.match_equity import MatchEquity, MatchScore, Starter
from tavli.bots.neural import NeuralBot
from tavli.match import MatchSettings
from tavli.variants import GAMES

DOCS = Path(__file__).resolve().parents[1] / "docs" / "match-equity.md"
GAMMON_GO = "portes 2w.2w...........1b1w....3b3b3b5b w 0:0 10:0"
NAMES = {"win1": "win 1", "win2": "win 2", "tie": "tie", "lose1": "lose 1", "lose2": "lose 2"}


def outcomes_block() -> str:
    data = json.loads((resources.files("tavli") / "data" / "outcomes.json").read_text())
    rows = []
    order = sorted(data["variants"], key=lambda v: (GAMES.index(v) if v in GAMES else len(GAMES), v))
    for name in order:
        row = data["variants"][name]
        cells = []
        for key in NAMES:
            low, high = row["ci95"][key]
            cells.append(f"{100 * row['rates'][key]:.2f} ± {50 * (high - low):.2f}")
        r = row["rates"]
        points = r["win1"] + 2 * r["win2"] - r["lose1"] - 2 * r["lose2"]
        rows.append(f"| {name} | {row['games']:,} | " + " | ".join(cells) + f" | {points:+.3f} |")
    head = (f"Figures shipped now (level {data['level']}, seed {data['seed']}, {data['cpu_seconds']:,} CPU seconds; "
            "percent less luck, the tie counted plainly, with 95% intervals):\n\n"
            "| game | games | " + " | ".join(NAMES.values()) + " | starter's points a game |\n"
            "|---|---|" + "---|" * len(NAMES) + "---|\n")
    return head + "\n".join(rows)


def met_table(length: int) -> MatchEquity:
    return MatchEquity.for_settings(MatchSettings(length=length))


def met7_block() -> str:
    met = met_table(7)
    table = met.table(7)
    head = ("`tavli met --length 7`: a 7-point Tavli match, Portes next, its starter by roll-off; percent chance of "
            "winning the match needing the row's points against the column's.\n\n"
            "| needs | " + " | ".join(f"{b}-away" for b in range(1, 8)) + " |\n|---|" + "---|" * 7 + "\n")
    rows = [f"| {a + 1}-away | " + " | ".join(f"{100 * x:.1f}" for x in row) + " |" for a, row in enumerate(table)]
    starts = {}
    for g, name in enumerate(("Portes", "Plakoto", "Fevga")):
        starts[name] = met.equity(1, 1, g, Starter.ME)
    trailer = [met.equity(2, 1, g, s) for g in range(3) for s in (Starter.ME, Starter.OPPONENT)]
    tail = ("\n\nThe next game and its starter matter: at 1-away each, the side that starts the deciding game wins "
            "it with the figures above " + ", ".join(f"{100 * v:.1f}% in {k}" for k, v in starts.items())
            + f"; at 2-away against 1-away the trailer's chance ranges from {100 * min(trailer):.1f}% to "
            f"{100 * max(trailer):.1f}% with the game and the starter.")
    return head + "\n".join(rows) + tail


def ours_row_block() -> str:
    first = met_table(7).table(7)[0]
    return "| Tavli (ours, roll-off before Portes) | " + " | ".join(f"{100 * x:.1f}" for x in first) + " |"


def example_block() -> str:
    position = Position.from_string(GAMMON_GO)
    legal = position.legal_plays(Dice(3, 1))
    hit, safe = legal.index(position.parse_play("16/15*/12", "31")), legal.index(position.parse_play("16/12", "31"))
    bot = NeuralBot("expert")
    money = {a.index: a for a in bot.analyse(legal)}
    dmp = {a.index: a for a in bot.analyse(legal, MatchScore.at(MatchSettings(length=3, games=("portes",)), 1, 1, 0))}
    go = {a.index: a for a in bot.analyse(legal, MatchScore.at(MatchSettings(length=5), 2, 1, 0))}
    rows = []
    for k, label in ((hit, "16/15*/12 (hit)"), (safe, "16/12 (safe)")):
        m, d, g = money[k], dmp[k], go[k]
        rows.append(f"| {label} | {100 * m.probabilities.win:.1f}% / {100 * m.probabilities.win2:.1f}% / "
                    f"{m.equity:+.3f} | {100 * (d.match_equity or 0.0):.1f}% | "
                    f"{100 * g.probabilities.win2:.1f}% / {100 * (g.match_equity or 0.0):.1f}% |")
    return ("| play | for points: win / win 2 / equity | 1-away each: win = match equity | "
            "2-away/1-away (Tavli, 5): win 2 / match equity |\n|---|---|---|---|\n" + "\n".join(rows)
            + "\n\n(`NeuralBot(\"expert\").analyse(legal, score)`, 1-ply; at a score both sides' plays in the search "
            "are chosen for the match, so the probabilities differ a little from the money search's.)")


def score_examples_block() -> str:
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "strength" / "score_examples.py"
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def fill(text: str, name: str, body: str) -> str:
    pattern = re.compile(rf"(<!-- {re.escape(name)} -->\n).*?(\n<!-- /{re.escape(name)} -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"no <!-- {name} --> block in the docs")
    return pattern.sub(lambda m: m.group(1) + body + m.group(2), text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=Path, default=DOCS)
    args = parser.parse_args()
    text = args.docs.read_text()
    for name, make in (("outcomes", outcomes_block), ("met7", met7_block), ("ours-row", ours_row_block),
                       ("example", example_block), ("score-examples", score_examples_block)):
        text = fill(text, name, make())
    args.docs.write_text(text)
    print(f"rewrote {args.docs}")


if __name__ == "__main__":
    main()
