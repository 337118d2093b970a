"""Opening tables: every opening roll's plays ranked at 2 plies, the best rolled out.

In Tavli the starter of a game is found by a one-die roll-off and then rolls
both dice (docs/rules.md), so each of the 21 rolls, doubles included, can open
a game. For each game and each roll this module ranks every legal play from the
starting position at 2 plies (``tavli.bots.neural.Evaluator.analyse`` with no
filter), then rolls out the best few (``OpeningSettings.candidates``, and any
within ``OpeningSettings.margin`` of the best, at most ``OpeningSettings.most``)
with ``tavli.bots.rollout``: one level on both sides, the opponent's first two replies
stratified over the 36 throws, each roll's luck subtracted, every play of a roll
on the same dice.

The work is kept in a JSON file (``OpeningTables.to_json``) that holds every
trial's points and luck, saved after each roll: a run stopped at any point is
resumed by running again, and a run asking for more trials extends each
rollout from the trials it has (trial ``t`` always gets the same dice and bot
seed, so 72 trials then 144 give exactly the trials of a run of 144 at once).
Each roll's table keeps the fingerprint of the network that ranked and rolled it
out (``Evaluator.fingerprint``); more trials are added only with the same network.

>>> tables = OpeningTables(OpeningSettings(trials=2))
>>> tables.run(["fevga"], [Dice(6, 6)], workers=1)
True
>>> [(p.play, p.trials) for p in tables.summary("fevga", Dice(6, 6))]
[('24/18', 2)]
"""

from __future__ import annotations

import datetime
import functools
import json
import math
import os
import platform
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import asdict, dataclass
from importlib import resources
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from tavli.bots.duel import interval95
from tavli.bots.levels import LEVELS
from tavli.bots.neural import Evaluator
from tavli.bots.rollout import RolloutSettings, run_chunk
from tavli.dice import Dice
from tavli.errors import DiceError, Reason, TavliError
from tavli.position import LegalPlays, Position
from tavli.study.analysis import Thresholds
from tavli.variants import GAMES

OPENING_ROLLS = tuple(Dice(high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 rolls that can open a game, higher die first (``6-5``, ``3-3``)."""
FORMAT = "tavli-openings"
VERSION = 1


class OpeningsError(TavliError):
    """Opening tables that cannot be made or read (bad settings, a malformed file)."""


@dataclass(frozen=True)
class Judgement:
    """A play of an opening roll as the tables judge it (``OpeningTables.judged``)."""

    loss: float
    """What it gives up against the best play, in points per game (``OpeningTables.losses``)."""
    skill: str
    """``"doubtful"``, ``"error"`` or ``"blunder"`` by the game's ``tavli.study.analysis.THRESHOLDS``;
    ``""`` for a good play, the best one, and the only one."""
    best: bool
    """The best play by the tables."""


@dataclass(frozen=True)
class OpeningSettings:
    """How the tables are made: rollout trials and level, and which plays are rolled out."""

    trials: int = 144
    """Trials per rolled-out play (a multiple of 36 keeps the stratification whole)."""
    level: str = "advanced"
    seed: int = 1
    candidates: int = 3
    """How many of the best plays by 2-ply are rolled out..."""
    margin: float = 0.05
    """...and besides them any within this many points of the best by 2-ply..."""
    most: int = 5
    """...but never more than this many."""

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise OpeningsError("unknown level {level!r}: choose one of {levels}",
                                level=self.level, levels=", ".join(LEVELS))
        if self.trials < 1 or self.candidates < 1 or self.most < self.candidates or self.margin < 0:
            raise OpeningsError("trials and candidates must be at least 1, most at least candidates, "
                                "margin not negative")

    @property
    def rollout(self) -> RolloutSettings:
        return RolloutSettings(trials=self.trials, level=self.level, seed=self.seed, luck=True)


@dataclass(frozen=True)
class PlaySummary:
    """One play of an opening roll: its 2-ply value and, when rolled out, its rollout."""

    play: str
    ply2: float
    """Equity by 2-ply search, points per game for the player."""
    trials: int
    equity: float
    """Rollout value, points per game less luck (``nan`` when not rolled out)."""
    ci95: float
    win: float
    diff: float
    """Rollout value less the best play's (0 for the best)."""
    diff_ci95: float
    """Half-width of the 95% interval of ``diff``, from the paired trials."""

    @property
    def rolled_out(self) -> bool:
        """Whether the play was rolled out (else only its 2-ply value is known)."""
        return self.trials > 0

    @property
    def separated(self) -> bool:
        """Whether the rollout tells this play apart from the best: the interval of the
        difference leaves out 0 (the best itself is not separated from itself)."""
        return self.rolled_out and abs(self.diff) > self.diff_ci95

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready values: ``None`` where there is none (a play not rolled out,
        an interval of one trial).

        >>> PlaySummary("24/13", 0.17, 0, *[math.nan] * 5).to_json()["equity"] is None
        True
        """
        def finite(x: float) -> float | None:
            return x if math.isfinite(x) else None

        return {"play": self.play, "ply2": finite(self.ply2), "trials": self.trials,
                **{k: finite(getattr(self, k)) for k in ("equity", "ci95", "win", "diff", "diff_ci95")},
                "separated": self.separated}


def rank(variant: str, dice: Dice) -> list[tuple[str, float, int]]:
    """Every legal play of ``dice`` from the start of ``variant`` by 2-ply, best first:
    (play, equity, index among the legal plays).

    >>> rank("portes", Dice(3, 1))[0][0]
    '8/5 6/5'
    """
    legal = _legal(variant, dice)
    found = Evaluator.for_variant(variant).analyse(legal, 2, ((len(legal), math.inf),) * 2)
    return [(str(legal[a.index]), a.equity, a.index) for a in found]


def _legal(variant: str, dice: Dice) -> LegalPlays:
    legal = Position.start(variant).legal_plays(dice)
    if len(legal) == 0:
        raise OpeningsError("{dice} cannot be played from the start of {game}", dice=dice, game=variant)
    return legal


def chosen(ranked: Sequence[tuple[str, float, int]], settings: OpeningSettings) -> list[str]:
    """The plays to roll out: the ``candidates`` best and any within ``margin``, at most ``most``."""
    best = ranked[0][1]
    return [p for k, (p, e, _) in enumerate(ranked)
            if k < settings.candidates or best - e <= settings.margin][:settings.most]


Progress = Callable[[str, Dice, float], None]
"""Called after each roll is saved with (game, roll, seconds it took)."""


class OpeningTables:
    """The tables being made: 2-ply ranks and every rollout trial, per game and roll."""

    def __init__(self, settings: OpeningSettings, path: str | Path | None = None) -> None:
        self.settings = settings
        self.path = Path(path) if path is not None else None
        self.games: dict[str, dict[str, dict[str, Any]]] = {}
        self.runs: list[dict[str, Any]] = []

    # -- the file ---------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | Path, settings: OpeningSettings) -> OpeningTables:
        """The tables in ``path`` to resume (new ones when there is no file), run to
        ``settings.trials``; the level and seed must be the file's."""
        p = Path(path)
        if not p.exists():
            return cls(settings, p)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise OpeningsError("{file}: not an openings file ({reason})", file=p, reason=e) from None
        tables = cls.from_json(data, settings, str(p))
        tables.path = p
        return tables

    @classmethod
    def from_json(cls, data: object, settings: OpeningSettings | None = None,
                  where: str = "openings") -> OpeningTables:
        """Tables from ``to_json``'s object, with ``settings`` for more work (default: the file's)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
            raise OpeningsError("{where}: not a {format} file of version {version}",
                                where=where, format=FORMAT, version=VERSION)
        try:
            stored = OpeningSettings(**data["settings"])
            games = data["games"]
            for game, rolls in games.items():
                if game not in GAMES:
                    raise OpeningsError("unknown game {game!r}", game=game)
                for roll, entry in rolls.items():
                    if not isinstance(entry.get("network", ""), str):
                        raise OpeningsError("{game} {roll}: the network must be a fingerprint", game=game, roll=roll)
                    for play, r in entry["rollouts"].items():
                        if len(r["points"]) != len(r["luck"]):
                            raise OpeningsError("{game} {roll} {play}: points and luck differ in length",
                                                game=game, roll=roll, play=play)
                    for row in entry["ranked"]:
                        str(row[0]), float(row[1]), int(row[2])
        except OpeningsError as e:
            raise OpeningsError("{where}: {reason}", where=where, reason=e) from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise OpeningsError("{where}: malformed ({kind}: {reason})", where=where, kind=type(e).__name__,
                                reason=e) from None
        settings = settings or stored
        if (settings.level, settings.seed) != (stored.level, stored.seed):
            raise OpeningsError("{where} was made with level {level} and seed {seed}: more trials must use the same",
                                where=where, level=stored.level, seed=stored.seed)
        tables = cls(settings)
        tables.games = games
        tables.runs = list(data.get("runs", []))
        return tables

    def to_json(self) -> dict[str, Any]:
        """Everything, as one JSON object (the published data)."""
        return {"format": FORMAT, "version": VERSION, "settings": asdict(self.settings),
                "method": {"depth": 2, "luck": True, "stratified": "first two replies over the 36 throws"},
                "runs": self.runs, "games": self.games}

    def save(self) -> None:
        """Write the file (atomically: a stopped run leaves the last whole save)."""
        if self.path is None:
            return
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)

    # -- the work ---------------------------------------------------------------------------------

    def run(self, games: Iterable[str] = GAMES, rolls: Iterable[Dice] = OPENING_ROLLS,
            workers: int | None = None, progress: Progress | None = None, seconds: float | None = None) -> bool:
        """Rank and roll out each roll of each game up to ``settings.trials``, saving after
        each; after ``seconds`` no new roll is begun. Whether every roll was done."""
        games, rolls = list(games), list(rolls)
        for g in games:
            if g not in GAMES:
                raise OpeningsError("unknown game {game!r}: choose from {games}", game=g, games=", ".join(GAMES))
        workers = workers or os.cpu_count() or 1
        started, clock, cpu = _now(), time.monotonic(), _cpu()
        before = self.trials_done()
        pool: Executor | None = (ProcessPoolExecutor(workers, mp_context=get_context("spawn"))
                                 if workers > 1 else None)
        complete = True
        try:
            for g in games:
                for dice in rolls:
                    t = time.monotonic()
                    if seconds is not None and t - clock > seconds:
                        complete = False
                        break
                    if self._roll(g, dice, workers, pool):
                        self.save()
                        if progress is not None:
                            progress(g, dice, time.monotonic() - t)
        finally:
            if pool is not None:
                pool.shutdown()
            self.runs.append({"started": started, "finished": _now(), "trials": self.settings.trials,
                              "games": games, "added_trials": self.trials_done() - before,
                              "seconds": round(time.monotonic() - clock, 1), "cpu_seconds": round(_cpu() - cpu, 1),
                              "networks": {g: Evaluator.for_variant(g).fingerprint for g in games},
                              "workers": workers, "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
                              f"{platform.system()} {platform.release()}, Python {platform.python_version()}"})
            self.save()
        return complete

    def _roll(self, game: str, dice: Dice, workers: int, pool: Executor | None) -> bool:
        """Bring one roll up to the trials asked for; whether anything was done."""
        key = str(dice)
        entry = self.games.setdefault(game, {}).get(key)
        legal = _legal(game, dice)
        network = Evaluator.for_variant(game).fingerprint
        if entry is None:
            ranked = rank(game, dice)
            entry = {"network": network, "ranked": [[p, round(e, 5), i] for p, e, i in ranked], "rollouts": {}}
            for p in chosen(ranked, self.settings):
                entry["rollouts"][p] = {"points": [], "luck": []}
            self.games[game][key] = entry
        index = {str(row[0]): int(row[2]) for row in entry["ranked"]}
        todo = [(p, r) for p, r in entry["rollouts"].items() if len(r["points"]) < self.settings.trials]
        if not todo:
            return False
        if entry.get("network") != network:  # more trials from another network would not be the same rollout
            raise OpeningsError("{game} {dice} was rolled out with network {old}, not the shipped {network}: "
                                "roll {game} out afresh (drop it first)", game=game, dice=dice,
                                old=entry["network"] if "network" in entry else Reason("(unknown)"),
                                network=network)
        settings = self.settings.rollout
        size = max(1, min(36, self.settings.trials // max(1, 4 * workers)))
        jobs = [(p, (legal.after(index[p]), range(s, min(s + size, self.settings.trials)), settings))
                for p, r in todo for s in range(len(r["points"]), self.settings.trials, size)]
        outcomes = (pool.map(run_chunk, [j for _, j in jobs]) if pool is not None
                    else (run_chunk(j) for _, j in jobs))
        for (p, _), found in zip(jobs, outcomes, strict=True):
            r = entry["rollouts"][p]
            # each trial is scored for the opponent, who rolls after the play: turn it round
            r["points"].extend(-points for points, _ in found)
            r["luck"].extend(round(-luck, 6) for _, luck in found)
        return True

    # -- the results ------------------------------------------------------------------------------

    def drop(self, game: str) -> None:
        """Forget ``game``'s tables, to roll it out afresh (with another network, say)."""
        self.games.pop(game, None)

    def rolls(self, game: str) -> list[Dice]:
        """The opening rolls that have a table in ``game``, in ``OPENING_ROLLS`` order."""
        done = self.games.get(game, {})
        return [d for d in OPENING_ROLLS if str(d) in done]

    def mean(self, game: str) -> float | None:
        """The starter's mean points per game after his first roll, his best play of each of the
        36 throws by rollout: the value of starting ``game``. None until every roll has a table."""
        if len(self.rolls(game)) < len(OPENING_ROLLS):
            return None
        total = sum((1 if d.first == d.second else 2) * self.summary(game, d)[0].equity for d in OPENING_ROLLS)
        return total / 36

    def trials_done(self) -> int:
        """All trials in the tables."""
        return sum(len(r["points"]) for rolls in self.games.values() for e in rolls.values()
                   for r in e["rollouts"].values())

    def summary(self, game: str, dice: Dice) -> list[PlaySummary]:
        """The plays of a roll: the rolled-out ones best first by rollout, then the rest by 2-ply."""
        entry = self.games.get(game, {}).get(str(dice))
        if entry is None:
            raise OpeningsError("no table for {game} {dice} yet", game=game, dice=dice)
        ply2 = {str(p): float(e) for p, e, _ in entry["ranked"]}
        values = {p: [float(x) - float(y) for x, y in zip(r["points"], r["luck"], strict=True)]
                  for p, r in entry["rollouts"].items() if r["points"]}
        best = max(values, key=lambda p: sum(values[p]) / len(values[p]), default=None)
        found = []
        for p, v in sorted(values.items(), key=lambda kv: -sum(kv[1]) / len(kv[1])):
            assert best is not None
            n = min(len(v), len(values[best]))
            diffs = [a - b for a, b in zip(v[:n], values[best][:n], strict=True)]
            wins = entry["rollouts"][p]["points"]
            found.append(PlaySummary(p, ply2[p], len(v), sum(v) / len(v), interval95(v),
                                     sum(w > 0 for w in wins) / len(v), sum(diffs) / n,
                                     0.0 if p == best else interval95(diffs)))
        nan = math.nan
        found += [PlaySummary(p, e, 0, nan, nan, nan, nan, nan) for p, e in ply2.items() if p not in values]
        return found

    def losses(self, game: str, dice: Dice) -> dict[str, float]:
        """Every legal play of an opening roll with what it gives up against the best play, in
        points per game (never below 0): the rollout's difference where the play was rolled out (0
        for the best), else the 2-ply search's difference from the best play's 2-ply value.

        >>> losses = shipped().losses("portes", Dice(3, 1))
        >>> losses["8/5 6/5"], len(losses), min(losses.values()) == 0.0
        (0.0, 16, True)
        """
        plays = self.summary(game, dice)
        best = plays[0]
        return {p.play: max(0.0, -p.diff if p.rolled_out else best.ply2 - p.ply2) for p in plays}

    def judged(self, game: str, dice: Dice) -> dict[str, Judgement]:
        """Every legal play of an opening roll judged as the review judges a play: its loss
        (``losses``) and its skill by the game's thresholds.

        >>> judged = shipped().judged("portes", Dice(2, 1))
        >>> judged["24/23 13/11"]
        Judgement(loss=0.0, skill='', best=True)
        >>> judged["24/21"].skill, judged["8/7 8/6"].skill
        ('', 'blunder')
        """
        losses = self.losses(game, dice)
        best = self.summary(game, dice)[0].play
        thresholds = Thresholds.of(game)
        return {p: Judgement(loss, "" if p == best else thresholds.skill(loss), p == best)
                for p, loss in losses.items()}

    def markdown(self, game: str, runners_up: int = 3) -> str:
        """The table of one game, for docs/openings.md."""
        head = ("| roll | best play | rollout | 2-ply | trials | runners-up (difference ± 95%) |\n"
                "|---|---|---|---|---|---|\n")
        rows = []
        for dice in self.rolls(game):
            plays = self.summary(game, dice)
            best = plays[0]
            others = []
            for p in plays[1:1 + runners_up]:
                if p.trials:
                    mark = "" if abs(p.diff) > p.diff_ci95 else " ≈"
                    others.append(f"{p.play} {p.diff:+.3f} ± {p.diff_ci95:.3f}{mark}")
                else:
                    others.append(f"{p.play} (2-ply {p.ply2 - best.ply2:+.3f})")
            if len(plays) == 1:
                others.append("forced")
            elif len(plays) > 1 + runners_up:
                others.append(f"{len(plays) - 1 - runners_up} more")
            rows.append(f"| {dice} | {best.play} | {best.equity:+.3f} ± {best.ci95:.3f} | {best.ply2:+.3f} | "
                        f"{best.trials} | {'; '.join(others)} |")
        mean = self.mean(game)
        foot = (f"\nMean over the 36 throws (the starter's edge after his first roll): {mean:+.3f} points "
                "per game.\n") if mean is not None else ""
        return head + "\n".join(rows) + "\n" + foot

    def runs_markdown(self) -> str:
        """The runs that made the tables: when, to how many trials, how long, on what."""
        head = ("| started | finished | trials asked | games | networks | trials added | wall | CPU | CPU per trial "
                "| machine |\n|---|---|---|---|---|---|---|---|---|---|\n")
        rows = []
        for r in self.runs:
            added = int(r.get("added_trials", 0))
            per = f"{1000 * float(r['cpu_seconds']) / added:.0f} ms" if added else "—"
            rows.append(f"| {r.get('started')} | {r.get('finished')} | {r.get('trials')} | "
                        f"{', '.join(r.get('games', []))} | "
                        f"{', '.join(str(n) for n in r.get('networks', {}).values()) or '—'} | "
                        f"{added} | {float(r.get('seconds', 0)) / 60:.1f} min | "
                        f"{float(r.get('cpu_seconds', 0)) / 60:.1f} min | {per} | "
                        f"{r.get('workers')} process{'' if r.get('workers') == 1 else 'es'}; {r.get('machine')} |")
        return head + "\n".join(rows) + "\n"

    def write_docs(self, path: str | Path, games: Sequence[str] = GAMES) -> None:
        """Put each game's table into ``path`` between ``<!-- openings:GAME -->`` and
        ``<!-- /openings:GAME -->``, and the runs between ``<!-- openings:runs -->`` and
        ``<!-- /openings:runs -->`` where the file has those markers."""
        p = Path(path)
        text = p.read_text(encoding="utf-8")
        for name in [*games, "runs"]:
            start, end = f"<!-- openings:{name} -->", f"<!-- /openings:{name} -->"
            a, b = text.find(start), text.find(end)
            if name == "runs" and a < 0:
                continue
            if a < 0 or b < a:
                raise OpeningsError("{file}: no {start} ... {end} markers", file=p, start=start, end=end)
            body = self.runs_markdown() if name == "runs" else self.markdown(name)
            text = text[:a + len(start)] + "\n" + body + text[b:]
        p.write_text(text, encoding="utf-8")


@functools.cache
def shipped() -> OpeningTables:
    """The opening tables that come with Tavli (``tavli/data/openings.json``, made by
    ``tools/opening_tables.py``; docs/openings.md). One shared object: read it, do not run it.

    >>> tables = shipped()
    >>> best = tables.summary("portes", Dice(3, 1))[0]
    >>> best.play, best.rolled_out
    ('8/5 6/5', True)
    """
    text = (resources.files("tavli") / "data" / "openings.json").read_text(encoding="utf-8")
    return OpeningTables.from_json(json.loads(text), where="tavli/data/openings.json")


def opening_roll(text: str) -> Dice:
    """An opening roll from ``6-5``, ``65`` or ``5-6``, higher die first (as the tables key them).

    >>> opening_roll("1-3")
    Dice(first=3, second=1)
    >>> opening_roll("7-1")
    Traceback (most recent call last):
    ...
    tavli.study.openings.OpeningsError: not a roll: '7-1' (two dice from 1 to 6, like 6-5)
    """
    try:
        dice = Dice.parse(text)
    except DiceError:
        raise OpeningsError("not a roll: {text!r} (two dice from 1 to 6, like 6-5)", text=text) from None
    return Dice(max(dice), min(dice))


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


__all__ = ["GAMES", "OPENING_ROLLS", "OpeningSettings", "OpeningTables", "OpeningsError", "PlaySummary",
           "chosen", "opening_roll", "rank", "shipped"]
