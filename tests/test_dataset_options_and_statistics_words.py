"""Studying strategy from many games: options that a dataset cannot honour, the words of
the plots and the definitions of the statistics."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from cli_helpers import ROOT, SAMPLES, flat, runner

from tichu_analyze.analysis.plots import PlotKind, plot
from tichu_analyze.analysis.stats import Dataset
from tichu_analyze.cli import app
from tichu_analyze.data.datasets import ingest, scan
from tichu_analyze.readers.logfile import write_log
from tichu_analyze.sim.simulate import simulate


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dataset of 12 simulated four-player games among six players."""
    folder = tmp_path_factory.mktemp("r5")
    log = folder / "games.jsonl"
    write_log(simulate(12, 5, players=6), log)
    ingest([log], folder / "data")
    return folder / "data"


@pytest.mark.parametrize("command", [["report", "-f", "text"], ["plot", "-k", "calls", "-o"]])
def test_variant_with_a_dataset_is_an_error_not_a_silent_no_op(
        data: Path, tmp_path: Path, command: list[str]) -> None:
    """``report data --variant tientsin`` reported every game, as if the option were a
    filter that happened to keep everything: the dataset's games were replayed when they
    were ingested, and the option did nothing. It is refused now, saying why."""
    args = [command[0], str(data), *command[1:]]
    if command[-1] == "-o":
        args.append(str(tmp_path / "calls.png"))
    result = runner.invoke(app, [*args, "--variant", "tientsin"])
    assert result.exit_code == 2, result.output
    assert (f"{data} is a dataset: --variant applies to logs only"
            in flat(result.output)), result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "calls.png").exists()


def test_variant_with_logs_still_applies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Logs given to ``report`` are ingested under the house rules given."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    log = SAMPLES / "wish-ignored.jsonl"
    result = runner.invoke(app, ["report", str(log), "-f", "text", "--variant",
                                 "wish-penalty-200"])
    assert result.exit_code == 0, result.output
    assert "W001" in result.output


def _busiest(ds: Dataset) -> str:
    counts = ds.rounds.group_by("player").len().sort("len", "player", descending=True)
    return str(counts.get_column("player")[0])


def test_trend_of_one_player_does_not_claim_to_show_the_field(data: Path) -> None:
    """``plot --kind trend --player X`` draws X alone, but its title said "X against the
    rest of the field" as the plots that draw the field do."""
    ds = Dataset.load(data)
    name = _busiest(ds)
    trend = plot(ds, PlotKind.TREND, player=name).get_suptitle()
    assert name in trend and "rest of the field" not in trend
    calls = plot(ds, PlotKind.CALLS, player=name).get_suptitle()
    assert f"{name} against the rest of the field" in calls  # it does draw the field


def test_a_dragon_trick_given_to_the_partner_counts_as_the_definition_says(
        tmp_path: Path) -> None:
    """The definitions said "Dragon tricks the player gave to an opponent", but a gift
    to the partner (G001, applied as recorded) is counted too, as datasets.md's
    ``dragon_gifts_given`` says: the definition now says so."""
    from tichu_analyze.analysis.stats import PLAYER_STATS, player_table

    ingest([SAMPLES / "dragon-to-partner.jsonl"], tmp_path / "data")
    ds = Dataset.load(tmp_path / "data")
    gift = ds.rounds.filter(pl.col("dragon_gifts_given") > 0).row(0, named=True)
    receiver = ds.rounds.filter(pl.col("dragon_gifts_received") > 0).row(0, named=True)
    assert receiver["player"] == gift["partner"]  # the G001 of the sample
    table = player_table(ds).rows
    assert table[gift["player"]]["dragon_given"].numerator == 1
    assert table[gift["partner"]]["dragon_received"].numerator == 1
    docs = {d.key: d.doc for d in PLAYER_STATS}
    assert "to a partner against the rules (G001), counted too" in docs["dragon_given"]
    assert "by a partner against the rules (G001)" in docs["dragon_received"]


def test_the_trichu_dummys_own_facts_are_in_no_persons_row(tmp_path: Path) -> None:
    """As docs/reports.md now says: the Dragon tricks (and bombs, calls, ...) of the
    dummy's hand are not the solo player's, though the solo player decided them; they
    stay in the dummy's rows (``role = 'dummy'``, ``played_by`` the solo player)."""
    from tichu_analyze.analysis.stats import player_table

    log = tmp_path / "three.jsonl"
    write_log(simulate(10, 4, variants=["trichu"]), log)
    ingest([log], tmp_path / "data")
    ds = Dataset.load(tmp_path / "data")
    assert ds.rounds.filter(pl.col("role") == "dummy").is_empty()  # persons only
    scored = scan(tmp_path / "data", "rounds").filter(pl.col("status") == "scored").collect()
    own = dict(scored.group_by("player").agg(pl.col("dragon_gifts_given").sum()).iter_rows())
    dummy = dict(scored.filter(pl.col("role") == "dummy").group_by("played_by")
                 .agg(pl.col("dragon_gifts_given").sum()).iter_rows())
    assert sum(dummy.values()) > 0
    table = player_table(ds).rows
    assert "Tisch" not in table
    for person in dummy:
        assert table[person]["dragon_given"].numerator == own[person]
    assert "dummy's hand itself" in (ROOT / "docs" / "reports.md").read_text()


def test_the_library_docs_name_where_the_dummys_rows_are(tmp_path: Path) -> None:
    """``Dataset.load(...).rounds`` has no dummy rows, as docs/reports.md now says, and
    ``seat_rows`` has them all, as ``scan`` reads them."""
    log = tmp_path / "three.jsonl"
    write_log(simulate(1, 4, variants=["trichu"]), log)
    ingest([log], tmp_path / "data")
    ds = Dataset.load(tmp_path / "data")
    every = scan(tmp_path / "data", "rounds").collect()
    assert ds.seat_rows.height == every.height == ds.rounds.height * 4 // 3
    assert ds.lrounds.collect().height == ds.rounds.height
    assert "`ds.seat_rows` (lazily `ds.lseats`)" in (ROOT / "docs" / "reports.md").read_text()


def test_moves_after_a_fatal_diagnostic_have_rows_not_applied(tmp_path: Path) -> None:
    """datasets.md said the events of a round after its fatal diagnostic "have no row";
    they have one (``replay`` shows them), not applied, without codes or combination.
    A round the replay did not open (round_start out of sequence) gives no row."""
    ingest([SAMPLES / "card-not-held.jsonl"], tmp_path / "data")
    plays = scan(tmp_path / "data", "plays").filter(pl.col("round") == 1).sort("line").collect()
    assert plays["line"].to_list() == [9, 10, 11, 12]
    assert plays["codes"].to_list() == [["P001"], [], [], []]
    assert not plays["applied"].any()
    assert plays["combo"].is_null().all() and plays["cards_left"].is_null().all()
    assert plays["trick"].is_null().all()  # no lead before the fatal play
    log = tmp_path / "drift.jsonl"
    log.write_text((SAMPLES / "wish-ignored.jsonl").read_text().replace(
        '"type":"round_start","game":"g1","round":1', '"type":"round_start","game":"g1","round":3'))
    ingest([log], tmp_path / "drift")
    assert scan(tmp_path / "drift", "plays").collect().is_empty()
    doc = flat((ROOT / "docs" / "datasets.md").read_text())
    assert "are not applied nor checked, but have a row" in doc


def test_a_players_list_of_bombs_marks_those_played_at_the_dummys_seat(tmp_path: Path) -> None:
    """Eli's page listed 5 bombs played while its "Bombs played per round" said 3: two
    were the dummy's, which Eli played solo (the list counts them, as moves of the solo
    player; the statistics count the player's own seat). The list now says which."""
    from tichu_analyze.analysis.stats import Filters, apply_filters
    from tichu_analyze.views.site import write_site

    log = tmp_path / "three.jsonl"
    write_log(simulate(2, 4, variants=["trichu"]), log)
    ingest([log], tmp_path / "data")
    ds = Dataset.load(tmp_path / "data")
    bomb = ds.plays.filter(pl.col("bomb") & (pl.col("player") != pl.col("played_by"))).collect()
    assert bomb.height == 1  # sim-4-2 round 9: the dummy's four 10s, played by its solo player
    solo, game = bomb["played_by"][0], bomb["game"][0]
    write_site(apply_filters(ds, Filters(game=game)), tmp_path / "site", min_rounds=0)
    pages = [p.read_text() for p in (tmp_path / "site" / "players").glob("*.html")]
    page = next(p for p in pages if f"<title>Tichu report: {solo}" in p)
    assert "10j 10s 10p 10r in trick" in page and "(at the dummy's seat, Tisch)" in page


def test_a_player_absent_from_the_rounds_kept_is_not_said_to_be_absent_from_the_data(
        data: Path, tmp_path: Path) -> None:
    """``--player Hana --game G`` where Hana did not play G said "no player 'Hana' in
    data; the players are: (G's four)", though Hana is in the dataset. It says now that
    Hana played none of the rounds the filters keep, and who did."""
    ds = Dataset.load(data)
    rows = ds.rounds.select("game", "player")
    name = _busiest(ds)
    game = str(rows.filter(~pl.col("game").is_in(
        rows.filter(pl.col("player") == name).get_column("game").implode()))["game"][0])
    for args in (["report", str(data), "-f", "text"],
                 ["plot", str(data), "-k", "calls", "-o", str(tmp_path / "x.png")]):
        result = runner.invoke(app, [*args, "-p", name, "-g", game])
        assert result.exit_code == 2, result.output
        out = flat(result.output)
        assert f"{name!r} played none of the rounds that match the filters (of game {game})" \
            in out, out
        assert "no player" not in out
    result = runner.invoke(app, ["report", str(data), "-f", "text", "-p", "Nobody"])
    assert result.exit_code == 2 and "no player 'Nobody' in" in flat(result.output)


def test_the_expected_value_tables_name_the_hands_of_the_form_played(
        tmp_path: Path, data: Path) -> None:
    """Their notes said "the 14 cards after the exchange" and "the first 8 cards" of a
    dataset of tientsin games, whose hands are 9 or 10 cards and the first 6."""
    from tichu_analyze.analysis.stats import call_expected_value

    log = tmp_path / "six.jsonl"
    write_log(simulate(1, 3, variants=["tientsin"]), log)
    ingest([log], tmp_path / "six")
    six = Dataset.load(tmp_path / "six")
    tichu, grand = (call_expected_value(six, c).note for c in ("tichu", "grand_tichu"))
    assert "strength of the 9 or 10 cards after the exchange (hx_strength)" in tichu
    assert "strength of the first 6 cards (h8_strength)" in grand
    assert "14 cards" not in tichu and "8 cards" not in grand
    four = call_expected_value(Dataset.load(data), "tichu").note
    assert "strength of the 14 cards after the exchange (hx_strength)," in four
    ingest([log, data.parent / "games.jsonl"], tmp_path / "both")
    both = call_expected_value(Dataset.load(tmp_path / "both"), "grand_tichu").note
    assert "first 8 cards (h8_strength; the first 6 cards in tientsin)" in both


def test_the_exchange_plot_of_tientsin_says_the_cards_go_to_two_partners(
        tmp_path: Path, data: Path) -> None:
    """Its legend said "to the partner" and "to the opponents (left and right): 0 cards"
    of six-player games, where each seat gives a card to each of its two partners."""
    log = tmp_path / "six.jsonl"
    write_log(simulate(1, 3, variants=["tientsin"]), log)
    ingest([log], tmp_path / "six")

    def legend(ds: Dataset) -> list[str]:
        fig = plot(ds, PlotKind.EXCHANGE)
        return [t.get_text() for t in fig.axes[0].get_legend().get_texts()]

    six = legend(Dataset.load(tmp_path / "six"))
    assert six[0].startswith("to the two partners: ")
    assert six[1] == "to the opponents (none in tientsin): 0 cards"
    four = legend(Dataset.load(data))
    assert four[0].startswith("to the partner: ")
    assert four[1].startswith("to the opponents (left and right): ")


def test_calls_are_expected_against_hands_of_their_own_form_of_the_game(
        tmp_path: Path, data: Path) -> None:
    """The calibration table's expected share pooled every form's hands in a band: a
    tientsin caller (one of six goes out first) was measured against four-player hands
    (one of four) and the reverse. Each call is now measured against its own form's."""
    from tichu_analyze.analysis.stats import TICHU_BINS, _band, calibration_table

    log = tmp_path / "six.jsonl"
    write_log(simulate(4, 3, variants=["tientsin"]), log)
    ingest([log, data.parent / "games.jsonl"], tmp_path / "both")
    ds = Dataset.load(tmp_path / "both")
    r = ds.scored.with_columns(_band("hx_strength", TICHU_BINS).alias("b"),
                               (pl.col("partners").list.len() == 2).alias("six"))
    base = r.group_by("six", "b").agg(pl.col("first_out").cast(pl.Float64).mean().alias("p"))
    calls = r.filter(pl.col("call") == "tichu").join(base, on=["six", "b"])
    expected = dict(calls.group_by("player").agg(pl.col("p").sum()).iter_rows())
    table = dict(calibration_table(ds).rows)
    assert expected
    for name, value in expected.items():
        assert table[name][1].numerator == round(value, 1), name  # type: ignore[union-attr]
    assert "the same form of the game" in calibration_table(ds).note


def test_a_since_with_an_offset_is_shown_in_utc(data: Path) -> None:
    """``--since 2023-11-20T10:00+02:00`` filtered from 08:00 UTC (right) but the report
    said "of games from 2023-11-20 10:00 UTC": the local time, labelled UTC."""
    from tichu_analyze.analysis.stats import Filters, parse_when

    f = Filters(since=parse_when("2023-11-20T10:00+02:00"),
                until=parse_when("2023-11-21T01:30-05:00"))
    assert f.describe() == ("of games from 2023-11-20 08:00 UTC; "
                            "of games until 2023-11-21 06:30 UTC")
    result = runner.invoke(app, ["report", str(data), "-f", "text", "--since",
                                 "2000-01-01T03:00+03:00"])
    assert result.exit_code == 0, result.output
    assert "Only the rounds of games from 2000-01-01 00:00 UTC." in flat(result.output)


@pytest.mark.parametrize("day", ["2023-11-14", "20231114"])
def test_until_a_day_in_either_iso_form_runs_to_its_end(data: Path, day: str) -> None:
    """``--until 20231114`` (ISO's basic form, which the option accepts) stopped at the
    day's first minute, while ``--until 2023-11-14`` runs to its end."""
    result = runner.invoke(app, ["report", str(data), "-f", "text", "--until", day])
    assert "of games until 2023-11-14 23:59 UTC" in flat(result.output), result.output


def test_a_text_report_of_logs_names_the_logs_not_only_the_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: Path) -> None:
    """``report game.tch -f text`` was titled "Tichu report: ~/.cache/tichu-analyze/
    datasets/2873eb98...": the logs given are named now, the cache after them."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    log = SAMPLES / "wish-ignored.jsonl"
    result = runner.invoke(app, ["report", str(log), "-f", "text"])
    assert result.exit_code == 0, result.output
    assert f"Tichu report: {log} (cached in " in flat(result.output), result.output
    result = runner.invoke(app, ["report", str(data), "-f", "text"])
    assert flat(result.output).startswith(f"Tichu report: {data} "), result.output
    assert "cached in" not in result.output


def test_the_trichu_example_of_datasets_md_runs_and_gives_person_score(tmp_path: Path) -> None:
    """The example lacked its imports (``tichu_analyze.data.datasets``, ``pl``) and grouped by
    game without the file (two files may use one game id); run as written, it gives
    ``games.person_score``."""
    import re

    log = tmp_path / "three.jsonl"
    write_log(simulate(2, 4, variants=["trichu"]), log)
    ingest([log], tmp_path / "data")
    doc = (ROOT / "docs" / "datasets.md").read_text()
    code = next(b for b in re.findall(r"```python\n(.*?)```", doc, re.S) if "persons" in b)
    lines = code.strip().splitlines()
    lines[-1] = "result = " + lines[-1].split("#")[0]
    scope: dict[str, object] = {}
    exec("\n".join(lines).replace('"data"', repr(str(tmp_path / "data"))), scope)
    result = scope["result"]
    assert isinstance(result, pl.DataFrame)
    games = scan(tmp_path / "data", "games").collect()
    joined = result.join(games, on=["file", "game", "player"])
    assert joined.height == games.height == 6
    assert (joined["team_score"] == joined["person_score"]).all()


def test_simulate_players_help_says_the_pool_serves_every_form(tmp_path: Path) -> None:
    """``--players`` said "each game's four players"; a tientsin game draws six from the
    pool, and trichu three persons (the pool needs 4, or 6 in tientsin)."""
    import json

    out = tmp_path / "six.jsonl"
    result = runner.invoke(app, ["simulate", "-n", "1", "--variant", "tientsin", "--players",
                                 "12", "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    start = json.loads(out.read_text().splitlines()[0])
    assert len(set(start["players"])) == 6
    assert all(p.startswith("player-000") for p in start["players"])
    text = flat(runner.invoke(app, ["simulate", "--help"]).output.replace("\u2502", " "))
    assert "six in tientsin, three persons in trichu" in text


def test_the_exchange_table_counts_an_unfinished_rounds_exchange(tmp_path: Path) -> None:
    """As docs/reports.md now says (it said every depth table counts scored rounds): a
    round cut after its exchange is in the exchange table and plot."""
    from tichu_analyze.analysis.stats import exchange_table

    log = tmp_path / "cut.jsonl"
    log.write_text("".join((SAMPLES / "wish-ignored.jsonl").read_text()
                           .splitlines(keepends=True)[:12]))
    ingest([log], tmp_path / "data")
    ds = Dataset.load(tmp_path / "data")
    assert ds.scored.is_empty()
    cells = dict(exchange_table(ds).rows)
    assert cells and all(row[0].denominator == 1 for row in cells.values())  # type: ignore[union-attr]
    plot(ds, PlotKind.EXCHANGE)  # drawn, where the other plots have no scored round
    assert "every\nround whose exchange completed, scored or not" in (
        ROOT / "docs" / "reports.md").read_text()


def test_the_html_report_and_site_of_logs_name_the_logs_not_only_the_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: Path) -> None:
    """As the text report does: the page's and the site's headers name the logs given, then
    the cache; a report of a dataset names the dataset."""
    import html
    import re

    def words(path: Path) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", path.read_text()))

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    log = SAMPLES / "wish-ignored.jsonl"
    page, site = tmp_path / "r.html", tmp_path / "site"
    for out in (page, site / ""):
        result = runner.invoke(app, ["report", str(log), "-f", "html", "-o", str(out)])
        assert result.exit_code == 0, result.output
    for written in (page, site / "index.html", *sorted((site / "players").glob("*.html"))[:1]):
        assert f"Logs {log} (cached in " in words(written), written
    result = runner.invoke(app, ["report", str(data), "-f", "html", "-o", str(page)])
    assert result.exit_code == 0, result.output
    text = words(page)
    assert f"Dataset {data};" in text and "cached in" not in text
