"""The engine: cards, combinations, events, the catalogue of codes, the game state and
its queries, the rules (``engine.Engine``), the visitor a consumer follows it with, and
the recorder that keeps whole rounds.

Everything here is pure: no files, no printing, no clocks, no randomness. It imports
only the standard library, msgspec (the typed events) and itself; every other room
imports it. The hot path (cards, combos, diagnostics, state, engine) is compiled by
mypyc in the installed build (setup.py).
"""
