"""tichu-analyze: replay recorded Tichu games, check every move against the rules,
and turn the games into per-player datasets and reports."""

__version__ = "0.1.0"
