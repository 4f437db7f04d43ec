"""Optional compiled build: ``TICHU_ANALYZE_COMPILE=1 pip install --no-build-isolation .``

Everything else about the package is in pyproject.toml. With the variable set
(and mypy, which brings mypyc, installed in the building environment), the
replay's hot path and the ``.tch`` reader are compiled to C extension modules with
mypyc: the same code, about 1.8 times faster. Without it the package is pure Python.
"""

import os

from setuptools import setup

COMPILED = [
    "tichu_analyze/core/cards.py",
    "tichu_analyze/core/combos.py",
    "tichu_analyze/core/diagnostics.py",
    "tichu_analyze/core/variants.py",
    "tichu_analyze/core/state.py",
    "tichu_analyze/core/engine.py",
    "tichu_analyze/readers/logfile.py",
    "tichu_analyze/readers/bsw.py",
    "tichu_analyze/data/rows.py",
]

ext_modules = []
if os.environ.get("TICHU_ANALYZE_COMPILE") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
