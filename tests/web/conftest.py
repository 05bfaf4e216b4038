"""The browser tests' fixtures: Debian's Chromium under Playwright, and `magboard play` serving the page.

Chromium is Debian's (``apt-get install chromium``, as .ci/run does), never a
browser build downloaded by Playwright.  Screenshots go to
test-artifacts/web/, one or more per game.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts" / "web"
START_S = 60


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's chromium (see .ci/run)")
        pytest.skip("Debian's chromium is not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--disable-background-networking", "--no-first-run", "--disable-component-update"],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"the page raised: {errors}"


@contextmanager
def served(
    game: str, tmp_path: Path, *extra: str, new: bool = True, port: int = 0, budget: tuple[str, ...] = ()
) -> Iterator[str]:
    """`magboard play GAME` serving the page; yields the page's address.

    ``new``: start a new game rather than resume the journal; ``port`` 0: any
    free port; ``budget``: the AI's thinking (default 300 nodes a move).
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "host.cli", "play", game, "--no-browser", "--port", str(port),
         *(["--new"] if new else []), "--journal", str(tmp_path / f"{game}.journal"),
         *(budget or ("--nodes", "300")), "--seed", "1", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://\S+", line)
        if found is None:
            process.kill()
            _, err = process.communicate(timeout=START_S)
            raise AssertionError(f"magboard play did not serve the page: {line!r} {err}")
        yield found.group(0)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")  # blinking LEDs drawn lit
    return path


PHONE = {"width": 390, "height": 844}


def screenshots(page: Any, name: str) -> None:
    """``screenshot`` as the page is now, and again on a phone's screen (390x844); the viewport is kept."""
    screenshot(page, name)
    before = page.viewport_size
    page.set_viewport_size(PHONE)
    try:
        screenshot(page, f"{name}-phone")
    finally:
        page.set_viewport_size(before)


def old_journal(game_id: str, moves: list[str]) -> str:
    """A game's moves as an old text journal, which `magboard history import` reads."""
    return f"game: {game_id}\noptions: \n---\n" + "".join(f"move {text}\n" for text in moves)


def import_game(tmp_path: Path, game_id: str, record: str) -> None:
    """A game's record text into the store `served` plays with, as `magboard history import` does."""
    path = tmp_path / "imported.txt"
    path.write_text(record)
    store = tmp_path / f"{game_id}.journal"
    imported = subprocess.run(
        [sys.executable, "-m", "host.cli", "history", "--journal", str(store), "import", str(path)],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
