"""A mutation fuzzer over every reader and every output of tichu-analyze.

Each round takes a seed input from ``tests/fuzz/seeds/`` (JSON-lines logs and a
Brettspielwelt ``.tch`` file), mutates it (bytes flipped, inserted or cut, lines
repeated, dropped or swapped, hostile names, huge numbers, deep nesting, a byte order
mark...), stores it as ``.jsonl``, ``.jsonl.gz``, ``.jsonl.zst`` or ``.tch`` (a
compressed stream sometimes corrupted itself), and runs it through :func:`exercise`:

* ``check``'s reader and engine, and every output format of its diagnostics (text,
  json, sarif, github): no exception but :class:`~tichu_analyze.readers.logfile.LogError`, and
  no raw control character in any output line;
* ``replay``'s view of every game, as text and as HTML: no exception but the
  documented ones, no raw control character;
* now and then ``ingest``: every row written is read back, and ``report`` (text and
  HTML) has no raw control character; and the ``check`` and ``replay`` commands as a
  user runs them: exit status 0, 1 or 2, nothing raw in what they print.

A crash (anything else) is saved under ``tests/fuzz/crashes/`` with the kind of file as
its extension; ``tests/test_fuzz.py`` replays every saved input as a regression test and
runs a small fixed budget of new inputs. ``make fuzz`` runs a long campaign::

    python tests/fuzzer.py --iterations 20000 --seed 7
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import io
import json
import random
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

FUZZ = Path(__file__).parent / "fuzz"
SEEDS = FUZZ / "seeds"
CRASHES = FUZZ / "crashes"

KINDS = {"jsonl": ".jsonl", "gz": ".jsonl.gz", "zst": ".jsonl.zst", "tch": ".tch"}

HOSTILE_STRINGS = [
    "\x1b]0;pwned\x07", "a\rforged.jsonl:9: W001 wish-ignored: fake", "x\ny", "\u2028",
    "\x9b31m", "\u202eevil", "__HIVE_DEFAULT_PARTITION__", "%2F..%2F", "../../etc", "",
    " ", ".", "n" * 3000, "<script>alert(1)</script>", "\udcff", "\x00", "007", "日本",
]
HOSTILE_BYTES = [b"\x00", b"\x1b", b"\r", b"\n", b"\xff", b"\xef\xbb\xbf", b"\t", b"\\",
                 b'"', b"{", b"[", b"]", b"}", b",", b":", b"\xc3", b"\xe2\x80\xa8"]


def seeds() -> list[tuple[str, bytes]]:
    """``(kind, bytes)`` of every seed input: ``jsonl`` or ``tch``."""
    out = []
    for path in sorted(SEEDS.iterdir()):
        kind = "tch" if path.suffix == ".tch" else "jsonl"
        out.append((kind, path.read_bytes()))
    return out


# ------------------------------------------------------------------------ mutations


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]


def _insert(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice(HOSTILE_BYTES) * rng.choice((1, 1, 2, 50)) + data[i:]


def _cut(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + data[i + rng.randrange(1, 200):]


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


def _repeat_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def _drop_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def _swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _hostile_string(data: bytes, rng: random.Random) -> bytes:
    """A quoted string (a name, a game id, a card) replaced by a hostile one."""
    starts = [i for i in range(len(data)) if data[i:i + 1] == b'"']
    if len(starts) < 2:
        return data
    k = rng.randrange(len(starts) - 1)
    a, b = starts[k], starts[k + 1]
    s = json.dumps(rng.choice(HOSTILE_STRINGS), ensure_ascii=rng.random() < 0.5)
    return data[:a] + s.encode("utf-8", "surrogatepass") + data[b + 1:]


def _big_number(data: bytes, rng: random.Random) -> bytes:
    digits = [i for i in range(len(data)) if data[i:i + 1].isdigit()]
    if not digits:
        return data
    i = rng.choice(digits)
    big = rng.choice([b"9" * 4300, b"-1", b"18446744073709551616", b"1e309", b"0.5", b"-0"])
    return data[:i] + big + data[i + 1:]


def _nest(data: bytes, rng: random.Random) -> bytes:
    """A value wrapped in thousands of arrays (or a whole line of them)."""
    depth = rng.choice((200, 1000, 5000))
    deep = b"[" * depth + b"1" + b"]" * depth
    colons = [i for i in range(len(data)) if data[i:i + 1] == b":"]
    if not colons or rng.random() < 0.3:
        lines = _lines(data)
        lines.insert(rng.randrange(len(lines) + 1), deep)
        return b"\n".join(lines)
    i = rng.choice(colons) + 1
    j = i
    while j < len(data) and data[j:j + 1] not in (b",", b"}"):
        j += 1
    return data[:i] + deep + data[j:]


def _bom(data: bytes, rng: random.Random) -> bytes:
    return b"\xef\xbb\xbf" + data


def _long_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    lines.insert(rng.randrange(len(lines) + 1), b"x" * rng.choice((10_000, 5 << 20)))
    return b"\n".join(lines)


def _blank_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines) + 1)
    return b"\n".join(lines[:i] + [b""] * 5000 + [b"\r"] * 10 + lines[i:])


MUTATORS: list[Callable[[bytes, random.Random], bytes]] = [
    _flip, _flip, _insert, _insert, _cut, _truncate, _repeat_line, _drop_line,
    _swap_lines, _swap_lines, _hostile_string, _hostile_string, _hostile_string,
    _big_number, _nest, _bom, _long_line, _blank_lines,
]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four mutations of ``data``."""
    for _ in range(rng.choice((1, 1, 2, 4))):
        data = rng.choice(MUTATORS)(data, rng)
    return data


def encode(data: bytes, kind: str, rng: random.Random | None = None) -> bytes:
    """``data`` as stored for ``kind`` (compressed for gz/zst, and then sometimes
    corrupted when ``rng`` is given)."""
    if kind == "gz":
        out = gzip.compress(data, mtime=0)
    elif kind == "zst":
        import zstandard

        out = zstandard.ZstdCompressor().compress(data)
    else:
        return data
    if rng is not None and rng.random() < 0.2:
        out = rng.choice((_flip, _truncate, _cut))(out, rng)
    return out


# ------------------------------------------------------------------------ the checks


class BrokenPromise(AssertionError):
    """An output that breaks a promise of issue 10 (a raw control character, rows lost)."""


def _printable(text: str, where: str, newlines: bool = False) -> None:
    allowed = "\n\t" if newlines else "\t"
    bad = [ch for ch in text if not ch.isprintable() and ch not in allowed and ch not in " \xa0"]
    if bad:
        raise BrokenPromise(f"{where}: raw control characters {bad[:5]!r}")


def exercise(path: Path, workdir: Path, ingest_too: bool = False, plots: bool = True) -> None:
    """Run the readers and outputs on the log ``path``; raises on a crash or a broken
    promise, returns quietly otherwise. ``ingest_too``: also ingest, read back, report
    (with the plots drawn when ``plots``) and run the commands."""
    from tichu_analyze.core.visitor import DiagnosticVisitor
    from tichu_analyze.lint.output import as_github, as_json, as_sarif, as_text
    from tichu_analyze.readers.logfile import LogError, replay_file
    from tichu_analyze.views.audit import AuditError, build, load, plain, render_html, render_text

    found: list = []
    with contextlib.suppress(LogError):
        replay_file(path, DiagnosticVisitor(found.append))
    for d in found:
        _printable(as_text(d), "check text")
        _printable(as_github(d), "check github")
        line = as_json(d)
        _printable(line, "check json")
        json.loads(line)
    sarif = json.dumps(as_sarif(found), ensure_ascii=False)
    json.loads(sarif)

    try:
        trace = load(path)
    except LogError:
        trace = None
    if trace is not None:
        for game in list(trace.games)[:2]:
            try:
                view = build(trace, game)
            except AuditError:
                continue
            _printable(plain(render_text(view, 100, True)), "replay text", newlines=True)
            _printable(render_html(view), "replay html", newlines=True)

    if ingest_too:
        _ingest_and_read_back(path, workdir / "ds", plots)
        _commands(path, workdir)


def _commands(path: Path, workdir: Path) -> None:
    """The commands themselves (as a user runs them): exit 0, 1 or 2, never an exception,
    no raw control character in what they print."""
    from typer.testing import CliRunner

    from tichu_analyze.cli import app

    runner = CliRunner()
    for args in (["check", str(path)], ["check", "-f", "github", str(path)],
                 ["check", "-f", "sarif", "-o", str(workdir / "out.sarif"), str(path)],
                 ["replay", str(path)], ["replay", "-f", "html", "-o",
                                         str(workdir / "out.html"), str(path)]):
        result = runner.invoke(app, args)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        if result.exit_code not in (0, 1, 2):
            raise BrokenPromise(f"{' '.join(args[:3])}: exit status {result.exit_code}")
        _printable(result.stdout, f"{args[0]} output", newlines=True)
        _printable(result.stderr, f"{args[0]} errors", newlines=True)


def _ingest_and_read_back(path: Path, out: Path, plots: bool) -> None:
    import polars as pl

    from tichu_analyze.data.datasets import TABLES, ingest, scan

    shutil.rmtree(out, ignore_errors=True)
    result = ingest([path], out)
    if not result.written:
        if out.exists():
            raise BrokenPromise("ingest: nothing written, yet the dataset exists")
        return
    for table in TABLES:
        n = scan(out, table).select(pl.len()).collect().item()
        if n != result.rows[table]:
            raise BrokenPromise(f"ingest: {result.rows[table]} {table} rows written, "
                                f"{n} read back")
    _report(out, plots)


def _report(dataset: Path, plots: bool) -> None:
    """``report`` as text and HTML: no raw control character."""
    from rich.console import Console

    from tichu_analyze.analysis.stats import Dataset, DatasetError
    from tichu_analyze.views.report import build_html, print_text

    try:
        ds = Dataset.load(dataset)
    except DatasetError:
        return
    buffer = io.StringIO()
    print_text(ds, Console(file=buffer, width=160, no_color=True), None)
    _printable(buffer.getvalue(), "report text", newlines=True)
    _printable(build_html(ds, None, plots=plots), "report html", newlines=True)


# ------------------------------------------------------------------------ the campaign


def save_crash(data: bytes, kind: str) -> Path:
    CRASHES.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha256(data).hexdigest()[:16] + KINDS[kind]
    path = CRASHES / name
    path.write_bytes(data)
    return path


def campaign(iterations: int, seed: int, *, seconds: float | None = None,
             ingest_every: int = 10, save: bool = True, plots: bool = True,
             log: Callable[[str], None] = print) -> list[tuple[str, str]]:
    """Fuzz for ``iterations`` inputs (or ``seconds``); returns ``(input, error)`` of
    every crash, each saved under :data:`CRASHES` when ``save``."""
    rng = random.Random(seed)
    pool = seeds()
    crashes: list[tuple[str, str]] = []
    deadline = None if seconds is None else time.monotonic() + seconds
    with tempfile.TemporaryDirectory(prefix="tichu-fuzz-") as tmp:
        work = Path(tmp)
        for i in range(iterations):
            if deadline is not None and time.monotonic() > deadline:
                break
            base_kind, base = rng.choice(pool)
            kind = base_kind if base_kind == "tch" else rng.choice(("jsonl", "jsonl", "gz",
                                                                     "zst"))
            data = encode(mutate(base, rng), kind, rng)
            path = work / f"input{KINDS[kind]}"
            path.write_bytes(data)
            try:
                exercise(path, work, ingest_too=ingest_every > 0 and i % ingest_every == 0,
                         plots=plots)
            except Exception as e:  # noqa: BLE001 - every crash is a finding
                where = str(save_crash(data, kind)) if save else f"input {i}"
                crashes.append((where, "".join(traceback.format_exception_only(e)).strip()))
                log(f"crash: {where}: {crashes[-1][1][:300]}")
    return crashes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--ingest-every", type=int, default=10,
                        help="also ingest and read back every Nth input (0: never)")
    args = parser.parse_args(argv)
    print(f"fuzzing: seed {args.seed}, up to {args.iterations} inputs", flush=True)
    crashes = campaign(args.iterations, args.seed, seconds=args.seconds,
                       ingest_every=args.ingest_every)
    print(f"{len(crashes)} crash{'es' * (len(crashes) != 1)}"
          + (f", saved in {CRASHES}" if crashes else ""))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())


