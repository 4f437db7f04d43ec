"""The report site, the depth statistics, the filters and logs as input.

The statistics are checked against values worked out by hand (in the comments) on a
small hand-made dataset; the site on logs that are simulated, carry hostile names and
violations, and are ingested for real.
"""

from __future__ import annotations

import html
import json
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from browser import dump_dom, require_chromium, screenshot
from typer.testing import CliRunner

from tichu_analyze.analysis import inputs
from tichu_analyze.analysis.stats import (
    Dataset,
    DatasetError,
    Filters,
    Stat,
    StatKind,
    apply_filters,
    calibration_table,
    call_expected_value,
    exchange_table,
    partner_support,
    wilson,
    with_and_against,
)
from tichu_analyze.cli import app
from tichu_analyze.data.datasets import SCHEMAS, ingest
from tichu_analyze.views.report import CSP
from tichu_analyze.views.site import write_site

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
HOSTILE = "<script>alert(1)</script>"

# -- a hand-made dataset ----------------------------------------------------------------
#
# Game g1 (file a.jsonl, moves at ts 1.7e9 = 2023-11-14), seats 0-3: A B C D; A & C are
# team 0. Round 1: A calls Tichu and goes out first; team 0 scores 170, team 1 30.
# Round 2: A calls Tichu, B goes out first (in trick 3, line 20); team 0 -60, team 1 60;
# C plays over A once. Game g2 (file b.jsonl, no ts, meta.date 2024-05-01): one round,
# A & B against C & D (seats A C B D), no calls, team 0 (A, B) 100, team 1 0, C first out.

NAMES = ("A", "B", "C", "D")


def _write(root: Path, table: str, rows: list[dict[str, object]]) -> None:
    schema = SCHEMAS[table]
    full = [{name: row.get(name) for name in schema.names} for row in rows]
    for row in full:
        for name in schema.names:
            if row[name] is None and pa.types.is_list(schema.field(name).type):
                row[name] = []
    (root / table).mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(full, schema=schema), root / table / "part-0.parquet")


def _round(file: str, game: str, rnd: int, seat: int, names: tuple[str, ...],
           **values: object) -> dict[str, object]:
    row: dict[str, object] = {
        "file": file, "game": game, "round": rnd, "status": "scored", "seat": seat,
        "team": seat % 2, "player": names[seat], "partner": names[(seat + 2) % 4],
        "first_out": False, "double_victory_for": False, "double_victory_against": False,
        "dragon_gifts_given": 0, "dragon_gifts_received": 0, "bombs_played": 0,
        "hx_bombs": 0, "card_points": 0,
    }
    row.update(values)
    # the columns of dataset version 2, as ingest writes them for four players
    row |= {"played_by": row["player"], "partners": [row["partner"]],
            "team_victory_for": row["double_victory_for"],
            "team_victory_against": row["double_victory_against"]}
    if "gave_to_partner" in row:
        row |= {"gave_to_partners": [row["gave_to_partner"]],
                "gave_to_opponents": [row["gave_to_left"], row["gave_to_right"]],
                "got_from_partners": [row["got_from_partner"]]}
    return row


@pytest.fixture(scope="module")
def hand(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    root = tmp_path_factory.mktemp("hand") / "ds"
    s0 = {"team_score": 170, "opponent_score": 30}
    s1 = {"team_score": 30, "opponent_score": 170}
    t0 = {"team_score": -60, "opponent_score": 60}
    t1 = {"team_score": 60, "opponent_score": -60}
    rounds = [
        _round("a.jsonl", "g1", 1, 0, NAMES, call="tichu", call_success=True, first_out=True,
               finish_position=1, hx_strength=7.0, gave_to_left="2j", gave_to_partner="Aj",
               gave_to_right="3s", got_from_partner="Kj", **s0),
        _round("a.jsonl", "g1", 1, 1, NAMES, hx_strength=1.0, finish_position=2, **s1),
        _round("a.jsonl", "g1", 1, 2, NAMES, hx_strength=4.0, finish_position=3, **s0),
        _round("a.jsonl", "g1", 1, 3, NAMES, hx_strength=-1.0, finish_position=4, **s1),
        _round("a.jsonl", "g1", 2, 0, NAMES, call="tichu", call_success=False,
               finish_position=2, hx_strength=8.0, gave_to_left="4p",
               gave_to_partner="Dragon", gave_to_right="Dog", got_from_partner="Phoenix",
               **t0),
        _round("a.jsonl", "g1", 2, 1, NAMES, hx_strength=2.0, first_out=True,
               finish_position=1, **t1),
        _round("a.jsonl", "g1", 2, 2, NAMES, hx_strength=5.0, finish_position=3, **t0),
        _round("a.jsonl", "g1", 2, 3, NAMES, hx_strength=0.5, finish_position=4, **t1),
    ]
    names2 = ("A", "C", "B", "D")
    w = {"team_score": 100, "opponent_score": 0}
    lo = {"team_score": 0, "opponent_score": 100}
    rounds += [_round("b.jsonl", "g2", 1, s, names2, hx_strength=3.0, first_out=s == 1,
                      **(w if s % 2 == 0 else lo)) for s in range(4)]
    games = [{"file": "a.jsonl", "game": "g1", "seat": s, "team": s % 2, "player": NAMES[s],
              "partner": NAMES[(s + 2) % 4], "partners": [NAMES[(s + 2) % 4]], "target": 1000,
              "ended": False} for s in range(4)]
    games += [{"file": "b.jsonl", "game": "g2", "seat": s, "team": s % 2, "player": names2[s],
               "partner": names2[(s + 2) % 4], "partners": [names2[(s + 2) % 4]],
               "target": 1000, "ended": False,
               "meta": '{"date":"2024-05-01"}'} for s in range(4)]
    plays = [
        {"file": "a.jsonl", "game": "g1", "round": 2, "trick": 1, "line": 10, "ts": 1.7e9,
         "seat": 0, "player": "A", "action": "play", "applied": True, "cards": ["5j"]},
        {"file": "a.jsonl", "game": "g1", "round": 2, "trick": 1, "line": 11, "ts": 1.7e9 + 1,
         "seat": 2, "player": "C", "action": "play", "applied": True, "cards": ["9j"],
         "top_seat": 0},
        {"file": "a.jsonl", "game": "g1", "round": 2, "trick": 3, "line": 20, "ts": 1.7e9 + 9,
         "seat": 1, "player": "B", "action": "play", "applied": True, "cards": ["Aj"],
         "went_out": True},
        {"file": "a.jsonl", "game": "g1", "round": 1, "trick": 1, "line": 3, "ts": 1.7e9 - 50,
         "seat": 1, "player": "B", "action": "pass", "applied": True},
    ]
    _write(root, "rounds", rounds)
    _write(root, "games", games)
    _write(root, "plays", plays)
    _write(root, "violations", [])
    return Dataset.load(root)


def _cells(grid_rows: list[tuple[str, list[object]]], name: str) -> list[object]:
    return dict(grid_rows)[name]


def test_call_value_by_hand(hand: Dataset) -> None:
    field = call_expected_value(hand, "tichu")
    # 6 to 9: A's two calls, margins 140 and -120 -> 10.0; no round there without a call
    calls, without, diff = _cells(field.rows, "6 to 9")
    assert calls == Stat(20, 2, "Tichu calls", StatKind.MEAN) and calls.value == 10.0
    assert isinstance(without, Stat) and without.denominator == 0 and diff is None
    # 0 to 3, no call: B r1 -140, B r2 +120, D r2 +120, and g2: all four at 3.0 -> 3 to 6
    _, without, _ = _cells(field.rows, "0 to 3")
    assert isinstance(without, Stat) and (without.numerator, without.denominator) == (100, 3)
    # 3 to 6: C r1 +140, C r2 -120, g2: A +100, C -100, B +100, D -100 -> 20 / 6
    _, without, _ = _cells(field.rows, "3 to 6")
    assert isinstance(without, Stat) and (without.numerator, without.denominator) == (20, 6)
    _, without, _ = _cells(field.rows, "< 0")
    assert isinstance(without, Stat) and (without.numerator, without.denominator) == (-140, 1)
    mine = call_expected_value(hand, "tichu", "B")
    assert all(isinstance(c[0], Stat) and c[0].denominator == 0 for _, c in mine.rows)


def test_calibration_by_hand(hand: Dataset) -> None:
    rows = dict(calibration_table(hand).rows)
    made, expected, _, _ = rows["A"]
    # A made 1 of 2; every hand in band 6 to 9 is A's: 1 of 2 went out first -> 0.5 each
    assert made == Stat(1, 2, "Tichu calls")
    assert expected == Stat(1.0, 2, "Tichu calls")


def test_exchange_by_hand(hand: Dataset) -> None:
    rows = dict(exchange_table(hand, "A").rows)
    left, left_hi, partner, partner_hi, right, right_hi, got, got_hi = rows["A"]
    assert (left.numerator, left.denominator) == (2 + 4, 2)           # 2j, 4p
    assert (partner.numerator, partner_hi.numerator) == (14 + 16, 2)  # Aj, Dragon
    assert (right.numerator, right_hi.numerator) == (3 + 0, 0)        # 3s, Dog
    assert (got.numerator, got_hi.numerator, got_hi.denominator) == (13 + 15, 1, 2)  # Kj, Phoenix


def test_partner_support_by_hand(hand: Dataset) -> None:
    made, over, per_call = dict(partner_support(hand, "A").rows)["C"]
    assert made == Stat(1, 2, "Tichu calls")
    assert over == Stat(1, 2, "Tichu calls")               # C played over A in round 2
    assert per_call == Stat(1, 2, "Tichu calls", StatKind.MEAN)


def test_partners_and_opponents_by_hand(hand: Dataset) -> None:
    by_partner, by_opponent = with_and_against(hand, "A")
    c = by_partner.rows["C"]
    assert (c["rounds"].numerator, c["first_out"].numerator, c["margin"].numerator) == (
        2, 1, 140 - 120)
    b = by_partner.rows["B"]  # game 2: A with B, 100 to 0, C out first
    assert (b["rounds"].numerator, b["first_out"].numerator, b["margin"].numerator) == (
        1, 0, 100)
    assert set(by_opponent.rows) == {"B", "C", "D"}
    assert by_opponent.rows["D"]["rounds"].numerator == 3
    assert by_opponent.rows["B"]["margin"].numerator == 20


def test_wilson_values() -> None:
    # 0 of 10: upper bound z^2 / (n + z^2) = 3.8416 / 13.8416
    low, high = wilson(0, 10) or (None, None)
    assert low == 0 and high == pytest.approx(0.27754, abs=1e-5)
    # 5 of 10: 0.5 -+ 1.96 sqrt(0.025 + 3.8416/400) / 1.38416
    low, high = wilson(5, 10) or (None, None)
    assert low == pytest.approx(0.23659, abs=1e-4) and high == pytest.approx(0.76341, abs=1e-4)
    assert wilson(0, 0) is None
    assert Stat(5, 10, "calls").interval() == "24\u201376%"
    assert Stat(5, 10, "calls").few and not Stat(5, 20, "calls").few
    assert not Stat(5, 10, "rounds", StatKind.COUNT).few


def test_filters_by_hand(hand: Dataset) -> None:
    with_c = apply_filters(hand, Filters(player="A", partner="C"))
    assert sorted(with_c.rounds.get_column("game").unique()) == ["g1"]
    assert with_c.rounds.height == 8 and with_c.games.height == 4
    assert with_c.plays.collect().height == 4
    against_d = apply_filters(hand, Filters(player="A", opponent="D"))
    assert against_d.rounds.height == 12
    against_c = apply_filters(hand, Filters(player="A", opponent="C"))
    assert set(against_c.rounds.get_column("game")) == {"g2"}
    # g1 starts at its first move (2023-11-14), g2 has no ts but meta.date 2024-05-01
    since = apply_filters(hand, Filters(since=datetime(2024, 1, 1, tzinfo=UTC)))
    assert set(since.rounds.get_column("game")) == {"g2"}
    until = apply_filters(hand, Filters(until=datetime(2024, 1, 1, tzinfo=UTC)))
    assert set(until.rounds.get_column("game")) == {"g1"}
    assert apply_filters(hand, Filters(game="g2")).rounds.height == 4
    with pytest.raises(DatasetError, match="need --player"):
        apply_filters(hand, Filters(partner="C"))
    with pytest.raises(DatasetError, match="no rounds match"):
        apply_filters(hand, Filters(player="A", partner="D"))


# -- the site, on ingested logs -----------------------------------------------------------


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six simulated games (one player renamed to a hostile name) and two sample logs
    with violations, in a folder of their own."""
    root = tmp_path_factory.mktemp("logs")
    result = runner.invoke(app, ["simulate", "-n", "6", "-o", str(root / "sim.jsonl")])
    assert result.exit_code == 0, result.output
    text = (root / "sim.jsonl").read_text(encoding="utf-8")
    (root / "sim.jsonl").write_text(text.replace('"Ana"', json.dumps(HOSTILE)),
                                    encoding="utf-8")
    for name in ("wish-ignored.jsonl", "card-not-held.jsonl"):
        shutil.copy(SAMPLES / name, root / name)
    return root


@pytest.fixture(scope="module")
def site(logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    files = sorted(logs.glob("*.jsonl"))
    assert ingest(files, out / "ds").written
    return write_site(Dataset.load(out / "ds"), out / "site").parent


def _links(page: Path) -> list[str]:
    return [html.unescape(h) for h in re.findall(r'href="([^"]*)"', page.read_text("utf-8"))]


def test_site_files_and_links(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert (site / "index.html") in pages
    for sub in ("players", "games", "rounds"):
        assert list((site / sub).glob("*.html")), sub
    ids: dict[Path, set[str]] = {p: set(re.findall(r'\bid="([^"]+)"', p.read_text("utf-8")))
                                 for p in pages}
    checked = 0
    for p in pages:
        for href in _links(p):
            parts = urlsplit(href)
            assert not parts.scheme and not parts.netloc, f"{p}: external link {href}"
            target = (p.parent / unquote(parts.path)).resolve() if parts.path else p
            assert target.is_file(), f"{p}: broken link {href}"
            if parts.fragment:
                assert parts.fragment in ids[target], f"{p}: no anchor {href}"
            checked += 1
    assert checked > 200


def test_site_pages_are_safe(site: Path) -> None:
    for p in site.rglob("*.html"):
        text = p.read_text("utf-8")
        assert "Content-Security-Policy" in text, p
        if p.parent.name != "rounds":
            assert f'content="{CSP}"' in text
        assert HOSTILE not in text, f"{p}: an unescaped hostile name"
    assert html.escape(HOSTILE) in (site / "index.html").read_text("utf-8")


def test_violations_link_to_their_event(site: Path) -> None:
    games = [p for p in (site / "games").glob("*.html")
             if "W001" in p.read_text("utf-8")]
    assert games
    links = [h for h in _links(games[0]) if "#line-" in h]
    assert links, "no violation links to an event"
    path, anchor = links[0].split("#")
    round_page = (games[0].parent / path).read_text("utf-8")
    assert f'id="{anchor}"' in round_page and "W001" in round_page
    index = (site / "index.html").read_text("utf-8")
    listed = re.search(r'id="all-violations">(.*?)</table>', index, flags=re.S)
    assert listed and re.search(r'href="rounds/[^"#]+#line-\d+"', listed.group(1))


def test_failed_calls_link_to_the_trick(site: Path) -> None:
    found = 0
    for p in (site / "players").glob("*.html"):
        text = p.read_text("utf-8")
        block = re.search(r'<ul id="failed-call-list">(.*?)</ul>', text, flags=re.S)
        if block:
            for href in re.findall(r'href="(\.\./rounds/[^"]+)"', block.group(1)):
                assert "#line-" in href
                found += 1
    assert found


def test_missing_log_is_said(logs: Path, tmp_path: Path) -> None:
    copy = tmp_path / "logs"
    shutil.copytree(logs, copy)
    assert ingest([copy / "wish-ignored.jsonl"], tmp_path / "ds").written
    (copy / "wish-ignored.jsonl").unlink()
    index = write_site(Dataset.load(tmp_path / "ds"), tmp_path / "site")
    game = (index.parent / "games" / "g0001.html").read_text("utf-8")
    assert "is not there any more" in game
    assert not list((index.parent / "rounds").glob("*.html"))
    assert "../rounds/" not in game


def test_a_player_name_of_a_megabyte_costs_what_a_short_one_does(tmp_path: Path) -> None:
    """A 1 MB name was read whole in every aggregation and written whole into every name
    cell and its tooltip (34 MB of index for two games; minutes for a site of some ten):
    the reports read names cut at KEPT_BYTES (the dataset keeps them whole), once."""
    from tichu_analyze.analysis.stats import KEPT_BYTES, kept

    name = "B" * (1 << 20)
    log = tmp_path / "big.jsonl"
    log.write_text((SAMPLES / "wish-ignored.jsonl").read_text(encoding="utf-8").replace(
        '"Ben"', json.dumps(name)), encoding="utf-8")
    assert ingest([log], tmp_path / "ds").written
    ds = Dataset.load(tmp_path / "ds")
    assert kept(name) in ds.players and max(map(len, ds.players)) == KEPT_BYTES
    assert ds.lrounds.select(pl.col("player").str.len_bytes().max()).collect().item() \
        < KEPT_BYTES + 4  # (read so by every query: not decoded whole again)
    index = write_site(ds, tmp_path / "site")
    pages = list(index.parent.rglob("*.html"))
    assert pages and max(p.stat().st_size for p in pages) < 1 << 20
    result = runner.invoke(app, ["report", str(tmp_path / "ds"), "-f", "text", "--player",
                                 name])  # the whole name matches the name cut
    assert result.exit_code == 0, result.stderr
    assert "against the rest of the field" in result.stdout


def test_site_refuses_a_foreign_directory(hand: Dataset, tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(DatasetError, match="not an empty directory"):
        write_site(hand, tmp_path)
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_cli_site_single_page_and_text(logs: Path, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    result = runner.invoke(app, ["report", str(logs), "-o", f"{tmp_path}/web/"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "web" / "index.html").is_file()
    result = runner.invoke(app, ["report", str(logs), "-o", str(tmp_path / "one.html")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "one.html").is_file() and not (tmp_path / "one.html").is_dir()
    result = runner.invoke(app, ["report", str(logs), "-f", "text"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    for line in result.output.splitlines():
        if not line.startswith("using the dataset cached"):  # the note on stderr
            assert len(line) <= 80, line


def test_cache_is_reused(logs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    log = tmp_path / "one.jsonl"
    shutil.copy(logs / "wish-ignored.jsonl", log)
    first = inputs.open_input([log])
    assert first.path.parent == inputs.cache_root()

    def no_ingest(*args: object, **kwargs: object) -> None:
        raise AssertionError("ingested again")

    monkeypatch.setattr("tichu_analyze.data.datasets.ingest", no_ingest)
    again = inputs.open_input([log])
    assert again.path == first.path
    log.write_text(log.read_text("utf-8") + "\n", encoding="utf-8")  # new content: new key
    with pytest.raises(AssertionError, match="ingested again"):
        inputs.open_input([log])


# -- in a real browser ---------------------------------------------------------------------


def _follow(page: Path, pattern: str) -> tuple[Path, str, str]:
    """Load ``page`` in Chromium; the first link whose address matches ``pattern``:
    (target file, fragment, the DOM the link was found in)."""
    dom = dump_dom(page)
    match = re.search(pattern, dom, flags=re.S)
    assert match, f"no link matching {pattern} in {page}"
    href = html.unescape(match.group(1))
    parts = urlsplit(href)
    return (page.parent / unquote(parts.path)).resolve(), parts.fragment, dom


def test_browser_index_player_failed_tichu_trick(site: Path, tmp_path: Path) -> None:
    require_chromium()
    index = site / "index.html"
    player, _, dom = _follow(index, r'href="(players/p\d+\.html)"')
    assert 'tabindex="0"' in dom, "the sorting script did not run (CSP?)"
    failed = None
    for p in sorted(player.parent.glob("*.html")):
        text = p.read_text("utf-8")
        if re.search(r'<ul id="failed-call-list">.*?href="\.\./rounds/', text, flags=re.S):
            failed = p
            break
    assert failed is not None, "no player with a failed call linked"
    round_page, anchor, dom = _follow(failed, r'<ul id="failed-call-list">.*?href="'
                                      r'(\.\./rounds/[^"]+)"')
    assert anchor.startswith("line-")
    dom = dump_dom(round_page)
    assert f'id="{anchor}"' in dom
    back = re.search(r'href="(\.\./games/g\d+\.html)"', dom)
    assert back and (round_page.parent / back.group(1)).resolve().is_file()
    screenshot(round_page, tmp_path / "round.png", 1200, 1600)


def test_browser_violation_to_event(site: Path) -> None:
    require_chromium()
    game = next(p for p in sorted((site / "games").glob("*.html"))
                if "W001" in p.read_text("utf-8"))
    round_page, anchor, _ = _follow(game, r'id="game-violations">.*?href="(\.\./rounds/'
                                    r'[^"#]+#line-\d+)"')
    dom = dump_dom(round_page)
    event = re.search(rf'<tr class="event" id="{anchor}">.*?</tr>\s*<tr[^>]*>(.*?)</tr>', dom,
                      flags=re.S)
    assert event and "W001" in event.group(1), "the event does not show its violation"


def test_site_replaces_an_earlier_one(hand: Dataset, tmp_path: Path) -> None:
    write_site(hand, tmp_path / "site", max_games=2)
    assert (tmp_path / "site" / "games" / "g0002.html").is_file()
    write_site(hand, tmp_path / "site", max_games=1)
    assert sorted(p.name for p in (tmp_path / "site" / "games").iterdir()) == ["g0001.html"]
    game = (tmp_path / "site" / "games" / "g0001.html").read_text("utf-8")
    assert "is not there any more" in game  # the hand-made logs do not exist


def test_text_player_column_keeps_the_name(logs: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    result = runner.invoke(app, ["report", str(logs), "-f", "text", "-p", HOSTILE],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert HOSTILE in result.output  # on one line, not folded into pieces
    assert "Expected value of Tichu calls" in result.output


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_an_interrupted_rewrite_leaves_the_earlier_site(hand: Dataset, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C halfway through writing a site over an earlier one: the earlier site is
    left whole, and no temporary folder stays behind."""
    from tichu_analyze.views import site

    write_site(hand, tmp_path / "site", max_games=2, min_rounds=0)
    before = _tree(tmp_path / "site")
    written: list[str] = []

    def interrupted(*args: object) -> str:
        written.append("page")
        raise KeyboardInterrupt

    monkeypatch.setattr(site, "_player_page", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_site(hand, tmp_path / "site", max_games=1, min_rounds=0)
    assert written  # it was interrupted after the game pages were written
    assert _tree(tmp_path / "site") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_an_interrupted_new_site_leaves_nothing(hand: Dataset, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from tichu_analyze.views import site

    def interrupted(*args: object) -> str:
        raise KeyboardInterrupt

    with monkeypatch.context() as mp:
        mp.setattr(site, "_player_page", interrupted)
        with pytest.raises(KeyboardInterrupt):
            write_site(hand, tmp_path / "new" / "site", min_rounds=0)
    assert list((tmp_path / "new").iterdir()) == []
    index = write_site(hand, tmp_path / "new" / "site")  # the next run is not refused
    assert index.is_file()


def test_a_killed_runs_temporary_folder_is_removed(hand: Dataset, tmp_path: Path) -> None:
    import subprocess
    import sys

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    left = tmp_path / f".site.{gone}.0123abcd.site"
    (left / "games").mkdir(parents=True)
    (left / "games" / "g0001.html").write_text("half")
    index = write_site(hand, tmp_path / "site")
    assert index.is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_site_progress_bar_counts_the_pages(hand: Dataset, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console
    from rich.progress import Progress

    from tichu_analyze.run import progress

    shown = io.StringIO()
    bars: list[Progress] = []
    columns = progress.count_bar(True).columns

    def visible(show: bool) -> Progress:
        assert show
        bar = Progress(*columns, transient=False,
                       console=Console(file=shown, force_terminal=True, width=120))
        bars.append(bar)
        return bar

    monkeypatch.setattr(progress, "count_bar", visible)
    write_site(hand, tmp_path / "site", show_progress=True)
    pages = sum(1 for p in (tmp_path / "site").rglob("*.html"))
    missing = len(hand.rounds.select("file", "game", "round").unique())  # no log: no page
    task = bars[0].tasks[0]
    assert task.total == task.completed == pages + missing
    assert f"{pages + missing}/{pages + missing}" in shown.getvalue()


def test_cli_site_output_errors_are_clear(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    site = str(tmp_path / "afile" / "site") + "/"
    result = runner.invoke(app, ["report", str(SAMPLES), "-o", site])
    assert result.exit_code == 2
    assert f"{tmp_path / 'afile'} is a file, not a folder" in result.output
    result = runner.invoke(app, ["report", str(SAMPLES), "-o", str(tmp_path / "out.txt")])
    assert result.exit_code == 2
    assert "--format text" in result.output
    assert not (tmp_path / "out.txt").exists()


def test_the_site_options_and_colour_on_the_command_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tichu_analyze.cli import app

    runner = CliRunner()
    sample = Path(__file__).parent.parent / "sample_logs"
    ds = tmp_path / "ds"
    done = runner.invoke(app, ["ingest", str(sample), "--out", str(ds), "--color", "never"])
    assert done.exit_code == 0, done.stderr
    done = runner.invoke(app, ["report", str(ds), "-o", f"{tmp_path / 'site'}/",
                               "--min-rounds", "100000", "--color", "never"])
    assert done.exit_code == 0, done.stderr
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'id="no-page"' in index and "--min-rounds" in index
    assert not list((tmp_path / "site" / "players").glob("*.html"))  # listed, no pages
    done = runner.invoke(app, ["report", str(ds), "-f", "text", "--color", "never"])
    assert done.exit_code == 0 and "\x1b[" not in done.stdout
