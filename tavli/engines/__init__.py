"""Tavli as an engine for other programs: the arena's line protocol for Portes (``arena``) and
Tavli's own protocol for every game (``tavli_protocol``). See docs/engine.md.
"""
