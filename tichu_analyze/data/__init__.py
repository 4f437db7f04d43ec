"""The per-player Parquet datasets: the values of each row (from the engine's steps and
state), the tables' columns, the writer and ``ingest``, by one process or by worker tasks.

May import ``core``, ``readers``, ``run`` and ``common``; never the views or the CLI.
"""
