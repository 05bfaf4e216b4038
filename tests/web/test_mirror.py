"""A real board's page: it mirrors the board live and takes no mouse moves.

The "real" board here is the simulated one seen only through its serial link,
as `magboard play --serial` sees a Pico: the table has no rig, so the page
knows the board only from the sensors, while the test's hands move the pieces.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from host.reach.script import parse
from host.session.session import Settings
from host.sim.hands import Hands
from host.web.play_page import serve_page
from host.web.server import PageServer
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import Table, open_table
from tests.web.conftest import screenshot

WAIT_MS = 30_000


@pytest.fixture
def mirrored(tmp_path: Path) -> Iterator[tuple[str, Table, Hands]]:
    store = tmp_path / "games.sqlite3"
    with open_table(
        "desdemona", SimulatedHardware(), settings=Settings(ai_side=None), journal_path=store
    ) as table:
        assert table.reach is not None
        hands = Hands(table.reach.rig)
        real = dataclasses.replace(table, reach=None)
        with PageServer("127.0.0.1", 0) as server:
            out = open("/dev/null", "w")  # noqa: SIM115 - closed below
            serving = threading.Thread(target=serve_page, args=(real, server, False, out), daemon=True)
            serving.start()
            try:
                yield server.url, real, hands
            finally:
                table.loop.stop.set()
                serving.join(timeout=10)
                out.close()


def test_the_page_mirrors_a_real_board(page: Any, mirrored: tuple[str, Table, Hands]) -> None:
    url, table, hands = mirrored
    page.goto(url)
    page.wait_for_selector("#status[data-kind='your_turn']", timeout=WAIT_MS)
    assert page.is_hidden("#move-form") and page.is_hidden("#setup")  # no simulated hands on a real board
    for action in parse("lift a4", set(table.game.geometry.names)):
        hands.do(action)
    # The queen is off a4, in the hand: the page lights where it may go, as the LEDs do, and outlines a4,
    # whose sensor now disagrees with the game (nothing is lit there: there is nothing to lift).
    page.wait_for_selector("#status[data-kind='lifted']", timeout=WAIT_MS)
    page.wait_for_selector("#board [data-cell='a6'][data-led='put']", timeout=WAIT_MS)
    assert page.get_attribute("#board [data-cell='a4']", "data-led") is None
    assert page.locator("#board [data-cell='a4'].changed").count() == 1
    screenshot(page, "desdemona-real-board-lifted")
    page.click("#board [data-cell='a5']")  # the mouse cannot move a real board's pieces
    page.wait_for_selector("#message:has-text('real board')", timeout=WAIT_MS)
    for action in parse("place a6", set(table.game.geometry.names)):
        hands.do(action)
    page.wait_for_selector("body[data-ply='1']", timeout=WAIT_MS)
    assert page.locator("#moves .ply").all_inner_texts() == ["a4-a6"]
    assert page.locator("#board .cell.changed").count() == 0
    assert page.locator("#board [data-cell='a6'] .thing.queen").count() == 1
    # The same Past games panel: the game being played, replayed from the store on the page's board.
    page.click("#past-refresh")
    page.wait_for_selector(".past-game:has-text('1 move')", timeout=WAIT_MS)
    assert "being played now" in page.inner_text(".past-game")
    page.click(".past-game")
    page.wait_for_selector("body.replaying[data-replay-step='0']", timeout=WAIT_MS)
    assert page.locator("#board .thing.queen").count() == 8  # RULES.md: four queens a side at the start
    assert page.locator("#board [data-cell='a4'] .thing.queen").count() == 1
    page.click("[data-step='last']")
    page.wait_for_selector("body[data-replay-step='1']", timeout=WAIT_MS)
    assert page.locator("#board [data-cell='a6'] .thing.queen").count() == 1
    assert page.locator("#board [data-cell='a4'] .thing").count() == 0
    screenshot(page, "history-desdemona-real-board-replay")
    page.click("#back-to-game")
    page.wait_for_selector("body:not(.replaying)", timeout=WAIT_MS)
    assert page.locator("#moves .ply").all_inner_texts() == ["a4-a6"]
