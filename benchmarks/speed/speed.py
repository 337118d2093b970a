"""Speed of the neural bots: time per decision at each level, and self-play training games per second.

    .venv/bin/python benchmarks/speed/speed.py [--variants portes,plakoto,fevga] [--levels L1,L2,..]
        [--positions N] [--max-seconds S] [--train-games N] [--threads T] [--hidden H]
        [--whole-search] [--three-ply] [--cpu] [--skip-decisions] [--skip-training] [--seed X] [--json FILE]

Decisions: ``--positions`` positions (200 by default) are sampled from
self-play games of the ``advanced`` level (fixed seed), each with the roll
that was played there and at least two legal plays. For each level
``NeuralBot(level).choose(legal)`` is timed on every one of them (after a
warm-up, the legal plays generated beforehand), and for Portes
``tavli.bots.gnubg_player.GnubgPlayer(0)`` too, in the same run so that the ratio
shares the machine's load. With ``--whole-search`` the expert and the
champion are timed a second time searching every ply to their depth, as
hints do (a bot's choice stops where one play is left), on the same
positions; with ``--three-ply`` a bot's 3-ply search (the champion's, then
the best 2 within 0.04 of its 2-ply values to 3 plies) as well.
With ``--cpu`` each decision is timed by its thread's CPU time instead of the
wall clock: steadier where the machine is shared with other work.
``--max-seconds`` caps the time spent on one level of one game; the
positions actually timed are reported. Prints, per game and player, the
median, mean, 90th percentile and largest time in milliseconds, and for
Portes the ratio of medians ours / GNU Backgammon.

Training: ``tavli.bots.training.Trainer`` runs on a fresh network (in a temporary
folder, no strength measurements) for ``--train-games`` games per game
(3000 by default) with ``--threads`` threads (all cores by default), after
a short warm-up run that loads the compiled kernels. Prints games and turns
per second per game.

Then the goals, each PASS or FAIL: the default level's median decision at
most 50 ms, the strongest level's median at most 2 s, and at least 50
self-play training games per second. ``--json FILE`` writes every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: ``benchmarks.goals``
from benchmarks.goals import Goal, goal_table, verdict
from tavli import Dice, LegalPlays, Position
from tavli.bots import Player
from tavli.bots.levels import DEFAULT_LEVEL, LEVELS
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.bots.training import CHUNK, TrainConfig, Trainer, new_state
from tavli.variants import GAMES

SAMPLE_LEVEL = "advanced"
KEEP = 0.25  # chance of keeping a decision of the self-play games, to spread the sample
WARM_UP = 3
DEFAULT_GOAL_MS = 50.0
STRONGEST_GOAL_MS = 2000.0
TRAINING_GOAL = 50.0


@dataclass
class DecisionTimes:
    game: str
    player: str
    positions: int
    median_ms: float
    mean_ms: float
    p90_ms: float
    max_ms: float
    ratio_to_gnubg: float | None = None
    """Median over GNU Backgammon 0-ply's median, on the same positions (Portes)."""


@dataclass
class TrainingSpeed:
    game: str
    threads: int
    hidden: int
    games: int
    turns: int
    seconds: float
    games_per_second: float
    turns_per_second: float


# -- decisions ---------------------------------------------------------------------------

def sample(game: str, n: int, seed: int) -> list[LegalPlays]:
    """Legal plays of ``n`` decisions of self-play games, each with two plays or more."""
    rng = random.Random(seed)
    bot = NeuralBot(SAMPLE_LEVEL, seed=seed)
    out: list[LegalPlays] = []
    while len(out) < n:
        pos = Position.start(game)
        for _ in range(2000):
            if pos.result() is not None or len(out) >= n:
                break
            legal = pos.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
            if len(legal) == 0:
                pos = pos.pass_turn()
                continue
            if len(legal) >= 2 and rng.random() < KEEP:
                out.append(legal)
            pos = legal.after(bot.choose(legal))
    return out


def time_player(game: str, name: str, player: Player, sample: list[LegalPlays],
                max_seconds: float | None, clock: Callable[[], float] = time.perf_counter) -> DecisionTimes:
    """Each decision of ``sample`` timed by ``clock`` (the wall clock, or the thread's CPU time)."""
    for legal in sample[:WARM_UP]:
        player.choose(legal)
    times: list[float] = []
    start = time.perf_counter()
    for legal in sample:
        t0 = clock()
        player.choose(legal)
        times.append(1000 * (clock() - t0))
        if max_seconds is not None and time.perf_counter() - start > max_seconds:
            break
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return DecisionTimes(game, name, len(times), statistics.median(times), statistics.fmean(times), p90,
                         ordered[-1])


class Search:
    """The bots' search (``Evaluator.analyse`` with ``FILTERS``) to ``depth`` plies as a player;
    ``decide`` as a bot searches, stopping where one play is left, or else every ply down to
    ``depth`` as a hint does."""

    def __init__(self, depth: int, decide: bool) -> None:
        self.depth = depth
        self.decide = decide
        self.name = f"{depth}-ply search" + ("" if decide else ", whole")

    def choose(self, legal: LegalPlays) -> int:
        ev = Evaluator.for_variant(legal.position.variant)
        return ev.analyse(legal, self.depth, decide=self.decide)[0].index


def decisions(args: argparse.Namespace, err: Console) -> list[DecisionTimes]:
    out: list[DecisionTimes] = []
    clock = time.thread_time if args.cpu else time.perf_counter
    for game in args.variants:
        Evaluator.for_variant(game)  # the network loads outside the timings
        positions = sample(game, args.positions, args.seed)
        err.print(f"{game}: {len(positions)} positions sampled")
        rows: list[DecisionTimes] = []
        for level in args.levels:
            bot = NeuralBot(level, seed=args.seed)
            figures = time_player(game, level, bot, positions, args.max_seconds, clock)
            rows.append(figures)
            err.print(f"  {level}: median {figures.median_ms:.2f} ms over {figures.positions} positions")
            if args.whole_search and LEVELS[level].depth > 0:
                searcher = Search(LEVELS[level].depth, decide=False)
                whole = time_player(game, searcher.name, searcher, positions, args.max_seconds, clock)
                rows.append(whole)
                err.print(f"  {whole.player}: median {whole.median_ms:.2f} ms "
                          f"({whole.median_ms / figures.median_ms:.2f}x the {level}'s)")
        if args.three_ply:
            figures = time_player(game, "3-ply search", Search(3, decide=True), positions, args.max_seconds,
                                  clock)
            rows.append(figures)
            err.print(f"  {figures.player}: median {figures.median_ms:.2f} ms over {figures.positions} positions")
        if game == "portes":
            try:
                from tavli.bots.gnubg_player import GnubgPlayer

                gnubg_player = GnubgPlayer(0)
            except RuntimeError as e:
                err.print(f"[yellow]{e}: no comparison with GNU Backgammon[/yellow]")
            else:
                figures = time_player(game, gnubg_player.name, gnubg_player, positions, args.max_seconds, clock)
                for r in rows:
                    r.ratio_to_gnubg = r.median_ms / figures.median_ms
                rows.append(figures)
                err.print(f"  {figures.player}: median {figures.median_ms:.3f} ms")
        out += rows
    return out


# -- training ------------------------------------------------------------------------------

def shipped_hidden(game: str) -> int:
    return int(Evaluator.for_variant(game).network[1].shape[0])


def train(game: str, games: int, threads: int, hidden: int, seed: int, folder: Path) -> TrainingSpeed:
    config = TrainConfig(variant=game, games=games, hidden=hidden, threads=threads, eval_every=0,
                         checkpoint_every=10**12, seed=seed)
    trainer = Trainer(new_state(config), folder / f"{game}.npz")
    start = time.perf_counter()
    state = trainer.run(progress=False)
    seconds = time.perf_counter() - start
    return TrainingSpeed(game, threads, hidden, state.games, state.turns, seconds, state.games / seconds,
                         state.turns / seconds)


def training(args: argparse.Namespace, err: Console) -> list[TrainingSpeed]:
    out: list[TrainingSpeed] = []
    threads = args.threads or os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="tavli-speed-") as tmp:
        folder = Path(tmp)
        for game in args.variants:
            hidden = args.hidden or shipped_hidden(game)
            train(game, CHUNK, 1, hidden, args.seed, folder)  # warm-up: compiled kernels, bear-off tables
            figures = train(game, args.train_games, threads, hidden, args.seed, folder)
            err.print(f"{game}: {figures.games_per_second:.0f} games/s training")
            out.append(figures)
    return out


# -- goals and output ----------------------------------------------------------------------------

def goals(times: list[DecisionTimes], speeds: list[TrainingSpeed], levels: Sequence[str]) -> list[Goal]:
    found: list[Goal] = []
    strongest = [name for name in LEVELS if name in levels][-1]
    checks = ((DEFAULT_LEVEL, DEFAULT_GOAL_MS, "default level"),
              (strongest, STRONGEST_GOAL_MS, "strongest level"))
    for level, limit, what in checks:
        for t in (t for t in times if t.player == level):
            found.append(Goal(f"{t.game}: {what} ({level}) median decision <= {limit:g} ms",
                              verdict(t.median_ms <= limit),
                              f"{t.median_ms:.1f} ms over {t.positions} positions"))
    for s in speeds:
        found.append(Goal(f"{s.game}: self-play training >= {TRAINING_GOAL:g} games/s",
                          verdict(s.games_per_second >= TRAINING_GOAL),
                          f"{s.games_per_second:.1f} games/s with {s.threads} threads"))
    return found


def decision_table(times: list[DecisionTimes]) -> Table:
    table = Table(title="Time per decision (ms)")
    table.add_column("game")
    table.add_column("player")
    for name in ("positions", "median", "mean", "p90", "max", "median / gnubg"):
        table.add_column(name, justify="right")
    for t in times:
        ratio = "" if t.ratio_to_gnubg is None else f"{t.ratio_to_gnubg:.1f}x"
        table.add_row(t.game, t.player, str(t.positions), f"{t.median_ms:.3f}", f"{t.mean_ms:.3f}",
                      f"{t.p90_ms:.3f}", f"{t.max_ms:.3f}", ratio)
    return table


def training_table(speeds: list[TrainingSpeed]) -> Table:
    table = Table(title="Self-play training (fresh network)")
    table.add_column("game")
    for name in ("threads", "hidden", "games", "seconds", "games/s", "turns/s"):
        table.add_column(name, justify="right")
    for s in speeds:
        table.add_row(s.game, str(s.threads), str(s.hidden), str(s.games), f"{s.seconds:.1f}",
                      f"{s.games_per_second:.1f}", f"{s.turns_per_second:.0f}")
    return table




def parse_list(text: str, allowed: Sequence[str], what: str) -> list[str]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in items if t not in allowed]
    if bad or not items:
        raise argparse.ArgumentTypeError(f"unknown {what} {', '.join(bad)}: choose from {', '.join(allowed)}")
    return items


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Time per decision of each level (and of GNU Backgammon 0-ply in Portes), and "
                    "self-play training games per second.")
    parser.add_argument("--variants", default=",".join(GAMES),
                        type=lambda t: parse_list(t, GAMES, "game"), help="games (default: all three)")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        type=lambda t: parse_list(t, list(LEVELS), "level"), help="levels (default: all)")
    parser.add_argument("--positions", type=int, default=200, help="positions per game (default 200)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="time one level of one game for at most this long")
    parser.add_argument("--train-games", type=int, default=3000,
                        help="self-play games per game in the training run (default 3000)")
    parser.add_argument("--threads", type=int, default=0, help="training threads (default: all cores)")
    parser.add_argument("--hidden", type=int, default=0,
                        help="hidden units of the fresh network (default: as the shipped network)")
    parser.add_argument("--whole-search", action="store_true",
                        help="also time the searching levels' whole search, as hints run it")
    parser.add_argument("--three-ply", action="store_true",
                        help="also time a 3-ply search (no level plays one: docs/strength.md)")
    parser.add_argument("--cpu", action="store_true",
                        help="time each decision by the CPU time of its thread, not the wall clock "
                             "(steadier on a machine shared with other work)")
    parser.add_argument("--skip-decisions", action="store_true", help="leave out the decision times")
    parser.add_argument("--skip-training", action="store_true", help="leave out the training speed")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample and the training (default 1)")
    parser.add_argument("--json", metavar="FILE", help="write all figures to FILE as JSON")
    args = parser.parse_args(argv)

    err = Console(stderr=True)
    times = [] if args.skip_decisions else decisions(args, err)
    speeds = [] if args.skip_training else training(args, err)
    found = goals(times, speeds, args.levels)
    out = Console(width=max(Console().width, 120))
    if times:
        out.print(decision_table(times))
    if speeds:
        out.print(training_table(speeds))
    out.print(goal_table(found))
    if args.json:
        settings: dict[str, Any] = {k: v for k, v in vars(args).items() if k != "json"}
        settings["cores"] = os.cpu_count()
        with open(args.json, "w") as f:
            json.dump({"settings": settings, "decisions": [asdict(t) for t in times],
                       "training": [asdict(s) for s in speeds], "goals": [asdict(g) for g in found]},
                      f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
