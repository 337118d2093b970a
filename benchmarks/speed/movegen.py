"""Move generation and random games: tavli against OpenSpiel and bgsage.

    .venv/bin/python benchmarks/speed/movegen.py [--positions N] [--seconds S] [--repeats R] [--seed X]

Measures, in one run so that the ratios share the machine's load:

* legal-play generations per second for Portes, Plakoto and Fevga, through
  ``Position.legal_plays`` and through the compiled kernel's ``generate``,
  over fixed positions from random games, each with a random roll;
* random games per second, through ``tavli.game.Game`` with random choices,
  through ``Position.legal_plays`` and ``after`` alone, and through the
  kernel through ``tavli.bots.playout``;
* on the same Portes positions and rolls: OpenSpiel's backgammon
  ``state.legal_actions()`` and bgsage's ``possible_moves``; and random games
  played by a Python loop over bgsage (the peer of ``playout``) and over
  OpenSpiel.

The Portes positions come from random OpenSpiel games, at the start of each
turn (OpenSpiel plays a double as two half-turns). The play counts of the
peers are checked against ours on that sample. Each figure is the median of
``--repeats`` timings; the contenders take turns within each repetition.
Peers that are not installed are left out (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tavli import BLACK, WHITE, Color, Dice, Position
from tavli import _kernel as K
from tavli.bots.playout import random_playout
from tavli.game import Game
from tavli.variants import GAMES

MIN_PASS_SECONDS = 0.25
MAX_TURNS = 10_000

Task = Callable[[], int]
"""Does some work and says how many units (generations, games) it did."""


def optional_import(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError:
        return None


pyspiel = optional_import("pyspiel")
bgsage = optional_import("bgsage")
bgbot_cpp = optional_import("bgbot_cpp")


# -- samples -----------------------------------------------------------------

@dataclass(frozen=True)
class Sample:
    """Positions with a roll each, and for Portes the same positions for the peers."""

    game: str
    positions: list[Position]
    dice: list[Dice]
    spiel_states: list[Any] = field(default_factory=list)
    sage_boards: list[list[int]] = field(default_factory=list)


def random_roll(rng: random.Random) -> Dice:
    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def tavli_sample(game: str, n: int, rng: random.Random) -> Sample:
    """Turn starts of random games (random plays), each with a random roll."""
    positions: list[Position] = []
    dice: list[Dice] = []
    while len(positions) < n:
        pos = Position.start(game, rng.choice((WHITE, BLACK)))
        while pos.result() is None and len(positions) < n:
            roll = random_roll(rng)
            positions.append(pos)
            dice.append(roll)
            legal = pos.legal_plays(roll)
            pos = legal.after(rng.randrange(len(legal))) if len(legal) else pos.pass_turn()
    return Sample(game, positions, dice)


def spiel_counts(features: Sequence[float]) -> list[int]:
    """Checker counts of 24 points from OpenSpiel's 4-feature encoding (1, 2, 3, more than 3)."""
    counts = []
    for i in range(0, 96, 4):
        one, two, three, more = features[i:i + 4]
        counts.append(1 if one else 2 if two else 3 if three else 3 + int(more) if more else 0)
    return counts


def own_point(player: int, index: int) -> int:
    """OpenSpiel's board index as the player's own point: O moves 23 -> 0, X moves 0 -> 23."""
    return index + 1 if player == 1 else 24 - index


def spiel_position(state: Any) -> tuple[Position, Dice]:
    """Our Position and roll of an OpenSpiel state at the start of a turn (X is White)."""
    player = state.current_player()
    t = state.observation_tensor(player)
    sides = {}
    for who, offset, bar in ((player, 0, 192), (1 - player, 96, 195)):
        layout = {own_point(who, i): n for i, n in enumerate(spiel_counts(t[offset:offset + 96])) if n}
        if t[bar]:
            layout[25] = int(t[bar])
        sides[Color(who)] = layout
    pos = Position.from_checkers("portes", Color(player), sides[WHITE], sides[BLACK])
    return pos, Dice(int(t[198]), int(t[199]))


def sage_board(pos: Position) -> list[int]:
    """bgsage's 26 ints from the mover's view: points 1..24 (+ own, - opponent's checkers),
    25 the mover's bar, 0 the opponent's bar (a positive count)."""
    me, them = pos.turn, pos.turn.other
    board = [0] * 26
    for p in range(1, 25):
        board[p] = pos.checkers(me, p) - pos.checkers(them, 25 - p)
    board[25] = pos.on_bar(me)
    board[0] = pos.on_bar(them)
    return board


def spiel_sample(n: int, rng: random.Random) -> Sample:
    """Turn starts of random OpenSpiel backgammon games, converted to our positions."""
    game = pyspiel.load_game("backgammon")
    positions: list[Position] = []
    dice: list[Dice] = []
    states: list[Any] = []
    while len(positions) < n:
        state = game.new_initial_state()
        rolled = False
        while not state.is_terminal() and len(positions) < n:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                rolled = True
                continue
            if rolled:
                pos, roll = spiel_position(state)
                positions.append(pos)
                dice.append(roll)
                states.append(state.clone())
                rolled = False
            state.apply_action(rng.choice(state.legal_actions()))
    return Sample("portes", positions, dice, states, [sage_board(p) for p in positions])


# -- timing ------------------------------------------------------------------

def median_rates(tasks: dict[str, Task], repeats: int) -> dict[str, float]:
    """Units per second of each task: the median of ``repeats`` runs, the tasks taking turns."""
    rates: dict[str, list[float]] = {name: [] for name in tasks}
    for _ in range(repeats):
        for name, task in tasks.items():
            start = time.perf_counter()
            units = task()
            rates[name].append(units / (time.perf_counter() - start))
    return {name: statistics.median(r) for name, r in rates.items()}


def passes(task: Task) -> Task:
    """Warm the task up (numba compiles or loads on the first call), then repeat it
    enough times per run to take at least MIN_PASS_SECONDS."""
    task()
    start = time.perf_counter()
    task()
    times = math.ceil(MIN_PASS_SECONDS / max(time.perf_counter() - start, 1e-6))

    def repeated() -> int:
        return sum(task() for _ in range(times))

    return repeated


PlayOne = Callable[[], int]
"""Plays one random game from the start and returns its number of turns."""


@dataclass
class GameTimer:
    """Plays whole games for ``seconds`` per run; keeps count of games and turns."""

    play_one: PlayOne
    seconds: float
    games: int = 0
    turns: int = 0

    def __post_init__(self) -> None:
        self.play_one()  # warm up

    def __call__(self) -> int:
        deadline = time.perf_counter() + self.seconds
        games = 0
        while time.perf_counter() < deadline:
            self.turns += self.play_one()
            games += 1
        self.games += games
        return games

    @property
    def turns_per_game(self) -> float:
        return self.turns / max(self.games, 1)


# -- tavli -------------------------------------------------------------------

def api_generation(sample: Sample) -> Task:
    work = list(zip(sample.positions, sample.dice, strict=True))

    def task() -> int:
        for pos, dice in work:
            pos.legal_plays(dice)
        return len(work)

    return task


class Kernel:
    """The compiled kernel called directly, with one workspace grown as needed."""

    def __init__(self) -> None:
        self.ws = K.Workspace()

    def generate(self, state: np.ndarray, d1: int, d2: int, params: int) -> np.ndarray:
        while True:
            rows: np.ndarray = K.generate(state, d1, d2, params, *self.ws.args())
            if self.ws.ints[K.STATUS] != K.OVERFLOW:
                return rows
            self.ws = self.ws.grown()


def kernel_generation(sample: Sample, kernel: Kernel) -> Task:
    params = sample.positions[0].variant.params
    work = [(p.state, d.first, d.second) for p, d in zip(sample.positions, sample.dice, strict=True)]
    for state, d1, d2 in work:
        kernel.generate(state, d1, d2, params)  # grow the workspace once, outside the timing
    args = kernel.ws.args()
    generate = K.generate

    def task() -> int:
        for state, d1, d2 in work:
            generate(state, d1, d2, params, *args)
        return len(work)

    return task


def api_game(game: str, rng: random.Random) -> PlayOne:
    def play() -> int:
        g = Game(game)
        for _ in range(MAX_TURNS):
            if g.is_over:
                break
            dice = random_roll(rng)
            legal = g.legal_plays(dice)
            g.play(dice, legal[rng.randrange(len(legal))] if len(legal) else None)
        return len(g.history)

    return play


def position_game(game: str, rng: random.Random) -> PlayOne:
    """A random game on the lighter public path: ``legal_plays`` and ``after``, no game record."""
    start = Position.start(game)

    def play() -> int:
        pos = start
        for turn in range(1, MAX_TURNS + 1):
            legal = pos.legal_plays(random_roll(rng))
            pos = legal.after(rng.randrange(len(legal))) if len(legal) else pos.pass_turn()
            if pos.result() is not None:
                return turn
        return MAX_TURNS

    return play


def kernel_game(game: str) -> PlayOne:
    """A random game played inside the kernel, through the public ``tavli.bots.playout``."""
    start = Position.start(game)
    return lambda: random_playout(start, MAX_TURNS).turns


# -- peers -------------------------------------------------------------------

def spiel_generation(sample: Sample) -> Task:
    states = sample.spiel_states

    def task() -> int:
        for state in states:
            state.legal_actions()
        return len(states)

    return task


def sage_generation(sample: Sample, possible_moves: Callable[..., Any]) -> Task:
    work = [(b, d.first, d.second) for b, d in zip(sample.sage_boards, sample.dice, strict=True)]

    def task() -> int:
        for board, d1, d2 in work:
            possible_moves(board, d1, d2)
        return len(work)

    return task


def sage_game(rng: random.Random) -> PlayOne:
    possible_moves, game_over, flip = (bgbot_cpp.possible_moves, bgbot_cpp.check_game_over,
                                       bgbot_cpp.flip_board)
    start = list(bgsage.STARTING_BOARD)

    def play() -> int:
        board = start
        for turn in range(1, MAX_TURNS + 1):
            moves = possible_moves(board, rng.randint(1, 6), rng.randint(1, 6))
            board = moves[rng.randrange(len(moves))]  # [board] when the roll cannot be played
            if game_over(board):
                return turn
            board = flip(board)
        return MAX_TURNS

    return play


def spiel_game(rng: random.Random) -> PlayOne:
    game = pyspiel.load_game("backgammon")

    def play() -> int:
        state = game.new_initial_state()
        rolls = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                rolls += 1  # one roll a turn
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
        return rolls

    return play


# -- agreement of play counts ------------------------------------------------

def sage_count(board: list[int], dice: Dice) -> int:
    """bgsage's number of plays; it answers a roll that cannot be played with the board unchanged."""
    moves = bgbot_cpp.possible_moves(board, dice.first, dice.second)
    return 0 if len(moves) == 1 and list(moves[0]) == board else len(moves)


def spiel_key(state: Any) -> tuple[float, ...]:
    t = state.observation_tensor(0)
    return (*t[:192], t[192], t[193], t[195], t[196])


def spiel_count(state: Any) -> int:
    """Distinct results of a turn in OpenSpiel, both half-turns of a double played out."""
    player = state.current_player()
    actions = state.legal_actions()
    if len(actions) == 1 and state.action_to_string(player, actions[0]) == "Pass":
        return 0
    results: set[tuple[float, ...]] = set()
    for action in actions:
        child = state.child(action)
        if not child.is_terminal() and child.current_player() == player:  # the second half of a double
            results.update(spiel_key(child.child(a)) for a in child.legal_actions())
        else:
            results.add(spiel_key(child))
    return len(results)


@dataclass
class Agreement:
    peer: str
    compared: int = 0
    mismatches: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"{self.peer}: {self.compared} positions compared, "
                f"{len(self.mismatches)} play-count mismatches")


def check_counts(sample: Sample) -> list[Agreement]:
    ours = [len(p.legal_plays(d)) for p, d in zip(sample.positions, sample.dice, strict=True)]
    out = []
    if bgbot_cpp is not None:
        sage = Agreement("bgsage (all rolls)")
        for k, (board, dice) in enumerate(zip(sample.sage_boards, sample.dice, strict=True)):
            sage.compared += 1
            if (n := sage_count(board, dice)) != ours[k]:
                sage.mismatches.append(f"{sample.positions[k]} {dice}: bgsage {n}, tavli {ours[k]}")
        out.append(sage)
    if sample.spiel_states:
        plain = Agreement("OpenSpiel (non-doubles)")
        doubles = Agreement("OpenSpiel (doubles, both half-turns)")
        for k, (state, dice) in enumerate(zip(sample.spiel_states, sample.dice, strict=True)):
            check = doubles if dice.is_double else plain
            check.compared += 1
            if (n := spiel_count(state)) != ours[k]:
                check.mismatches.append(f"{sample.positions[k]} {dice}: OpenSpiel {n}, tavli {ours[k]}")
        out += [plain, doubles]
    return out


# -- report ------------------------------------------------------------------

def rate_text(rate: float) -> str:
    return f"{rate:>12,.0f}/s" if rate >= 100 else f"{rate:>12,.1f}/s"


def print_table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    print(f"\n{title}")
    line = "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths,
                                                                                           strict=True)))
    print(line)
    print("-" * len(line))
    for row in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths,
                                                                                           strict=True))))


@dataclass
class Results:
    samples: dict[str, Sample]
    generation: dict[str, float]
    """Generations per second by contender."""
    games: dict[str, float]
    """Random games per second by contender."""
    turns: dict[str, float]
    """Mean turns per random game by contender."""


def run(args: argparse.Namespace) -> Results:
    rng = random.Random(args.seed)
    K.seed_random(args.seed)
    samples = {g: tavli_sample(g, args.positions, rng) for g in GAMES}
    if pyspiel is not None:
        samples["portes"] = spiel_sample(args.positions, rng)
    elif bgbot_cpp is not None:
        ours = samples["portes"]
        samples["portes"] = Sample("portes", ours.positions, ours.dice,
                                   sage_boards=[sage_board(p) for p in ours.positions])
    portes = samples["portes"]
    kernel = Kernel()

    generation: dict[str, Task] = {}
    for g, sample in samples.items():
        generation[f"{g} api"] = passes(api_generation(sample))
        generation[f"{g} kernel"] = passes(kernel_generation(sample, kernel))
    if pyspiel is not None:
        generation["OpenSpiel legal_actions"] = passes(spiel_generation(portes))
    if bgbot_cpp is not None:
        generation["bgsage.possible_moves"] = passes(sage_generation(portes, bgsage.possible_moves))
        generation["bgbot_cpp.possible_moves"] = passes(sage_generation(portes, bgbot_cpp.possible_moves))

    games: dict[str, GameTimer] = {}
    for g in GAMES:
        games[f"{g} api"] = GameTimer(api_game(g, rng), args.seconds)
        games[f"{g} position"] = GameTimer(position_game(g, rng), args.seconds)
        games[f"{g} kernel"] = GameTimer(kernel_game(g), args.seconds)
    if bgbot_cpp is not None:
        games["bgsage loop"] = GameTimer(sage_game(rng), args.seconds)
    if pyspiel is not None:
        games["OpenSpiel loop"] = GameTimer(spiel_game(rng), args.seconds)

    return Results(samples, median_rates(generation, args.repeats), median_rates(dict(games), args.repeats),
                   {name: timer.turns_per_game for name, timer in games.items()})


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}"


def report(args: argparse.Namespace, res: Results) -> None:
    gen, games, turns = res.generation, res.games, res.turns
    portes = res.samples["portes"]
    print(f"tavli move generation benchmark: {args.positions} positions per game, median of "
          f"{args.repeats} timings, random games timed {args.seconds} s each")
    source = "random OpenSpiel games" if portes.spiel_states else "random tavli games"
    print(f"Portes positions from {source}; Plakoto and Fevga positions from random tavli games")

    rows = []
    for g in GAMES:
        s = res.samples[g]
        plays = statistics.mean(len(p.legal_plays(d)) for p, d in zip(s.positions, s.dice, strict=True))
        rows.append([g, rate_text(gen[f"{g} api"]), rate_text(gen[f"{g} kernel"]),
                     ratio(gen[f"{g} api"], gen["portes api"]),
                     ratio(gen[f"{g} kernel"], gen["portes kernel"]), f"{plays:.1f}"])
    print_table("(a) legal-play generations per second (one position and roll each)",
                ["game", "Position.legal_plays", "kernel generate", "api / Portes", "kernel / Portes",
                 "plays/roll"], rows)

    peers = [p for p in ("OpenSpiel legal_actions", "bgsage.possible_moves", "bgbot_cpp.possible_moves")
             if p in gen]
    if peers:
        print_table("(c) Portes peers on the same positions and rolls (ratio > 1: tavli is faster)",
                    ["peer", "peer rate", "tavli api / peer", "tavli kernel / peer"],
                    [[p, rate_text(gen[p]), ratio(gen["portes api"], gen[p]),
                      ratio(gen["portes kernel"], gen[p])] for p in peers])
        print("   OpenSpiel generates only the first half-turn of a double in legal_actions().")
        print("   bgsage.possible_moves wraps bgbot_cpp.possible_moves (its C++ core) in Python lists.")

    rows = [[g, rate_text(games[f"{g} api"]), rate_text(games[f"{g} position"]),
             rate_text(games[f"{g} kernel"]), ratio(games[f"{g} api"], games["portes api"]),
             ratio(games[f"{g} kernel"], games["portes kernel"]),
             f"{turns[f'{g} kernel']:.0f}"] for g in GAMES]
    print_table("(b) random games per second (from the start to the end)",
                ["game", "Game API", "Position API", "kernel playout", "api / Portes", "kernel / Portes",
                 "turns/game"], rows)
    print("   Game API: Game.legal_plays, Game.play (checked, recorded). Position API: legal_plays, after.")
    game_peers = [p for p in ("bgsage loop", "OpenSpiel loop") if p in games]
    if game_peers:
        print_table("(c) Portes random-game peers (Python loops; ratio > 1: tavli is faster)",
                    ["peer", "peer rate", "Game API / peer", "Position API / peer", "kernel playout / peer",
                     "turns/game"],
                    [[p, rate_text(games[p]), ratio(games["portes api"], games[p]),
                      ratio(games["portes position"], games[p]), ratio(games["portes kernel"], games[p]),
                      f"{turns[p]:.0f}"] for p in game_peers])
        print("   bgsage loop: bgbot_cpp.possible_moves, random choice, check_game_over, flip_board.")
        print("   OpenSpiel loop: chance outcomes sampled, random legal action, apply_action.")

    print("\nplay counts against the peers on the Portes sample:")
    for agreement in check_counts(portes):
        print("  " + agreement.line())
        for text in agreement.mismatches[:5]:
            print("    " + text)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=2000, help="positions (with a roll) per game")
    ap.add_argument("--seconds", type=float, default=0.5, help="seconds of random games per timing")
    ap.add_argument("--repeats", type=int, default=5, help="timings per figure (the median is shown)")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args(argv)
    report(args, run(args))


if __name__ == "__main__":
    main()
