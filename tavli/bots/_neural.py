"""Compiled evaluator, search and self-play training shared by the three games.

A network reads a kernel state with the side to move (the *mover*) about to
roll and answers three probabilities from the mover's view: he wins, he wins
2 points, he loses 2 points. ``equity = 2 * win - 1 + win2 - lose2`` is the
expected points in Tavli scoring.

The network is one hidden layer of sigmoid units over inputs designed for
each game (``encode``); inputs are sparse, so the first layer adds only the
rows of the inputs that are not zero. A network is the tuple
``(W1[n_in, H], b1[H], W2[3, H], b2[3])`` of ``float32`` arrays.

When both sides have all their checkers home, ``tavli.bots.bearoff`` answers
instead of the network (``race`` is its pair of tables; empty tables turn
it off).

Search depth follows GNU Backgammon's convention: 0-ply scores each play by
the network; 1-ply averages the opponent's best answer (by 0-ply) over his
21 rolls; 2-ply looks one roll further.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from tavli import _kernel as K
from tavli.bots.bearoff import all_home, race_probabilities

N_HIDDEN = 80
_BASE = 192  # 24 points x 2 sides x 4 units
_COMMON = 8
_CONTACT = 16  # Portes: each side's shots with blocks, contact and anchors (``_contact_game_inputs``)
_TIMING = 6  # Fevga: each side's spare pips, spare checkers and trapped checkers (``_timing_inputs``)
_PRIMES = 18  # Fevga: each side's longest and second blocks with the other's checkers behind (``_prime_inputs``)
_HOLDS = 8  # of those, the last: the rolls past the longest block, and the second block
_LEAD = 6  # Fevga: each side's first checker on its way past the other's start (``_lead_inputs``)
_BREAKS = 6  # Fevga: each side's rolls that break a block, and pips it cannot play (``_break_inputs``)
N_INPUTS = (_BASE + _COMMON + 9 + 4 + _CONTACT, _BASE + _COMMON + 9 + 48 + 4 + 4,
            _BASE + _COMMON + 9 + 4 + 24 + _TIMING + _PRIMES + _LEAD + _BREAKS)
"""Inputs per game, indexed by the kernel's variant number."""
INPUT_GROUP_ENDS = (
    (_BASE + _COMMON, _BASE + _COMMON + 9, _BASE + _COMMON + 9 + 4, N_INPUTS[0]),
    (_BASE + _COMMON, _BASE + _COMMON + 9, _BASE + _COMMON + 9 + 52, N_INPUTS[1]),
    (_BASE + _COMMON, _BASE + _COMMON + 9, _BASE + _COMMON + 9 + 4, _BASE + _COMMON + 9 + 4 + 24,
     _BASE + _COMMON + 9 + 4 + 24 + _TIMING, N_INPUTS[2] - _BREAKS - _LEAD - _HOLDS,
     N_INPUTS[2] - _BREAKS - _LEAD, N_INPUTS[2] - _BREAKS, N_INPUTS[2]))
"""Per game, where each group of its inputs ends, in the order they were added: the input counts
a network can have (``encode`` leaves out the groups that do not fit a shorter one)."""

WIN, WIN2, LOSE2 = 0, 1, 2

Network = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""``(W1[n_in, H], b1[H], W2[3, H], b2[3])``, all ``float32``."""
Tables = tuple[np.ndarray, np.ndarray]
"""The bear-off tables ``(finish, first_off)``."""
Arrays = tuple[np.ndarray, ...]
"""A move-generation workspace (``Workspace.args()``)."""


def new_network(variant: int, hidden: int = N_HIDDEN, seed: int = 0, inputs: int = 0) -> Network:
    """A freshly initialised network for ``variant`` (the kernel's game number), reading its
    first ``inputs`` inputs (0: all of them; else where one of ``INPUT_GROUP_ENDS`` is)."""
    rng = np.random.default_rng(seed)
    n_in = inputs or N_INPUTS[variant]
    w1 = rng.normal(0.0, 0.1, (n_in, hidden)).astype(np.float32)
    w2 = rng.normal(0.0, 0.1, (3, hidden)).astype(np.float32)
    return w1, np.zeros(hidden, np.float32), w2, np.zeros(3, np.float32)


def grown(array: np.ndarray, size: int, axis: int) -> np.ndarray:
    """``array`` with zeros appended along ``axis`` up to ``size``: weights that change nothing.

    A game's inputs are only ever added at the end of its list, so a network saved before an
    addition gets silent rows for the new inputs and plays exactly as it did.
    """
    shape = list(array.shape)
    shape[axis] = size - array.shape[axis]
    return np.ascontiguousarray(np.concatenate([array, np.zeros(shape, array.dtype)], axis=axis))


def widened(network: Network, hidden: int, seed: int) -> Network:
    """``network`` with ``hidden`` hidden units that values every position as before: the new
    units get random input weights (so that learning can tell them apart) and no weight to the
    outputs.

    >>> net = widened(new_network(0, hidden=4), 6, seed=1)
    >>> net[0].shape, net[2].shape, bool((net[2][:, 4:] == 0).all())
    ((229, 6), (3, 6), True)
    """
    w1, b1, w2, b2 = network
    have = b1.shape[0]
    if hidden < have:
        raise ValueError(f"the network has {have} hidden units; it can grow, not shrink to {hidden}")
    fresh = np.random.default_rng(seed).normal(0.0, 0.1, (w1.shape[0], hidden - have)).astype(np.float32)
    return (np.ascontiguousarray(np.concatenate([w1, fresh], axis=1)), grown(b1, hidden, 0), grown(w2, hidden, 1),
            b2)


# --- inputs -----------------------------------------------------------------

@njit(cache=True, inline="always")
def _opp_own(q: int, variant: int) -> int:
    """The opponent's own number for the mover's point ``q`` (1..24)."""
    if variant == K.FEVGA:
        return q + 12 if q <= 12 else q - 12
    return 25 - q


@njit(cache=True, inline="always")
def _units(x: np.ndarray, at: int, n: int) -> None:
    if n >= 1:
        x[at] = 1.0
    if n >= 2:
        x[at + 1] = 1.0
    if n >= 3:
        x[at + 2] = 1.0
    if n > 3:
        x[at + 3] = (n - 3) / 2.0


@njit(cache=True)
def _hits(dist_mask: np.int64) -> int:
    """How many of the 36 rolls contain a distance in ``dist_mask`` (bit d = distance d),
    counting single dice, the sum, and multiples of a double; blocks are ignored."""
    n = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            hit = False
            if d1 == d2:
                for k in range(1, 5):
                    if (dist_mask >> (d1 * k)) & 1:
                        hit = True
            else:
                if (dist_mask >> d1) & 1 or (dist_mask >> d2) & 1 or (dist_mask >> (d1 + d2)) & 1:
                    hit = True
            if hit:
                n += 1 if d1 == d2 else 2
    return n


@njit(cache=True)
def _is_race(s: np.ndarray, variant: int) -> bool:
    """No checker of either side can meet one of the other again."""
    top = 0
    for p in range(25, 0, -1):
        if s[p] > 0:
            top = p
            break
    if top == 0:
        return True
    if variant == K.FEVGA:
        for q in range(1, 13):
            if s[K.OPP + q] > 0:
                return False
        if top >= 13:
            for q in range(13, 25):
                if s[K.OPP + q] > 0:
                    return False
        return True
    low = 26
    if s[K.OPP + K.BAR] > 0:
        low = 0
    else:
        for q in range(1, 25):
            if s[K.OPP + q] > 0:
                low = q
                break
    return top < low


@njit(cache=True)
def encode(s: np.ndarray, variant: int, x: np.ndarray) -> None:
    """Write the network inputs for state ``s`` (mover to roll) into ``x``.

    A game's inputs are only ever added at the end of its list, and ``x`` is as long as the
    network's inputs: a group of inputs that does not fit is left out, so a network from before
    an addition does not pay for inputs it cannot read (``INPUT_GROUP_ENDS``)."""
    x[:] = 0.0
    n = x.shape[0]
    mine_pips = 25 * s[K.BAR]
    theirs_pips = 25 * s[K.OPP + K.BAR]
    for p in range(1, 25):
        _units(x, 4 * (p - 1), s[p])
        _units(x, 96 + 4 * (p - 1), s[K.OPP + p])
        mine_pips += p * s[p]
        theirs_pips += _opp_own(p, variant) * s[K.OPP + p]
    c = _BASE
    x[c] = s[K.BAR] / 2.0
    x[c + 1] = s[K.OPP + K.BAR] / 2.0
    x[c + 2] = s[K.OFF] / 15.0
    x[c + 3] = s[K.OPP + K.OFF] / 15.0
    x[c + 4] = mine_pips / 100.0
    x[c + 5] = theirs_pips / 100.0
    # longest blocks, each side along his own direction
    need = 1 if variant == K.FEVGA else 2
    run = 0
    best = 0
    for p in range(1, 25):
        held = s[p] >= need or (variant == K.PLAKOTO and s[p] == 1 and s[K.PIN + p] == K.PIN_THEIRS)
        run = run + 1 if held else 0
        best = max(best, run)
    x[c + 6] = best / 6.0
    run = 0
    best = 0
    for m in range(1, 25):
        q = _opp_own(m, variant)
        held = s[K.OPP + q] >= need or (variant == K.PLAKOTO and s[K.OPP + q] == 1
                                         and s[K.PIN + q] == K.PIN_MINE)
        run = run + 1 if held else 0
        best = max(best, run)
    x[c + 7] = best / 6.0
    c += _COMMON
    if variant == K.FEVGA:
        if c + 9 > n:
            return
        mine_blocking, theirs_blocking = _fevga_blocking(s)
        _fevga_inputs(s, mine_blocking, theirs_blocking, x, c)
        c += 9
        if c + 4 <= n:
            _escape_inputs(s, variant, x, c)
        c += 4
        if c + 24 <= n:
            _mobility_inputs(s, variant, x, c)
        c += 24
        if c + _TIMING <= n:
            _timing_inputs(s, mine_blocking, theirs_blocking, x, c)
        c += _TIMING
        if c + _PRIMES - _HOLDS <= n:
            _prime_inputs(s, x, c, c + _PRIMES <= n)
        c += _PRIMES
        if c + _LEAD <= n:
            _lead_inputs(s, x, c)
        c += _LEAD
        if c + _BREAKS <= n:
            _break_inputs(s, mine_blocking, theirs_blocking, x, c)
        return
    if c + 9 > n:
        return
    _contact_inputs(s, variant, x, c)
    c += 9
    if variant == K.PLAKOTO:
        if c + 52 <= n:
            _plakoto_inputs(s, x, c)
        c += 52
        if c + 4 <= n:
            _escape_inputs(s, variant, x, c)
    else:
        if c + 4 <= n:
            _escape_inputs(s, variant, x, c)
        c += 4
        if c + _CONTACT <= n:
            _contact_game_inputs(s, x, c)


@njit(cache=True)
def _contact_inputs(s: np.ndarray, variant: int, x: np.ndarray, c: int) -> None:
    """Portes and Plakoto: blots in reach (hit or pin), shots, home points, race."""
    plakoto = variant == K.PLAKOTO
    my_direct = 0
    my_indirect = 0
    their_direct = 0
    their_indirect = 0
    my_shots = np.int64(0)  # distances from my checkers to their lone checkers
    their_shots = np.int64(0)
    for p in range(1, 25):
        mine_lone = s[p] == 1 and not (plakoto and s[K.PIN + p] != 0)
        theirs_lone = s[K.OPP + p] == 1 and not (plakoto and s[K.PIN + p] != 0)
        if mine_lone:
            # they move up my numbering; their bar enters from 0
            close = False
            far = False
            for q in range(0, p):
                n = s[K.OPP + K.BAR] if q == 0 else s[K.OPP + q]
                if n > 0 and not (plakoto and q > 0 and s[K.PIN + q] == K.PIN_THEIRS):
                    d = p - q
                    if d <= 6:
                        close = True
                    elif d <= 12:
                        far = True
                    if d <= 24:
                        their_shots |= np.int64(1) << d
            my_direct += close
            my_indirect += far and not close
        if theirs_lone:
            close = False
            far = False
            for r in range(p + 1, 26):
                if s[r] > 0 and not (plakoto and r < 25 and s[K.PIN + r] == K.PIN_MINE):
                    d = r - p
                    if d <= 6:
                        close = True
                    elif d <= 12:
                        far = True
                    my_shots |= np.int64(1) << d
            their_direct += close
            their_indirect += far and not close
    x[c] = my_direct / 4.0
    x[c + 1] = my_indirect / 4.0
    x[c + 2] = their_direct / 4.0
    x[c + 3] = their_indirect / 4.0
    home = 0
    their_home = 0
    for p in range(1, 7):
        home += s[p] >= 2
        their_home += s[K.OPP + 25 - p] >= 2
    x[c + 4] = home / 6.0
    x[c + 5] = their_home / 6.0
    x[c + 6] = _hits(my_shots) / 36.0
    x[c + 7] = _hits(their_shots) / 36.0
    x[c + 8] = 1.0 if _is_race(s, variant) else 0.0


def _escape_table() -> np.ndarray:
    """For each set of blocked points among the twelve in front of a checker (bit i: the point
    i + 1 away), how many of the 36 rolls carry it past them as GNU Backgammon counts it: the
    point the whole roll reaches is open, and so is at least one of the points each die alone
    reaches."""
    table = np.zeros(1 << 12, np.int64)
    for mask in range(1 << 12):
        for a in range(1, 7):
            for b in range(1, 7):
                if not mask >> (a + b - 1) & 1 and not (mask >> (a - 1) & 1 and mask >> (b - 1) & 1):
                    table[mask] += 1
    return table


_ESCAPES = _escape_table()

_POINTS = (1 << 25) - 2  # bits 1..24 of a mask of points
# the 21 rolls: (die, die, how many of the 36 throws give it)
_ROLLS = np.array([(d1, d2, 1 if d1 == d2 else 2) for d1 in range(1, 7) for d2 in range(d1, 7)],
                  np.int64)


@njit(cache=True, inline="always")
def _mover_point(own: int, mine: bool, variant: int) -> int:
    """The mover's number of a side's own point ``own`` (1..24)."""
    return own if mine else _opp_own(own, variant)


@njit(cache=True, inline="always")
def _blocks(s: np.ndarray, q: int, mine: bool, variant: int) -> bool:
    """The mover's point ``q`` is closed to the mover's checkers (``mine``) or to the
    opponent's: two or more of the other side's checkers (one in Fevga), or in Plakoto one
    that pins."""
    other = s[K.OPP + q] if mine else s[q]
    if other >= (1 if variant == K.FEVGA else 2):
        return True
    return variant == K.PLAKOTO and other == 1 and s[K.PIN + q] == (K.PIN_MINE if mine else K.PIN_THEIRS)


@njit(cache=True)
def _escapes(s: np.ndarray, own: int, mine: bool, variant: int) -> int:
    """Rolls of 36 that take a checker on a side's own point ``own`` (25: the bar) past the
    other side's blocks in the twelve points in front of it. ``mine``: the mover's checker;
    otherwise the opponent's."""
    mask = 0
    for i in range(min(12, own - 1)):
        if _blocks(s, _mover_point(own - 1 - i, mine, variant), mine, variant):
            mask |= 1 << i
    return int(_ESCAPES[mask])


@njit(cache=True)
def _free_back(s: np.ndarray, mine: bool, variant: int) -> int:
    """A side's rearmost checker that can move, by its own numbering (25: the bar; 0: none).
    A pinned checker cannot, so it is passed over."""
    if (s[K.BAR] if mine else s[K.OPP + K.BAR]) > 0:
        return 25
    for own in range(24, 0, -1):
        q = _mover_point(own, mine, variant)
        if (s[q] if mine else s[K.OPP + q]) > 0 and not (
                variant == K.PLAKOTO and s[K.PIN + q] == (K.PIN_MINE if mine else K.PIN_THEIRS)):
            return own
    return 0


@njit(cache=True)
def _escape_inputs(s: np.ndarray, variant: int, x: np.ndarray, c: int) -> None:
    """Escapes and containment: how freely each side's rearmost free checker can run past the
    other's points, and how well each side's points hold the other's checkers back
    (GNU Backgammon's back escapes and containment)."""
    back = _free_back(s, True, variant)
    their_back = _free_back(s, False, variant)
    x[c] = _escapes(s, back, True, variant) / 36.0 if back > 0 else 1.0
    x[c + 1] = _escapes(s, their_back, False, variant) / 36.0 if their_back > 0 else 1.0
    # containment: the fewest escapes from the other side's back area (his points 15..24)
    least = 36
    their_least = 36
    for own in range(15, 25):
        least = min(least, _escapes(s, own, True, variant))
        their_least = min(their_least, _escapes(s, own, False, variant))
    x[c + 2] = (36 - their_least) / 36.0
    x[c + 3] = (36 - least) / 36.0


@njit(cache=True)
def _side_frame(s: np.ndarray, mine: bool, own: np.ndarray, other: np.ndarray) -> None:
    """Portes, one side's view: ``own[p]`` its checkers on its own point ``p`` (25: the bar),
    ``other[p]`` the other side's checkers there (0: the other side's bar)."""
    for p in range(1, 25):
        q = p if mine else 25 - p
        own[p] = s[q] if mine else s[K.OPP + q]
        other[p] = s[K.OPP + q] if mine else s[q]
    own[25] = s[K.BAR] if mine else s[K.OPP + K.BAR]
    other[0] = s[K.OPP + K.BAR] if mine else s[K.BAR]
    own[0] = 0
    other[25] = 0


@njit(cache=True, inline="always")
def _roll_index(d1: int, d2: int) -> int:
    """A roll's place among the 36 slots of ``_roll_hits`` (``d1 <= d2``; 21 of them used)."""
    return 6 * (d1 - 1) + d2 - 1


@njit(cache=True)
def _roll_hits(own: np.ndarray, other: np.ndarray, best: np.ndarray) -> None:
    """Into ``best[_roll_index(d1, d2)]`` (``d1 <= d2``), the farthest-back blot of the other
    side's that a side (by ``_side_frame``) can hit with ``d1-d2``, as the pips it costs him (a
    blot on the hitter's point ``t`` loses ``t``); 0 when the roll hits nothing. Points of two
    stop the steps and checkers on the bar enter first; which plays the rules then force is not
    looked at."""
    best[:] = 0
    bar = own[25]
    for t in range(1, 25):
        if other[t] != 1:
            continue
        for src in range(t + 1, 26):
            if own[src] == 0:
                continue
            dist = src - t
            entering = src == 25
            if dist <= 6 and (bar <= 1 or entering):
                for e in range(1, 7):  # the other die; a checker on the bar enters with it
                    if e != dist and (bar == 0 or entering or other[25 - e] < 2):
                        k = _roll_index(min(e, dist), max(e, dist))
                        best[k] = max(best[k], t)
            if bar == 0 or (bar == 1 and entering):  # one checker, both dice
                for d1 in range(max(1, dist - 6), (dist + 1) // 2):
                    d2 = dist - d1
                    if other[src - d1] < 2 or other[src - d2] < 2:
                        k = _roll_index(d1, d2)
                        best[k] = max(best[k], t)
            for d in range(1, 7):  # doubles
                if dist % d != 0 or (bar > 0 and other[25 - d] >= 2):
                    continue
                steps = max(4 - bar, 0) + (1 if entering else 0)
                if dist // d > steps:
                    continue
                open_ = True
                for j in range(1, dist // d):
                    if other[src - j * d] >= 2:
                        open_ = False
                        break
                if open_:
                    k = _roll_index(d, d)
                    best[k] = max(best[k], t)


@njit(cache=True)
def _shots_with_blocks(own: np.ndarray, other: np.ndarray, best: np.ndarray) -> tuple[int, int]:
    """The rolls of 36 that hit (``_roll_hits``, into ``best``), and their pips lost summed
    over the 36."""
    _roll_hits(own, other, best)
    rolls = 0
    loss = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            t = best[_roll_index(d1, d2)]
            if t > 0:
                w = 1 if d1 == d2 else 2
                rolls += w
                loss += w * t
    return rolls, loss


@njit(cache=True)
def _contact_game_inputs(s: np.ndarray, x: np.ndarray, c: int) -> None:
    """Portes, eight inputs for each side, the mover first: the rolls that hit a blot of the
    other's (blocks and the bar counted) and the pips they cost him (GNU Backgammon's pip
    loss), the pips still to play to get past the other's rearmost checker and those of
    checkers already past it, the rearmost checker, the rearmost and foremost anchors in the
    other's half, and the rolls that fail to enter from the bar."""
    own = np.zeros(26, np.int64)
    other = np.zeros(26, np.int64)
    best = np.zeros(36, np.int64)
    for side in range(2):
        _side_frame(s, side == 0, own, other)
        at = c + 8 * side
        rolls, loss = _shots_with_blocks(own, other, best)
        x[at] = rolls / 36.0
        x[at + 1] = loss / (36.0 * 12.0)
        last = 0  # the other side's rearmost checker, by this side's numbers (0: his bar)
        if other[0] == 0:
            last = 25
            for p in range(1, 25):
                if other[p] > 0:
                    last = p
                    break
        to_pass = 0
        free = 0
        back = 0
        back_anchor = 0
        front_anchor = 0
        for p in range(1, 26):
            n = own[p]
            if n == 0:
                continue
            back = p
            if p >= last:
                to_pass += n * (p - last + 1)
            else:
                free += n * p
            if 13 <= p <= 24 and n >= 2:
                back_anchor = p
                if front_anchor == 0:
                    front_anchor = p
        x[at + 2] = to_pass / 100.0
        x[at + 3] = free / 100.0
        x[at + 4] = back / 25.0
        x[at + 5] = back_anchor / 24.0
        x[at + 6] = front_anchor / 24.0
        if own[25] > 0:
            closed = 0
            for p in range(19, 25):
                closed += other[p] >= 2
            x[at + 7] = closed * closed / 36.0


@njit(cache=True)
def _movers(s: np.ndarray, mine: bool, variant: int, n: np.ndarray) -> None:
    """Into ``n[d - 1]``, how many of a side's points hold a checker that can move ``d`` pips (a
    single step by the rules, whatever the other die): into an open point, or off once every
    checker is home. A checker on the bar must enter first; a pinned one cannot move; in Fevga,
    until a checker has passed the opponent's start, a second may not leave the start."""
    opp = 0 if mine else K.OPP
    n[:] = 0
    if s[opp + K.BAR] > 0:
        for d in range(1, 7):
            n[d - 1] = 0 if _blocks(s, _mover_point(25 - d, mine, variant), mine, variant) else 1
        return
    open_to = np.int64(0)  # bit p: the side's own point p is open to him
    sources = np.int64(0)  # bit p: a checker on his own point p is free to move
    top = 0
    lead_gone = s[opp + K.OFF] > 0
    beyond_start = False
    for own in range(24, 0, -1):
        q = _mover_point(own, mine, variant)
        if not _blocks(s, q, mine, variant):
            open_to |= np.int64(1) << own
        if s[opp + q] > 0:
            if top == 0:
                top = own
            if own <= 11:
                lead_gone = True
            elif own < 24:
                beyond_start = True
            if not (variant == K.PLAKOTO and s[K.PIN + q] == (K.PIN_MINE if mine else K.PIN_THEIRS)):
                sources |= np.int64(1) << own
    if variant == K.FEVGA and beyond_start and not lead_gone:
        sources &= ~(np.int64(1) << 24)
    for own in range(top, 0, -1):
        if sources >> own & 1:
            for d in range(1, 7):
                to = own - d
                if to >= 1:
                    n[d - 1] += open_to >> to & 1
                elif top <= 6 and (to == 0 or own == top):
                    n[d - 1] += 1


@njit(cache=True)
def _mobility_inputs(s: np.ndarray, variant: int, x: np.ndarray, c: int) -> None:
    """For each side and each die, whether no checker can move that number, and how many
    points can (to four): a side that cannot use a number is stuck when it comes."""
    n = np.zeros(6, np.int64)
    for side in range(2):
        _movers(s, side == 0, variant, n)
        for d in range(6):
            at = c + 12 * side + 2 * d
            x[at] = 1.0 if n[d] == 0 else 0.0
            x[at + 1] = min(n[d], 4) / 4.0


@njit(cache=True)
def _plakoto_inputs(s: np.ndarray, x: np.ndarray, c: int) -> None:
    """Pins on every point, the mothers, and the checkers still at the start."""
    for p in range(1, 25):
        if s[K.PIN + p] == K.PIN_MINE:
            x[c + p - 1] = 1.0
        elif s[K.PIN + p] == K.PIN_THEIRS:
            x[c + 24 + p - 1] = 1.0
    c += 48
    x[c] = 1.0 if s[24] == 1 and s[K.PIN + 24] == K.PIN_MINE else 0.0
    x[c + 1] = 1.0 if s[K.OPP + 1] == 1 and s[K.PIN + 1] == K.PIN_THEIRS else 0.0
    x[c + 2] = s[24] / 15.0
    x[c + 3] = s[K.OPP + 1] / 15.0


@njit(cache=True)
def _first_checker_away(s: np.ndarray, mine: bool) -> int:
    """Fevga: while a side's first checker has not yet passed the other side's start (none of
    its checkers off or on its own points 1..11), that checker's own point (12..24); once it has
    passed, 0. Until then no second checker may leave the side's start."""
    if (s[K.OFF] if mine else s[K.OPP + K.OFF]) > 0:
        return 0
    for own in range(1, 25):
        if (s[own] if mine else s[K.OPP + _opp_own(own, K.FEVGA)]) > 0:
            return own if own > 11 else 0
    return 0


@njit(cache=True)
def _fevga_inputs(s: np.ndarray, mine_blocking: np.ndarray, theirs_blocking: np.ndarray,
                  x: np.ndarray, c: int) -> None:
    """The first-checker state, the start points, the home boards, points in the
    opponent's way, and the race."""
    x[c] = 1.0 if _first_checker_away(s, True) else 0.0
    x[c + 1] = 1.0 if _first_checker_away(s, False) else 0.0
    x[c + 2] = s[24] / 15.0
    x[c + 3] = s[K.OPP + 12] / 15.0
    home = 0
    their_home = 0
    for p in range(1, 7):
        home += s[p] > 0
        their_home += s[K.OPP + 12 + p] > 0
    x[c + 4] = home / 6.0
    x[c + 5] = their_home / 6.0
    x[c + 6] = mine_blocking.sum() / 6.0
    x[c + 7] = theirs_blocking.sum() / 6.0
    x[c + 8] = 1.0 if _is_race(s, K.FEVGA) else 0.0


@njit(cache=True)
def _fevga_blocking(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Fevga, by the mover's point numbers: the points each side holds within six points in
    front of the other side's checkers (the points that block him)."""
    mine_blocking = np.zeros(25, np.bool_)
    theirs_blocking = np.zeros(25, np.bool_)
    for p in range(1, 25):
        if s[K.OPP + p] > 0:
            own = _opp_own(p, K.FEVGA)
            for d in range(1, 7):
                if own - d >= 1:
                    q = _opp_own(own - d, K.FEVGA)
                    if s[q] > 0:
                        mine_blocking[q] = True
        if s[p] > 0:
            for d in range(1, 7):
                if p - d >= 1 and s[K.OPP + p - d] > 0:
                    theirs_blocking[p - d] = True
    return mine_blocking, theirs_blocking


@njit(cache=True)
def _timing_inputs(s: np.ndarray, mine_blocking: np.ndarray, theirs_blocking: np.ndarray,
                   x: np.ndarray, c: int) -> None:
    """Fevga's timing, each side (the mover's first): the pips its spare checkers (all but the
    one holding each point that blocks the other side) can play before it must give up a block,
    how many spares it has, and how trapped its checkers are (the rolls of 36 that do not carry
    each one past the other side's points, summed): a side that runs out of spare pips, or whose
    checkers cannot move, must break its own blocks. ``mine_blocking``/``theirs_blocking``:
    ``_fevga_blocking(s)``."""
    for side in range(2):
        mine = side == 0
        spare_pips = 0
        spares = 0
        stuck = 0
        for own in range(1, 25):
            q = _mover_point(own, mine, K.FEVGA)
            n = s[q] if mine else s[K.OPP + q]
            if n == 0:
                continue
            spare = n - 1 if (mine_blocking[q] if mine else theirs_blocking[q]) else n
            spares += spare
            spare_pips += spare * (own - 1)
            stuck += n * (36 - _escapes(s, own, mine, K.FEVGA))
        x[c + 3 * side] = spare_pips / 100.0
        x[c + 3 * side + 1] = spares / 15.0
        x[c + 3 * side + 2] = stuck / (36.0 * 15.0)


@njit(cache=True)
def _longest_block(s: np.ndarray, mine: bool, skip_front: int, skip_back: int) -> tuple[int, int, int]:
    """Fevga: a side's longest run of points in a row on the other side's path with some of his
    checkers still behind it, leaving out the points ``skip_front..skip_back`` of his path (0, 0:
    none), as ``(length, front, held)``: its length, his number of its front point and how many
    of his checkers it holds back; all zero if there is none. Ties go to the block with more
    checkers behind."""
    length = 0
    front = 0
    held = 0
    run = 0
    behind = 0
    for own in range(24, 0, -1):  # his path, his 24 to 1
        q = _mover_point(own, not mine, K.FEVGA)
        if _blocks(s, q, not mine, K.FEVGA) and not skip_front <= own <= skip_back:
            run += 1
            if behind > 0 and run >= length:
                length = run
                front = own
                held = behind
        else:
            run = 0
            behind += s[K.OPP + q] if mine else s[q]
    return length, front, held


@njit(cache=True)
def _passing_rolls(open_: int, start: int, front: int) -> int:
    """The rolls on which a checker on its side's point ``start`` lands in front of the point
    ``front``, one die at a time over open points (bit ``p`` of ``open_``, by that side's
    numbers), as a mask over ``_ROLLS``' 21 rolls. Doubles move up to four times."""
    mask = 0
    for r in range(21):
        d1 = _ROLLS[r, 0]
        d2 = _ROLLS[r, 1]
        if d1 == d2:
            at = start
            for _ in range(4):
                at -= d1
                if at < 1 or not open_ >> at & 1:
                    break
                if at < front:
                    mask |= 1 << r
                    break
            continue
        for a, b in ((d1, d2), (d2, d1)):
            mid = start - a
            if mid < 1 or not open_ >> mid & 1:
                continue
            end = mid - b
            if mid < front or (end >= 1 and end < front and open_ >> end & 1):
                mask |= 1 << r
                break
    return mask


@njit(cache=True)
def _prime_inputs(s: np.ndarray, x: np.ndarray, c: int, holds: bool) -> None:
    """Fevga's primes, each side (the mover's first): its longest run of points in a row on the
    other side's path with some of his checkers still behind it (``_longest_block``), and of
    that block: its length, how many of his checkers it holds back, where it stands on his path
    (his number of its front point), and which side must give way first: the pips the block's
    side can play without breaking it, less the pips the other side can play without passing it
    (his checkers in front of it to the end, those behind it up to it), over 200 and to 1, as
    two inputs, what it is ahead and what behind, so that the turn from one to the other is a
    step of its own. A side with no such block has all five at zero.

    After those ten, four more each side (the mover's first): the rolls of 36 that carry at
    least one of the checkers the longest block holds back past it, and the second block (the
    longest once the first one's points are left out): its length, the checkers it holds back
    and its front point; only with ``holds``."""
    for side in range(2):
        mine = side == 0  # the block's side; the other side's path is walked, his 24 to 1
        length, front, held = _longest_block(s, mine, 0, 0)
        if length == 0:
            continue
        back = front + length - 1
        spare_pips = 0
        for own in range(1, 25):
            q = _mover_point(own, mine, K.FEVGA)
            n = s[q] if mine else s[K.OPP + q]
            theirs = _opp_own(q, K.FEVGA) if mine else q  # the other side's number of the point
            if n > 0 and front <= theirs <= back:
                n -= 1
            spare_pips += n * (own - 1)
        their_pips = 0
        open_ = 0  # bit p: his point p open to him
        for own in range(1, 25):
            q = _mover_point(own, not mine, K.FEVGA)
            if not _blocks(s, q, not mine, K.FEVGA):
                open_ |= 1 << own
            n = s[K.OPP + q] if mine else s[q]
            if own < front:
                their_pips += n * (own - 1)
            elif own > back:
                their_pips += n * (own - back - 1)
        at = c + 5 * side
        x[at] = length / 6.0
        x[at + 1] = held / 15.0
        x[at + 2] = front / 24.0
        time = (spare_pips - their_pips) / 200.0
        x[at + 3] = min(1.0, time) if time > 0 else 0.0
        x[at + 4] = min(1.0, -time) if time < 0 else 0.0
        if not holds:
            continue
        rolls = 0
        for own in range(back + 1, 25):  # the checkers it holds back, by his numbers
            q = _mover_point(own, not mine, K.FEVGA)
            if (s[K.OPP + q] if mine else s[q]) > 0:
                rolls |= _passing_rolls(open_, own, front)
                if rolls == (1 << 21) - 1:
                    break
        escapes = 0
        for r in range(21):
            if rolls >> r & 1:
                escapes += _ROLLS[r, 2]
        at = c + 10 + 4 * side
        x[at] = escapes / 36.0
        length, front, held = _longest_block(s, mine, front, back)
        x[at + 1] = length / 6.0
        x[at + 2] = held / 15.0
        x[at + 3] = front / 24.0


@njit(cache=True)
def _open_points(s: np.ndarray, mine: bool) -> int:
    """Fevga: the points open to a side's checkers, as a mask by its own numbers (bit ``p``: its
    point ``p``)."""
    open_ = 0
    for own in range(1, 25):
        if not _blocks(s, _mover_point(own, mine, K.FEVGA), mine, K.FEVGA):
            open_ |= 1 << own
    return open_


@njit(cache=True)
def _lead_inputs(s: np.ndarray, x: np.ndarray, c: int) -> None:
    """Fevga's first checker away, each side (the mover's first), while it has not yet passed the
    other side's start: the pips it still has to go to pass it (to his 11 or lower), over 13; the
    rolls of 36 that carry it past this turn; and the share of a roll's pips the side loses on
    average, since only that checker may move and a die it cannot use is lost (once it has passed,
    the rest of the roll counts as played). All three are zero for a side whose first checker has
    passed. Until then the other fourteen wait on the start point, so a side whose lead checker is
    blocked loses whole rolls, which the timing inputs, counting every checker as free to move,
    do not see."""
    for side in range(2):
        mine = side == 0
        lead = _first_checker_away(s, mine)
        if not lead:
            continue
        open_ = _open_points(s, mine)
        passing = _passing_rolls(open_, lead, 12)
        rolls = 0
        lost = 0.0
        for r in range(21):
            d1 = _ROLLS[r, 0]
            d2 = _ROLLS[r, 1]
            weight = _ROLLS[r, 2]
            if passing >> r & 1:
                rolls += weight
                continue  # past the other's start, the rest of the roll can be played
            if d1 == d2:
                at = lead
                steps = 0
                while steps < 4 and at - d1 >= 1 and open_ >> (at - d1) & 1:
                    at -= d1
                    steps += 1
                lost += weight * (4 - steps) / 4.0
            else:
                used = 0
                for a, b in ((d1, d2), (d2, d1)):
                    mid = lead - a
                    if mid < 1 or not open_ >> mid & 1:
                        continue
                    end = mid - b
                    used = max(used, a + b if end >= 1 and open_ >> end & 1 else a)
                lost += weight * (d1 + d2 - used) / (d1 + d2)
        at = c + 3 * side
        x[at] = (lead - 11) / 13.0
        x[at + 1] = rolls / 36.0
        x[at + 2] = lost / 36.0


@njit(cache=True, inline="always")
def _bit_count(mask: int) -> int:
    """The set bits of a mask of points (bits below 32)."""
    mask = mask - (mask >> 1 & 0x55555555)
    mask = (mask & 0x33333333) + (mask >> 2 & 0x33333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F
    return (mask * 0x01010101) >> 24 & 0xFF


@njit(cache=True, inline="always")
def _checkers_on(planes: np.ndarray, mask: int) -> int:
    """The checkers on the points of ``mask``, the counts held as bit planes (bit ``p`` of
    ``planes[b]``: bit ``b`` of the count on point ``p``), so a sum over points is four counts of
    bits rather than a loop."""
    return (_bit_count(mask & planes[0]) + 2 * _bit_count(mask & planes[1])
            + 4 * _bit_count(mask & planes[2]) + 8 * _bit_count(mask & planes[3]))


@njit(cache=True, inline="always")
def _occupied(planes: np.ndarray) -> int:
    """The points with a checker on them, of counts held as bit planes (``_checkers_on``)."""
    return int(planes[0] | planes[1] | planes[2] | planes[3])


@njit(cache=True)
def _playable_pips(planes: np.ndarray, occupied: int, masks: np.ndarray, d1: int, d2: int) -> int:
    """Fevga: the most pips of the roll ``d1``-``d2`` that a side's checkers, counted on its own
    points by the bit ``planes`` (``_checkers_on``; ``occupied``: ``_occupied(planes)``), can
    play: bit ``p`` of ``masks[d]`` says a checker on the side's point ``p`` can move ``d`` (the
    point ``d`` in front is open to it, or it may bear off). A side's own checkers never stand in
    its way, and the other side's do not move during the turn, so each die is open or closed to a
    checker whatever the rest of the play does."""
    if d1 == d2:
        chain = occupied & masks[d1]
        steps = _checkers_on(planes, chain)
        for k in range(1, 4):
            if steps >= 4:
                break
            chain &= masks[d1] << (k * d1)  # the checkers that can move once more
            if chain == 0:
                break
            steps += _checkers_on(planes, chain)
        return min(4, steps) * d1
    if occupied & (masks[d1] & masks[d2] << d1 | masks[d2] & masks[d1] << d2):
        return d1 + d2  # one checker plays both dice
    first = _checkers_on(planes, masks[d1])
    second = _checkers_on(planes, masks[d2])
    either = occupied & (masks[d1] | masks[d2])
    if first > 0 and second > 0 and not (first == 1 and second == 1 and either & (either - 1) == 0):
        return d1 + d2  # two checkers, one die each
    return max(d1 if first > 0 else 0, d2 if second > 0 else 0)


@njit(cache=True)
def _break_inputs(s: np.ndarray, mine_blocking: np.ndarray, theirs_blocking: np.ndarray,
                 x: np.ndarray, c: int) -> None:
    """Fevga, each side (the mover's first), over its next roll: the rolls of 36 that its spare
    checkers (the timing inputs' spares: all but the one holding each point that blocks the other
    side) cannot play whole, so that it must give up a block or lose pips; the share of a roll's
    pips, on average, that the spares cannot play; and the share that no checker can play, which
    is lost. While a side's first checker has not passed the other's start, only that checker
    counts. The timing inputs count the spare pips and the mobility inputs each die alone; these
    say how the next roll goes, which a search of one ply sees only for the opponent.
    ``mine_blocking``/``theirs_blocking``: ``_fevga_blocking(s)``."""
    planes = np.zeros(4, np.int64)
    spare_planes = np.zeros(4, np.int64)
    masks = np.zeros(7, np.int64)
    for side in range(2):
        mine = side == 0
        open_ = _open_points(s, mine)
        home = True
        lead = _first_checker_away(s, mine)
        planes[:] = 0
        spare_planes[:] = 0
        for own in range(1, 25):
            q = _mover_point(own, mine, K.FEVGA)
            n = int(s[q] if mine else s[K.OPP + q])
            if n > 0 and own > 6:
                home = False
            if lead:
                n = 1 if own == lead else 0
            spare = n - 1 if n > 0 and not lead and (
                mine_blocking[q] if mine else theirs_blocking[q]) else n
            if n > 0:
                for b in range(4):
                    planes[b] |= (n >> b & 1) << own
                    spare_planes[b] |= (spare >> b & 1) << own
        occupied = _occupied(planes)
        spared = _occupied(spare_planes)
        for die in range(1, 7):
            masks[die] = (open_ << die | ((1 << (die + 1)) - 2 if home else 0)) & _POINTS
        forced = 0
        spare_lost = 0.0
        lost = 0.0
        for r in range(21):
            d1 = _ROLLS[r, 0]
            d2 = _ROLLS[r, 1]
            weight = _ROLLS[r, 2]
            whole = 4 * d1 if d1 == d2 else d1 + d2
            by_spares = _playable_pips(spare_planes, spared, masks, d1, d2)
            if by_spares < whole:
                forced += weight
                spare_lost += weight * (whole - by_spares) / whole
                lost += weight * (whole - _playable_pips(planes, occupied, masks, d1, d2)) / whole
        at = c + 3 * side
        x[at] = forced / 36.0
        x[at + 1] = spare_lost / 36.0
        x[at + 2] = lost / 36.0


# --- evaluation -------------------------------------------------------------

@njit(cache=True, inline="always")
def _sigmoid(a: float) -> float:
    if a < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-a))


@njit(cache=True)
def forward(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
            h: np.ndarray, out: np.ndarray) -> None:
    """The network's outputs for inputs ``x`` into ``out``; hidden activations into ``h``."""
    hidden = b1.shape[0]
    for j in range(hidden):
        h[j] = b1[j]
    for i in range(x.shape[0]):
        v = x[i]
        if v != 0.0:
            for j in range(hidden):
                h[j] += v * w1[i, j]
    for j in range(hidden):
        h[j] = _sigmoid(h[j])
    for k in range(3):
        a = b2[k]
        for j in range(hidden):
            a += h[j] * w2[k, j]
        out[k] = _sigmoid(a)


@njit(cache=True, inline="always")
def equity(w: float, w2: float, l2: float) -> float:
    return 2.0 * w - 1.0 + w2 - l2


MONEY = np.array([[-1.0, 2.0, 1.0, -1.0], [-1.0, 2.0, 1.0, -1.0]])
"""Outcome weights for points per game, for either side: see ``weighted``."""


@njit(cache=True, inline="always")
def weighted(out: np.ndarray, c: np.ndarray) -> float:
    """A value's worth to its side, ``c[0] + c[1] win + c[2] win2 + c[3] lose2``: with
    ``MONEY``'s row, ``equity``; at a match score, match equity scaled to points
    (``tavli.bots.match_equity.AfterGame.weights``). A search takes the weights as ``wt[2, 4]``:
    row 0 for the side whose plays it values, row 1 for his opponent."""
    return float(c[0] + c[1] * out[0] + c[2] * out[1] + c[3] * out[2])


@njit(cache=True)
def _static(s: np.ndarray, params: int, net: Network, race: Tables, x: np.ndarray, h: np.ndarray,
            out: np.ndarray) -> None:
    """0-ply value of ``s`` (mover to roll), mover's view, into ``out``."""
    variant = params & 3
    if race[0].shape[0] > 1 and all_home(s, variant):
        w, w2, l2 = race_probabilities(s, variant, race[0], race[1])
        out[0] = w
        out[1] = w2
        out[2] = l2
        return
    encode(s, variant, x)
    forward(x, net[0], net[1], net[2], net[3], h, out)
    # consistency: a 2-point win is a win, a 2-point loss is a loss
    if out[1] > out[0]:
        out[1] = out[0]
    if out[2] > 1.0 - out[0]:
        out[2] = 1.0 - out[0]


@njit(cache=True, inline="always")
def _terminal(code: int, out: np.ndarray) -> None:
    if code == K.TIE:
        out[0] = 0.5
        out[1] = 0.0
        out[2] = 0.0
    elif code > 0:
        out[0] = 1.0
        out[1] = 1.0 if code >= 2 else 0.0
        out[2] = 0.0
    else:
        out[0] = 0.0
        out[1] = 0.0
        out[2] = 1.0 if code <= -2 else 0.0


@njit(cache=True, inline="always")
def _turn_over(v: np.ndarray) -> None:
    """Turn a value seen by one side into the same value seen by the other."""
    w = v[0]
    w2 = v[1]
    v[0] = 1.0 - w
    v[1] = v[2]
    v[2] = w2


@njit(cache=True)
def post0(r: np.ndarray, params: int, net: Network, race: Tables, x: np.ndarray, h: np.ndarray,
          out: np.ndarray) -> None:
    """0-ply value of ``r``, the mover's position right after his play, mover's view."""
    code = K.outcome(r, params)
    if code != K.ONGOING:
        _terminal(code, out)
        return
    _static(K.flip(r, params), params, net, race, x, h, out)
    _turn_over(out)


# A free slot of the workspace header: set when any ``generate`` of a search
# overflowed, since each later call clears the kernel's own status.
_OVERFLOWED = 7


@njit(cache=True, inline="always")
def _note_overflow(ints: np.ndarray) -> None:
    if ints[K._STATUS] != 0:
        ints[_OVERFLOWED] = 1


@njit(cache=True)
def _best0(rows: np.ndarray, params: int, net: Network, race: Tables, x: np.ndarray, h: np.ndarray,
           out: np.ndarray, c: np.ndarray) -> int:
    best = -1
    best_eq = -1e300
    for k in range(rows.shape[0]):
        post0(rows[k, :K.STATE_SIZE], params, net, race, x, h, out)
        e = weighted(out, c)
        if e > best_eq:
            best_eq = e
            best = k
    return best


@njit(cache=True)
def _best_after(s: np.ndarray, d1: int, d2: int, params: int, net: Network, race: Tables, ws: Arrays,
                x: np.ndarray, h: np.ndarray, out: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The mover's position after his best play of ``d1-d2`` by 0-ply, by his weights ``c``
    (``s`` itself when he cannot move)."""
    rows = K.generate(s, d1, d2, params, ws[0], ws[1], ws[2], ws[3])
    _note_overflow(ws[3])
    if rows.shape[0] == 0:
        return s
    return rows[_best0(rows, params, net, race, x, h, out, c), :K.STATE_SIZE].copy()


@njit(cache=True)
def pre1(s: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
         h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """1-ply value of ``s`` with the mover (``wt`` row ``side``) to roll: his best play by
    0-ply, over 21 rolls."""
    acc = np.zeros(3, np.float64)
    for i in range(_ROLLS.shape[0]):
        after = _best_after(s, _ROLLS[i, 0], _ROLLS[i, 1], params, net, race, ws, x, h, out, wt[side])
        post0(after, params, net, race, x, h, out)
        acc += _ROLLS[i, 2] * out
    out[:] = acc / 36.0


@njit(cache=True)
def post1(r: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
          h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """1-ply value of the mover's position ``r`` after his play, mover's view (the mover's
    weights are ``wt`` row ``side``)."""
    code = K.outcome(r, params)
    if code != K.ONGOING:
        _terminal(code, out)
        return
    pre1(K.flip(r, params), params, net, race, ws, x, h, out, wt, 1 - side)
    _turn_over(out)


@njit(cache=True)
def pre2(s: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
         h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """2-ply value of ``s`` with the mover (``wt`` row ``side``) to roll: his best play of
    each of the 21 rolls by 0-ply, valued at 1-ply."""
    acc = np.zeros(3, np.float64)
    for i in range(_ROLLS.shape[0]):
        after = _best_after(s, _ROLLS[i, 0], _ROLLS[i, 1], params, net, race, ws, x, h, out, wt[side])
        post1(after, params, net, race, ws, x, h, out, wt, side)
        acc += _ROLLS[i, 2] * out
    out[:] = acc / 36.0


@njit(cache=True)
def post2(r: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
          h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """2-ply value of ``r``: over the opponent's 21 rolls, his best play by 0-ply,
    valued at 1-ply."""
    code = K.outcome(r, params)
    if code != K.ONGOING:
        _terminal(code, out)
        return
    pre2(K.flip(r, params), params, net, race, ws, x, h, out, wt, 1 - side)
    _turn_over(out)


# Each depth has its own function: numba's cache cannot hold a recursive one.
@njit(cache=True)
def post3(r: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
          h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """3-ply value of ``r``: as ``post2``, the replies valued at 2-ply."""
    code = K.outcome(r, params)
    if code != K.ONGOING:
        _terminal(code, out)
        return
    s = K.flip(r, params)
    acc = np.zeros(3, np.float64)
    for i in range(_ROLLS.shape[0]):
        after = _best_after(s, _ROLLS[i, 0], _ROLLS[i, 1], params, net, race, ws, x, h, out, wt[1 - side])
        post2(after, params, net, race, ws, x, h, out, wt, 1 - side)
        acc += _ROLLS[i, 2] * out
    out[:] = acc / 36.0
    _turn_over(out)


MAX_DEPTH = 3


@njit(cache=True, nogil=True)
def analyse(rows: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, depth: int,
            keeps: np.ndarray, margins: np.ndarray, wt: np.ndarray,
            decide: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Value every play of a roll (rows from ``generate``), searching the promising
    ones deeper: ``(values[n, 3], depth_used[n])``. Plays are ranked, and both
    sides choose their plays in the search, by the outcome weights ``wt``
    (``weighted``; ``MONEY`` for points per game).

    All plays get 0-ply; at most ``keeps[0]`` within ``margins[0]`` of the best
    go to 1-ply; of those, at most ``keeps[1]`` within ``margins[1]`` go to
    2-ply, and so on to ``depth`` plies (at most ``MAX_DEPTH``). With
    ``decide`` the search stops where only one play would go deeper: it is
    the choice whatever its deeper value.
    If the workspace was too small anywhere, ``ws[3][K._STATUS]`` says so
    on return.
    """
    ws[3][_OVERFLOWED] = 0
    n = rows.shape[0]
    n_in = net[0].shape[0]
    x = np.zeros(n_in, np.float32)
    h = np.zeros(net[1].shape[0], np.float32)
    out = np.zeros(3, np.float64)
    values = np.zeros((n, 3), np.float64)
    used = np.zeros(n, np.int64)
    eq = np.zeros(n, np.float64)
    for k in range(n):
        post0(rows[k, :K.STATE_SIZE], params, net, race, x, h, out)
        values[k] = out
        eq[k] = weighted(out, wt[0])
    for level in range(1, depth + 1):
        keep = keeps[level - 1]
        margin = margins[level - 1]
        best = -1e300
        for k in range(n):
            if used[k] == level - 1 and eq[k] > best:
                best = eq[k]
        order = np.argsort(-eq)
        if decide:
            rivals = 0
            for k in range(n):
                if used[k] == level - 1 and eq[k] >= best - margin:
                    rivals += 1
            if rivals < 2 or keep < 2:
                break
        taken = 0
        for t in range(n):
            k = order[t]
            if used[k] != level - 1 or eq[k] < best - margin or taken >= keep:
                continue
            r = rows[k, :K.STATE_SIZE].copy()
            if level == 1:
                post1(r, params, net, race, ws, x, h, out, wt, 0)
            elif level == 2:
                post2(r, params, net, race, ws, x, h, out, wt, 0)
            else:
                post3(r, params, net, race, ws, x, h, out, wt, 0)
            values[k] = out
            eq[k] = weighted(out, wt[0])
            used[k] = level
            taken += 1
    if ws[3][_OVERFLOWED] != 0:  # the caller grows the workspace and asks again
        ws[3][K._STATUS] = K.OVERFLOW
    return values, used


@njit(cache=True, nogil=True)
def roll_values(s: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays,
                c: np.ndarray) -> np.ndarray:
    """The mover's chances ``[21, 3]`` (win, win 2, lose 2) after his best play by 0-ply,
    by his weights ``c`` (see ``weighted``), of each of the 21 rolls (in ``_ROLLS``
    order) in ``s``, the mover to roll. As ``analyse``, ``ws[3][K._STATUS]`` tells of a
    workspace too small."""
    ws[3][_OVERFLOWED] = 0
    x = np.zeros(net[0].shape[0], np.float32)
    h = np.zeros(net[1].shape[0], np.float32)
    out = np.zeros(3, np.float64)
    values = np.zeros((_ROLLS.shape[0], 3), np.float64)
    for i in range(_ROLLS.shape[0]):
        after = _best_after(s, _ROLLS[i, 0], _ROLLS[i, 1], params, net, race, ws, x, h, out, c)
        post0(after, params, net, race, x, h, out)
        values[i] = out
    if ws[3][_OVERFLOWED] != 0:
        ws[3][K._STATUS] = K.OVERFLOW
    return values


@njit(cache=True, nogil=True)
def static_values(states: np.ndarray, params: int, net: Network, race: Tables) -> np.ndarray:
    """0-ply values ``[n, 3]`` of states with the mover to roll."""
    x = np.zeros(net[0].shape[0], np.float32)
    h = np.zeros(net[1].shape[0], np.float32)
    out = np.zeros(3, np.float64)
    values = np.zeros((states.shape[0], 3), np.float64)
    for k in range(states.shape[0]):
        _static(states[k], params, net, race, x, h, out)
        values[k] = out
    return values


# --- training ---------------------------------------------------------------

@njit(cache=True)
def _backprop(x: np.ndarray, h: np.ndarray, out: np.ndarray, target: np.ndarray, alpha: float,
              w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
              dh: np.ndarray) -> None:
    """One gradient step of squared error from ``out`` towards ``target``."""
    hidden = b1.shape[0]
    for j in range(hidden):
        dh[j] = 0.0
    for k in range(3):
        delta = (target[k] - out[k]) * out[k] * (1.0 - out[k])
        if delta == 0.0:
            continue
        for j in range(hidden):
            dh[j] += delta * w2[k, j]
            w2[k, j] += alpha * delta * h[j]
        b2[k] += alpha * delta
    for j in range(hidden):
        dh[j] *= h[j] * (1.0 - h[j]) * alpha
        b1[j] += dh[j]
    for i in range(x.shape[0]):
        v = x[i]
        if v != 0.0:
            for j in range(hidden):
                w1[i, j] += v * dh[j]


@njit(cache=True)
def _backprop_traced(x: np.ndarray, h: np.ndarray, out: np.ndarray, target: np.ndarray, alpha: float,
                     lam: float, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                     g: np.ndarray, e1: np.ndarray, eb1: np.ndarray, e2: np.ndarray, eb2: np.ndarray,
                     seen: np.ndarray) -> None:
    """One TD(λ) step from ``out`` towards ``target``.

    The traces hold, for each output k, the sum of its past gradients decayed by ``lam`` a
    turn: ``e1[i, j, k]`` for ``w1[i, j]``, ``eb1[j, k]``, ``e2[r, j, k]`` for ``w2[r, j]``,
    ``eb2[r, k]``. Each turn they are first seen from the other side, as ``_turn_over`` turns a
    value (win becomes 1 - win, so its gradient changes sign; the 2-point chances swap), then
    decayed and added to; every weight then moves by ``alpha`` times the outputs' errors
    times their traces. With ``lam`` 0 it is ``_backprop``'s TD(0) step.

    ``seen[i]`` marks the inputs that have not been zero since the traces were last cleared:
    the others' traces are zero, and are skipped.
    """
    hidden = b1.shape[0]
    d0 = target[0] - out[0]
    d1 = target[1] - out[1]
    d2 = target[2] - out[2]
    o = (out[0] * (1.0 - out[0]), out[1] * (1.0 - out[1]), out[2] * (1.0 - out[2]))
    for j in range(hidden):  # each output's gradient by the hidden unit's input sum
        s = h[j] * (1.0 - h[j])
        g[j, 0] = o[0] * w2[0, j] * s
        g[j, 1] = o[1] * w2[1, j] * s
        g[j, 2] = o[2] * w2[2, j] * s
    for r in range(3):  # w2[r] moves output r alone
        for j in range(hidden):
            w2[r, j] += alpha * _trace_step(e2[r, j], lam, o[r] * h[j], r, d0, d1, d2)
        b2[r] += alpha * _trace_step(eb2[r], lam, o[r], r, d0, d1, d2)
    for j in range(hidden):
        b1[j] += alpha * _trace_steps(eb1[j], lam, g[j, 0], g[j, 1], g[j, 2], d0, d1, d2)
    for i in range(x.shape[0]):
        v = x[i]
        if v != 0.0:
            seen[i] = True
        elif not seen[i]:
            continue
        for j in range(hidden):
            w1[i, j] += alpha * _trace_steps(e1[i, j], lam, v * g[j, 0], v * g[j, 1], v * g[j, 2], d0, d1, d2)


@njit(cache=True, inline="always")
def _trace_steps(e: np.ndarray, lam: float, g0: float, g1: float, g2: float, d0: float, d1: float,
                 d2: float) -> float:
    """One weight's traces ``e`` (win, win 2, lose 2) seen from the other side, as ``_turn_over``
    turns a value, decayed by ``lam`` and added the outputs' gradients; the errors ``d`` times
    the new traces."""
    win2 = e[1]
    e[0] = -lam * e[0] + g0
    e[1] = lam * e[2] + g1
    e[2] = lam * win2 + g2
    return float(d0 * e[0] + d1 * e[1] + d2 * e[2])


@njit(cache=True, inline="always")
def _trace_step(e: np.ndarray, lam: float, grad: float, k: int, d0: float, d1: float, d2: float) -> float:
    """``_trace_steps`` for a weight that moves output ``k`` alone, by ``grad``."""
    return _trace_steps(e, lam, grad if k == 0 else 0.0, grad if k == 1 else 0.0, grad if k == 2 else 0.0,
                        d0, d1, d2)


@njit(cache=True)
def _clear_traces(e1: np.ndarray, eb1: np.ndarray, e2: np.ndarray, eb2: np.ndarray, seen: np.ndarray) -> None:
    for i in range(seen.shape[0]):
        if seen[i]:
            e1[i] = 0.0
            seen[i] = False
    eb1[:] = 0.0
    e2[:] = 0.0
    eb2[:] = 0.0


@njit(cache=True, nogil=True)
def train_games(n_games: int, start: np.ndarray, params: int, net: Network, race: Tables,
                ws: Arrays, alpha: float, seed: int, max_turns: int, explore: float = 0.0,
                lookahead: int = 0, lam: float = 0.0) -> np.ndarray:
    """Play ``n_games`` games of greedy 0-ply self-play from ``start``, moving the
    network by TD(0) after every turn, in place.

    With probability ``explore`` a turn plays a random legal play instead of
    the best, so that training also sees the lopsided positions weak play
    leads to; the value learned is still that of the best play.

    With ``lookahead`` 1 the value before the roll moves towards its 1-ply value
    (the best play of each of the 21 rolls, ``pre1``) instead of the value
    after the one roll played: the target no longer carries that roll's luck,
    at about twenty times the cost of a turn. With 2 it moves towards its 2-ply
    value (``pre2``, the champion's judgement), twenty times more again.

    With ``lam`` above 0 it learns by TD(λ) (``_backprop_traced``): each turn's error also
    moves the values of the positions before it in the game, by ``lam`` less a turn further
    back. A random play cuts the traces, since the positions after it do not follow from
    those before by the best play whose value they learn.

    Returns counts ``[games, turns, points won by the side that moved first,
    aborted]``.
    """
    np.random.seed(seed)
    variant = params & 3
    x = np.zeros(net[0].shape[0], np.float32)
    x_next = np.zeros(net[0].shape[0], np.float32)
    h = np.zeros(net[1].shape[0], np.float32)
    h_next = np.zeros(net[1].shape[0], np.float32)
    dh = np.zeros(net[1].shape[0], np.float32)
    out = np.zeros(3, np.float64)
    cur = np.zeros(3, np.float64)
    target = np.zeros(3, np.float64)
    stats = np.zeros(4, np.int64)
    n_in = net[0].shape[0]
    n_hidden = net[1].shape[0]
    traced = lam > 0.0
    size = n_in if traced else 1
    g = np.zeros((n_hidden, 3), np.float32)
    e1 = np.zeros((size, n_hidden if traced else 1, 3), np.float32)
    eb1 = np.zeros((n_hidden, 3), np.float32)
    e2 = np.zeros((3, n_hidden, 3), np.float32)
    eb2 = np.zeros((3, 3), np.float32)
    seen = np.zeros(size, np.bool_)
    for _ in range(n_games):
        s = start.copy()
        sign = 1
        if traced:
            _clear_traces(e1, eb1, e2, eb2, seen)
        for _turn in range(max_turns):
            d1 = np.random.randint(1, 7)
            d2 = np.random.randint(1, 7)
            rows = K.generate(s, d1, d2, params, ws[0], ws[1], ws[2], ws[3])
            if ws[3][K._STATUS] != 0:
                stats[3] += 1
                break
            stats[1] += 1
            explored = False
            if rows.shape[0] == 0:
                chosen = s.copy()
                post0(chosen, params, net, race, x_next, h_next, target)
                code = K.ONGOING
            else:
                best = -10.0
                k_best = 0
                for k in range(rows.shape[0]):
                    post0(rows[k, :K.STATE_SIZE], params, net, race, x_next, h_next, out)
                    e = equity(out[0], out[1], out[2])
                    if e > best:
                        best = e
                        k_best = k
                        target[:] = out
                explored = explore > 0.0 and np.random.random() < explore
                if explored:
                    k_best = np.random.randint(0, rows.shape[0])
                chosen = rows[k_best, :K.STATE_SIZE].copy()
                code = K.outcome(chosen, params)
            # learn: the value before the roll moves towards the value after the play, or with
            # lookahead towards its mean over all 21 rolls
            if not (race[0].shape[0] > 1 and all_home(s, variant)):
                if lookahead == 1:
                    pre1(s, params, net, race, ws, x_next, h_next, target, MONEY, 0)
                elif lookahead == 2:
                    pre2(s, params, net, race, ws, x_next, h_next, target, MONEY, 0)
                encode(s, variant, x)
                forward(x, net[0], net[1], net[2], net[3], h, cur)
                if traced:
                    _backprop_traced(x, h, cur, target, alpha, lam, net[0], net[1], net[2], net[3],
                                     g, e1, eb1, e2, eb2, seen)
                    if explored:
                        _clear_traces(e1, eb1, e2, eb2, seen)
                else:
                    _backprop(x, h, cur, target, alpha, net[0], net[1], net[2], net[3], dh)
            if code != K.ONGOING:
                if code != K.TIE:
                    stats[2] += sign * code
                stats[0] += 1
                break
            s = K.flip(chosen, params)
            sign = -sign
        else:
            stats[3] += 1
    return stats
