"""Agreement of Tavli's analysis with GNU Backgammon's, decision by decision, on Portes.

    .venv/bin/python benchmarks/strength/analysis_agreement.py [--games 30] [--pairs beginner:expert,...]
        [--plies 0,2] [--seed 1] [--workers 2] [--gnubg /usr/games/gnubg] [--keep DIR] [--json FILE]

For each pair of levels (``--pairs``, a weaker and a stronger one) it plays
``--games`` games of Portes with seeded dice, keeps them as a match record
(a series of games), exports them to GNU Backgammon's ``.mat`` format
(``tavli.formats.mat.export_mat``: a money session, ``0 point match``, so that
GNU Backgammon values plays in points per game like Tavli and not in
match-winning chances), and has the real program analyse them:

    gnubg -t -q:  set cube use off / import mat FILE /
                  set analysis chequerplay evaluation plies N / analyse match /
                  export match text FILE

Its text export lists, for every move, the plays it ranked with their
chances (win, gammon, backgammon, for both sides). GNU Backgammon keeps the
doubling cube in its equities of an imported session whatever the settings,
so each play's value is made from its cubeless chances scored as Portes
scores them (``2 win - 1 + win gammon - lose gammon``: a backgammon counts
as a gammon), as ``benchmarks/strength/peers.py`` plays GNU Backgammon; the played
play's loss is the best of the plays at the deepest ply less the played
play's. Tavli analyses the same record at the
same depth (``tavli.study.analysis.analyse_record``). The decisions are matched
by GNU Backgammon's Position ID and the dice; those that both call unforced
are compared:

* the Spearman rank correlation of the two losses (goal: >= 0.8);
* of the decisions that either calls an error (loss >= 0.08 points, GNU
  Backgammon's "bad" and "very bad"), the share that both call an error
  (goal: >= 80%); and each side's errors that the other also calls one;
* the same for blunders (>= 0.16), the mean losses, and how often the best
  plays agree (by the position they reach);
* the decisions where the two disagree most, to explain.

GNU Backgammon's chances still come from a network trained for backgammon
scoring, where a backgammon is worth 3 points: plays that risk or aim for
one are judged with that in mind.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: ``benchmarks.goals``
from benchmarks.goals import Goal, goal_table, verdict
from tavli.bots.neural import NeuralBot
from tavli.dice import DiceRoller
from tavli.formats.mat import export_mat
from tavli.formats.record import MatchRecord, PlayerInfo
from tavli.match import Match, MatchSettings
from tavli.study import analysis
from tavli.study.analysis import analyse_record
from tavli.variants import BLACK, WHITE

ERROR = 0.08
BLUNDER = 0.16
DEFAULT_PAIRS = "beginner:expert,casual:advanced,intermediate:expert"

MOVE = re.compile(r"^Move number \d+:\s+(\S+) to play (\d)(\d)")
POSITION_ID = re.compile(r"Position ID: (\S+)")
CANDIDATE = re.compile(r"^(\*?)\s+(\d+)\.\s+Cube\w+ (\d)-ply\s+(.+?)\s+Eq\.:\s+([+-]?\d+\.\d+)"
                       r"(?:\s+\(([+-]?\d+\.\d+)\))?")
CHANCES = re.compile(r"^\s+(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+)\s*$")


@dataclass
class GnubgMove:
    """One move of GNU Backgammon's text export."""

    game: int
    player: str
    dice: tuple[int, int]
    position_id: str
    plays: list[tuple[str, float, int]]
    """(notation, equity in Portes points, plies) as listed."""
    played: int | None
    """Index in ``plays`` of the played play (``None`` if not listed)."""

    def ranked(self) -> list[tuple[str, float, int]]:
        """The plays valued at the deepest ply, best first by Portes equity."""
        deepest = max(p for _, _, p in self.plays)
        return sorted((x for x in self.plays if x[2] == deepest), key=lambda x: -x[1])

    @property
    def best(self) -> str:
        return self.ranked()[0][0]

    @property
    def loss(self) -> float:
        assert self.played is not None
        return self.ranked()[0][1] - self.plays[self.played][1]


def parse_export(text: str, game: int) -> list[GnubgMove]:
    """Every move of one game's text export."""
    moves: list[GnubgMove] = []
    current: GnubgMove | None = None
    pending: tuple[str, int] | None = None
    for line in text.splitlines():
        m = MOVE.match(line)
        if m:
            current = GnubgMove(game, m.group(1), tuple(sorted((int(m.group(2)), int(m.group(3))))),  # type: ignore[arg-type]
                                "", [], None)
            moves.append(current)
            continue
        if current is None:
            continue
        p = POSITION_ID.search(line)
        if p and not current.position_id:
            current.position_id = p.group(1)
            continue
        c = CANDIDATE.match(line)
        if c:
            if c.group(1):
                current.played = len(current.plays)
            pending = (c.group(4).strip(), int(c.group(3)))
            continue
        chances = CHANCES.match(line)
        if chances and pending is not None:
            # the cubeless chances scored as Portes scores: a backgammon counts as a gammon
            w, wg, _, _, lg, _ = map(float, chances.groups())
            current.plays.append((pending[0], 2 * w - 1 + wg - lg, pending[1]))
            pending = None
    return moves


def play_series(white: str, black: str, games: int, seed: int) -> MatchRecord:
    """``games`` games of Portes between two levels, as a record of a series."""
    match = Match(MatchSettings(length=10_000, games=("portes",)), DiceRoller(seed=seed))
    bots = {WHITE: NeuralBot(white, seed=seed), BLACK: NeuralBot(black, seed=seed + 1)}
    while len(match.records) <= games:
        match.roll()
        legal = match.legal_plays()
        match.play(legal[bots[match.turn].choose(legal)] if len(legal) else None)
    record = MatchRecord.from_match(match, {WHITE: PlayerInfo("bot", white), BLACK: PlayerInfo("bot", black)})
    return replace(record, games=record.games[:games], series=True)


def gnubg_analyse(gnubg: str, mat: Path, plies: int, out: Path) -> list[GnubgMove]:
    commands = "\n".join(["set cube use off", f"import mat {mat}",
                          f"set analysis chequerplay evaluation plies {plies}", "analyse match",
                          "set export moves number 100", f"export match text {out}", ""])
    subprocess.run([gnubg, "-t", "-q"], input=commands, text=True, capture_output=True, check=True, timeout=3600)
    return read_exports(out)


def read_exports(out: Path) -> list[GnubgMove]:
    """The moves of every game's export (GNU Backgammon writes game k to ``NAME_00k.txt``)."""
    files = sorted(out.parent.glob(f"{out.stem}*{out.suffix}"),
                   key=lambda f: 1 if f == out else int(f.stem.rsplit("_", 1)[1]))
    return [move for k, f in enumerate(files) for move in parse_export(f.read_text(), k)]


def ranks(x: np.ndarray) -> np.ndarray:
    """Ranks with ties averaged."""
    order = np.argsort(x, kind="mergesort")
    r = np.empty(len(x))
    r[order] = np.arange(len(x), dtype=float)
    for value in np.unique(x):
        same = x == value
        if same.sum() > 1:
            r[same] = r[same].mean()
    return r


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    ra, rb = ranks(a), ranks(b)
    return float(np.corrcoef(ra, rb)[0, 1])


@dataclass
class Row:
    pair: str
    game: int
    turn: int
    player: str
    dice: str
    position_id: str
    played: str
    tavli_best: str
    gnubg_best: str
    tavli_loss: float
    gnubg_loss: float
    same_best: bool


def compare(record: MatchRecord, pair: str, plies: int, moves: list[GnubgMove], workers: int) -> list[Row]:
    found = analyse_record(record, depth=plies, workers=workers)
    index: dict[tuple[int, str, tuple[int, int]], list[GnubgMove]] = {}
    for m in moves:
        index.setdefault((m.game, m.position_id, m.dice), []).append(m)
    rows = []
    replayed = record.check()
    for g in found.games:
        history = replayed[g.index].history
        for d in g.decisions:
            if d.forced:
                continue
            before = history[d.turn - 1].before
            key = (g.index, before.gnubg_id(), (min(d.dice), max(d.dice)))
            listed = index.get(key)
            if not listed:
                continue
            m = listed.pop(0)
            if m.played is None or len(m.plays) < 2 or m.plays[m.played][2] != m.ranked()[0][2]:
                continue
            legal = before.legal_plays(d.dice)
            best_t = legal.index(before.parse_play(d.best, d.dice))
            same = _gnubg_result(before, d.dice, m.best) == legal.results[best_t].tobytes()
            rows.append(Row(pair, g.index + 1, d.turn, str(d.color).lower(), str(d.dice), m.position_id, d.played,
                            d.best, m.best, d.loss, m.loss, same))
    return rows


def _gnubg_result(before: object, dice: object, notation: str) -> bytes | None:
    """The result (mover's view) of GNU Backgammon's notation, or None if Tavli cannot read it."""
    from tavli.dice import Dice
    from tavli.position import Position

    assert isinstance(before, Position) and isinstance(dice, Dice)
    text = re.sub(r"\*", "", notation)
    steps = []
    for part in text.split():
        count = 1
        m = re.fullmatch(r"(.+)\((\d)\)", part)
        if m:
            part, count = m.group(1), int(m.group(2))
        points = part.split("/")
        steps += ["/".join(points)] * count
    try:
        legal = before.legal_plays(dice)
        k = legal.index(before.parse_play(" ".join(steps), dice))
    except ValueError:
        return None
    return bytes(legal.results[k].tobytes())


def figures(rows: list[Row]) -> dict[str, float]:
    t = np.array([r.tavli_loss for r in rows])
    g = np.array([r.gnubg_loss for r in rows])
    out: dict[str, float] = {"decisions": len(rows)}
    out["spearman"] = spearman(t, g) if len(rows) > 2 else math.nan
    out["pearson"] = float(np.corrcoef(t, g)[0, 1]) if len(rows) > 2 else math.nan
    for name, limit in (("error", ERROR), ("blunder", BLUNDER)):
        te, ge = t >= limit, g >= limit
        either, both = int((te | ge).sum()), int((te & ge).sum())
        out[f"{name}_either"] = either
        out[f"{name}_both"] = both
        out[f"{name}_both_share"] = both / either if either else math.nan
        out[f"{name}_tavli"] = int(te.sum())
        out[f"{name}_gnubg"] = int(ge.sum())
        out[f"{name}_tavli_confirmed"] = both / int(te.sum()) if te.sum() else math.nan
        out[f"{name}_gnubg_confirmed"] = both / int(ge.sum()) if ge.sum() else math.nan
        out[f"{name}_same_verdict"] = float(np.mean(te == ge))
    out["mean_loss_tavli"] = float(t.mean())
    out["mean_loss_gnubg"] = float(g.mean())
    out["same_best"] = float(np.mean([r.same_best for r in rows]))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Tavli's analysis against GNU Backgammon's, decision by decision.")
    parser.add_argument("--games", type=int, default=30, help="games per pair of levels (default 30)")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help=f"weaker:stronger,... (default {DEFAULT_PAIRS})")
    parser.add_argument("--plies", default="0,2", help="depths to compare (default 0,2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--gnubg", default="/usr/games/gnubg")
    parser.add_argument("--keep", metavar="DIR", help="keep the records, .mat files and exports here")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse GNU Backgammon's exports already in --keep DIR (the games are the same for a seed)")
    parser.add_argument("--filter", metavar="KEEP2,MARGIN2",
                        help="Tavli's 2-ply filter instead of tavli.study.analysis.FILTER's (e.g. 3,0.06)")
    parser.add_argument("--worst", type=int, default=8, help="disagreements to list per depth (default 8)")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    plies = [int(p) for p in args.plies.split(",")]
    if args.filter:
        keep2, margin2 = args.filter.split(",")
        analysis.FILTER = (analysis.FILTER[0], (int(keep2), float(margin2)))
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    err = Console(stderr=True)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="tavli-agreement-"))
    work.mkdir(parents=True, exist_ok=True)
    rows: dict[int, list[Row]] = {p: [] for p in plies}
    seconds: dict[str, float] = {}
    for k, (weak, strong) in enumerate(pairs):
        name = f"{weak}-{strong}"
        record = play_series(weak, strong, args.games, args.seed * 1000 + k)
        mat = work / f"{name}.mat"
        mat.write_text(export_mat(record))
        err.print(f"{name}: {args.games} games, {sum(len(g.turns) for g in record.games)} turns -> {mat}")
        for p in plies:
            start = time.perf_counter()
            export = work / f"{name}-{p}ply.txt"
            moves = (read_exports(export) if args.reuse and export.exists()
                     else gnubg_analyse(args.gnubg, mat, p, export))
            seconds[f"gnubg {name} {p}-ply"] = time.perf_counter() - start
            start = time.perf_counter()
            found = compare(record, name, p, moves, args.workers)
            seconds[f"tavli {name} {p}-ply"] = time.perf_counter() - start
            rows[p] += found
            err.print(f"  {p}-ply: GNU Backgammon {len(moves)} moves, {len(found)} decisions compared")
    out = Console(width=max(Console().width, 150))
    table = Table(title="Tavli against GNU Backgammon on Portes, unforced decisions of both")
    for col in ("depth", "decisions", "rank corr. (Spearman)", "errors: both / either", "Tavli's confirmed",
                "gnubg's confirmed", "blunders: both / either", "same best play", "mean loss Tavli / gnubg"):
        table.add_column(col, justify="right")
    stats = {p: figures(rows[p]) for p in plies if rows[p]}
    for p, f in stats.items():
        table.add_row(f"{p}-ply", str(int(f["decisions"])), f"{f['spearman']:.3f}",
                      f"{int(f['error_both'])} / {int(f['error_either'])} = {100 * f['error_both_share']:.0f}%",
                      f"{100 * f['error_tavli_confirmed']:.0f}% of {int(f['error_tavli'])}",
                      f"{100 * f['error_gnubg_confirmed']:.0f}% of {int(f['error_gnubg'])}",
                      f"{int(f['blunder_both'])} / {int(f['blunder_either'])} = "
                      f"{100 * f['blunder_both_share']:.0f}%",
                      f"{100 * f['same_best']:.1f}%", f"{f['mean_loss_tavli']:.4f} / {f['mean_loss_gnubg']:.4f}")
    out.print(table)
    worst_rows: dict[int, list[Row]] = {}
    for p in stats:
        worst = sorted(rows[p], key=lambda r: -abs(r.tavli_loss - r.gnubg_loss))[:args.worst]
        worst_rows[p] = worst
        w = Table(title=f"Largest disagreements at {p}-ply (losses in points per game)")
        for col in ("pair", "game", "turn", "Position ID", "dice", "played", "Tavli best", "loss", "gnubg best",
                    "loss "):
            w.add_column(col)
        for r in worst:
            w.add_row(r.pair, str(r.game), str(r.turn), r.position_id, r.dice, r.played, r.tavli_best,
                      f"{r.tavli_loss:.3f}", r.gnubg_best, f"{r.gnubg_loss:.3f}")
        out.print(w)
    found_goals = []
    for p, f in stats.items():
        found_goals.append(Goal(f"{p}-ply: rank correlation of the losses >= 0.8", verdict(f["spearman"] >= 0.8),
                                f"{f['spearman']:.3f} over {int(f['decisions'])} decisions"))
        found_goals.append(Goal(f"{p}-ply: >= 80% of the decisions either calls an error, both do",
                                verdict(f["error_both_share"] >= 0.8),
                                f"{100 * f['error_both_share']:.1f}% ({int(f['error_both'])} of "
                                f"{int(f['error_either'])})"))
    out.print(goal_table(found_goals))
    out.print(f"Tavli's filter {analysis.FILTER}; files in {work}; seconds: "
              + ", ".join(f"{k} {v:.0f}" for k, v in seconds.items()))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"settings": vars(args), "filter": analysis.FILTER,
                       "figures": {str(p): f for p, f in stats.items()},
                       "seconds": seconds, "worst": {str(p): [asdict(r) for r in w] for p, w in worst_rows.items()},
                       "rows": {str(p): [asdict(r) for r in rows[p]] for p in plies}}, fh, indent=1)
            fh.write("\n")


if __name__ == "__main__":
    main()
