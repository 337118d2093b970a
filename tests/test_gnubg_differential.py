"""Differential test: Portes move generation and Position IDs against GNU Backgammon.

Portes plays by the backgammon rules, so on every position and roll the
legal plays must be exactly those of GNU Backgammon's move generator: the
same number of distinct plays and the same resulting positions. gnubg's
move tuples are applied by a small step applier written here, independent
of the library.

gnubg's Python module cuts a move tuple short at its first bear-off (the
``0`` destination and every later step are dropped). Such a move is
completed here with every way to play the dice left, and the completions
are narrowed by the equity gnubg gives the move, which its ``evaluate``
reproduces for the right result. Each of gnubg's moves must then be matched
to a different one of our plays.

Positions come from random games (fixed seed) and from randomly generated
edge classes: checkers on the bar against closed boards, bear-offs with
gaps, contact in the home board, and rolls of which only one die (or only
part of a double) can be played.

Boards follow gnubg's layout: ``(opponent, player on roll)``, each side 25
counts in its own numbering: index 0..23 = points 1..24, index 24 = bar.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from tavli import ALL_ROLLS, BLACK, WHITE, Color, Dice, Position

gnubg: Any = pytest.importorskip("gnubg")
pytestmark = pytest.mark.gnubg

Side = tuple[int, ...]
Board = tuple[Side, Side]
"""gnubg board: (opponent, player on roll)."""

SEED = 20250611
RANDOM_GAME_CASES = 1900
EDGE_CASES = {"bar_vs_closed": 320, "bearoff_gaps": 320, "home_contact": 320, "one_die": 240}
BAR = 24
CHECKERS = 15
CUBE = gnubg.cubeinfo()
EVAL = gnubg.evalcontext(0, 0, 1, 0, 0.0)
EQUITY_TOLERANCE = 1e-4  # gnubg's move scores and its evaluate() differ by up to 5e-5


# -- boards: conversion and an independent step applier ----------------------

def board_of(pos: Position) -> Board:
    """gnubg board of a Portes position, the side to move on roll."""

    def side(color: Color) -> Side:
        return (*(pos.checkers(color, p) for p in range(1, 25)), pos.on_bar(color))

    return side(pos.turn.other), side(pos.turn)


def position_of(board: Board, turn: Color) -> Position:
    """The Position of a gnubg board; ``turn`` is the colour of the player on roll."""
    opp, me = board
    white, black = (me, opp) if turn == WHITE else (opp, me)

    def layout(side: Side) -> dict[int, int]:
        return {i + 1: n for i, n in enumerate(side) if n}

    return Position.from_checkers("portes", turn, layout(white), layout(black))


def step(me: list[int], opp: list[int], src: int, dst: int) -> None:
    """Move one checker of the player on roll, 1-based (25 = bar, 0 = off); a blot hit goes to the bar."""
    assert me[src - 1] > 0, f"no checker on {src}"
    me[src - 1] -= 1
    if dst == 0:
        return
    theirs = 24 - dst  # my point dst is the opponent's point 25 - dst
    assert opp[theirs] <= 1, f"{dst} is blocked"
    if opp[theirs] == 1:
        opp[theirs] = 0
        opp[BAR] += 1
    me[dst - 1] += 1


def targets(me: Sequence[int], opp: Sequence[int], die: int) -> list[tuple[int, int]]:
    """Single steps (from, to) the player on roll may make with one die, by the backgammon rules."""
    if me[BAR]:
        dst = 25 - die
        return [(25, dst)] if opp[24 - dst] <= 1 else []
    high = max((i + 1 for i in range(24) if me[i]), default=0)
    out = []
    for src in range(high, 0, -1):
        dst = src - die
        if not me[src - 1]:
            continue
        if dst >= 1:
            if opp[24 - dst] <= 1:
                out.append((src, dst))
        elif high <= 6 and (dst == 0 or src == high):
            out.append((src, 0))
    return out


def apply_gnubg_move(board: Board, move: Sequence[int]) -> Board:
    """Play gnubg's ``(from, to, from, to, ...)``; the result has the other side on roll."""
    opp, me = list(board[0]), list(board[1])
    for src, dst in zip(move[::2], move[1::2], strict=True):
        step(me, opp, src, dst)
    return tuple(me), tuple(opp)


def truncated(move: Sequence[int]) -> bool:
    """gnubg's Python module ends a move tuple at its first bear-off, dropping the 0 and what follows."""
    return len(move) % 2 == 1


def completions(board: Board, move: Sequence[int], dice: Dice) -> set[Board]:
    """Every result a truncated move can stand for: its steps, bearing off its last
    checker, then any further steps with the dice left."""
    opp, me = list(board[0]), list(board[1])
    left = list(dice.moves)
    for src, dst in zip(move[:-1:2], move[1::2], strict=True):
        left.remove(src - dst)
        step(me, opp, src, dst)
    out: set[Board] = set()
    for die in set(left):
        if (move[-1], 0) in targets(me, opp, die):
            rest = list(left)
            rest.remove(die)
            extend(me, opp, move[-1], 0, rest, out)
    return out


def extend(me: list[int], opp: list[int], src: int, dst: int, left: list[int], out: set[Board]) -> None:
    me, opp = list(me), list(opp)
    step(me, opp, src, dst)
    out.add((tuple(me), tuple(opp)))
    for die in set(left):
        rest = list(left)
        rest.remove(die)
        for src2, dst2 in targets(me, opp, die):
            extend(me, opp, src2, dst2, rest, out)


def gnubg_moves(board: Board, dice: Dice) -> list[tuple[tuple[int, ...], float]]:
    """gnubg's legal moves with their 0-ply equities, best first."""
    moves = gnubg.findbestmoves(board, CUBE, EVAL, (dice.first, dice.second))
    return [(tuple(m["move"]), m["score"]) for m in moves]


def equity_after(result: Board) -> float:
    """gnubg's 0-ply equity of a result for the player who moved (the score findbestmoves gives)."""
    return -float(gnubg.evaluate(result, CUBE, EVAL)[5])


def gnubg_results(board: Board, dice: Dice) -> list[tuple[tuple[int, ...], set[Board]]]:
    """Each of gnubg's moves with the results it can stand for: the one result of a
    whole move tuple, or for a truncated tuple the completions with gnubg's equity."""
    out = []
    for move, score in gnubg_moves(board, dice):
        if truncated(move):
            out.append((move, {r for r in completions(board, move, dice)
                               if abs(equity_after(r) - score) <= EQUITY_TOLERANCE}))
        else:
            out.append((move, {apply_gnubg_move(board, move)}))
    return out


def matches_one_to_one(options: Sequence[set[Position]]) -> bool:
    """Can each entry be given a different one of its options (bipartite matching)?"""
    owner: dict[Position, int] = {}

    def assign(i: int, seen: set[Position]) -> bool:
        for p in options[i]:
            if p not in seen:
                seen.add(p)
                if p not in owner or assign(owner[p], seen):
                    owner[p] = i
                    return True
        return False

    return all(assign(i, set()) for i in sorted(range(len(options)), key=lambda i: len(options[i])))


# -- random boards for the edge classes -----------------------------------------

def scatter(rng: random.Random, side: list[int], indices: Sequence[int], n: int) -> None:
    """Drop ``n`` checkers on random indices of ``side``."""
    for _ in range(n):
        side[rng.choice(indices)] += 1


def free_for(other: Sequence[int], indices: Sequence[int]) -> list[int]:
    """Indices of one side not occupied by the other side (index i faces 23 - i)."""
    return [i for i in indices if other[23 - i] == 0]


def finish_board(rng: random.Random, opp: list[int], me: list[int], *, opp_off: int, me_off: int) -> Board:
    """Scatter each side's missing checkers (those not borne off) over free points."""
    scatter(rng, opp, free_for(me, range(24)), CHECKERS - sum(opp) - opp_off)
    scatter(rng, me, free_for(opp, range(24)), CHECKERS - sum(me) - me_off)
    return tuple(opp), tuple(me)


def bar_vs_closed(rng: random.Random) -> Board:
    """The mover on the bar; the opponent holds four to six points of his home board."""
    opp, me = [0] * 25, [0] * 25
    for i in rng.sample(range(6), rng.randint(4, 6)):
        opp[i] = 2
    opp[rng.randrange(6)] += 1
    if rng.random() < 0.3:
        opp[BAR] = 1
    me[BAR] = rng.randint(1, 3)
    scatter(rng, me, free_for(opp, range(6, 24)), rng.randint(0, 6))
    return finish_board(rng, opp, me, opp_off=rng.randint(0, 2), me_off=0)


def bearoff_gaps(rng: random.Random) -> Board:
    """The mover bearing off with gaps in his home board; sometimes an opponent blot or anchor there."""
    opp, me = [0] * 25, [0] * 25
    scatter(rng, me, rng.sample(range(6), rng.randint(1, 5)), rng.randint(1, CHECKERS))
    if rng.random() < 0.5:
        scatter(rng, opp, free_for(me, range(18, 24)), rng.randint(1, 3))
        return finish_board(rng, opp, me, opp_off=0, me_off=CHECKERS - sum(me))
    scatter(rng, opp, range(6), rng.randint(1, CHECKERS))  # a pure race
    return tuple(opp), tuple(me)


def home_contact(rng: random.Random) -> Board:
    """The mover bearing in against opposing checkers in his home board."""
    opp, me = [0] * 25, [0] * 25
    for i in rng.sample(range(18, 24), rng.randint(1, 3)):
        opp[i] = rng.choice((1, 1, 2, 3))
    if rng.random() < 0.3:
        opp[BAR] = rng.randint(1, 2)
    scatter(rng, me, free_for(opp, range(6)), rng.randint(5, 11))
    scatter(rng, me, free_for(opp, range(6, 12)), rng.randint(0, 3))
    if rng.random() < 0.2:
        me[BAR] = 1
    return finish_board(rng, opp, me, opp_off=rng.randint(0, 3), me_off=rng.randint(0, 3))


def blocked(rng: random.Random) -> Board:
    """A few checkers of the mover behind a long opposing prime, the rest low in his
    home board (where they cannot move before all are home) or anywhere."""
    opp, me = [0] * 25, [0] * 25
    length = rng.randint(4, 6)
    start = rng.randint(0, 22 - length)  # the prime on my indices start+1 .. start+length
    for i in range(start + 1, start + length + 1):
        opp[23 - i] = 2
    opp[23 - rng.randint(start + 1, start + length)] += 1
    behind = free_for(opp, range(start + length + 1, 24))
    scatter(rng, me, behind or [BAR], rng.randint(1, 3))
    low = free_for(opp, range(min(2, start + 1)))
    if low and rng.random() < 0.5:
        scatter(rng, me, low, CHECKERS - sum(me) - rng.randint(0, 3))
    for i in rng.sample(range(24), 3):  # a few more opposing points
        if me[23 - i] == 0 and opp[i] == 0 and sum(opp) <= 11:
            opp[i] = 2
    return finish_board(rng, opp, me, opp_off=rng.randint(0, 2), me_off=rng.randint(0, 3))


def plays_fewer_dice(board: Board, dice: Dice) -> bool:
    """Can the roll be played, but not in full (one die of two, or part of a double)?"""
    moves = [move for move, _ in gnubg_moves(board, dice)]
    return bool(moves) and all(not truncated(m) and len(m) // 2 < len(dice.moves) for m in moves)


# -- the sample ---------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    kind: str
    position: Position
    dice: Dice


def random_roll(rng: random.Random, k: int, order: Sequence[int]) -> Dice:
    """The k-th roll of a cycle over the 21 rolls, dice in random order."""
    a, b = ALL_ROLLS[order[k % len(order)]]
    return Dice(a, b) if rng.random() < 0.5 else Dice(b, a)


def random_game_positions(rng: random.Random, count: int, every: int = 2) -> list[Position]:
    """Positions of random games from the start, one turn in ``every``."""
    out: list[Position] = []
    while len(out) < count:
        pos = Position.start("portes", rng.choice((WHITE, BLACK)))
        turn = 0
        while pos.result() is None and len(out) < count:
            if turn % every == 0:
                out.append(pos)
            legal = pos.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
            pos = legal.after(rng.randrange(len(legal))) if len(legal) else pos.pass_turn()
            turn += 1
    return out


def edge_cases(rng: random.Random, kind: str, count: int, make: Callable[[random.Random], Board],
               order: Sequence[int], start: int) -> list[Case]:
    out: list[Case] = []
    for k in range(count):
        board = make(rng)
        out.append(Case(kind, position_of(board, rng.choice((WHITE, BLACK))),
                        random_roll(rng, start + k, order)))
    return out


def one_die_cases(rng: random.Random, count: int) -> list[Case]:
    """Blocked positions kept only when the roll cannot be played in full: half of
    them where only one die of two can be played, half with part of a double."""
    out: list[Case] = []
    for _ in range(200 * count):
        if len(out) == count:
            break
        board = blocked(rng)
        a = rng.randint(1, 6)
        dice = Dice(a, a) if len(out) % 2 else Dice(a, rng.choice([b for b in range(1, 7) if b != a]))
        if plays_fewer_dice(board, dice):
            out.append(Case("one_die", position_of(board, rng.choice((WHITE, BLACK))), dice))
    return out


def sample_cases() -> list[Case]:
    rng = random.Random(SEED)
    order = list(range(len(ALL_ROLLS)))
    rng.shuffle(order)
    cases = [Case("random_game", pos, random_roll(rng, k, order))
             for k, pos in enumerate(random_game_positions(rng, RANDOM_GAME_CASES))]
    makers = {"bar_vs_closed": bar_vs_closed, "bearoff_gaps": bearoff_gaps, "home_contact": home_contact}
    for kind, make in makers.items():
        cases += edge_cases(rng, kind, EDGE_CASES[kind], make, order, len(cases))
    cases += one_die_cases(rng, EDGE_CASES["one_die"])
    return cases


# -- the comparison -------------------------------------------------------------

@dataclass
class Report:
    cases: list[Case]
    kinds: Counter[str] = field(default_factory=Counter)
    rolls: Counter[tuple[int, int]] = field(default_factory=Counter)
    plays_compared: int = 0
    gnubg_moves: int = 0
    truncated_moves: int = 0
    no_play_both: int = 0
    no_play_mismatch: list[str] = field(default_factory=list)
    count_mismatch: list[str] = field(default_factory=list)
    result_mismatch: list[str] = field(default_factory=list)
    id_mismatch: list[str] = field(default_factory=list)


def describe(case: Case) -> str:
    return f"[{case.kind}] {case.position.gnubg_id()} ({case.position}) dice {case.dice}"


def check_ids(report: Report, pos: Position, board: Board) -> None:
    """Our Position ID writer and reader against gnubg's, both ways."""
    ours, theirs = pos.gnubg_id(), gnubg.positionid(board)
    if ours != theirs:
        report.id_mismatch.append(f"{pos}: tavli writes {ours}, gnubg {theirs}")
        return
    if Position.from_gnubg_id(theirs, pos.turn) != pos:
        read = Position.from_gnubg_id(theirs, pos.turn)
        report.id_mismatch.append(f"{pos}: tavli reads {theirs} as {read}")
    if tuple(map(tuple, gnubg.positionfromid(ours))) != board:
        report.id_mismatch.append(f"{pos}: gnubg reads {ours} as {gnubg.positionfromid(ours)}")


def compare(report: Report, case: Case) -> None:
    pos, dice = case.position, case.dice
    board = board_of(pos)
    assert position_of(board, pos.turn) == pos, "board conversion round trip"
    check_ids(report, pos, board)
    legal = pos.legal_plays(dice)
    moves = gnubg_results(board, dice)
    theirs = [{position_of(r, pos.turn.other) for r in results} for _, results in moves]
    report.kinds[case.kind] += 1
    report.rolls[(dice.low, dice.high)] += 1
    if not theirs or not len(legal):
        if theirs or len(legal):
            report.no_play_mismatch.append(f"{describe(case)}: gnubg {len(theirs)} plays, tavli {len(legal)}")
        else:
            report.no_play_both += 1
        return
    report.plays_compared += 1
    report.gnubg_moves += len(theirs)
    report.truncated_moves += sum(1 for move, _ in moves if truncated(move))
    if len(legal) != len(theirs):
        report.count_mismatch.append(f"{describe(case)}: gnubg {len(theirs)} plays, tavli {len(legal)}")
    ours = dict(zip(legal.positions(), map(str, legal), strict=True))
    for result in ours:
        if result.gnubg_id() != gnubg.positionid(board_of(result)):
            report.id_mismatch.append(f"{result}: tavli writes {result.gnubg_id()}, "
                                      f"gnubg {gnubg.positionid(board_of(result))}")
    if not matches_one_to_one([options & ours.keys() for options in theirs]):
        every = set().union(*theirs)
        missing = [sorted(map(str, options)) for options in theirs if not options & ours.keys()]
        extra = [play for result, play in ours.items() if result not in every]
        report.result_mismatch.append(f"{describe(case)}: gnubg results tavli lacks {missing}, "
                                      f"tavli plays gnubg lacks {extra}")


def run_comparison() -> Report:
    report = Report(sample_cases())
    for case in report.cases:
        compare(report, case)
    return report


def assert_sample_coverage(report: Report) -> None:
    """Enough of every class, every roll, bear-off moves and positions without a play."""
    assert len(report.cases) >= 2000
    assert report.kinds["random_game"] == RANDOM_GAME_CASES
    for kind, count in EDGE_CASES.items():
        assert report.kinds[kind] == count, f"only {report.kinds[kind]} {kind} positions"
    assert set(report.rolls) == set(ALL_ROLLS)
    assert min(report.rolls.values()) >= 60, report.rolls
    assert sum(n for (a, b), n in report.rolls.items() if a == b) >= len(report.cases) // 7
    assert report.plays_compared >= 1800
    assert report.truncated_moves >= 300, "too few bear-off moves compared"
    assert report.no_play_both >= 50, f"only {report.no_play_both} positions without a play"


# -- the tests ------------------------------------------------------------------

@pytest.mark.slow
def test_portes_matches_gnubg() -> None:
    """One test, so that parallel workers do not each build the sample."""
    report = run_comparison()
    assert_sample_coverage(report)
    differences = {
        "positions where only one side finds no play": report.no_play_mismatch,
        "numbers of plays": report.count_mismatch,
        "resulting positions": report.result_mismatch,
        "Position IDs": report.id_mismatch,
    }
    found = {what: problems for what, problems in differences.items() if problems}
    assert not found, "\n\n".join(
        f"{len(problems)} differences in {what}, first ones:\n" + "\n".join(problems[:10])
        for what, problems in found.items())


def test_starting_position_id() -> None:
    start = Position.start("portes")
    assert gnubg.positionid(board_of(start)) == start.gnubg_id() == "4HPwATDgc/ABMA"
    assert Position.from_gnubg_id("4HPwATDgc/ABMA") == start
    assert gnubg.positionfromid("4HPwATDgc/ABMA") == board_of(start)


def test_step_applier_hits_and_bears_off() -> None:
    """The applier used on gnubg's moves: a blot hit on the way goes to the bar."""
    me = [0] * 25
    me[12], me[2] = 14, 1
    opp = [0] * 25
    opp[24 - 7], opp[0] = 1, 14  # an opposing blot on my 7 point
    board: Board = (tuple(opp), tuple(me))
    (me2, opp2) = apply_gnubg_move(board, (13, 7, 7, 5))
    assert (me2[12], me2[4], opp2[24 - 7], opp2[BAR]) == (13, 1, 0, 1)
    assert {move for move, _ in gnubg_moves(board, Dice(6, 2))} >= {(13, 7, 7, 5), (13, 11, 11, 5)}
