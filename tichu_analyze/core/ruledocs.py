"""The long explanation of every diagnostic code, printed by ``tichu-analyze rules CODE``.

Data only: one plain-text entry per code of ``diagnostics.RULES``. Each says
**What** the code checks in a player's words, **Why** (the rule and its section
of rules.md, or of log-format.md for the format codes), and gives an
**Example**: a short excerpt of a log (game ``g7``, players Ana, Ben, Chloe and
Dev in seats 0-3) in which the line marked with ``^`` triggers the code, then
the near miss that does not. Every line of an example that starts with ``{`` is
a complete JSON event (a test checks it).
"""

from __future__ import annotations

RULE_DOCS: dict[str, str] = {
    "L001": """
What: a line of the log is not a JSON object. Either it is not valid JSON at
all (a line cut short, single quotes, a trailing comma) or it is JSON of
another kind, such as an array or a string, where an event object is expected.

Why: a log holds one JSON object per line, and each object is one event
(log-format.md). The line is skipped; the lines after it are still checked.

Example:
    {"type":"play","game":"g7","seat":2,"cards":["9p","9r"]}
    [{"type":"pass","game":"g7","seat":3}]
    ^ L001: a JSON list where an event object is expected

Near miss: an empty or blank line is not reported; it is ignored, but still
counted in the line numbers.
""",
    "L002": """
What: an event has the right type but a field is missing or wrong (`null`
included): a seat that is not 0-3, three hands instead of four, a player name
given twice, a `give` that is not an object of card strings, a card listed
twice in one play.

Why: every event type has required fields with fixed types and values
(log-format.md, "Event types"). The event is skipped.

Example:
    {"type":"play","game":"g7","seat":3,"cards":["Jp"]}
    {"type":"pass","game":"g7","seat":4}
    ^ L002: bad pass event: `seat` is 4; a seat is a whole number from 0 to 3

Near miss: a field the format does not define, such as "bot":"v2" on a pass,
is not reported: recorders may add fields of their own.
""",
    "L003": """
What: a card in the event is not one of the 56 cards of the deck. Card tokens
are case-sensitive and the ten is written 10, not T.

Why: log-format.md, "Cards": a normal card is its rank (2..10, J, Q, K, A)
followed by a suit letter (j, s, p, r); the special cards are Mahjong, Dog,
Phoenix and Dragon. Anything else is an unknown card. The event is skipped.

Example:
    {"type":"play","game":"g7","seat":0,"cards":["5j"]}
    {"type":"play","game":"g7","seat":1,"cards":["phoenix"]}
    ^ L003: play: 'phoenix' is not a card (cards are 2j..Ar, Mahjong, Dog,
      Phoenix, Dragon)

Near miss: {"type":"play","game":"g7","seat":1,"cards":["Phoenix"]} names the
card correctly.
""",
    "L004": """
What: an event's `type` is none of the ten event types of the format.

Why: log-format.md: unknown event types are reported as a warning and skipped,
so that recorders can add events of their own. To add one without a warning,
give it a type starting with x_.

Example:
    {"type":"play","game":"g7","seat":0,"cards":["Ks"]}
    {"type":"chat","game":"g7","seat":1,"text":"nice"}
    ^ L004 (warning): unknown event type 'chat'; it is skipped

Near miss: {"type":"x_chat","game":"g7","seat":1,"text":"nice"} is a recorder
extension and is skipped silently.
""",
    "L005": """
What: an event names a game that has not been started in this file, or a game
that has already ended with its `game_end`.

Why: log-format.md, "Common fields": every event names its game, and a game is
wholly inside one file, opened by its `game_start`. The event is skipped.

Example:
    {"type":"game_start","game":"g7","players":["Ana","Ben","Chloe","Dev"]}
    {"type":"round_start","game":"g8","round":1}
    ^ L005: event for game 'g8' that has no game_start before it

Near miss: events of g7 and g8 may interleave freely in one file once both
games have their `game_start`.
""",
    "L006": """
What: a `game_start` uses a game id that was already started earlier in the
same file.

Why: log-format.md, "Common fields": a game's id is unique within the file.
The second `game_start` is skipped and the events that follow count for the
first game.

Example:
    {"type":"game_start","game":"g7","players":["Ana","Ben","Chloe","Dev"]}
    {"type":"round_start","game":"g7","round":1}
    {"type":"game_start","game":"g7","players":["Eve","Finn","Gus","Hana"]}
    ^ L006: game 'g7' was already started earlier in this file

Near miss: the same id in two different files is not reported; ids only need
to be unique within a file.
""",
    "L007": """
What: an event comes at a point of the round where it cannot happen: a play
before all four exchanges, a deal while cards are being played, a Tichu call
before the second deal, a round number that does not follow the last one.

Why: log-format.md, "Order of a round": round_start, first deal (8 cards
each), Grand Tichu calls, second deal (6 each), the four exchanges, then the
plays. The event is skipped.

Example:
    {"type":"exchange","game":"g7","seat":0,"give":{"1":"7j","2":"Ar","3":"2s"}}
    {"type":"exchange","game":"g7","seat":1,"give":{"0":"3p","2":"Kj","3":"4s"}}
    {"type":"exchange","game":"g7","seat":2,"give":{"0":"Dog","1":"6r","3":"9j"}}
    {"type":"play","game":"g7","seat":0,"cards":["Mahjong"]}
    ^ L007: a play is not allowed before all four exchanges; the plays and
      passes before the last exchange are not checked

Near miss: a Tichu call between the exchanges is not reported: Tichu may be
called before, during or after the exchange.
""",
    "L008": """
What: the log ends, a new round starts, the game ends or a `round_end` is
recorded while, by the rules, the round is still going: there has been no
double victory and fewer than three seats are out.

Why: a round ends only when the first two seats out are partners, or when
three seats are out (rules.md 7.1-7.3). A round cut short cannot be scored by
the replay; it is closed as it stands and adds nothing to the game's total,
whatever a `round_end` recorded for it says.

Example:
    {"type":"play","game":"g7","seat":1,"cards":["Qs","Qr"]}
    {"type":"pass","game":"g7","seat":2}
    {"type":"round_start","game":"g7","round":3}
    ^ L008 (warning): round 2 is not over when round 3 starts; it is not
      scored

Near miss: had Ben's pair of Queens been the third seat's last cards, round 2
would have been over and round 3 would start cleanly.
""",
    "D001": """
What: the two deals of a round are not a proper deal: a card is dealt twice, a
card is missing, or a seat gets other than 8 cards in the first deal and 6 in
the second.

Why: rules.md 1.1-1.2: the 56 cards are dealt 8 to each seat, then 6 more.
Since nobody's hand is known, the rest of the round cannot be checked and is
skipped until the next round_start (fatal).

Example:
    {"type":"round_start","game":"g7","round":1}
    {"type":"deal","game":"g7","hands":[["2j","5s","7p","9r","Jj","Qs","Kp","Ar"],["2s","5p","7r","9j","Js","Qp","Kr","Aj"],["2p","5r","7j","9s","Jp","Qr","Kj","As"],["2r","5j","7p","9p","Jr","Qj","Ks","Dragon"]]}
    ^ D001 (fatal): bad deal: 7p dealt twice; the rest of the round is not
      checked

Near miss: with 7s instead of Dev's second 7p the first deal is good; the
second deal must then hold the other 24 cards, 6 to each seat.
""",
    "C001": """
What: a seat calls Grand Tichu after it has received all 14 cards.

Why: rules.md 1.2: Grand Tichu is called after seeing 8 cards, before the 9th.
The call is not counted in the score, and a later call of the same seat is no
repeat (C003).

Example:
    {"type":"exchange","game":"g7","seat":0,"give":{"1":"7j","2":"Ar","3":"2s"}}
    {"type":"call","game":"g7","seat":1,"call":"grand_tichu"}
    ^ C001: Ben (seat 1) calls Grand Tichu after seeing all 14 cards; the call
      is not counted

Near miss: the same line between the first and the second `deal` is a valid
Grand Tichu (+/-200); and a "tichu" call at this point is a valid Tichu.
""",
    "C002": """
What: a seat calls Tichu after it has already played a card in this round.

Why: rules.md 1.3: Tichu may be called at any time before the caller plays its
first card. The call is not counted in the score, and a later call of the same
seat is no repeat (C003).

Example:
    {"type":"play","game":"g7","seat":0,"cards":["Mahjong"],"wish":"8"}
    {"type":"pass","game":"g7","seat":1}
    {"type":"call","game":"g7","seat":0,"call":"tichu"}
    ^ C002: Ana (seat 0) calls Tichu after playing a card; the call is not
      counted

Near miss: {"type":"call","game":"g7","seat":1,"call":"tichu"} at this point
is fine: Ben has passed, but has not played a card yet.
""",
    "C003": """
What: a seat makes a second call in the same round: two Tichus, or a Tichu
after its own Grand Tichu.

Why: rules.md 1.3: a seat that has called Grand Tichu cannot also call Tichu
(the Grand Tichu already includes it), and a seat calls at most once per
round. The second call is not counted.

Example:
    {"type":"call","game":"g7","seat":2,"call":"grand_tichu"}
    {"type":"exchange","game":"g7","seat":2,"give":{"0":"Dog","1":"6r","3":"9j"}}
    {"type":"call","game":"g7","seat":2,"call":"tichu"}
    ^ C003: Chloe (seat 2) already called Grand Tichu this round; the Tichu
      call is not counted

Near miss: {"type":"call","game":"g7","seat":0,"call":"tichu"} is fine:
Chloe's partner Ana may call too; both partners may call.
""",
    "C004": """
What: a call the variant forbids to that seat. In `trichu` (three players and
an open dummy, rules.md 9.3) neither the solo player (the seat opposite the
dummy) nor the dummy may call a Grand Tichu, whenever it is called (C004 wins
over C001).

Why: rules.md 9.3: the solo player sees the dummy's open hand as well as its
own, so a Grand Tichu would be no gamble. The call is not counted, and a later
call of the same seat is no repeat (C003).

Example (trichu, the dummy at seat 3, so Ben at seat 1 plays solo):
    {"type":"round_start","game":"g7","round":1,"players":["Ana","Ben","Chloe","Tisch"],"dummy":3}
    {"type":"deal","game":"g7","hands":[["2j","3j","4j","5j","6j","7j","8j","9j"],["..."],["..."],["..."]]}
    {"type":"call","game":"g7","seat":1,"call":"grand_tichu"}
    ^ C004: Ben (seat 1) plays solo with the dummy this round and may not call
      Grand Tichu; the call is not counted

Near miss: {"type":"call","game":"g7","seat":0,"call":"grand_tichu"} is fine:
Ana is neither solo nor the dummy. A Tichu for Ben or for the dummy is fine
too.
""",
    "X001": """
What: an exchange does not give exactly one card to each of the three other
seats: a card goes to the giver itself, a seat gets nothing, the same card is
given twice, or the giver does not hold the card.

Why: rules.md 1.4: each seat gives one card, face down, to each of the three
others. Since the hands after the exchange are unknown, the rest of the round
is skipped (fatal).

Example:
    {"type":"exchange","game":"g7","seat":0,"give":{"1":"7j","2":"Ar","3":"2s"}}
    {"type":"exchange","game":"g7","seat":2,"give":{"1":"6r","2":"9j","3":"Kp"}}
    ^ X001 (fatal): bad exchange: Chloe (seat 2) gives 9j to itself; the rest
      of the round is not checked

Near miss: {"0":"Dragon","1":"6r","3":"9j"} is a good exchange for Chloe: any
card may be given, the Dragon and the Mahjong included.
""",
    "X002": """
What: a seat exchanges a second time in the same round, before all four seats
have exchanged.

Why: rules.md 1.4: each seat exchanges once; all four give before anyone picks
up. The second exchange is skipped; the first one stands.

Example:
    {"type":"exchange","game":"g7","seat":0,"give":{"1":"7j","2":"Ar","3":"2s"}}
    {"type":"exchange","game":"g7","seat":1,"give":{"0":"3p","2":"Kj","3":"4s"}}
    {"type":"exchange","game":"g7","seat":0,"give":{"1":"5j","2":"Ar","3":"2s"}}
    ^ X002: Ana (seat 0) already exchanged this round

Near miss: the four seats each exchanging once, in any order, is fine. An
exchange after all four are done is out of sequence (L007) instead.
""",
    "P001": """
What: a seat plays a card it does not hold: a card it already played, gave
away in the exchange, or never had.

Why: rules.md 2.2: a seat plays combinations from its own hand. When the log
and the hands disagree, the replay no longer knows who holds what, so the rest
of the round is skipped (fatal).

Example:
    {"type":"play","game":"g7","seat":1,"cards":["Kj","Ks"]}
    {"type":"pass","game":"g7","seat":2}
    {"type":"pass","game":"g7","seat":3}
    {"type":"pass","game":"g7","seat":0}
    {"type":"play","game":"g7","seat":1,"cards":["Kj"]}
    ^ P001 (fatal): Ben (seat 1) plays Kj without holding it; the rest of the
      round is not checked

Near miss: a card Ben received in the exchange is his once all four exchanges
are recorded, and may be played.
""",
    "P002": """
What: the cards played form no combination: two cards of different ranks, a
"straight" of four cards, a triple with two odd cards. Also reported when the
`phoenix` field names a rank with which the cards form nothing, such as
["Kj","Ks","Phoenix","5p","5s"] with "phoenix":"7".

Why: rules.md 3 lists the combinations: single, pair, stairs, triple, full
house, straight (5 or more), and the bombs. The cards leave the hand, the top
stays as it was, and the play counts as a pass for ending the trick.

Example:
    {"type":"play","game":"g7","seat":3,"cards":["6s","6p"]}
    {"type":"play","game":"g7","seat":0,"cards":["7j","8s"]}
    ^ P002: Ana (seat 0) plays 7j 8s, which is not a combination

Near miss: ["7j","7s"] is a pair of 7s and beats the 6s; so does
["8s","Phoenix"], the Phoenix standing for an 8.
""",
    "P003": """
What: a seat plays or passes when it is not its turn, or leads a trick it is
not entitled to lead. Bombs are exempt: they may be played out of turn.

Why: rules.md 2.1-2.4: the Mahjong's holder leads the first trick, play goes
round in seat order, and the winner of a trick leads the next. The play is
applied as recorded: it becomes the top and the turn moves to the seat after
the player. A pass out of turn still counts as that seat's pass; the turn does
not move.

Example:
    {"type":"play","game":"g7","seat":0,"cards":["5j"]}
    {"type":"play","game":"g7","seat":2,"cards":["9s"]}
    ^ P003: Chloe (seat 2) plays, but it is Ben (seat 1)'s turn

Near miss: Chloe's 9s after {"type":"pass","game":"g7","seat":1} is in turn;
and a bomb by Chloe at this point would be allowed.
""",
    "P004": """
What: a play on the table is not the same kind of combination as the top, or
has a different number of cards: a triple on a pair, a straight of 6 on a
straight of 5.

Why: rules.md 4.1: a non-bomb beats the top only if it has the same type and
the same number of cards and a higher rank. The play is applied as recorded.

Example:
    {"type":"play","game":"g7","seat":1,"cards":["9p","9r"]}
    {"type":"play","game":"g7","seat":2,"cards":["Jj","Js","Jp"]}
    ^ P004: Chloe (seat 2) plays a triple of Jacks on a pair of 9s; it must be
      the same kind of combination with the same number of cards

Near miss: ["Jj","Js"], a pair of Jacks, beats the pair of 9s; so would a
bomb.
""",
    "P005": """
What: a play of the right kind and length does not rank higher than the top.
This includes a Phoenix played as a single on the Dragon.

Why: rules.md 4.1 (a play must have a higher rank than the top) and 5.3 (the
Phoenix single beats an Ace, but never the Dragon). The play is applied as
recorded.

Example:
    {"type":"play","game":"g7","seat":1,"cards":["9p","9r"]}
    {"type":"play","game":"g7","seat":2,"cards":["7j","7s"]}
    ^ P005: Chloe (seat 2)'s pair of 7s does not beat the pair of 9s on the
      table

Near miss: ["10j","Phoenix"], a pair of 10s with the Phoenix, beats the 9s.
""",
    "P006": """
What: the seat that is to lead passes.

Why: rules.md 2.3: the leader may not pass; it must play some combination. The
pass is skipped and the seat is still to lead.

Example:
    {"type":"play","game":"g7","seat":2,"cards":["Ar"]}
    {"type":"pass","game":"g7","seat":3}
    {"type":"pass","game":"g7","seat":0}
    {"type":"pass","game":"g7","seat":1}
    {"type":"pass","game":"g7","seat":2}
    ^ P006: Chloe (seat 2) passes, but is to lead and may not pass

Near miss: the three passes before it are fine: a seat following may always
pass.
""",
    "P007": """
What: the Dog is played on a trick instead of being led.

Why: rules.md 5.2: the Dog is played only as a single and only as a lead. The
Dog leaves the hand, the top stays as it was, and the play counts as a pass
for ending the trick.

Example:
    {"type":"play","game":"g7","seat":1,"cards":["4s"]}
    {"type":"play","game":"g7","seat":2,"cards":["Dog"]}
    ^ P007: Chloe (seat 2) plays the Dog on a single 4; the Dog may only be
      led

Near miss: when Chloe has the lead she may lead the Dog; the lead then goes to
her partner Ana.
""",
    "P008": """
What: a seat that has played all its cards plays or passes again.

Why: rules.md 2.5: a seat with no cards left takes no further part in the
round. The event is skipped.

Example (Qj is Dev's last card):
    {"type":"play","game":"g7","seat":3,"cards":["Qj"]}
    {"type":"pass","game":"g7","seat":0}
    {"type":"pass","game":"g7","seat":1}
    {"type":"pass","game":"g7","seat":2}
    {"type":"pass","game":"g7","seat":3}
    ^ P008: Dev (seat 3) has no cards left and is out of the round; a pass is
      not possible

Near miss: after the three passes Ana, the next seat with cards, leads, and no
pass from Dev is expected.
""",
    "P009": """
What: a play, pass or call comes after the rules have ended the round: after a
double victory, or after the third seat went out.

Why: rules.md 4.4 and 7.2-7.3: the play that ends the round ends it at once;
nothing, not even a bomb, can follow it. The event is skipped.

Example (Ana is out, and Kp is Chloe's last card: a double victory):
    {"type":"play","game":"g7","seat":2,"cards":["Kp"]}
    {"type":"play","game":"g7","seat":3,"cards":["2p","3p","4p","5p","6p"]}
    ^ P009: Dev (seat 3): a play after the round ended

Near miss: had Ana still held cards, Chloe going out would not end the round
and Dev's bomb on the King would be allowed.
""",
    "B001": """
What: a bomb is played on a bomb that it does not beat.

Why: rules.md 4.2: a straight flush beats any four of a kind; a longer
straight flush beats a shorter one; otherwise the higher rank wins. The bomb
is applied as recorded.

Example:
    {"type":"play","game":"g7","seat":1,"cards":["Qj","Qs","Qp","Qr"]}
    {"type":"play","game":"g7","seat":3,"cards":["9j","9s","9p","9r"]}
    ^ B001: Dev (seat 3)'s bomb: four 9s does not beat the bomb: four Queens
      on the table

Near miss: ["3s","4s","5s","6s","7s"], a straight flush, beats the four
Queens, however low its cards.
""",
    "B002": """
What: a seat bombs out of turn while the table is empty, before the trick's
first play.

Why: rules.md 4.3: a bomb may be played out of turn only while a trick is on
the table, after its lead. The bomb is applied as the lead of the trick.

Example:
    {"type":"play","game":"g7","seat":0,"cards":["Dragon"]}
    {"type":"pass","game":"g7","seat":1}
    {"type":"pass","game":"g7","seat":2}
    {"type":"pass","game":"g7","seat":3}
    {"type":"dragon_gift","game":"g7","seat":0,"to":3}
    {"type":"play","game":"g7","seat":1,"cards":["8j","8s","8p","8r"]}
    ^ B002: Ben (seat 1) bombs before the trick's first play; Ana (seat 0) is
      to lead

Near miss: the same bomb just before the `dragon_gift`, after the three
passes, is allowed: it lands on the Dragon and Ben wins that trick.
""",
    "B003": """
What: a bomb is played on the Dog.

Why: rules.md 5.2 and 4.3: the Dog's trick ends at once and the lead passes to
the Dog player's partner; nothing can be played on the Dog, not even a bomb.
The bomb is applied as the lead of a new trick. (The house rule
dog-can-be-bombed allows it; it is not the default.)

Example:
    {"type":"play","game":"g7","seat":0,"cards":["Dog"]}
    {"type":"play","game":"g7","seat":3,"cards":["5j","5s","5p","5r"]}
    ^ B003: Dev (seat 3) bombs the Dog; nothing may be played on the Dog, not
      even a bomb

Near miss: Chloe, Ana's partner, now has the lead and may lead that bomb.
""",
    "W001": """
What: the Mahjong's wish is open and a seat on turn ignored it: it holds a
card of the wished rank and could play it legally, but passed, led without
that rank, or followed with something else that is not a bomb.

Why: rules.md 6.2: while the wish is open, a seat on turn that holds the
wished rank and can legally play it must do so (using the Phoenix if needed,
or a bomb containing the rank). A seat that cannot play it legally is free
(6.3), and a bomb onto a trick is never a violation (6.4). The play is applied
as recorded.

Example (Ben holds 8s):
    {"type":"play","game":"g7","seat":0,"cards":["Mahjong"],"wish":"8"}
    {"type":"play","game":"g7","seat":1,"cards":["5r"]}
    ^ W001: Ben (seat 1) plays a single 5 while holding 8s; 8s beats the
      Mahjong, and the wish for 8 is open

Near miss: had Ana led ["Mahjong","2j","3s","4p","5r"] with the wish for 8,
Ben's single 8s could not beat the straight; unless he held a higher straight
or a bomb containing an 8, he would be free to pass.
""",
    "W002": """
What: the `wish` field is on a play without the Mahjong, or its value is not a
rank 2..A.

Why: rules.md 5.1: whoever plays the Mahjong, alone or in a straight, may wish
for a rank from 2 to A. The wish is ignored.

Example:
    {"type":"play","game":"g7","seat":0,"cards":["Mahjong"],"wish":"1"}
    ^ W002: Ana (seat 0) wishes for '1', which is not a rank 2..A; the wish is
      ignored

Near miss: "wish":"10" (written like the card, 10 and not T) is a proper wish,
on the single Mahjong or on a straight starting with it.
""",
    "G001": """
What: the trick won with the Dragon is given to the winner itself or to its
partner.

Why: rules.md 5.4: a trick won with the Dragon goes, with all its cards, to an
opponent of the winner's choice. The gift is counted as recorded.

Example:
    {"type":"play","game":"g7","seat":0,"cards":["Dragon"]}
    {"type":"pass","game":"g7","seat":1}
    {"type":"pass","game":"g7","seat":2}
    {"type":"pass","game":"g7","seat":3}
    {"type":"dragon_gift","game":"g7","seat":0,"to":2}
    ^ G001: Ana (seat 0) gives the Dragon's trick to its partner Chloe
      (seat 2); it must go to an opponent

Near miss: "to":1 or "to":3, Ben or Dev, are Ana's opponents.
""",
    "G002": """
What: a trick won with the Dragon is over, but the next event of the game is
not its `dragon_gift` (nor a bomb on the Dragon by another seat).

Why: rules.md 5.4: the winner must give the Dragon's trick to an opponent
right after the trick ends, before the next lead or the end of the round. The
replay gives it to the next seat after the winner (an opponent) and goes on.

Example:
    {"type":"play","game":"g7","seat":0,"cards":["Dragon"]}
    {"type":"pass","game":"g7","seat":1}
    {"type":"pass","game":"g7","seat":2}
    {"type":"pass","game":"g7","seat":3}
    {"type":"play","game":"g7","seat":0,"cards":["3j","3s"]}
    ^ G002: Ana (seat 0) won the trick with the Dragon but did not give it to
      an opponent; it goes to Ben (seat 1)

Near miss: a bomb by Ben, Chloe or Dev in place of Ana's pair is allowed at
that point; the Dragon is then beaten and no gift is owed.
""",
    "G003": """
What: a `dragon_gift` is recorded when there is no Dragon trick to give: the
trick was not won with the Dragon, the Dragon was bombed, or the gift was
already made; or it is recorded by a seat that did not win the Dragon's trick
(the trick is then still owed by its winner).

Why: rules.md 5.4: only a trick won with the Dragon (not bombed) is given
away. The event is skipped.

Example:
    {"type":"play","game":"g7","seat":0,"cards":["Dragon"]}
    {"type":"play","game":"g7","seat":1,"cards":["7j","7s","7p","7r"]}
    {"type":"pass","game":"g7","seat":2}
    {"type":"pass","game":"g7","seat":3}
    {"type":"pass","game":"g7","seat":0}
    {"type":"dragon_gift","game":"g7","seat":0,"to":1}
    ^ G003: Ana (seat 0) gives a Dragon trick, but there is none to give

Near miss: after a double victory, a `dragon_gift` for the last trick is
accepted and ignored, since nothing is counted.
""",
    "S001": """
What: the `finish_order` of a `round_end` is not the order in which the replay
saw the seats go out.

Why: rules.md 7.1: the order in which seats play their last card is the finish
order; the seat left with cards comes last.

Example (Chloe went out first, earlier in the round):
    {"type":"play","game":"g7","seat":3,"cards":["2r"]}
    {"type":"play","game":"g7","seat":0,"cards":["Ks"]}
    {"type":"round_end","game":"g7","round":2,"finish_order":[2,0,3,1],"score":[60,40]}
    ^ S001: round_end records the finish order 2, 0, 3, 1, but the seats went
      out in the order 2, 3, 0, 1

Near miss: after a double victory, the two losing seats may be listed in
either order: [0,2,1,3] and [0,2,3,1] are both right.
""",
    "S002": """
What: the `score` of a `round_end` is not the score the replay computed for
the round.

Why: rules.md 7.2-7.5: card points (5s, 10s, Kings, Dragon +25, Phoenix -25),
the last seat's hand and tricks handed over, 200 for a double victory, and
+/-100 for a Tichu, +/-200 for a Grand Tichu.

Example (Ana called Tichu; Ana and Chloe went out first and second):
    {"type":"play","game":"g7","seat":2,"cards":["Jr"]}
    {"type":"round_end","game":"g7","round":4,"finish_order":[0,2,1,3],"score":[200,0]}
    ^ S002: round_end records the score 200 to 0, but the round scores 300 to
      0 (double victory 200 to 0, calls +100 to +0)

Near miss: "score":[300,0] agrees with the replay: the double victory's 200
plus Ana's Tichu.
""",
    "S003": """
What: the `score` of a `game_end` is not the sum of the rounds' scores.

Why: rules.md 7.6: a team's total is the sum of its round scores. A round the
replay could not score (skipped after a fatal diagnostic, or left unfinished:
L008) is "not scored" (rules.md 8): it adds nothing, whatever its `round_end`
records.

Example (the replayed rounds add up to 1020 to 660):
    {"type":"round_end","game":"g7","round":9,"finish_order":[1,0,3,2],"score":[35,65]}
    {"type":"game_end","game":"g7","score":[1020,640]}
    ^ S003: game_end records 1020 to 640, but the replayed rounds add up to
      1020 to 660

Near miss: "score":[1020,660] agrees.
""",
    "S004": """
What: the game ends before a team has reached the target with more points than
the other, or another round is played after the game was already won.

Why: rules.md 7.6: the game ends after the round in which at least one team
reached the target (1000 unless game_start says otherwise); the team with more
points wins; if both are level, play continues.

Example (after this round the totals are 880 to 720):
    {"type":"round_end","game":"g7","round":6,"finish_order":[0,1,2,3],"score":[70,30]}
    {"type":"game_end","game":"g7","score":[880,720]}
    ^ S004 (warning): game_end before a team reached the target of 1000 with
      more points (880 to 720)

Near miss: with "target":800 in the game's game_start, Ana and Chloe have won
and the game_end is right.
""",
}
"""Code -> its explanation: What, Why, Example (a marked log excerpt), Near miss."""
