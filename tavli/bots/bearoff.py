"""One-sided bear-off database, built by the library's own move generator.

A side's bear-off position is how many of its checkers stand on each of its
home points 1..6 (0 to 15 in all; the rest are borne off). For each such
position two tables give, for ``n`` = 0 .. ``MAX_ROLLS - 1``:

* ``finish[i, n]``: the chance of bearing off every checker in exactly ``n``
  rolls, each roll played to minimise the expected number of rolls;
* ``first_off[i, n]``: the chance of bearing off the first checker in exactly
  ``n`` rolls, each roll played to minimise the expected rolls to get one
  off (1 at ``n = 0`` once some checker is off). A side with none off when
  the other finishes loses two points.

Chances beyond ``MAX_ROLLS - 1`` rolls are folded into the last column. The
tables take some seconds to build the first time; ``load`` caches them on
disk (``$TAVLI_CACHE``, else ``$XDG_CACHE_HOME/tavli``, else ``~/.cache/tavli``).

Once both sides have all their checkers at home there is no more contact in
any of the three games, and ``race_probabilities`` gives the exact one-sided
chances of the side to move:

>>> import numpy as np
>>> from tavli import WHITE, Position
>>> position_index(np.array([0, 0, 0, 0, 0, 0])), N_POSITIONS
(0, 54264)
>>> position_counts(position_index(np.array([2, 0, 0, 0, 0, 1])))
(2, 0, 0, 0, 0, 1)
>>> pos = Position.from_checkers("portes", WHITE, {1: 1}, {6: 15})
>>> bool(all_home(pos.state, pos.variant.kernel_id))
True
>>> finish, first_off = load()  # doctest: +SKIP
>>> race_probabilities(pos.state, pos.variant.kernel_id, finish, first_off)  # doctest: +SKIP
(1.0, 1.0, 0.0)
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
import zipfile
from math import comb
from pathlib import Path

import numpy as np
from numba import njit

from tavli import _kernel as K

CHECKERS = 15
HOME = 6
N_POSITIONS = comb(CHECKERS + HOME, HOME)  # 54264
MAX_ROLLS = 32
FORMAT_VERSION = 1

_OK = 0
_OVERFLOW = 1

# _BINOM[n, k] = C(n, k) for the combinatorial number system
_BINOM = np.array([[comb(n, k) for k in range(HOME + 1)] for n in range(CHECKERS + HOME + 1)],
                  dtype=np.int64)


@njit(cache=True, nogil=True)
def position_index(counts: np.ndarray) -> int:
    """Index 0..N_POSITIONS-1 of ``counts`` (checkers on points 1..6, at most 15 in all).

    The counts from the 6 point down give six increasing numbers
    ``b_k = k - 1 + counts on points 7-k..6``, ranked by the combinatorial
    number system: no checkers is index 0, and every move (a checker going
    down or off) lowers the index.
    """
    idx = 0
    total = 0
    for k in range(1, HOME + 1):
        total += counts[HOME - k]
        idx += _BINOM[k - 1 + total, k]
    return idx


def position_counts(index: int) -> tuple[int, ...]:
    """The counts on points 1..6 of the position with this index (inverse of ``position_index``)."""
    if not 0 <= index < N_POSITIONS:
        raise ValueError(f"a bear-off index is 0 to {N_POSITIONS - 1}, not {index}")
    b = [0] * (HOME + 1)
    rest = index
    for k in range(HOME, 0, -1):
        n = k - 1
        while comb(n + 1, k) <= rest:
            n += 1
        b[k] = n
        rest -= comb(n, k)
    suffix = [b[k] - (k - 1) for k in range(HOME + 1)]  # suffix[k]: checkers on points 7-k..6
    suffix[0] = 0
    counts = [0] * HOME
    for k in range(1, HOME + 1):
        counts[HOME - k] = suffix[k] - suffix[k - 1]
    return tuple(counts)


@njit(cache=True, nogil=True)
def _all_counts() -> np.ndarray:
    """Counts on points 1..6 of every position, by index."""
    table = np.zeros((N_POSITIONS, HOME), np.int8)
    c = np.zeros(HOME, np.int64)
    for c0 in range(CHECKERS + 1):
        c[0] = c0
        for c1 in range(CHECKERS + 1 - c0):
            c[1] = c1
            for c2 in range(CHECKERS + 1 - c0 - c1):
                c[2] = c2
                for c3 in range(CHECKERS + 1 - c0 - c1 - c2):
                    c[3] = c3
                    for c4 in range(CHECKERS + 1 - c0 - c1 - c2 - c3):
                        c[4] = c4
                        for c5 in range(CHECKERS + 1 - c0 - c1 - c2 - c3 - c4):
                            c[5] = c5
                            i = position_index(c)
                            for p in range(HOME):
                                table[i, p] = c[p]
    return table


@njit(cache=True, nogil=True)
def _accumulate(acc: np.ndarray, child: np.ndarray, weight: float) -> None:
    """Add ``weight`` times ``child`` shifted by one roll, the tail folded into the last bucket."""
    last = MAX_ROLLS - 1
    for n in range(1, last):
        acc[n] += weight * child[n - 1]
    acc[last] += weight * (child[last - 1] + child[last])


@njit(cache=True, nogil=True)
def _close(row: np.ndarray, acc: np.ndarray, stay: float) -> None:
    """``row`` = ``acc`` plus the rolls that cannot be played (chance ``stay``) keeping the position."""
    last = MAX_ROLLS - 1
    row[0] = 0.0
    for n in range(1, last):
        row[n] = acc[n] + stay * row[n - 1]
    row[last] = (acc[last] + stay * row[last - 1]) / (1.0 - stay)


@njit(cache=True, nogil=True)
def _build(params: int, states: np.ndarray, steps: np.ndarray, hashes: np.ndarray,
           ints: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Fill both tables by dynamic programming; return ``(finish, first_off, status)``.

    Every play lowers the index (see ``position_index``), so going through
    the positions by increasing index finds every result already solved.
    """
    counts = _all_counts()
    finish = np.zeros((N_POSITIONS, MAX_ROLLS), np.float64)
    first = np.zeros((N_POSITIONS, MAX_ROLLS), np.float64)
    mean_finish = np.zeros(N_POSITIONS, np.float64)
    mean_first = np.zeros(N_POSITIONS, np.float64)
    acc_finish = np.zeros(MAX_ROLLS, np.float64)
    acc_first = np.zeros(MAX_ROLLS, np.float64)
    finish[0, 0] = 1.0
    first[0, 0] = 1.0
    root = np.zeros(K.STATE_SIZE, np.int8)
    for i in range(1, N_POSITIONS):
        total = 0
        for p in range(HOME):
            root[p + 1] = counts[i, p]
            total += counts[i, p]
        root[K.OFF] = CHECKERS - total
        racing_first = total == CHECKERS  # none off yet: first_off is to be worked out
        acc_finish[:] = 0.0
        acc_first[:] = 0.0
        sum_finish = 0.0
        sum_first = 0.0
        stay = 0.0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                chance = 1.0 / 36.0 if d1 == d2 else 2.0 / 36.0
                rows = K.generate(root, d1, d2, params, states, steps, hashes, ints)
                if ints[K.STATUS] == K.OVERFLOW:
                    return finish.astype(np.float32), first.astype(np.float32), _OVERFLOW
                if len(rows) == 0:
                    stay += chance
                    continue
                best_finish = -1
                best_first = -1
                for r in range(len(rows)):
                    j = position_index(rows[r, 1:HOME + 1])
                    if best_finish < 0 or mean_finish[j] < mean_finish[best_finish]:
                        best_finish = j
                    if best_first < 0 or mean_first[j] < mean_first[best_first]:
                        best_first = j
                _accumulate(acc_finish, finish[best_finish], chance)
                sum_finish += chance * mean_finish[best_finish]
                if racing_first:
                    _accumulate(acc_first, first[best_first], chance)
                    sum_first += chance * mean_first[best_first]
        _close(finish[i], acc_finish, stay)
        mean_finish[i] = (1.0 + sum_finish) / (1.0 - stay)
        if racing_first:
            _close(first[i], acc_first, stay)
            mean_first[i] = (1.0 + sum_first) / (1.0 - stay)
        else:
            first[i, 0] = 1.0
    return finish.astype(np.float32), first.astype(np.float32), _OK


def build() -> tuple[np.ndarray, np.ndarray]:
    """Compute ``(finish, first_off)`` from scratch (seconds; ``load`` caches them)."""
    ws = K.Workspace(nodes=1024, plays=1024)
    while True:
        finish, first_off, status = _build(K.pack_params(K.PORTES), *ws.args())
        if status == _OK:
            return finish, first_off
        ws = ws.grown()


def cache_dir() -> Path:
    """Where ``load`` keeps the tables.

    ``$TAVLI_CACHE`` if set, else ``$XDG_CACHE_HOME/tavli``, else ``~/.cache/tavli``.
    """
    explicit = os.environ.get("TAVLI_CACHE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tavli"


def cache_path() -> Path:
    return cache_dir() / f"bearoff-v{FORMAT_VERSION}-{MAX_ROLLS}.npz"


def read_cache(path: Path) -> tuple[np.ndarray, np.ndarray] | None:
    """The tables from a cache file; None if it is missing, unreadable or not what it should be."""
    shape = (N_POSITIONS, MAX_ROLLS)
    try:
        with np.load(path, allow_pickle=False) as data:
            finish = np.asarray(data["finish"])
            first_off = np.asarray(data["first_off"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    for table in (finish, first_off):
        if table.shape != shape or table.dtype != np.float32 or not np.all(np.isfinite(table)):
            return None
    return finish, first_off


def _write(path: Path, finish: np.ndarray, first_off: np.ndarray) -> None:
    """Write the cache file atomically (a temporary file, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(f, finish=finish, first_off=first_off)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@functools.cache
def load() -> tuple[np.ndarray, np.ndarray]:
    """``(finish, first_off)``, read from the disk cache or built (and cached) once.

    A cache file that cannot be read is rebuilt. The arrays are read-only.
    """
    path = cache_path()
    tables = read_cache(path)
    if tables is None:
        tables = build()
        with contextlib.suppress(OSError):  # a read-only cache folder only costs the build
            _write(path, *tables)
    for table in tables:
        table.flags.writeable = False
    return tables


@njit(cache=True, nogil=True)
def all_home(s: np.ndarray, variant: int) -> bool:
    """Have both sides all their remaining checkers in their home boards (so no contact)?

    The mover's home is his points 1..6; the opponent's is the mover's
    19..24 in Portes and Plakoto, 13..18 in Fevga. Nobody may be on the bar.
    """
    lo = 13 if variant == K.FEVGA else 19
    outside = 0
    outside += s[K.BAR] + s[K.OPP + K.BAR]
    for p in range(HOME + 1, 25):
        outside += s[p]
    for q in range(1, 25):
        if not lo <= q < lo + HOME:
            outside += s[K.OPP + q]
    return bool(outside == 0)


@njit(cache=True, nogil=True)
def _home_counts(s: np.ndarray, variant: int) -> tuple[np.ndarray, np.ndarray]:
    """Counts on their own points 1..6 of the mover and of the opponent."""
    mine = np.empty(HOME, np.int64)
    theirs = np.empty(HOME, np.int64)
    for m in range(1, HOME + 1):
        mine[m - 1] = s[m]
        q = m + 12 if variant == K.FEVGA else 25 - m
        theirs[m - 1] = s[K.OPP + q]
    return mine, theirs


@njit(cache=True, nogil=True)
def race_probabilities(s: np.ndarray, variant: int, finish: np.ndarray,
                       first_off: np.ndarray) -> tuple[float, float, float]:
    """``(p_win, p_win2, p_lose2)`` of the mover, on roll, in a race (``all_home`` true).

    The mover finishing in ``n`` rolls wins if the opponent needs ``n`` or
    more; he wins two points if besides the opponent gets no checker off in
    his ``n - 1`` rolls; he loses two if the opponent finishes in ``k``
    rolls while he gets no checker off in his ``k``. Both sides play the
    one-sided optimum (fewest expected rolls; to save the double game, to
    get a checker off fastest). Equity: ``2 * p_win - 1 + p_win2 - p_lose2``.
    """
    mine, theirs = _home_counts(s, variant)
    fm = finish[position_index(mine)]
    om = first_off[position_index(mine)]
    fo = finish[position_index(theirs)]
    oo = first_off[position_index(theirs)]
    # tail_x[n] = P(x >= n) = 1 - P(x < n): exact where it matters, at few rolls
    tail_fo = np.ones(MAX_ROLLS + 1, np.float64)
    tail_oo = np.ones(MAX_ROLLS + 1, np.float64)
    tail_fm = np.ones(MAX_ROLLS + 1, np.float64)
    tail_om = np.ones(MAX_ROLLS + 1, np.float64)
    for n in range(MAX_ROLLS):
        tail_fo[n + 1] = max(tail_fo[n] - fo[n], 0.0)
        tail_oo[n + 1] = max(tail_oo[n] - oo[n], 0.0)
        tail_fm[n + 1] = max(tail_fm[n] - fm[n], 0.0)
        tail_om[n + 1] = max(tail_om[n] - om[n], 0.0)
    win = 0.0
    win2 = 0.0
    lose2 = 0.0
    for n in range(MAX_ROLLS):
        # none off implies not finished; the two tables play differently, so keep that bound
        win += fm[n] * tail_fo[n]
        win2 += fm[n] * min(tail_oo[n], tail_fo[n])
        lose2 += fo[n] * min(tail_om[n + 1], tail_fm[n + 1])
    return win, win2, lose2
