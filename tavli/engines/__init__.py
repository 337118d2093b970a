"""Tavli as an engine for other programs, and other engines as Tavli players: the arena's line
protocol (``arena``), Tavli's own protocol for every game (``tavli_protocol``) and GNU
Backgammon's network as a Portes player (``gnubg_player``). See docs/engine.md.
"""
