"""Where a network's plays lose against a deeper search, by phase of the game.

    .venv/bin/python benchmarks/strength/phase_loss.py [--variant fevga] [--plies 1] [--deeper 2]
        [--judge network|gnubg] [--decisions 1500] [--seed 1] [NETWORK]

It plays games of the network against itself at ``--plies`` (1: the expert level's search) with
seeded dice, and at every decision with a choice values the best 8 plays again at ``--deeper``
plies: the loss of a decision is the best of those values less the value of the play chosen.
The losses are summed by phase, so that new inputs go where the network misjudges most:

* ``first checker``: Fevga, a side's first checker has not yet passed the other side's start;
* ``all home``: every checker of the side to play is in its home board (or off);
* ``race``: no checker of either side can meet one of the other's again (the networks' race
  input), and not all home;
* ``middle``: the rest.

By default the judge is the same network: its figures are the network's own judgement at two
depths, not the truth, and say where a deeper look changes its mind. A decision whose chosen
play the deeper search's filters dropped (it can happen when ``--plies`` is 0, or ``--deeper`` is
3) is counted apart, as ``not compared``. In Portes ``--judge gnubg`` makes GNU Backgammon the
judge instead (``tavli.bots.gnubg_player``, Portes scoring, at ``--deeper`` plies with its own move
filter; a chosen play the filter drops is valued at that depth on its own), and every decision
is also put to GNU Backgammon at 0 ply, whose losses under the same judge stand beside the
network's as the peer's: where the two differ most is where the other program's network judges
better.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Protocol

from tavli import BLACK, WHITE, Color, Dice, LegalPlays, Position
from tavli.bots import features as N
from tavli.bots.gnubg_player import GnubgPlayer
from tavli.bots.neural import Evaluator
from tavli.errors import TavliError
from tavli.variants import GAMES

DEEPER_FILTERS = ((8, 0.16), (8, 0.16), (8, 0.16))
"""Every ply of the deeper search keeps the best 8 plays, so that the chosen play is among them."""

ERROR = 0.04
"""A loss counted apart as an error (points a game)."""


def phase(position: Position) -> str:
    """The phase of ``position`` for the side to play (see the module's list)."""
    def first_checker_away(color: Color) -> bool:
        return position.borne_off(color) == 0 and min(position.layout(color)) > 11

    if position.variant.name == "fevga" and any(first_checker_away(c) for c in (WHITE, BLACK)):
        return "first checker"
    if max(position.layout(position.turn), default=0) <= 6:
        return "all home"
    if N.is_race(position.state, position.variant.kernel_id):
        return "race"
    return "middle"


PHASES = ("first checker", "middle", "race", "all home")

Losses = dict[str, list[float]]
"""Per phase, each decision's loss (NaN: not compared)."""


class Judge(Protocol):
    """Values a decision's plays at a deeper search; ``loss`` is the best of them less the chosen."""

    def loss(self, legal: LegalPlays, chosen: int) -> float: ...


class NetworkJudge:
    """The network itself at ``depth`` plies, over the best 8 plays of every ply."""

    def __init__(self, evaluator: Evaluator, depth: int) -> None:
        self.evaluator = evaluator
        self.depth = depth

    def loss(self, legal: LegalPlays, chosen: int) -> float:
        values = {a.index: a.equity for a in self.evaluator.analyse(legal, self.depth, DEEPER_FILTERS)
                  if a.depth == self.depth}
        return max(values.values()) - values[chosen] if chosen in values else float("nan")


class GnubgJudge:
    """GNU Backgammon at ``depth`` plies (Portes), its move filter's plays and the chosen one."""

    def __init__(self, depth: int) -> None:
        self.gnubg = GnubgPlayer(depth)

    def loss(self, legal: LegalPlays, chosen: int) -> float:
        values, searched = self.gnubg.search(legal)
        mine = (values[chosen] if chosen in searched
                else self.gnubg.equity(legal.results[chosen], legal.position.variant.params))
        return max(max(values[i] for i in searched), mine) - mine


def measure(evaluator: Evaluator, variant: str, plies: int, deeper: int, decisions: int,
            rng: random.Random, judge: Judge | None = None, peer: GnubgPlayer | None = None) -> tuple[Losses, Losses]:
    """The losses of ``decisions`` decisions with a choice, by phase, judged by ``judge`` (the
    network at ``deeper`` plies by default); and those of ``peer``'s choices, if one is given,
    in the same positions."""
    judge = judge or NetworkJudge(evaluator, deeper)
    losses: Losses = defaultdict(list)
    peer_losses: Losses = defaultdict(list)
    done = 0
    while done < decisions:
        position = Position.start(variant)
        while position.result() is None and done < decisions:
            legal = position.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
            after = legal.positions()
            if not after:
                position = position.pass_turn()
                continue
            if len(after) == 1:
                position = after[0]
                continue
            chosen = evaluator.analyse(legal, plies, DEEPER_FILTERS)[0].index
            losses[phase(position)].append(judge.loss(legal, chosen))
            if peer is not None:
                peer_losses[phase(position)].append(judge.loss(legal, peer.choose(legal)))
            done += 1
            position = after[chosen]
    return losses, peer_losses


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Where a network's plays lose against a deeper search, "
                                                 "by phase of the game.")
    parser.add_argument("network", nargs="?", help="a network file (default: the game's shipped one)")
    parser.add_argument("--variant", choices=GAMES, default="fevga")
    parser.add_argument("--plies", type=int, default=1, help="the search that chooses (default 1: expert)")
    parser.add_argument("--deeper", type=int, default=2, help="the search that judges (default 2)")
    parser.add_argument("--judge", choices=("network", "gnubg"), default="network",
                        help="who values the plays at --deeper plies: the network (default) or, in Portes, "
                             "GNU Backgammon, with its own 0-ply play as the peer")
    parser.add_argument("--decisions", type=int, default=1500, help="decisions with a choice (default 1500)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 0 <= args.plies < args.deeper <= len(DEEPER_FILTERS):
        parser.error(f"need 0 <= --plies < --deeper <= {len(DEEPER_FILTERS)}")
    if args.decisions < 1:
        parser.error("--decisions must be at least 1")
    if args.judge == "gnubg" and args.variant != "portes":
        parser.error("GNU Backgammon judges Portes only")
    try:
        evaluator = Evaluator.from_file(args.network) if args.network else Evaluator.for_variant(args.variant)
        judge, peer = ((GnubgJudge(args.deeper), GnubgPlayer(0)) if args.judge == "gnubg"
                       else (NetworkJudge(evaluator, args.deeper), None))
        started = time.perf_counter()
        losses, peer_losses = measure(evaluator, args.variant, args.plies, args.deeper, args.decisions,
                                      random.Random(args.seed), judge, peer)
    except (TavliError, OSError, ValueError) as e:
        parser.exit(2, f"phase_loss.py: {e}\n")
    total = sum(x for found in losses.values() for x in found if x == x)
    def plies(n: int) -> str:
        return f"{n} ply" if n < 2 else f"{n} plies"

    judged = "" if peer is None else " judged by GNU Backgammon"
    print(f"{args.variant}, {plies(args.plies)} against {plies(args.deeper)}{judged}, "
          f"{args.decisions} decisions with a choice")
    print(f"{'phase':14s} {'decisions':>9s} {'loss':>8s} {'share':>6s} {'a decision':>10s} "
          f"{'errors':>6s} {'not compared':>12s}" + ("" if peer is None else f" {'gnubg 0-ply':>11s}"))
    for name in PHASES[args.variant != "fevga":]:
        found = losses.get(name, [])
        compared = [x for x in found if x == x]
        lost = sum(compared)
        print(f"{name:14s} {len(found):9d} {lost:8.3f} {lost / total if total else 0.0:6.1%} "
              f"{lost / len(compared) if compared else 0.0:10.4f} {sum(x > ERROR for x in compared):6d} "
              f"{len(found) - len(compared):12d}" + ("" if peer is None else f" {sum(peer_losses[name]):11.3f}"))
    print(f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main(sys.argv[1:])
