"""Reading the datasets back: the statistics (numerator and denominator), the plots, and
the inputs of ``report`` and ``plot`` (a dataset, or logs ingested into a cache).

May import ``data`` (its schema), ``readers``, ``run``, ``core`` and ``common``.
"""
