"""The simulator: seeded bots writing legal format-1 games. Its reading of the rules is
its own, a deliberate second reading that checks the engine, so it imports only
``core.cards`` and ``core.combos`` (the cards and the combinations), never the state or
the engine.
"""
