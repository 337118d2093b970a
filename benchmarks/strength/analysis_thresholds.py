"""The data behind the analysis thresholds: how big the losses are in each game.

    .venv/bin/python benchmarks/strength/analysis_thresholds.py [--games 120] [--depth 1] [--seed 1]
        [--workers 2] [--json FILE]

For each of Portes, Plakoto and Fevga it plays ``--games`` games between the
neural levels beginner, casual, intermediate, advanced and expert (each game
a different pair, in rotation), analyses every decision at ``--depth`` plies
with ``tavli.study.analysis``, and gathers the losses of the unforced decisions.

Portes keeps GNU Backgammon's thresholds (doubtful 0.04, error 0.08, blunder
0.16 points): Portes is backgammon without the cube. For Plakoto and Fevga
it proposes the thresholds that flag the same share of these decisions as
Portes' thresholds flag in Portes (the same quantiles of the loss
distribution), rounded to 0.005: a mistake is then as rare in each game.

Prints, per game: the decisions, the share of losses over each Portes
threshold, the proposed thresholds, the thresholds in use
(``tavli.study.analysis.THRESHOLDS``) and, per level, the error rate and the shares
flagged by the thresholds in use.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence

import numpy as np
from rich.console import Console
from rich.table import Table

from tavli.bots.neural import NeuralBot
from tavli.dice import Dice
from tavli.game import Game
from tavli.study.analysis import THRESHOLDS, GameInput, analyse_games
from tavli.variants import BLACK, GAMES, WHITE

LEVELS = ("beginner", "casual", "intermediate", "advanced", "expert")
PAIRS = [(a, b) for a in LEVELS for b in LEVELS if a != b]


def play(variant: str, white: str, black: str, seed: int) -> Game:
    rng = random.Random(seed)
    seats = {WHITE: NeuralBot(white, seed=seed), BLACK: NeuralBot(black, seed=seed + 1)}
    game = Game(variant, WHITE if seed % 2 == 0 else BLACK)
    while not game.is_over:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        legal = game.legal_plays(dice)
        game.play(dice, legal[seats[game.turn].choose(legal)] if len(legal) else None)
    return game


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Loss distributions of bot games and the thresholds they give.")
    parser.add_argument("--games", type=int, default=120, help="games per game type (default 120)")
    parser.add_argument("--depth", type=int, default=1, help="analysis depth (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    err = Console(stderr=True)
    losses: dict[str, dict[str, list[float]]] = {}
    for variant in GAMES:
        seats = [PAIRS[k % len(PAIRS)] for k in range(args.games)]
        games = [play(variant, w, b, args.seed * 100_003 + k) for k, (w, b) in enumerate(seats)]
        found = analyse_games([GameInput.of(g) for g in games], args.depth, workers=args.workers)
        by_level: dict[str, list[float]] = {level: [] for level in LEVELS}
        for g, (w, b) in zip(found.games, seats, strict=True):
            for d in g.decisions:
                if not d.forced:
                    by_level[w if d.color == WHITE else b].append(d.loss)
        losses[variant] = by_level
        err.print(f"{variant}: {len(games)} games, {sum(map(len, by_level.values()))} unforced decisions")

    portes = np.concatenate([np.array(v) for v in losses["portes"].values()])
    base = THRESHOLDS["portes"]
    marks = (base.doubtful, base.error, base.blunder)
    shares = [float(np.mean(portes >= t)) for t in marks]
    out = Console(width=max(Console().width, 130))
    summary = Table(title=f"Losses of unforced decisions ({args.depth}-ply), bot levels beginner to expert")
    for name in ("game", "decisions", "mean loss", "share >= 0.04/0.08/0.16", "proposed thresholds",
                 "thresholds in use"):
        summary.add_column(name, justify="right")
    report: dict[str, object] = {"settings": vars(args), "portes_shares": shares, "games": {}}
    for variant in GAMES:
        all_losses = np.concatenate([np.array(v) for v in losses[variant].values()])
        proposed = [round(float(np.quantile(all_losses, 1 - s)) / 0.005) * 0.005 for s in shares]
        own = [float(np.mean(all_losses >= t)) for t in marks]
        used = THRESHOLDS[variant]
        summary.add_row(variant, str(len(all_losses)), f"{all_losses.mean():.4f}",
                        " / ".join(f"{100 * s:.1f}%" for s in own), " / ".join(f"{t:.3f}" for t in proposed),
                        f"{used.doubtful:.3f} / {used.error:.3f} / {used.blunder:.3f}")
        levels = {}
        for level, values in losses[variant].items():
            v = np.array(values)
            levels[level] = {"decisions": len(v), "error_rate": 1000 * float(v.mean()) if len(v) else 0.0,
                             "doubtful": float(np.mean((v >= used.doubtful) & (v < used.error))),
                             "errors": float(np.mean((v >= used.error) & (v < used.blunder))),
                             "blunders": float(np.mean(v >= used.blunder))}
        report["games"][variant] = {"decisions": len(all_losses), "mean_loss": float(all_losses.mean()),  # type: ignore[index]
                                    "shares_at_portes_thresholds": own, "proposed": proposed,
                                    "in_use": vars(used), "levels": levels,
                                    "quantiles": {q: float(np.quantile(all_losses, q))
                                                  for q in (0.5, 0.75, 0.9, 0.95, 0.98, 0.99)}}
    out.print(summary)
    per_level = Table(title="Per level, with the thresholds in use: error rate (millipoints per unforced "
                            "decision), doubtful / errors / blunders per 100 decisions")
    per_level.add_column("level")
    for variant in GAMES:
        per_level.add_column(variant, justify="right")
    for level in LEVELS:
        cells = []
        for variant in GAMES:
            x = report["games"][variant]["levels"][level]  # type: ignore[index]
            cells.append(f"{x['error_rate']:.1f}  ({100 * x['doubtful']:.1f} / {100 * x['errors']:.1f} / "
                         f"{100 * x['blunders']:.1f})")
        per_level.add_row(level, *cells)
    out.print(per_level)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
