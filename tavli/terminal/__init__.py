"""Tavli at the terminal, drawn with ``rich``, in English or in Greek.

- ``tavli.terminal.words``: the words of everything said, in either language (``Words``);
- ``tavli.terminal.styles``: the checkers' glyphs and the styles;
- ``tavli.terminal.board``: the board drawn from one side's point of view;
- ``tavli.terminal.prompt``: what a human types at the play prompt, and how a line is read;
- ``tavli.terminal.match_loop``: a match played at the terminal (``tavli play``);
- ``tavli.terminal.saved_matches``: where ``tavli play`` keeps its matches (``tavli matches``);
- ``tavli.terminal.opening_practice``: the openings practice (``tavli practise``);
- ``tavli.terminal.remote``: a seat of a match on a Tavli server (``tavli join``);
- ``tavli.terminal.dice_check``: a server's dice checked against their seeds (``tavli verify-dice``);
- ``tavli.terminal.reports``: the study commands' answers (``tavli analyse``, ``hint``, ``met``, ...).
"""
