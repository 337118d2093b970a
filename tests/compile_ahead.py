"""Compile ahead, in a process of its own, the kernels the tests reach that the session's own
warm-up (``conftest.pytest_configure``: the rules kernel and the bots' search) leaves alone: the
training steps and each game's chances and luck.

The warm-up keeps one core busy for a minute or more on a fresh clone while the other waits; this
runs on that other core. Whatever it has not compiled when a test reaches it, the test compiles as
it would have anyway: numba writes each cache file whole, so readers see it complete or not at all.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from tavli import Dice, Position
from tavli.bots.neural import Evaluator
from tavli.bots.training import TrainConfig, Trainer, new_state
from tavli.variants import GAMES


def main() -> None:
    for game in GAMES:
        evaluator = Evaluator.for_variant(game)
        start = Position.start(game)
        evaluator.probabilities(start)
        evaluator.luck(start, Dice(6, 5))
    with tempfile.TemporaryDirectory() as folder:
        for lookahead, td_lambda in ((0, 0.0), (1, 0.0), (0, 0.5)):
            config = TrainConfig(variant="fevga", games=2, hidden=6, threads=1, eval_every=0,
                                 checkpoint_every=10**6, lookahead=lookahead, td_lambda=td_lambda)
            Trainer(new_state(config), Path(folder) / f"{lookahead}-{td_lambda}.npz").run(progress=False)


if __name__ == "__main__":
    main()
