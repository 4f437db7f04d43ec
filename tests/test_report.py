"""Reports: the HTML page (tables, denominators, escaping, no network, the plots, opened
in headless Chromium) and the text summary."""

from __future__ import annotations

import base64
import hashlib
import html
import re
from pathlib import Path

import pytest
from browser import dump_dom, is_blank, require_chromium, screenshot
from test_plots import (  # noqa: F401  (fixtures used by name)
    HOSTILE,
    MARKUP,
    ODD,
    dataset,
    fake_dataset,
    ingested_dataset,
    real_dataset,
)
from typer.testing import CliRunner

from tichu_analyze.analysis.plots import PlotKind
from tichu_analyze.analysis.stats import (
    FIELD,
    PLAYER_STATS,
    TEAM_STATS,
    Dataset,
    DatasetError,
    Stat,
    StatKind,
    player_table,
)
from tichu_analyze.cli import app
from tichu_analyze.views.report import SORT_SCRIPT, build_html

runner = CliRunner()
DOCS = Path(__file__).resolve().parent.parent / "docs" / "reports.md"
TABLES = ("players-rounds", "players-calls", "players-points", "players-bombs",
          "players-dragon-and-wish", "teams-rounds", "teams-calls", "violations-by-code")


@pytest.fixture(scope="module")
def report_html(fake_dataset: Path) -> str:  # noqa: F811
    return build_html(Dataset.load(fake_dataset))


def _no_active_content(page: str) -> None:
    """No script but the one sorting script, allowed by its hash; nothing from outside."""
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    assert scripts == [SORT_SCRIPT]
    digest = base64.b64encode(hashlib.sha256(SORT_SCRIPT.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in page
    page = page.replace(f"<script>{SORT_SCRIPT}</script>", "")
    lowered = page.lower()
    assert "<script" not in lowered
    assert "alert(1)</script>" not in lowered
    assert not re.search(r"\bon[a-z]+\s*=", lowered), "an event handler attribute"
    assert not re.search(r"""(src|href|action)\s*=\s*["']?\s*(https?:|//|javascript:)""",
                         lowered), "an external or javascript: URL"
    assert "url(" not in lowered and "@import" not in lowered


def test_html_tables_and_escaping(report_html: str) -> None:
    for ident in TABLES:
        assert f'id="{ident}"' in report_html, ident
    assert html.escape(HOSTILE) in report_html
    assert html.escape(ODD) in report_html
    _no_active_content(report_html)
    assert "default-src 'none'" in report_html  # CSP: no scripts, no network


def test_html_states_every_denominator(report_html: str) -> None:
    # every statistic cell has its numerator / denominator line
    cells = re.findall(r'<td class="num(?: few)?" data-sort="[^"]*"(?: title="[^"]*")?>'
                       r'<span class="v">[^<]*</span><span class="d">([^<]*)</span>',
                       report_html)
    assert len(cells) > 50
    for detail in cells:
        if "no seat" in detail:
            continue  # violations outside any seat are counted, not out of moves
        assert re.fullmatch(r"(-?[\d.]+ / \d+|of \d+) \S.*", html.unescape(detail)), detail
    # and every column header says what the denominator counts
    for d in PLAYER_STATS + TEAM_STATS:
        assert f"<th title=\"{html.escape(d.doc)}\">{html.escape(d.label)}<small>" in report_html


def test_html_inlines_every_plot(report_html: str) -> None:
    for kind in PlotKind:
        if kind is PlotKind.TREND:  # the fake dataset has 4 games: too few for a trend
            assert 'id="plot-trend"' not in report_html
            continue
        assert f'<figure id="plot-{kind}"><img src="data:image/svg+xml;base64,' in report_html


def test_html_on_ingested_data(dataset: Path) -> None:  # noqa: F811
    page = build_html(Dataset.load(dataset), plots=False)  # the plots: test_plots
    for ident in TABLES[:-1]:
        assert f'id="{ident}"' in page
    assert html.escape(HOSTILE) in page
    _no_active_content(page)


def test_player_focus(fake_dataset: Path) -> None:  # noqa: F811
    ds = Dataset.load(fake_dataset)
    table = player_table(ds, HOSTILE)
    assert list(table.rows) == [HOSTILE, FIELD]
    page = build_html(ds, HOSTILE, plots=False)
    assert f"{html.escape(HOSTILE)} against the rest of the field" in page
    assert 'id="player-violations"' in page
    assert html.escape(f"{HOSTILE} played <i>out of turn</i>") in page  # messages escaped
    _no_active_content(page)
    # the player's row and the field's add up to the whole
    whole = player_table(ds)
    rounds = sum(r["rounds"].numerator for r in whole.rows.values())
    assert table.rows[HOSTILE]["rounds"].numerator + table.rows[FIELD]["rounds"].numerator \
        == rounds


def test_unknown_player(fake_dataset: Path) -> None:  # noqa: F811
    with pytest.raises(DatasetError, match=r"no player 'Nobody'.*'Ana'"):
        build_html(Dataset.load(fake_dataset), "Nobody")


def test_stat_text() -> None:
    assert str(Stat(9, 20, "Tichu calls")) == "45.0% (9 / 20 Tichu calls)"
    assert str(Stat(0, 0, "Tichu calls")) == "- (0 / 0 Tichu calls)"
    assert str(Stat(47, 20, "rounds", StatKind.MEAN)) == "2.35 (47 / 20 rounds)"
    assert str(Stat(40, 42, "rounds played", StatKind.COUNT)) == "40 (of 42 rounds played)"
    assert str(Stat(3, 150, "moves", StatKind.PER_100)) == "2.00 per 100 (3 / 150 moves)"


def test_cli_html(fake_dataset: Path, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "report.html"
    result = runner.invoke(app, ["report", str(fake_dataset), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert html.escape(HOSTILE) in out.read_text(encoding="utf-8")


def test_cli_text(fake_dataset: Path) -> None:  # noqa: F811
    result = runner.invoke(app, ["report", str(fake_dataset), "--format", "text"],
                           env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    out = result.output
    for title in ("Players: Rounds", "Players: Calls", "Partnerships: Points",
                  "Violations by code"):
        assert title in out
    assert HOSTILE in out and MARKUP in out  # printed as is, not as markup
    assert "% of Tichu calls" in out


def test_cli_text_player(fake_dataset: Path, tmp_path: Path) -> None:  # noqa: F811
    out = tmp_path / "report.txt"
    result = runner.invoke(app, ["report", str(fake_dataset), "-f", "text", "-p", MARKUP,
                                 "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert FIELD in text and "Dev [bold]x" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "{tmp}/r.html", "-p", "Nobody"], "no player 'Nobody' in"),
        (["-p", "[red]x"], "the html report needs --output"),
        (["-f", "text", "--partner", "Ana"], "--partner and --opponent need --player"),
        (["-f", "text", "--since", "yesterday"], "--since 'yesterday': not a date"),
        (["-f", "text", "-p", "[red]x"], "no player '[red]x'"),
    ],
)
def test_cli_errors(fake_dataset: Path, tmp_path: Path, args: list[str],  # noqa: F811
                    message: str) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = runner.invoke(app, ["report", str(fake_dataset), *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_cli_missing_dataset(tmp_path: Path) -> None:
    result = runner.invoke(app, ["report", str(tmp_path / "nope"), "-f", "text"])
    assert result.exit_code == 2
    assert "no such dataset directory" in " ".join(result.output.split())


def test_docs_name_every_statistic() -> None:
    if not DOCS.exists():
        pytest.skip("docs/reports.md not written yet")
    docs = DOCS.read_text(encoding="utf-8")
    for d in PLAYER_STATS + TEAM_STATS:
        assert d.label in docs, d.label
    for kind in PlotKind:
        assert f"`{kind}`" in docs, kind


@pytest.fixture(scope="module")
def browser_dataset(tmp_path_factory: pytest.TempPathFactory, fake_dataset: Path) -> Path:  # noqa: F811
    """The ingested dataset when ``ingest`` works, else the fake one (Chromium is slow:
    one dataset is enough)."""
    return ingested_dataset(tmp_path_factory.mktemp("browser")) or fake_dataset


@pytest.mark.parametrize("player", [None, HOSTILE])
def test_report_in_chromium(browser_dataset: Path, tmp_path: Path, player: str | None) -> None:
    require_chromium()
    ds = Dataset.load(browser_dataset)
    page = tmp_path / "report.html"
    page.write_text(build_html(ds, player), encoding="utf-8")
    png = screenshot(page, tmp_path / "report.png", 1200, 2000)
    assert not is_blank(png), "the screenshot is blank"
    dom = dump_dom(page)
    assert dom.lower().count("<script") == 1, "a script element made it into the page"
    # the name is text: the DOM serializer escapes it again
    assert html.escape(HOSTILE, quote=False) in dom
    body_text = re.sub(r"<[^>]+>", " ", dom)
    assert html.escape(HOSTILE, quote=False) in body_text
    assert dom.count("<img ") >= len(PlotKind) - 1
