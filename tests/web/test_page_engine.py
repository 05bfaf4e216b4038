"""A GTP engine on the page, as a player meets it: named where it plays, and when it stops, said in one
line with the built-in AI offered until Confirm takes the offer (issue "Go engines as opponents").

The engine is tests/gtp/fake_engine.py: it plays the first empty point, then answers an illegal move.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.web.conftest import screenshots, served
from tests.web.test_page import enabled, set_up, status, wait_kind, wait_ply

FAKE = Path(__file__).parents[1] / "gtp" / "fake_engine.py"


def type_move(page: Any, text: str) -> None:
    page.fill("#move-text", text)
    page.click("#move-form button[type=submit]")


def test_an_engine_is_named_and_when_it_stops_the_builtin_ai_is_offered(page: Any, tmp_path: Path) -> None:
    engine = f"{sys.executable} {FAKE} illegal 2"
    with served("go7", tmp_path, "--engine", engine, "--seconds", "0.2") as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        type_move(page, "g7")
        wait_kind(page, "ai_move")
        # Its first legal point, a1, said as the engine's and made with the engine's name on the button.
        assert status(page).startswith("Fake illegal plays a1 for White")
        assert page.inner_text("#setup") == "Make Fake illegal's move"
        set_up(page)
        wait_ply(page, 2)
        type_move(page, "b2")
        wait_kind(page, "opponent_stopped")
        said = status(page)  # why (the engine's notice), then what the board asks
        assert said.startswith("Fake illegal: ") and "answered 'A1', not a move here" in said
        assert said.endswith(
            "Nothing of it was committed. "
            "Fake illegal has stopped: press Confirm to play on against the built-in AI (White)."
        )
        assert "confirm" in enabled(page) and "hint" not in enabled(page)
        # The AI line: the engine plays no more, and the built-in AI not until the offer is taken.
        assert page.inner_text("#ai") == (
            "Fake illegal has stopped; on Confirm the built-in AI plays White, 300 nodes a move"
        )
        assert page.locator("#moves .ply").all_inner_texts() == ["g7", "a1", "b2"]
        screenshots(page, "go7-opponent_stopped")
        page.click("[data-button='confirm']")
        wait_kind(page, "ai_move")
        assert "The AI plays " in status(page) and "has stopped" not in status(page)
        assert page.inner_text("#setup") == "Make the AI's move"
        assert page.inner_text("#ai") == "plays White, 300 nodes a move"
        set_up(page)
        wait_ply(page, 4)
        wait_kind(page, "your_turn")
