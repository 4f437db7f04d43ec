"""Plots: every kind renders to PNG and SVG, with a title, labelled axes and a legend.

``write_fake_dataset`` builds a small dataset in the layout ``tichu-analyze ingest``
writes (hive-partitioned by player); ``test_report`` uses it too. The tests also
run on a dataset ingested from a simulated log when ``ingest`` is available.
"""

from __future__ import annotations

import random
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from tichu_analyze.cli import app
from tichu_analyze.core.cards import TOKENS

HOSTILE = "<script>alert(1)</script>"
"""A player name that must be shown as text, never run."""

ODD = "Zoë $5 & $6 _under"
"""A player name with '$' pairs (matplotlib mathtext), '&' and a leading-underscore word."""

LONG = "Long" + "o" * 300 + "ng name"
"""A name longer than a directory name may be: ingest cuts its partition directory short."""

MARKUP = "Dev [bold]x[/bold] [/]"
"""A player name that is rich console markup, to be printed as is."""

PLAYERS = ("Ana", "Ben", HOSTILE, MARKUP, ODD)

_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _rank(token: str) -> str:
    return token if token in ("Dog", "Mahjong", "Phoenix", "Dragon") else token[:-1]


def _strength(cards: list[str]) -> float:
    value = {"A": 3.0, "K": 2.0, "Q": 1.0, "Dragon": 5.0, "Phoenix": 4.0, "Mahjong": 0.5,
             "Dog": -1.0}
    return round(sum(value.get(_rank(c), 0.0) for c in cards) / len(cards) * 10, 2)


def _bombs(cards: list[str]) -> int:
    ranks = [_rank(c) for c in cards]
    return sum(ranks.count(r) == 4 for r in _RANKS)


def _hand(prefix: str, cards: list[str]) -> dict[str, object]:
    ranks = [_rank(c) for c in cards]
    return {
        f"{prefix}_cards": sorted(cards), f"{prefix}_dragon": "Dragon" in cards,
        f"{prefix}_phoenix": "Phoenix" in cards, f"{prefix}_mahjong": "Mahjong" in cards,
        f"{prefix}_dog": "Dog" in cards, f"{prefix}_aces": ranks.count("A"),
        f"{prefix}_bombs": _bombs(cards),
        f"{prefix}_singles": sum(ranks.count(r) == 1 for r in _RANKS),
        f"{prefix}_strength": _strength(cards),
    }


def _write(root: Path, table: str, rows: list[dict[str, object]]) -> None:
    if rows:
        pl.DataFrame(rows, infer_schema_length=None).write_parquet(
            root / table, partition_by="player"
        )


def write_fake_dataset(root: Path, seed: int = 0, games: int = 4) -> Path:
    """A dataset of ``games`` random (not rule-checked) games among :data:`PLAYERS` at
    ``root``, in the column contract of ``tichu-analyze ingest``; returns ``root``.

    The last game ends early (not ``ended``); one round of the first game is
    incomplete. Violations name the hostile player and carry markup in messages.
    """
    rng = random.Random(seed)
    plays: list[dict[str, object]] = []
    rounds: list[dict[str, object]] = []
    game_rows: list[dict[str, object]] = []
    violations: list[dict[str, object]] = []
    line = 0
    file = "fake/<b>games</b>.jsonl"
    for g in range(games):
        game = f"g{g + 1}"
        names = rng.sample(PLAYERS, 4)
        if g == 0 and HOSTILE not in names:
            names[0] = HOSTILE
        totals = [0, 0]
        n_rounds = 0
        line += 1
        target = 1000
        while max(totals) < target or totals[0] == totals[1]:
            n_rounds += 1
            rnd = n_rounds
            if g == games - 1 and rnd == 4:
                break  # the last game stops early: not ended, no winner
            line += 1
            deck = list(TOKENS)
            rng.shuffle(deck)
            h14 = [deck[14 * s:14 * s + 14] for s in range(4)]
            h8 = [h[:8] for h in h14]
            gifts = {s: {t: h14[s][8 + i] for i, t in enumerate(x for x in range(4) if x != s)}
                     for s in range(4)}
            hx = [[c for c in h14[s] if c not in gifts[s].values()]
                  + [gifts[o][s] for o in range(4) if o != s] for s in range(4)]
            strength = [_strength(h) for h in hx]
            order = sorted(range(4), key=lambda s: -strength[s] - rng.gauss(0, 6))
            incomplete = g == 0 and rnd == 2
            calls: list[str | None] = [None] * 4
            for s in range(4):
                if _strength(h8[s]) > 10 and rng.random() < 0.5:
                    calls[s] = "grand_tichu"
                elif strength[s] > 7 and rng.random() < 0.5:
                    calls[s] = "tichu"
            double = order[0] % 2 == order[1] % 2
            team_cards = [200, 0] if order[0] % 2 == 0 else [0, 200]
            if not double:
                x = 5 * rng.randint(-5, 25)
                team_cards = [x, 100 - x]
            call_points = [0, 0]
            for s in range(4):
                if calls[s]:
                    worth = 200 if calls[s] == "grand_tichu" else 100
                    call_points[s % 2] += worth if order[0] == s else -worth
            score = [team_cards[t] + call_points[t] for t in range(2)]
            if not incomplete:
                totals = [totals[0] + score[0], totals[1] + score[1]]
            mahjong_seat = next(s for s in range(4) if "Mahjong" in hx[s])
            wish = rng.choice(_RANKS) if rng.random() < 0.7 else None
            dragon_seat = next(s for s in range(4) if "Dragon" in hx[s])
            dragon_gift = rng.random() < 0.4 and not double
            held = [_bombs(hx[s]) + (rng.random() < 0.1) + (rng.random() < 0.02)
                    for s in range(4)]
            bombs = [sum(rng.random() < 0.7 for _ in range(held[s])) for s in range(4)]
            for s in range(4):
                t = s % 2
                left, partner, right = (s + 1) % 4, (s + 2) % 4, (s + 3) % 4
                row: dict[str, object] = {
                    "file": file, "game": game, "round": rnd,
                    "status": "incomplete" if incomplete else "scored",
                    "seat": s, "team": t, "partner": names[partner], "player": names[s],
                    "call": calls[s],
                    "call_success": None if incomplete or not calls[s] else order[0] == s,
                    "finish_position": None if incomplete else order.index(s) + 1,
                    "first_out": not incomplete and order[0] == s,
                    "double_victory_for": not incomplete and double and order[0] % 2 == t,
                    "double_victory_against": not incomplete and double and order[0] % 2 != t,
                    "card_points": None if incomplete else team_cards[t] // 2,
                    "team_card_points": None if incomplete else team_cards[t],
                    "team_call_points": None if incomplete else score[t] - team_cards[t],
                    "team_score": None if incomplete else score[t],
                    "opponent_score": None if incomplete else score[1 - t],
                }
                row |= _hand("h8", h8[s]) | _hand("h14", h14[s]) | _hand("hx", hx[s])
                row["hx_bombs"] = held[s]  # more bombs than random deals hold
                row |= {
                    "gave_to_left": gifts[s][left], "gave_to_partner": gifts[s][partner],
                    "gave_to_right": gifts[s][right],
                    "got_from_left": gifts[left][s], "got_from_partner": gifts[partner][s],
                    "got_from_right": gifts[right][s],
                    "dragon_gifts_given": int(dragon_gift and s == dragon_seat),
                    "dragon_gifts_received": int(dragon_gift and s == (dragon_seat + 1) % 4),
                    "bombs_played": bombs[s],
                    "wish_made": wish if s == mahjong_seat else None,
                    "wish_fulfilled": (rng.random() < 0.5) if s == mahjong_seat and wish
                    else None,
                }
                rounds.append(row)
            for trick in range(1, 4):
                for i in range(4):
                    s = (trick + i) % 4
                    line += 1
                    action = "play" if i == 0 or rng.random() < 0.5 else "pass"
                    card = hx[s][trick] if action == "play" else None
                    plays.append({
                        "file": file, "game": game, "round": rnd, "trick": trick,
                        "event_index": line, "line": line, "seat": s, "team": s % 2,
                        "partner": names[(s + 2) % 4], "player": names[s], "action": action,
                        "cards": [card] if card else [], "combo": "single" if card else None,
                        "rank": None, "length": 1 if card else None, "bomb": False,
                        "out_of_turn": False, "lead": i == 0, "top_combo": None,
                        "top_rank": None, "top_length": None, "top_player": None,
                        "wish_open": None, "wish_fulfilled": False, "cards_left": 14 - trick,
                        "trick_points": 0, "seconds_since_previous": 1.5, "codes": [],
                        "ts": 1.7e9 + line, "applied": True, "went_out": False,
                        "top_seat": None if i == 0 else (trick + i - 1) % 4,
                    })
            if rnd % 3 == 1:
                s = rnd % 4
                violations.append({
                    "file": file, "line": line, "game": game, "round": rnd, "trick": 1,
                    "seat": s, "player": names[s], "code": "P003", "name": "out-of-turn",
                    "severity": "error",
                    "message": f"{names[s]} played <i>out of turn</i> & did not wait",
                })
        for s in range(4):
            ended = g != games - 1
            game_rows.append({
                "file": file, "game": game, "line": 1 + 1000 * g, "seat": s, "team": s % 2,
                "partner": names[(s + 2) % 4], "player": names[s], "target": target,
                "rounds_played": n_rounds if ended else n_rounds - 1,
                "team_score": totals[s % 2], "opponent_score": totals[1 - s % 2],
                "won": totals[s % 2] > totals[1 - s % 2] if ended else None, "ended": ended,
                "meta": '{"table": "<em>fake</em>"}',
            })
    violations.append({
        "file": file, "line": 1, "game": None, "round": None, "trick": None, "seat": None,
        "player": None, "code": "L001", "name": "invalid-json", "severity": "error",
        "message": "line is not JSON: <script>alert(2)</script>",
    })
    root.mkdir(parents=True, exist_ok=True)
    for table, rows in (("plays", plays), ("rounds", rounds), ("games", game_rows),
                        ("violations", violations)):
        _write(root, table, rows)
    return root


def _has_command(name: str) -> bool:
    return any((c.name or (c.callback.__name__ if c.callback else "")) == name
               for c in app.registered_commands)


def ingested_dataset(root: Path, games: int = 12) -> Path | None:
    """A dataset ingested from a simulated log whose games have the hostile, odd and long
    player names, or None when the ``simulate``/``ingest`` commands do not exist. When
    they exist, they must work: a failure fails the calling test."""
    import json

    if not (_has_command("simulate") and _has_command("ingest")):
        return None
    root.mkdir(parents=True, exist_ok=True)
    log = root / "sim.jsonl"
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "-n", str(games), "-o", str(log)])
    assert result.exit_code == 0 and log.exists(), f"simulate failed: {result.output}"
    lines = []
    for raw in log.read_text(encoding="utf-8").splitlines():
        if '"game_start"' in raw:
            event = json.loads(raw)
            if event.get("type") == "game_start":
                event["players"][2] = HOSTILE
                event["players"][1] = ODD
                event["players"][3] = LONG
                raw = json.dumps(event)
        lines.append(raw)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = root / "dataset"
    result = runner.invoke(app, ["ingest", str(log), "--out", str(out)])
    assert result.exit_code == 0 and (out / "rounds").is_dir(), (
        f"ingest failed (exit {result.exit_code}): {result.output}"
        + (repr(result.exception) if result.exception else ""))
    return out


@pytest.fixture(scope="session")
def fake_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_fake_dataset(tmp_path_factory.mktemp("fake") / "dataset")


@pytest.fixture(scope="session")
def real_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = ingested_dataset(tmp_path_factory.mktemp("real"))
    if path is None:
        pytest.skip("'tichu-analyze simulate' / 'ingest' are not available")
    return path


@pytest.fixture(scope="session", params=["fake", "real"])
def dataset(request: pytest.FixtureRequest) -> Path:
    return request.getfixturevalue(f"{request.param}_dataset")  # type: ignore[no-any-return]


# -- tests ------------------------------------------------------------------------------

import subprocess  # noqa: E402
import sys  # noqa: E402
import xml.etree.ElementTree as ET  # noqa: E402

from tichu_analyze.analysis.plots import PlotKind, plot, render, text  # noqa: E402
from tichu_analyze.analysis.stats import Dataset, DatasetError  # noqa: E402

runner = CliRunner()


def _check_figure(fig: object) -> None:
    from matplotlib.figure import Figure

    assert isinstance(fig, Figure)
    assert fig.get_suptitle().strip(), "the figure has no title"
    drawn = [ax for ax in fig.axes if ax.has_data() or ax.texts]
    assert drawn, "nothing was drawn"
    for ax in drawn:
        # panels that share an axis with a labelled neighbour need no label of their own
        xs = ax.get_shared_x_axes().get_siblings(ax)
        assert any(a.get_xlabel().strip() for a in xs), f"{ax.get_title()!r}: no x label"
        ys = ax.get_shared_y_axes().get_siblings(ax)
        assert any(a.get_ylabel().strip() for a in ys), f"{ax.get_title()!r}: no y label"
    assert any(ax.get_legend() is not None for ax in fig.axes), "no legend"


@pytest.mark.parametrize("kind", list(PlotKind))
@pytest.mark.parametrize("player", [None, HOSTILE])
def test_every_kind_renders(dataset: Path, kind: PlotKind, player: str | None) -> None:
    ds = Dataset.load(dataset)
    if player is not None and player not in ds.players:
        pytest.skip(f"{player!r} is not in this dataset")
    if kind is PlotKind.TREND and ds.games.select("file", "game").n_unique() < 5:
        with pytest.raises(DatasetError, match="a trend needs 5 or more"):
            plot(ds, kind, player=player)
        return
    fig = plot(ds, kind, player=player)
    _check_figure(fig)
    png = render(fig, "png")
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    svg = render(fig, "svg")
    assert ET.fromstring(svg).tag.endswith("svg") and len(svg) > 10_000


@pytest.mark.parametrize("kind", [k for k in PlotKind if k is not PlotKind.TREND])
def test_cli_writes_png_and_svg(fake_dataset: Path, tmp_path: Path, kind: PlotKind) -> None:
    for suffix in ("png", "svg"):
        out = tmp_path / f"{kind}.{suffix}"
        result = runner.invoke(app, ["plot", str(fake_dataset), "--kind", str(kind), "-o",
                                     str(out)])
        assert result.exit_code == 0, result.output
        assert out.stat().st_size > 10_000


def test_player_filter_is_in_the_title(fake_dataset: Path) -> None:
    ds = Dataset.load(fake_dataset)
    fig = plot(ds, PlotKind.CALLS, player="Ana")
    assert "Ana against the rest of the field" in fig.get_suptitle()
    ticks = [t.get_text() for ax in fig.axes for t in ax.get_xticklabels()]
    assert any(t.startswith("Ana\n") for t in ticks)
    assert not any(t.startswith("Ben") for t in ticks), "--player shows only the player"


def test_score_game_option(fake_dataset: Path) -> None:
    ds = Dataset.load(fake_dataset)
    assert "game g2" in plot(ds, PlotKind.SCORE, game="g2").get_suptitle()
    assert "game g1" in plot(ds, PlotKind.SCORE).get_suptitle()
    with pytest.raises(DatasetError, match="no game 'nope'.*the games are: g1, g2"):
        plot(ds, PlotKind.SCORE, game="nope")


def test_long_name_read_from_the_files(real_dataset: Path) -> None:
    """The player= directory of a very long name is cut short; the name is read whole."""
    ds = Dataset.load(real_dataset)
    assert LONG in ds.players and HOSTILE in ds.players
    assert all(len(p) < 200 or p == LONG for p in ds.players)


def test_names_are_literal_text() -> None:
    assert text("$5 & $6") == r"\$5 & \$6"  # no mathtext
    assert text("_hidden") == " _hidden"   # matplotlib drops legend labels starting with _
    assert text("x" * 50, 10) == "x" * 9 + "\u2026"


def test_odd_name_in_legend_and_ticks(fake_dataset: Path) -> None:
    ds = Dataset.load(fake_dataset)
    fig = plot(ds, PlotKind.FINISH)
    ticks = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels()]
    assert any(t.startswith(r"Zoë \$5 & \$6 _under") for t in ticks)
    render(fig, "png")  # mathtext would fail or mangle the name


def test_no_pyplot() -> None:
    code = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from pathlib import Path; import tempfile\n"
        "from test_plots import write_fake_dataset\n"
        "from tichu_analyze.analysis.stats import Dataset\n"
        "from tichu_analyze.analysis.plots import PlotKind, plot, render\n"
        "ds = Dataset.load(write_fake_dataset(Path(tempfile.mkdtemp()) / 'd', games=5))\n"
        "for k in PlotKind: render(plot(ds, k), 'png')\n"
        "assert 'matplotlib.pyplot' not in sys.modules, 'pyplot was imported'\n"
    )
    root = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr


def _incomplete_only(src: Path, dst: Path) -> Path:
    for table in ("rounds", "games", "plays", "violations"):
        df = pl.scan_parquet(str(src / table), hive_partitioning=True,
                             hive_schema={"player": pl.String}).collect()
        if table == "rounds":
            df = df.with_columns(pl.lit("incomplete").alias("status"))
        df.write_parquet(dst / table, partition_by="player")
    return dst


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--kind", "calls"], "no such dataset directory"),
        (["--kind", "calls", "--player", "Nobody"], "no player 'Nobody'"),
        (["--kind", "score", "--game", "g99"], "no game 'g99'"),
        (["--kind", "calls", "--since", "2999-01-01"], "no rounds match the filters"),
    ],
)
def test_cli_errors(fake_dataset: Path, tmp_path: Path, args: list[str], message: str) -> None:
    dataset = tmp_path / "missing" if "no such" in message else fake_dataset
    result = runner.invoke(app, ["plot", str(dataset), *args, "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.png").exists()


def test_cli_unknown_player_lists_players(fake_dataset: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["plot", str(fake_dataset), "-k", "calls", "-p", "Nobody",
                                 "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    for name in ("'Ana'", "'Ben'", repr(HOSTILE), repr(MARKUP)):
        assert name in out


def test_cli_not_a_dataset(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "file.parquet").write_bytes(b"not parquet")
    for path, message in ((tmp_path / "empty", "not a dataset and no log files"),
                          (tmp_path / "file.parquet", "not a dataset directory nor a log")):
        result = runner.invoke(app, ["plot", str(path), "-k", "calls", "-o",
                                     str(tmp_path / "x.png")])
        assert result.exit_code == 2 and message in " ".join(result.output.split())


def test_cli_bad_suffix(fake_dataset: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["plot", str(fake_dataset), "-k", "calls", "-o",
                                 str(tmp_path / "x.jpg")])
    assert result.exit_code == 2 and ".png, .svg or .pdf" in " ".join(result.output.split())


def test_cli_writes_pdf(fake_dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "calls.pdf"
    result = runner.invoke(app, ["plot", str(fake_dataset), "-k", "calls", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF")


def test_cli_no_scored_rounds(fake_dataset: Path, tmp_path: Path) -> None:
    dataset = _incomplete_only(fake_dataset, tmp_path)
    result = runner.invoke(app, ["plot", str(dataset), "-k", "calls", "-o",
                                 str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "no scored rounds" in " ".join(result.output.split())


def test_game_id_in_two_files(fake_dataset: Path) -> None:
    ds = Dataset.load(fake_dataset)
    other = ds.rounds.with_columns(pl.lit("other.jsonl").alias("file"))
    both = Dataset(ds.path, pl.concat([ds.rounds, other]).lazy(), ds.lgames, ds.violations,
                   ds.plays)
    with pytest.raises(DatasetError, match="game 'g1' is in 2 files; name one as FILE:GAME"):
        both.find_game("g1")
    assert both.find_game("other.jsonl:g1") == ("other.jsonl", "g1")
    assert "other.jsonl" in plot(both, PlotKind.SCORE, game="other.jsonl:g1").get_suptitle()
