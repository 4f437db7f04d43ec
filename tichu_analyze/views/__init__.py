"""What a person reads: the ``replay`` view of a game or round (text and HTML), the
report (HTML and text) and the report site.

May import every room but ``cli`` and ``sim``.
"""
