"""Running the readers over many files: the multi-file driver (work units, worker
processes, Dask) and the progress bar over it.

May import ``core``, ``readers`` and ``common``.
"""
