"""A corpus of `.tch` files validated, converted, ingested and studied, with the mistakes
a new user makes, and the README's library section followed as printed."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest
from cli_helpers import ROOT, SAMPLES, WISH, flat, runner

from tichu_analyze.cli import app
from tichu_analyze.data.datasets import MARKER

TCH = SAMPLES / "2417500.tch"


# -- convert: a file that gives no game ---------------------------------------------------


def test_convert_an_empty_tch_keeps_no_game_id_from_its_copy(tmp_path: Path) -> None:
    """An empty `2417500.tch` met first wrote no game: the real copy of the game in the
    other folder was left out as 'already written from' the empty file, and the output
    held nothing."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "2417500.tch").write_bytes(b"")
    (tmp_path / "b" / "2417500.tch").write_bytes(TCH.read_bytes())
    alone = runner.invoke(app, ["convert", str(tmp_path / "b"), "-o", str(tmp_path / "b.jsonl")])
    assert alone.exit_code == 0, alone.output
    result = runner.invoke(app, ["convert", str(tmp_path), "-o", str(tmp_path / "all.jsonl")])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "already written" not in out
    assert f"note: {tmp_path / 'a' / '2417500.tch'} holds no game: nothing written for it" in out
    assert "of 1 game to" in out
    assert (tmp_path / "all.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_convert_counts_the_games_it_wrote_not_the_files(tmp_path: Path) -> None:
    """A web page saved as `.tch` (a failed download) writes no game: 'wrote N events of
    2 games' said two where the log holds one."""
    (tmp_path / "1.tch").write_text("<!DOCTYPE html>\n<html><body>Not found</body></html>\n")
    (tmp_path / "2417500.tch").write_bytes(TCH.read_bytes())
    result = runner.invoke(app, ["convert", str(tmp_path), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 1  # a line not understood
    out = flat(result.output)
    assert "1.tch:1: not understood" in out
    assert "of 1 game to" in out
    assert "holds no game" not in out  # its line not understood says why already
    starts = (tmp_path / "out.jsonl").read_bytes().count(b'"type":"game_start"')
    assert starts == 1


def test_convert_without_tch_files_names_what_it_was_given(tmp_path: Path) -> None:
    result = runner.invoke(app, ["convert", str(WISH), "-o", str(tmp_path / "out.jsonl")])
    assert result.exit_code == 2
    out = flat(result.output)
    assert f"no .tch files found in {WISH}" in out
    assert "format-1 logs are read as they are" in out
    assert not (tmp_path / "out.jsonl").exists()


# -- a dataset where logs are expected ---------------------------------------------------


def _dataset(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    (data / "rounds").mkdir(parents=True)
    (data / MARKER).write_text('{"dataset": "tichu-analyze", "schema_version": 2}')
    return data


@pytest.mark.parametrize("command", [["check"], ["games"], ["ingest", "-o", "OUT"]])
def test_a_dataset_folder_given_as_logs_says_what_it_is(tmp_path: Path,
                                                        command: list[str]) -> None:
    data = _dataset(tmp_path)
    args = [a.replace("OUT", str(tmp_path / "out")) for a in command] + [str(data)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    out = flat(result.output)
    assert f"no log files found in {data}" in out
    assert (f"{data} is a dataset written by 'tichu-analyze ingest', which 'tichu-analyze "
            f"report {data}' and 'plot' read") in out
    assert not (tmp_path / "out").exists()


def test_an_empty_folder_gets_no_dataset_hint(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path)])
    assert result.exit_code == 2
    assert "no log files found" in result.output and "dataset" not in result.output


def _parquet(path: Path) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"player": ["Ana", "Ben"], "round": [1, 2]}), path)
    return path


@pytest.mark.parametrize("command", ["check", "games", "ingest"])
def test_a_parquet_file_given_as_a_log_is_one_error(tmp_path: Path, command: str) -> None:
    """A table of a dataset given by name was read as JSON lines: one L001 per 'line' of
    its bytes, some saying it 'looks like UTF-16', exit status 1, and `ingest` wrote a
    dataset of those L001s."""
    table = _parquet(tmp_path / "part-1.parquet")
    args = [command, str(table)] + (["-o", str(tmp_path / "out")] if command == "ingest" else [])
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    out = flat(result.output)
    assert f"{table}: cannot read: the file is a Parquet file, not a log" in out
    assert "L001" not in out and "UTF-16" not in out
    assert not (tmp_path / "out").exists()


# -- plot --------------------------------------------------------------------------------


def test_a_trend_of_a_player_with_too_few_games_names_the_player(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ingested = runner.invoke(app, ["ingest", str(WISH), "-o", str(data), "-q"])
    assert ingested.exit_code == 0, ingested.output
    result = runner.invoke(app, ["plot", str(data), "-k", "trend", "-p", "Ana",
                                 "-o", str(tmp_path / "t.png")])
    assert result.exit_code == 2
    assert (f"{data}: 1 game of Ana with a scored round; a trend needs 5 or more"
            in flat(result.output))


@pytest.mark.parametrize("command", ["report", "plot"])
def test_report_and_plot_help_give_the_exit_status(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    out = flat(result.output)
    assert "Exit status: 0 when" in out and "2 when" in out and "130 when interrupted" in out


# -- the library, as the README shows it -------------------------------------------------


def test_replay_file_takes_a_str_as_check_file_does() -> None:
    """`replay_file("games.jsonl", visitor)` raised AttributeError ('str' object has no
    attribute 'name'), where `check_file("games.jsonl")` works."""
    from tichu_analyze.core.record import Recorder
    from tichu_analyze.readers.logfile import replay_file

    for log in (WISH, TCH):
        by_str, by_path = Recorder(), Recorder()
        stats = replay_file(str(log), by_str)
        replay_file(log, by_path)
        assert stats.games == 1 and stats.path == str(log)
        assert len(by_str.rounds) == len(by_path.rounds) > 0
        assert [d.line for d in by_str.diagnostics] == [d.line for d in by_path.diagnostics]


def _library_examples() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Using it as a library", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_readme_library_examples_run_as_printed(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    examples = _library_examples()
    assert len(examples) == 2
    (tmp_path / "games.jsonl").write_bytes((SAMPLES / "late-tichu.jsonl").read_bytes()
                                           + (SAMPLES / "simulated-5-games.jsonl").read_bytes())
    monkeypatch.chdir(tmp_path)
    printed = []
    for code in examples:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
        printed.append(out.getvalue())
    assert printed[0].startswith("C002 12 Chloe (seat 2) calls Tichu after playing a card")
    visitor = printed[1].splitlines()
    assert visitor[0].split()[:2] == ["C002", "12"]  # the visitor's diagnostic, indented
    assert any(line.endswith((" made", " failed")) for line in visitor), visitor
    assert os.getcwd() == str(tmp_path)


def test_a_date_filter_on_games_without_dates_says_why_nothing_matches(tmp_path: Path) -> None:
    """`.tch` games record no time: `--since` kept nothing and the error said only 'no
    rounds match the filters', as if the dates were wrong."""
    data = tmp_path / "data"
    assert runner.invoke(app, ["ingest", str(TCH), "-o", str(data), "-q"]).exit_code == 0
    for command in (["report", str(data), "-f", "text"],
                    ["plot", str(data), "-k", "calls", "-o", str(tmp_path / "c.png")]):
        result = runner.invoke(app, [*command, "--since", "2024-01-01"])
        assert result.exit_code == 2
        assert (f"{data}: no game has a start time (no ts on its moves, no "
                "game_start.meta.date; .tch files record neither), so --since and --until "
                "keep no round") in flat(result.output)
    dated = runner.invoke(app, ["report", str(SAMPLES / "simulated-5-games.jsonl"), "-f", "text",
                                "--since", "2100-01-01"],
                          env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert dated.exit_code == 2
    assert "no rounds match the filters" in flat(dated.output)


@pytest.mark.parametrize("append", [False, True])
def test_ingest_into_a_folder_of_other_files_says_what_it_refuses(tmp_path: Path,
                                                                   append: bool) -> None:
    """With --append the refusal said 'refusing to replace it', as if the folder had been
    about to be replaced."""
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("mine")
    result = runner.invoke(app, ["ingest", str(WISH), "-o", str(tmp_path / "notes"), "-q"]
                           + (["--append"] if append else []))
    assert result.exit_code == 2
    verb = "add to" if append else "replace"
    assert f"refusing to {verb} it: choose a new or empty directory" in flat(result.output)
    assert os.listdir(tmp_path / "notes") == ["a.txt"]


@pytest.mark.parametrize("table", ["rounds", "rounds/player=Ana"])
def test_a_table_folder_given_to_report_names_its_dataset(tmp_path: Path, table: str) -> None:
    data = _dataset(tmp_path)
    (data / table).mkdir(parents=True, exist_ok=True)
    result = runner.invoke(app, ["report", str(data / table), "-f", "text"])
    assert result.exit_code == 2
    assert (f"{data / table}: not a dataset and no log files (.jsonl, .jsonl.gz, .jsonl.zst, "
            f".tch) in it; it is inside the dataset {data.resolve()}: give that"
            in flat(result.output))


def test_the_hands_are_bitmasks_as_the_readme_says() -> None:
    """The README said only 'a RoundState has the hands': `len(rnd.hands[seat])` raised
    TypeError in a researcher's first visitor. It now says how to read them."""
    from tichu_analyze.core.cards import tokens_of
    from tichu_analyze.core.state import GameState, RoundState, Trick
    from tichu_analyze.core.visitor import Visitor
    from tichu_analyze.readers.logfile import replay_file

    readme = flat((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "per seat an `int` bitmask of card ids: `cards.tokens_of(mask)`" in readme
    seen: list[tuple[int, list[str]]] = []

    class Hands(Visitor):
        def visit_trick(self, game: GameState, rnd: RoundState, trick: Trick) -> None:
            if trick.number == 1:
                hand = rnd.hands[trick.leader]
                seen.append((hand.bit_count(), tokens_of(hand)))

    replay_file(TCH, Hands())
    assert seen and all(n == len(cards) for n, cards in seen)
    assert all(isinstance(c, str) and c for _, cards in seen for c in cards)


def test_tch_files_joined_into_one_get_s004_as_docs_bsw_says(tmp_path: Path) -> None:
    """docs/bsw.md said a `.tch` file gets no S004; rounds played after the game was won
    (two games' files joined into one) do get it."""
    assert "S004 (a warning) fires only when" in flat(
        (ROOT / "docs" / "bsw.md").read_text(encoding="utf-8"))
    joined = tmp_path / "joined.tch"
    joined.write_bytes(TCH.read_bytes() * 2)
    result = runner.invoke(app, ["check", str(joined), "-f", "json", "-q"])
    assert '"code": "S004"' in result.output and '"severity": "warning"' in result.output
    alone = runner.invoke(app, ["check", str(TCH), "-f", "json", "-q"])
    assert "S004" not in alone.output


@pytest.mark.parametrize("command", [
    ["plot", str(TCH), "-k", "calls", "-o", "OUT.png"],
    ["convert", str(TCH), "-o", "OUT.jsonl"],
    ["replay", str(TCH), "-r", "1", "-f", "html", "-o", "OUT.html"],
])
def test_an_output_in_a_missing_folder_says_the_folder_is_missing(tmp_path: Path,
                                                                   command: list[str]) -> None:
    """'OUT: cannot write: No such file or directory' read as if the output file had to
    exist already; `ingest` and a report site create their folders, the others do not."""
    folder = tmp_path / "plots"
    args = [a.replace("OUT", str(folder / "out")) for a in command]
    result = runner.invoke(app, args, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.exit_code == 2
    assert (f"cannot write: No such file or directory (the folder {folder} does not exist)"
            in flat(result.output))
    assert not folder.exists()


def test_a_folder_of_tch_games_saved_as_txt_names_one_and_says_how_to_read_it(
        tmp_path: Path) -> None:
    """Games downloaded as `.txt` were passed over in silence: 'no log files found' gave
    no clue that the files are there and read when named."""
    (tmp_path / "dl" / "sub").mkdir(parents=True)
    (tmp_path / "dl" / "sub" / "2417500.txt").write_bytes(TCH.read_bytes())
    (tmp_path / "dl" / ".hidden").write_text("x")
    result = runner.invoke(app, ["check", str(tmp_path / "dl")])
    assert result.exit_code == 2
    assert (f"other files, such as {tmp_path / 'dl' / 'sub' / '2417500.txt'}, are passed "
            "over: a log named otherwise is read when given by name") in flat(result.output)
    named = runner.invoke(app, ["check", str(tmp_path / "dl" / "sub" / "2417500.txt"), "-q"])
    assert named.exit_code == 0, named.output
