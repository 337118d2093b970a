"""Portes peers for the benchmarks: GNU Backgammon and Tesauro's pubeval as tavli players.

    .venv/bin/python benchmarks/strength/peers.py [--positions N] [--games N] [--seed X] [--json FILE]

Both classes follow the ``tavli.bots.Player`` protocol and choose among the
legal plays tavli generates, so they play by exactly our rules (Portes is
backgammon without the cube; a gammon or a backgammon counts 2 points):

* ``GnubgPlayer(ply)`` (``tavli.bots.gnubg_player``, imported here) values every
  result with GNU Backgammon's neural network (the PyPI ``gnubg`` module)
  from the opponent's side, scores it in Portes points
  (``2 p_win - 1 + p_gammon - p_lose_gammon``: backgammons count no more
  than gammons) and plays the best: GNU Backgammon's own 0-ply with Portes
  scoring. A play that ends the game is worth its points.
* ``PubevalPlayer`` plays the result with the highest score of Tesauro's
  public linear evaluator (its published race and contact weights), the race
  weights when the position before the play has no contact.

Run as a script, it checks the two players on Portes positions from random
games (fixed seed) with random rolls and prints, as aligned text:

* that the board handed to GNU Backgammon is the result's (same Position ID);
* how often ``GnubgPlayer(0)`` picks a play ``gnubg.findbestmoves`` ranks best
  at 0-ply, on positions without bear-offs (that function cuts moves short
  at the first bear-off): always with money scoring (``utility="money"``,
  which is what ``findbestmoves`` ranks by), and with Portes scoring;
* that our pubeval scores match ``gnubg_nn.pub_eval_score`` (when the
  ``gnubg-nn`` wheel is installed), and how often the plays agree with
  ``gnubg_nn.pub_best_move``;
* the time per decision of each player, and with ``--games N`` a short duel
  of GNU Backgammon 0-ply against pubeval.

``--json FILE`` writes all figures.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from tavli import Dice, LegalPlays, Position
from tavli import _kernel as K
from tavli.bots.gnubg_player import (  # noqa: F401 (the other benchmarks import them from here)
    UTILITIES,
    Board,
    GnubgPlayer,
    NotPortesError,
    Side,
    board_after,
    board_before,
    require_portes,
)


def _optional_import(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError:
        return None


gnubg: Any = _optional_import("gnubg")
gnubg_nn: Any = _optional_import("gnubg_nn")

# -- boards ------------------------------------------------------------------------

def is_race(state: np.ndarray) -> bool:
    """No contact left: every checker of the mover (numbering 24 -> 1) is past every
    opposing checker (which moves 1 -> 24 in the mover's numbering)."""
    s = state
    mine = np.flatnonzero(s[1:25])
    theirs = np.flatnonzero(s[K.OPP + 1:K.OPP + 25])
    my_back = 25 if s[K.BAR] else (int(mine[-1]) + 1 if len(mine) else 0)
    their_back = 0 if s[K.OPP + K.BAR] else (int(theirs[0]) + 1 if len(theirs) else 25)
    return my_back < their_back


# -- pubeval ------------------------------------------------------------------------

# Tesauro's published weights (pubeval.c, 1993): 24 points x 5 inputs, from the
# mover's 24 point down to his 1 point, then the opponent's bar and the mover's off.
PUBEVAL_RACE = np.array((
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121, 0.07217, -0.01351,
    0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000, -2.29847, -2.34631, 0.17253, 0.08302,
    0.00000, -1.27266, -2.87401, -0.07456, -0.34240, 0.00000, -1.34640, -2.46556, -0.13022, -0.01591,
    0.00000, 0.27448, 0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430, 0.74427, 0.00576,
    0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000, 0.01418, -0.10839, -0.02781, -0.88035,
    0.00000, 1.07274, 2.00366, 1.16242, 0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966,
    0.00000, 0.37183, -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412, -0.09308, -1.26062,
    0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000, 2.19605, 3.85390, 0.88296, 2.30052,
    0.00000, 0.92321, 1.08744, -0.11696, -0.78560, 0.00000, -0.09795, -0.83050, -1.09167, -4.94251,
    0.00000, -1.00316, -3.66465, -2.56906, -9.67677, 0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
))
PUBEVAL_CONTACT = np.array((
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654, -0.92830, -1.99558,
    -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220, -0.73667, 0.89032, -0.38933, -1.59847,
    -1.50197, -0.60966, 1.56166, -0.47389, -1.80390, -0.83425, -0.97741, -1.41371, 0.24500, 0.10970,
    -1.36476, -1.05572, 1.15420, 0.11069, -0.38319, -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363, 1.06169, -0.21329, 0.04798,
    -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882, -0.13658, 1.78389, 0.30416, 0.36797,
    -0.69851, 0.13003, 1.23070, 0.40868, -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429,
    -0.80789, 0.08240, 1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983, 0.52698, 0.82132,
    -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276, -0.36214, 4.37655, 0.45481, 0.21746,
    0.10504, -0.61977, 3.54001, 0.04612, -0.18108, 0.63211, -0.87046, 2.47673, -0.48016, -1.27157,
    0.86505, -1.11342, 1.24612, -0.82385, -2.77082, 1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
))
PUBEVAL_INPUTS = 122
WON = 99_999_999.0
"""pubeval's score for a play that bears off the last checker."""


def pubeval_inputs(rows: np.ndarray) -> np.ndarray:
    """pubeval's 122 inputs of each result (kernel states seen by the side that moved).

    For each of the mover's points from 24 down to 1, with ``n`` his checkers
    there (negative for opposing ones): a lone opposing blot, a blot of his,
    a point made, exactly three, and ``(n - 3) / 2`` beyond three; then the
    opposing checkers on the bar / 2 and the mover's borne-off / 15.
    """
    r = np.asarray(rows, dtype=np.int64)
    n = (r[:, 1:25] - r[:, K.OPP + 1:K.OPP + 25])[:, ::-1]
    units = np.stack((n == -1, n == 1, n >= 2, n == 3, np.where(n >= 4, (n - 3) / 2.0, 0.0)), axis=2)
    x = np.empty((len(r), PUBEVAL_INPUTS))
    x[:, :120] = units.reshape(len(r), 120)
    x[:, 120] = r[:, K.OPP + K.BAR] / 2.0
    x[:, 121] = r[:, K.OFF] / 15.0
    return x


def pubeval_scores(rows: np.ndarray, race: bool) -> np.ndarray:
    """pubeval's score of each result; ``race`` picks the race weights (decided on the
    position before the play, as Tesauro specifies)."""
    scores: np.ndarray = pubeval_inputs(rows) @ (PUBEVAL_RACE if race else PUBEVAL_CONTACT)
    r = np.asarray(rows)
    scores[r[:, K.OFF] == 15] = WON
    return scores


class PubevalPlayer:
    """Tesauro's public evaluator: plays the result with the highest pubeval score."""

    name = "pubeval"

    def choose(self, legal: LegalPlays) -> int:
        require_portes(legal, self.name)
        if len(legal) == 1:
            return 0
        return int(np.argmax(pubeval_scores(legal.results, is_race(legal.position.state))))


# -- checks ---------------------------------------------------------------------------

@dataclass
class CheckFigures:
    positions: int = 0
    results_checked: int = 0
    board_id_mismatches: int = 0
    gnubg_compared: int = 0
    gnubg_money_agree: int = 0
    gnubg_portes_agree: int = 0
    pubeval_scores_compared: int = 0
    pubeval_max_score_diff: float = 0.0
    pubeval_plays_compared: int = 0
    pubeval_plays_agree: int = 0
    gnubg_ms_per_decision: float = 0.0
    pubeval_ms_per_decision: float = 0.0
    duel_games: int = 0
    duel_gnubg_vs_pubeval_ppg: float = 0.0
    duel_ci95: float = 0.0


def sample(n: int, seed: int) -> list[tuple[Position, Dice]]:
    """Portes positions of random games with a random roll, each with two plays or more."""
    rng = random.Random(seed)
    out: list[tuple[Position, Dice]] = []
    while len(out) < n:
        pos = Position.start("portes")
        while pos.result() is None and len(out) < n:
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            legal = pos.legal_plays(dice)
            if len(legal) >= 2 and rng.random() < 0.5:
                out.append((pos, dice))
            pos = legal.after(rng.randrange(len(legal))) if len(legal) else pos.pass_turn()
    return out


def apply_gnubg_move(board: Board, move: Sequence[int]) -> Board:
    """The result of one of ``gnubg.findbestmoves``' moves (without bear-offs), seen
    from the side that moved: ``(mover, opponent)``."""
    opponent, mover = list(board[0]), list(board[1])
    for src, dst in zip(move[::2], move[1::2], strict=True):
        mover[src - 1] -= 1
        mover[dst - 1] += 1
        hit = 24 - dst  # the opponent's own index of my point dst
        if opponent[hit] == 1:
            opponent[hit] = 0
            opponent[24] += 1
    return tuple(mover), tuple(opponent)


def pub_best_result(board: Board, dice: Dice) -> Board:
    """The result of ``gnubg_nn.pub_best_move``: (mover, opponent)."""
    opponent, mover = list(board[0]), list(board[1])
    flat = gnubg_nn.pub_best_move([opponent, mover], dice.first, dice.second)
    for k in range(0, len(flat) - 1, 2):
        src, dst = flat[k], flat[k + 1]
        if src < 0:
            break
        mover[src] -= 1
        if dst >= 0:
            mover[dst] += 1
            if opponent[23 - dst] == 1:
                opponent[23 - dst] = 0
                opponent[24] += 1
    return tuple(mover), tuple(opponent)


def check(positions: int, seed: int, games: int) -> CheckFigures:
    from tavli.bots.duel import duel

    fig = CheckFigures()
    cases = sample(positions, seed)
    fig.positions = len(cases)
    money, portes, pub = GnubgPlayer(0, "money"), GnubgPlayer(0), PubevalPlayer()
    cube, context = gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 0, 0.0)
    gnubg_seconds = pub_seconds = 0.0
    for pos, dice in cases:
        legal = pos.legal_plays(dice)
        results = [board_after(row) for row in legal.results]
        for i, board in enumerate(results):
            fig.results_checked += 1
            if gnubg.positionid(board) != legal.after(i).gnubg_id():
                fig.board_id_mismatches += 1
        t0 = time.perf_counter()
        pick = portes.choose(legal)
        t1 = time.perf_counter()
        pub_pick = pub.choose(legal)
        t2 = time.perf_counter()
        gnubg_seconds += t1 - t0
        pub_seconds += t2 - t1
        moves = gnubg.findbestmoves(board_before(pos), cube, context, (dice.first, dice.second))
        if all(len(m["move"]) % 2 == 0 for m in moves):  # no move bears off
            best = moves[0]["score"]
            good = {apply_gnubg_move(board_before(pos), m["move"]) for m in moves
                    if m["score"] >= best - 1e-4}
            fig.gnubg_compared += 1
            fig.gnubg_money_agree += results[money.choose(legal)] in good
            fig.gnubg_portes_agree += results[pick] in good
        if gnubg_nn is not None:
            # pub_eval_score picks its weights by the result itself (pub_best_move, like
            # Tesauro and PubevalPlayer, by the position before the play)
            for k, board in enumerate(results):
                ours = float(pubeval_scores(legal.results[k:k + 1], is_race(legal.results[k]))[0])
                if ours == WON:
                    continue
                theirs = gnubg_nn.pub_eval_score([list(side) for side in board])
                fig.pubeval_max_score_diff = max(fig.pubeval_max_score_diff, abs(theirs - ours))
                fig.pubeval_scores_compared += 1
            fig.pubeval_plays_compared += 1
            fig.pubeval_plays_agree += results[pub_pick] == pub_best_result(board_before(pos), dice)
    fig.gnubg_ms_per_decision = 1000 * gnubg_seconds / max(1, len(cases))
    fig.pubeval_ms_per_decision = 1000 * pub_seconds / max(1, len(cases))
    if games:
        result = duel("portes", GnubgPlayer(0), PubevalPlayer(), games, seed=seed)
        fig.duel_games = result.games
        fig.duel_gnubg_vs_pubeval_ppg = result.ppg
        fig.duel_ci95 = result.ci95
    return fig


def percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "-"


def report(fig: CheckFigures) -> list[tuple[str, str]]:
    rows = [
        ("positions (random games, random rolls)", str(fig.positions)),
        ("results: board handed to gnubg has the result's ID",
         percent(fig.results_checked - fig.board_id_mismatches, fig.results_checked)),
        ("gnubg 0-ply, money scoring: a best play of findbestmoves",
         percent(fig.gnubg_money_agree, fig.gnubg_compared)),
        ("gnubg 0-ply, Portes scoring: a best play of findbestmoves",
         percent(fig.gnubg_portes_agree, fig.gnubg_compared)),
    ]
    if fig.pubeval_scores_compared:
        rows += [
            ("pubeval: largest score difference to gnubg_nn",
             f"{fig.pubeval_max_score_diff:.2e} over {fig.pubeval_scores_compared} results"),
            ("pubeval: same play as gnubg_nn.pub_best_move",
             percent(fig.pubeval_plays_agree, fig.pubeval_plays_compared)),
        ]
    rows += [
        ("GnubgPlayer(0): ms per decision", f"{fig.gnubg_ms_per_decision:.3f}"),
        ("PubevalPlayer: ms per decision", f"{fig.pubeval_ms_per_decision:.3f}"),
    ]
    if fig.duel_games:
        rows.append((f"gnubg 0-ply vs pubeval, {fig.duel_games} games",
                     f"{fig.duel_gnubg_vs_pubeval_ppg:+.3f} ± {fig.duel_ci95:.3f} ppg"))
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Check the Portes peers (GNU Backgammon, pubeval) on positions from random games.")
    parser.add_argument("--positions", type=int, default=200, help="positions to check (default 200)")
    parser.add_argument("--games", type=int, default=0,
                        help="also play this many games of gnubg 0-ply against pubeval (default 0)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample and the dice (default 1)")
    parser.add_argument("--json", metavar="FILE", help="write all figures to FILE as JSON")
    args = parser.parse_args(argv)
    if gnubg is None:
        parser.error("GNU Backgammon's Python module is missing: pip install gnubg")
    fig = check(args.positions, args.seed, args.games)
    rows = report(fig)
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label:<{width}}  {value}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(asdict(fig), f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
