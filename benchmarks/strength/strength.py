"""Playing strength of the neural bots' levels, in points per game against other players.

    .venv/bin/python benchmarks/strength/strength.py [--variants portes,plakoto,fevga] [--levels L1,L2,..]
        [--opponents random,heuristic,below,pubeval,gnubg] [--games N] [--games-random N] ..
        [--max-seconds S] [--seed X] [--jobs J] [--parts P] [--no-luck] [--json FILE]

For each game and each level (``tavli.bots.levels.LEVELS``, all by default; ``3-ply``, a level
above the champion to try, only when named) it
plays matches with ``tavli.bots.duel.duel`` (games in pairs that replay the same
dice with the seats swapped) against:

* ``random``: ``tavli.bots.RandomBot``;
* ``heuristic``: ``tavli.bots.HeuristicBot``;
* ``below``: the next weaker level (not for the weakest);
* for Portes also ``pubeval`` (Tesauro's public evaluator) and ``gnubg``
  (GNU Backgammon at ``--gnubg-ply`` plies, 0 by default, with Portes
  scoring; deeper than 0 through its "normal" move filter, as GNU Backgammon
  plays 2-ply), both from ``benchmarks/strength/peers.py``.

Each pairing plays ``--games`` games (4000 by default, for close matches;
``--games-random`` etc. set one kind of opponent apart, random play 1000 by
default). ``--max-seconds`` stops a pairing early, after a whole pair of
games, and the games actually played are reported. Pairings run in
``--jobs`` processes; ``--parts P`` plays each pairing in P parts with
their own dice, side by side, so that one long pairing can use every core.

Every roll's luck is measured too (``tavli.bots.neural.Evaluator.luck``, the
game's network at 0-ply; ``--no-luck`` skips it), and points less luck give
a second estimate of the same points per game with a far narrower interval
(see ``tavli.bots.duel``).

Prints one row per pairing: game, level, opponent, games played, points per
game of the level with the half-width of its 95% confidence interval (each
mirrored pair one sample), the same less luck, win rate, and whether the
interval (less luck, when measured) is clear of zero. Then the goals, each
PASS, FAIL or not measured, judged on points less luck when measured:

* Portes: the strongest level run scores >= 0.00 ppg against GNU Backgammon 0-ply;
* Plakoto and Fevga: every level beats the one below with the interval clear
  of zero, and the strongest beats the heuristic bot by a wide margin
  (``--wide-margin`` ppg, 0.5 by default, interval clear of zero);
* every level beats random play by more than 1.9 ppg.

``--json FILE`` writes the settings, every pairing (with each game's points
and luck) and the goals.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
import zlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: ``benchmarks.*``
from benchmarks.goals import Goal, goal_table, verdict
from tavli.bots import HeuristicBot, Player, RandomBot
from tavli.bots.duel import DuelResult, duel
from tavli.bots.levels import LEVELS, Level
from tavli.bots.neural import Evaluator, NeuralBot
from tavli.variants import GAMES

OPPONENTS = ("random", "heuristic", "below", "pubeval", "gnubg")
PORTES_ONLY = ("pubeval", "gnubg")
DEFAULT_GAMES = 4000
DEFAULT_GAMES_RANDOM = 1000
RANDOM_GOAL = 1.9
TRIAL_LEVELS = {"3-ply": Level("3-ply", 3, 0.0, "looks three rolls ahead")}
"""Levels not (yet) among the bots', above the strongest, to measure before one is added: named in
``--levels`` like the others; their "below" is the champion, and no goal looks at them."""
ALL_LEVELS = LEVELS | TRIAL_LEVELS
GNUBG_GOAL = 0.05
"""Points a game, less luck, the strongest Portes level must score against GNU Backgammon 0-ply;
against a deeper GNU Backgammon the figure is reported, with no goal."""


@dataclass(frozen=True)
class Pairing:
    """One match to play: ``level`` against ``opponent``, scored for ``level``."""

    game: str
    level: str
    kind: str
    """Which sort of opponent: one of ``OPPONENTS``."""
    opponent: str
    games: int
    seed: int
    max_seconds: float | None
    luck: bool = True
    part: int = 0
    """Which part of the pairing this is; each part has its own dice and noise."""


@dataclass
class Part:
    """What one part of a pairing played."""

    pairing: Pairing
    points: list[int]
    luck: list[float]
    stopped_early: bool
    seconds: float


@dataclass
class Outcome:
    game: str
    level: str
    kind: str
    opponent: str
    games_asked: int
    games: int
    ppg: float
    ci95: float
    adjusted_ppg: float | None
    """Points per game less luck (``None`` when luck was not measured)."""
    adjusted_ci95: float | None
    luck_weight: float | None
    """The multiple of the luck taken off (``tavli.bots.duel.DuelResult.luck_weight``)."""
    wins: int
    losses: int
    win_rate: float
    clear_of_zero: str
    """``above`` or ``below`` when the 95% interval (less luck, when measured)
    excludes zero, else ``no``."""
    stopped_early: bool
    seconds: float
    points: list[int]
    """Each game's points, for the JSON output."""
    luck: list[float]
    """Each game's luck (empty when not measured), for the JSON output."""


class TimeUp(Exception):
    """A pairing ran out of its ``max_seconds``."""


def make_player(name: str, seed: int, gnubg_ply: int) -> Player:
    if name == "random":
        return RandomBot(seed)
    if name == "heuristic":
        return HeuristicBot()
    if name == "pubeval":
        from benchmarks.strength.peers import PubevalPlayer

        return PubevalPlayer()
    if name.startswith("gnubg"):
        from tavli.bots.gnubg_player import GnubgPlayer

        return GnubgPlayer(gnubg_ply)
    return NeuralBot(ALL_LEVELS[name], seed=seed)


def player_seed(seed: int, *names: str) -> int:
    return (seed * 1_000_003 + zlib.crc32("/".join(names).encode())) % 2**32


def clear_of_zero(mean: float, ci95: float) -> str:
    if mean - ci95 > 0:
        return "above"
    if mean + ci95 < 0:
        return "below"
    return "no"


def play(pairing: Pairing, gnubg_ply: int) -> Part:
    """Play one part of a pairing (in a worker process)."""
    game, level, opponent = pairing.game, pairing.level, pairing.opponent
    seed = pairing.seed * 1009 + pairing.part if pairing.part else pairing.seed
    a = make_player(level, player_seed(seed, game, level, opponent), gnubg_ply)
    b = make_player(opponent, player_seed(seed, game, opponent, level), gnubg_ply)
    start = time.monotonic()
    played: list[DuelResult] = []

    def on_game(result: DuelResult) -> None:
        if not played:
            played.append(result)
        if (pairing.max_seconds is not None and result.games % 2 == 0 and result.games < pairing.games
                and time.monotonic() - start > pairing.max_seconds):
            raise TimeUp

    stopped = False
    try:
        luck = Evaluator.for_variant(game).luck if pairing.luck else None
        result = duel(pairing.game, a, b, pairing.games, seed=seed, on_game=on_game, luck=luck)
    except TimeUp:
        result = played[0]
        stopped = True
    return Part(pairing, list(result.points), list(result.luck), stopped, time.monotonic() - start)


def _play_star(job: tuple[Pairing, int]) -> Part:
    return play(*job)


def outcome(parts: list[Part]) -> Outcome:
    """One pairing's figures from all its parts (each part is whole mirrored pairs)."""
    first = parts[0].pairing
    result = DuelResult(points=[p for part in parts for p in part.points],
                        luck=[x for part in parts for x in part.luck])
    games = result.games
    adjusted_ppg: float | None = None
    adjusted_ci95: float | None = None
    if result.luck:
        adjusted_ppg, adjusted_ci95 = result.adjusted_ppg, result.adjusted_ci95
        clear = clear_of_zero(result.adjusted_ppg, result.adjusted_ci95)
    else:
        clear = clear_of_zero(result.ppg, result.ci95)
    return Outcome(first.game, first.level, first.kind, first.opponent, sum(p.pairing.games for p in parts), games,
                   result.ppg, result.ci95, adjusted_ppg, adjusted_ci95,
                   result.luck_weight if result.luck else None, result.wins,
                   sum(p < 0 for p in result.points), result.wins / games if games else 0.0,
                   clear,
                   any(p.stopped_early for p in parts), max(p.seconds for p in parts), result.points, result.luck)


def split(pairing: Pairing, parts: int) -> list[Pairing]:
    """``pairing`` as up to ``parts`` parts of whole mirrored pairs."""
    pairs = pairing.games // 2
    count = max(1, min(parts, pairs))
    sizes = [pairs // count + (k < pairs % count) for k in range(count)]
    return [replace(pairing, games=2 * size, part=k) for k, size in enumerate(sizes)]


# -- planning ----------------------------------------------------------------------------

def parse_list(text: str, allowed: Sequence[str], what: str) -> list[str]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    bad = [t for t in items if t not in allowed]
    if bad:
        raise argparse.ArgumentTypeError(f"unknown {what} {', '.join(bad)}: choose from {', '.join(allowed)}")
    return items


def plan(args: argparse.Namespace, gnubg_ok: bool) -> list[Pairing]:
    names = list(ALL_LEVELS)
    per_kind = {"random": args.games_random, "heuristic": args.games_heuristic, "below": args.games_below,
                "pubeval": args.games_pubeval, "gnubg": args.games_gnubg}
    out: list[Pairing] = []
    for game in args.variants:
        for level in args.levels:
            for kind in args.opponents:
                if kind in PORTES_ONLY and game != "portes":
                    continue
                if kind == "gnubg" and not gnubg_ok:
                    continue
                if kind == "below":
                    i = names.index(level)
                    if i == 0:
                        continue
                    opponent = names[i - 1]
                elif kind == "gnubg":
                    opponent = f"gnubg-{args.gnubg_ply}ply"
                else:
                    opponent = kind
                games = per_kind[kind] if per_kind[kind] is not None else args.games
                games += games % 2  # whole mirrored pairs
                out.append(Pairing(game, level, kind, opponent, games, args.seed, args.max_seconds, not args.no_luck))
    # the deepest searches first, so that the slowest pairings do not finish last alone
    depth = {name: ALL_LEVELS[name].depth for name in names}
    out.sort(key=lambda p: -(depth[p.level] + depth.get(p.opponent, 0)))
    return out


# -- goals ------------------------------------------------------------------------------------

def best_estimate(o: Outcome) -> float:
    """Points per game less luck when measured, else points per game."""
    return o.adjusted_ppg if o.adjusted_ppg is not None else o.ppg


def figure(o: Outcome) -> str:
    if o.adjusted_ppg is not None and o.adjusted_ci95 is not None:
        return f"{o.level} {o.adjusted_ppg:+.3f} ± {o.adjusted_ci95:.3f} less luck ({o.games} games)"
    return f"{o.level} {o.ppg:+.3f} ± {o.ci95:.3f} ({o.games} games)"


def goals(outcomes: list[Outcome], args: argparse.Namespace) -> list[Goal]:
    outcomes = [o for o in outcomes if o.level in LEVELS]  # not the trial levels
    run = [name for name in LEVELS if name in args.levels]
    strongest = run[-1] if run else None
    found: list[Goal] = []

    def find(game: str, kind: str, level: str | None = None) -> list[Outcome]:
        return [o for o in outcomes
                if o.game == game and o.kind == kind and (level is None or o.level == level)]

    for game in (g for g in GAMES if g in args.variants):
        if game == "portes":
            got = find("portes", "gnubg", strongest)
            if args.gnubg_ply == 0:
                text = f"portes: strongest level vs gnubg 0-ply >= {GNUBG_GOAL:.2f} ppg"
                found.append(Goal(text, verdict(best_estimate(got[0]) >= GNUBG_GOAL), figure(got[0])) if got
                             else Goal(text, "not measured", ""))
            else:
                text = f"portes: strongest level vs gnubg {args.gnubg_ply}-ply (figure only)"
                found.append(Goal(text, "measured" if got else "not measured", figure(got[0]) if got else ""))
        else:
            text = f"{game}: every level beats the one below, 95% CI clear of zero"
            got = find(game, "below")
            if got:
                failing = [o for o in got if o.clear_of_zero != "above"]
                detail = "; ".join(f"{figure(o)} vs {o.opponent}" for o in (failing or got))
                found.append(Goal(text, verdict(not failing), ("not clear: " if failing else "") + detail))
            else:
                found.append(Goal(text, "not measured", ""))
            wide = args.wide_margin
            text = f"{game}: strongest level beats heuristic by >= {wide:.2f} ppg, CI clear of zero"
            got = find(game, "heuristic", strongest)
            found.append(Goal(text, verdict(best_estimate(got[0]) >= wide and got[0].clear_of_zero == "above"),
                              figure(got[0])) if got else Goal(text, "not measured", ""))
        text = f"{game}: every level beats random play by > {RANDOM_GOAL:.1f} ppg"
        got = find(game, "random")
        if got:
            failing = [o for o in got if not best_estimate(o) > RANDOM_GOAL]
            worst = min(got, key=best_estimate)
            detail = "; ".join(map(figure, failing)) if failing else f"weakest: {figure(worst)}"
            found.append(Goal(text, verdict(not failing), detail))
        else:
            found.append(Goal(text, "not measured", ""))
    return found


# -- output -----------------------------------------------------------------------------------

COLUMNS = ("game", "level", "opponent", "games", "ppg ± 95%", "less luck ± 95%", "win rate", "CI clear of 0", "seconds")
NUMERIC = {"games", "ppg ± 95%", "less luck ± 95%", "win rate", "seconds"}


def finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def pairing_table(outcomes: list[Outcome]) -> Table:
    table = Table(title="Levels against opponents (points per game of the level)")
    for name in COLUMNS:
        table.add_column(name, justify="right" if name in NUMERIC else "left")
    for o in outcomes:
        games = f"{o.games}" + (f" of {o.games_asked}" if o.stopped_early else "")
        adjusted = (f"{o.adjusted_ppg:+.3f} ± {o.adjusted_ci95:.3f}"
                    if o.adjusted_ppg is not None and o.adjusted_ci95 is not None else "")
        table.add_row(o.game, o.level, o.opponent, games, f"{o.ppg:+.3f} ± {o.ci95:.3f}", adjusted,
                      f"{100 * o.win_rate:.1f}%", o.clear_of_zero, f"{o.seconds:.0f}")
    return table




def order_key(o: Outcome) -> tuple[int, int, int]:
    return GAMES.index(o.game), list(ALL_LEVELS).index(o.level), OPPONENTS.index(o.kind)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Strength of the neural levels against random play, the heuristic bot, the level "
                    "below and, in Portes, pubeval and GNU Backgammon.")
    parser.add_argument("--variants", default=",".join(GAMES),
                        type=lambda t: parse_list(t, GAMES, "game"), help="games (default: all three)")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        type=lambda t: parse_list(t, list(ALL_LEVELS), "level"),
                        help=f"levels (default: all the bots'; also {', '.join(TRIAL_LEVELS)}, to try)")
    parser.add_argument("--opponents", default=",".join(OPPONENTS),
                        type=lambda t: parse_list(t, OPPONENTS, "opponent"),
                        help=f"kinds of opponent (default: {','.join(OPPONENTS)})")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"games per pairing (default {DEFAULT_GAMES}); rounded up to whole pairs")
    parser.add_argument("--games-random", type=int, default=DEFAULT_GAMES_RANDOM,
                        help=f"games against random play (default {DEFAULT_GAMES_RANDOM})")
    for kind in ("heuristic", "below", "pubeval", "gnubg"):
        parser.add_argument(f"--games-{kind}", type=int, default=None,
                            help=f"games against {kind} (default: --games)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="stop a pairing after this many seconds (after a whole pair of games)")
    parser.add_argument("--gnubg-ply", type=int, default=0, help="GNU Backgammon's search depth (default 0)")
    parser.add_argument("--wide-margin", type=float, default=0.5,
                        help="ppg the strongest level must beat the heuristic bot by in Plakoto and Fevga "
                             "(default 0.5)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the dice and the bots' noise (default 1)")
    parser.add_argument("--jobs", type=int, default=2, help="pairings (or parts) played at once (default 2)")
    parser.add_argument("--parts", type=int, default=1,
                        help="play each pairing in this many parts with their own dice, side by side (default 1)")
    parser.add_argument("--no-luck", action="store_true",
                        help="do not measure the rolls' luck (no points-less-luck figures)")
    parser.add_argument("--json", metavar="FILE", help="write all figures to FILE as JSON")
    args = parser.parse_args(argv)

    err = Console(stderr=True)
    gnubg_ok = True
    if "portes" in args.variants and "gnubg" in args.opponents:
        try:
            import gnubg  # noqa: F401
        except ImportError:
            gnubg_ok = False
            err.print("[yellow]GNU Backgammon's module is missing (pip install gnubg): "
                      "no gnubg pairings[/yellow]")
    pairings = plan(args, gnubg_ok)
    if not pairings:
        parser.error("nothing to play")
    if args.jobs < 1 or args.parts < 1:
        parser.error("--jobs and --parts must be at least 1")
    parts = {p: split(p, args.parts) for p in pairings}
    err.print(f"{len(pairings)} pairings in {sum(map(len, parts.values()))} parts, {args.jobs} at a time")
    jobs = [(part, args.gnubg_ply) for p in pairings for part in parts[p]]
    outcomes: list[Outcome] = []
    owner = {part: p for p in pairings for part in parts[p]}
    finished: dict[Pairing, list[Part]] = {p: [] for p in pairings}
    started = time.monotonic()

    def done(part: Part) -> None:
        key = owner[part.pairing]
        finished[key].append(part)
        if len(finished[key]) < len(parts[key]):
            return
        o = outcome(finished[key])
        outcomes.append(o)
        less_luck = (f", less luck {o.adjusted_ppg:+.3f} ± {o.adjusted_ci95:.3f}"
                     if o.adjusted_ppg is not None and o.adjusted_ci95 is not None else "")
        err.print(f"[{len(outcomes)}/{len(pairings)}] {o.game} {o.level} vs {o.opponent}: "
                  f"{o.ppg:+.3f} ± {o.ci95:.3f} ppg{less_luck} over {o.games} games in {o.seconds:.0f} s")

    if args.jobs <= 1:
        for job in jobs:
            done(_play_star(job))
    else:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for o in pool.imap_unordered(_play_star, jobs):
                done(o)
    outcomes.sort(key=order_key)
    found = goals(outcomes, args)
    out = Console(width=max(Console().width, 150))
    out.print(pairing_table(outcomes))
    out.print(goal_table(found))
    out.print(f"{time.monotonic() - started:.0f} s in all")
    if args.json:
        settings: dict[str, Any] = {k: v for k, v in vars(args).items() if k != "json"}
        with open(args.json, "w") as f:
            rows = [asdict(o) | {"ci95": finite(o.ci95)}
                    | {"adjusted_ci95": finite(o.adjusted_ci95) if o.adjusted_ci95 is not None else None}
                    for o in outcomes]
            json.dump({"settings": settings, "pairings": rows, "goals": [asdict(g) for g in found]},
                      f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
