"""File formats of whole matches: ``record`` (Tavli's match record, JSON) and ``mat`` (GNU
Backgammon's ``.mat`` match files for Portes). The position and move formats belong to the rules
core (``tavli.position_text``, ``tavli.notation``, ``tavli.gnubg_id``). See docs/formats.md.
"""
