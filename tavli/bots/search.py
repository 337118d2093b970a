"""Compiled evaluation and search shared by the three games.

When both sides have all their checkers home, ``tavli.bots.bearoff`` answers instead of the
network (``race`` is its pair of tables; empty tables turn it off).

Search depth follows GNU Backgammon's convention: 0-ply scores each play by the network; 1-ply
averages the opponent's best answer (by 0-ply) over his 21 rolls; 2-ply looks one roll further.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tavli import _kernel as K
from tavli.bots.bearoff import all_home, race_probabilities
from tavli.bots.features import ROLLS, encode
from tavli.bots.network import Arrays, Network, Tables, hidden_from, hidden_sums, outputs, weighted


@njit(cache=True, inline="always")
def _consistent(out: np.ndarray) -> None:
    """A 2-point win is a win, a 2-point loss is a loss."""
    if out[1] > out[0]:
        out[1] = out[0]
    if out[2] > 1.0 - out[0]:
        out[2] = 1.0 - out[0]


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
    hidden_sums(x, net[0], net[1], h)
    outputs(h, net[2], net[3], h, out)
    _consistent(out)


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


@njit(cache=True)
def values0(rows: np.ndarray, params: int, net: Network, race: Tables, x: np.ndarray, h: np.ndarray,
            values: np.ndarray) -> None:
    """0-ply values of the mover's positions after each of his plays of one roll (the first
    ``K.STATE_SIZE`` columns of ``rows``), mover's view, into ``values[n, 3]``: ``post0`` of
    each, as one batch. The plays of one roll differ in a few inputs, so each position's hidden
    sums are made from the previous one's (``tavli.bots.network.hidden_from``)."""
    variant = params & 3
    w1 = net[0]
    sums = np.empty(h.shape[0], np.float32)
    before = np.empty(x.shape[0], np.float32)
    cur = x
    started = False
    for k in range(rows.shape[0]):
        r = rows[k, :K.STATE_SIZE]
        out = values[k]
        code = K.outcome(r, params)
        if code != K.ONGOING:
            _terminal(code, out)
            continue
        s = K.flip(r, params)
        if race[0].shape[0] > 1 and all_home(s, variant):
            w, w2, l2 = race_probabilities(s, variant, race[0], race[1])
            out[0] = w
            out[1] = w2
            out[2] = l2
        else:
            encode(s, variant, cur)
            if started:
                hidden_from(cur, before, w1, sums)
            else:
                hidden_sums(cur, w1, net[1], sums)
                started = True
            outputs(sums, net[2], net[3], h, out)
            _consistent(out)
            cur, before = before, cur
        _turn_over(out)


# A free slot of the workspace header: set when any ``generate`` of a search
# overflowed, since each later call clears the kernel's own status.
_OVERFLOWED = 7


@njit(cache=True, inline="always")
def _note_overflow(ints: np.ndarray) -> None:
    if ints[K.STATUS] != 0:
        ints[_OVERFLOWED] = 1


@njit(cache=True)
def _best0(rows: np.ndarray, params: int, net: Network, race: Tables, x: np.ndarray, h: np.ndarray,
           out: np.ndarray, c: np.ndarray) -> int:
    """The index of the best of ``rows`` by 0-ply for weights ``c``; its value into ``out``."""
    values = np.empty((rows.shape[0], 3), np.float64)
    values0(rows, params, net, race, x, h, values)
    best = -1
    best_eq = -1e300
    for k in range(rows.shape[0]):
        e = weighted(values[k], c)
        if e > best_eq:
            best_eq = e
            best = k
    out[:] = values[best]
    return best


@njit(cache=True)
def _best_after(s: np.ndarray, d1: int, d2: int, params: int, net: Network, race: Tables, ws: Arrays,
                x: np.ndarray, h: np.ndarray, out: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, bool]:
    """The mover's position after his best play of ``d1-d2`` by 0-ply, by his weights ``c``, with
    ``True`` and its 0-ply value in ``out``; ``s`` itself and ``False`` when he cannot move."""
    rows = K.generate(s, d1, d2, params, ws[0], ws[1], ws[2], ws[3])
    _note_overflow(ws[3])
    if rows.shape[0] == 0:
        return s, False
    return rows[_best0(rows, params, net, race, x, h, out, c), :K.STATE_SIZE].copy(), True


@njit(cache=True)
def _pre1_keeping(s: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
                  h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int, replies: np.ndarray) -> None:
    """``pre1``, keeping the mover's best play of each roll: ``replies[i]`` the position after
    it (``s`` where roll ``i`` cannot be played)."""
    acc = np.zeros(3, np.float64)
    for i in range(ROLLS.shape[0]):
        after, valued = _best_after(s, ROLLS[i, 0], ROLLS[i, 1], params, net, race, ws, x, h, out, wt[side])
        replies[i] = after
        if not valued:
            post0(after, params, net, race, x, h, out)
        acc += ROLLS[i, 2] * out
    out[:] = acc / 36.0


@njit(cache=True)
def pre1(s: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
         h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """1-ply value of ``s`` with the mover (``wt`` row ``side``) to roll: his best play by
    0-ply, over 21 rolls."""
    _pre1_keeping(s, params, net, race, ws, x, h, out, wt, side, np.empty((ROLLS.shape[0], K.STATE_SIZE), np.int8))


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
def _best_replies(s: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
                  h: np.ndarray, out: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The positions after the mover's best play (by 0-ply, weights ``c``) of each of the 21
    rolls in ``s`` (``s`` itself where a roll cannot be played)."""
    replies = np.empty((ROLLS.shape[0], K.STATE_SIZE), np.int8)
    for i in range(ROLLS.shape[0]):
        replies[i] = _best_after(s, ROLLS[i, 0], ROLLS[i, 1], params, net, race, ws, x, h, out, c)[0]
    return replies


@njit(cache=True)
def _pre2_after(replies: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
                h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """``pre2`` from the mover's best play of each roll (``_best_replies``)."""
    acc = np.zeros(3, np.float64)
    for i in range(ROLLS.shape[0]):
        post1(replies[i], params, net, race, ws, x, h, out, wt, side)
        acc += ROLLS[i, 2] * out
    out[:] = acc / 36.0


@njit(cache=True)
def pre2(s: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
         h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """2-ply value of ``s`` with the mover (``wt`` row ``side``) to roll: his best play of
    each of the 21 rolls by 0-ply, valued at 1-ply."""
    replies = _best_replies(s, params, net, race, ws, x, h, out, wt[side])
    _pre2_after(replies, params, net, race, ws, x, h, out, wt, side)


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


@njit(cache=True)
def _pre3_after(replies: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
                h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """3-ply value for the mover (``wt`` row ``side``) to roll, from his best play of each roll
    (``_best_replies``), each valued at 2-ply."""
    acc = np.zeros(3, np.float64)
    for i in range(ROLLS.shape[0]):
        post2(replies[i], params, net, race, ws, x, h, out, wt, side)
        acc += ROLLS[i, 2] * out
    out[:] = acc / 36.0


# Each depth has its own function: numba's cache cannot hold a recursive one.
@njit(cache=True)
def post3(r: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
          h: np.ndarray, out: np.ndarray, wt: np.ndarray, side: int) -> None:
    """3-ply value of ``r``: as ``post2``, the replies valued at 2-ply."""
    code = K.outcome(r, params)
    if code != K.ONGOING:
        _terminal(code, out)
        return
    replies = _best_replies(K.flip(r, params), params, net, race, ws, x, h, out, wt[1 - side])
    _pre3_after(replies, params, net, race, ws, x, h, out, wt, 1 - side)
    _turn_over(out)


@njit(cache=True)
def _deeper(r: np.ndarray, level: int, params: int, net: Network, race: Tables, ws: Arrays, x: np.ndarray,
            h: np.ndarray, out: np.ndarray, wt: np.ndarray, replies: np.ndarray) -> None:
    """``post1``, ``post2`` or ``post3`` (``level``) of the play ``r`` of the side valued by
    ``wt`` row 0. The opponent's best reply to each roll is the same at every depth: the 1-ply
    search keeps them in ``replies`` and the deeper ones start from them."""
    code = K.outcome(r, params)
    if code != K.ONGOING:
        _terminal(code, out)
        return
    if level == 1:
        _pre1_keeping(K.flip(r, params), params, net, race, ws, x, h, out, wt, 1, replies)
    elif level == 2:
        _pre2_after(replies, params, net, race, ws, x, h, out, wt, 1)
    else:
        _pre3_after(replies, params, net, race, ws, x, h, out, wt, 1)
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
    If the workspace was too small anywhere, ``ws[3][K.STATUS]`` says so
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
    replies = np.empty((n if depth > 0 else 0, ROLLS.shape[0], K.STATE_SIZE), np.int8)
    values0(rows, params, net, race, x, h, values)
    for k in range(n):
        eq[k] = weighted(values[k], wt[0])
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
            _deeper(rows[k, :K.STATE_SIZE].copy(), level, params, net, race, ws, x, h, out, wt, replies[k])
            values[k] = out
            eq[k] = weighted(out, wt[0])
            used[k] = level
            taken += 1
    if ws[3][_OVERFLOWED] != 0:  # the caller grows the workspace and asks again
        ws[3][K.STATUS] = K.OVERFLOW
    return values, used


@njit(cache=True, nogil=True)
def roll_values(s: np.ndarray, params: int, net: Network, race: Tables, ws: Arrays,
                c: np.ndarray) -> np.ndarray:
    """The mover's chances ``[21, 3]`` (win, win 2, lose 2) after his best play by 0-ply,
    by his weights ``c`` (see ``weighted``), of each of the 21 rolls (in ``ROLLS``
    order) in ``s``, the mover to roll. As ``analyse``, ``ws[3][K.STATUS]`` tells of a
    workspace too small."""
    ws[3][_OVERFLOWED] = 0
    x = np.zeros(net[0].shape[0], np.float32)
    h = np.zeros(net[1].shape[0], np.float32)
    out = np.zeros(3, np.float64)
    values = np.zeros((ROLLS.shape[0], 3), np.float64)
    for i in range(ROLLS.shape[0]):
        after, valued = _best_after(s, ROLLS[i, 0], ROLLS[i, 1], params, net, race, ws, x, h, out, c)
        if not valued:
            post0(after, params, net, race, x, h, out)
        values[i] = out
    if ws[3][_OVERFLOWED] != 0:
        ws[3][K.STATUS] = K.OVERFLOW
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
