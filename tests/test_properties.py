"""Properties of random games and positions, checked against a plain reference.

The reference below is a deliberately simple, slow, pure-Python reading of
RULES.md: it plays the dice one at a time in every order, keeps every way of
playing one or more dice, applies Fevga's prime limits, then the most-dice
and higher-die rules, and returns the set of resulting positions. The
library's ``legal_plays`` must give exactly the same set, in every position
of random games of all three games (with their house rules) and in random
positions. Along the way the usual invariants are checked: fifteen checkers
a side, legal occupancy, distinct plays, text formats and notation that
read back (the notation of all plays at once too), and games that end with
a valid result.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavli import BLACK, WHITE, Color, Dice, Position, Step, make_variant
from tavli import _kernel as K
from tavli.position import LegalPlays, StepNode
from tavli.variants import Fevga, Plakoto, Variant

VARIANTS = (
    "portes",
    "plakoto",
    "plakoto,mother_pin=single",
    "plakoto,mother_pin=off",
    "fevga",
    "fevga,prime_limits=off",
    "fevga,prime_in_opponent_start=off",
)
MAX_PLIES = 3000
# moderate example counts: the whole file runs in well under a minute
GAMES = settings(max_examples=30, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow])
POSITIONS = settings(max_examples=40, deadline=None, database=None,
                     suppress_health_check=[HealthCheck.too_slow])


# -- the reference ---------------------------------------------------------------
#
# A state is seen by the side to move (the mover), in his own numbering:
# ``mine[p]`` his checkers on point p (0 = off, 25 = bar), ``theirs[p]`` the
# opponent's checkers on the opponent's point p, ``pins`` the Plakoto pins as
# sorted pairs (mover's point, "mine" or "theirs": whose lone checker is
# pinned there).

@dataclass(frozen=True)
class State:
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    pins: tuple[tuple[int, str], ...] = ()


def other_point(game: str, p: int) -> int:
    """The same point in the other player's numbering (RULES.md, Coordinates)."""
    if game == "fevga":
        return p - 12 if p > 12 else p + 12
    return 25 - p


class Reference:
    """The legal results of a roll, straight from RULES.md."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.game = variant.name
        self.limits = isinstance(variant, Fevga) and variant.prime_limits
        self.opponent_start_limit = isinstance(variant, Fevga) and variant.prime_in_opponent_start
        self.ways = lru_cache(maxsize=None)(self._ways)

    # one die -------------------------------------------------------------------
    def opposing(self, s: State, p: int) -> int:
        """Opposing checkers on the mover's point p (1..24)."""
        return s.theirs[other_point(self.game, p)]

    def is_open(self, s: State, p: int) -> bool:
        n = self.opposing(s, p)
        if self.game == "portes":
            return n < 2
        if self.game == "fevga":
            return n == 0
        # Plakoto: closed by two or more, or by one sitting on my pinned checker
        return n == 0 or (n == 1 and dict(s.pins).get(p) != "mine")

    def steps(self, s: State, die: int) -> list[tuple[int, int]]:
        """Every single move (from, to) of one die."""
        if self.game == "portes" and s.mine[25]:
            entry = 25 - die
            return [(25, entry)] if self.is_open(s, entry) else []
        points = [p for p in range(1, 25) if s.mine[p]]
        all_home = not s.mine[25] and all(p <= 6 for p in points)
        highest = max(points, default=0)
        pins = dict(s.pins)
        lead_only = False
        if self.game == "fevga":
            passed = s.mine[0] > 0 or any(s.mine[p] for p in range(1, 12))
            lead_only = not passed and any(s.mine[p] for p in range(12, 24))
        moves = []
        for src in points:
            if pins.get(src) == "mine" or (lead_only and src == 24):
                continue
            dst = src - die
            if dst >= 1:
                if self.is_open(s, dst):
                    moves.append((src, dst))
            elif all_home and (dst == 0 or src == highest):
                moves.append((src, 0))
        return moves

    def apply(self, s: State, src: int, dst: int) -> State:
        mine, theirs, pins = list(s.mine), list(s.theirs), dict(s.pins)
        mine[src] -= 1
        if mine[src] == 0 and pins.get(src) == "theirs":
            del pins[src]  # the last pinner leaves
        if dst:
            q = other_point(self.game, dst)
            if theirs[q] == 1 and self.game == "portes":
                theirs[q], theirs[25] = 0, theirs[25] + 1
            elif theirs[q] == 1 and self.game == "plakoto" and dst not in pins:
                pins[dst] = "theirs"
        mine[dst] += 1
        return State(tuple(mine), tuple(theirs), tuple(sorted(pins.items())))

    # a whole turn ----------------------------------------------------------------
    def _ways(self, s: State, dice: tuple[int, ...]) -> frozenset[tuple[State, int]]:
        """Every (result, dice used) of playing one or more of ``dice`` in this order."""
        out: set[tuple[State, int]] = set()
        for src, dst in self.steps(s, dice[0]):
            child = self.apply(s, src, dst)
            out.add((child, 1))
            if len(dice) > 1:
                out.update((r, n + 1) for r, n in self.ways(child, dice[1:]))
        return frozenset(out)

    def keeps_limits(self, s: State) -> bool:
        """Fevga's prime limits, judged on the position after a play."""
        held = {p for p in range(1, 25) if s.mine[p]}
        if held >= set(range(19, 25)):
            return False
        if self.opponent_start_limit and held >= set(range(7, 13)):
            return False
        theirs = {q for q in range(1, 25) if s.theirs[q]}
        if len(theirs) == 1:
            (q,) = theirs
            if q >= 7 and held >= {other_point("fevga", q - k) for k in range(1, 7)}:
                return False
        return True

    def results(self, s: State, d1: int, d2: int) -> tuple[set[State], int]:
        """The legal results of the roll and the number of dice each uses."""
        high, low = max(d1, d2), min(d1, d2)
        orders = [(high,) * 4] if high == low else [(high, low), (low, high)]
        ways = [(r, n, order[0]) for order in orders for r, n in self.ways(s, order)]
        if self.limits:
            kept = [w for w in ways if self.keeps_limits(w[0])]
            ways = kept or ways  # no way keeps the limits: they are ignored
        most = max((n for _, n, _ in ways), default=0)
        ways = [w for w in ways if w[1] == most]
        if most == 1 and high != low and any(first == high for _, _, first in ways):
            ways = [w for w in ways if w[2] == high]
        return {r for r, _, _ in ways}, most

    def can_play(self, s: State) -> bool:
        return any(self.steps(s, d) for d in range(1, 7))


# -- between the reference and the library --------------------------------------

def state_of(pos: Position, color: Color) -> State:
    """The position seen by ``color``, read through the public API."""
    game = pos.variant.name
    mine = tuple(pos.checkers(color, p) for p in range(26))
    theirs = tuple(pos.checkers(color.other, p) for p in range(26))
    pins = []
    for wp in range(1, 25):
        pinned = pos.point(wp).pinned
        if pinned is not None:
            p = wp if color == WHITE else other_point(game, wp)
            pins.append((p, "mine" if pinned == color else "theirs"))
    return State(mine, theirs, tuple(sorted(pins)))


def position_string(variant: Variant, s: State, mover: Color, to_move: Color) -> str:
    """Write a reference state as a position string (the documented format)."""
    game = variant.name
    side = {mover: s.mine, mover.other: s.theirs}
    pins = {(p if mover == WHITE else other_point(game, p)): (mover if who == "mine" else mover.other)
            for p, who in s.pins}
    tokens = []
    for wp in range(1, 25):
        w, b = side[WHITE][wp], side[BLACK][other_point(game, wp)]
        if wp in pins:
            top = pins[wp].other
            tokens.append(f"{w if top == WHITE else b}{top.letter}{pins[wp].letter}")
        elif w and b:
            raise AssertionError(f"both sides on White's point {wp} without a pin")
        else:
            tokens.append(f"{w}w" if w else f"{b}b" if b else ".")
    bar = f"{side[WHITE][25]}:{side[BLACK][25]}"
    off = f"{side[WHITE][0]}:{side[BLACK][0]}"
    return f"{variant} {''.join(tokens)} {to_move.letter} {bar} {off}"


def expected_result(pos: Position, ref: Reference) -> tuple[Color | None, int] | None:
    """(winner, points), (None, 0) for a tie, or None while the game goes on."""
    for color in (WHITE, BLACK):
        if pos.borne_off(color) == 15:
            return color, 2 if pos.borne_off(color.other) == 0 else 1
    variant = pos.variant
    if isinstance(variant, Plakoto) and variant.mother_pin != "off":
        def mother_pinned(color: Color) -> bool:
            return pos.checkers(color, 24) == 1 and pos.is_pinned(color, 24)

        if mother_pinned(WHITE) and mother_pinned(BLACK):
            return None, 0
        for color in (WHITE, BLACK):
            if mother_pinned(color.other) and pos.checkers(color, 24) == 0:
                return color, 2 if variant.mother_pin == "double" else 1
    if not ref.can_play(state_of(pos, WHITE)) and not ref.can_play(state_of(pos, BLACK)):
        return None, 0
    return None


# -- checks ------------------------------------------------------------------------

def check_position(pos: Position) -> None:
    """Fifteen checkers a side, legal occupancy, text formats that read back."""
    game = pos.variant.name
    views = [pos.point(wp) for wp in range(1, 25)]
    for color in (WHITE, BLACK):
        on_board = sum(v.white if color == WHITE else v.black for v in views)
        assert on_board + pos.on_bar(color) + pos.borne_off(color) == 15
        if game != "portes":
            assert pos.on_bar(color) == 0
    for wp, v in enumerate(views, 1):
        if game != "plakoto":
            assert not (v.white and v.black), f"both sides on point {wp}"
            assert v.pinned is None
        elif v.pinned is None:
            assert not (v.white and v.black), f"both sides on point {wp} and nobody pinned"
        else:
            pinned, top = (v.white, v.black) if v.pinned == WHITE else (v.black, v.white)
            assert pinned == 1 and top >= 1, f"bad pin on point {wp}: {v}"
    text = str(pos)
    again = Position.from_string(text)
    assert again == pos and str(again) == text
    if game == "portes":
        assert Position.from_gnubg_id(pos.gnubg_id(), pos.turn) == pos


def check_roll(pos: Position, ref: Reference, dice: Dice, rnd: random.Random) -> None:
    """The library's legal plays are the reference's, and their notation reads back."""
    legal = pos.legal_plays(dice)
    after = [str(legal.after(i)) for i in range(len(legal))]
    assert len(set(after)) == len(after), "two plays with the same result"
    mover = pos.turn
    results, most = ref.results(state_of(pos, mover), dice.first, dice.second)
    want = {position_string(pos.variant, r, mover, mover.other) for r in results}
    assert set(after) == want, (
        f"{pos} {dice}: library only {sorted(set(after) - want)}, reference only {sorted(want - set(after))}")
    assert all(len(play) == most for play in legal), "every play uses the most dice possible"
    assert legal.notations() == [str(play) for play in legal], "the quick notation is the plays' own"
    for i in rnd.sample(range(len(legal)), min(4, len(legal))):
        parsed = pos.parse_play(str(legal[i]), dice)
        assert legal.index(parsed) == i, f"{legal[i]} reads back as {parsed}"


def check_result(pos: Position, ref: Reference) -> bool:
    """The position's result is the reference's; True when the game is over."""
    result = pos.result()
    want = expected_result(pos, ref)
    got = None if result is None else (result.winner, result.points)
    assert got == want, f"{pos}: result {result}, expected {want}"
    if result is not None:
        assert result.points in ((0,) if result.winner is None else (1, 2))
    return result is not None


# -- random games ---------------------------------------------------------------

def play_random_game(variant_text: str, seed: int) -> int:
    """Play a game of random legal plays, checking every position and roll; return its length."""
    rnd = random.Random(seed)
    variant = make_variant(variant_text)
    ref = Reference(variant)
    pos = Position.start(variant, rnd.choice((WHITE, BLACK)))
    for ply in range(MAX_PLIES):
        check_position(pos)
        if check_result(pos, ref):
            return ply
        dice = Dice(rnd.randint(1, 6), rnd.randint(1, 6))
        check_roll(pos, ref, dice, rnd)
        legal = pos.legal_plays(dice)
        if len(legal):
            k = rnd.randrange(len(legal))
            nxt = pos.play(legal[k], dice)
            assert nxt == legal.after(k)
        else:
            nxt = pos.play("pass", dice)
        assert nxt.turn == pos.turn.other
        pos = nxt
    raise AssertionError(f"{variant_text} game {seed} did not end in {MAX_PLIES} plies")


@pytest.mark.slow
@GAMES
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS))
def test_random_games_match_the_reference(seed: int, variant: str) -> None:
    play_random_game(variant, seed)


# -- random positions ------------------------------------------------------------

def random_position(rnd: random.Random, variant_text: str) -> Position:
    """A random position: checkers anywhere, some borne off, on the bar, pinned."""
    variant = make_variant(variant_text)
    game = variant.name
    board: dict[Color, dict[int, int]] = {WHITE: {}, BLACK: {}}  # by White's points
    bar = {WHITE: 0, BLACK: 0}
    pins: dict[int, Color] = {}
    order = [WHITE, BLACK]
    rnd.shuffle(order)  # the second side may land under or on the first's lone checkers
    for color in order:
        left = 15
        if rnd.random() < 0.3:  # bearing off: everything home, some already off
            left -= rnd.randint(0, 14)
            allowed = range(1, 7)
        else:
            allowed = range(1, 25)
            if game == "portes" and rnd.random() < 0.3:
                bar[color] = rnd.randint(1, 3)
                left -= bar[color]
        own_board = board[color]
        other_board = board[color.other]
        free = []
        for own in allowed:
            wp = own if color == WHITE else other_point(game, own)
            theirs = other_board.get(wp, 0)
            if theirs == 0 or (game == "plakoto" and theirs == 1):
                free.append(wp)
        if not free:
            left, bar[color] = 0, 0
        spots = rnd.sample(free, rnd.randint(1, min(len(free), 8))) if free else []
        for _ in range(left):
            wp = rnd.choice(spots)
            own_board[wp] = own_board.get(wp, 0) + 1
    if game == "plakoto":
        for wp in range(1, 25):
            w, b = board[WHITE].get(wp, 0), board[BLACK].get(wp, 0)
            if w and b:
                pins[wp] = WHITE if w == 1 and (b > 1 or rnd.random() < 0.5) else BLACK
    tokens = []
    for wp in range(1, 25):
        w, b = board[WHITE].get(wp, 0), board[BLACK].get(wp, 0)
        if wp in pins:
            top = pins[wp].other
            tokens.append(f"{w if top == WHITE else b}{top.letter}{pins[wp].letter}")
        else:
            tokens.append(f"{w}w" if w else f"{b}b" if b else ".")
    off = {c: 15 - sum(board[c].values()) - bar[c] for c in (WHITE, BLACK)}
    turn = rnd.choice("wb")
    text = f"{variant} {''.join(tokens)} {turn} {bar[WHITE]}:{bar[BLACK]} {off[WHITE]}:{off[BLACK]}"
    pos = Position.from_string(text)
    assert str(pos) == text
    return pos


class Layout:
    """A position under construction, by each side's own points."""

    def __init__(self, variant_text: str) -> None:
        self.variant = make_variant(variant_text)
        self.board: dict[Color, dict[int, int]] = {WHITE: {}, BLACK: {}}  # by White's points
        self.pins: dict[int, Color] = {}
        self.bar = {WHITE: 0, BLACK: 0}

    def white_point(self, color: Color, own: int) -> int:
        return own if color == WHITE else other_point(self.variant.name, own)

    def left(self, color: Color) -> int:
        return 15 - sum(self.board[color].values()) - self.bar[color]

    def put(self, color: Color, own: int, n: int, pinned: Color | None = None) -> None:
        """Add checkers; without ``pinned`` only where the other side has none."""
        wp = self.white_point(color, own)
        n = min(n, self.left(color))
        if n <= 0 or (pinned is None and self.board[color.other].get(wp)):
            return
        self.board[color][wp] = self.board[color].get(wp, 0) + n
        if pinned is not None:
            self.pins[wp] = pinned

    def fill(self, rnd: random.Random, color: Color, points: list[int]) -> None:
        """Put the rest of ``color``'s checkers on a few of ``points`` that are free."""
        free = [p for p in points if not self.board[color.other].get(self.white_point(color, p))]
        spots = rnd.sample(free, min(len(free), rnd.randint(1, 5)))
        while spots and self.left(color):
            self.put(color, rnd.choice(spots), 1)

    def position(self, turn: Color) -> Position:
        tokens = []
        for wp in range(1, 25):
            w, b = self.board[WHITE].get(wp, 0), self.board[BLACK].get(wp, 0)
            if wp in self.pins:
                top = self.pins[wp].other
                tokens.append(f"{w if top == WHITE else b}{top.letter}{self.pins[wp].letter}")
            else:
                tokens.append(f"{w}w" if w else f"{b}b" if b else ".")
        bar = f"{self.bar[WHITE]}:{self.bar[BLACK]}"
        off = f"{self.left(WHITE)}:{self.left(BLACK)}"
        return Position.from_string(f"{self.variant} {''.join(tokens)} {turn.letter} {bar} {off}")


def closed_board_position(rnd: random.Random, variant_text: str) -> Position:
    """Portes: checkers on the bar against home tables with most or all points made."""
    lay = Layout(variant_text)
    for color in (WHITE, BLACK):
        if rnd.random() < 0.8:
            for p in rnd.sample(range(1, 7), rnd.randint(4, 6)):
                lay.put(color, p, 2)
    for color in (WHITE, BLACK):
        lay.bar[color] = min(rnd.choice((0, 1, 1, 2, 3)), lay.left(color))
        lay.fill(rnd, color, list(range(1, 25)))
    return lay.position(rnd.choice((WHITE, BLACK)))


def mother_position(rnd: random.Random, variant_text: str) -> Position:
    """Plakoto: a mother pinned, maybe both, the pinner with or without checkers at home."""
    lay = Layout(variant_text)
    victim = rnd.choice((WHITE, BLACK))
    pinner = victim.other
    lay.put(victim, 24, 1)
    lay.put(pinner, 1, rnd.randint(1, 3), pinned=victim)
    at_start = rnd.choice((0, 0, 1, 1, 2))
    if at_start == 1 and rnd.random() < 0.5:
        lay.put(pinner, 24, 1)
        lay.put(victim, 1, rnd.randint(1, 2), pinned=pinner)  # both mothers pinned
    else:
        lay.put(pinner, 24, at_start)
    for color in (pinner, victim):
        lay.fill(rnd, color, list(range(2, 24)))
    return lay.position(rnd.choice((WHITE, BLACK)))


def prime_position(rnd: random.Random, variant_text: str) -> Position:
    """Fevga: a side close to (or at) a prime limit: its start table, 7-12, or a trap."""
    lay = Layout(variant_text)
    mover = rnd.choice((WHITE, BLACK))
    opp = mover.other
    kind = rnd.choice(("own start", "opponent start", "trap", "stacked"))
    if kind == "stacked":
        # five of 19-24 stacked, the exits 13-18 closed, the rest stuck on the
        # 1-point: often every full play makes the prime, or every play does
        block = rnd.sample(range(19, 25), 5)
        for p in range(13, 19):
            lay.put(opp, other_point("fevga", p), 1)
        for p in block:
            lay.put(mover, p, rnd.randint(2, 3))
        lay.put(mover, 1, lay.left(mover))
        lay.fill(rnd, opp, list(range(1, 25)))
        return lay.position(mover)
    if kind == "trap":
        # all the opponent's checkers on his q (the rest, if any, borne off) and
        # the six points before it, counted on round the board when q < 7
        q = rnd.randint(1, 24)
        lay.put(opp, q, 15 if q >= 7 else rnd.randint(1, 15))
        block = [other_point("fevga", (q - k - 1) % 24 + 1) for k in range(1, 7)]
    else:
        block = list(range(19, 25)) if kind == "own start" else list(range(7, 13))
        exits = [p for p in range(1, 25) if min(block) - 6 <= p < min(block)]
        for p in rnd.sample(exits if rnd.random() < 0.5 else range(1, 25), rnd.randint(1, 6)):
            if p not in block:  # single blockers, often right in front of the block
                lay.put(opp, other_point("fevga", p), 1)
    for p in rnd.sample(block, rnd.randint(4, 6)):
        lay.put(mover, p, rnd.randint(1, 4))
    lay.fill(rnd, mover, list(range(1, 25)))
    if kind != "trap":
        lay.fill(rnd, opp, list(range(1, 25)))
    return lay.position(rnd.choice((mover, mover, opp)))


SPECIAL = {
    "portes": closed_board_position, "plakoto": mother_position, "plakoto,mother_pin=single": mother_position,
    "plakoto,mother_pin=off": mother_position, "fevga": prime_position,
    "fevga,prime_limits=off": prime_position, "fevga,prime_in_opponent_start=off": prime_position,
}


@pytest.mark.slow
@POSITIONS
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS))
def test_random_positions_match_the_reference(seed: int, variant: str) -> None:
    rnd = random.Random(seed)
    ref = Reference(make_variant(variant))
    for _ in range(20):
        pos = random_position(rnd, variant)
        check_position(pos)
        check_result(pos, ref)
        check_roll(pos, ref, Dice(rnd.randint(1, 6), rnd.randint(1, 6)), rnd)


@pytest.mark.slow
@POSITIONS
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(sorted(SPECIAL)))
def test_closed_board_mother_and_prime_positions_match_the_reference(seed: int, variant: str) -> None:
    rnd = random.Random(seed)
    ref = Reference(make_variant(variant))
    for _ in range(20):
        pos = SPECIAL[variant](rnd, variant)
        check_position(pos)
        check_result(pos, ref)
        check_roll(pos, ref, Dice(rnd.randint(1, 6), rnd.randint(1, 6)), rnd)


# -- the step tree a board walks -------------------------------------------------

def walks(tree: list[Any], node: int = 0, made: tuple[Step, ...] = ()) -> Iterator[tuple[tuple[Step, ...], int]]:
    """Every walk from ``node``, with the node it ends at."""
    yield made, node
    for step, child in tree[node].next:
        yield from walks(tree, child, (*made, step))


def check_step_tree(pos: Position, dice: Dice) -> None:
    legal = pos.legal_plays(dice)
    tree = legal.step_tree()
    if len(legal) == 0:
        assert [(n.next, n.play) for n in tree] == [((), None)]
        return
    complete: dict[tuple[Step, ...], int] = {}
    for made, node in walks(tree):
        replayed = pos.replay(made)
        assert replayed is not None, f"{made} is not legal die by die"
        assert [s.hit for s in replayed[0]] == [s.hit for s in made]
        play = tree[node].play
        if play is not None:
            assert np.array_equal(replayed[1], legal.results[play]) and len(made) == len(legal[play])
            complete[made] = play
        else:
            assert tree[node].next, "a dead end"
    assert set(complete.values()) == set(range(len(legal)))
    for k, play in enumerate(legal):
        assert complete.get(play.steps) == k  # the play as listed
        if any(s.dst == 0 for s in play.steps):
            continue  # replay does not count the dice a bear-off uses: it would allow orders the dice do not
        for order in set(itertools.permutations(play.steps)):  # every order of its steps that works
            replayed = pos.replay([Step(s.src, s.dst) for s in order])
            if replayed is not None and np.array_equal(replayed[1], legal.results[k]):
                assert complete.get(tuple(replayed[0])) == k


def plain_step_tree(legal: LegalPlays) -> list[StepNode]:
    """The step tree searched in plain Python, one die at a time, the boards met again merged by
    their bytes: the reference the compiled ``LegalPlays.step_tree`` is checked against."""
    if len(legal) == 0:
        return [StepNode((), None)]
    params, kernel = legal.position.variant.params, legal.position.variant.kernel_id
    d1, d2 = legal.dice
    start = (d1,) * 4 if d1 == d2 else (d1, d2)
    nodes: list[StepNode] = []
    ids: dict[tuple[bytes, tuple[int, ...]], int] = {}
    buf = np.empty((16, 2), np.int64)

    def visit(state: np.ndarray, left: tuple[int, ...]) -> int:
        key = (state.tobytes(), left)
        if key not in ids:
            play = legal.find_result(state)
            if play >= 0 and len(legal[play]) != len(start) - len(left):
                play = -1
            edges = []
            for die in sorted(set(left), reverse=True):
                rest = list(left)
                rest.remove(die)
                for src, dst in buf[:K.die_steps(state, die, params, buf)].tolist():
                    child = state.copy()
                    _, hit = K.apply_step(child, src, dst, kernel, np.uint64(0))
                    node = visit(child, tuple(rest))
                    if node >= 0:
                        edges.append((Step(src, dst, bool(hit)), node))
            ids[key] = -1 if play < 0 and not edges else len(nodes)
            if ids[key] >= 0:
                nodes.append(StepNode(tuple(edges), play if play >= 0 else None))
        return ids[key]

    root = visit(legal.position._state.copy(), start)
    return [StepNode(tuple((step, root - child) for step, child in nodes[old].next), nodes[old].play)
            for old in range(root, -1, -1)]


@pytest.mark.slow
@POSITIONS
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS), special=st.booleans())
def test_the_compiled_step_tree_is_the_plain_search(seed: int, variant: str, special: bool) -> None:
    rnd = random.Random(seed)
    for _ in range(5):
        pos = SPECIAL[variant](rnd, variant) if special else random_position(rnd, variant)
        if pos.result() is None:
            legal = pos.legal_plays(Dice(rnd.randint(1, 6), rnd.randint(1, 6)))
            assert legal.step_tree() == plain_step_tree(legal)


def test_the_compiled_step_tree_of_every_opening_roll_is_the_plain_search() -> None:
    for variant in VARIANTS:
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                legal = Position.start(variant).legal_plays(Dice(d1, d2))
                assert legal.step_tree() == plain_step_tree(legal)


@pytest.mark.slow
@POSITIONS
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(VARIANTS), special=st.booleans())
def test_the_step_tree_holds_every_order_of_every_play_and_nothing_else(seed: int, variant: str,
                                                                         special: bool) -> None:
    rnd = random.Random(seed)
    for _ in range(5):
        pos = SPECIAL[variant](rnd, variant) if special else random_position(rnd, variant)
        if pos.result() is None:
            check_step_tree(pos, Dice(rnd.randint(1, 6), rnd.randint(1, 6)))


def test_the_step_tree_of_a_start_double_is_small() -> None:
    legal = Position.start("portes").legal_plays("3-3")
    tree = legal.step_tree()
    assert len(tree) < 200 < sum(1 for _ in walks(tree))
    check_step_tree(Position.start("portes"), Dice(3, 3))
