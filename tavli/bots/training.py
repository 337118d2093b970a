"""Self-play training of a game's network by temporal-difference learning.

Worker threads play greedy 0-ply games against themselves in the compiled
kernel (``tavli.bots.td.train_games``) and move one shared network after
every turn (TD(0), or TD(λ) with ``td_lambda``; lock-free updates). The main thread shows progress, saves
checkpoints and, every so often, measures strength: the network at 0-ply
against the heuristic bot of ``tavli.bots.basic`` and, less the rolls' luck, against
fixed references (``measure_yardstick``: the shipped network, GNU Backgammon).
A checkpoint holds everything needed to resume, and is itself a network file
``tavli.bots.neural`` can load.

>>> config = TrainConfig(variant="fevga", games=200, threads=1, eval_every=0)
>>> config.alpha_at(0), config.alpha_at(10**9) == config.alpha_min
(0.1, True)
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import zipfile
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from tavli import _kernel as K
from tavli.bots import bearoff
from tavli.bots.features import INPUT_GROUP_ENDS, N_INPUTS
from tavli.bots.network import N_HIDDEN, Network, grown, new_network, widened
from tavli.bots.td import train_games
from tavli.errors import TavliError
from tavli.position import Position
from tavli.variants import make_variant

if TYPE_CHECKING:
    from types import FrameType

    from rich.progress import ProgressColumn

    from tavli.bots.neural import NeuralBot

CHUNK = 100  # games per call into the kernel
SAVE_SECONDS = 600.0  # a checkpoint at least this often, however slow the games


@dataclass
class TrainConfig:
    """What to train and how; stored in every checkpoint."""

    variant: str = "portes"
    games: int = 100_000
    """Train until this many games in total (counting those before a resume)."""
    hidden: int = N_HIDDEN
    inputs: int = 0
    """The inputs the network reads: 0 for all of its game's, or fewer, where one of the game's
    groups of inputs ends (``tavli.bots.features.INPUT_GROUP_ENDS``), to leave out the last groups."""
    alpha: float = 0.1
    alpha_min: float = 0.02
    half_life: int = 300_000
    """Games over which the learning rate halves, down to ``alpha_min``."""
    explore: float = 0.0
    """Chance that a self-play turn plays a random legal play (the value learned stays the best play's)."""
    lookahead: int = 0
    """1: learn each position's 1-ply value (all 21 rolls) instead of the value after the roll
    played (``tavli.bots.td.train_games``), about twenty times slower a game; 2: its 2-ply
    value, about twenty times slower again."""
    td_lambda: float = 0.0
    """TD(λ)'s trace decay: each turn's error also moves the positions before it in the game,
    by this factor less a turn further back; 0 is TD(0)."""
    threads: int = 0
    """Worker threads; 0 = one per core."""
    checkpoint_every: int = 10_000
    eval_every: int = 20_000
    eval_games: int = 400
    yardstick_games: int = 200
    """Games against each fixed reference (the shipped network, GNU Backgammon) at each
    measurement; 0 measures against the heuristic bot only."""
    seed: int = 1

    def input_count(self) -> int:
        """How many inputs the network reads.

        >>> TrainConfig(variant="fevga").input_count(), TrainConfig(variant="fevga", inputs=253).input_count()
        (273, 253)
        """
        kernel_id = make_variant(self.variant).kernel_id
        ends = INPUT_GROUP_ENDS[kernel_id]
        if self.inputs and self.inputs not in ends:
            raise TavliError(f"{self.inputs} inputs is not where one of {self.variant}'s input groups ends: a "
                             f"network reads {', '.join(map(str, ends))}, not {self.inputs}")
        return self.inputs or N_INPUTS[kernel_id]

    def alpha_at(self, games: int) -> float:
        return max(self.alpha_min, self.alpha * 0.5 ** (games / self.half_life))  # type: ignore[no-any-return]


@dataclass
class TrainState:
    """A network and how far its training has come."""

    config: TrainConfig
    network: Network
    games: int = 0
    turns: int = 0
    seconds: float = 0.0
    log: list[dict[str, float]] = field(default_factory=list)

    def save(self, path: Path) -> None:
        """Write atomically, so an interrupted save never destroys the last checkpoint."""
        v = make_variant(self.config.variant)
        meta = {"variant": str(v), "kernel_id": v.kernel_id, "games": self.games, "turns": self.turns,
                "seconds": round(self.seconds, 1), "config": asdict(self.config), "log": self.log,
                "inputs": int(self.network[0].shape[0]), "hidden": int(self.network[1].shape[0])}
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        w1, b1, w2, b2 = (a.copy() for a in self.network)
        with open(tmp, "wb") as f:
            np.savez_compressed(f, w1=w1, b1=b1, w2=w2, b2=b2, meta=np.array(json.dumps(meta)))
        os.replace(tmp, path)

    def widen(self, hidden: int) -> None:
        """Grow the network to ``hidden`` hidden units without changing its judgement.

        The new units start with random input weights and no weight to the
        outputs, so the network values every position exactly as before and
        training goes on from there with more capacity.

        >>> state = new_state(TrainConfig(variant="fevga", hidden=4))
        >>> state.widen(6)
        >>> state.network[0].shape[1], state.config.hidden
        (6, 6)
        """
        try:
            self.network = widened(self.network, hidden, self.config.seed + self.games)
        except ValueError as e:
            raise TavliError(str(e)) from None
        self.config.hidden = hidden

    def read_more(self, inputs: int) -> None:
        """Let the network read its first ``inputs`` inputs (0: all of its game's) without changing
        its judgement: the new inputs' weights start at zero.

        >>> state = new_state(TrainConfig(variant="fevga", hidden=4, inputs=253))
        >>> state.read_more(0)
        >>> state.network[0].shape, state.config.inputs
        ((273, 4), 0)
        """
        config = TrainConfig(**{**asdict(self.config), "inputs": inputs})
        n_in = config.input_count()
        if n_in < self.network[0].shape[0]:
            raise TavliError(f"the network reads {self.network[0].shape[0]} inputs; it can read more, not "
                             f"{n_in}")
        w1, b1, w2, b2 = self.network
        self.network = (grown(w1, n_in, 0), b1, w2, b2)
        self.config = config

    @classmethod
    def load(cls, path: Path) -> TrainState:
        """Read a checkpoint (or a shipped network file).

        A game's inputs are only ever added at the end of its list, so a network
        from before an addition gets silent rows for the new inputs: it plays as
        before, and training teaches it to use them.
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                w1, b1, w2, b2 = (np.ascontiguousarray(data[k], dtype=np.float32)
                                  for k in ("w1", "b1", "w2", "b2"))
            config = TrainConfig(**meta["config"])
            n_in = config.input_count()
        except (OSError, EOFError, KeyError, ValueError, TypeError, zipfile.BadZipFile, zlib.error) as e:
            raise TavliError(f"cannot resume from {path}: {e}") from None
        hidden = b1.shape[0] if b1.ndim == 1 else -1
        if (w1.ndim != 2 or w1.shape[1] != hidden or w1.shape[0] > n_in or w2.shape != (3, hidden)
                or b2.shape != (3,)):
            raise TavliError(f"cannot resume from {path}: its arrays are not a {config.variant} network "
                             f"({n_in} inputs)")
        return cls(config, (grown(w1, n_in, 0), b1, w2, b2), int(meta["games"]), int(meta["turns"]),
                   float(meta["seconds"]), list(meta["log"]))


def new_state(config: TrainConfig) -> TrainState:
    v = make_variant(config.variant)
    return TrainState(config, new_network(v.kernel_id, config.hidden, config.seed, config.input_count()))


def _candidate(state: TrainState) -> NeuralBot:
    """The network being trained, as a bot at 0-ply (the advanced level), on a copy of its weights."""
    from tavli.bots.neural import Evaluator, NeuralBot

    v = make_variant(state.config.variant)
    w1, b1, w2, b2 = (a.copy() for a in state.network)
    ev = Evaluator(v.kernel_id, (w1, b1, w2, b2), {"variant": str(v)})
    return NeuralBot("advanced", evaluators={v.kernel_id: ev})


def measure(state: TrainState, games: int, seed: int) -> tuple[float, float]:
    """Points per game of the network at 0-ply against the heuristic bot, with the 95% half-width."""
    from tavli.bots.basic import HeuristicBot
    from tavli.bots.duel import duel

    result = duel(make_variant(state.config.variant), _candidate(state), HeuristicBot(), games, seed=seed)
    return result.ppg, result.ci95


YARDSTICKS = ("shipped", "gnubg")
"""The fixed references of ``measure_yardstick``, as named in the log."""


def measure_yardstick(state: TrainState, games: int, seed: int) -> dict[str, float]:
    """Points per game less luck (``tavli.bots.duel``) of the network at 0-ply against fixed references,
    each with the 95% half-width (``NAME_ci95``): ``shipped``, the game's shipped network at the
    same depth, and for Portes ``gnubg``, GNU Backgammon at 0-ply (left out when its module cannot
    be imported: ``tavli.bots.gnubg_player.available``). The luck is valued by the shipped network, and
    with the same ``seed`` every measurement replays the same dice.

    >>> figures = measure_yardstick(new_state(TrainConfig(variant="fevga", hidden=4)), games=2, seed=1)
    >>> sorted(figures), figures["shipped"] < 0
    (['shipped', 'shipped_ci95'], True)
    """
    from tavli.bots import gnubg_player
    from tavli.bots.basic import Player
    from tavli.bots.duel import duel
    from tavli.bots.neural import Evaluator, NeuralBot

    v = make_variant(state.config.variant)
    references: dict[str, Player] = {"shipped": NeuralBot("advanced")}
    if v.name == "portes" and gnubg_player.available():
        references["gnubg"] = gnubg_player.GnubgPlayer(0)
    candidate = _candidate(state)
    luck = Evaluator.for_variant(v.name).luck
    figures: dict[str, float] = {}
    for name, reference in references.items():
        result = duel(v, candidate, reference, games, seed=seed, luck=luck)
        figures[name] = round(result.adjusted_ppg, 4)
        figures[f"{name}_ci95"] = round(result.adjusted_ci95, 4)
    return figures


class Trainer:
    """Runs training threads on one ``TrainState``; ``run`` returns when done or stopped."""

    def __init__(self, state: TrainState, checkpoint: Path) -> None:
        self.state = state
        self.checkpoint = checkpoint
        self.variant = make_variant(state.config.variant)
        self.start = Position.start(self.variant).state
        self.race = bearoff.load()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._errors: list[BaseException] = []
        self.aborted = 0
        """Games cut short (a workspace overflow or an endless game), not counted."""

    def _worker(self, index: int) -> None:
        cfg = self.state.config
        ws = K.Workspace(nodes=1 << 15, plays=1 << 13).args()
        # each ply of lookahead costs about twenty times more a game: fewer games a call keep a
        # call about as long, so that a stop or a checkpoint does not wait on a long one
        chunk_games = max(1, CHUNK // 20 ** cfg.lookahead)
        chunk = 0
        try:
            while not self._stop.is_set():
                with self._lock:
                    if self.state.games >= cfg.games:
                        return
                    games = self.state.games
                seed = (cfg.seed * 7919 + games * 31 + index * 1_000_003 + chunk) % (2**31)
                stats = train_games(chunk_games, self.start, self.variant.params, self.state.network,
                                      self.race, ws, cfg.alpha_at(games), seed, 5000, cfg.explore,
                                      cfg.lookahead, cfg.td_lambda)
                chunk += 1
                with self._lock:
                    self.state.games += int(stats[0])
                    self.state.turns += int(stats[1])
                    self.aborted += int(stats[3])
        except BaseException as e:  # surfaced by run()
            self._errors.append(e)
            self._stop.set()

    def run(self, progress: bool = True) -> TrainState:
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

        cfg = self.state.config
        n_threads = cfg.threads or os.cpu_count() or 1
        threads = [threading.Thread(target=self._worker, args=(i,), daemon=True) for i in range(n_threads)]
        next_save = self.state.games + cfg.checkpoint_every
        if cfg.eval_every and not self.state.log:
            self._measure()  # the untrained network's strength comes first
        next_eval = (self.state.games // cfg.eval_every + 1) * cfg.eval_every if cfg.eval_every else None
        columns: tuple[ProgressColumn, ...] = (
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]:.0f} games/s  {task.fields[note]}"), TimeRemainingColumn())
        # Ctrl-C or a polite kill saves a checkpoint and stops, even in the background
        # (where a shell starts the job with SIGINT ignored)
        handlers: dict[signal.Signals, signal._HANDLER] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                handlers[sig] = signal.signal(sig, self._on_signal)
        try:
            return self._run(threads, next_save, next_eval, columns, progress)
        finally:
            for sig, handler in handlers.items():
                signal.signal(sig, handler)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self._stop.set()

    def _run(self, threads: list[threading.Thread], next_save: int, next_eval: int | None,
             columns: tuple[ProgressColumn, ...], progress: bool) -> TrainState:
        from rich.progress import Progress

        cfg = self.state.config
        clock = time.monotonic()
        base_seconds = self.state.seconds
        rate_mark = (clock, self.state.games)
        saved_at = clock
        rate = 0.0
        with Progress(*columns, disable=not progress, transient=False) as bar:
            task = bar.add_task(f"training {self.variant.name}", total=cfg.games,
                                completed=self.state.games, rate=0.0, note=self._note())
            for t in threads:
                t.start()
            try:
                while any(t.is_alive() for t in threads) and not self._stop.is_set():
                    time.sleep(0.5)
                    now = time.monotonic()
                    self.state.seconds = base_seconds + now - clock
                    if now - rate_mark[0] >= 5.0:
                        rate = (self.state.games - rate_mark[1]) / (now - rate_mark[0])
                        rate_mark = (now, self.state.games)
                    bar.update(task, completed=self.state.games, rate=rate, note=self._note())
                    if next_eval is not None and self.state.games >= next_eval:
                        self._measure()
                        next_eval = (self.state.games // cfg.eval_every + 1) * cfg.eval_every
                    if self.state.games >= next_save or now - saved_at >= SAVE_SECONDS:
                        self.state.save(self.checkpoint)
                        next_save = self.state.games + cfg.checkpoint_every
                        saved_at = now
            except KeyboardInterrupt:
                self._stop.set()
            finally:
                self._stop.set()
                for t in threads:
                    t.join()
                self.state.seconds = base_seconds + time.monotonic() - clock
                self.state.save(self.checkpoint)
        if self._errors:
            raise self._errors[0]
        return self.state

    def _note(self) -> str:
        if not self.state.log:
            return ""
        last = self.state.log[-1]
        return "  ".join([f"vs heuristic {last['ppg']:+.2f}",
                          *(f"vs {name} {last[name]:+.3f}" for name in YARDSTICKS if name in last)])

    def _measure(self) -> None:
        cfg = self.state.config
        games = self.state.games
        ppg, ci = measure(self.state, cfg.eval_games, seed=games)
        entry = {"games": games, "seconds": round(self.state.seconds, 1), "ppg": round(ppg, 4),
                 "ci95": round(ci, 4)}
        if cfg.yardstick_games:
            entry.update(measure_yardstick(self.state, cfg.yardstick_games, seed=cfg.seed))
            entry["yardstick_games"] = cfg.yardstick_games
        self.state.log.append(entry)
        self.state.save(self.checkpoint)


PANELS = (
    ("ppg", "vs the heuristic bot", "points per game"),
    ("shipped", "vs the shipped network (same depth)", "points per game less luck"),
    ("gnubg", "vs GNU Backgammon 0-ply (Portes)", "points per game less luck"),
)


COLORS = {"portes": "C0", "plakoto": "C1", "fevga": "C2"}
"""Each game keeps its colour in every panel."""


def plot(states: dict[str, TrainState], path: Path) -> None:
    """Draw strength against games trained, one line per game, in one panel per yardstick
    that any of the logs measured (needs matplotlib)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [p for p in PANELS if any(p[0] in e for state in states.values() for e in state.log)]
    panels = panels or list(PANELS[:1])
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4), dpi=110, squeeze=False)
    for ax, (key, title, unit) in zip(axes[0], panels, strict=True):
        for name, state in states.items():
            entries = [e for e in state.log if key in e]
            if not entries:
                continue
            ci_key = "ci95" if key == "ppg" else f"{key}_ci95"
            games = [e["games"] for e in entries]
            ppg = [e[key] for e in entries]
            ci = [e[ci_key] if np.isfinite(e.get(ci_key, np.inf)) else 0.0 for e in entries]
            ax.errorbar(games, ppg, yerr=ci, label=name, marker="o", markersize=3, capsize=2,
                        color=COLORS.get(name))
        ax.axhline(0.0, color="grey", linewidth=0.8)
        ax.set_xlabel("self-play games trained")
        ax.set_ylabel(unit)
        ax.set_title(title, fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle("Tavli networks at 0-ply: strength over training")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
