"""The review room: where a player lost points, proven or measured, never guessed.

It replays games through :mod:`tichu_analyze.core` (the engine's state and queries are
the only rules it knows) and looks at every decision of a seat: whether it gave up a
sure out (:mod:`.sureout`: exact, from what the seat could know; R001), driven by
:mod:`.reviewer`; other analyses of single decisions plug in through the
:class:`~tichu_analyze.review.findings.DecisionReview` protocol.
Findings are advisory records (:class:`~tichu_analyze.review.findings.Finding`) with
codes of their own (``R...``). It may import ``core`` and ``common``; the CLI joins it
with the calls model of :mod:`tichu_analyze.analysis.calls`.
"""
