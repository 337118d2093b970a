"""Opening tables of Portes, Plakoto and Fevga by rollouts (docs/openings.md).

    nice .venv/bin/python tools/opening_tables.py [--trials 144] [--games portes,plakoto,fevga]
        [--rolls 65,31] [--level advanced] [--workers N] [--data tavli/data/openings.json]
        [--docs docs/openings.md] [--tables] [--fresh plakoto,fevga] [--max-seconds S]

Ranks every play of each opening roll at 2 plies and rolls out the best few
(``tavli.study.openings``), saving all trials to ``--data`` after each roll. Run it
again to resume a stopped run, or with a larger ``--trials`` to extend every
rollout to that many trials (made with the same network: ``--fresh`` rolls
out a game afresh, after its network changed). ``--docs`` rewrites the tables in that Markdown
file; ``--tables`` prints them and does no rollouts.

Prints one line per roll done (game, roll, best play, value, seconds), then the
trials added, the wall and CPU time, and the CPU milliseconds per trial.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from tavli.dice import Dice
from tavli.study.openings import OPENING_ROLLS, OpeningsError, OpeningSettings, OpeningTables
from tavli.variants import GAMES


def _rolls(text: str) -> list[Dice]:
    found = []
    for item in text.split(","):
        if len(item) != 2 or not item.isdigit() or not all("1" <= c <= "6" for c in item):
            raise OpeningsError(f"a roll is two dice like 65, not {item!r}")
        a, b = sorted(map(int, item), reverse=True)
        found.append(Dice(a, b))
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--trials", type=int, default=OpeningSettings.trials, help="trials per rolled-out play")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--rolls", default="", help="comma-separated rolls like 65,31 (default all 21)")
    ap.add_argument("--level", default=OpeningSettings.level)
    ap.add_argument("--seed", type=int, default=OpeningSettings.seed)
    ap.add_argument("--candidates", type=int, default=OpeningSettings.candidates)
    ap.add_argument("--margin", type=float, default=OpeningSettings.margin)
    ap.add_argument("--most", type=int, default=OpeningSettings.most)
    ap.add_argument("--max-seconds", type=float, default=None, help="begin no new roll after this long")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: one per core)")
    ap.add_argument("--data", default="tavli/data/openings.json", help="the checkpoint and the data Tavli ships")
    ap.add_argument("--docs", default=None, help="Markdown file whose tables to rewrite")
    ap.add_argument("--tables", action="store_true", help="print the tables only")
    ap.add_argument("--fresh", default="", help="comma-separated games to roll out afresh, dropping their tables "
                    "(those of an earlier network); resume a stopped fresh run without it")
    args = ap.parse_args(argv)
    try:
        settings = OpeningSettings(args.trials, args.level, args.seed, args.candidates, args.margin, args.most)
        games = [g.strip() for g in args.games.split(",") if g.strip()]
        rolls = _rolls(args.rolls) if args.rolls else list(OPENING_ROLLS)
        tables = OpeningTables.open(args.data, settings)
        for g in filter(None, (g.strip() for g in args.fresh.split(","))):
            if g not in GAMES:
                raise OpeningsError(f"unknown game {g!r}: choose from {', '.join(GAMES)}")
            tables.drop(g)
        if not args.tables:
            before, clock, cpu = tables.trials_done(), time.monotonic(), _cpu()

            def progress(game: str, dice: Dice, seconds: float) -> None:
                best = tables.summary(game, dice)[0]
                print(f"{game:8} {dice!s:4} {best.play:22} {best.equity:+.3f} ± {best.ci95:.3f} "
                      f"({best.trials} trials) {seconds:7.1f} s", flush=True)

            complete = tables.run(games, rolls, args.workers, progress, args.max_seconds)
            added, cpu = tables.trials_done() - before, _cpu() - cpu
            print(f"{added} trials added in {time.monotonic() - clock:.0f} s wall, {cpu:.0f} s CPU"
                  + (f", {1000 * cpu / added:.0f} ms CPU per trial" if added else "")
                  + ("" if complete else "; stopped at --max-seconds: run again to go on"))
        else:
            for g in games:
                print(f"## {g}\n\n{tables.markdown(g)}")
        if args.docs:
            tables.write_docs(args.docs, [g for g in GAMES if g in tables.games])
    except (OpeningsError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


if __name__ == "__main__":
    sys.exit(main())
