"""``check`` wired into nightly validation and CI (exit statuses, formats, baselines,
configuration), and a disputed round audited with ``replay``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import ROOT, SAMPLES, WISH, flat, runner

from tichu_analyze.cli import app
from tichu_analyze.readers.logfile import check_file


def _sarif_uris(output: str) -> list[str]:
    run = json.loads(output)["runs"][0]
    return [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in run["results"]]


def test_sarif_locations_are_uris_for_paths_with_spaces_hashes_and_absolute_paths(
        tmp_path: Path, monkeypatch) -> None:
    """SARIF's ``artifactLocation.uri`` is a URI reference (RFC 3986): a log named
    ``a b#1%.jsonl`` was written as is, so a code-scanning tool read ``#1%.jsonl`` as a
    fragment; an absolute path was a bare path, not a ``file://`` URI."""
    folder = tmp_path / "night logs"
    folder.mkdir()
    shutil.copy(WISH, folder / "a b#1%.jsonl")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["check", "night logs", "-q", "-f", "sarif"])
    assert result.exit_code == 1, result.output
    assert _sarif_uris(result.stdout) == ["night%20logs/a%20b%231%25.jsonl"]
    result = runner.invoke(app, ["check", str(folder), "-q", "-f", "sarif"])
    assert _sarif_uris(result.stdout) == [(folder / "a b#1%.jsonl").as_uri()]
    assert _sarif_uris(result.stdout)[0].startswith("file:///")


def test_a_pipe_given_as_a_log_is_not_called_missing(tmp_path: Path) -> None:
    """``zcat day.jsonl.gz | check /dev/stdin`` (or ``check <(zcat ...)``) said
    "/dev/stdin: no such file or directory", which is false: it exists, it is a pipe,
    which ``check`` does not read (it reads a log more than once)."""
    import os

    fifo = tmp_path / "stream.jsonl"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["check", str(fifo), "-q"])
    assert result.exit_code == 2, result.output
    assert "no such file" not in result.output
    assert f"{fifo}: not a regular file (a pipe or a device)" in flat(result.output)


def test_a_dash_for_standard_input_is_not_called_missing(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``zcat day.jsonl.gz | check -``, as with a linter: the dash is standard input,
    which ``check`` does not read; it said "-: no such file or directory"."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["check", "-", "-q"], input="{}\n")
    assert result.exit_code == 2, result.output
    assert "no such file" not in result.output
    assert "-: standard input is not read; write the log to a file" in flat(result.output)
    (tmp_path / "-").write_text("")  # a file that is named "-" is a file
    assert runner.invoke(app, ["check", "-", "-q"]).exit_code == 0


def test_an_empty_log_passes_with_a_note_saying_it_held_nothing(tmp_path: Path) -> None:
    """A server that crashed before writing a line leaves an empty log: it passed with
    "0 games" and not a word. It still passes (no rule is broken), with a note on stderr
    naming the file; ``-q`` silences it with the summary."""
    (tmp_path / "empty.jsonl").write_bytes(b"")
    (tmp_path / "blank.jsonl").write_bytes(b"\n\r\n\n")
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"note: {tmp_path / 'empty.jsonl'} holds nothing (an empty file)" in result.stderr
    assert f"note: {tmp_path / 'blank.jsonl'} holds only blank lines" in result.stderr
    assert "2 files, 0 games, 0 rounds, 0 events: no diagnostics" in result.stderr
    assert result.stdout == ""
    quiet = runner.invoke(app, ["check", str(tmp_path), "-q"])
    assert quiet.exit_code == 0 and quiet.output == ""
    assert "note:" not in runner.invoke(app, ["check", str(WISH)]).stderr
    # a .gz cut before its first line has no event either, but its L001 says why: no note
    import gzip

    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(gzip.compress(WISH.read_bytes())[:12])
    result = runner.invoke(app, ["check", str(cut)])
    assert result.exit_code == 1 and "L001" in result.stdout
    assert "note:" not in result.stderr


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_a_utf16_log_is_one_l001_saying_so(tmp_path: Path, encoding: str, suffix: str) -> None:
    """A log saved as UTF-16 (Windows' 'Unicode', with or without a byte order mark)
    was one L001 per line, each saying it looks like UTF-16: a screenful for one
    mistake. It is one L001 at line 1 naming the encoding; the file is not read."""
    import gzip

    data = WISH.read_text(encoding="utf-8").encode(encoding)
    log = tmp_path / f"day{suffix}"
    log.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
    found = check_file(log)
    assert [(d.code, d.line) for d in found] == [("L001", 1)]
    assert found[0].message == ("the file is UTF-16 text, and logs are UTF-8: it is not "
                                "read (save it as UTF-8)")
    result = runner.invoke(app, ["check", str(log)])
    assert result.exit_code == 1
    assert "1 file, 0 games, 0 rounds, 1 event: 1 diagnostic" in result.stderr


def test_a_utf8_log_with_a_nul_or_a_utf16_bom_on_its_first_line_is_read_on(
        tmp_path: Path) -> None:
    """Only a first line that reads as a JSON object in UTF-16 makes the file UTF-16: a
    UTF-8 log with junk at its start keeps its diagnostics line by line."""
    text = WISH.read_bytes()
    for junk in (b"\xff\xfe", b"{\x00", b"\x00{"):
        log = tmp_path / "junk.jsonl"
        log.write_bytes(junk + b"\n" + text)
        found = check_file(log)
        assert [d.code for d in found][:1] == ["L001"] and len(found) > 1, junk
        assert "W001" in [d.code for d in found]


# ------------------------------------------------------------ a tournament director's audit

DISPUTED = ROOT / "tests" / "fixtures" / "audit" / "disputed.jsonl"


def _with_stray_deal(tmp_path: Path) -> Path:
    """disputed.jsonl with round 2's first deal repeated right after round 1's round_end
    (line 62), before round 2's round_start: a recorder that dealt before starting the
    round."""
    lines = DISPUTED.read_text(encoding="utf-8").splitlines(keepends=True)
    assert '"round_end"' in lines[60] and '"round_start"' in lines[61]
    log = tmp_path / "stray.jsonl"
    log.write_text("".join(lines[:61] + [lines[62]] + lines[61:]), encoding="utf-8")
    return log


def test_a_stray_deal_after_round_end_is_shown_after_the_result_not_inside_it(
        tmp_path: Path) -> None:
    """The L007 of a deal that came after round 1's round_end (and before round 2's
    round_start) was printed inside 'Result of round 1', between the recorded round_end
    and the finish order, as if it were part of the result. It now follows the result,
    under a heading saying these lines are no part of the round."""
    log = _with_stray_deal(tmp_path)
    result = runner.invoke(app, ["replay", str(log), "-r", "1", "--color", "never"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    result_at = text.index("Result of round 1")
    stray_at = text.index("After round 1's round_end (not part of any round)")
    assert result_at < text.index("  finish order") < text.index("  recorded ") < stray_at
    assert text.index("L007 out-of-sequence: a deal is not allowed after the round ended") \
        > stray_at
    assert "line 62  ✗ L007 out-of-sequence · after the round" in text
    # the HTML page says the same
    page = tmp_path / "r1.html"
    result = runner.invoke(app, ["replay", str(log), "-r", "1", "-f", "html", "-o", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    assert html.index('class="result grid"') < html.index(
        "After round 1&#x27;s round_end (not part of any round)") < html.index(
        "a deal is not allowed after the round ended")


def test_games_counts_the_diagnostics_that_belong_to_no_game(tmp_path: Path) -> None:
    """A log whose last line (its game_end) was cut short: ``check`` reports the L001,
    but ``games`` said "no diagnostics" for the file, since a line that is not JSON
    names no game. It now says on stderr how many diagnostics lie outside the games
    listed, and where to see them; the listing itself is unchanged."""
    log = tmp_path / "night 3.jsonl"
    data = (SAMPLES / "simulated-5-games.jsonl").read_bytes()
    log.write_bytes(data[:-20])
    result = runner.invoke(app, ["games", str(log)])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 5
    assert (f"{log}: 1 error outside the games listed; 'tichu-analyze check '{log}'' "
            "shows them") in flat(result.stderr)
    as_json = runner.invoke(app, ["games", str(log), "-f", "json"])
    assert [json.loads(line)["game"] for line in as_json.stdout.splitlines()] == [
        f"sim-2026-{n}" for n in range(1, 6)]
    assert "1 error outside the games listed" in as_json.stderr
    clean = runner.invoke(app, ["games", str(SAMPLES / "wish-ignored.jsonl")])
    assert "outside" not in clean.output


def test_logs_compressed_otherwise_than_gzip_or_zstd_are_named_not_misread(
        tmp_path: Path) -> None:
    """An operator who compressed old logs with xz or bzip2: in a folder they were passed
    over without a word (the nightly check kept passing); given by name they were read as
    text, one L001 per line of binary. In a folder they are now named in a note; by name
    each is one error saying what the file is (exit status 2). A gzip file named .jsonl
    is told to be named .jsonl.gz."""
    import bz2
    import gzip
    import lzma

    data = WISH.read_bytes()
    (tmp_path / "day1.jsonl").write_bytes(data)
    (tmp_path / "day2.jsonl.bz2").write_bytes(bz2.compress(data))
    (tmp_path / "day3.jsonl.xz").write_bytes(lzma.compress(data))
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 1, result.output
    assert (f"note: not read, being compressed with neither gzip nor zstd: "
            f"{tmp_path / 'day2.jsonl.bz2'}, {tmp_path / 'day3.jsonl.xz'}") in flat(result.stderr)
    assert "1 file, 1 game" in result.stderr
    assert "note:" not in runner.invoke(app, ["check", str(tmp_path), "-q"]).output
    for name, what in [("day2.jsonl.bz2", "bzip2-compressed; logs are read as they are"),
                       ("day3.jsonl.xz", "xz-compressed; logs are read as they are")]:
        result = runner.invoke(app, ["check", str(tmp_path / name)])
        assert result.exit_code == 2, result.output
        assert "L001" not in result.output
        assert f"{tmp_path / name}: cannot read: the file is {what}" in flat(result.stderr)
    renamed = tmp_path / "day4.jsonl"
    renamed.write_bytes(gzip.compress(data))
    result = runner.invoke(app, ["check", str(renamed)])
    assert result.exit_code == 2
    assert "the file is gzip-compressed, but not named .gz: name it .jsonl.gz" in result.stderr


def test_replay_of_a_folder_says_it_is_a_folder(tmp_path: Path) -> None:
    """``replay logs/`` said "logs/: no such file" of a folder that exists."""
    result = runner.invoke(app, ["replay", str(tmp_path)])
    assert result.exit_code == 2
    assert "no such file" not in result.output
    assert f"{tmp_path}: a folder; replay shows one log file" in flat(result.output)


def test_config_and_isolated_together_are_refused(tmp_path: Path) -> None:
    """``--config ci.toml --isolated`` ignored the file named without a word: the CI's
    settings were silently not in force."""
    config = tmp_path / "ci.toml"
    config.write_text('ignore = ["W"]\n')
    result = runner.invoke(app, ["check", str(WISH), "--config", str(config), "--isolated"])
    assert result.exit_code == 2, result.output
    assert "--config and --isolated cannot be used together" in result.output
    assert runner.invoke(app, ["check", str(WISH), "--config", str(config)]).exit_code == 0


def test_an_unknown_game_id_names_the_games_of_a_small_file() -> None:
    """A director who mistyped the game id read "it holds 1 game" without its id (the
    docs promised "it holds 1 game: 'g1'"). Up to three games are named."""
    result = runner.invoke(app, ["replay", str(DISPUTED), "--game", "g9"])
    assert result.exit_code == 2
    assert "game 'g9' is not in" in flat(result.output)
    assert "it holds 1 game: 'g1' ('tichu-analyze games " in flat(result.output)
    five = runner.invoke(app, ["replay", str(SAMPLES / "simulated-5-games.jsonl"), "-g", "x"])
    assert "it holds 5 games ('tichu-analyze games " in flat(five.output)


def test_the_recorded_score_of_an_unscored_round_is_not_said_to_count() -> None:
    """Round 2 of disputed.jsonl is skipped (X001): its result said the recorded score
    40 to 160 was "counted towards the game total", while the totals below (and S003,
    rules.md 8) add nothing for a round that is not scored: -210 to 210 is round 1's
    score alone."""
    result = runner.invoke(app, ["replay", str(DISPUTED), "-g", "g1", "--color", "never"])
    text = flat(result.stdout)
    assert "counted towards" not in text
    assert ("recorded team 0 40 · team 1 160 (not counted: a round that is not scored adds "
            "nothing to the game total)") in text
    assert "totals team 0 -210 · team 1 210" in text


def test_games_help_says_the_score_is_the_replayed_sum() -> None:
    """``games --help`` (and the README) said the score was "the recorded one where a
    round could not be scored"; it is the sum of the rounds the replay scored, as the
    listing shows: disputed.jsonl's round 2 (skipped, recorded 40 to 160) adds nothing."""
    listing = runner.invoke(app, ["games", str(DISPUTED)]).stdout
    assert "; -210 to 210; " in listing
    help_text = flat(runner.invoke(app, ["games", "--help"]).stdout)
    assert "the recorded one" not in help_text
    assert "a round that could not be scored adds nothing" in help_text


def test_a_line_cut_by_a_crash_that_runs_into_the_next_game_start_names_it(
        tmp_path: Path) -> None:
    """A server crashed in the middle of a line and, restarted, appended the next game
    to the same log: the cut line runs into the new game_start. Every event of the new
    game is L005 (rules.md 8, as before), but each said only "no game_start before it",
    though the game_start is there, at the broken line; they now point at it, as for
    any game_start that is not valid JSON."""
    first = WISH.read_text(encoding="utf-8").splitlines()
    second = (SAMPLES / "late-tichu.jsonl").read_text(encoding="utf-8").replace('"g1"', '"g2"')
    log = tmp_path / "server.jsonl"
    log.write_text("\n".join(first[:12]) + "\n" + first[12][:30] + second, encoding="utf-8")
    found = check_file(log)
    codes = [d.code for d in found]
    cut = [d for d in found if d.code == "L001"]
    assert len(cut) == 1 and cut[0].line == 13 and cut[0].game == "g2"
    l005 = [d for d in found if d.code == "L005"]
    assert l005 and all(d.game == "g2" for d in l005)
    assert all(d.message.endswith("(its game_start at line 13 is not valid)") for d in l005)
    assert codes.count("L008") == 1  # game g1, cut in its first round


def test_an_empty_path_is_refused_not_read_as_the_current_folder(
        tmp_path: Path, monkeypatch) -> None:
    """``check "$LOGS"`` with the variable unset gave check one empty argument, which was
    read as '.', the current folder: a CI job checked whatever was there (or failed with
    'no log files found in .'). It is a usage error (exit status 2)."""
    shutil.copy(WISH, tmp_path / "here.jsonl")
    monkeypatch.chdir(tmp_path)
    for command in (["check"], ["games"]):
        result = runner.invoke(app, [*command, ""])
        assert result.exit_code == 2, result.output
        assert "an empty path (an unset variable?)" in flat(result.output)
        assert "W001" not in result.output and "here.jsonl" not in result.output
    assert runner.invoke(app, ["check", "."]).exit_code == 1


def test_dash_as_an_output_is_refused_not_written_as_a_file_named_dash(
        tmp_path: Path, monkeypatch) -> None:
    """``check logs/ -f sarif -o -`` (the usual spelling of standard output) wrote the
    findings to a file named '-' in the current folder, and nothing to standard output."""
    monkeypatch.chdir(tmp_path)
    for args in (["check", str(WISH), "-o", "-"], ["check", str(WISH), "--write-baseline", "-"],
                 ["replay", str(WISH), "-o", "-"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "'-' is not a file name" in flat(result.output)
    assert list(tmp_path.iterdir()) == []
