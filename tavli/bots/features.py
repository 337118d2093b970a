"""The networks' inputs: what ``encode`` tells a network of a position, for each game.

A kernel state with the side to move (the *mover*) about to roll becomes a vector of inputs
from the mover's view: each side's checkers on each point, then features designed for each
game (escapes and containment, shots, Plakoto's pins, Fevga's timing, primes, lead and breaks).
Inputs are sparse: most are zero. A game's inputs are only ever added at the end of its list
(``INPUT_GROUP_ENDS``), and ``encode`` fills as many as the network reads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tavli import _kernel as K

_BASE = 192  # 24 points x 2 sides x 4 units
_COMMON = 8
_CONTACT = 16  # Portes: each side's shots with blocks, contact and anchors (``contact_game_inputs``)
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
def hits(dist_mask: np.int64) -> int:
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
def is_race(s: np.ndarray, variant: int) -> bool:
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
            contact_game_inputs(s, x, c)


@njit(cache=True)
def _contact_inputs(s: np.ndarray, variant: int, x: np.ndarray, c: int) -> None:
    """Portes and Plakoto: blots in reach (hit or pin), shots, home points, race."""
    plakoto = variant == K.PLAKOTO
    my_direct = 0
    my_indirect = 0
    their_direct = 0
    their_indirect = 0
    # the checkers that can hit (or pin), as bits: theirs at bit 24 - q for the mover's point q
    # (0: their bar), mine at bit r (25: my bar); a pinned checker cannot move
    theirs = np.int64(1) << 24 if s[K.OPP + K.BAR] > 0 else np.int64(0)
    mine = np.int64(1) << 25 if s[K.BAR] > 0 else np.int64(0)
    for q in range(1, 25):
        if s[K.OPP + q] > 0 and not (plakoto and s[K.PIN + q] == K.PIN_THEIRS):
            theirs |= np.int64(1) << (24 - q)
        if s[q] > 0 and not (plakoto and s[K.PIN + q] == K.PIN_MINE):
            mine |= np.int64(1) << q
    near = np.int64(0x7E)  # distances 1..6
    far = np.int64(0x3F) << 7  # distances 7..12
    my_shots = np.int64(0)  # distances from my checkers to their lone checkers
    their_shots = np.int64(0)
    for p in range(1, 25):
        if plakoto and s[K.PIN + p] != 0:
            continue
        if s[p] == 1:  # their checkers behind it, bit d at the distance d = p - q
            d = (theirs >> (24 - p)) & ~np.int64(1)
            their_shots |= d
            my_direct += (d & near) != 0
            my_indirect += (d & near) == 0 and (d & far) != 0
        if s[K.OPP + p] == 1:  # mine behind it (they move up my numbering), d = r - p
            d = (mine >> p) & ~np.int64(1)
            my_shots |= d
            their_direct += (d & near) != 0
            their_indirect += (d & near) == 0 and (d & far) != 0
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
    x[c + 6] = hits(my_shots) / 36.0
    x[c + 7] = hits(their_shots) / 36.0
    x[c + 8] = 1.0 if is_race(s, variant) else 0.0


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


ESCAPES = _escape_table()

_POINTS = (1 << 25) - 2  # bits 1..24 of a mask of points
# the 21 rolls: (die, die, how many of the 36 throws give it)
ROLLS = np.array([(d1, d2, 1 if d1 == d2 else 2) for d1 in range(1, 7) for d2 in range(d1, 7)],
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
def _blocked_mask(s: np.ndarray, mine: bool, variant: int) -> int:
    """The points closed to a side (``_blocks``) as bits: bit ``24 - own`` for its own point
    ``own`` (1..24), so that ``_escapes_in`` reads the twelve in front of any point with one shift."""
    mask = 0
    for own in range(1, 25):
        if _blocks(s, _mover_point(own, mine, variant), mine, variant):
            mask |= 1 << (24 - own)
    return mask


@njit(cache=True, inline="always")
def _escapes_in(mask: int, own: int) -> int:
    """Rolls of 36 that take a side's checker on its own point ``own`` (25: the bar) past the
    other side's blocks in the twelve points in front of it, from the side's ``_blocked_mask``:
    bit ``i`` of the shifted mask is its point ``own - 1 - i``."""
    return int(ESCAPES[(mask >> (25 - own)) & 0xFFF])


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
    mask = _blocked_mask(s, True, variant)
    their_mask = _blocked_mask(s, False, variant)
    x[c] = _escapes_in(mask, back) / 36.0 if back > 0 else 1.0
    x[c + 1] = _escapes_in(their_mask, their_back) / 36.0 if their_back > 0 else 1.0
    # containment: the fewest escapes from the other side's back area (his points 15..24)
    least = 36
    their_least = 36
    for own in range(15, 25):
        least = min(least, _escapes_in(mask, own))
        their_least = min(their_least, _escapes_in(their_mask, own))
    x[c + 2] = (36 - their_least) / 36.0
    x[c + 3] = (36 - least) / 36.0


@njit(cache=True)
def side_frame(s: np.ndarray, mine: bool, own: np.ndarray, other: np.ndarray) -> None:
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
def roll_index(d1: int, d2: int) -> int:
    """A roll's place among the 36 slots of ``roll_hits`` (``d1 <= d2``; 21 of them used)."""
    return 6 * (d1 - 1) + d2 - 1


@njit(cache=True)
def roll_hits(own: np.ndarray, other: np.ndarray, best: np.ndarray) -> None:
    """Into ``best[roll_index(d1, d2)]`` (``d1 <= d2``), the farthest-back blot of the other
    side's that a side (by ``side_frame``) can hit with ``d1-d2``, as the pips it costs him (a
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
                        k = roll_index(min(e, dist), max(e, dist))
                        best[k] = max(best[k], t)
            if bar == 0 or (bar == 1 and entering):  # one checker, both dice
                for d1 in range(max(1, dist - 6), (dist + 1) // 2):
                    d2 = dist - d1
                    if other[src - d1] < 2 or other[src - d2] < 2:
                        k = roll_index(d1, d2)
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
                    k = roll_index(d, d)
                    best[k] = max(best[k], t)


@njit(cache=True)
def _shots_with_blocks(own: np.ndarray, other: np.ndarray, best: np.ndarray) -> tuple[int, int]:
    """The rolls of 36 that hit (``roll_hits``, into ``best``), and their pips lost summed
    over the 36."""
    roll_hits(own, other, best)
    rolls = 0
    loss = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            t = best[roll_index(d1, d2)]
            if t > 0:
                w = 1 if d1 == d2 else 2
                rolls += w
                loss += w * t
    return rolls, loss


@njit(cache=True)
def contact_game_inputs(s: np.ndarray, x: np.ndarray, c: int) -> None:
    """Portes, eight inputs for each side, the mover first: the rolls that hit a blot of the
    other's (blocks and the bar counted) and the pips they cost him (GNU Backgammon's pip
    loss), the pips still to play to get past the other's rearmost checker and those of
    checkers already past it, the rearmost checker, the rearmost and foremost anchors in the
    other's half, and the rolls that fail to enter from the bar."""
    own = np.zeros(26, np.int64)
    other = np.zeros(26, np.int64)
    best = np.zeros(36, np.int64)
    for side in range(2):
        side_frame(s, side == 0, own, other)
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
def movers(s: np.ndarray, mine: bool, variant: int, n: np.ndarray) -> None:
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
        movers(s, side == 0, variant, n)
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
    x[c + 8] = 1.0 if is_race(s, K.FEVGA) else 0.0


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
        blocked = _blocked_mask(s, mine, K.FEVGA)
        for own in range(1, 25):
            q = _mover_point(own, mine, K.FEVGA)
            n = s[q] if mine else s[K.OPP + q]
            if n == 0:
                continue
            spare = n - 1 if (mine_blocking[q] if mine else theirs_blocking[q]) else n
            spares += spare
            spare_pips += spare * (own - 1)
            stuck += n * (36 - _escapes_in(blocked, own))
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
    numbers), as a mask over ``ROLLS``' 21 rolls. Doubles move up to four times."""
    mask = 0
    for r in range(21):
        d1 = ROLLS[r, 0]
        d2 = ROLLS[r, 1]
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
                escapes += ROLLS[r, 2]
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
            d1 = ROLLS[r, 0]
            d2 = ROLLS[r, 1]
            weight = ROLLS[r, 2]
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
def bit_count(mask: int) -> int:
    """The set bits of a mask of points (bits below 32)."""
    mask = mask - (mask >> 1 & 0x55555555)
    mask = (mask & 0x33333333) + (mask >> 2 & 0x33333333)
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F
    return (mask * 0x01010101) >> 24 & 0xFF


@njit(cache=True, inline="always")
def checkers_on(planes: np.ndarray, mask: int) -> int:
    """The checkers on the points of ``mask``, the counts held as bit planes (bit ``p`` of
    ``planes[b]``: bit ``b`` of the count on point ``p``), so a sum over points is four counts of
    bits rather than a loop."""
    return (bit_count(mask & planes[0]) + 2 * bit_count(mask & planes[1])
            + 4 * bit_count(mask & planes[2]) + 8 * bit_count(mask & planes[3]))


@njit(cache=True, inline="always")
def _occupied(planes: np.ndarray) -> int:
    """The points with a checker on them, of counts held as bit planes (``checkers_on``)."""
    return int(planes[0] | planes[1] | planes[2] | planes[3])


@njit(cache=True)
def _playable_pips(planes: np.ndarray, occupied: int, masks: np.ndarray, d1: int, d2: int) -> int:
    """Fevga: the most pips of the roll ``d1``-``d2`` that a side's checkers, counted on its own
    points by the bit ``planes`` (``checkers_on``; ``occupied``: ``_occupied(planes)``), can
    play: bit ``p`` of ``masks[d]`` says a checker on the side's point ``p`` can move ``d`` (the
    point ``d`` in front is open to it, or it may bear off). A side's own checkers never stand in
    its way, and the other side's do not move during the turn, so each die is open or closed to a
    checker whatever the rest of the play does."""
    if d1 == d2:
        chain = occupied & masks[d1]
        steps = checkers_on(planes, chain)
        for k in range(1, 4):
            if steps >= 4:
                break
            chain &= masks[d1] << (k * d1)  # the checkers that can move once more
            if chain == 0:
                break
            steps += checkers_on(planes, chain)
        return min(4, steps) * d1
    if occupied & (masks[d1] & masks[d2] << d1 | masks[d2] & masks[d1] << d2):
        return d1 + d2  # one checker plays both dice
    first = checkers_on(planes, masks[d1])
    second = checkers_on(planes, masks[d2])
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
            d1 = ROLLS[r, 0]
            d2 = ROLLS[r, 1]
            weight = ROLLS[r, 2]
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
