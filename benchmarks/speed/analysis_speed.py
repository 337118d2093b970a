"""How long a whole 7-point match takes to analyse, against the goal of 30 seconds.

    .venv/bin/python benchmarks/speed/analysis_speed.py [--length 7] [--games tavli] [--seed 7]
        [--depths 2] [--workers 1,2] [--pools thread,process] [--json FILE]

Plays one match (``--length`` points, Portes, Plakoto and Fevga in turn by
default) between the intermediate and expert levels with seeded dice, then
analyses it with ``tavli.study.analysis.analyse_match`` at each depth, with each
number of workers, in threads (the search kernels release the GIL) and in
processes. The networks are loaded and the kernels compiled before the clock
starts, as in a running ``tavli analyse`` after its first use.

Prints one row per run: depth, pool, workers, decisions, seconds, decisions
per second, the CPU seconds it took (all threads and worker processes), the
load average before it (the machine may be shared), the speed-up over one
worker and the ratio to the 30-second goal; then the goal, judged on the
default depth with one worker per core.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import get_args

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: ``benchmarks.goals``
from benchmarks.goals import Goal, goal_table, verdict
from tavli.bots.neural import NeuralBot
from tavli.dice import DiceRoller
from tavli.match import Match, MatchSettings
from tavli.study.analysis import DEFAULT_DEPTH, Pool, analyse_match, evaluate_decision
from tavli.variants import BLACK, WHITE

GOAL_SECONDS = 30.0


@dataclass
class Run:
    """One timed analysis of the whole match."""

    depth: int
    pool: str  # "none" for one worker
    workers: int
    decisions: int
    seconds: float
    cpu_seconds: float
    load: float
    per_second: float
    speedup: float | None
    goal_ratio: float


def cpu_seconds() -> float:
    """CPU time of this process's threads and of its finished child processes."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def play_match(length: int, games: str, seed: int) -> Match:
    match = Match(MatchSettings(length=length, games=MatchSettings.parse_games(games)), DiceRoller(seed=seed))
    bots = {WHITE: NeuralBot("intermediate", seed=seed), BLACK: NeuralBot("expert")}
    while not match.is_over:
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bots[match.turn].choose(legal)] if len(legal) else None)
    return match


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Seconds to analyse a whole match, against the 30 s goal.")
    parser.add_argument("--length", type=int, default=7)
    parser.add_argument("--games", default="tavli", help="tavli, one game, or an order like portes,fevga")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--depths", default=str(DEFAULT_DEPTH), help="comma list of depths (default: the default)")
    parser.add_argument("--workers", default=f"1,{os.cpu_count() or 1}", help="comma list (default: 1 and all cores)")
    parser.add_argument("--pools", default="thread,process", help="thread, process or both")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    depths = [int(d) for d in args.depths.split(",")]
    workers = [int(w) for w in args.workers.split(",")]
    pools: list[Pool] = []
    for name in args.pools.split(","):
        if name not in get_args(Pool):
            parser.error(f"unknown pool {name!r}: choose from {', '.join(get_args(Pool))}")
        pools.append(name)

    match = play_match(args.length, args.games, args.seed)
    turns = sum(len(g.history) for g in match.games)
    for g in match.games:  # load every game's network and compile the kernels
        evaluate_decision(g.history[0].before, g.history[0].dice, str(g.history[0].play), 2)
    err = Console(stderr=True)
    err.print(f"{len(match.games)} games, {turns} turns, score {match.score[WHITE]}-{match.score[BLACK]}")
    rows: list[Run] = []
    for depth in depths:
        single = None
        for pool in pools:
            for n in workers:
                if n == 1 and pool == "process" and "thread" in pools:
                    continue
                load = os.getloadavg()[0]
                start, cpu = time.perf_counter(), cpu_seconds()
                analyse_match(match, depth, workers=n, pool=pool)
                seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
                if n == 1:
                    single = seconds
                rows.append(Run(depth, pool if n > 1 else "none", n, turns, seconds, cpu, load, turns / seconds,
                                single / seconds if single else None, seconds / GOAL_SECONDS))
                err.print(f"depth {depth}, {pool}, {n} workers: {seconds:.1f} s, {cpu:.1f} s of CPU, load {load:.1f}")
    table = Table(title=f"Analysing a {args.length}-point match ({args.games}): {turns} decisions")
    for name in ("depth", "pool", "workers", "seconds", "CPU seconds", "load before", "decisions/s", "speed-up",
                 "of the 30 s goal"):
        table.add_column(name, justify="right")
    for r in rows:
        table.add_row(str(r.depth), r.pool, str(r.workers), f"{r.seconds:.1f}", f"{r.cpu_seconds:.1f}",
                      f"{r.load:.1f}", f"{r.per_second:.1f}", f"{r.speedup:.2f}" if r.speedup else "",
                      f"{r.goal_ratio:.2f}")
    judged = [r for r in rows if r.depth == DEFAULT_DEPTH and r.workers == max(workers)]
    best = min(judged, key=lambda r: r.seconds) if judged else None
    found = [Goal(f"a {args.length}-point match at the default depth ({DEFAULT_DEPTH}-ply) in <= 30 s",
                  verdict(best.seconds <= GOAL_SECONDS) if best else "not measured",
                  f"{best.seconds:.1f} s ({best.pool}, {best.workers} workers)" if best else "")]
    out = Console(width=max(Console().width, 110))
    out.print(table)
    out.print(goal_table(found))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"settings": vars(args), "games": len(match.games), "decisions": turns,
                       "runs": [asdict(r) for r in rows]}, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
