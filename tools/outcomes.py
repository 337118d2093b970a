"""Each game's outcome distribution for the side that starts it, by self-play.

    .venv/bin/python tools/outcomes.py run [--checkpoint FILE] [--variants portes,plakoto,fevga]
        [--level expert] [--games N] [--max-seconds S] [--seed X] [--part I/P]
    .venv/bin/python tools/outcomes.py merge CHECKPOINT.. [--into tavli/data/outcomes.json]
    .venv/bin/python tools/outcomes.py show CHECKPOINT..

``run`` plays games of each variant in turn, the level against itself
(``tavli.bots.neural.NeuralBot``), and counts the starter's outcomes: win 1,
win 2, tie, lose 1, lose 2 (``tavli.bots.match_equity.Outcomes``). It also measures each
roll's luck for each outcome but the tie: the chance of that outcome for
the starter after the roller's best play of the roll less its mean over
the 36 throws, by the network at 0-ply (``tavli.bots.neural.roll_luck``). Each
roll's luck averages zero over the throws whatever the network's
judgement, so a game's outcome less the sum of its rolls' luck has the
same expectation as the outcome, with a much smaller spread: the rates
shipped are these luck-adjusted means (the four luck terms add up to zero,
so the rates still add up to 1; the tie, which the networks do not
predict, is counted plainly), with 95% intervals from their spread. Game ``k`` of a
variant has its own dice (seeded by the seed, the variant and ``k``), so a
run is repeatable and can be continued: the counts are written to
``--checkpoint`` (``benchmarks/results/outcomes-checkpoint.json`` by default) after
every game, and running the same command again goes on from there until
every variant has ``--games`` games (or ``--max-seconds`` pass). ``--part
I/P`` plays only the games with ``k % P == I``, with its own checkpoint, so
that P processes (or machines) can share the work; ``merge`` adds
checkpoints of disjoint parts together and writes the package's data file
(``tavli/data/outcomes.json``) with each rate's 95% interval (Wilson) and
how the figures were made.

The data file ships with the package and feeds ``tavli.bots.match_equity``. The goal is
each rate within +-0.5 percentage points: about 40,000 games per variant by
plain counting, a few thousand with the luck taken off.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tavli.bots.duel import play_game
from tavli.bots.neural import Evaluator, NeuralBot, Probabilities, roll_luck
from tavli.dice import Dice
from tavli.position import Position
from tavli.variants import GAMES, WHITE, make_variant

OUTCOMES = ("win1", "win2", "tie", "lose1", "lose2")
LUCKY = ("win1", "win2", "lose1", "lose2")
"""The outcomes whose luck is measured: the networks predict all but the tie."""
SUMS = ("y", "x", "yy", "xx", "xy")
"""Per outcome, sums over games of the outcome y (0 or 1), its luck x, and their products."""
DEFAULT_CHECKPOINT = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "outcomes-checkpoint.json"
DATA_FILE = Path(__file__).resolve().parents[1] / "tavli" / "data" / "outcomes.json"


def wilson95(k: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a rate of ``k`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def outcome_key(points: int) -> str:
    """The starter's outcome name for his points (negative when he lost, 0 a tie)."""
    return {1: "win1", 2: "win2", 0: "tie", -1: "lose1", -2: "lose2"}[points]


def _mover_chance(outcome: str, p: Probabilities) -> float:
    """The chance of ``outcome`` for the side whose chances ``p`` are."""
    return {"win1": p.win - p.win2, "win2": p.win2, "lose1": 1.0 - p.win - p.lose2, "lose2": p.lose2}[outcome]


OTHER_SIDE = {"win1": "lose1", "win2": "lose2", "lose1": "win1", "lose2": "win2"}


class OutcomeLuck:
    """A luck meter for ``tavli.bots.duel.play_game`` that also keeps, for the game's
    starter (White), each roll's luck for each outcome of ``LUCKY``."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.luck = dict.fromkeys(LUCKY, 0.0)

    def __call__(self, position: Position, dice: Dice) -> float:
        values = self.evaluator.roll_probabilities(position)
        for o in LUCKY:
            mine = o if position.turn == WHITE else OTHER_SIDE[o]
            self.luck[o] += roll_luck(values, dice, functools.partial(_mover_chance, mine))
        return roll_luck(values, dice, lambda p: p.equity)


def adjusted(sums: dict[str, float], n: int) -> tuple[float, float, float]:
    """The luck-adjusted rate of an outcome from its ``SUMS`` over ``n`` games, its 95%
    half-width, and the plain rate's half-width for comparison."""
    if n < 2:
        return (sums["y"] / n if n else math.nan, math.inf, math.inf)
    mean = (sums["y"] - sums["x"]) / n
    var = (sums["yy"] - 2 * sums["xy"] + sums["xx"] - n * mean * mean) / (n - 1)
    plain = sums["y"] / n
    plain_var = (sums["yy"] - n * plain * plain) / (n - 1)
    return mean, 1.96 * math.sqrt(max(var, 0.0) / n), 1.96 * math.sqrt(max(plain_var, 0.0) / n)


def load(path: Path) -> dict[str, Any]:
    with open(path) as f:
        data: dict[str, Any] = json.load(f)
    return data


def save(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def run(args: argparse.Namespace) -> None:
    part, parts = (int(x) for x in args.part.split("/"))
    variants = [str(make_variant(v.strip())) for v in args.variants.split(";")]
    path = Path(args.checkpoint)
    if path.exists():
        data = load(path)
        for key in ("level", "seed", "part"):
            if data[key] != {"level": args.level, "seed": args.seed, "part": args.part}[key]:
                sys.exit(f"{path} was made with {key} {data[key]!r}: use the same or another --checkpoint")
    else:
        data = {"level": args.level, "seed": args.seed, "part": args.part, "seconds": 0.0,
                "command": " ".join(sys.argv), "variants": {}}
    command = " ".join(sys.argv)
    commands = data.setdefault("commands", [data["command"]])  # every command that added games
    if command not in commands:
        commands.append(command)
    for v in variants:
        data["variants"].setdefault(v, {"next": 0, "turns": 0, "counts": dict.fromkeys(OUTCOMES, 0),
                                        "luck": {o: dict.fromkeys(SUMS, 0.0) for o in LUCKY}})
    bot = NeuralBot(args.level)
    start = time.monotonic()
    while time.monotonic() - start < args.max_seconds:
        todo = [v for v in variants if sum(data["variants"][v]["counts"].values()) < args.games]
        if not todo:
            break
        for v in todo:
            entry = data["variants"][v]
            k = entry["next"] * parts + part
            rng = random.Random(f"{args.seed}:{v}:{k}")
            t0 = time.process_time()  # CPU time: the run may share its core, niced
            variant = make_variant(v)
            meter = OutcomeLuck(Evaluator.for_variant(variant))
            score = play_game(variant, bot, bot, rng, luck=meter)
            outcome = outcome_key(score.points)
            entry["counts"][outcome] += 1
            for o in LUCKY:
                y, x, sums = float(o == outcome), meter.luck[o], entry["luck"][o]
                for key, value in zip(SUMS, (y, x, y * y, x * x, x * y), strict=True):
                    sums[key] += value
            entry["turns"] += score.turns
            entry["next"] += 1
            data["seconds"] += time.process_time() - t0
            save(path, data)
    show([path])


def merged(paths: list[Path]) -> dict[str, Any]:
    """The checkpoints' counts added together (they must be disjoint parts of one run)."""
    out: dict[str, Any] = {"variants": {}, "seconds": 0.0, "parts": []}
    for path in paths:
        data = load(path)
        for key in ("level", "seed"):
            if out.setdefault(key, data[key]) != data[key]:
                sys.exit(f"{path}: {key} {data[key]!r} differs from the other checkpoints'")
        if data["part"] in out["parts"]:
            sys.exit(f"{path}: part {data['part']} given twice")
        out["parts"].append(data["part"])
        out["seconds"] += data["seconds"]
        out.setdefault("commands", []).extend(data.get("commands", [data["command"]]))
        for v, entry in data["variants"].items():
            into = out["variants"].setdefault(v, {"turns": 0, "counts": dict.fromkeys(OUTCOMES, 0),
                                                  "luck": {o: dict.fromkeys(SUMS, 0.0) for o in LUCKY}})
            into["turns"] += entry["turns"]
            for o in OUTCOMES:
                into["counts"][o] += entry["counts"][o]
            for o in LUCKY:
                for key in SUMS:
                    into["luck"][o][key] += entry["luck"][o][key]
    return out


def table(data: dict[str, Any]) -> dict[str, Any]:
    """Per variant: games, counts, the rates (luck-adjusted but for the tie) and their 95%
    intervals, and the plain rates' half-widths."""
    rows = {}
    for v, entry in data["variants"].items():
        n = sum(entry["counts"].values())
        rates, ci95, plain = {}, {}, {}
        for o in OUTCOMES:
            if o == "tie":
                rate = entry["counts"][o] / n if n else math.nan
                low, high = wilson95(entry["counts"][o], n)
                plain[o] = (high - low) / 2
            else:
                rate, half, plain[o] = adjusted(entry["luck"][o], n)
                low, high = rate - half, rate + half
            rates[o], ci95[o] = rate, [low, high]
        rows[v] = {
            "games": n,
            "mean_turns": round(entry["turns"] / n, 1) if n else None,
            "counts": entry["counts"],
            "rates": {o: round(rates[o], 9) for o in OUTCOMES},
            "ci95": {o: [round(x, 5) for x in ci95[o]] for o in OUTCOMES},
            "plain_half_width": {o: round(plain[o], 5) for o in OUTCOMES},
        }
    return rows


def show(paths: list[Path]) -> None:
    rows = table(merged(paths))
    for v, row in rows.items():
        rates = "  ".join(
            f"{o} {100 * row['rates'][o]:.2f}% ± {50 * (row['ci95'][o][1] - row['ci95'][o][0]):.2f}"
            f" (plain ± {100 * row['plain_half_width'][o]:.2f})" for o in OUTCOMES)
        print(f"{v:<10} {row['games']:>6} games  {rates}")


def merge(args: argparse.Namespace) -> None:
    data = merged([Path(p) for p in args.checkpoints])
    out = {
        "about": ("Each game's outcomes for the side that starts it (win 1, win 2, tie, lose 1, lose 2), "
                  "by self-play of the level against itself: counts, and rates less each roll's luck "
                  "(by the network at 0-ply; the tie counted plainly) with their 95% intervals. "
                  "Made by tools/outcomes.py; the goal is +-0.5 percentage points per rate."),
        "level": data["level"],
        "seed": data["seed"],
        "parts": sorted(data["parts"]),
        "commands": data["commands"],
        "cpu_seconds": round(data["seconds"]),
        "made": time.strftime("%Y-%m-%d", time.gmtime()),
        "variants": table(data),
    }
    path = Path(args.into)
    path.parent.mkdir(parents=True, exist_ok=True)
    save(path, out)
    print(f"wrote {path}")
    show([Path(p) for p in args.checkpoints])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--checkpoint", default=str(DEFAULT_CHECKPOINT))
    r.add_argument("--variants", default=";".join(GAMES),
                   help="variants separated by ';' (house rules as in 'plakoto,mother_pin=single')")
    r.add_argument("--level", default="expert")
    r.add_argument("--games", type=int, default=40_000, help="games per variant")
    r.add_argument("--max-seconds", type=float, default=math.inf)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--part", default="0/1")
    m = sub.add_parser("merge")
    m.add_argument("checkpoints", nargs="+")
    m.add_argument("--into", default=str(DATA_FILE))
    s = sub.add_parser("show")
    s.add_argument("checkpoints", nargs="+")
    args = parser.parse_args(argv)
    commands: dict[str, Callable[[argparse.Namespace], None]] = {
        "run": run, "merge": merge, "show": lambda a: show([Path(p) for p in a.checkpoints])}
    commands[args.command](args)


if __name__ == "__main__":
    main()
