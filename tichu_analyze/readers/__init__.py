"""Reading logs into the engine: JSON-lines logs (plain, gzip, zstd) and Brettspielwelt
``.tch`` files (read, converted, written back), the words for a malformed event, and
``replay_file``/``check_file``, which feed a file to the engine.

May import ``core`` and ``common``; never the datasets, the views or the CLI.
"""
