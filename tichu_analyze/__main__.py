"""``python -m tichu_analyze``."""

from .cli import main

main()
