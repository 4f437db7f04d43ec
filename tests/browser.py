"""Open local HTML files in headless Chromium: a screenshot, or the DOM after load.

Reusable by any test that writes HTML (``from browser import screenshot, dump_dom``).
The browser runs with no network (everything a page needs must be in the file),
a throwaway profile and no sandbox (tests may run as root in a container). Tests
call :func:`require_chromium` to skip, with the reason, when no Chromium is
installed (``make browser`` installs the Debian package).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TIMEOUT = 90

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
    # no network: any http(s) request of the page fails instead of leaving the machine
    "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
)


def find_chromium() -> str | None:
    """The path of a Chromium binary ($CHROMIUM first), or None."""
    env = os.environ.get("CHROMIUM")
    if env and Path(env).is_file():
        return env
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def require_chromium() -> str:
    """The Chromium binary, or skip the calling test saying why."""
    found = find_chromium()
    if found is None:
        pytest.skip("no Chromium found (looked for $CHROMIUM, " + ", ".join(CANDIDATES)
                    + "); 'make browser' installs it")
    return found


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    binary = require_chromium()
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        return subprocess.run(
            [binary, *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True, text=True, timeout=TIMEOUT, check=False,
            env={**os.environ, "HOME": profile},
        )


def screenshot(html_path: str | os.PathLike[str], png_path: str | os.PathLike[str],
               width: int = 1200, height: int = 2000) -> Path:
    """Render ``html_path`` at ``width`` x ``height`` into ``png_path`` and return it.

    Raises AssertionError with Chromium's output when no screenshot was written.
    """
    png = Path(png_path).resolve()
    png.unlink(missing_ok=True)
    url = Path(html_path).resolve().as_uri()
    result = _run([f"--screenshot={png}", f"--window-size={width},{height}", url])
    assert png.is_file() and png.stat().st_size > 0, (
        f"chromium wrote no screenshot (exit {result.returncode}):\n{result.stderr[-3000:]}"
    )
    return png


def dump_dom(html_path: str | os.PathLike[str]) -> str:
    """The page's DOM after loading ``html_path``, serialized as HTML."""
    url = Path(html_path).resolve().as_uri()
    result = _run(["--dump-dom", "--virtual-time-budget=2000", url])
    assert result.returncode == 0 and "<html" in result.stdout.lower(), (
        f"chromium --dump-dom failed (exit {result.returncode}):\n{result.stderr[-3000:]}"
    )
    return result.stdout


def is_blank(png_path: str | os.PathLike[str], min_std: float = 0.02) -> bool:
    """Whether the image is (almost) one flat colour: pixel standard deviation below
    ``min_std`` on a 0..1 scale."""
    from matplotlib.image import imread

    pixels = imread(str(png_path))
    return float(pixels[..., :3].std()) < min_std
