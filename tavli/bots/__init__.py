"""The bots: players of every strength, the networks behind them and what they compute.

>>> from tavli.bots import BOTS, make_bot
>>> BOTS[:3]
('random', 'heuristic', 'beginner')

The floor above the rules core (``tavli``): ``basic`` (random and heuristic play, any bot
by name), ``levels`` (the neural bots' levels), ``neural`` (the networks' ``Evaluator`` and
``NeuralBot`` at each level), the compiled network code (``features``: the inputs;
``network``: the networks' shape and forward pass; ``search``: evaluation and search; ``td``:
self-play training), ``bearoff`` (the exact bear-off database), ``playout`` and ``rollout``,
``match_equity`` (the chance of winning a match from any score), ``duel`` (bot against bot),
``gnubg_player`` (GNU Backgammon's network as a Portes player), and how the networks are made:
``training`` (self-play) and ``teacher``.
See docs/architecture.md.
"""

from tavli.bots.basic import BOTS, LEVELS, HeuristicBot, Player, RandomBot, make_bot

__all__ = ["BOTS", "LEVELS", "HeuristicBot", "Player", "RandomBot", "make_bot"]
