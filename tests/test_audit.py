"""The audit view (``tichu-analyze replay``): golden text, the HTML page in a real
headless browser, hostile player names, seat views, errors, and a smoke run over
simulated games.

The goldens (tests/golden/audit_*.txt) were read line by line against rules.md;
tests/fixtures/audit/README.md says what each fixture line does and why each
diagnostic is one. After a deliberate change, regenerate them with

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_audit.py

and read the diff before committing it: a golden must show what the rules say
happened, not merely what the code printed.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from browser import dump_dom, is_blank, require_chromium, screenshot
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.cards import BIT, CARD_BY_TOKEN
from tichu_analyze.core.events import Play
from tichu_analyze.views import audit

TESTS = Path(__file__).parent
REPO = TESTS.parent
FIXTURES = "tests/fixtures/audit"  # relative to the repository: the view names the file as given
GOLDEN = TESTS / "golden"
DISPUTED = f"{FIXTURES}/disputed.jsonl"
HOSTILE = f"{FIXTURES}/hostile.jsonl"

HOSTILE_NAMES = [
    "<script>alert('pwned')</script>",
    "[bold red]Mallory[/] $(rm -rf ~)",
    "Eve\x1b[2J\x1b[31mred",
    "Trudy\u202e&amp;\n<img src=x onerror=alert(1)>",
]

runner = CliRunner()


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)


def replay(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["replay", *args])
    return result.exit_code, result.stdout, result.stderr


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing; run with UPDATE_GOLDEN=1 to write it"
    assert text == path.read_text(encoding="utf-8"), (
        f"{name} differs from the golden; if the change is intended, rerun with "
        "UPDATE_GOLDEN=1 and read the diff")


# ----------------------------------------------------------------------------- golden text


@pytest.mark.parametrize(("golden", "args"), [
    ("audit_disputed_round1.txt", ["--round", "1"]),
    ("audit_disputed_game.txt", []),
    ("audit_disputed_round1_seat2.txt", ["--round", "1", "--seat", "2"]),
    ("audit_disputed_round3_hands.txt", ["--round", "3", "--hands"]),
], ids=["round1", "game", "seat2", "hands"])
def test_golden_text(golden: str, args: list[str]) -> None:
    code, out, err = replay(DISPUTED, "--game", "g1", *args)
    assert code == 0, err
    check_golden(golden, out)


def test_golden_covers_every_family_of_violations() -> None:
    text = (GOLDEN / "audit_disputed_game.txt").read_text(encoding="utf-8")
    shown = set(re.findall(r"[✗!] ([A-Z][0-9]{3}) [a-z-]+", text))
    assert {"W001", "P005", "P003", "G001", "S002", "C002", "B002", "L004", "L008",
            "X001"} <= shown
    assert {c[0] for c in shown} >= {"W", "P", "G", "S", "C", "B", "L", "X"}


def test_diagnostics_sit_under_the_event_that_caused_them() -> None:
    lines = (GOLDEN / "audit_disputed_round1.txt").read_text(encoding="utf-8").splitlines()

    def under(event: str, code: str) -> None:
        i = next(i for i, line in enumerate(lines) if line.startswith(f"  {event}"))
        assert code in lines[i + 1], (event, lines[i:i + 2])

    under("line 13  Dev (3)    passes", "W001")
    under("line 21  Dev (3)    plays", "P005")
    under("line 26  Dev (3)    calls Tichu", "C002")
    under("line 41  Ana (0)    gives the Dragon's trick to Chloe (2)", "G001")
    under("line 42  Ben (1)    leads Qj Qs Qp Qr", "B002")
    under("line 49  Ana (0)    plays Aj", "L004")  # the unknown event is line 50, between 49 and 51
    under("line 61             round_end", "S002")


def test_wish_violation_names_what_could_have_been_played() -> None:
    text = (GOLDEN / "audit_disputed_game.txt").read_text(encoding="utf-8")
    assert "could have played Kj — single King" in text  # following: a single K beats the 3
    assert "could have played 7p — single 7" in text  # leading: the single 7 always qualifies


def test_text_through_a_file(tmp_path: Path) -> None:
    out = tmp_path / "round.txt"
    code, stdout, err = replay(DISPUTED, "--round", "1", "-o", str(out))
    assert code == 0 and stdout == "", err
    assert out.read_text(encoding="utf-8") == (GOLDEN / "audit_disputed_round1.txt").read_text(
        encoding="utf-8")
    assert f"wrote {out}" in err


def test_colours_only_on_a_terminal() -> None:
    code, out, _ = replay(DISPUTED, "--round", "1")
    assert code == 0 and "\x1b[" not in out
    view = audit.build(audit.load(Path(DISPUTED)), "g1", 1)
    styled = {style for line in audit.render_text(view) for text, style in line
              if text in ("Kj", "7s", "9p", "3r", "Dragon")}
    assert styled >= {"green", "bold", "bright_blue", "red", "bold magenta"}


def test_seat_view_hides_the_other_hands() -> None:
    text = (GOLDEN / "audit_disputed_round1_seat2.txt").read_text(encoding="utf-8")
    setup = text.split("Trick 1 ·")[0]
    assert "Mahjong 8j 8r 9j 9r 10r Aj Phoenix" not in setup  # Ana's first 8 cards
    assert "3s 10j 10s 10p Jj Js Jp Dragon" in setup  # Chloe's own
    assert "Ana (0)    gives one card to each other seat; Chloe (2) receives 10r" in setup
    assert "Ana (0)    14 cards" in setup
    full = (GOLDEN / "audit_disputed_round1.txt").read_text(encoding="utf-8")
    assert text.split("Trick 1 ·")[1] == full.split("Trick 1 ·")[1]  # plays are public


# --------------------------------------------------------------------------------- errors


def test_unknown_game_points_to_the_games_command() -> None:
    code, out, err = replay(DISPUTED, "--game", "g9")
    assert code == 2 and out == ""
    flat = " ".join(err.split())
    assert "game 'g9' is not in" in flat and "holds 1 game" in flat
    assert "'tichu-analyze games " in flat and "' lists them" in flat


def test_unknown_round_lists_the_rounds() -> None:
    code, _, err = replay(DISPUTED, "--game", "g1", "--round", "7")
    assert code == 2
    assert "has no round 7; it has rounds 1-3" in " ".join(err.split())


def test_several_games_need_game(tmp_path: Path) -> None:
    two = tmp_path / "two.jsonl"
    hostile = (REPO / HOSTILE).read_text(encoding="utf-8")
    two.write_text((REPO / DISPUTED).read_text(encoding="utf-8") + hostile, encoding="utf-8")
    code, _, err = replay(str(two))
    assert code == 2
    flat = " ".join(err.split())
    assert "holds 2 games; choose one with --game ('tichu-analyze games " in flat
    code, out, err = replay(str(two), "--game", "<b>g&1</b>", "--round", "1")
    assert code == 0, err
    assert "W001 wish-ignored" in out


def test_missing_file_and_html_without_output(tmp_path: Path) -> None:
    code, _, err = replay(str(tmp_path / "nope.jsonl"))
    assert code == 2 and "no such file" in err
    code, _, err = replay(DISPUTED, "--format", "html")
    assert code == 2 and "--output" in err
    code, _, err = replay(DISPUTED, "--seat", "4")
    assert code == 2


# ---------------------------------------------------------------------------- hostile text


def test_hostile_names_are_text_in_the_terminal() -> None:
    code, out, err = replay(HOSTILE, "--game", "<b>g&1</b>")
    assert code == 0, err
    assert "\x1b" not in out and "\u202e" not in out
    assert "[bold red]Mallory[/] $(rm -rf ~) (1)" in out  # rich markup not interpreted
    assert "Eve\\x1b[2J\\x1b[31mred (2)" in out  # the escape sequence shown, not run
    assert "Trudy\\u202e&amp;\\x0a<img src=x onerror=alert(1)> (3)" in out
    assert "<script>alert('pwned')</script> (0)" in out


def test_hostile_names_are_text_in_html(tmp_path: Path) -> None:
    page = tmp_path / "hostile.html"
    code, _, err = replay(HOSTILE, "--game", "<b>g&1</b>", "-f", "html", "-o", str(page))
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    tags = _tags(text)
    assert "script" not in tags and "img" not in tags and "b" in tags  # <b> is ours, bold labels
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in text
    assert "onerror" not in re.sub(r"&lt;img src=x onerror=alert\(1\)&gt;", "", text)
    assert "\x1b" not in text and "\u202e" not in text


# --------------------------------------------------------------------------------- HTML


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.srcs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for key, value in attrs:
            if key == "id" and value:
                self.ids.add(value)
            elif key == "href" and value:
                self.hrefs.append(value)
            elif key == "src" and value:
                self.srcs.append(value)


def _parse(text: str) -> _Collect:
    parser = _Collect()
    parser.feed(text)
    return parser


def _tags(text: str) -> set[str]:
    return set(_parse(text).tags)


def _page(tmp_path: Path, *args: str) -> Path:
    page = tmp_path / "round.html"
    code, _, err = replay(DISPUTED, "--game", "g1", "-f", "html", "-o", str(page), *args)
    assert code == 0, err
    return page


def test_html_is_self_contained_and_navigable(tmp_path: Path) -> None:
    text = _page(tmp_path).read_text(encoding="utf-8")
    parsed = _parse(text)
    assert not parsed.srcs and "link" not in parsed.tags and "script" not in parsed.tags
    assert "http://" not in text and "https://" not in text and "url(" not in text
    anchors = [h[1:] for h in parsed.hrefs if h.startswith("#")]
    assert anchors and all(a in parsed.ids for a in anchors)
    for trick in range(1, 11):
        assert f"#r1-t{trick}" in parsed.hrefs
    for code in ("W001", "P005", "C002", "G001", "B002", "L004", "S002", "X001", "L008"):
        assert '<span class="code" title=' in text and f">{code}</span>" in text


def test_html_seat_view_hides_the_other_hands(tmp_path: Path) -> None:
    text = _page(tmp_path, "--round", "1", "--seat", "2").read_text(encoding="utf-8")
    setup = text.split('id="r1-t1"')[0]
    assert 'class="card back"' in setup
    assert 'title="8 of Jade"' not in setup  # Ana's 8j, hidden until played
    assert text.count('title="8 of Jade"') >= 1  # ... and shown when played (trick 2)


def test_html_in_chromium(tmp_path: Path) -> None:
    require_chromium()
    page = _page(tmp_path, "--round", "1")
    png = screenshot(page, tmp_path / "round.png", width=1280, height=2400)
    assert not is_blank(png)
    dom = dump_dom(page)
    parsed = _parse(dom)
    assert "script" not in parsed.tags
    assert "Trick 10" in dom and "wish-ignored" in dom and "could have played" in dom


def test_hostile_html_in_chromium(tmp_path: Path) -> None:
    require_chromium()
    page = tmp_path / "hostile.html"
    code, _, err = replay(HOSTILE, "--game", "<b>g&1</b>", "-f", "html", "-o", str(page))
    assert code == 0, err
    png = screenshot(page, tmp_path / "hostile.png", width=1280, height=1600)
    assert not is_blank(png)
    dom = dump_dom(page)
    tags = _tags(dom)
    assert "script" not in tags and "img" not in tags
    assert "&lt;script&gt;alert('pwned')&lt;/script&gt; (0)" in dom
    assert "[bold red]Mallory[/] $(rm -rf ~) (1)" in dom


# ------------------------------------------------------------------------ the view model


def _simulated(tmp_path: Path, games: int, seed: int) -> Path:
    path = tmp_path / "sim.jsonl"
    result = runner.invoke(app, ["simulate", "-o", str(path), "-n", str(games),
                                 "--seed", str(seed)])
    assert result.exit_code == 0, result.output
    return path


def test_every_simulated_round_renders_and_tracks_the_hands(tmp_path: Path) -> None:
    """Every round of simulated games renders in both formats and from every seat, and
    the hands the view tracks agree with the replay's card counts at every play."""
    path = _simulated(tmp_path, 3, 5)
    trace = audit.load(path)
    for game in trace.games:
        for seat in (None, 0, 3):
            view = audit.build(trace, game, None, seat)
            text = audit.plain(audit.render_text(view, 90, hands=True))
            assert "Result of round" in text
            assert "<main>" in audit.render_html(view)
        for rv in audit.build(trace, game).rounds:
            entries = [e for t in rv.tricks for e in t.entries]
            for before, after in zip(entries, entries[1:], strict=False):
                step = before.step
                if (step is None or not isinstance(step.event, Play) or step.cards_left is None
                        or after.hands is None or step.seat is None):
                    continue
                assert after.hands[step.seat].bit_count() == step.cards_left
            assert rv.record.status == "scored"
            assert sum(1 for e in entries if e.place is not None) in (2, 3)


def test_diagnostics_without_an_event_are_placed_by_line(tmp_path: Path) -> None:
    lines = (REPO / DISPUTED).read_text(encoding="utf-8").splitlines()
    lines.insert(30, "{not json")  # inside trick 3 of round 1: L001, naming no game
    log = tmp_path / "broken.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    view = audit.build(audit.load(log), "g1", 1)
    trick3 = next(t for t in view.rounds[0].tricks if t.number == 3)
    orphans = [e for e in trick3.entries if e.step is None]
    assert [n.diagnostic.code for e in orphans for n in e.notes] == ["L001"]
    text = audit.plain(audit.render_text(view))
    assert "line 31  ✗ L001 invalid-json" in text


def test_could_play_is_computed_from_the_hand_before_the_event() -> None:
    view = audit.build(audit.load(Path(DISPUTED)), "g1", 1)
    entry = next(e for t in view.rounds[0].tricks for e in t.entries
                 if any(n.diagnostic.code == "W001" for n in e.notes))
    assert entry.hands is not None and entry.step is not None
    note = entry.notes[0]
    assert note.could_play is not None
    assert note.could_play.cards == BIT[CARD_BY_TOKEN["Kj"]]
    assert entry.hands[3] & note.could_play.cards


# ------------------------------------------------------------------ variants (rules 9.2, 9.3)

VARIANTS = "tests/fixtures/variants"
TIENTSIN = f"{VARIANTS}/scenario_tientsin_full_round.jsonl"
TRIPLE = f"{VARIANTS}/S001_ok_tientsin_triple_victory.jsonl"
TRICHU = f"{VARIANTS}/scenario_trichu_full_game.jsonl"


def _text(*args: str) -> str:
    code, out, err = replay(*args)
    assert code == 0, err
    return out


def _squash(text: str) -> str:
    """The text with its wrapping undone (runs of spaces and newlines as one space)."""
    return re.sub(r"\s+", " ", text)


def test_tientsin_round_shows_six_hands_and_two_teams_of_three() -> None:
    text = _text(TIENTSIN, "-r", "1")
    flat = _squash(text)
    assert "team 0: Ana + Chloe + Eve · team 1: Ben + Dev + Finn" in flat
    # both deals, six hands each (rules 9.2: 6 cards, then 3 or 4)
    assert "first deal, 6 cards each" in text and "second deal, 3 or 4 cards each" in text
    for hand in ("Ana (0) Mahjong 3p 4p 5p 6p 7p", "Finn (5) 3r 4r 5r 6r 7r 8r",
                 "Ben (1) 7s 8s 10r Dragon", "Dev (3) 9s Jr Ar"):
        assert hand in flat
    # the exchange goes to the two partners; each hand after it, with what it received
    assert "Ana (0) gives Ap to Chloe (2), 9j to Eve (4)" in flat
    assert "Dev (3) 2r 3j Jp Qp Qr Kr Ar Phoenix Dragon (received Dragon from Ben (1), " \
           "Phoenix from Finn (5))" in flat
    # the Dog: the lead to the partner Eve chose (Chloe, not the nearer seat 0)
    assert "the lead passes to Chloe (2), a partner of Eve's choice" in flat
    # the Dragon given to one of three opponents (Dev, team 1, to Chloe, team 0)
    assert "Dev (3) wins with Dragon · 25 points · given to Chloe (2) at line 44" in flat
    # by hand from the log: last Dev's hand (Qp Qr Kr Ar: 10) and tricks (Phoenix: -25) go
    # to team 0; fifth Eve's tricks (Kj 10 + 5j 10j 15 = 25) to Ben, first out. Team 0:
    # Ana 15 + Chloe 20 + Dragon 25 + 10 - 25 = 45; team 1: Ben 15 + 25 + Finn 15 = 55.
    # Eve's Grand Tichu fails (-200), Ben's Tichu is made (+100).
    assert "5th Eve (4) · last Dev (3)" in flat
    assert "Dev (3) is last: the 4 cards left in hand (Qp Qr Kr Ar, 10 points) go to team 0 " \
           "(Ana + Chloe + Eve); the tricks it took (-25 points) go to that team too" in flat
    assert "Eve (4) is fifth: the tricks it took (25 points) go to Ben (1), first out" in flat
    assert "card points team 0 (Ana + Chloe + Eve) 45 · team 1 (Ben + Dev + Finn) 55" in flat
    assert "score team 0 -155 · team 1 155" in flat


def test_tientsin_triple_victory_scores_300() -> None:
    flat = _squash(_text(TRIPLE))
    # Ana, Chloe, Eve out first: 300 to team 0, + Ana's Tichu; Dev's Grand Tichu fails
    assert "1st Ana (0) · 2nd Chloe (2) · 3rd Eve (4) · still holding cards: Ben (1), " \
           "Dev (3), Finn (5)" in flat
    assert "triple victory team 0 (Ana + Chloe + Eve) scores 300; card points are not " \
           "counted" in flat
    assert "score team 0 400 · team 1 -200" in flat


def test_tientsin_seat_view_for_seats_up_to_five() -> None:
    text = _text(TIENTSIN, "-r", "1", "--seat", "5")
    flat = _squash(text)
    assert "seen from seat 5 (Finn)" in flat
    assert "Finn (5) 3r 4r 5r 6r 7r 8r" in flat and "Ana (0) 6 cards" in flat
    assert "Finn (5) gives 10s to Ben (1), Phoenix to Dev (3)" in flat
    assert "Ana (0) gives one card each to Chloe (2) and Eve (4)" in flat
    code, _, err = replay(TIENTSIN, "--seat", "6")
    assert code == 2
    code, _, err = replay(TRICHU, "--seat", "4")
    assert code == 2 and "4 seats; --seat must be 0-3" in err


def test_trichu_marks_the_dummy_and_scores_per_person() -> None:
    flat = _squash(_text(TRICHU))
    assert "three players and the dummy" in flat
    # round 1: Ben plays solo with Tisch (seat 3); round 3: Ana with Tisch at seat 0
    assert "Seating Ben (1) plays solo with Tisch (3) (dummy, open hand; played by Ben) " \
           "against Ana (0) + Chloe (2)" in flat
    assert "Tisch (3) 2p 3p 4s 5p 6p 7s 8p 9p (dummy, open hand; played by Ben)" in flat
    assert "Players in this round Tisch (0), Ben (1), Ana (2), Chloe (3)" in flat
    assert "Seating Ana (2) plays solo with Tisch (0) (dummy, open hand; played by Ana)" in flat
    # round 1 by hand: Ana and Chloe go out first (double victory, 200 to team 0); Ben's
    # Tichu fails (-100); each person scores its team's points
    assert "double victory team 0 (Ana + Chloe) scores 200" in flat
    assert "persons Ana (0) 200 · Ben (1) -100 · Chloe (2) 200" in flat
    # the game, from the three rounds' seatings: round 2 (Ben, Ana team 0: 400; Chloe 0),
    # round 3 (Ana team 0: 0; Ben, Chloe team 1: 200): Ana 600, Ben 500, Chloe 400
    assert "totals Ana 600 · Ben 500 · Chloe 400" in flat
    assert "recorded Ana 600 · Ben 500 · Chloe 400 (game_end)" in flat
    assert "team 0 600" not in flat  # team totals mean nothing when the seating rotates


def test_trichu_seat_view_shows_the_open_dummy() -> None:
    flat = _squash(_text(TRICHU, "-r", "3", "--seat", "1"))
    # Ben sees his own hand and the dummy's (open), not Ana's or Chloe's
    assert "Tisch (0) Dog Mahjong 3j 4r 5j 6r 7j 8r (dummy, open hand; played by Ana)" in flat
    assert "Ben (1) 2s 3s 4s 5s 6s 7s 8s 9s" in flat
    assert "Ana (2) 8 cards" in flat and "Chloe (3) 8 cards" in flat
    assert "Tisch (0) gives Phoenix to Ben (1), Ap to Chloe (3)" in flat
    assert "Chloe (3) gives one card each to Tisch (0) and Ana (2)" in flat


def test_variant_rounds_in_html(tmp_path: Path) -> None:
    page = tmp_path / "six.html"
    assert replay(TIENTSIN, "-f", "html", "-o", str(page))[0] == 0
    six = page.read_text(encoding="utf-8")
    assert "Finn (5)" in six and "Eve (4)" in six
    assert six.count("<th>to ") == 6  # the exchange table has six columns
    assert "triple" not in six and "team 0 -155 · team 1 155" in six
    page = tmp_path / "three.html"
    assert replay(TRICHU, "-f", "html", "-o", str(page), "--seat", "1")[0] == 0
    three = page.read_text(encoding="utf-8")
    assert "(dummy, open hand; played by Ben)" in three
    assert "Ana 600 · Ben 500 · Chloe 400" in three
    setup = three.split('id="r1-t1"')[0]
    assert 'title="2 of Pagoda"' in setup  # the dummy's 2p, shown to seat 1
    assert 'title="2 of Jade"' not in setup  # Ana's 2j, hidden


@pytest.mark.parametrize("variant", ["tientsin", "trichu"])
def test_simulated_variant_games_render_from_every_seat(tmp_path: Path, variant: str) -> None:
    path = tmp_path / f"{variant}.jsonl"
    result = runner.invoke(app, ["simulate", "--variant", variant, "-n", "1", "--seed", "1",
                                 "-o", str(path)])
    assert result.exit_code == 0, result.output
    trace = audit.load(path)
    (game,) = trace.games
    seats = trace.games[game].seats
    assert seats == (6 if variant == "tientsin" else 4)
    for seat in (None, *range(seats)):
        view = audit.build(trace, game, None, seat)
        text = audit.plain(audit.render_text(view, 90, hands=True))
        assert "Result of round" in text
        assert "<main>" in audit.render_html(view)


def test_replay_colour_follows_color_option() -> None:
    """``--color`` as for ``check``: always colours even into a pipe, never does not, and
    auto does not colour a pipe; the text is the same."""
    coloured = replay(DISPUTED, "--round", "1", "--color", "always")
    plain_text = replay(DISPUTED, "--round", "1", "--color", "never")
    auto = replay(DISPUTED, "--round", "1")
    assert coloured[0] == plain_text[0] == auto[0] == 0
    assert "\x1b[" in coloured[1]
    assert "\x1b[" not in plain_text[1] and "\x1b[" not in auto[1]
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured[1]) == plain_text[1] == auto[1]


def test_load_keeps_only_the_games_asked_for() -> None:
    """``load`` keeps the rounds (with their steps and hands) of the games asked for only,
    while still naming every game of the file; the site asks for the games with pages."""
    log = Path(__file__).parent.parent / "sample_logs" / "simulated-5-games.jsonl"
    every = audit.load(log)
    ids = list(every.games)
    assert len(ids) == 5
    some = audit.load(log, games=ids[1:3])
    assert list(some.games) == ids  # every game is still known (for hints and errors)
    assert {r.game for r in some.rounds} == set(ids[1:3])
    assert [(r.game, r.round) for r in some.rounds] == [
        (r.game, r.round) for r in every.rounds if r.game in ids[1:3]]
    one = audit.load(log, ids[4])
    assert {r.game for r in one.rounds} == {ids[4]}
    # the same view of a kept game either way
    assert audit.render_text(audit.build(some, ids[2], 1)) == audit.render_text(
        audit.build(every, ids[2], 1))
