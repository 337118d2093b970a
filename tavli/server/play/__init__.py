"""The matches being played: creating them and carrying out their actions (``service``), the
live matches kept between actions and rebuilt from the database (``live``, ``replay``), the seats
and the checks of a request (``seats``), the clocks (``clocks``), the bots' processes
(``bot_pool``, ``parent_watch``), the board as JSON (``view``) and the refusals' reasons as the
browser is sent them (``reasons``).
"""
