"""Compiled rules kernel shared by the three games.

Everything here works on one compact state: an ``int8`` array of
``STATE_SIZE`` entries seen from the side to move (the *mover*):

* ``s[p]`` for ``p`` in 0..25: the mover's checkers on his point ``p``
  (0 = borne off, 25 = the bar, used by Portes only);
* ``s[OPP + p]``: the opponent's checkers on the mover's point ``p``
  (``s[OPP]`` = opponent's borne off, ``s[OPP + 25]`` = opponent's bar);
* ``s[PIN + p]``: Plakoto pins on the mover's point ``p``: ``PIN_MINE`` when
  a lone checker of the mover lies under the opponent, ``PIN_THEIRS`` when a
  lone opposing checker lies under the mover.

The rules of a game are one small integer, ``params`` (see ``pack_params``),
so one mechanism serves Portes, Plakoto and Fevga. Whole-turn generation is a
depth-first search over the dice; positions are deduplicated with Zobrist
hashes checked by full comparison, so the result is exact.

Set ``NUMBA_DISABLE_JIT=1`` to run the very same code as plain Python.
"""

from __future__ import annotations

import numpy as np
from numba import njit

PORTES = 0
PLAKOTO = 1
FEVGA = 2

MOTHER_OFF = 0
MOTHER_SINGLE = 1
MOTHER_DOUBLE = 2

STATE_SIZE = 78
OPP = 26
PIN = 52
BAR = 25
OFF = 0
PIN_MINE = 1
PIN_THEIRS = 2

# outcome codes returned by ``outcome``: positive = mover won that many
# points, negative = opponent won, TIE = drawn game, ONGOING = not over.
ONGOING = 0
TIE = 100

_ZOBRIST = np.random.default_rng(0x7A711).integers(
    1, 2**63 - 1, size=(STATE_SIZE, 16), dtype=np.int64
).astype(np.uint64)
_CTX_SALT = np.random.default_rng(0x5A17).integers(
    1, 2**63 - 1, size=32, dtype=np.int64
).astype(np.uint64)


def pack_params(variant: int, mother: int = MOTHER_DOUBLE, prime_limits: bool = True,
                prime_in_opponent_start: bool = True) -> int:
    """Pack a game's rules into the kernel's ``params`` integer."""
    return variant | (mother << 2) | (int(prime_limits) << 4) | (int(prime_in_opponent_start) << 5)


@njit(cache=True, inline="always")
def _variant(params: int) -> int:
    return params & 3


@njit(cache=True)
def state_hash(s: np.ndarray) -> np.uint64:
    h = np.uint64(0)
    for i in range(STATE_SIZE):
        h ^= _ZOBRIST[i, s[i]]
    return h


@njit(cache=True, inline="always")
def _set(s: np.ndarray, i: int, v: int, h: np.uint64) -> np.uint64:
    h ^= _ZOBRIST[i, s[i]] ^ _ZOBRIST[i, v]
    s[i] = v
    return h


@njit(cache=True, inline="always")
def _is_open(s: np.ndarray, t: int, variant: int) -> bool:
    b = s[OPP + t]
    if variant == PORTES:
        return bool(b <= 1)
    if variant == FEVGA:
        return bool(b == 0)
    if b == 0:
        return True
    if b >= 2:
        return False
    return bool(s[PIN + t] != PIN_MINE)


@njit(cache=True)
def die_steps(s: np.ndarray, d: int, params: int, out: np.ndarray) -> int:
    """Write every legal single step ``(from, to)`` for die ``d`` into ``out``; return the count."""
    variant = _variant(params)
    n = 0
    if variant == PORTES and s[BAR] > 0:
        t = 25 - d
        if s[OPP + t] <= 1:
            out[0, 0] = BAR
            out[0, 1] = t
            n = 1
        return n
    hi = 0
    for p in range(24, 0, -1):
        if s[p] > 0:
            hi = p
            break
    home = hi <= 6
    block_start = False
    if variant == FEVGA:
        # first checker away: until a checker has passed the opponent's
        # start (point 11 or lower, or off), only one may leave point 24.
        passed = s[OFF] > 0
        if not passed:
            for p in range(1, 12):
                if s[p] > 0:
                    passed = True
                    break
        if not passed:
            for p in range(12, 24):
                if s[p] > 0:
                    block_start = True
                    break
    for src in range(hi, 0, -1):
        if s[src] == 0:
            continue
        if variant == PLAKOTO and s[PIN + src] == PIN_MINE:
            continue
        if block_start and src == 24:
            continue
        t = src - d
        if t >= 1:
            if _is_open(s, t, variant):
                out[n, 0] = src
                out[n, 1] = t
                n += 1
        elif home and (t == 0 or src == hi):
            out[n, 0] = src
            out[n, 1] = OFF
            n += 1
    return n


@njit(cache=True)
def apply_step(s: np.ndarray, src: int, t: int, variant: int, h: np.uint64) -> tuple[np.uint64, int]:
    """Move one checker in place; return the new hash and 1 if it hit or pinned."""
    h = _set(s, src, s[src] - 1, h)
    if variant == PLAKOTO and s[src] == 0 and s[PIN + src] == PIN_THEIRS:
        h = _set(s, PIN + src, 0, h)
    hit = 0
    if t != OFF and s[OPP + t] == 1:
        if variant == PORTES:
            h = _set(s, OPP + t, 0, h)
            h = _set(s, OPP + BAR, s[OPP + BAR] + 1, h)
            hit = 1
        elif variant == PLAKOTO and s[PIN + t] == 0:
            h = _set(s, PIN + t, PIN_THEIRS, h)
            hit = 1
    h = _set(s, t, s[t] + 1, h)
    return h, hit


@njit(cache=True)
def keeps_prime_limits(s: np.ndarray, params: int) -> bool:
    """Fevga: does the position after a play respect the prime limits?"""
    full = True
    for p in range(19, 25):
        if s[p] == 0:
            full = False
            break
    if full:
        return False
    if (params >> 5) & 1:
        full = True
        for p in range(7, 13):
            if s[p] == 0:
                full = False
                break
        if full:
            return False
    # the trap: all the opponent's remaining checkers on one point, six
    # points in front of them held by the mover.
    t = 0
    for p in range(1, 25):
        if s[OPP + p] > 0:
            if t != 0:
                return True
            t = p
    if t == 0:
        return True
    q = t - 12 if t > 12 else t + 12
    if q < 7:
        return True
    for i in range(1, 7):
        m = t - i
        if m < 1:
            m += 24
        if s[m] == 0:
            return True
    return False


@njit(cache=True)
def _limits_apply(params: int) -> bool:
    return _variant(params) == FEVGA and ((params >> 4) & 1) == 1


class Workspace:
    """Scratch arrays for ``generate``; one per thread, grown on demand."""

    def __init__(self, nodes: int = 4096, plays: int = 2048) -> None:
        self.vis_state = np.zeros((nodes, STATE_SIZE), np.int8)
        self.vis_hash = np.zeros(nodes, np.uint64)
        self.vis_ctx = np.zeros(nodes, np.int32)
        self.vis_slot = np.zeros(2 * nodes, np.int32)
        self.vis_stamp = np.zeros(2 * nodes, np.int64)
        self.cand_state = np.zeros((plays, STATE_SIZE), np.int8)
        self.cand_hash = np.zeros(plays, np.uint64)
        self.cand_steps = np.zeros((plays, 4, 3), np.int8)
        self.cand_depth = np.zeros(plays, np.int32)
        self.cand_mask = np.zeros(plays, np.int32)
        self.cand_slot = np.zeros(2 * plays, np.int32)
        self.cand_stamp = np.zeros(2 * plays, np.int64)
        self.stamp = np.zeros(1, np.int64)

    def grown(self) -> Workspace:
        return Workspace(2 * len(self.vis_hash), 2 * len(self.cand_hash))


@njit(cache=True)
def _visit(child: np.ndarray, h: np.uint64, ctx: int, vis_state: np.ndarray, vis_hash: np.ndarray,
           vis_ctx: np.ndarray, vis_slot: np.ndarray, vis_stamp: np.ndarray, stamp: int,
           nvis: int) -> int:
    """Remember (state, ctx); return the new count, -1 if seen before, -2 if full."""
    key = h ^ _CTX_SALT[ctx]
    mask = len(vis_slot) - 1
    i = np.int64(key & np.uint64(mask))
    while vis_stamp[i] == stamp:
        j = vis_slot[i]
        if vis_hash[j] == h and vis_ctx[j] == ctx:
            same = True
            for k in range(STATE_SIZE):
                if vis_state[j, k] != child[k]:
                    same = False
                    break
            if same:
                return -1
        i = (i + 1) & mask
    if nvis >= len(vis_hash):
        return -2
    vis_stamp[i] = stamp
    vis_slot[i] = nvis
    vis_hash[nvis] = h
    vis_ctx[nvis] = ctx
    vis_state[nvis, :] = child
    return nvis + 1


@njit(cache=True)
def _record(state: np.ndarray, h: np.uint64, depth: int, die_bit: int, path: np.ndarray,
            cand_state: np.ndarray, cand_hash: np.ndarray, cand_steps: np.ndarray,
            cand_depth: np.ndarray, cand_mask: np.ndarray, cand_slot: np.ndarray,
            cand_stamp: np.ndarray, stamp: int, ncand: int) -> int:
    """Add a candidate play ending in ``state``; merge equal results. Return count or -2."""
    mask = len(cand_slot) - 1
    i = np.int64(h & np.uint64(mask))
    while cand_stamp[i] == stamp:
        j = cand_slot[i]
        if cand_hash[j] == h:
            same = True
            for k in range(STATE_SIZE):
                if cand_state[j, k] != state[k]:
                    same = False
                    break
            if same:
                if depth > cand_depth[j]:
                    cand_depth[j] = depth
                    cand_mask[j] = die_bit
                    cand_steps[j, :, :] = path
                elif depth == cand_depth[j]:
                    if die_bit > cand_mask[j]:
                        cand_steps[j, :, :] = path  # show the higher die when both do
                    cand_mask[j] |= die_bit
                return ncand
        i = (i + 1) & mask
    if ncand >= len(cand_hash):
        return -2
    cand_stamp[i] = stamp
    cand_slot[i] = ncand
    cand_hash[ncand] = h
    cand_state[ncand, :] = state
    cand_steps[ncand, :, :] = path
    cand_depth[ncand] = depth
    cand_mask[ncand] = die_bit
    return ncand + 1


@njit(cache=True)
def _search(root: np.ndarray, d1: int, d2: int, params: int,
            vis_state: np.ndarray, vis_hash: np.ndarray, vis_ctx: np.ndarray,
            vis_slot: np.ndarray, vis_stamp: np.ndarray,
            cand_state: np.ndarray, cand_hash: np.ndarray, cand_steps: np.ndarray,
            cand_depth: np.ndarray, cand_mask: np.ndarray, cand_slot: np.ndarray,
            cand_stamp: np.ndarray, stamp_box: np.ndarray) -> int:
    """Depth-first search over every way to play the dice; return the candidate count (-2 if full)."""
    variant = _variant(params)
    record_inner = _limits_apply(params)
    stamp_box[0] += 1
    stamp = stamp_box[0]
    double = d1 == d2
    hi_die = max(d1, d2)
    lo_die = min(d1, d2)
    n_orders = 1 if double else 2
    length = 4 if double else 2
    seq = np.empty(4, np.int64)
    stack = np.empty((5, STATE_SIZE), np.int8)
    hashes = np.empty(5, np.uint64)
    moves = np.empty((5, 16, 2), np.int64)
    nmoves = np.zeros(5, np.int64)
    nexti = np.zeros(5, np.int64)
    path = np.zeros((4, 3), np.int8)
    nvis = 0
    ncand = 0
    for order in range(n_orders):
        if double:
            for k in range(4):
                seq[k] = d1
        elif order == 0:
            seq[0] = hi_die
            seq[1] = lo_die
        else:
            seq[0] = lo_die
            seq[1] = hi_die
        die_bit = 2 if seq[0] == hi_die else 1
        stack[0, :] = root
        hashes[0] = state_hash(root)
        nmoves[0] = die_steps(stack[0], seq[0], params, moves[0])
        nexti[0] = 0
        level = 0
        while level >= 0:
            if nexti[level] >= nmoves[level]:
                level -= 1
                continue
            i = nexti[level]
            nexti[level] += 1
            child = stack[level + 1]
            child[:] = stack[level]
            src = moves[level, i, 0]
            dst = moves[level, i, 1]
            h, hit = apply_step(child, src, dst, variant, hashes[level])
            hashes[level + 1] = h
            depth = level + 1
            if double and 2 <= depth < length:
                # only inner nodes of a double can be reached twice by
                # different paths with the same dice left; skip repeats.
                seen = _visit(child, h, depth, vis_state, vis_hash, vis_ctx, vis_slot, vis_stamp,
                              stamp, nvis)
                if seen == -2:
                    return -2
                if seen == -1:
                    continue
                nvis = seen
            path[level, 0] = src
            path[level, 1] = dst
            path[level, 2] = hit
            for k in range(depth, 4):
                path[k, 0] = 0
                path[k, 1] = 0
                path[k, 2] = 0
            leaf = True
            if depth < length:
                nmoves[depth] = die_steps(child, seq[depth], params, moves[depth])
                nexti[depth] = 0
                leaf = nmoves[depth] == 0
            if leaf or record_inner:
                ncand = _record(child, h, depth, die_bit, path, cand_state, cand_hash, cand_steps,
                                cand_depth, cand_mask, cand_slot, cand_stamp, stamp, ncand)
                if ncand == -2:
                    return -2
            if not leaf:
                level = depth
    return ncand


@njit(cache=True)
def _select(ncand: int, d1: int, d2: int, params: int, cand_state: np.ndarray,
            cand_depth: np.ndarray, cand_mask: np.ndarray, keep: np.ndarray) -> int:
    """Apply the dice rules to the candidates; write the kept indices to ``keep``."""
    valid = np.ones(ncand, np.bool_)
    if _limits_apply(params):
        anyvalid = False
        for j in range(ncand):
            valid[j] = keeps_prime_limits(cand_state[j], params)
            anyvalid = anyvalid or valid[j]
        if not anyvalid:
            valid[:] = True  # no way keeps the limits: they are ignored this turn
    best = 0
    for j in range(ncand):
        if valid[j] and cand_depth[j] > best:
            best = cand_depth[j]
    need_high = False
    if best == 1 and d1 != d2:
        for j in range(ncand):
            if valid[j] and cand_depth[j] == 1 and cand_mask[j] & 2:
                need_high = True
                break
    n = 0
    for j in range(ncand):
        if valid[j] and cand_depth[j] == best and (not need_high or cand_mask[j] & 2):
            keep[n] = j
            n += 1
    return n


@njit(cache=True)
def generate(root: np.ndarray, d1: int, d2: int, params: int,
             vis_state: np.ndarray, vis_hash: np.ndarray, vis_ctx: np.ndarray,
             vis_slot: np.ndarray, vis_stamp: np.ndarray,
             cand_state: np.ndarray, cand_hash: np.ndarray, cand_steps: np.ndarray,
             cand_depth: np.ndarray, cand_mask: np.ndarray, cand_slot: np.ndarray,
             cand_stamp: np.ndarray, stamp_box: np.ndarray
             ) -> tuple[int, np.ndarray, np.ndarray]:
    """Every legal play of dice ``d1, d2``: ``(count, results, steps)``.

    ``results[k]`` is the position after play ``k`` (still seen by the mover);
    ``steps[k, j] = (from, to, hit)`` for each die used, zero rows after the
    last. A count of 0 means the turn passes; -2 means the workspace is full.
    """
    ncand = _search(root, d1, d2, params, vis_state, vis_hash, vis_ctx, vis_slot, vis_stamp,
                    cand_state, cand_hash, cand_steps, cand_depth, cand_mask, cand_slot,
                    cand_stamp, stamp_box)
    if ncand < 0:
        return ncand, np.empty((0, STATE_SIZE), np.int8), np.empty((0, 4, 3), np.int8)
    keep = np.empty(ncand, np.int64)
    n = _select(ncand, d1, d2, params, cand_state, cand_depth, cand_mask, keep)
    results = np.empty((n, STATE_SIZE), np.int8)
    steps = np.empty((n, 4, 3), np.int8)
    for k in range(n):
        results[k, :] = cand_state[keep[k]]
        steps[k, :, :] = cand_steps[keep[k]]
    return n, results, steps


@njit(cache=True)
def flip(s: np.ndarray, params: int) -> np.ndarray:
    """The same position seen by the other player."""
    variant = _variant(params)
    r = np.zeros(STATE_SIZE, np.int8)
    r[OFF] = s[OPP + OFF]
    r[BAR] = s[OPP + BAR]
    r[OPP + OFF] = s[OFF]
    r[OPP + BAR] = s[BAR]
    for q in range(1, 25):
        if variant == FEVGA:
            m = q + 12 if q <= 12 else q - 12
        else:
            m = 25 - q
        r[q] = s[OPP + m]
        r[OPP + q] = s[m]
        pin = s[PIN + m]
        r[PIN + q] = 3 - pin if pin else 0
    return r


@njit(cache=True)
def can_move(s: np.ndarray, params: int) -> bool:
    """Can the mover play at least one die of some roll?"""
    buf = np.empty((16, 2), np.int64)
    for d in range(1, 7):
        if die_steps(s, d, params, buf) > 0:
            return True
    return False


@njit(cache=True)
def outcome(s: np.ndarray, params: int) -> int:
    """Result after the mover's complete play (``s`` still seen by the mover).

    Returns ``ONGOING``, ``TIE``, or the points won: positive by the mover,
    negative by the opponent.
    """
    if s[OFF] == 15:
        return 2 if s[OPP + OFF] == 0 else 1
    if s[OPP + OFF] == 15:
        return -2 if s[OFF] == 0 else -1
    if _variant(params) == PLAKOTO:
        mother = (params >> 2) & 3
        if mother != MOTHER_OFF:
            points = 2 if mother == MOTHER_DOUBLE else 1
            theirs_pinned = s[OPP + 1] == 1 and s[PIN + 1] == PIN_THEIRS
            mine_pinned = s[24] == 1 and s[PIN + 24] == PIN_MINE
            if theirs_pinned and mine_pinned:
                return TIE
            if theirs_pinned and s[24] == 0:
                return points
            if mine_pinned and s[OPP + 1] == 0:
                return -points
    if not can_move(s, params):
        if not can_move(flip(s, params), params):
            return TIE
    return ONGOING


@njit(cache=True)
def seed_random(seed: int) -> None:
    np.random.seed(seed)


@njit(cache=True)
def playout(root: np.ndarray, params: int, max_turns: int,
            vis_state: np.ndarray, vis_hash: np.ndarray, vis_ctx: np.ndarray,
            vis_slot: np.ndarray, vis_stamp: np.ndarray,
            cand_state: np.ndarray, cand_hash: np.ndarray, cand_steps: np.ndarray,
            cand_depth: np.ndarray, cand_mask: np.ndarray, cand_slot: np.ndarray,
            cand_stamp: np.ndarray, stamp_box: np.ndarray) -> tuple[int, int]:
    """Play random legal plays from ``root`` to the end: ``(result, turns)``.

    ``result`` is an ``outcome`` code from the point of view of the player
    to move at ``root``; turns that pass count too.
    """
    s = root.copy()
    sign = 1
    for turn in range(max_turns):
        d1 = np.random.randint(1, 7)
        d2 = np.random.randint(1, 7)
        n, results, _ = generate(s, d1, d2, params, vis_state, vis_hash, vis_ctx, vis_slot,
                                 vis_stamp, cand_state, cand_hash, cand_steps, cand_depth,
                                 cand_mask, cand_slot, cand_stamp, stamp_box)
        if n < 0:
            return n * 1000, turn
        if n > 0:
            s = results[np.random.randint(0, n)].copy()
        r = outcome(s, params)
        if r != ONGOING:
            if r == TIE:
                return TIE, turn + 1
            return sign * r, turn + 1
        s = flip(s, params)
        sign = -sign
    return ONGOING, max_turns
