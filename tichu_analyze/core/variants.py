"""The variants of rules.md 9, each one declaration, and the rules a game is played under.

A :class:`Variant` says what it is (a house rule, a game for another number of players,
a platform's rules), in words, and which parameters of :class:`Rules` it sets. A game's
rules are the publisher's (:data:`PUBLISHER`) with the parameters of its variants
(:func:`rules_of`): the engine, the readers and every consumer read those parameters
(``rules.seats``, ``rules.dummy``, ``rules.phoenix_bombs``, ...), never a variant's name.
The names appear here, in the rule docs and in the command line's help.

In the manner of python-chess's ``variant.py`` and pokerkit's ``games.py``: adding a
variant is one declaration, as long as the engine already knows its parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "BRETTSPIELWELT", "EVERYONE", "OPPONENTS", "PARTNERS", "PUBLISHER", "VARIANTS", "Rules",
    "Variant",
    "check_variants", "rules_of", "setting", "variants_problem",
]

EVERYONE = "everyone"
"""Each seat gives a card to each other seat (rules 1.4)."""
PARTNERS = "partners"
"""Each seat gives a card to each of its partners (rules 9.2)."""
OPPONENTS = "opponents"
"""Each seat gives a card to each seat of the other team (rules 9.3)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules of one game: the publisher's, changed by its variants (``names``).

    * ``seats``: 4, or 6 (two teams of three). A seat's team is ``seat % 2``; its
      partners are the other seats of its team. ``first_deal``: cards per seat before
      the Grand Tichu is decided (8; 6 for six seats); 14 - ``first_deal`` follow, or
      for six seats 3 or 4 (``uneven_deal``: the 56 cards split so that each seat holds
      9 or 10).
    * ``exchange``: whom each seat gives a card to (:data:`EVERYONE`, :data:`PARTNERS`,
      :data:`OPPONENTS`). After the Dog the lead passes to a partner (either, of two);
      with no partner holding cards, to the next seat holding cards after the partner
      (``dog_after_partner``, 5.2) or after the Dog's player (9.2).
    * ``dummy``: one seat per round is an open dummy played by the seat opposite it, the
      solo player (``round_start.dummy``, three persons); the dummy is never bound by the
      wish; ``grand_barred_to_solo``: neither the solo player nor the dummy may call a
      Grand Tichu (C004).
    * ``team_victory_points``: what a whole team out first scores (200 for a double
      victory of four, 300 for a triple victory of six), ``team_victory_words`` its name.
      ``last_tricks_to_first``: the last seat's tricks go to the first seat out (four),
      else to the opposing team, the second-to-last seat's to the first out (six).
    * ``phoenix_bombs``: the Phoenix may complete a bomb; ``dog_bombs``: a bomb may be
      played on the Dog; ``winner_bombs``: the trick's winner may bomb its own trick once
      everyone passed, and its pass there takes the trick (``bsw``); ``wish_penalty``:
      points a wish violation gives the other team.
    * ``target``: the game's default target, in points, or ``target_in_rounds`` in rounds
      (a number divisible by ``target_divisor``); ``per_person``: each person scores the
      points of the team it sat in, and the game's winner is a person (``trichu``).
    * ``wide``: the log's events of the game are read with the wider shapes (six seats,
      per-person totals: ``events.widen``).
    """

    names: frozenset[str] = frozenset()
    seats: int = 4
    first_deal: int = 8
    uneven_deal: bool = False
    exchange: str = EVERYONE
    dog_after_partner: bool = True
    dummy: bool = False
    grand_barred_to_solo: bool = False
    team_victory_points: int = 200
    team_victory_words: str = "double victory"
    last_tricks_to_first: bool = True
    phoenix_bombs: bool = False
    dog_bombs: bool = False
    winner_bombs: bool = False
    wish_penalty: int = 0
    target: int = 1000
    target_in_rounds: bool = False
    target_divisor: int = 1
    per_person: bool = False
    wide: bool = False


PUBLISHER = Rules()
"""The publisher's rules (Fata Morgana, four players): rules.md sections 1-8."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One variant of rules.md 9: its ``name``, what it is (``kind``: ``house rule``,
    ``variant``, ``platform rules``), its rule in a line (``summary``) and section, the
    parameters of :class:`Rules` it sets (``sets``), and the variants it excludes."""

    name: str
    kind: str
    summary: str
    section: str
    sets: dict[str, Any] = field(default_factory=dict)
    excludes: tuple[str, ...] = ()


_DECLARED = (
    Variant("wish-penalty-200", "house rule",
            "a violation of the wish (W001) gives the other team 200 points", "9.1",
            {"wish_penalty": 200}),
    Variant("dog-can-be-bombed", "house rule", "a bomb may be played on the Dog (no B003)",
            "9.1", {"dog_bombs": True}),
    Variant("phoenix-in-bombs", "house rule",
            "the Phoenix may complete a four of a kind or a straight flush", "9.1",
            {"phoenix_bombs": True}),
    Variant("tientsin", "variant", "six players in two teams of three (rules.md 9.2)", "9.2",
            {"seats": 6, "first_deal": 6, "uneven_deal": True, "exchange": PARTNERS,
             "dog_after_partner": False,
             "team_victory_points": 300, "team_victory_words": "triple victory",
             "last_tricks_to_first": False, "wide": True},
            excludes=("trichu",)),
    Variant("trichu", "variant",
            "three players, each round one of them solo with an open dummy (rules.md 9.3)",
            "9.3",
            {"dummy": True, "grand_barred_to_solo": True, "exchange": OPPONENTS, "target": 9,
             "target_in_rounds": True, "target_divisor": 3, "per_person": True, "wide": True},
            excludes=("tientsin",)),
    Variant("bsw", "platform rules",
            "the Brettspielwelt platform's rules (rules.md 9.4): the winner of a trick may bomb "
            "it after everyone passed, which continues the trick (so the Dragon's winner may "
            "keep its trick)", "9.4", {"winner_bombs": True}),
)

VARIANTS: dict[str, Variant] = {v.name: v for v in _DECLARED}
"""Every variant by name, in the order of rules.md 9."""

BRETTSPIELWELT: tuple[str, ...] = ("bsw",)
"""The variants every game of a Brettspielwelt ``.tch`` file is played under (rules.md 9.4):
the platform's own rules; its reader names them in the ``game_start`` it writes."""


def variants_problem(names: list[str] | frozenset[str] | set[str]) -> str | None:
    """What is wrong with a list of variant names (an unknown name, or variants that
    exclude each other), or None."""
    for name in names:
        if name not in VARIANTS:
            return f"unknown variant {name!r} (variants: {', '.join(VARIANTS)})"
    for name in sorted(names, key=list(VARIANTS).index):
        for other in VARIANTS[name].excludes:
            if other in names:
                first, second = sorted((name, other), key=list(VARIANTS).index)
                return (f"the variants {first} ({_PLAYERS[first]}) and {second} "
                        f"({_PLAYERS[second]}) exclude each other")
    return None


_PLAYERS = {"tientsin": "six players", "trichu": "three players"}


def setting(parameter: str) -> str:
    """The name of the variant that sets ``parameter`` of :class:`Rules` (for messages that
    name it: "six players play the variant tientsin")."""
    return next(v.name for v in _DECLARED if parameter in v.sets)


def check_variants(names: list[str] | None) -> frozenset[str]:
    """The selected variants; raises ValueError for a name that is not one, or for
    variants that exclude each other."""
    chosen = frozenset(names or ())
    problem = variants_problem(sorted(chosen))
    if problem is not None:
        raise ValueError(problem)
    return chosen

_MADE: dict[frozenset[str], Rules] = {}


def rules_of(names: frozenset[str]) -> Rules:
    """The rules under the variants ``names`` (checked: :func:`variants_problem` is None):
    the publisher's with each variant's parameters. Made once per set of names."""
    rules = _MADE.get(names)
    if rules is None:
        changes: dict[str, Any] = {}
        for name in VARIANTS:
            if name in names:
                changes.update(VARIANTS[name].sets)
        rules = _MADE[names] = replace(PUBLISHER, names=names, **changes)
    return rules
