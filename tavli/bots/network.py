"""The networks' shape and forward pass, shared by the search and by training.

A network reads a kernel state with the side to move (the *mover*) about to roll and answers
three probabilities from the mover's view: he wins, he wins 2 points, he loses 2 points.
``equity = 2 * win - 1 + win2 - lose2`` is the expected points in Tavli scoring.

The network is one hidden layer of sigmoid units over inputs designed for each game
(``tavli.bots.features.encode``); inputs are sparse, so the first layer adds only the rows of
the inputs that are not zero. A network is the tuple ``(W1[n_in, H], b1[H], W2[3, H], b2[3])``
of ``float32`` arrays.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from tavli.bots.features import N_INPUTS

N_HIDDEN = 80
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


# --- the search's evaluation: the same network, in vectorised float32 ----------------------------
#
# ``forward`` above is the reference (training's backward pass reads its activations). The search
# evaluates positions by the thousand, so it computes the hidden layer in float32 with loops the
# compiler vectorises: the hidden units' logistic by a rational function (``_logistic32``, within
# 2e-7 of the exact one), and the hidden sums of sibling positions (the plays of one roll, whose
# inputs differ in a few places) from those of the previous one (``hidden_from``). Every
# position's value stays within a few millionths of ``forward``'s.

_TANH_CLAMP = np.float32(7.90531110763549805)  # tanh is 1 to float32's precision beyond


@njit(cache=True, inline="always", fastmath=True, error_model="numpy")
def _logistic32(a: np.float32) -> np.float32:
    """``1 / (1 + exp(-a))`` as ``(1 + tanh(a / 2)) / 2``, tanh by a rational function of degree
    13/6 (Eigen's float32 tanh); no branch, no call: a loop of it is vectorised."""
    x = a * np.float32(0.5)
    x = x if x < _TANH_CLAMP else _TANH_CLAMP
    x = x if x > -_TANH_CLAMP else -_TANH_CLAMP
    x2 = x * x
    p = np.float32(-2.76076847742355e-16)
    p = p * x2 + np.float32(2.00018790482477e-13)
    p = p * x2 + np.float32(-8.60467152213735e-11)
    p = p * x2 + np.float32(5.12229709037114e-08)
    p = p * x2 + np.float32(1.48572235717979e-05)
    p = p * x2 + np.float32(6.37261928875436e-04)
    p = p * x2 + np.float32(4.89352455891786e-03)
    q = np.float32(1.19825839466702e-06)
    q = q * x2 + np.float32(1.18534705686654e-04)
    q = q * x2 + np.float32(2.26843463243900e-03)
    q = q * x2 + np.float32(4.89352518554385e-03)
    return np.float32(0.5) + np.float32(0.5) * (p * x / q)


@njit(cache=True, fastmath=True, error_model="numpy")
def hidden_sums(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, sums: np.ndarray) -> None:
    """The hidden units' input sums ``b1 + x W1`` into ``sums``, adding the rows of ``W1`` whose
    input is not zero."""
    hidden = b1.shape[0]
    for j in range(hidden):
        sums[j] = b1[j]
    for i in range(x.shape[0]):
        v = x[i]
        if v != 0.0:
            for j in range(hidden):
                sums[j] += v * w1[i, j]


@njit(cache=True, fastmath=True, error_model="numpy")
def hidden_from(x: np.ndarray, before: np.ndarray, w1: np.ndarray, sums: np.ndarray) -> None:
    """Turn ``sums``, the hidden sums of inputs ``before``, into those of ``x``: only the rows of
    ``W1`` whose input changed are added."""
    hidden = sums.shape[0]
    for i in range(x.shape[0]):
        d = x[i] - before[i]
        if d != 0.0:
            for j in range(hidden):
                sums[j] += d * w1[i, j]


@njit(cache=True, fastmath=True, error_model="numpy")
def outputs(sums: np.ndarray, w2: np.ndarray, b2: np.ndarray, h: np.ndarray, out: np.ndarray) -> None:
    """The network's outputs into ``out`` from the hidden sums; the hidden activations into ``h``."""
    hidden = sums.shape[0]
    a0 = np.float32(0.0)
    a1 = np.float32(0.0)
    a2 = np.float32(0.0)
    for j in range(hidden):  # one pass: each activation goes to the three outputs as it is made
        v = _logistic32(sums[j])
        h[j] = v
        a0 += v * w2[0, j]
        a1 += v * w2[1, j]
        a2 += v * w2[2, j]
    out[0] = _sigmoid(float(a0) + float(b2[0]))
    out[1] = _sigmoid(float(a1) + float(b2[1]))
    out[2] = _sigmoid(float(a2) + float(b2[2]))
