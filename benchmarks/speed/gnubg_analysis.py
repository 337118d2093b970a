"""CPU per decision of Tavli's match analysis against GNU Backgammon's, on the same Portes match.

    .venv/bin/python benchmarks/speed/gnubg_analysis.py [--length 3] [--seed 1] [--plies 0,1,2]
        [--mat FILE] [--gnubg /usr/games/gnubg] [--json FILE]

The match: ``--length`` points of Portes that the advanced level plays against itself with
seeded dice (``--seed``), exported to GNU Backgammon's ``.mat`` format
(``tavli.formats.mat.export_mat``); or ``--mat FILE``, any match file both programs read. Both
analyse that same file:

* Tavli reads it back (``tavli.formats.mat.read_mat``) and analyses it with
  ``tavli.study.analysis.analyse_record`` at each ply with one worker, after a warm-up that loads
  the network and the compiled kernels (as a running server after its first analysis);
* GNU Backgammon (Debian's ``gnubg -t -q``) runs ``set threads 1``, ``set cube use off``,
  ``set analysis chequerplay evaluation plies N`` (cubeless) and ``analyse match`` after
  ``import mat FILE``; its CPU is that of the whole program less that of the same program
  importing the file without analysing it (its start-up: weights, bear-off databases).

Prints, for each ply, the decisions each side analysed (Tavli's every turn, GNU Backgammon's
"Total moves"), the CPU seconds and the milliseconds of CPU per decision of each, and the ratio
Tavli / GNU Backgammon per decision. ``--json FILE`` writes the figures.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, as the other benchmarks
from tavli.bots.neural import NeuralBot
from tavli.dice import DiceRoller
from tavli.formats.mat import export_mat, read_mat
from tavli.formats.record import MatchRecord, PlayerInfo
from tavli.match import Match, MatchSettings
from tavli.study.analysis import analyse_record, evaluate_decision
from tavli.variants import BLACK, WHITE


@dataclass
class Row:
    """One ply analysed by both programs."""

    plies: int
    tavli_decisions: int
    tavli_cpu: float
    gnubg_decisions: int
    gnubg_cpu: float

    @property
    def tavli_ms(self) -> float:
        return 1000.0 * self.tavli_cpu / max(self.tavli_decisions, 1)

    @property
    def gnubg_ms(self) -> float:
        return 1000.0 * self.gnubg_cpu / max(self.gnubg_decisions, 1)

    @property
    def ratio(self) -> float:
        return self.tavli_ms / self.gnubg_ms if self.gnubg_ms > 0 else float("inf")


def play_match(length: int, seed: int) -> MatchRecord:
    """A ``length``-point match of Portes between two advanced bots, with seeded dice."""
    match = Match(MatchSettings(length=length, games=("portes",)), DiceRoller(seed=seed))
    bots = {WHITE: NeuralBot("advanced", seed=seed), BLACK: NeuralBot("advanced", seed=seed + 1)}
    while not match.is_over:
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bots[match.turn].choose(legal)] if len(legal) else None)
    bot = PlayerInfo("bot", "advanced")
    return MatchRecord.from_match(match, {WHITE: bot, BLACK: bot})


def child_cpu() -> float:
    """CPU seconds of this process's finished children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_gnubg(gnubg: str, mat: Path, plies: int | None) -> tuple[float, str]:
    """CPU seconds and output of GNU Backgammon importing ``mat`` and, unless ``plies`` is None,
    analysing it at ``plies`` cubeless on one thread."""
    commands = ["set threads 1", "set cube use off", f"import mat {mat}"]
    if plies is not None:
        commands[2:2] = [f"set analysis chequerplay evaluation plies {plies}",
                         f"set analysis cubedecision evaluation plies {plies}",
                         "set analysis chequerplay evaluation cubeful off"]
        commands += ["analyse match", "show statistics match"]
    before = child_cpu()
    done = subprocess.run([gnubg, "-t", "-q"], input="\n".join(commands) + "\n", capture_output=True, text=True,
                          timeout=3600, check=True)
    return child_cpu() - before, done.stdout


def gnubg_decisions(output: str) -> int:
    """The moves GNU Backgammon analysed: both players' "Total moves" of its match statistics."""
    found = re.search(r"^Total moves\s+(\d+)\s+(\d+)", output, re.M)
    if found is None:
        raise RuntimeError(f"GNU Backgammon printed no statistics: {output[-1000:]}")
    return int(found.group(1)) + int(found.group(2))


def tavli_cpu(record: MatchRecord, plies: int) -> tuple[float, int]:
    """CPU seconds of Tavli's analysis of ``record`` at ``plies`` with one worker, and its decisions."""
    start = time.process_time()
    analysis = analyse_record(record, plies, workers=1)
    return time.process_time() - start, len(analysis.decisions)


def measure(mat: Path, plies: Sequence[int], gnubg: str) -> list[Row]:
    """Both programs' analysis of ``mat`` at each of ``plies``."""
    record = read_mat(mat)
    # load the network, compile the kernels and build the match equity tables before the clock starts
    first = record.check()[0].history[0]
    evaluate_decision(first.before, first.dice, str(first.play), 2)
    analyse_record(replace(record, games=record.games[:1]), 0, workers=1)
    start_up = min(run_gnubg(gnubg, mat, None)[0] for _ in range(2))
    rows = []
    for n in plies:
        cpu, decisions = tavli_cpu(record, n)
        gnubg_cpu, output = run_gnubg(gnubg, mat, n)
        rows.append(Row(n, decisions, cpu, gnubg_decisions(output), max(gnubg_cpu - start_up, 0.0)))
    return rows


def table(rows: Sequence[Row], title: str) -> Table:
    found = Table(title=title)
    for name in ("plies", "Tavli decisions", "Tavli CPU s", "Tavli ms/decision", "GNU Backgammon decisions",
                 "GNU Backgammon CPU s", "GNU Backgammon ms/decision", "ratio Tavli/GNU Backgammon"):
        found.add_column(name, justify="right")
    for r in rows:
        found.add_row(str(r.plies), str(r.tavli_decisions), f"{r.tavli_cpu:.2f}", f"{r.tavli_ms:.2f}",
                      str(r.gnubg_decisions), f"{r.gnubg_cpu:.2f}", f"{r.gnubg_ms:.2f}", f"{r.ratio:.2f}")
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="CPU per decision of Tavli's analysis against GNU Backgammon's.")
    parser.add_argument("--length", type=int, default=3, help="points of the match to play (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the dice's seed (default 1)")
    parser.add_argument("--plies", default="0,1,2", help="comma list of plies (default 0,1,2)")
    parser.add_argument("--mat", type=Path, help="analyse this .mat file instead of playing a match")
    parser.add_argument("--gnubg", default=shutil.which("gnubg") or "/usr/games/gnubg")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    plies = [int(p) for p in args.plies.split(",")]
    if any(p not in (0, 1, 2, 3) for p in plies):
        parser.error("--plies are among 0, 1, 2, 3")
    if not Path(args.gnubg).exists():
        parser.error(f"no GNU Backgammon at {args.gnubg} (apt-get install gnubg)")
    with tempfile.TemporaryDirectory() as folder:
        mat = args.mat
        if mat is None:
            mat = Path(folder) / "match.mat"
            mat.write_text(export_mat(play_match(args.length, args.seed)))
        rows = measure(mat.resolve(), plies, args.gnubg)
    title = (f"Analysing {args.mat or f'a {args.length}-point Portes match (seed {args.seed})'}: "
             "CPU per decision, one thread each")
    Console(width=max(Console().width, 150)).print(table(rows, title))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"settings": {k: str(v) for k, v in vars(args).items()},
                       "rows": [{**asdict(r), "tavli_ms": r.tavli_ms, "gnubg_ms": r.gnubg_ms, "ratio": r.ratio}
                                for r in rows]}, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
