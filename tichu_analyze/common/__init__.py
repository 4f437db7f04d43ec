"""Small helpers every outer room uses: untrusted text made safe for terminals, lines,
HTML and JSON (``safetext``), and every output file written atomically
(``atomicfile``). They import only the standard library.
"""
