"""Disputed rounds audited with ``replay`` (JSON lines and ``.tch``): under house rules
and the variants, with a player replaced mid-game, and the written ruling handed to the
players."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import ROOT, SAMPLES, WISH, flat, runner

from tichu_analyze.cli import app

TCH = SAMPLES / "2417500.tch"


def _replay(*args: str) -> str:
    result = runner.invoke(app, ["replay", *args])
    assert result.exit_code == 0, result.output
    return flat(result.output)


def _with_variants(tmp_path: Path, variants: list[str]) -> Path:
    """``wish-ignored.jsonl`` with ``variants`` named in its ``game_start``."""
    lines = WISH.read_text().splitlines()
    start = json.loads(lines[0])
    start["variants"] = variants
    log = tmp_path / "house.jsonl"
    log.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n")
    return log


# -- which rules applied ------------------------------------------------------------------


def test_replay_says_the_publishers_rules_apply_when_no_variant_is_named() -> None:
    """The view never said which rules the replay applied: a director could not tell a
    round judged under a house rule from one judged under the publisher's rules."""
    out = _replay(str(WISH))
    assert ("Rules the publisher's rules (no variant of rules.md 9 named in the log or with "
            "--variant)") in out
    assert "Rules the publisher's rules" in _replay(str(TCH), "-r", "1")


def test_replay_names_the_house_rules_and_where_each_came_from(tmp_path: Path) -> None:
    log = _with_variants(tmp_path, ["dog-can-be-bombed"])
    out = _replay(str(log), "--variant", "wish-penalty-200")
    assert ("Rules the publisher's rules, with the house rule wish-penalty-200 (given with "
            "--variant): a violation of the wish (W001) gives the other team 200 points; the "
            "house rule dog-can-be-bombed (named in the log): a bomb may be played on the Dog "
            "(no B003)") in out
    # the penalty the house rule adds is in the result, so the two agree
    assert "wish penalty" in out


def test_replay_names_the_variant_of_a_six_player_game(tmp_path: Path) -> None:
    log = tmp_path / "six.jsonl"
    made = runner.invoke(app, ["simulate", "-n", "1", "--variant", "tientsin", "-o", str(log),
                               "-q"])
    assert made.exit_code == 0, made.output
    out = _replay(str(log), "-r", "1")
    assert ("Rules the publisher's rules, with the variant tientsin (named in the log): six "
            "players in two teams of three (rules.md 9.2)") in out


def test_replay_html_names_the_rules(tmp_path: Path) -> None:
    page = tmp_path / "r1.html"
    _replay(str(WISH), "--variant", "phoenix-in-bombs", "-f", "html", "-o", str(page))
    text = page.read_text()
    assert ('<p class="meta">Rules: the publisher&#x27;s rules, with the house rule '
            "phoenix-in-bombs (given with --variant): the Phoenix may complete a four of a "
            "kind or a straight flush</p>") in text


# -- a player replaced mid-game -----------------------------------------------------------


def _substitute_tch(tmp_path: Path) -> Path:
    """The real BSW game with seat 1's player, 1David, replaced by Neu Mann from round 4
    (line 262) on."""
    lines = TCH.read_text("utf-8").split("\n")
    lines[261:] = [line.replace("1David", "Neu Mann") for line in lines[261:]]
    log = tmp_path / "2417500.tch"
    log.write_text("\n".join(lines), "utf-8")
    return log


def test_replay_of_a_round_names_whom_the_substitute_replaced(tmp_path: Path) -> None:
    """With --round the header shows the round's seating and 'Players in this round'
    repeated it: nothing said that Neu Mann's seat began the game with 1David."""
    log = _substitute_tch(tmp_path)
    out = _replay(str(log), "-r", "4")
    assert ("Players in this round evi_sea (0), Neu Mann (1), evdokia!! (2), Lisaaaaaaa (3) · "
            "Neu Mann (1) in place of 1David, who began the game in that seat") in out
    assert "in place of" not in _replay(str(log), "-r", "3")
    page = tmp_path / "r4.html"
    _replay(str(log), "-r", "4", "-f", "html", "-o", str(page))
    assert "· Neu Mann (1) in place of 1David, who began the game in that seat</p>" in (
        page.read_text())


def test_replay_names_each_replaced_seat_of_a_json_lines_log(tmp_path: Path) -> None:
    lines = WISH.read_text().splitlines()
    start = json.loads(lines[1])
    assert start["type"] == "round_start"
    start["players"] = ["Ana", "Zoe", "Chloe", "Max"]
    log = tmp_path / "sub.jsonl"
    log.write_text("\n".join([lines[0], json.dumps(start), *lines[2:]]) + "\n")
    out = _replay(str(log))
    assert ("· Zoe (1) in place of Ben, Max (3) in place of Dev, who began the game in those "
            "seats") in out


def test_replay_of_trichu_names_no_replacement(tmp_path: Path) -> None:
    """In trichu every round seats the persons anew (rules 9.3): no one is replaced."""
    log = tmp_path / "three.jsonl"
    made = runner.invoke(app, ["simulate", "-n", "1", "--variant", "trichu", "-o", str(log),
                               "-q"])
    assert made.exit_code == 0, made.output
    out = _replay(str(log))
    assert "Players in this round" in out
    assert "in place of" not in out


# -- the words of the view ----------------------------------------------------------------


def test_a_winners_pass_reads_as_a_pass_on_their_own_trick() -> None:
    """'Chloe (2) passes on Chloe's bomb' read as if another Chloe had bombed: the seat
    that passes is the one whose play is on the table (here the trick is over and it is
    to lead: P006)."""
    out = _replay(str(ROOT / "tests/fixtures/rules/P006_pass_on_lead.jsonl"))
    assert ("line 15 Chloe (2) passes on their own bomb: straight flush 2 to Ace in Star (not "
            "applied) ✗ P006 pass-on-lead: Chloe (seat 2) passes, but is to lead") in out
    assert "Chloe (2) passes on Chloe's" not in out


# -- the report site's round pages --------------------------------------------------------


def test_site_round_pages_replay_under_the_house_rules_of_the_ingest(tmp_path: Path) -> None:
    """A dataset ingested with --variant wish-penalty-200 scores a wish violation with 200
    points on its game pages, while the rounds' replay pages, replayed from the log alone
    under the publisher's rules, scored them without: the site contradicted itself."""
    data, site = tmp_path / "data", tmp_path / "site"
    made = runner.invoke(app, ["ingest", str(WISH), "--out", str(data), "--variant",
                               "wish-penalty-200"])
    assert made.exit_code == 0, made.output
    marker = json.loads((data / "_tichu_analyze.json").read_text())
    assert marker["ingests"][-1]["variants"] == ["wish-penalty-200"]
    report = runner.invoke(app, ["report", str(data), "-o", str(site)])
    assert report.exit_code == 0, report.output
    (page,) = (site / "rounds").glob("*-r1.html")
    text = page.read_text()
    assert "house rule wish-penalty-200 (given with --variant)" in text
    assert "wish penalty" in text
    publisher = tmp_path / "r1.html"
    _replay(str(WISH), "-f", "html", "-o", str(publisher))
    assert "wish penalty" not in publisher.read_text()


# -- a broken line in the middle of the disputed round -------------------------------------


def test_an_unreadable_line_among_the_rounds_events_is_shown_in_a_file_of_many_games(
        tmp_path: Path) -> None:
    """In a file of several games an unreadable line (which names no game) was left out
    of the view even in the middle of the round: the next player's P003 then looked like
    a move out of turn, while the play before it was lost to the broken line."""
    lines = (SAMPLES / "simulated-5-games.jsonl").read_text().splitlines()
    start = next(i for i, line in enumerate(lines)
                 if '"game":"sim-2026-2"' in line and '"round_start"' in line)
    play = next(i for i in range(start, len(lines)) if '"type":"play"' in lines[i]
                and '"Mahjong"' not in lines[i] and i > start + 8)
    lines[play] = lines[play][:30]  # cut short: not JSON
    log = tmp_path / "broken.jsonl"
    log.write_text("\n".join(lines) + "\n")
    out = _replay(str(log), "-g", "sim-2026-2", "-r", "1")
    assert f"line {play + 1} ✗ L001 invalid-json: not valid JSON" in out
    assert ("1 diagnostic on a line that names no game is shown where it lies, among the "
            "round's events (the file holds other games: the line may be theirs)") in out
    assert "not shown" not in out
    elsewhere = _replay(str(log), "-g", "sim-2026-2", "-r", "2")
    assert f"round 1: L001 (line {play + 1})" in elsewhere
    assert "shown where it lies" not in elsewhere


# -- the game's score -------------------------------------------------------------------


def test_a_rounds_result_gives_the_games_score_after_it(tmp_path: Path) -> None:
    """'The score is wrong' is often the running total: a round shown alone gave its own
    score only. The real BSW game: 0-400 after round 1, 205-495 after round 2."""
    assert ("game score team 0 205 · team 1 495 after round 2 (the rounds scored so far)"
            in _replay(str(TCH), "-r", "2"))
    page = tmp_path / "r2.html"
    _replay(str(TCH), "-r", "2", "-f", "html", "-o", str(page))
    assert "team 0 205 · team 1 495 after round 2 (the rounds scored so far)" in (
        page.read_text())
    # a round left unscored adds nothing, as in the game's totals
    out = _replay(str(ROOT / "tests/fixtures/audit/disputed.jsonl"), "-g", "g1", "-r", "2")
    assert "game score team 0 -210 · team 1 210 after round 2" in out


def test_a_legal_bomb_out_of_turn_says_it_is_allowed() -> None:
    """'bombs ... (out of turn)' with nothing under it left a player who complained of a
    bomb out of turn wondering whether it was a violation: it is allowed (rules 4.3)."""
    out = _replay(str(ROOT / "tests/fixtures/audit/disputed.jsonl"), "-g", "g1", "-r", "1")
    assert ("Chloe (2) bombs 10j 10s 10p 10r — bomb: four 10s on Dev's pair of Kings (out of "
            "turn, allowed for a bomb: rules 4.3)") in out
    # any other play out of turn keeps the plain mark, with its P003
    p003 = _replay(str(ROOT / "tests/fixtures/faults/P003_pass_dropped_next_seat_plays.jsonl"))
    assert "(out of turn) · " in p003 and "✗ P003 out-of-turn" in p003
    assert "allowed for a bomb" not in p003


# -- a .tch file: its card letters --------------------------------------------------------


def test_replay_of_a_tch_file_says_how_its_cards_read_there(tmp_path: Path) -> None:
    """The view writes 'Jp' where the .tch line a director compares it with says 'BB':
    nothing said how BSW's letters map to the view's."""
    out = _replay(str(TCH), "-r", "1")
    assert ("BSW the .tch file writes a card as its suit's colour, then its rank: G Jade "
            "(green), S Sword (black), B Pagoda (blue), R Star (red); B Jack (Bube), D Queen "
            "(Dame): BB = Jp, RD = Qr, G10 = 10j, SA = As; Ma Mahjong, Hu Dog, Ph Phoenix, Dr "
            "Dragon") in out
    assert "BSW " not in _replay(str(WISH))
    page = tmp_path / "r1.html"
    _replay(str(TCH), "-r", "1", "-f", "html", "-o", str(page))
    assert '<p class="meta">BSW: the .tch file writes a card' in page.read_text()


def test_a_pass_the_tch_file_left_out_is_marked_as_the_readers() -> None:
    """The W001 of this round rests on a pass BSW did not write: 'line 19 Bernd passes'
    while line 19 of the file is Clara's play. The view now says where the pass comes
    from, so a director can weigh it."""
    out = _replay(str(ROOT / "tests/fixtures/tch/W001_wish_ignored_pass_missing.tch"))
    assert ("line 19 Bernd (1) passes on Anna's Mahjong (not recorded here in the .tch file, "
            "which leaves passes out or logs them out of order: the play at this line shows "
            "it) ✗ W001 wish-ignored") in out
    assert "line 19 Clara (2) plays 10s — single 10 on Anna's Mahjong · 13 left" in out
    assert out.count("not recorded here") == 1


def test_a_dragon_gift_the_tch_file_left_out_is_marked_as_the_readers() -> None:
    out = _replay(str(ROOT / "tests/fixtures/tch/habit_missing_drache_an_score_decides.tch"))
    assert ("line 32 Bernd (1) gives the Dragon's trick to Anna (0) (no 'Drache an:' in the "
            ".tch file: given to the opponent that makes the recorded score come out, else the "
            "next seat after the winner; docs/bsw.md)") in out
    # a recorded gift, as in the real game, is not marked; nor is anything in JSON lines
    assert "no 'Drache an:'" not in _replay(str(TCH))
    assert "not recorded here" not in _replay(str(SAMPLES / "simulated-5-games.jsonl"), "-g",
                                              "sim-2026-1")


# -- a ruling on paper --------------------------------------------------------------------


def test_the_html_page_prints_with_its_cards_and_without_the_navigation(
        tmp_path: Path) -> None:
    """Printed (or saved as PDF) for a written ruling, the special cards, white on a
    coloured background the browser leaves out on paper, were blank, and the navigation
    column took a third of every page."""
    page = tmp_path / "r1.html"
    _replay(str(WISH), "-f", "html", "-o", str(page))
    text = page.read_text()
    css = text[text.index("@media print{"):text.index("</style>")]
    assert "print-color-adjust:exact" in css
    assert "nav{display:none}" in css


# -- a game the variants reject -----------------------------------------------------------


def _replay_fails(*args: str) -> str:
    result = runner.invoke(app, ["replay", *args])
    assert result.exit_code == 2, result.output
    return flat(result.output)


def test_replay_says_why_a_game_start_was_rejected(tmp_path: Path) -> None:
    """A four-player log replayed with --variant tientsin said 'holds no game (no
    readable game_start)': the game_start is readable, the variant rejects it."""
    out = _replay_fails(str(WISH), "--variant", "tientsin")
    assert ("holds no game that could be replayed: its game_start at line 1 was rejected: "
            "L002 game_start needs six distinct, non-empty player names (tientsin, played by "
            "six, is in force from the command line)") in out
    assert "no readable game_start" not in out
    # one game of several, named with --game
    lines = WISH.read_text().splitlines()
    second = [line.replace('"game":"g1"', '"game":"g2"') for line in lines]
    start = json.loads(second[0])
    start["variants"] = ["nope"]
    second[0] = json.dumps(start)
    log = tmp_path / "two.jsonl"
    log.write_text("\n".join(lines + second) + "\n")
    out = _replay_fails(str(log), "-g", "g2")
    assert ("game 'g2' in " + str(log) + " could not be replayed: its game_start at line "
            f"{len(lines) + 1} was rejected: L002 game_start: unknown variant 'nope'") in out
    _replay(str(log), "-g", "g1")


# -- after the Dog ------------------------------------------------------------------------


def test_a_bomb_on_the_dog_under_the_house_rule_is_explained() -> None:
    """'the lead passes to Chloe (2)', then Ben leads a bomb with no diagnostic: under
    dog-can-be-bombed the bomb is allowed, and the view did not say why Ben led."""
    out = _replay(str(ROOT / "tests/fixtures/variants/B003_ok_house_rule_named_in_log.jsonl"))
    assert ("the Dog's trick ends at once; Ana (0) keeps it (0 points) and the lead passes to "
            "Chloe (2); Ben (1) bombs the Dog instead, as the house rule dog-can-be-bombed "
            "allows") in out
    plain = _replay(str(ROOT / "tests/fixtures/rules/B003_bomb_on_dog.jsonl"))
    assert "the lead passes to Chloe (2) Trick 2" in plain
    assert "✗ B003 bomb-on-dog" in plain and "dog-can-be-bombed allows" not in plain


def test_the_seats_due_to_lead_after_the_dog_are_the_engines(tmp_path: Path) -> None:
    """The view named the seat the lead passes to after the Dog by a rule of its own; it
    now asks the engine (RoundState.may_lead), which the Recorder keeps per Dog trick."""
    from tichu_analyze.core.record import Recorder
    from tichu_analyze.readers.logfile import replay_file

    recorder = Recorder()
    log = ROOT / "tests/fixtures/variants/P003_ok_tientsin_dog_to_nearer_partner.jsonl"
    replay_file(log, recorder)
    (rec,) = recorder.rounds
    dog = next(t for t in rec.tricks if t.dog)
    assert rec.dog_leads == {dog.number: [0, 2]}  # seat 4's partners holding cards
    out = _replay(str(log))
    assert "the lead passes to Ana (0), a partner of Eve's choice" in out


def test_replay_names_a_game_start_the_decoder_refused(tmp_path: Path) -> None:
    """A game_start with three player names fails the decoder itself ("bad game_start
    event"); the view named no reason ('no readable game_start') for it."""
    lines = WISH.read_text().splitlines()
    start = json.loads(lines[0])
    start["players"] = start["players"][:3]
    log = tmp_path / "three.jsonl"
    log.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n")
    out = _replay_fails(str(log))
    assert "holds no game that could be replayed: its game_start at line 1 was rejected: L002" \
        in out and "players" in out
    assert "no readable game_start" not in out
