"""Two engine programs against each other over Tavli's engine protocol, in any game.

    .venv/bin/python benchmarks/strength/engine_duel.py [--variant fevga] [--games 50] [--seed 1]
        [--a "CMD"] [--a-set "level beginner"]... [--b "CMD"] [--b-set "level expert"]...
        [--no-luck] [--progress N]

Each side is a program started with its command line (``--a``, ``--b``;
``tavli engine --protocol tavli`` by default) and spoken to only through the
protocol of docs/engine.md: ``set`` lines first (``--a-set``, ``--b-set``,
repeatable; ``set variant`` is sent for you), then ``position`` and ``play``
for every choice. Any program that speaks the protocol can take a side, so
this measures our bots against another program in Plakoto and Fevga the way
the arena does in Portes. An answer that is not a legal play stops the run
with the reason.

The games are ``tavli.bots.duel``'s: pairs that replay the same dice with the
seats swapped, the first mover alternating. Unless ``--no-luck``, every
roll's luck is measured by the shipped network at 0-ply (in this process,
not by either engine), and points less luck give the same points per game
with a narrower interval.

Prints A's points per game with the 95% half-width (each mirrored pair one
sample), the same less luck, games won, turns and the seconds taken.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path

from tavli.bots.duel import DuelResult, duel
from tavli.bots.neural import Evaluator
from tavli.engines.tavli_protocol import EngineClient, EngineProtocolError
from tavli.variants import make_variant


def default_command() -> str:
    script = Path(sys.executable).parent / "tavli"
    return f"{script} engine --protocol tavli" if script.is_file() else \
        f"{sys.executable} -c 'from tavli.cli import main; main()' engine --protocol tavli"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="fevga", help="the game, with house rules (default fevga)")
    parser.add_argument("--games", type=int, default=50, help="games, in mirrored pairs (default 50)")
    parser.add_argument("--seed", type=int, default=1, help="the dice's seed (default 1)")
    parser.add_argument("--a", default=default_command(), help="first program's command line")
    parser.add_argument("--b", default=default_command(), help="second program's command line")
    parser.add_argument("--a-set", action="append", default=[], metavar="NAME VALUE",
                        help="a set line for the first program, like 'level beginner' (repeatable)")
    parser.add_argument("--b-set", action="append", default=[], metavar="NAME VALUE")
    parser.add_argument("--no-luck", action="store_true", help="do not measure the rolls' luck")
    parser.add_argument("--progress", type=int, default=0, metavar="N", help="a line every N games")
    args = parser.parse_args()
    try:
        variant = make_variant(args.variant)
    except ValueError as e:
        parser.error(str(e))
    if args.games < 2:
        parser.error("play 2 games or more (one mirrored pair)")

    def setup(lines: list[str]) -> list[str]:
        return [f"set variant {variant}", *(f"set {line}" for line in lines)]

    def on_game(result: DuelResult) -> None:
        if args.progress and result.games % args.progress == 0:
            print(f"  {result.games} games: {result}", flush=True)

    name_a = " ".join(args.a_set) or "A"
    name_b = " ".join(args.b_set) or "B"
    luck = None if args.no_luck else Evaluator.for_variant(variant).luck
    started = time.perf_counter()
    try:
        with EngineClient(shlex.split(args.a), setup(args.a_set), name=f"A ({name_a})") as a, \
                EngineClient(shlex.split(args.b), setup(args.b_set), name=f"B ({name_b})") as b:
            result = duel(variant, a, b, args.games, seed=args.seed, on_game=on_game, luck=luck)
    except EngineProtocolError as e:
        sys.exit(f"stopped: {e}")
    seconds = time.perf_counter() - started
    print(f"{variant}: A ({name_a}) against B ({name_b}), {result.games} games, dice seed {args.seed}")
    print(f"  A scores {result.ppg:+.3f} ± {result.ci95:.3f} ppg, {result.wins} games won")
    if result.luck:
        print(f"  less luck {result.adjusted_ppg:+.3f} ± {result.adjusted_ci95:.3f} ppg "
              f"(luck weight {result.luck_weight:.2f})")
    print(f"  {result.turns} turns in {seconds:.0f} s ({1000 * seconds / max(result.turns, 1):.1f} ms a turn, "
          "both programs and the luck included)")


if __name__ == "__main__":
    main()
