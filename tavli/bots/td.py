"""Compiled self-play training: TD(0) and TD(λ) steps and whole games of greedy self-play."""

from __future__ import annotations

import numpy as np
from numba import njit

from tavli import _kernel as K
from tavli.bots.bearoff import all_home
from tavli.bots.features import encode
from tavli.bots.network import MONEY, Arrays, Network, Tables, equity, forward
from tavli.bots.search import post0, pre1, pre2


@njit(cache=True)
def backprop(x: np.ndarray, h: np.ndarray, out: np.ndarray, target: np.ndarray, alpha: float,
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
def backprop_traced(x: np.ndarray, h: np.ndarray, out: np.ndarray, target: np.ndarray, alpha: float,
                     lam: float, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                     g: np.ndarray, e1: np.ndarray, eb1: np.ndarray, e2: np.ndarray, eb2: np.ndarray,
                     seen: np.ndarray) -> None:
    """One TD(λ) step from ``out`` towards ``target``.

    The traces hold, for each output k, the sum of its past gradients decayed by ``lam`` a
    turn: ``e1[i, j, k]`` for ``w1[i, j]``, ``eb1[j, k]``, ``e2[r, j, k]`` for ``w2[r, j]``,
    ``eb2[r, k]``. Each turn they are first seen from the other side, as the search turns a
    value (win becomes 1 - win, so its gradient changes sign; the 2-point chances swap), then
    decayed and added to; every weight then moves by ``alpha`` times the outputs' errors
    times their traces. With ``lam`` 0 it is ``backprop``'s TD(0) step.

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
    """One weight's traces ``e`` (win, win 2, lose 2) seen from the other side, as the search
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

    With ``lam`` above 0 it learns by TD(λ) (``backprop_traced``): each turn's error also
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
            if ws[3][K.STATUS] != 0:
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
                    backprop_traced(x, h, cur, target, alpha, lam, net[0], net[1], net[2], net[3],
                                     g, e1, eb1, e2, eb2, seen)
                    if explored:
                        _clear_traces(e1, eb1, e2, eb2, seen)
                else:
                    backprop(x, h, cur, target, alpha, net[0], net[1], net[2], net[3], dh)
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
