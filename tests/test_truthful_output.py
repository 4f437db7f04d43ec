"""What the tool tells its users adds up: found by trying it as a tournament director,
a researcher and a server operator would, and checking each number and sentence
against the log and rules.md by hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.readers.logfile import check_file

REPO = Path(__file__).resolve().parent.parent
SPEC = REPO / "tests" / "fixtures" / "spec"
RULES = REPO / "tests" / "fixtures" / "rules"
PENALTY_0 = SPEC / "scenario_wish_penalty_violation_by_team_0.jsonl"
PENALTY_1 = SPEC / "scenario_wish_penalty_violation_by_team_1.jsonl"

runner = CliRunner()


def _replay(*args: str | Path) -> str:
    result = runner.invoke(app, ["replay", "--color", "never", *map(str, args)])
    assert result.exit_code == 0, result.stderr
    return re.sub(r"\s+", " ", result.stdout)


def _messages(path: Path, code: str, variants: frozenset[str] = frozenset()) -> list[str]:
    return [d.message for d in check_file(path, variants=variants) if d.code == code]


def test_replay_result_shows_the_wish_penalty() -> None:
    """Chloe (team 0) ignores the wish; team 0 wins a double victory. Under
    wish-penalty-200 the round is 200 to 200: the result must say where team 1's
    200 come from, not leave 'calls none' and a score that does not add up."""
    flat = _replay(PENALTY_0, "--variant", "wish-penalty-200")
    assert "calls none wish penalty team 1 (Ben + Dev) +200 (1 wish violation by the " \
           "other team) score team 0 200 · team 1 200" in flat
    # without the house rule there is no penalty, and no row for it
    plain = _replay(PENALTY_0)
    assert "wish penalty" not in plain
    assert "score team 0 200 · team 1 0" in plain


def test_last_seat_single_card_goes_to_the_other_team() -> None:
    flat = _replay(SPEC / "scenario_last_trick_won_by_third_out.jsonl")
    assert "the 12 cards left in hand (Dog 2p 3j 4p 5j 6p 7j 8p 9j Jj Qp Ap, 5 points) go to " \
           "team 0" in flat
    # the .tch sample, round 6: evdokia!! is last holding only the Dog
    one = _replay(REPO / "sample_logs" / "2417500.tch", "-r", "6")
    assert "evdokia!! (2) is last: the card left in hand (Dog, 0 points) goes to team 1" in one


def test_s002_names_a_double_victory_not_card_points() -> None:
    """rules 7.2: after a double victory card points are not counted; the 200 are the
    double victory's."""
    [msg] = _messages(RULES / "S002_wrong_round_score.jsonl", "S002")
    assert msg.endswith("but the round scores 200 to 0 (double victory 200 to 0, calls "
                        "+0 to +0)"), msg
    assert "card points" not in msg
    [tri] = _messages(REPO / "tests" / "fixtures" / "variants"
                      / "S002_tientsin_triple_victory_scored_200.jsonl", "S002")
    assert "(triple victory 300 to 0, calls +100 to -200)" in tri


def test_s002_detail_adds_up_with_the_wish_penalty(tmp_path: Path) -> None:
    """Ben (team 1) ignores the wish; team 0 wins a double victory: 200 + 200 to 0.
    A recorded 300 to 0 is wrong, and the message's parts must sum to the score."""
    log = tmp_path / "penalty.jsonl"
    log.write_text(PENALTY_1.read_text().replace('"score":[400,0]', '"score":[300,0]'))
    [msg] = _messages(log, "S002", frozenset({"wish-penalty-200"}))
    assert msg == ("round_end records the score 300 to 0, but the round scores 400 to 0 "
                   "(double victory 200 to 0, calls +0 to +0, wish penalty +200 to +0)")


def test_phoenix_on_the_dragon_has_no_rank() -> None:
    """rules 5.3: the Phoenix never beats the Dragon; '(as 15½)' named a rank above the
    Dragon that the Phoenix cannot have."""
    [msg] = _messages(REPO / "sample_logs" / "phoenix-on-dragon.jsonl", "P005")
    assert msg == "Ben (seat 1)'s single Phoenix does not beat the Dragon on the table"
    flat = _replay(REPO / "sample_logs" / "phoenix-on-dragon.jsonl")
    assert "plays Phoenix — single Phoenix on Dev's Dragon" in flat
    assert "½)" not in flat.split("Trick 1")[1].split("Trick 2")[0].replace("(as 1½)", "")


@pytest.mark.parametrize(("path", "expected"), [
    (REPO / "sample_logs" / "card-not-held.jsonl",
     "Ana (seat 0) plays Mahjong 2j 3s 4p 5j 6s 7p 8j 9s 10p Jj Qs Kp Ar without holding Ar"),
    (RULES / "P001_fatal_skips_gift_owed_at_round_start.jsonl",
     "Ben (seat 1) plays 3r 4r 5r 6r 7r without holding them"),
])
def test_p001_names_the_cards_not_held(path: Path, expected: str) -> None:
    [msg] = _messages(path, "P001")
    assert msg == expected + "; the rest of the round is not checked"


def test_check_reports_a_dangling_log_link_in_a_folder(tmp_path: Path) -> None:
    """A nightly check of an archive must not pass over a log that is gone: a link
    named like a log whose target was removed is an unreadable file (exit 2), not
    silently left out of '1 file ...'."""
    (tmp_path / "good.jsonl").write_bytes((REPO / "sample_logs" / "wish-ignored.jsonl")
                                          .read_bytes())
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "removed.jsonl")
    (tmp_path / "notes.txt").symlink_to(tmp_path / "removed.txt")  # not a log: ignored
    result = runner.invoke(app, ["check", "--quiet", str(tmp_path)])
    assert result.exit_code == 2
    assert "gone.jsonl: cannot read" in result.stderr
    assert "notes.txt" not in result.stderr
    assert "W001" in result.stdout  # the readable log is still checked


LOOP_WORDS = "cannot read: a loop of symbolic links"


@pytest.mark.parametrize("command", [
    ["check", "{self}"], ["check", "{folder}"], ["ingest", "{folder}", "-o", "{out}"],
    ["report", "{folder}", "-f", "text"], ["report", "{self}", "-f", "text"],
    ["games", "{self}"], ["replay", "{cycle}"], ["ingest", "{self}", "-o", "{out}"],
])
def test_a_symlink_loop_named_like_a_log_is_one_error_line(
        tmp_path: Path, command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``ln -s loop.jsonl loop.jsonl`` (or a cycle of two links) was a traceback
    (RuntimeError: Symlink loop) in the configuration search, in ingest's and report's
    reading of a folder; it is an unreadable file, as a link whose target is gone."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "good.jsonl").write_bytes((REPO / "sample_logs" / "wish-ignored.jsonl")
                                        .read_bytes())
    (folder / "loop.jsonl").symlink_to("loop.jsonl")
    (folder / "a.jsonl").symlink_to("b.jsonl")
    (folder / "b.jsonl").symlink_to("a.jsonl")
    names = {"self": folder / "loop.jsonl", "cycle": folder / "a.jsonl", "folder": folder,
             "out": tmp_path / "ds"}
    result = runner.invoke(app, [part.format(**names) for part in command])
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    looped = [line for line in errors if LOOP_WORDS in line]
    assert looped and "Traceback" not in result.stderr
    if command[1] == "{folder}" and command[0] != "report":  # each one named, the rest read
        assert len(looped) == 3 and "1 of 4 files read" in result.stderr
    else:
        assert len(errors) == 1


def test_l001_says_when_a_log_is_utf16(tmp_path: Path) -> None:
    """A log saved as UTF-16 is one L001 saying so (test_check_in_ci); a UTF-16 file whose
    first line is broken is L001 on every line, and the message says why, where
    'invalid character (byte 0)' alone leaves the operator guessing. Binary junk
    gets no such guess."""
    text = (REPO / "sample_logs" / "wish-ignored.jsonl").read_text(encoding="utf-8")
    utf16 = tmp_path / "utf16.jsonl"
    utf16.write_bytes(("{" + text).encode("utf-16"))
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(bytes(range(1, 256)) * 4 + b"\n" + b"\x00\xff{\x01" * 3 + b"\n")
    lines = text.count("\n")  # 17; the UTF-16 file ends with one more line, a lone NUL
    found = check_file(utf16)
    assert [d.code for d in found] == ["L001"] * (lines + 1)
    assert [d.line for d in found
            if d.message.endswith("; it looks like UTF-16 text, and logs are UTF-8")] \
        == list(range(1, lines + 1))
    assert all("UTF-16" not in d.message for d in check_file(junk))


def test_replay_of_one_round_names_its_teams_with_the_substitute() -> None:
    """Eve replaces Ben from round 2: the header of round 2 lists Eve at seat 1, so its
    teams must be Eve + Dev too, not the game's first seating."""
    log = SPEC / "L002_ok_round_start_players_substitute.jsonl"
    flat = _replay(log, "-r", "2")
    assert "Players Ana (0), Eve (1), Chloe (2), Dev (3) · team 0: Ana + Chloe · team 1: Eve " \
           "+ Dev" in flat
    whole = _replay(log)  # the whole game: the first seating, each round its own
    assert "Players Ana (0), Ben (1), Chloe (2), Dev (3) · team 0: Ana + Chloe · team 1: Ben " \
           "+ Dev" in whole


def test_games_names_a_substitute() -> None:
    """'games' is how a director sees who played: Eve, who took seat 1 from round 2,
    must be named, not only game_start's four."""
    log = SPEC / "L002_ok_round_start_players_substitute.jsonl"
    result = runner.invoke(app, ["games", str(log)])
    assert result.exit_code == 0
    assert ": game g1: Ana, Ben, Chloe, Dev, then Eve (seat 1) from round 2; 2 rounds;" \
        in result.stdout
    as_json = runner.invoke(app, ["games", "--format", "json", str(log)])
    assert '"newcomers": [{"round": 2, "seat": 1, "player": "Eve"}]' in as_json.stdout
    # trichu's seating changes every round among the same persons: no newcomer
    trichu = runner.invoke(app, ["games", str(REPO / "tests" / "fixtures" / "variants"
                                             / "scenario_trichu_full_game.jsonl")])
    assert "then" not in trichu.stdout


def test_points_plot_keeps_the_wish_penalty_out_of_the_call_points(tmp_path: Path) -> None:
    """Under wish-penalty-200 Ben's team scores 200 with no call: the plot's 'call
    points' bar must be 0 (it was team score minus card points: 200), and the legend
    must not claim the score is cards + calls alone."""
    from tichu_analyze.analysis.plots import plot_points
    from tichu_analyze.analysis.stats import Dataset

    out = tmp_path / "data"
    result = runner.invoke(app, ["ingest", "--quiet", "--variant", "wish-penalty-200",
                                 str(PENALTY_0), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    fig = plot_points(Dataset.load(out))
    ax = fig.axes[0]
    bars = {label: [round(p.get_height()) for p in container]
            for container, label in zip(ax.containers, [t.get_text() for t in
                                                        ax.get_legend().get_texts()],
                                        strict=True)}
    players = [t.get_text().split("\n")[0] for t in ax.get_xticklabels()]
    calls = next(v for k, v in bars.items() if k.startswith("call points"))
    total = next(v for k, v in bars.items() if k.startswith("team round score"))
    assert dict(zip(players, calls, strict=True))["Ben"] == 0
    assert dict(zip(players, total, strict=True))["Ben"] == 200
    assert "team round score = cards + calls + wish penalties (wish-penalty-200)" in bars
    assert [t.get_text().split("\n")[1] for t in ax.get_xticklabels()] == ["1 round"] * 4


def test_a_broken_pyproject_with_our_table_is_an_error(tmp_path: Path) -> None:
    """An operator's [tool.tichu-analyze] in a pyproject.toml with a TOML mistake was
    passed over without a word, so check ran with none of its settings; a broken
    pyproject.toml of another tool is still passed over."""
    (tmp_path / "a.jsonl").write_bytes((REPO / "sample_logs" / "wish-ignored.jsonl")
                                       .read_bytes())
    project = tmp_path / "pyproject.toml"
    project.write_text('[tool.tichu-analyze\nignore = ["W"]\n')
    result = runner.invoke(app, ["check", "--quiet", str(tmp_path)])
    assert result.exit_code == 2
    assert "pyproject.toml: not valid TOML" in result.stderr
    project.write_text("[tool.black\n")
    result = runner.invoke(app, ["check", "--quiet", str(tmp_path)])
    assert result.exit_code == 1 and "W001" in result.stdout


@pytest.mark.parametrize(("log", "said"), [
    # Ana leads the Dog, Ben bombs it (B003): the lead passed to Ana's partner Chloe,
    # not to Ben, whose bomb was the next play
    (RULES / "B003_bomb_on_dog.jsonl",
     "Ana (0) keeps it (0 points) and the lead passes to Chloe (2) "),
    # tientsin: Eve's Dog gives the lead to a partner, Ana or Chloe; Dev (an opponent)
    # led next, out of turn (P003), and was named as the one the lead passed to
    (REPO / "tests" / "fixtures" / "variants" / "P003_tientsin_dog_lead_by_opponent.jsonl",
     "Eve (4) keeps it (0 points) and the lead passes to Ana (0) or Chloe (2), a partner of "
     "Eve's choice "),
    # Dev's Dog with only Finn of his partners holding cards: no choice to speak of
    (SPEC / "P003_tientsin_dog_one_partner_out_opponent_leads.jsonl",
     "Dev (3) keeps it (0 points) and the lead passes to Finn (5) "),
    # Chloe's partner Ana is out: the next seat after Ana that holds cards, Chloe herself
    # (Ben is out too); Dev's lead is P003
    (SPEC / "P003_dog_lead_back_wrong_seat.jsonl",
     "Chloe (2) keeps it (0 points) and the lead passes to Chloe (2) "),
])
def test_the_dog_passes_the_lead_by_the_rules_not_to_whoever_led_next(log: Path,
                                                                       said: str) -> None:
    assert "the Dog's trick ends at once; " + said in _replay(log)


def test_l005_after_an_invalid_game_start_points_at_it() -> None:
    """Every event of a game whose game_start was rejected is L005 'no game_start
    before it'; with the game_start on line 1 that reads as false unless it says why."""
    log = REPO / "tests" / "fixtures" / "variants" / "L002_unknown_variant_in_log.jsonl"
    found = check_file(log)
    assert found[0].code == "L002" and found[0].line == 1
    l005 = [d.message for d in found if d.code == "L005"]
    assert l005 and all(m == "event for game 'g1' that has no game_start before it (its "
                        "game_start at line 1 is not valid)" for m in l005)
    # a game that never had a game_start keeps the plain message
    [plain] = [d.message for d in check_file(RULES / "L005_unknown_game.jsonl")
               if d.code == "L005"]
    assert plain.endswith("that has no game_start before it")


def test_text_report_and_plot_say_which_rounds_they_count(tmp_path: Path) -> None:
    """With --partner (or --since, --game, ...) the text report and a plot counted only
    some rounds without saying so, unlike the HTML report; now they say it."""
    from tichu_analyze.analysis.plots import PlotKind, plot
    from tichu_analyze.analysis.stats import Dataset

    log = REPO / "sample_logs" / "simulated-5-games.jsonl"
    out = tmp_path / "data"
    assert runner.invoke(app, ["ingest", "--quiet", str(log), "--out", str(out)]).exit_code == 0
    ds = Dataset.load(out)
    first = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    me, mate = first["players"][0], first["players"][2]  # partners in the first game
    result = runner.invoke(app, ["report", str(out), "--format", "text", "--player", me,
                                 "--partner", mate])
    assert result.exit_code == 0, result.stderr
    assert f"\nOnly the rounds with partner {mate}.\n" in result.stdout
    every = runner.invoke(app, ["report", str(out), "--format", "text", "--player", me])
    assert "Only the rounds" not in every.stdout
    png = tmp_path / "calls.png"
    result = runner.invoke(app, ["plot", str(out), "--kind", "calls", "--player", me,
                                 "--partner", mate, "-o", str(png)])
    assert result.exit_code == 0, result.stderr
    fig = plot(ds, PlotKind.CALLS, player=me, only=f"with partner {mate}")
    assert fig.get_suptitle().endswith(f"\nonly the rounds with partner {mate}")
    assert "only the rounds" not in plot(ds, PlotKind.CALLS, player=me).get_suptitle()


def test_every_rejected_game_start_says_the_game_is_skipped() -> None:
    log = SPEC / "L002_tientsin_four_players.jsonl"
    first = check_file(log, variants=frozenset())[0]
    assert (first.code, first.line) == ("L002", 1)
    assert first.message == ("game_start needs six distinct, non-empty player names; the game "
                             "is skipped")


def test_replay_names_the_trichu_winner() -> None:
    """A four-player game's totals end with 'won by team N'; a trichu game's had no
    winner line although the person with most points after the last round wins (9.3)."""
    full = REPO / "tests" / "fixtures" / "variants" / "scenario_trichu_full_game.jsonl"
    flat = _replay(full)
    totals = flat.split("Game g1 totals ")[1]
    best = max(((int(p), n) for n, p in re.findall(r"(\w+) (-?\d+)", totals.split(" (")[0])))
    assert f"won by {best[1]}" in totals
    # cut short (S004: game_end after round 2 of 3): nobody has won
    early = _replay(REPO / "tests" / "fixtures" / "variants" / "S004_trichu_game_end_early.jsonl")
    assert "won by" not in early


def test_report_counts_a_won_tch_game_as_played_to_the_end(tmp_path: Path) -> None:
    """A .tch log records no game_end; 'games' calls the won game complete, and the
    report said '0 played to the end' of it."""
    out = tmp_path / "data"
    tch = REPO / "sample_logs" / "2417500.tch"
    assert runner.invoke(app, ["ingest", "--quiet", str(tch), "--out", str(out)]).exit_code == 0
    result = runner.invoke(app, ["report", str(out), "--format", "text"])
    assert "1 game (1 played to the end) from 1 file, 10 rounds" in " ".join(result.stdout.split())
    assert "complete" in runner.invoke(app, ["games", str(tch)]).stdout


def test_won_by_names_a_substitute_of_the_winning_team(tmp_path: Path) -> None:
    """Zoe takes Chloe's seat from round 2 and team 0 wins: 'won by team 0 (Ana + Chloe)'
    left out a winner who played the later rounds."""
    log = tmp_path / "zoe.jsonl"
    log.write_text((SPEC / "L002_ok_round_start_players_substitute.jsonl").read_text()
                   .replace('"players":["Ana","Eve","Chloe","Dev"]',
                            '"players":["Ana","Ben","Zoe","Dev"]'))
    assert "won by team 0 (Ana + Chloe; Zoe from round 2)" in _replay(log)
    assert "won by team 0 (Ana + Chloe)" in _replay(SPEC / "L002_ok_round_start_players_"
                                                           "substitute.jsonl")
