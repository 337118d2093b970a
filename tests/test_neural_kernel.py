"""The compiled network code: inputs, the forward pass, 0/1/2-ply search and TD training.

Every check here follows from the definitions (the input layout, the search rules) or uses
networks built by hand or at random, so none depends on the shipped weights.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavli import BLACK, WHITE, Dice, Position
from tavli import _kernel as K
from tavli.bots import RandomBot, bearoff, features, network, search, td
from tavli.dice import ALL_ROLLS
from tavli.position import generate_rows
from tavli.variants import GAMES, Plakoto

# The input layout (see tavli.bots.features.encode).
MINE, THEIRS = 0, 96  # four units per point, the mover's points 1..24
BAR_MINE, BAR_THEIRS, OFF_MINE, OFF_THEIRS, PIPS_MINE, PIPS_THEIRS, BLOCK_MINE, BLOCK_THEIRS = range(192, 200)
EXTRA = 200  # the game's own inputs
PLAKOTO = 209  # Plakoto: pins, mothers, then escapes and containment at PLAKOTO + 52
PORTES = 209  # Portes: escapes and containment, then each side's shots, contact and anchors
CONTACT = 213  # Portes: eight per side, the mover's first (``features.contact_game_inputs``)
CONTACT_SCALE = [36, 36 * 12, 100, 100, 25, 24, 24, 36]  # rolls, pips lost, pips, pips, points, rolls
MOBILITY = 213  # Fevga: per side and die, [no checker can move it, points that can / 4]
TIMING = 237  # Fevga: per side, the mover's first, [spare pips / 100, spares / 15, stuck / 540]
PRIMES = 243  # Fevga: per side, the mover's first, [length / 6, held / 15, front / 24, time ahead, behind]
HOLDS = 253  # Fevga: per side, [rolls past the longest block / 36, second block's length / 6, held / 15, front / 24]
LEAD = 261  # Fevga: per side, [first checker's pips to pass / 13, rolls that pass / 36, pips lost / roll's]
BREAKS = 267  # Fevga: per side, [rolls the spares cannot play whole / 36, their pips unplayed, pips lost]

Values = tuple[float, float, float]


def encoded(pos: Position) -> np.ndarray:
    x = np.full(features.N_INPUTS[pos.variant.kernel_id], 7.0, np.float32)  # encode must clear it
    features.encode(pos.state.copy(), pos.variant.kernel_id, x)
    return x


def units(n: int) -> list[float]:
    """The four units of a point holding ``n`` checkers of one side."""
    return [float(n >= 1), float(n >= 2), float(n >= 3), max(n - 3, 0) / 2.0]


def expected_base(game: str, mine: dict[int, int], theirs: dict[int, int], common: list[float],
                  extra: list[float]) -> np.ndarray:
    """The whole input vector: ``mine``/``theirs`` by the mover's point numbers."""
    x = np.zeros(features.N_INPUTS[{"portes": 0, "plakoto": 1, "fevga": 2}[game]], np.float32)
    for p, n in mine.items():
        x[MINE + 4 * (p - 1):MINE + 4 * p] = units(n)
    for p, n in theirs.items():
        x[THEIRS + 4 * (p - 1):THEIRS + 4 * p] = units(n)
    x[BAR_MINE:EXTRA] = common
    x[EXTRA:EXTRA + len(extra)] = extra
    return x


def movers(s: np.ndarray, mine: bool, variant: int) -> list[int]:
    """``features.movers``: the points of a side that can move each die, 1 to 6."""
    n = np.zeros(6, np.int64)
    features.movers(s, mine, variant, n)
    return [int(v) for v in n]


def random_network(variant: int, hidden: int = 12, scale: float = 0.5, seed: int = 0) -> network.Network:
    rng = np.random.default_rng(seed)
    n_in = features.N_INPUTS[variant]
    return (rng.normal(0, scale, (n_in, hidden)).astype(np.float32),
            rng.normal(0, scale, hidden).astype(np.float32),
            rng.normal(0, scale, (3, hidden)).astype(np.float32),
            rng.normal(0, scale, 3).astype(np.float32))


def no_race() -> network.Tables:
    """Empty bear-off tables: the network answers everywhere."""
    empty = np.zeros((1, bearoff.MAX_ROLLS), np.float32)
    empty.flags.writeable = False
    return empty, empty


@functools.cache
def race() -> network.Tables:
    return bearoff.load()


class Buffers:
    def __init__(self, net: network.Network) -> None:
        self.x = np.zeros(net[0].shape[0], np.float32)
        self.h = np.zeros(net[1].shape[0], np.float32)
        self.out = np.zeros(3, np.float64)
        self.ws = K.Workspace().args()


def positions_along_games(game: str, seed: int, games: int = 2, turns: int = 60) -> Iterator[Position]:
    rng = random.Random(seed)
    bot = RandomBot(seed)
    for _ in range(games):
        pos = Position.start(game)
        for _ in range(turns):
            if pos.result() is not None:
                break
            yield pos
            legal = pos.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
            pos = legal.after(bot.choose(legal)) if len(legal) else pos.pass_turn()


# -- inputs: Portes ------------------------------------------------------------

def test_portes_start_inputs() -> None:
    x = encoded(Position.start("portes"))
    expected = expected_base("portes", {24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5},
                             [0, 0, 0, 0, 1.67, 1.67, 1 / 6, 1 / 6],
                             [0, 0, 0, 0, 1 / 6, 1 / 6, 0, 0, 0, 24 / 36, 24 / 36, 14 / 36, 14 / 36]
                             + 2 * [0, 0, 1.67, 0, 24 / 25, 1, 13 / 24, 0])
    np.testing.assert_allclose(x, expected, rtol=0, atol=1e-6)
    assert x[MINE + 4 * 5:MINE + 4 * 6].tolist() == [1, 1, 1, 1]  # five on the 6 point: (5-3)/2
    assert x[MINE + 4 * 23:MINE + 4 * 24].tolist() == [1, 1, 0, 0]


def test_inputs_are_the_same_for_either_colour_to_move() -> None:
    white = Position.start("portes", WHITE)
    black = Position.start("portes", BLACK)
    np.testing.assert_array_equal(encoded(white), encoded(black))


def test_portes_blot_three_away() -> None:
    # White's blot on 10, Black's fifteen on White's 7 (their 18): three pips behind it
    pos = Position.from_checkers("portes", WHITE, {10: 1, 6: 14}, {18: 15})
    x = encoded(pos)
    # shots at distance 3: the eleven rolls with a 3, 2-1 twice, 1-1 once
    expected = expected_base("portes", {10: 1, 6: 14}, {7: 15},
                             [0, 0, 0, 0, 0.94, 2.70, 1 / 6, 1 / 6],
                             [1 / 4, 0, 0, 0, 1 / 6, 0, 0, 14 / 36, 0, 33 / 36, 1, 5 / 36, 5 / 36,
                              # White has 4 pips to get past Black and 84 past him already; Black
                              # hits with the same 14 rolls, each costing White 15 pips (his 10 is
                              # Black's 15), and must play 3 pips from each of 15 checkers
                              0, 0, 0.04, 0.84, 10 / 25, 0, 0, 0,
                              14 / 36, 14 * 15 / 432, 0.60, 0, 18 / 25, 18 / 24, 18 / 24, 0])
    np.testing.assert_allclose(x, expected, rtol=0, atol=1e-6)
    assert x[MINE + 4 * 5 + 3] == 5.5  # fourteen on the 6 point


def test_portes_indirect_blot_and_combination_shots() -> None:
    # nine pips away: only 6-3, 5-4 and 3-3 hit (5 rolls); an indirect shot
    pos = Position.from_checkers("portes", WHITE, {16: 1, 6: 14}, {18: 15})
    x = encoded(pos)
    assert x[EXTRA:EXTRA + 4].tolist() == [0, 0.25, 0, 0]
    assert x[EXTRA + 7] == pytest.approx(5 / 36)
    assert x[EXTRA + 6] == 0


def test_portes_their_blot_in_reach_of_mine() -> None:
    # Black's blot on White's 9 (their 16), White's checkers four pips above it
    pos = Position.from_checkers("portes", WHITE, {13: 15}, {16: 1, 1: 14})
    x = encoded(pos)
    assert x[EXTRA:EXTRA + 4].tolist() == [0, 0, 0.25, 0]
    assert x[EXTRA + 6] == pytest.approx(15 / 36)  # the eleven 4s, 3-1 twice, 2-2, 1-1
    assert x[EXTRA + 7] == 0
    assert x[EXTRA + 8] == 0


def test_portes_a_checker_on_the_bar_and_borne_off() -> None:
    pos = Position.from_checkers("portes", WHITE, {25: 1, 6: 10}, {25: 2, 1: 3})
    x = encoded(pos)
    assert x[BAR_MINE] == 0.5 and x[BAR_THEIRS] == 1.0
    assert x[OFF_MINE] == pytest.approx(4 / 15) and x[OFF_THEIRS] == pytest.approx(10 / 15)
    assert x[PIPS_MINE] == pytest.approx((25 + 60) / 100)
    assert x[PIPS_THEIRS] == pytest.approx((50 + 3) / 100)


def test_longest_block() -> None:
    prime = {p: 2 for p in range(1, 7)} | {13: 3}
    x = encoded(Position.from_checkers("portes", WHITE, prime, {1: 15}))
    assert x[BLOCK_MINE] == 1.0
    assert x[BLOCK_THEIRS] == pytest.approx(1 / 6)
    assert x[EXTRA + 4] == 1.0  # six home points
    broken = {p: 2 for p in (1, 2, 4, 5, 6)} | {13: 5}
    x = encoded(Position.from_checkers("portes", WHITE, broken, {1: 15}))
    assert x[BLOCK_MINE] == pytest.approx(3 / 6)


@pytest.mark.parametrize(("mine", "theirs", "race_flag"), [
    ({10: 15}, {10: 15}, 1.0),  # Black on White's 15, all of White below it
    ({16: 15}, {10: 15}, 0.0),  # White's 16 still has to pass Black's checkers on 15
    ({6: 15}, {6: 15}, 1.0),
    ({6: 14, 20: 1}, {6: 15}, 0.0),
])
def test_portes_race_flag(mine: dict[int, int], theirs: dict[int, int], race_flag: float) -> None:
    x = encoded(Position.from_checkers("portes", WHITE, mine, theirs))
    assert x[EXTRA + 8] == race_flag


def test_race_flag_with_a_checker_on_the_bar() -> None:
    pos = Position.from_checkers("portes", WHITE, {1: 15}, {25: 1, 6: 14})
    assert encoded(pos)[EXTRA + 8] == 0.0  # his checker enters in White's home: contact


def test_escape_table() -> None:
    assert features.ESCAPES[0] == 36  # nothing in front
    assert features.ESCAPES[0b111111] == 0  # six points straight in front: no roll moves at all
    assert features.ESCAPES[0b111111 << 6] == 15  # a prime from 7 to 12 away: the rolls summing to 6 or less
    assert features.ESCAPES[0b100] == 33  # a point 3 away: 2-1 lands on it, 3-3 cannot leave


def test_portes_escapes_and_containment() -> None:
    # Black's prime on White's 13..18 and three on White's 23; White's last checker on 24 gets
    # past them with the rolls summing to 2..5 but 1-1 (9 of 36); Black's last checkers run
    # free; White's six-point holds Black's back checkers a little (5 rolls of 36 are stopped),
    # and the prime holds White's on 19 completely
    prime = {p: 2 for p in range(7, 13)} | {2: 3}
    x = encoded(Position.from_checkers("portes", WHITE, {24: 1, 6: 14}, prime))
    assert (x[PORTES:PORTES + 4] * 36).round().tolist() == [9, 36, 5, 36]
    y = encoded(Position.from_checkers("portes", BLACK, {24: 1, 6: 14}, prime))
    assert (y[PORTES:PORTES + 4] * 36).round().tolist() == [36, 9, 36, 5]  # the mover's view
    z = encoded(Position.from_checkers("portes", WHITE, {25: 1, 6: 14}, prime))
    # from the bar the prime is 7..12 away and Black's point 2 away: the rolls summing to
    # 3..6 but 2-2 (13 of 36) get past
    assert z[PORTES] == pytest.approx(13 / 36)


def contact_inputs(pos: Position) -> list[list[float]]:
    """The mover's and the other side's eight contact inputs, in rolls, pips and points."""
    x = encoded(pos)[CONTACT:CONTACT + 16]
    return [(x[8 * side:8 * side + 8] * CONTACT_SCALE).round(2).tolist() for side in range(2)]


def test_portes_points_of_two_stop_combination_shots() -> None:
    # Black's fifteen on White's 1, White's blot nine pips above them on 10: of the rolls summing
    # to 9, 6-3 and 3-3 must touch White's points 4 or 7, so only 5-4 hits (2 rolls of 36, not
    # the 5 the shots input counts), costing White 15 pips each (his 10 is Black's 15)
    pos = Position.from_checkers("portes", WHITE, {10: 1, 7: 2, 4: 2, 6: 10}, {24: 15})
    assert encoded(pos)[EXTRA + 7] == pytest.approx(5 / 36)
    assert contact_inputs(pos)[1][:2] == [2, 30]


@pytest.mark.parametrize(("bar", "rolls", "enter_fails"), [
    (2, 2, 1),  # both dice enter: only 3-3 (two steps left) and 5-5 (from the bar, 20/15/10) hit
    (1, 10, 1),  # one die enters, not a 1: 3-2, 3-4, 3-5, 3-6 twice each, 3-3 and 5-5
])
def test_portes_shots_from_the_bar(bar: int, rolls: int, enter_fails: int) -> None:
    # White has checkers on the bar and on 13; Black's blot is on White's 10 and his point on
    # White's 24 stops a 1 from entering
    pos = Position.from_checkers("portes", WHITE, {25: bar, 13: 15 - bar}, {15: 1, 1: 14})
    mine = contact_inputs(pos)[0]
    assert mine[:2] == [rolls, 10 * rolls]
    assert mine[4:] == [25, 13, 13, enter_fails]


@pytest.mark.slow
def test_portes_shots_agree_with_the_legal_plays() -> None:
    # every roll with a legal play that hits is counted, at least as far back as that play
    # hits; the rules' forced plays (not looked at) make the two differ now and then
    own, other = np.zeros(26, np.int64), np.zeros(26, np.int64)
    their_own, their_other = np.zeros(26, np.int64), np.zeros(26, np.int64)
    best = np.zeros(36, np.int64)
    rolls = differ = 0
    for seed in range(6):
        for pos in positions_along_games("portes", seed):
            # the other side's view is the mover's of the position turned over
            features.side_frame(pos.state, False, their_own, their_other)
            features.side_frame(K.flip(pos.state.copy(), pos.variant.params), True, own, other)
            assert own.tolist() == their_own.tolist() and other.tolist() == their_other.tolist()
            features.side_frame(pos.state, True, own, other)
            features.roll_hits(own, other, best)
            for d1 in range(1, 7):
                for d2 in range(d1, 7):
                    hits = [step.dst for play in pos.legal_plays(Dice(d1, d2)) for step in play.steps
                            if step.hit]
                    farthest = int(best[features.roll_index(d1, d2)])
                    assert farthest >= max(hits, default=0), (str(pos), d1, d2)
                    rolls += 1
                    differ += farthest != max(hits, default=0)
    assert rolls > 4000 and differ / rolls < 0.005


def test_movers_from_the_bar() -> None:
    # Black holds his 1..5 (White's 24..20): White, on the bar, can use only a 6, and then
    # only the one checker entering. Black's home checkers move within his board, not off (his
    # 13 is not home), and his 13 every number but the 1 (White's 13, his 12, is held)
    black = {p: 2 for p in range(1, 6)} | {13: 5}
    s = Position.from_checkers("portes", WHITE, {25: 1, 13: 14}, black).state
    assert movers(s, True, K.PORTES) == [0, 0, 0, 0, 0, 1]
    assert movers(s, False, K.PORTES) == [4, 4, 3, 2, 1, 1]


# -- inputs: Plakoto -----------------------------------------------------------

def test_plakoto_start_inputs() -> None:
    x = encoded(Position.start("plakoto"))
    expected = expected_base("plakoto", {24: 15}, {1: 15}, [0, 0, 0, 0, 3.6, 3.6, 1 / 6, 1 / 6],
                             [0, 0, 0, 0, 0, 0, 0, 0, 0])
    expected[PLAKOTO + 48:PLAKOTO + 52] = [0, 0, 1, 1]
    expected[PLAKOTO + 52:PLAKOTO + 56] = [1, 1, 0, 0]  # both run free; nothing contains
    np.testing.assert_allclose(x, expected, rtol=0, atol=1e-6)
    assert len(x) == 265


def test_plakoto_pins() -> None:
    # White pins a Black checker on White's 20 with one checker; Black pins White's on 3
    pos = Position.from_checkers("plakoto", WHITE, {24: 11, 21: 2, 20: 1, 3: 1},
                                 {24: 13, 5: 1, 22: 1}, pinned={20: BLACK, 3: WHITE})
    x = encoded(pos)
    expected = expected_base("plakoto", {24: 11, 21: 2, 20: 1, 3: 1}, {1: 13, 20: 1, 3: 1},
                             # the pinning checker on 20 holds the point: 20-21 is a block of 2
                             [0, 0, 0, 0, 3.29, 3.39, 2 / 6, 1 / 6],
                             # pinned checkers are no blots
                             [0, 0, 0, 0, 0, 0, 0, 0, 0])
    expected[PLAKOTO + 3 - 1] = 1.0  # my checker pinned on 3
    expected[PLAKOTO + 24 + 20 - 1] = 1.0  # theirs pinned on 20
    expected[PLAKOTO + 48:PLAKOTO + 52] = [0, 0, 11 / 15, 13 / 15]
    # escapes: nothing stands in front of either rearmost free checker; containment: White's
    # 20 (held by its pin) and 21 stop 5 of 36 rolls from Black's 10, Black's pin on 3 stops
    # 6-6 from White's 15
    expected[PLAKOTO + 52:PLAKOTO + 56] = [1, 1, 5 / 36, 1 / 36]
    np.testing.assert_allclose(x, expected, rtol=0, atol=1e-6)


def test_plakoto_mother_pinned() -> None:
    pos = Position.from_checkers("plakoto", WHITE, {24: 1, 12: 14}, {1: 1, 24: 14}, pinned={24: WHITE})
    assert pos.result() is None
    x = encoded(pos)
    assert x[PLAKOTO + 23] == 1.0
    assert x[PLAKOTO + 48:PLAKOTO + 52].tolist() == pytest.approx([1, 0, 1 / 15, 14 / 15])
    # seen by Black: the same facts from the other side
    y = encoded(pos.pass_turn())
    assert y[PLAKOTO + 24 + 1 - 1] == 1.0
    assert y[PLAKOTO + 48:PLAKOTO + 52].tolist() == pytest.approx([0, 1, 14 / 15, 1 / 15])


def test_plakoto_escapes_count_a_pinning_checker_as_a_block() -> None:
    # Black holds White's 18..22 and pins a White checker on 23 with a lone checker: a full
    # prime in front of White's free checker on 24, which no roll passes
    black = {2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 24: 4}
    pos = Position.from_checkers("plakoto", WHITE, {24: 1, 23: 1, 6: 13}, black, pinned={23: WHITE})
    x = encoded(pos)
    assert x[PLAKOTO + 52] == 0.0
    assert x[PLAKOTO + 55] == 1.0  # Black's points contain White's back area completely
    # the same lone Black checker, pinning nothing, is no block: 5 points, and the rolls that
    # jump them get out
    free = Position.from_checkers("plakoto", WHITE, {24: 1, 6: 14}, black)
    assert 0 < encoded(free)[PLAKOTO + 52] * 36 < 36


def test_plakoto_free_blot_in_reach() -> None:
    # White's lone checker on 10, Black's checkers on White's 1 (their 24): nine behind it
    pos = Position.from_checkers("plakoto", WHITE, {10: 1, 24: 14}, {24: 15})
    x = encoded(pos)
    assert x[EXTRA:EXTRA + 4].tolist() == [0, 0.25, 0, 0]
    assert x[EXTRA + 7] == pytest.approx(5 / 36)


# -- inputs: Fevga -------------------------------------------------------------

def test_fevga_start_inputs() -> None:
    x = encoded(Position.start("fevga"))
    expected = expected_base("fevga", {24: 15}, {12: 15}, [0, 0, 0, 0, 3.6, 3.6, 1 / 6, 1 / 6],
                             [1, 1, 1, 1, 0, 0, 0, 0, 0])
    # escapes: each side's start point stands 12 in front of the other's, stopping 6-6;
    # containment: from 6 points away it stops the 5 rolls summing to 6, and 6-6
    expected[EXTRA + 9:EXTRA + 13] = [35 / 36, 35 / 36, 6 / 36, 6 / 36]
    # mobility: each side's start point can move every number, and nothing else can
    expected[MOBILITY:MOBILITY + 24] = [0, 1 / 4] * 12
    # timing: nothing blocks yet, so all 15 are spares, 23 pips each; 6-6 stops each of them
    expected[TIMING:TIMING + 6] = [15 * 23 / 100, 1, 15 / 540] * 2
    # primes: each start point is a block of one, on the other side's 12, with all 15 of his
    # behind it; 14 spares of 23 pips can wait against his 15 checkers' 11 pips each up to it
    expected[PRIMES:PRIMES + 10] = [1 / 6, 1, 12 / 24, (14 * 23 - 15 * 11) / 200, 0] * 2
    # only 5-5 carries a checker from the start past the other's start point, 12 pips on (4-4
    # and 6-6 land on it, 3-3 stops on it); no side has a second block
    expected[HOLDS:HOLDS + 8] = [1 / 36, 0, 0, 0] * 2
    # each first checker has 13 pips to go past the other's start, which only 5-5 does; every
    # other roll but 3-3, 4-4 and 6-6 is played whole (nothing else is in the way), and those
    # stop on the other's start point after 3, 2 and 1 steps of their 4
    expected[LEAD:LEAD + 6] = [1, 1 / 36, (1 / 4 + 2 / 4 + 3 / 4) / 36] * 2
    # the same three rolls are all that each first checker, the only one that may move, cannot
    # play whole; the start point blocks nothing, so it is a spare
    expected[BREAKS:BREAKS + 6] = [3 / 36, (1 / 4 + 2 / 4 + 3 / 4) / 36, (1 / 4 + 2 / 4 + 3 / 4) / 36] * 2
    np.testing.assert_allclose(x, expected, rtol=0, atol=1e-6)
    assert len(x) == 273


def test_fevga_escapes_around_the_board() -> None:
    # One checker holds a point: Black's single checkers on White's 18..23 (his own 6..11)
    # stand straight in front of White's last checker, on 24, which no roll moves past, and
    # nothing leaves White's back area. Black's last checkers, on his own 13 (White's 1), have
    # White's 24 (his own 12) right in front of them: only 1-1 is stopped.
    black = {6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 13: 9}
    x = encoded(Position.from_checkers("fevga", WHITE, {24: 1, 3: 14}, black))
    assert x[EXTRA + 9] == 0.0
    assert x[EXTRA + 10] == pytest.approx(35 / 36)
    assert x[EXTRA + 12] == 1.0
    # White's last checker is stuck; those on 3 can step to 2, not to 1 (Black's 13) nor off
    # (not all home): White has only the 1. Black moves every number from five points or more.
    mobility = x[MOBILITY:MOBILITY + 24].tolist()
    assert mobility[:12] == [0, 1 / 4] + [1, 0] * 5
    assert mobility[12:] == [0, 1] * 6


def test_fevga_timing_counts_spares_beyond_the_blocks() -> None:
    # The position above. White's 24 stands within six points in front of Black's checkers on
    # White's 1 (his 13), so its one checker holds a block and is no spare; the 14 on 3 block
    # nothing: 14 spares, 2 pips each. White's 24 is stuck (no roll passes Black's six points)
    # and those on 3 lose 1-1 and 2-2 to Black's point in front: 36 + 14 * 2 rolls of 36 lost.
    # Black's single checkers on his 6..11 each stand in front of White's 24 and his 13 in
    # front of White's 3: his spares are the 8 beyond the first on 13, 12 pips each; only 1-1
    # stops them (White's 24 right in front).
    black = {6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 13: 9}
    x = encoded(Position.from_checkers("fevga", WHITE, {24: 1, 3: 14}, black))
    assert x[TIMING:TIMING + 6].tolist() == pytest.approx(
        [28 / 100, 14 / 15, 64 / 540, 96 / 100, 8 / 15, 9 / 540])
    # the same position with the other side to move swaps the sides' inputs
    y = encoded(Position.from_checkers("fevga", BLACK, {24: 1, 3: 14}, black))
    assert y[TIMING:TIMING + 6].tolist() == pytest.approx(x[TIMING + 3:TIMING + 6].tolist()
                                                          + x[TIMING:TIMING + 3].tolist())


def test_fevga_primes_measure_the_longest_block_with_checkers_behind_it() -> None:
    # The position above, by Black's path: White's 3 (Black's 15) has nothing of Black's
    # behind it; White's 24 (Black's 12) has his 9 on 13. White's 14 on 3 can play 28 pips
    # and the one on 24 none, against Black's 45 in front (his 6..11) and 0 behind (his 13 is
    # next to it). By White's path, Black's six single checkers hold White's 18..23 in front of
    # White's last checker, on 24; Black's 1 (his 13) has 15 behind it but is shorter. Black's
    # 9 on his 13 can play 12 pips each; the six in the block none. White plays 2 pips each
    # with his 14 on 3, and the one on 24 cannot move up to the block.
    black = {6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 13: 9}
    x = encoded(Position.from_checkers("fevga", WHITE, {24: 1, 3: 14}, black))
    assert x[PRIMES:PRIMES + 10].tolist() == pytest.approx(
        [1 / 6, 9 / 15, 12 / 24, 0, (45 - 28) / 200, 1, 1 / 15, 18 / 24, (9 * 12 - 28) / 200, 0])
    y = encoded(Position.from_checkers("fevga", BLACK, {24: 1, 3: 14}, black))
    assert y[PRIMES:PRIMES + 10].tolist() == pytest.approx(x[PRIMES + 5:PRIMES + 10].tolist()
                                                           + x[PRIMES:PRIMES + 5].tolist())
    # once White's last checker has passed it, the six points hold nothing back: Black's
    # prime is his point on White's 1, with all 15 behind it; his 8 spares there play 12 pips
    # each and his six singles 5..10, against White's 3 pips (from 5 up to 2)
    passed = encoded(Position.from_checkers("fevga", WHITE, {5: 1, 2: 14}, black))
    assert passed[PRIMES + 5:PRIMES + 10].tolist() == pytest.approx(
        [1 / 6, 1, 1 / 24, (8 * 12 + 45 - 3) / 200, 0])
    # with no checker of the other side behind any of its points, a side has no prime
    race = encoded(Position.from_checkers("fevga", WHITE, {5: 1, 2: 14}, {6: 1, 7: 14}))
    assert race[PRIMES + 5:PRIMES + 10].tolist() == [0] * 5
    assert race[HOLDS:HOLDS + 8].tolist() == [0] * 8


def test_fevga_holds_count_the_rolls_past_the_longest_block_and_the_second_block() -> None:
    # White holds his 22..24 (Black's 10..12) in front of Black's checker on his 14, and his
    # 16 (Black's 4) in front of all Black's 15. The longest block is the three points: the
    # checker on 14 passes them (lands on 9 or below) leaving with a 1 (to 13) then 4 or more,
    # or with a 5 or a 6 at once: 20 non-double rolls, and 5-5 and 6-6 (1-1 to 4-4 stop on the
    # block): 22. The second is the point on Black's 4, holding all 15.
    # Black's longest block is his single checker on 14 (White's 2), with all White's 15
    # behind it: only 5-5 takes one past it, from White's 16 to his 1 (6-6 and 4-4 run past
    # the end, and White's three on 22..24 stop on Black's 5, White's 17, or fall short). His
    # second is White's 17, holding the three on 22..24.
    white = {24: 1, 23: 1, 22: 1, 16: 12}
    black = {14: 1, 5: 14}
    x = encoded(Position.from_checkers("fevga", WHITE, white, black))
    assert x[PRIMES:PRIMES + 3].tolist() == pytest.approx([3 / 6, 1 / 15, 10 / 24])
    assert x[HOLDS:HOLDS + 8].tolist() == pytest.approx(
        [22 / 36, 1 / 6, 15 / 15, 4 / 24, 1 / 36, 1 / 6, 3 / 15, 17 / 24])
    # the same position with Black to move swaps the sides' inputs
    y = encoded(Position.from_checkers("fevga", BLACK, white, black))
    assert y[HOLDS:HOLDS + 8].tolist() == pytest.approx(x[HOLDS + 4:HOLDS + 8].tolist() + x[HOLDS:HOLDS + 4].tolist())
    # behind a block of five (Black's 8..12) the checker on 14 gets past only with 1 then 6
    # (to 13, then 7); every other first step, and every double, stops on the block
    longer = encoded(Position.from_checkers("fevga", WHITE, {24: 1, 23: 1, 22: 1, 21: 1, 20: 1, 16: 10}, black))
    assert longer[PRIMES:PRIMES + 3].tolist() == pytest.approx([5 / 6, 1 / 15, 8 / 24])
    assert longer[HOLDS:HOLDS + 4].tolist() == pytest.approx([2 / 36, 1 / 6, 15 / 15, 4 / 24])


def test_fevga_lead_inputs_count_the_rolls_a_blocked_first_checker_loses() -> None:
    # White's first checker, on 16, has 5 pips to go past Black's start (White's 12); Black's
    # three checkers on his 1..3 (White's 13..15) and his start stand right in front of it. Only
    # a 5 or a 6 moves it, and either carries it past (then the rest of the roll is played): 20
    # rolls of 36; the other 16 (1-1 to 4-4) are lost whole, as the fourteen on 24 must wait.
    # Black's first checker has passed White's start, so his three are zero.
    white = {24: 14, 16: 1}
    black = {1: 1, 2: 1, 3: 1, 24: 12}
    x = encoded(Position.from_checkers("fevga", WHITE, white, black))
    assert x[LEAD:LEAD + 6].tolist() == pytest.approx([5 / 13, 20 / 36, 16 / 36, 0, 0, 0])
    y = encoded(Position.from_checkers("fevga", BLACK, white, black))
    assert y[LEAD:LEAD + 6].tolist() == pytest.approx(x[LEAD + 3:LEAD + 6].tolist() + x[LEAD:LEAD + 3].tolist())
    # once it has passed, White's three are zero too
    passed = encoded(Position.from_checkers("fevga", WHITE, {24: 14, 9: 1}, black))
    assert passed[LEAD:LEAD + 6].tolist() == [0] * 6
    # with only Black's start and one checker on White's 13 in the way, 1-4, 2-3 and 2-4 pass
    # too (26 rolls); 1-2 plays its 2 and loses the 1, 1-3 plays its 1 and loses the 3, 3-4
    # loses both; 1-1 stops after 2 steps, 2-2 after 1, 3-3 and 4-4 at once
    partial = encoded(Position.from_checkers("fevga", WHITE, white, {1: 1, 24: 14}))
    assert partial[LEAD:LEAD + 3].tolist() == pytest.approx(
        [5 / 13, 26 / 36, (2 * 1 / 3 + 2 * 3 / 4 + 2 + 2 / 4 + 3 / 4 + 1 + 1) / 36])


def test_fevga_break_inputs_count_the_rolls_the_spares_cannot_play() -> None:
    # White's 24 blocks Black's nine on his 13 (White's 1), so its checker is no spare; his 14
    # on 3 are. Black holds White's 18..23 and 1: the spares can play only a 1 (3 to 2; not all
    # home, so nothing bears off), and the checker on 24 nothing. 1-1 is played whole; 1-2 to
    # 1-6 play their 1 alone, and the other 25 rolls nothing: nothing else can play them either.
    # Black's singles on his 6..11 block White's 24 and his first on 13 blocks White's 3: his
    # spares are the other 8 on 13, which play everything but a 1 (White's 24 is his 12), and
    # with a 1 after the other die; 1-1 is left to his singles, which play it (11 to 10 ...).
    black = {6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 13: 9}
    x = encoded(Position.from_checkers("fevga", WHITE, {24: 1, 3: 14}, black))
    white_lost = (2 * (2 / 3 + 3 / 4 + 4 / 5 + 5 / 6 + 6 / 7) + 25) / 36
    assert x[BREAKS:BREAKS + 6].tolist() == pytest.approx([35 / 36, white_lost, white_lost, 1 / 36, 1 / 36, 0])
    y = encoded(Position.from_checkers("fevga", BLACK, {24: 1, 3: 14}, black))
    assert y[BREAKS:BREAKS + 6].tolist() == pytest.approx(x[BREAKS + 3:BREAKS + 6].tolist()
                                                          + x[BREAKS:BREAKS + 3].tolist())
    # while White's first checker (on 16) has not passed Black's start, it is the only one that
    # counts: Black holds White's 12..15, so it moves only a 5 or a 6, and then anything after
    # it; 5-5 stops after 3 steps (White is not all home) and 6-6 after 2. Unlike the lead
    # inputs, passing Black's start does not count the rest of the roll as played.
    lead = encoded(Position.from_checkers("fevga", WHITE, {24: 14, 16: 1}, {1: 1, 2: 1, 3: 1, 24: 12}))
    assert lead[BREAKS:BREAKS + 3].tolist() == pytest.approx([18 / 36, (16 + 1 / 4 + 2 / 4) / 36,
                                                              (16 + 1 / 4 + 2 / 4) / 36])
    # all home, every checker bears off: nothing is lost
    home = encoded(Position.from_checkers("fevga", WHITE, {1: 5, 2: 5, 6: 5}, {20: 15}))
    assert home[BREAKS:BREAKS + 3].tolist() == [0, 0, 0]


@pytest.mark.slow
def test_fevga_pips_lost_agree_with_the_legal_plays() -> None:
    # Where no checker of the mover can bear off this turn and his first checker has passed,
    # the pips lost are exactly what the most pips of each roll's legal plays leave.
    checked = 0
    for pos in positions_along_games("fevga", seed=13, games=6, turns=200):
        layout = pos.layout(pos.turn)
        if sum((p - 6) * n for p, n in layout.items() if p > 6) <= 24 or min(layout) > 11:
            continue
        lost = 0.0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                whole = 4 * d1 if d1 == d2 else d1 + d2
                most = max((sum(s.src - s.dst for s in play.steps) for play in pos.legal_plays(Dice(d1, d2))),
                           default=0)
                lost += (1 if d1 == d2 else 2) * (whole - most) / whole
        assert encoded(pos)[BREAKS + 2] == pytest.approx(lost / 36, abs=1e-6)
        checked += lost > 0
    assert checked > 20  # positions that lose pips were among them


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 15), min_size=25, max_size=25), st.integers(0, 2**25 - 1))
def test_checkers_on_a_mask_sum_the_counts_held_as_bit_planes(counts: list[int], mask: int) -> None:
    planes = np.zeros(4, np.int64)
    for p, n in enumerate(counts):
        for b in range(4):
            planes[b] |= (n >> b & 1) << p
    assert features.bit_count(mask) == bin(mask).count("1")
    assert features.checkers_on(planes, mask) == sum(n for p, n in enumerate(counts) if mask >> p & 1)


# Where each group of a game's inputs ends: a network saved before a group was added reads the
# inputs up to one of these.
GROUP_ENDS = {"portes": [EXTRA, PORTES, CONTACT, features.N_INPUTS[K.PORTES]],
              "plakoto": [EXTRA, PLAKOTO, PLAKOTO + 52, features.N_INPUTS[K.PLAKOTO]],
              "fevga": [EXTRA, EXTRA + 9, MOBILITY, TIMING, PRIMES, HOLDS, LEAD, BREAKS, features.N_INPUTS[K.FEVGA]]}


def test_input_group_ends_follow_the_layout() -> None:
    for game, ends in GROUP_ENDS.items():
        assert list(features.INPUT_GROUP_ENDS[Position.start(game).variant.kernel_id]) == ends


@pytest.mark.parametrize("game", GAMES)
def test_fewer_inputs_leave_out_the_groups_that_do_not_fit(game: str) -> None:
    # a network with fewer inputs gets every group that fits as the full list has it, and
    # zero for a group cut short, which its weights cannot read
    ends = GROUP_ENDS[game]
    widths = sorted({*ends, *(end - 1 for end in ends[1:]), *(end + 1 for end in ends[:-1])})
    checked = 0
    for pos in positions_along_games(game, seed=11, games=1, turns=40):
        full = encoded(pos)
        for width in widths:
            x = np.full(width, 7.0, np.float32)
            features.encode(pos.state.copy(), pos.variant.kernel_id, x)
            kept = max(end for end in ends if end <= width)
            assert x[:kept].tolist() == full[:kept].tolist(), (width, pos)
            assert not x[kept:].any(), (width, pos)
            checked += int(full[kept:].any())
    assert checked > 0  # the groups left out were not all zero anyway


@pytest.mark.parametrize("game", GAMES)
def test_movers_match_the_legal_steps(game: str) -> None:
    # features.movers counts the points a single step of each die can leave, for either side: the
    # move generator's own steps (for the opponent, of the position turned round) say the same
    out = np.zeros((30, 2), np.int64)
    for pos in positions_along_games(game, 11, games=4, turns=150):
        params = pos.variant.params
        for mine, state in ((True, pos.state), (False, K.flip(pos.state, params))):
            counts = movers(pos.state, mine, pos.variant.kernel_id)
            for d in range(1, 7):
                n = K.die_steps(state.copy(), d, params, out)
                assert counts[d - 1] == len(set(out[:n, 0].tolist()))


def test_fevga_second_checker_waits_at_the_start() -> None:
    # White's first checker, on 15, has not passed Black's start (White's 12): no other may
    # leave 24, so only that checker moves, and a 3 (to 12, Black's start) not at all
    pos = Position.from_checkers("fevga", WHITE, {24: 14, 15: 1}, {24: 15})
    mobility = encoded(pos)[MOBILITY:MOBILITY + 12].tolist()
    assert mobility == [0, 1 / 4, 0, 1 / 4, 1, 0, 0, 1 / 4, 0, 1 / 4, 0, 1 / 4]


def test_fevga_first_checker_gone() -> None:
    # White's first checker has reached 10, past Black's start (White's 12)
    pos = Position.from_checkers("fevga", WHITE, {24: 14, 10: 1}, {24: 15})
    x = encoded(pos)
    # 10 lies within six points in front of Black's checkers (their 24 -> 18, White's 6..11)
    assert x[EXTRA:EXTRA + 9].tolist() == pytest.approx([0, 1, 14 / 15, 1, 0, 0, 1 / 6, 0, 0])
    assert x[PIPS_MINE] == pytest.approx((24 * 14 + 10) / 100)
    # one checker holds a point in Fevga
    assert x[BLOCK_MINE] == pytest.approx(1 / 6)
    y = encoded(pos.pass_turn())
    assert y[EXTRA:EXTRA + 4].tolist() == pytest.approx([1, 0, 1, 14 / 15])


def test_fevga_home_points_count_single_checkers() -> None:
    pos = Position.from_checkers("fevga", WHITE, {1: 1, 2: 1, 3: 13}, {1: 1, 6: 14})
    x = encoded(pos)
    assert x[EXTRA + 4] == pytest.approx(3 / 6)
    assert x[EXTRA + 5] == pytest.approx(2 / 6)
    assert x[EXTRA + 8] == 1.0  # all home on both sides: a race


@pytest.mark.parametrize(("mine", "theirs", "race_flag"), [
    ({10: 15}, {5: 15}, 1.0),  # Black on White's 17, all of White below 13
    ({20: 15}, {5: 15}, 0.0),  # White's 20 must pass Black's checkers on White's 17
    ({10: 15}, {20: 15}, 0.0),  # Black on White's 8, in front of White
])
def test_fevga_race_flag(mine: dict[int, int], theirs: dict[int, int], race_flag: float) -> None:
    assert encoded(Position.from_checkers("fevga", WHITE, mine, theirs))[EXTRA + 8] == race_flag


@pytest.mark.parametrize("game", GAMES)
def test_inputs_are_finite_and_bounded_along_games(game: str) -> None:
    for pos in positions_along_games(game, 5):
        x = encoded(pos)
        assert np.all(np.isfinite(x))
        assert x.min() >= 0.0
        assert x.max() <= 6.0  # (15 - 3) / 2 on a point is the largest


# -- shots -----------------------------------------------------------------------

def hits_by_brute_force(distances: set[int]) -> int:
    n = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            reach = {d1 * k for k in range(1, 5)} if d1 == d2 else {d1, d2, d1 + d2}
            n += bool(reach & distances)
    return n


def test_hits_single_distances_match_the_shot_table() -> None:
    table = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3,
             13: 0, 14: 0, 15: 1, 16: 1, 17: 0, 18: 1, 19: 0, 20: 1, 21: 0, 22: 0, 23: 0, 24: 1}
    assert {d: features.hits(np.int64(1) << d) for d in range(1, 25)} == table
    assert features.hits(np.int64(0)) == 0


def test_hits_against_brute_force() -> None:
    rng = random.Random(11)
    for _ in range(400):
        distances = {d for d in range(1, 25) if rng.random() < rng.choice((0.05, 0.15, 0.4))}
        mask = sum(1 << d for d in distances)
        assert features.hits(np.int64(mask)) == hits_by_brute_force(distances), sorted(distances)
    assert features.hits(np.int64(sum(1 << d for d in range(1, 7)))) == 36


# -- forward -----------------------------------------------------------------------

def reference_forward(x: np.ndarray, net: network.Network) -> tuple[np.ndarray, np.ndarray]:
    w1, b1, w2, b2 = (a.astype(np.float64) for a in net)
    h = 1 / (1 + np.exp(-(x.astype(np.float64) @ w1 + b1)))
    return h, 1 / (1 + np.exp(-(w2 @ h + b2)))


def test_forward_against_numpy() -> None:
    rng = np.random.default_rng(3)
    for variant in (K.PORTES, K.PLAKOTO, K.FEVGA):
        net = random_network(variant, hidden=20, scale=0.3, seed=variant)
        buf = Buffers(net)
        for _ in range(20):
            x = rng.random(features.N_INPUTS[variant]).astype(np.float32)
            x[rng.random(len(x)) < 0.7] = 0.0  # sparse, as real inputs are
            network.forward(x, *net, buf.h, buf.out)
            h, out = reference_forward(x, net)
            np.testing.assert_allclose(buf.h, h, rtol=0, atol=1e-5)
            np.testing.assert_allclose(buf.out, out, rtol=0, atol=1e-5)


def test_forward_with_known_weights() -> None:
    hidden = 2
    w1 = np.zeros((features.N_INPUTS[0], hidden), np.float32)
    w1[PIPS_MINE, 0] = 1.0
    b1 = np.array([0.0, 0.0], np.float32)
    w2 = np.array([[2.0, 0.0], [0.0, 0.0], [0.0, 0.0]], np.float32)
    b2 = np.array([-1.0, 0.0, -50.0], np.float32)
    net = (w1, b1, w2, b2)
    buf = Buffers(net)
    x = np.zeros(features.N_INPUTS[0], np.float32)
    x[PIPS_MINE] = 1.67
    network.forward(x, *net, buf.h, buf.out)
    h0 = 1 / (1 + np.exp(-1.67))
    assert buf.h.tolist() == pytest.approx([h0, 0.5], abs=1e-6)
    assert buf.out[0] == pytest.approx(1 / (1 + np.exp(1 - 2 * h0)), abs=1e-6)
    assert buf.out[1] == pytest.approx(0.5, abs=1e-7)
    assert buf.out[2] == 0.0  # far below -30: exactly 0


def test_the_search_forward_pass_is_the_reference() -> None:
    rng = np.random.default_rng(5)
    for variant in (K.PORTES, K.PLAKOTO, K.FEVGA):
        net = random_network(variant, hidden=40, scale=0.6, seed=variant)
        xs = rng.random((6, features.N_INPUTS[variant])).astype(np.float32)
        xs[rng.random(xs.shape) < 0.7] = 0.0
        sums, h, out = np.zeros(40, np.float32), np.zeros(40, np.float32), np.zeros(3)
        for k, x in enumerate(xs):
            if k == 0:
                network.hidden_sums(x, net[0], net[1], sums)
            else:  # from the previous inputs' sums
                network.hidden_from(x, xs[k - 1], net[0], sums)
            network.outputs(sums, net[2], net[3], h, out)
            want_h, want_out = reference_forward(x, net)
            np.testing.assert_allclose(h, want_h, rtol=0, atol=1e-5)  # as ``forward``'s own float32 sums
            np.testing.assert_allclose(out, want_out, rtol=0, atol=1e-5)


def test_the_search_logistic_is_within_2e_7_everywhere() -> None:
    a = np.linspace(-60, 60, 240_001).astype(np.float32)
    sums, h, out = a.copy(), np.zeros_like(a), np.zeros(3)
    network.outputs(sums, np.zeros((3, len(a)), np.float32), np.zeros(3, np.float32), h, out)
    exact = 1 / (1 + np.exp(-a.astype(np.float64)))
    assert np.abs(h - exact).max() < 2e-7
    assert h.min() >= 0 and h.max() <= 1


# -- values --------------------------------------------------------------------------

SIBLINGS = 1e-6
"""How far a search's value may lie from the same positions valued one at a time by hand: the
search values the plays of a roll as one batch, each position's hidden sums made from those of the
play before (float32 sums in another order), within a few billionths in practice."""


def post0(r: np.ndarray, params: int, net: network.Network, tables: network.Tables) -> np.ndarray:
    buf = Buffers(net)
    search.post0(np.ascontiguousarray(r, np.int8).copy(), params, net, tables, buf.x, buf.h, buf.out)
    return buf.out.copy()


def post1(r: np.ndarray, params: int, net: network.Network, tables: network.Tables) -> np.ndarray:
    buf = Buffers(net)
    search.post1(np.ascontiguousarray(r, np.int8).copy(), params, net, tables, buf.ws, buf.x, buf.h, buf.out,
                 network.MONEY, 0)
    return buf.out.copy()


def post2(r: np.ndarray, params: int, net: network.Network, tables: network.Tables) -> np.ndarray:
    buf = Buffers(net)
    search.post2(np.ascontiguousarray(r, np.int8).copy(), params, net, tables, buf.ws, buf.x, buf.h, buf.out,
                 network.MONEY, 0)
    return buf.out.copy()


def post3(r: np.ndarray, params: int, net: network.Network, tables: network.Tables) -> np.ndarray:
    buf = Buffers(net)
    search.post3(np.ascontiguousarray(r, np.int8).copy(), params, net, tables, buf.ws, buf.x, buf.h, buf.out,
                 network.MONEY, 0)
    return buf.out.copy()


def equity(v: np.ndarray) -> float:
    return float(2 * v[0] - 1 + v[1] - v[2])


TERMINALS = [
    # (game, White's checkers, Black's checkers, pins, value for White who just played)
    ("portes", {}, {6: 15}, None, (1.0, 1.0, 0.0)),
    ("portes", {}, {6: 12}, None, (1.0, 0.0, 0.0)),
    ("fevga", {}, {1: 15}, None, (1.0, 1.0, 0.0)),
    ("plakoto", {6: 14, 1: 1}, {13: 14, 24: 1}, {1: BLACK}, (1.0, 1.0, 0.0)),  # their mother pinned
    ("plakoto", {24: 1, 1: 1, 10: 13}, {24: 1, 1: 1, 10: 13}, {24: WHITE, 1: BLACK},
     (0.5, 0.0, 0.0)),  # both mothers pinned: a tie
]


@pytest.mark.parametrize(("game", "white", "black", "pins", "value"), TERMINALS)
def test_terminal_results_give_the_exact_points(game: str, white: dict[int, int], black: dict[int, int],
                                                pins: dict[int, object] | None, value: Values) -> None:
    pos = Position.from_checkers(game, WHITE, white, black, pinned=pins)  # type: ignore[arg-type]
    assert pos.result() is not None
    net = random_network(pos.variant.kernel_id)
    params = pos.variant.params
    for value_of in (post0, post1, post2):
        assert value_of(pos.state, params, net, race()).tolist() == list(value)


def test_mother_pin_single_point_rule() -> None:
    pos = Position.from_checkers(Plakoto(mother_pin="single"), WHITE, {6: 14, 1: 1}, {13: 14, 24: 1},
                                 pinned={1: BLACK})
    net = random_network(K.PLAKOTO)
    assert post0(pos.state, pos.variant.params, net, race()).tolist() == [1.0, 0.0, 0.0]


def test_the_opponent_winning_is_a_loss() -> None:
    # a state after the mover's play where the opponent has borne everything off
    pos = Position.from_checkers("portes", WHITE, {6: 15}, {})
    net = random_network(K.PORTES)
    assert post0(pos.state, pos.variant.params, net, race()).tolist() == [0.0, 0.0, 1.0]
    pos = Position.from_checkers("portes", WHITE, {6: 5}, {})
    assert post1(pos.state, pos.variant.params, net, race()).tolist() == [0.0, 0.0, 0.0]


def reference_post1(r: np.ndarray, params: int, net: network.Network, tables: network.Tables) -> np.ndarray:
    """1 ply by hand: the opponent's best play by 0 ply, averaged over his 21 rolls."""
    code = K.outcome(r, params)
    if code != K.ONGOING:
        return post0(r, params, net, tables)
    s = K.flip(r, params)
    total = np.zeros(3)
    for d1, d2 in ALL_ROLLS:
        rows = generate_rows(s, d1, d2, params)
        if len(rows) == 0:
            value = post0(s, params, net, tables)
        else:
            values = [post0(rows[k, :K.STATE_SIZE], params, net, tables) for k in range(len(rows))]
            value = max(values, key=equity)  # the first of equal bests
        total += value * (1 if d1 == d2 else 2) / 36
    return np.array([1 - total[0], total[2], total[1]])


def reference_post2(r: np.ndarray, params: int, net: network.Network, tables: network.Tables,
                    shallower: Callable[..., np.ndarray] = post1) -> np.ndarray:
    """``shallower`` plies deeper, by hand: the opponent's best play by 0 ply, valued by
    ``shallower``, averaged over his 21 rolls."""
    s = K.flip(r, params)
    total = np.zeros(3)
    for d1, d2 in ALL_ROLLS:
        rows = generate_rows(s, d1, d2, params)
        if len(rows) == 0:
            value = shallower(s, params, net, tables)
        else:
            equities = [equity(post0(rows[k, :K.STATE_SIZE], params, net, tables)) for k in range(len(rows))]
            k = equities.index(max(equities))
            value = shallower(rows[k, :K.STATE_SIZE], params, net, tables)
        total += value * (1 if d1 == d2 else 2) / 36
    return np.array([1 - total[0], total[2], total[1]])


def sample_results(game: str, seed: int, n: int) -> list[np.ndarray]:
    """States right after a play, from random games."""
    rng = random.Random(seed)
    out = []
    for pos in positions_along_games(game, seed):
        legal = pos.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
        if len(legal):
            out.append(legal.results[rng.randrange(len(legal))].copy())
    return rng.sample(out, n)


@pytest.mark.parametrize("game", GAMES)
def test_post1_is_the_average_over_21_rolls(game: str) -> None:
    variant = Position.start(game).variant
    net = random_network(variant.kernel_id, seed=4)
    for r in sample_results(game, 8, 3):
        expected = reference_post1(r, variant.params, net, race())
        np.testing.assert_allclose(post1(r, variant.params, net, race()), expected, rtol=0, atol=SIBLINGS)


def test_post1_when_the_opponent_cannot_enter() -> None:
    # Black on the bar against White's closed board: none of his rolls play
    pos = Position.from_checkers("portes", WHITE, {p: 2 for p in range(1, 7)} | {13: 3}, {25: 1, 13: 14})
    params = pos.variant.params
    s = K.flip(pos.state, params)
    assert all(len(generate_rows(s, d1, d2, params)) == 0 for d1, d2 in ALL_ROLLS)
    net = random_network(K.PORTES, seed=2)
    expected = reference_post1(pos.state, params, net, race())
    np.testing.assert_allclose(post1(pos.state, params, net, race()), expected, rtol=0, atol=SIBLINGS)
    # every roll leaves the same position: 1 ply is the 0-ply value of White to roll
    static = search.static_values(pos.state[None, :], params, net, race())[0]
    np.testing.assert_allclose(expected, static, rtol=0, atol=1e-12)
    assert not np.allclose(static, post0(pos.state, params, net, race()))


def test_post2_is_the_average_of_1_ply_values() -> None:
    variant = Position.start("portes").variant
    net = random_network(K.PORTES, seed=6)
    for r in sample_results("portes", 3, 2):
        expected = reference_post2(r, variant.params, net, race())
        np.testing.assert_allclose(post2(r, variant.params, net, race()), expected, rtol=0, atol=SIBLINGS)


@pytest.mark.slow
def test_post3_is_the_average_of_2_ply_values() -> None:
    variant = Position.start("portes").variant
    net = random_network(K.PORTES, seed=9)
    for r in sample_results("portes", 5, 1):
        expected = reference_post2(r, variant.params, net, race(), shallower=post2)
        np.testing.assert_allclose(post3(r, variant.params, net, race()), expected, rtol=0, atol=SIBLINGS)


@pytest.mark.parametrize("depth", [1, 2])
def test_pre_is_post_seen_by_the_other_side(depth: int) -> None:
    variant = Position.start("fevga").variant
    net = random_network(K.FEVGA, seed=1)
    buf = Buffers(net)
    # the 2-ply one against the search written out by hand, the 1-ply one against the kernel's post1
    pre, post_ = (search.pre1, post1) if depth == 1 else (search.pre2, reference_post2)
    for r in sample_results("fevga", 4 if depth == 1 else 2, 3):
        s = K.flip(r, variant.params)
        pre(s, variant.params, net, race(), buf.ws, buf.x, buf.h, buf.out, network.MONEY, 0)
        w, w2, l2 = post_(r, variant.params, net, race())
        assert buf.out.tolist() == pytest.approx([1 - w, l2, w2], abs=SIBLINGS)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_values_are_consistent_probabilities(game: str) -> None:
    variant = Position.start(game).variant
    # large random weights push the raw outputs anywhere: the values must still be consistent
    net = random_network(variant.kernel_id, scale=3.0, seed=9)
    states = np.array([p.state for p in positions_along_games(game, 2)])
    checked = []
    for tables in (race(), no_race()):
        values = search.static_values(states, variant.params, net, tables)
        checked.append(values)
    rows = Position.start(game).legal_plays(Dice(4, 2)).results
    ws = K.Workspace().args()
    for depth in (0, 1, 2):
        values, _ = search.analyse(rows, variant.params, net, race(), ws, depth, np.array([8, 3]), np.array([2.0, 2.0]),
                                  network.MONEY)
        checked.append(values)
    for values in checked:
        win, win2, lose2 = values.T
        assert np.all((values >= 0) & (values <= 1))
        assert np.all(win2 <= win + 1e-12)
        assert np.all(lose2 <= 1 - win + 1e-12)
    raw = search.static_values(states, variant.params, net, no_race())
    assert np.any(raw[:, 1] == raw[:, 0]) or np.any(raw[:, 2] == 1 - raw[:, 0])  # the bounds were used


# -- races: the bear-off tables ---------------------------------------------------

def test_races_are_valued_by_the_bearoff_tables() -> None:
    finish, first_off = race()
    net = random_network(K.PORTES, seed=5)
    home = [Position.from_checkers("portes", WHITE, {1: 2, 3: 4, 6: 1}, {2: 5, 5: 3}),
            Position.from_checkers("portes", WHITE, {6: 15}, {1: 1}),
            Position.from_checkers("portes", WHITE, {1: 1}, {6: 15})]
    states = np.array([p.state for p in home])
    values = search.static_values(states, K.PORTES, net, race())
    for pos, value in zip(home, values, strict=True):
        assert bearoff.all_home(pos.state, K.PORTES)
        expected = bearoff.race_probabilities(pos.state, K.PORTES, finish, first_off)
        assert value.tolist() == pytest.approx(list(expected), abs=1e-12)
    assert values[2].tolist() == [1.0, 1.0, 0.0]  # one checker on the 1 point: off next roll
    assert values[1][0] == 0.0  # the other side needs one roll only
    # without the tables, the network answers
    by_network = search.static_values(states, K.PORTES, net, no_race())
    assert not np.allclose(by_network, values)
    # a position with a checker outside is the network's
    outside = Position.from_checkers("portes", WHITE, {7: 1, 1: 1}, {6: 15}).state[None, :]
    np.testing.assert_array_equal(search.static_values(outside, K.PORTES, net, race()),
                                  search.static_values(outside, K.PORTES, net, no_race()))


def test_fevga_race_uses_the_tables_with_its_own_home() -> None:
    finish, first_off = race()
    net = random_network(K.FEVGA, seed=5)
    pos = Position.from_checkers("fevga", WHITE, {1: 3, 4: 2}, {2: 6, 6: 1})
    assert bearoff.all_home(pos.state, K.FEVGA)
    value = search.static_values(pos.state[None, :], K.FEVGA, net, race())[0]
    expected = bearoff.race_probabilities(pos.state, K.FEVGA, finish, first_off)
    assert value.tolist() == pytest.approx(list(expected), abs=1e-12)


# -- analyse: the search filter ---------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_analyse_keeps_the_filter_limits(game: str) -> None:
    pos = next(p for k, p in enumerate(positions_along_games(game, 12)) if k == 9)
    legal = pos.legal_plays(Dice(5, 3))
    assert len(legal) >= 4
    rows = legal.results
    params = pos.variant.params
    net = random_network(pos.variant.kernel_id, scale=1.0, seed=7)
    ws = K.Workspace().args()
    keep1, margin1, keep2, margin2, keep3, margin3 = 3, 0.5, 2, 0.3, 1, 0.2
    keeps = np.array([keep1, keep2, keep3], np.int64)
    margins = np.array([margin1, margin2, margin3])
    v0, used0 = search.analyse(rows, params, net, race(), ws, 0, keeps, margins, network.MONEY)
    v1, used1 = search.analyse(rows, params, net, race(), ws, 1, keeps, margins, network.MONEY)
    v2, used2 = search.analyse(rows, params, net, race(), ws, 2, keeps, margins, network.MONEY)
    eq0 = np.array([equity(v) for v in v0])
    eq1 = np.array([equity(v) for v in v1])
    assert used0.tolist() == [0] * len(rows)
    for k in range(len(rows)):
        np.testing.assert_allclose(v0[k], post0(rows[k], params, net, race()), atol=SIBLINGS)
    # level 1: the best plays by 0 ply within margin1 of the best, at most keep1
    within = [k for k in np.argsort(-eq0) if eq0[k] >= eq0.max() - margin1][:keep1]
    assert set(np.flatnonzero(used1 == 1)) == set(within)
    assert int(np.argmax(eq0)) in within
    for k in range(len(rows)):
        expected = post1(rows[k], params, net, race()) if used1[k] else v0[k]
        np.testing.assert_allclose(v1[k], expected, atol=1e-12)
    # level 2: among those, within margin2 of the best 1-ply value, at most keep2
    searched = np.flatnonzero(used1 == 1)
    best1 = eq1[searched].max()
    deeper = [k for k in searched[np.argsort(-eq1[searched])] if eq1[k] >= best1 - margin2][:keep2]
    assert set(np.flatnonzero(used2 == 2)) == set(deeper)
    assert set(np.flatnonzero(used2 >= 1)) == set(searched)
    assert len(deeper) <= keep2 and len(searched) <= keep1
    for k in deeper:
        np.testing.assert_allclose(v2[k], post2(rows[k], params, net, race()), atol=1e-12)
    if game == "portes":  # level 3 (slow in the others with a random network's long games)
        v3, used3 = search.analyse(rows, params, net, race(), ws, 3, keeps, margins, network.MONEY)
        eq2 = np.array([equity(v) for v in v2])
        top = max(deeper, key=lambda k: eq2[k])
        assert np.flatnonzero(used3 == 3).tolist() == [top]
        np.testing.assert_allclose(v3[top], post3(rows[top], params, net, race()), atol=1e-12)


def test_analyse_with_a_zero_margin_searches_only_the_best() -> None:
    legal = Position.start("portes").legal_plays(Dice(6, 4))
    net = random_network(K.PORTES, seed=8)
    _, used = search.analyse(legal.results, K.PORTES, net, race(), K.Workspace().args(), 2, np.array([8, 3]),
                        np.array([0.0, 0.0]), network.MONEY)
    assert sorted(used.tolist()) == [0] * (len(legal) - 1) + [2]


def choice(values: np.ndarray, depth: np.ndarray) -> int:
    """The play a search chooses: the deepest searched, the best of those."""
    return max(range(len(values)), key=lambda k: (depth[k], equity(values[k])))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_deciding_stops_where_one_play_is_left_and_chooses_the_same(game: str) -> None:
    net = random_network(Position.start(game).variant.kernel_id, scale=1.0, seed=3)
    keeps, margins = np.array([5, 2]), np.array([0.3, 0.1])
    rng = random.Random(5)
    cut = 0
    for pos in list(positions_along_games(game, 21))[:20]:
        legal = pos.legal_plays(Dice(rng.randint(1, 6), rng.randint(1, 6)))
        if len(legal) < 2:
            continue
        rows, params = legal.results, pos.variant.params
        ws = K.Workspace().args()
        full, used = search.analyse(rows, params, net, race(), ws, 2, keeps, margins, network.MONEY)
        quick, used_quick = search.analyse(rows, params, net, race(), ws, 2, keeps, margins, network.MONEY, True)
        assert choice(quick, used_quick) == choice(full, used)
        assert (used_quick <= used).all()
        if used_quick.max() == used.max():
            # the same search in float32 batches: equal to rounding (4e-8 apart seen once on a
            # fresh clone), as the other batch comparisons
            np.testing.assert_allclose(quick, full, rtol=0, atol=1e-6)
        else:
            cut += 1
            deepest = [equity(quick[k]) for k in np.flatnonzero(used_quick == used_quick.max())]
            assert sum(e >= max(deepest) - margins[used_quick.max()] for e in deepest) == 1  # the choice
    assert cut > 0  # some searches stopped early


# -- training ---------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_train_games_moves_the_network(game: str) -> None:
    pos = Position.start(game)
    variant = pos.variant
    net = network.new_network(variant.kernel_id, hidden=6, seed=1)
    assert net[0].shape == (features.N_INPUTS[variant.kernel_id], 6) and not net[1].any()
    before = tuple(a.copy() for a in net)
    ws = K.Workspace(nodes=1 << 12, plays=1 << 11).args()
    stats = td.train_games(6, pos.state, variant.params, net, race(), ws, 0.1, 5, 5000)
    games, turns, points, aborted = stats.tolist()
    assert games + aborted == 6 and games >= 5
    assert 10 * games <= turns <= 5000 * 6
    assert abs(points) <= 2 * games
    for a in net:
        assert a.dtype == np.float32 and np.all(np.isfinite(a))
    assert not np.array_equal(net[0], before[0]) and not np.array_equal(net[2], before[2])
    # same seed, same start: the same games and the same weights
    again = tuple(a.copy() for a in before)
    stats2 = td.train_games(6, pos.state, variant.params, again, race(), ws, 0.1, 5, 5000)
    assert stats2.tolist() == stats.tolist()
    for a, b in zip(net, again, strict=True):
        np.testing.assert_array_equal(a, b)
    # a zero learning rate plays the games and leaves the weights alone
    frozen = tuple(a.copy() for a in before)
    td.train_games(2, pos.state, variant.params, frozen, race(), ws, 0.0, 5, 5000)
    for a, b in zip(frozen, before, strict=True):
        np.testing.assert_array_equal(a, b)


def test_train_games_learns_that_a_sure_win_is_won() -> None:
    # from a position White wins at once with any roll, the win output should rise
    pos = Position.from_checkers("portes", WHITE, {1: 1, 2: 1}, {13: 15})
    net = network.new_network(K.PORTES, hidden=4, seed=2)
    buf = Buffers(net)
    x = np.zeros(features.N_INPUTS[K.PORTES], np.float32)
    features.encode(pos.state.copy(), K.PORTES, x)
    network.forward(x, *net, buf.h, buf.out)
    before = buf.out.copy()
    stats = td.train_games(50, pos.state, pos.variant.params, net, race(), K.Workspace().args(), 0.5, 3, 10)
    assert stats.tolist() == [50, 50, 100, 0]  # one turn each, two points each
    network.forward(x, *net, buf.h, buf.out)
    assert buf.out[0] > before[0] and buf.out[1] > before[1] and buf.out[2] < before[2]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [1, 2])
def test_train_games_with_lookahead_learns_the_deeper_value(depth: int) -> None:
    # one turn from the start (max_turns=1): the single step goes towards the start's 1-ply (or
    # 2-ply) value over all 21 rolls, not towards the value after the roll played
    pos = Position.start("fevga")
    params = pos.variant.params
    net = random_network(K.FEVGA, seed=4)
    buf = Buffers(net)
    pre = search.pre1 if depth == 1 else search.pre2
    pre(pos.state.copy(), params, net, race(), buf.ws, buf.x, buf.h, buf.out, network.MONEY, 0)
    target = buf.out.copy()
    expected = tuple(a.copy() for a in net)
    features.encode(pos.state.copy(), K.FEVGA, buf.x)
    network.forward(buf.x, *expected, buf.h, buf.out)
    td.backprop(buf.x, buf.h, buf.out, target, 0.5, *expected, np.zeros(12, np.float32))
    trained = tuple(a.copy() for a in net)
    td.train_games(1, pos.state, params, trained, race(), buf.ws, 0.5, 7, 1, 0.0, depth)
    for a, b in zip(trained, expected, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)
    for other in {0, 1, 2} - {depth}:
        elsewhere = tuple(a.copy() for a in net)
        td.train_games(1, pos.state, params, elsewhere, race(), buf.ws, 0.5, 7, 1, 0.0, other)
        assert not np.allclose(elsewhere[2], expected[2], rtol=0, atol=1e-6)


def gradients(x: np.ndarray, net: network.Network) -> tuple[np.ndarray, list[network.Network]]:
    """The outputs for ``x`` and each output's gradient by every weight (a TD(0) step of rate 1
    towards the output plus one moves the weights by exactly that gradient)."""
    h = np.zeros(net[1].shape[0], np.float32)
    out = np.zeros(3, np.float64)
    network.forward(x, *net, h, out)
    grads = []
    for k in range(3):
        moved = tuple(a.copy() for a in net)
        td.backprop(x, h, out, out + np.eye(3)[k], 1.0, *moved, np.zeros(net[1].shape[0], np.float32))
        grads.append(tuple(m.astype(np.float64) - a for m, a in zip(moved, net, strict=True)))
    return out, grads


def traced(net: network.Network, steps: list[tuple[np.ndarray, np.ndarray]], alpha: float,
           lam: float) -> network.Network:
    """``net`` after TD(λ) steps ``(x, target)``, one a turn, by the kernel."""
    net = tuple(a.copy() for a in net)
    n_in, hidden = net[0].shape
    traces = (np.zeros((n_in, hidden, 3), np.float32), np.zeros((hidden, 3), np.float32),
              np.zeros((3, hidden, 3), np.float32), np.zeros((3, 3), np.float32))
    seen = np.zeros(n_in, np.bool_)
    h = np.zeros(hidden, np.float32)
    out = np.zeros(3, np.float64)
    for x, target in steps:
        network.forward(x, *net, h, out)
        td.backprop_traced(x, h, out, target, alpha, lam, *net, np.zeros((hidden, 3), np.float32), *traces, seen)
    return net


def test_a_td_lambda_step_with_no_past_is_a_td0_step() -> None:
    net = random_network(K.FEVGA, seed=6)
    x = np.zeros(features.N_INPUTS[K.FEVGA], np.float32)
    features.encode(Position.start("fevga").state.copy(), K.FEVGA, x)
    target = np.array([0.9, 0.3, 0.05])
    expected = tuple(a.copy() for a in net)
    buf = Buffers(net)
    network.forward(x, *expected, buf.h, buf.out)
    td.backprop(x, buf.h, buf.out, target, 0.3, *expected, np.zeros(12, np.float32))
    for a, b in zip(traced(net, [(x, target)], 0.3, 0.7), expected, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)


def test_td_lambda_moves_the_last_turn_by_its_decayed_gradient_seen_from_the_other_side() -> None:
    # two turns, one by each side: the second turn's error also moves the first position's
    # value, by lam times its gradient, turned over (win -> 1 - win; the 2-point chances swap)
    pos = Position.start("plakoto")
    x1, x2 = np.zeros(features.N_INPUTS[K.PLAKOTO], np.float32), np.zeros(features.N_INPUTS[K.PLAKOTO], np.float32)
    features.encode(pos.state.copy(), K.PLAKOTO, x1)
    after = pos.play(pos.legal_plays(Dice(6, 5))[0])
    features.encode(after.state.copy(), K.PLAKOTO, x2)
    net = random_network(K.PLAKOTO, seed=8)
    t1, t2 = np.array([0.2, 0.1, 0.4]), np.array([0.7, 0.5, 0.0])
    alpha, lam = 0.2, 0.6
    out1, g1 = gradients(x1, net)
    middle = tuple((a + alpha * sum((t1[k] - out1[k]) * g1[k][n] for k in range(3))).astype(np.float32)
                   for n, a in enumerate(net))
    out2, g2 = gradients(x2, middle)
    turned = [[-g for g in g1[0]], g1[2], g1[1]]
    expected = [a + alpha * sum((t2[k] - out2[k]) * (lam * turned[k][n] + g2[k][n]) for k in range(3))
                for n, a in enumerate(middle)]
    got = traced(net, [(x1, t1), (x2, t2)], alpha, lam)
    for a, b in zip(got, expected, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=2e-5)
    # with no decay the first position is left alone by the second turn
    td0 = traced(net, [(x1, t1), (x2, t2)], alpha, 0.0)
    assert not np.allclose(td0[0], got[0], rtol=0, atol=1e-5)


def test_train_games_by_td_lambda_is_repeatable_and_not_td0() -> None:
    pos = Position.start("fevga")
    variant = pos.variant
    start = network.new_network(variant.kernel_id, hidden=6, seed=1)
    ws = K.Workspace(nodes=1 << 12, plays=1 << 11).args()
    runs = []
    for lam in (0.7, 0.7, 0.0):
        net = tuple(a.copy() for a in start)
        stats = td.train_games(4, pos.state, variant.params, net, race(), ws, 0.1, 5, 5000, 0.1, 0, lam)
        assert all(np.all(np.isfinite(a)) for a in net)
        runs.append((stats.tolist(), net))
    assert runs[0][0] == runs[1][0]
    for a, b in zip(runs[0][1], runs[1][1], strict=True):
        np.testing.assert_array_equal(a, b)
    assert not np.allclose(runs[0][1][0], runs[2][1][0])


def test_a_result_sure_after_every_roll_is_exact() -> None:
    # Black, to roll, bears his last checker off with any roll; White has none off
    pos = Position.from_checkers("portes", WHITE, {6: 15}, {1: 1})
    net = random_network(K.PORTES, seed=3)
    assert post1(pos.state, K.PORTES, net, no_race()).tolist() == [0.0, 0.0, 1.0]
    buf = Buffers(net)
    search.pre1(K.flip(pos.state, K.PORTES), K.PORTES, net, no_race(), buf.ws, buf.x, buf.h, buf.out, network.MONEY, 0)
    assert buf.out.tolist() == [1.0, 1.0, 0.0]
