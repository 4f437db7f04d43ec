"""Datasets, reports and plots of the six-player (`tientsin`) and three-player (`trichu`)
variants (rules.md 9.2, 9.3): facts that must hold in the rows of simulated games, checked
against the engine's own state (a Recorder over the same logs), never against numbers
worked out again here."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.record import Recorder
from tichu_analyze.data.datasets import TABLES, DatasetError, ingest, scan
from tichu_analyze.readers.logfile import replay_file, write_log
from tichu_analyze.sim.simulate import simulate

pytestmark = pytest.mark.engine  # also run against the compiled build (make test-compiled)

VARIANTS = Path(__file__).parent / "fixtures" / "variants"
runner = CliRunner()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("variant-logs")
    out = {}
    for variant, seed in (("tientsin", 5), ("trichu", 6)):
        out[variant] = folder / f"{variant}.jsonl"
        write_log(simulate(4, seed, variants=[variant]), out[variant])
    return out


@pytest.fixture(scope="module")
def data(logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for variant, log in logs.items():
        out[variant] = tmp_path_factory.mktemp(f"ds-{variant}") / "data"
        result = ingest([log], out[variant])
        assert result.written and not result.errors
    return out


def _recorded(log: Path) -> Recorder:
    recorder = Recorder()
    replay_file(log, recorder)
    assert not recorder.diagnostics
    return recorder


def _tables(path: Path) -> dict[str, pl.DataFrame]:
    return {t: scan(path, t).collect() for t in TABLES}


def test_tientsin_six_players_and_teams_of_three(data: dict[str, Path],
                                                 logs: dict[str, Path]) -> None:
    t = _tables(data["tientsin"])
    recorder = _recorded(logs["tientsin"])
    for game in recorder.games:
        rows = t["games"].filter(pl.col("game") == game.id)
        assert rows.height == 6 and rows["player"].n_unique() == 6
        assert sorted(rows["seat"].to_list()) == list(range(6))
        for row in rows.iter_rows(named=True):
            assert row["team"] == row["seat"] % 2 and row["partner"] is None
            assert row["partners"] == [game.players[(row["seat"] + k) % 6] for k in (2, 4)]
            totals = game.totals
            assert totals is not None and row["team_score"] == totals[row["team"]]
            assert row["won"] == (game.won_by == row["team"])
    rounds = t["rounds"]
    assert rounds.group_by("game", "round").len()["len"].to_list() == [6] * len(
        recorder.rounds)
    for rec in recorder.rounds:
        state, result = rec.state, rec.state.result
        assert result is not None
        rows = rounds.filter((pl.col("game") == rec.game) & (pl.col("round") == state.number))
        for row in rows.iter_rows(named=True):
            seat, team = row["seat"], row["seat"] % 2
            assert row["player"] == state.players[seat]
            assert row["team_score"] == result.score[team]
            assert row["opponent_score"] == result.score[1 - team]
            assert row["team_call_points"] == result.call_points[team]
            assert row["finish_position"] == result.finish_order.index(seat) + 1
            assert row["team_victory_for"] == (result.double_victory
                                               and result.finish_order[0] % 2 == team)
            assert row["double_victory_for"] is None and row["partner"] is None
            assert len(row["partners"]) == 2 and len(row["opponents"]) == 3
            # the exchange goes to the two partners only (rules 9.2)
            assert len(row["gave_to_partners"]) == 2 and row["gave_to_opponents"] == []
            assert row["gave_to_left"] is None and row["gave_to_partner"] is None
            gives = state.exchanges[seat]
            assert gives is not None
            assert row["gave_to_partners"] == [
                _token(gives[p]) for p in state.partners(seat)]
        by_team = rows.group_by("team").agg(pl.col("team_card_points").first(),
                                            pl.col("team_score").n_unique())
        assert by_team["team_score"].to_list() == [1, 1]
        # the card points of the two teams make 100, or 300 to a triple victory's winners
        assert by_team["team_card_points"].sum() == (300 if result.double_victory else 100)
        assert rows["card_points"].sum() == sum(result.pile_points)


def _token(card: int) -> str:
    from tichu_analyze.core.cards import TOKENS

    return TOKENS[card]


def test_trichu_roles_and_person_credit(data: dict[str, Path], logs: dict[str, Path]) -> None:
    t = _tables(data["trichu"])
    recorder = _recorded(logs["trichu"])
    rounds = t["rounds"]
    for rec in recorder.rounds:
        state, result = rec.state, rec.state.result
        assert result is not None
        rows = rounds.filter((pl.col("game") == rec.game) & (pl.col("round") == state.number))
        assert rows.height == 4
        assert Counter(rows["role"].to_list()) == {"solo": 1, "dummy": 1, "pair": 2}
        solo = rows.filter(pl.col("role") == "solo").row(0, named=True)
        dummy = rows.filter(pl.col("role") == "dummy").row(0, named=True)
        assert solo["seat"] == state.solo and dummy["seat"] == state.dummy
        assert dummy["player"] == state.players[state.dummy]
        assert dummy["played_by"] == solo["player"] == state.players[state.solo]
        assert dummy["call"] != "grand_tichu" and solo["call"] != "grand_tichu"  # C004
        for row in rows.iter_rows(named=True):
            team = row["seat"] % 2
            # every person scores the points of the team it sat in (rules 9.3)
            assert row["team_score"] == result.score[team]
            # the exchange goes to the other team's two seats (rules 9.3)
            assert row["gave_to_partners"] == [] and len(row["gave_to_opponents"]) == 2
            assert row["gave_to_partner"] is None and row["gave_to_left"] is not None
        by_team = rows.group_by("team").agg(pl.col("team_card_points").first())
        assert by_team["team_card_points"].sum() == (200 if result.double_victory else 100)
    games = t["games"]
    for game in recorder.games:
        rows = games.filter(pl.col("game") == game.id)
        persons = game.person_totals
        assert persons is not None and len(persons) == 3
        assert dict(zip(rows["player"], rows["person_score"], strict=True)) == persons
        assert rows["team"].is_null().all() and rows["team_score"].is_null().all()
        assert rows["rounds_played"].to_list() == [game.rounds] * 3
        winner = game.person_winner
        assert rows.filter(pl.col("won"))["player"].to_list() == (
            [winner] if winner is not None else [])
        # the same totals from the rounds table, the dummy's rows left out
        mine = rounds.filter((pl.col("game") == game.id) & (pl.col("role") != "dummy"))
        summed = mine.group_by("player").agg(pl.col("team_score").sum())
        assert dict(summed.iter_rows()) == persons
        assert Counter(mine.filter(pl.col("role") == "solo")["player"].to_list()) == {
            name: game.target // 3 for name in persons}
    plays = t["plays"]
    dummy_plays = plays.filter(pl.col("player") != pl.col("played_by"))
    assert dummy_plays.height > 0
    assert dummy_plays["player"].unique().to_list() == ["Tisch"]
    keyed = rounds.filter(pl.col("role") == "dummy").select("game", "round", "seat",
                                                            "played_by")
    joined = dummy_plays.join(keyed, on=["game", "round", "seat"], suffix="_r")
    assert joined.height == dummy_plays.height
    assert (joined["played_by"] == joined["played_by_r"]).all()


def test_four_player_rows_keep_their_meaning(tmp_path: Path) -> None:
    """The generalized columns agree with the four-player ones they generalize."""
    log = tmp_path / "four.jsonl"
    write_log(simulate(2, 3), log)
    ingest([log], tmp_path / "data")
    rounds = scan(tmp_path / "data", "rounds").collect()
    assert rounds["role"].is_null().all()
    assert (rounds["played_by"] == rounds["player"]).all()
    assert (rounds["partners"].list.first() == rounds["partner"]).all()
    assert (rounds["team_victory_for"] == rounds["double_victory_for"]).all()
    assert (rounds["gave_to_partners"].list.first() == rounds["gave_to_partner"]).all()
    for row in rounds.iter_rows(named=True):
        assert row["gave_to_opponents"] == [row["gave_to_left"], row["gave_to_right"]]
        assert row["got_from_opponents"] == [row["got_from_left"], row["got_from_right"]]
    games = scan(tmp_path / "data", "games").collect()
    assert games["person_score"].is_null().all()
    assert (games["partners"].list.first() == games["partner"]).all()


def test_hand_made_variant_fixtures_ingest(tmp_path: Path) -> None:
    files = sorted(VARIANTS.glob("*.jsonl"))
    seen: list[str] = []
    result = ingest(files, tmp_path / "data", report=lambda d: seen.append(d.code))
    assert result.written and not result.errors
    games = scan(tmp_path / "data", "games").collect()
    trichu = games.filter(pl.col("person_score").is_not_null())
    assert trichu.height > 0 and "Tisch" not in trichu["player"].to_list()
    # the hand-made trichu game: Ana 600, Ben 500, Chloe 400 (its README)
    full = games.filter(pl.col("file").str.ends_with("scenario_trichu_full_game.jsonl"))
    assert dict(zip(full["player"], full["person_score"], strict=True)) == {
        "Ana": 600, "Ben": 500, "Chloe": 400}
    assert full.filter(pl.col("won"))["player"].to_list() == ["Ana"]
    assert Counter(seen) == Counter(
        d.code for f in files for d in _diagnostics(f))


def _diagnostics(path: Path) -> list[object]:
    recorder = Recorder()
    replay_file(path, recorder)
    return recorder.diagnostics


def _rows(path: Path) -> dict[str, list[tuple[str, ...]]]:
    return {table: sorted(tuple(map(repr, row)) for row in scan(path, table).collect().iter_rows())
            for table in TABLES}


def test_parallel_ingest_of_variants_is_the_serial_one(logs: dict[str, Path],
                                                       tmp_path: Path) -> None:
    files = [str(p) for p in logs.values()] + [str(VARIANTS)]
    one, two = tmp_path / "serial", tmp_path / "jobs"
    a = runner.invoke(app, ["ingest", "-q", *files, "-o", str(one)])
    b = runner.invoke(app, ["ingest", "-q", *files, "-o", str(two), "--jobs", "2"])
    assert a.exit_code == b.exit_code == 0, a.stderr + b.stderr
    assert _rows(one) == _rows(two)


@pytest.mark.dask
def test_dask_ingest_of_variants_is_the_serial_one(logs: dict[str, Path],
                                                   tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    files = [str(p) for p in logs.values()]
    one, two = tmp_path / "serial", tmp_path / "dask"
    a = runner.invoke(app, ["ingest", "-q", *files, "-o", str(one)])
    b = runner.invoke(app, ["ingest", "-q", *files, "-o", str(two), "--scheduler", "local",
                            "--jobs", "2"])
    assert a.exit_code == b.exit_code == 0, a.stderr + b.stderr
    assert _rows(one) == _rows(two)


def test_rounds_per_person_in_trichu_by_role(data: dict[str, Path]) -> None:
    rounds = scan(data["trichu"], "rounds").collect()
    per = defaultdict(Counter)
    for row in rounds.iter_rows(named=True):
        per[row["played_by"]][row["role"]] += 1
    assert set(per) == set(rounds.filter(pl.col("role") != "dummy")["player"])
    for counts in per.values():
        assert counts["solo"] == counts["dummy"]


def test_the_dummy_may_be_named_as_partner_or_opponent(data: dict[str, Path]) -> None:
    from tichu_analyze.analysis.stats import Dataset, Filters, apply_filters

    ds = Dataset.load(data["trichu"])
    seats = ds.seat_rows
    dummy = seats.filter(pl.col("role") == "dummy")["player"].unique().to_list()
    assert len(dummy) == 1 and dummy[0] not in ds.players
    person = ds.players[0]
    mine = seats.filter(pl.col("player") == person)
    for f, rows in (
            (Filters(person, partner=dummy[0]), mine.filter(pl.col("role") == "solo")),
            (Filters(person, opponent=dummy[0]), mine.filter(pl.col("role") == "pair"))):
        kept = apply_filters(ds, f).rounds.filter(pl.col("player") == person)
        assert kept.height == rows.height > 0
        assert sorted(kept["round"].to_list()) == sorted(rows["round"].to_list())
    with pytest.raises(DatasetError, match="no player 'Nobody'"):
        apply_filters(ds, Filters(person, partner="Nobody"))
    result = CliRunner().invoke(app, ["report", str(data["trichu"]), "-f", "text",
                                      "--player", person, "--partner", dummy[0]])
    assert result.exit_code == 0, result.output
    assert f"Only the rounds with partner {dummy[0]}." in result.output


# -- report and plot ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def both(logs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One dataset of the six- and the three-player games."""
    out = tmp_path_factory.mktemp("ds-both") / "data"
    assert ingest(list(logs.values()), out).written
    return out


def test_report_text_has_the_variants_sections(both: Path, logs: dict[str, Path]) -> None:
    result = runner.invoke(app, ["report", str(both), "-f", "text"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    out = result.output
    for title in ("Players: Rounds", "Partnerships: Points", "By form of the game: Calls",
                  "By form of the game: Bombs", "By form of the game: Dragon and wish",
                  "Trichu: Solo and pair", "Exchange by recipient", "Partner support"):
        assert title in out, title
    # a partnership of tientsin is its three players
    game = _recorded(logs["tientsin"]).games[0]
    assert " & ".join(sorted(game.players[0::2])) in out
    # the dummy is no player: no row of its own in the players' tables
    players = out.split("Players: Rounds", 1)[1].split("Players: Calls", 1)[0]
    assert "Tisch" not in players


def test_variant_tables_count_rounds_and_solo_turns(both: Path, logs: dict[str, Path]) -> None:
    from tichu_analyze.analysis.stats import Dataset, trichu_table, variant_table

    ds = Dataset.load(both)
    table = variant_table(ds)
    for variant in ("tientsin", "trichu"):
        rounds = len(_recorded(logs[variant]).rounds)
        assert table.rows[variant]["rounds"].numerator == rounds
        assert table.rows[variant]["rounds"].denominator == rounds
    trichu = trichu_table(ds)
    assert trichu is not None
    games = _recorded(logs["trichu"]).games
    for person, stats in trichu.rows.items():
        played = sum(g.rounds for g in games if g.person_totals and person in g.person_totals)
        solo = stats["solo"]
        assert (solo.numerator, solo.denominator) == (played // 3, played)


def test_report_site_of_variants(both: Path, tmp_path: Path, logs: dict[str, Path]) -> None:
    site = tmp_path / "site"
    result = runner.invoke(app, ["report", str(both), "-o", f"{site}/"])
    assert result.exit_code == 0, result.output
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'id="variants"' in index and 'id="trichu"' in index
    pages = "".join(p.read_text(encoding="utf-8") for p in (site / "games").glob("*.html"))
    game = _recorded(logs["trichu"]).games[0]
    assert game.person_totals is not None
    totals = ", ".join(f"{p} {v}" for p, v in sorted(game.person_totals.items(),
                                                     key=lambda kv: -kv[1]))
    assert totals in pages or totals in index


@pytest.mark.parametrize("kind", ["score", "calls", "finish", "points", "calibration", "bombs",
                                  "exchange", "trend"])
def test_every_plot_of_variants(both: Path, tmp_path: Path, kind: str) -> None:
    out = tmp_path / f"{kind}.svg"
    result = runner.invoke(app, ["plot", str(both), "-k", kind, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 1000


@pytest.mark.parametrize("variant", ["tientsin", "trichu"])
def test_score_plot_of_each_variant(both: Path, logs: dict[str, Path], variant: str) -> None:
    from tichu_analyze.analysis.plots import PlotKind, plot
    from tichu_analyze.analysis.stats import Dataset

    game = _recorded(logs[variant]).games[0]
    fig = plot(Dataset.load(both), PlotKind.SCORE, game=game.id)
    legend = fig.axes[0].get_legend()
    assert legend is not None
    labels = [t.get_text() for t in legend.get_texts()]
    if variant == "trichu":  # a line per person
        assert game.person_totals is not None
        assert labels == sorted(game.person_totals)
    else:  # two teams of three
        assert labels[:2] == [f"Team {t}: " + " & ".join(game.players[t::2]) for t in (0, 1)]


def test_report_of_a_variant_log(tmp_path: Path) -> None:
    log = VARIANTS / "scenario_trichu_full_game.jsonl"
    result = runner.invoke(app, ["report", str(log), "-f", "text"],
                           env={"COLUMNS": "250", "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.exit_code == 0, result.output
    assert "Trichu: Solo and pair" in result.output


def test_four_player_report_has_no_variant_sections(tmp_path: Path) -> None:
    log = tmp_path / "four.jsonl"
    write_log(simulate(2, 4), log)
    ingest([log], tmp_path / "data")
    result = runner.invoke(app, ["report", str(tmp_path / "data"), "-f", "text"],
                           env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "By form of the game" not in result.output and "Trichu" not in result.output


def test_the_dummys_moves_and_violations_are_the_solo_players(tmp_path: Path) -> None:
    from tichu_analyze.analysis.stats import Dataset, moves, violation_table

    log = VARIANTS / "C004_trichu_grand_tichu_by_dummy.jsonl"
    ingest([log], tmp_path / "data")
    assert scan(tmp_path / "data", "violations").collect()["player"].to_list() == ["Tisch"]
    ds = Dataset.load(tmp_path / "data")
    solo = scan(tmp_path / "data", "rounds").collect().filter(
        pl.col("role") == "dummy")["played_by"][0]
    assert ds.violations["player"].to_list() == [solo]
    assert violation_table(ds).counts == {solo: {"C004": 1}}
    assert "Tisch" not in moves(ds)


def test_site_lists_the_dummys_bombs_on_its_solo_players_page(both: Path,
                                                              tmp_path: Path) -> None:
    """A bomb from the trichu dummy's seat was the solo player's decision: it is listed on
    the solo player's page (as the dummy's moves count for that player)."""
    dummy_bombs = (scan(both, "plays")
                   .filter(pl.col("bomb") & pl.col("applied")
                           & (pl.col("player") != pl.col("played_by")))
                   .select("played_by", "cards", "trick").collect())
    assert dummy_bombs.height, "the simulated trichu games should hold a bomb from a dummy"
    site = tmp_path / "site"
    result = runner.invoke(app, ["report", str(both), "-o", f"{site}/"])
    assert result.exit_code == 0, result.output
    pages = {p: p.read_text(encoding="utf-8") for p in (site / "players").glob("*.html")}
    for solo, cards, trick in dummy_bombs.iter_rows():
        page = next(text for text in pages.values()
                    if f"<title>Tichu report: {solo}</title>" in text)
        assert f"bomb {' '.join(cards)} in trick {trick}" in page


def test_replay_of_one_trichu_round_names_that_rounds_seating(logs: dict[str, Path]) -> None:
    """Seats change hands every round in trichu: ``replay -r N --seat S`` names who sits
    at S in round N (header and players line), and a whole-game view names nobody."""
    recorder = _recorded(logs["trichu"])
    game = recorder.games[0]
    rounds = [r for r in recorder.rounds if r.game == game.game]
    seat = 1
    moved = next(r for r in rounds if r.players[seat] != game.players[seat])
    number = moved.round
    result = runner.invoke(app, ["replay", str(logs["trichu"]), "-g", game.game,
                                 "-r", str(number), "--seat", str(seat), "-f", "text"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # the header wraps at the terminal's width
    assert f"round {number} of 9 · seen from seat {seat} ({moved.players[seat]})" in text
    assert "Players " + ", ".join(f"{p} ({s})" for s, p in enumerate(moved.players)) in text
    whole = runner.invoke(app, ["replay", str(logs["trichu"]), "-g", game.game,
                                "--seat", str(seat), "-f", "text"], env={"COLUMNS": "200"})
    assert (f"seen from seat {seat} (whoever sits there in each round)"
            in " ".join(whole.output.split()))


def _texts(fig: object) -> str:
    """Every text of a figure (titles, axis labels, legends, annotations), one a line."""
    from matplotlib.text import Text

    return "\n".join(t.get_text() for t in fig.findobj(Text))  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def trends(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Datasets of five games of each variant (a trend needs five games)."""
    folder = tmp_path_factory.mktemp("ds-trend")
    out = {}
    for variant, seed in (("tientsin", 7), ("trichu", 8)):
        log = folder / f"{variant}.jsonl"
        write_log(simulate(5, seed, variants=[variant]), log)
        out[variant] = folder / variant
        assert ingest([log], out[variant]).written
    return out


@pytest.mark.parametrize("variant", ["tientsin", "trichu", "both"])
def test_plot_labels_follow_the_form_of_the_game(trends: dict[str, Path], both: Path,
                                                 variant: str) -> None:
    from tichu_analyze.analysis.plots import PlotKind, plot
    from tichu_analyze.analysis.stats import Dataset

    ds = Dataset.load(both if variant == "both" else trends[variant])
    calibration = _texts(plot(ds, PlotKind.CALIBRATION))
    points = _texts(plot(ds, PlotKind.POINTS))
    bombs = plot(ds, PlotKind.BOMBS)
    trend = plot(ds, PlotKind.TREND)
    even = [line.get_ydata()[0] for line in trend.axes[0].get_lines()
            if line.get_linestyle() == ":"]
    finish = plot(ds, PlotKind.FINISH).axes[0]
    finish_even = [line.get_xdata()[0] for line in finish.get_lines()
                   if line.get_linestyle() == ":"]
    assert finish_even == {"tientsin": [pytest.approx(100 / 6)], "trichu": [25],
                           "both": []}[variant]
    if variant == "tientsin":
        assert "(9\u201310 cards; higher" in calibration and "first 6 cards" in calibration
        assert "14 cards" not in calibration and "first 8" not in calibration
        assert "(300 for a triple victory)" in points and "200 for a double" not in points
        assert bombs.axes[0].get_xlabel() == "bombs played in the round, by all six seats"
        assert even == [pytest.approx(100 / 6)]
    elif variant == "trichu":
        assert "(14 cards; higher" in calibration and "first 8 cards," in calibration
        assert "(200 for a double victory)" in points
        assert "the dummy's too" in bombs.axes[0].get_xlabel()
        assert even == [25]
    else:  # six and four seats: both named, and no one even share
        assert "14 cards, 9\u201310 in tientsin" in calibration
        assert "first 8 cards (6 in tientsin)" in calibration
        assert "300 for a triple in tientsin" in points
        assert "six in tientsin, else four" in bombs.axes[0].get_xlabel()
        assert even == [] and "mix four and six" in trend.axes[0].get_ylabel()


def test_bombs_per_round_count_the_trichu_dummys_bombs(data: dict[str, Path]) -> None:
    from tichu_analyze.analysis.plots import PlotKind, plot
    from tichu_analyze.analysis.stats import Dataset

    ds = Dataset.load(data["trichu"])
    seats = ds.seat_rows.filter(pl.col("status") == "scored")
    per_round = seats.group_by("game", "round").agg(pl.col("bombs_played").sum())
    with_bombs = per_round.filter(pl.col("bombs_played") > 0).height
    no_bombs = plot(ds, PlotKind.BOMBS).axes[0].patches[0].get_height()  # the bar of 0
    assert 100 - no_bombs == pytest.approx(100 * with_bombs / per_round.height)


def test_trichu_score_plot_puts_each_call_on_the_callers_row(data: dict[str, Path],
                                                             logs: dict[str, Path]) -> None:
    from tichu_analyze.analysis.plots import PlotKind, plot
    from tichu_analyze.analysis.stats import Dataset

    ds = Dataset.load(data["trichu"])
    calls = ds.seat_rows.filter(pl.col("call").is_not_null())
    for game in _recorded(logs["trichu"]).games:
        assert game.person_totals is not None
        people = sorted(game.person_totals)
        strip = plot(ds, PlotKind.SCORE, game=game.id).axes[2]
        assert [t.get_text() for t in strip.get_yticklabels()] == people
        drawn = Counter((int(t.xy[0]), people[int(t.xy[1])], t.get_text())
                        for t in strip.texts if t.get_text()[:1] in "TG")
        expected: Counter[tuple[int, str, str]] = Counter()
        for row in calls.filter(pl.col("game") == game.id).iter_rows(named=True):
            mark = ("GT" if row["call"] == "grand_tichu" else "T") + (
                "\u2713" if row["call_success"] else "\u2717")
            if row["role"] == "dummy":  # its solo player called it, at the dummy's seat
                assert row["played_by"] != row["player"]
                expected[(row["round"], row["played_by"], f"{mark} ({row['player']})")] += 1
            else:
                expected[(row["round"], row["player"], mark)] += 1
        assert drawn == expected
    assert calls.filter(pl.col("role") == "dummy").height  # a dummy's call was checked


def test_report_headers_name_the_triple_victory_and_player_rounds(
        both: Path, data: dict[str, Path]) -> None:
    from tichu_analyze.analysis.stats import (
        PLAYER_STATS,
        Dataset,
        player_table,
        team_table,
        variant_table,
    )
    from tichu_analyze.views.report import denominator_phrase

    six = Dataset.load(both)
    for table in (player_table(six), team_table(six), variant_table(six)):
        labels = {d.key: d.label for d in table.defs}
        assert labels["double_for"] == "Double (triple in tientsin) victory won", table.title
        if "double_against" in labels:
            assert labels["double_against"] == "Double (triple in tientsin) victory lost"
    # trichu alone has no triple victory: the four-player headers
    three = Dataset.load(data["trichu"])
    assert [d.label for d in player_table(three).defs] == [d.label for d in PLAYER_STATS]
    # by form of the game: Rounds counts rounds, the rates are out of player-rounds
    forms = variant_table(six)
    phrases = {d.key: denominator_phrase(d) for d in forms.defs}
    assert phrases["rounds"] == "scored, of rounds played"
    assert phrases["first_out"] == "% of scored player-rounds"
    assert phrases["points"] == "average over scored player-rounds"
    tientsin = forms.rows["tientsin"]
    assert tientsin["first_out"].denominator == 6 * tientsin["rounds"].numerator
    result = runner.invoke(app, ["report", str(both), "-f", "text"], env={"COLUMNS": "250"})
    assert result.exit_code == 0 and "Double (triple in tientsin) victory won" in result.output
