"""Compiled rules kernel shared by the three games.

Everything here works on one compact state: an ``int8`` array of
``STATE_SIZE`` entries (78 used, padded to 80) seen from the side to move (the *mover*):

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

import threading
from collections.abc import Callable
from typing import TypeVar

import numpy as np
from numba import njit

PORTES = 0
PLAKOTO = 1
FEVGA = 2

MOTHER_OFF = 0
MOTHER_SINGLE = 1
MOTHER_DOUBLE = 2

STATE_SIZE = 80  # 78 used; padded to ten 64-bit words
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
    for i in range(PIN + 25):
        h ^= _ZOBRIST[i, s[i]]
    return h


@njit(cache=True, inline="always")
def _set(s: np.ndarray, i: int, v: int, h: np.uint64) -> np.uint64:
    h ^= _ZOBRIST[i, s[i]] ^ _ZOBRIST[i, v]
    s[i] = v
    return h


@njit(cache=True, inline="always")
def is_open(s: np.ndarray, t: int, variant: int) -> bool:
    """The mover may land on his point ``t``: it is not blocked by the opponent."""
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


@njit(cache=True, inline="always")
def _any_between(s: np.ndarray, lo: int, hi: int) -> bool:
    for p in range(lo, hi + 1):
        if s[p] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _lead_pending(s: np.ndarray) -> bool:
    """Fevga: has no checker passed the opponent's start yet (point 11 or lower, or off)?"""
    return s[OFF] == 0 and not _any_between(s, 1, 11)


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
    # Fevga, first checker away: until a checker has passed the opponent's
    # start, only one may leave point 24.
    block_start = variant == FEVGA and _lead_pending(s) and _any_between(s, 12, 23)
    for src in range(hi, 0, -1):
        if s[src] == 0:
            continue
        if variant == PLAKOTO and s[PIN + src] == PIN_MINE:
            continue
        if block_start and src == 24:
            continue
        t = src - d
        if t >= 1:
            if is_open(s, t, variant):
                out[n, 0] = src
                out[n, 1] = t
                n += 1
        elif home and (t == 0 or src == hi):
            out[n, 0] = src
            out[n, 1] = OFF
            n += 1
    return n


@njit(cache=True, inline="always")
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
    """Scratch arrays for ``generate``, packed into four arrays (fewer
    arguments make calls from Python cheaper); one per thread, grown on demand.

    ``states`` rows ``[0, nodes)`` remember visited inner nodes, the next
    ``plays`` rows hold candidate results; ``ints`` holds the tables (see
    ``_layout``).
    """

    def __init__(self, nodes: int = 4096, plays: int = 2048) -> None:
        self.nodes, self.plays = nodes, plays
        self.states = np.zeros((nodes + plays, STATE_SIZE), np.int8)
        self.steps = np.zeros((plays, 4, 3), np.int8)
        self.hashes = np.zeros(nodes + plays, np.uint64)
        self.ints = np.zeros(_HEAD + 5 * nodes + 6 * plays, np.int64)
        self.ints[_NODES] = nodes
        self.ints[_PLAYS] = plays

    def args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.states, self.steps, self.hashes, self.ints

    def grown(self) -> Workspace:
        return Workspace(2 * self.nodes, 2 * self.plays)

    def overflowed(self) -> bool:
        """The last ``generate`` (or a search made of them) found this workspace too small."""
        return bool(self.ints[STATUS] == OVERFLOW)


_local = threading.local()
_T = TypeVar("_T")


def thread_workspace() -> Workspace:
    """This thread's workspace, made on first use."""
    ws: Workspace | None = getattr(_local, "ws", None)
    if ws is None:
        ws = _local.ws = Workspace()
    return ws


def use_workspace(ws: Workspace | None) -> Workspace | None:
    """Make ``ws`` this thread's workspace (None: a fresh one on next use); returns the one it
    replaces, to put back."""
    saved: Workspace | None = getattr(_local, "ws", None)
    _local.ws = ws
    return saved


def with_workspace(run: Callable[[Workspace], _T]) -> _T:
    """``run(ws)`` with this thread's workspace ``ws``; while it overflows (``ws.overflowed()``),
    the workspace is doubled and ``run`` called again. ``run`` is a call of ``generate`` or of a
    compiled search that uses it."""
    while True:
        ws = thread_workspace()
        result = run(ws)
        if not ws.overflowed():
            return result
        _local.ws = ws.grown()


# ints layout: a header, then per visited node its context, per slot of the
# visited table its node and stamp, per candidate its depth and dice mask,
# per slot of the candidate table its candidate and stamp.
_STAMP, _NODES, _PLAYS, STATUS = 0, 1, 2, 3  # STATUS: ``OVERFLOW`` or 0 after ``generate``
_HEAD = 8
OVERFLOW = 1


@njit(cache=True, inline="always")
def _layout(ints: np.ndarray) -> tuple[int, int, int, int, int, int, int, int, int]:
    v = ints[_NODES]
    c = ints[_PLAYS]
    vis_ctx = _HEAD
    vis_slot = vis_ctx + v
    vis_stamp = vis_slot + 2 * v
    cand_depth = vis_stamp + 2 * v
    cand_mask = cand_depth + c
    cand_slot = cand_mask + c
    cand_stamp = cand_slot + 2 * c
    return v, c, vis_ctx, vis_slot, vis_stamp, cand_depth, cand_mask, cand_slot, cand_stamp


@njit(cache=True, inline="always")
def _same(a: np.ndarray, b: np.ndarray) -> bool:
    wa = a.view(np.uint64)
    wb = b.view(np.uint64)
    for k in range(STATE_SIZE // 8):
        if wa[k] != wb[k]:
            return False
    return True


@njit(cache=True, inline="always")
def _copy(dst: np.ndarray, src: np.ndarray) -> None:
    """Copy one state to another, a 64-bit word at a time."""
    wd = dst.view(np.uint64)
    ws = src.view(np.uint64)
    for k in range(STATE_SIZE // 8):
        wd[k] = ws[k]


@njit(cache=True, inline="always")
def _copy_path(steps: np.ndarray, j: int, path: np.ndarray) -> None:
    for a in range(4):
        for b in range(3):
            steps[j, a, b] = path[a, b]


@njit(cache=True)
def _visit(child: np.ndarray, h: np.uint64, ctx: int, states: np.ndarray, hashes: np.ndarray,
           ints: np.ndarray, stamp: int, nvis: int) -> int:
    """Remember (state, ctx); return the new count, -1 if seen before, -2 if full."""
    v, _, vis_ctx, vis_slot, vis_stamp, _, _, _, _ = _layout(ints)
    key = h ^ _CTX_SALT[ctx]
    mask = 2 * v - 1
    i = np.int64(key & np.uint64(mask))
    while ints[vis_stamp + i] == stamp:
        j = ints[vis_slot + i]
        if hashes[j] == h and ints[vis_ctx + j] == ctx and _same(states[j], child):
            return -1
        i = (i + 1) & mask
    if nvis >= v:
        return -2
    ints[vis_stamp + i] = stamp
    ints[vis_slot + i] = nvis
    hashes[nvis] = h
    ints[vis_ctx + nvis] = ctx
    _copy(states[nvis], child)
    return nvis + 1


@njit(cache=True)
def _record(state: np.ndarray, h: np.uint64, depth: int, die_bit: int, path: np.ndarray,
            states: np.ndarray, steps: np.ndarray, hashes: np.ndarray, ints: np.ndarray,
            stamp: int, ncand: int) -> int:
    """Add a candidate play ending in ``state``; merge equal results. Return count or -2."""
    v, c, _, _, _, cand_depth, cand_mask, cand_slot, cand_stamp = _layout(ints)
    mask = 2 * c - 1
    i = np.int64(h & np.uint64(mask))
    while ints[cand_stamp + i] == stamp:
        j = ints[cand_slot + i]
        if hashes[v + j] == h and _same(states[v + j], state):
            if depth > ints[cand_depth + j]:
                ints[cand_depth + j] = depth
                ints[cand_mask + j] = die_bit
                _copy_path(steps, j, path)
            elif depth == ints[cand_depth + j]:
                if die_bit > ints[cand_mask + j]:
                    _copy_path(steps, j, path)  # show the higher die when both do
                ints[cand_mask + j] |= die_bit
            return ncand
        i = (i + 1) & mask
    if ncand >= c:
        return -2
    ints[cand_stamp + i] = stamp
    ints[cand_slot + i] = ncand
    hashes[v + ncand] = h
    _copy(states[v + ncand], state)
    _copy_path(steps, ncand, path)
    ints[cand_depth + ncand] = depth
    ints[cand_mask + ncand] = die_bit
    return ncand + 1


@njit(cache=True)
def _search(root: np.ndarray, d1: int, d2: int, params: int, states: np.ndarray,
            steps: np.ndarray, hashes: np.ndarray, ints: np.ndarray) -> int:
    """Depth-first search over every way to play the dice; return the candidate count (-2 if full)."""
    variant = _variant(params)
    record_inner = _limits_apply(params)
    ints[_STAMP] += 1
    stamp = ints[_STAMP]
    double = d1 == d2
    hi_die = max(d1, d2)
    lo_die = min(d1, d2)
    n_orders = 1 if double else 2
    length = 4 if double else 2
    seq = np.empty(4, np.int64)
    stack = np.empty((5, STATE_SIZE), np.int8)
    hstack = np.empty(5, np.uint64)
    moves = np.empty((5, 16, 2), np.int64)
    nmoves = np.zeros(5, np.int64)
    nexti = np.zeros(5, np.int64)
    path = np.zeros((4, 3), np.int8)
    nvis = 0
    ncand = 0
    root_hash = state_hash(root)
    # With a double, any play can be reordered so that its steps start from
    # ever lower (or equal) points without changing its legality or result:
    # the mover's own steps never close a point, and moving higher checkers
    # first only widens bearing off. So only such orders are searched, except
    # in Fevga before the lead checker has passed (a later checker may leave
    # 24 only after it), where a memo of visited nodes prunes repeats instead.
    ordered = double and not (variant == FEVGA and _lead_pending(root))
    last_src = np.full(5, 25, np.int64)
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
        _copy(stack[0], root)
        hstack[0] = root_hash
        nmoves[0] = die_steps(stack[0], seq[0], params, moves[0])
        nexti[0] = 0
        level = 0
        while level >= 0:
            if nexti[level] >= nmoves[level]:
                level -= 1
                continue
            i = nexti[level]
            nexti[level] += 1
            src = moves[level, i, 0]
            dst = moves[level, i, 1]
            if ordered and src > last_src[level]:
                continue
            last_src[level + 1] = src
            child = stack[level + 1]
            _copy(child, stack[level])
            h, hit = apply_step(child, src, dst, variant, hstack[level])
            hstack[level + 1] = h
            depth = level + 1
            if double and not ordered and 2 <= depth < length:
                # only inner nodes of a double can be reached twice by
                # different paths with the same dice left; skip repeats.
                seen = _visit(child, h, depth, states, hashes, ints, stamp, nvis)
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
                ncand = _record(child, h, depth, die_bit, path, states, steps, hashes, ints,
                                stamp, ncand)
                if ncand == -2:
                    return -2
            if not leaf:
                level = depth
    return ncand


@njit(cache=True)
def _select(ncand: int, d1: int, d2: int, params: int, states: np.ndarray, ints: np.ndarray,
            keep: np.ndarray) -> int:
    """Apply the dice rules to the candidates; write the kept indices to ``keep``."""
    v, _, _, _, _, cand_depth, cand_mask, _, _ = _layout(ints)
    valid = np.ones(ncand, np.bool_)
    if _limits_apply(params):
        anyvalid = False
        for j in range(ncand):
            valid[j] = keeps_prime_limits(states[v + j], params)
            anyvalid = anyvalid or valid[j]
        if not anyvalid:
            valid[:] = True  # no way keeps the limits: they are ignored this turn
    best = 0
    for j in range(ncand):
        if valid[j] and ints[cand_depth + j] > best:
            best = ints[cand_depth + j]
    need_high = False
    if best == 1 and d1 != d2:
        for j in range(ncand):
            if valid[j] and ints[cand_depth + j] == 1 and ints[cand_mask + j] & 2:
                need_high = True
                break
    n = 0
    for j in range(ncand):
        if valid[j] and ints[cand_depth + j] == best and (not need_high or ints[cand_mask + j] & 2):
            keep[n] = j
            n += 1
    return n


ROW_SIZE = STATE_SIZE + 12
"""A row of ``generate``'s answer: the result state, then 4 steps of (from, to, hit)."""


@njit(cache=True)
def generate(root: np.ndarray, d1: int, d2: int, params: int, states: np.ndarray,
             steps: np.ndarray, hashes: np.ndarray, ints: np.ndarray) -> np.ndarray:
    """Every legal play of dice ``d1, d2``, one row each (see ``ROW_SIZE``).

    The row holds the position after the play (still seen by the mover), then
    ``(from, to, hit)`` for each die used, zeros after the last. No rows: the
    turn passes. If the workspace is too small, ``ints[STATUS]`` is set to
    ``OVERFLOW``: grow it and call again.
    """
    ints[STATUS] = 0
    ncand = _search(root, d1, d2, params, states, steps, hashes, ints)
    if ncand < 0:
        ints[STATUS] = OVERFLOW
        return np.empty((0, ROW_SIZE), np.int8)
    keep = np.empty(ncand, np.int64)
    n = _select(ncand, d1, d2, params, states, ints, keep)
    v = ints[_NODES]
    rows = np.empty((n, ROW_SIZE), np.int8)
    for k in range(n):
        j = keep[k]
        for a in range(STATE_SIZE):
            rows[k, a] = states[v + j, a]
        for a in range(4):
            for b in range(3):
                rows[k, STATE_SIZE + 3 * a + b] = steps[j, a, b]
    return rows


STEP_EDGE = 4
"""A row of ``step_graph``'s edges: from, to, hit (1 or 0), the node it leads to."""


@njit(cache=True)
def _result_slot(table: np.ndarray, results: np.ndarray, hashes: np.ndarray, state: np.ndarray,
                 h: np.uint64) -> int:
    """The legal play whose result is ``state`` (hash ``h``), found in ``step_graph``'s table; -1 if none."""
    mask = len(table) - 1
    i = np.int64(h & np.uint64(mask))
    while table[i] >= 0:
        j = table[i]
        if hashes[j] == h and _same(results[j], state):
            return int(j)
        i = (i + 1) & mask
    return -1


@njit(cache=True)
def step_graph(root: np.ndarray, d1: int, d2: int, params: int, results: np.ndarray, lengths: np.ndarray,
               capacity: int, edges: np.ndarray, nodes: np.ndarray) -> tuple[int, int]:
    """Every way to make the legal plays one die at a time, as a graph (``LegalPlays.step_tree``).

    ``results`` holds the legal plays' results (mover's view) and ``lengths`` their dice used. A
    node is a board with the dice left; it is kept if it completes a play of its length or a step
    from it leads to a kept node. Nodes are numbered children first (the start is the last);
    ``nodes[k]`` is (the play it completes or -1, its first edge, its edge count) and each edge a
    ``STEP_EDGE`` row. The steps are tried die by die, the higher die first, each die's steps in
    ``die_steps``' order. Returns (nodes, edges), or (-2, 0) if ``capacity`` nodes (or the edge
    arrays) were too few: call again with more.
    """
    variant = _variant(params)
    double = d1 == d2
    hi_die = max(d1, d2)
    lo_die = min(d1, d2)
    total = 4 if double else 2
    # the plays' results, found by hash
    n = len(results)
    size = 16
    while size < 2 * n:
        size *= 2
    table = np.full(size, -1, np.int64)
    rhash = np.empty(n, np.uint64)
    for j in range(n):
        h = state_hash(results[j])
        rhash[j] = h
        i = np.int64(h & np.uint64(size - 1))
        while table[i] >= 0:
            i = (i + 1) & (size - 1)
        table[i] = j
    # the boards visited with their dice left (the memo): their node, -1 if none goes on
    mstates = np.empty((capacity, STATE_SIZE), np.int8)
    mhash = np.empty(capacity, np.uint64)
    mctx = np.empty(capacity, np.int64)
    mnode = np.empty(capacity, np.int64)
    slots = np.full(2 * capacity, -1, np.int64)
    smask = 2 * capacity - 1
    nmemo = 0
    # the search's levels: a board, its dice left (``ctx``: doubles their count, else a bit for
    # each die, 2 the higher), the dice to try, the steps of the die being tried, the edges found
    st = np.empty((5, STATE_SIZE), np.int8)
    hs = np.empty(5, np.uint64)
    ctx = np.zeros(5, np.int64)
    dice = np.zeros((5, 2), np.int64)
    ndice = np.zeros(5, np.int64)
    di = np.zeros(5, np.int64)
    moves = np.empty((5, 16, 2), np.int64)
    nm = np.zeros(5, np.int64)
    mi = np.zeros(5, np.int64)
    pend = np.empty((5, 32, STEP_EDGE), np.int64)
    npend = np.zeros(5, np.int64)
    memo_of = np.zeros(5, np.int64)
    nnodes = 0
    nedges = 0
    child_hit = np.zeros(5, np.int64)

    # enter the start: level 0
    _copy(st[0], root)
    hs[0] = state_hash(root)
    ctx[0] = 4 if double else 3
    level = 0
    entering = True
    returning = False
    result = -1
    while True:
        if entering:
            # a board just reached at ``level``: seen before, or to explore
            c = ctx[level]
            key = hs[level] ^ _CTX_SALT[c]
            i = np.int64(key & np.uint64(smask))
            found = -1
            while slots[i] >= 0:
                j = slots[i]
                if mhash[j] == hs[level] and mctx[j] == c and _same(mstates[j], st[level]):
                    found = j
                    break
                i = (i + 1) & smask
            entering = False
            if found >= 0:  # met before: its node (or -1) goes back to the level above
                result = mnode[found]
                returning = True
            elif nmemo >= capacity:
                return -2, 0
            else:  # new: remembered, and its dice (the higher first) and the first die's steps set out
                returning = False
                slots[i] = nmemo
                mhash[nmemo] = hs[level]
                mctx[nmemo] = c
                mnode[nmemo] = -1
                _copy(mstates[nmemo], st[level])
                memo_of[level] = nmemo
                nmemo += 1
                if double:
                    ndice[level] = 1 if c > 0 else 0
                    dice[level, 0] = d1
                else:
                    k = 0
                    if c & 2:
                        dice[level, k] = hi_die
                        k += 1
                    if c & 1:
                        dice[level, k] = lo_die
                        k += 1
                    ndice[level] = k
                di[level] = 0
                nm[level] = 0
                mi[level] = 0
                npend[level] = 0
                if ndice[level] > 0:
                    nm[level] = die_steps(st[level], dice[level, 0], params, moves[level])
        if not returning:
            # go on with ``level``: its next step, or its next die, or finish it
            if mi[level] < nm[level]:
                k = mi[level]
                mi[level] = k + 1
                child = st[level + 1]
                _copy(child, st[level])
                h, hit = apply_step(child, moves[level, k, 0], moves[level, k, 1], variant, hs[level])
                hs[level + 1] = h
                child_hit[level] = hit
                die = dice[level, di[level]]
                if double:
                    ctx[level + 1] = ctx[level] - 1
                else:
                    ctx[level + 1] = ctx[level] & ~(2 if die == hi_die else 1)
                level += 1
                entering = True
                continue
            if di[level] + 1 < ndice[level]:
                di[level] += 1
                mi[level] = 0
                nm[level] = die_steps(st[level], dice[level, di[level]], params, moves[level])
                continue
            # finished: kept if it completes a play of its length or leads on
            c = ctx[level]
            left = c if double else (c & 1) + ((c >> 1) & 1)
            play = _result_slot(table, results, rhash, st[level], hs[level])
            if play >= 0 and lengths[play] != total - left:
                play = -1
            result = -1
            if play >= 0 or npend[level] > 0:
                if nnodes >= len(nodes) or nedges + npend[level] > len(edges):
                    return -2, 0
                nodes[nnodes, 0] = play
                nodes[nnodes, 1] = nedges
                nodes[nnodes, 2] = npend[level]
                for k in range(npend[level]):
                    for a in range(STEP_EDGE):
                        edges[nedges, a] = pend[level, k, a]
                    nedges += 1
                result = nnodes
                nnodes += 1
            mnode[memo_of[level]] = result
        # back to the level above, with the node reached (an edge to it if it is kept)
        returning = False
        level -= 1
        if level < 0:
            break
        if result >= 0:
            k = npend[level]
            pend[level, k, 0] = moves[level, mi[level] - 1, 0]
            pend[level, k, 1] = moves[level, mi[level] - 1, 1]
            pend[level, k, 2] = child_hit[level]
            pend[level, k, 3] = result
            npend[level] = k + 1
    return nnodes, nedges


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
def playout(root: np.ndarray, params: int, max_turns: int, states: np.ndarray,
            steps: np.ndarray, hashes: np.ndarray, ints: np.ndarray) -> tuple[int, int]:
    """Play random legal plays from ``root`` to the end: ``(result, turns)``.

    ``result`` is an ``outcome`` code from the point of view of the player
    to move at ``root``; turns that pass count too. A workspace overflow
    returns ``(ONGOING, -1)``.
    """
    s = root.copy()
    sign = 1
    for turn in range(max_turns):
        d1 = np.random.randint(1, 7)
        d2 = np.random.randint(1, 7)
        rows = generate(s, d1, d2, params, states, steps, hashes, ints)
        if ints[STATUS] != 0:
            return ONGOING, -1
        if len(rows) > 0:
            s = rows[np.random.randint(0, len(rows)), :STATE_SIZE].copy()
        r = outcome(s, params)
        if r != ONGOING:
            if r == TIE:
                return TIE, turn + 1
            return sign * r, turn + 1
        s = flip(s, params)
        sign = -sign
    return ONGOING, max_turns
