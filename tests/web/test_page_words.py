"""Issue 41, items 2-5 and 7: what the page says and how it lays it out, in a real browser on the simulated
board.  What it should say is worked out from RULES.md and the engines, never read back from the server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engines import registry
from tests.web.conftest import PHONE, screenshots, served
from tests.web.test_page import status, type_moves, wait_kind, wait_ply

DESKTOP = {"width": 1200, "height": 900}


def wrapped_buttons(page: Any) -> list[str]:
    """The buttons of #buttons whose words take more than one line."""
    return list(
        page.locator("#buttons button:visible").evaluate_all(
            """els => els.filter(e => {
                 const range = document.createRange();
                 range.selectNodeContents(e);
                 return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1;
               }).map(e => e.textContent)"""
        )
    )


def test_go_s_five_buttons_each_keep_to_one_line_on_a_desktop_and_a_phone(page: Any, tmp_path: Path) -> None:
    """Item 7: Go has a Pass button (RULES.md of engines/go7: a player may pass), five in all."""
    with served("go7", tmp_path, "--humans") as url:
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            page.goto(url)
            wait_kind(page, "your_turn")
            assert page.locator("#buttons button:visible").count() == 5
            assert wrapped_buttons(page) == [], size
        screenshots(page, "go7-buttons")


def test_space_tiles_offers_to_move_a_piece_only_once_the_player_has_one(page: Any, tmp_path: Path) -> None:
    """Item 5.  RULES.md: a tile touching one tile asks to move one of your pieces, so while a player has
    none on the board their turn's tile must touch two or more and place pieces."""
    game = registry.make("spacetiles")
    line = ["e1:d2", "c3:d3"]  # Orange's piece on d2, then Violet's on d3
    placing = (
        "place a tile that touches two tiles or more, then place one piece fewer than the tiles it touches"
    )
    with served("spacetiles", tmp_path, "--humans") as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        assert status(page) == f"Orange to move: {placing}."
        type_moves(page, line[:1])
        wait_kind(page, "your_turn")
        assert status(page) == f"Violet to move: {placing}."  # Violet has no piece yet
        screenshots(page, "spacetiles-first_turns")
        page.fill("#move-text", line[1])
        page.click("#move-form button[type=submit]")
        wait_ply(page, 2)
        wait_kind(page, "your_turn")
        pos = game.play_texts(line)
        assert any("-" in text for text in game.legal_texts(pos))  # d2 may step now
        assert "then move one of your pieces one step if the tile touches one tile" in status(page)
