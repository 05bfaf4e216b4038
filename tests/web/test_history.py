"""Past games on the page: the store's list, and a replay stepped through on the drawn board.

A whole game of random legal moves is imported into the store `magboard play`
uses (as `magboard history import` does with a text record); what the replay
draws at a step is checked against the engine's position after that many
moves, and the live game's board must come back unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engines import registry
from engines.records import Record
from tests.web.conftest import import_game, screenshot, served
from tests.web.test_page import WAIT_MS, as_text, drawn, finished, marked, wait_kind


def step(page: Any, which: str, expected: int) -> None:
    page.click(f"[data-step='{which}']")
    page.wait_for_selector(f"body[data-replay-step='{expected}']", timeout=WAIT_MS)


def test_a_past_game_is_listed_and_replayed_move_by_move_then_the_live_game_returns(
    page: Any, tmp_path: Path
) -> None:
    game = registry.make("flipfour")
    texts = finished(game, 3)
    import_game(tmp_path, "flipfour", Record("flipfour", ("Ann", "Bob"), (), texts, {}).to_text())
    end = game.play_texts(texts)
    outcome = game.outcome(end)
    assert outcome is not None
    result = "a draw" if outcome.winner is None else f"{('Red', 'Yellow')[outcome.winner]} won"
    with served("flipfour", tmp_path) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        page.wait_for_selector(".past-game >> nth=1", timeout=WAIT_MS)
        listed = page.locator(".past-game").all_inner_texts()
        # Newest first: the game being played (a new one), then the imported one.
        assert listed[0].startswith("Game 2") and "being played now" in listed[0] and "0 moves" in listed[0]
        assert listed[1].startswith("Game 1") and "Ann - Bob" in listed[1]
        assert result in listed[1] and f"{len(texts)} moves" in listed[1]
        live = drawn(page)

        page.click(".past-game[data-game='1']")
        page.wait_for_selector("body.replaying[data-replay-step='0']", timeout=WAIT_MS)
        assert page.is_visible("#replay-banner") and "not the live board" in page.inner_text("#replay-banner")
        assert page.is_hidden("#status") and page.is_hidden("#buttons") and page.is_hidden("#tray")
        assert all(not things for things in drawn(page).values())  # the start: an empty board
        assert page.locator("#board .cell[data-led]").count() == 0  # no lights: nothing to do on a replay
        assert page.is_disabled("[data-step='previous']") and page.is_disabled("[data-step='first']")

        for n in (1, 2, 3):
            step(page, "next", n)
        assert drawn(page) == as_text(game.cells(game.play_texts(texts[:3])))
        before, after = game.cells(game.play_texts(texts[:2])), game.cells(game.play_texts(texts[:3]))
        assert marked(page, ".last-move") == {c for c in after if before[c] != after[c]}
        assert f"move 3 of {len(texts)}" in page.inner_text("#replay-banner")
        assert texts[2] in page.inner_text("#replay-status")
        assert page.inner_text("#moves td.current") == texts[2]
        screenshot(page, "history-flipfour-replay")

        # The board takes no input while replaying: a click lifts nothing.
        page.click(f"#board [data-cell='{game.geometry.names[0]}']")
        page.wait_for_selector("#past-message:has-text('this is a replay')", timeout=WAIT_MS)
        assert page.get_attribute("#hand", "data-held") == ""
        step(page, "previous", 2)
        assert drawn(page) == as_text(game.cells(game.play_texts(texts[:2])))

        step(page, "last", len(texts))
        assert drawn(page) == as_text(game.cells(end)) and page.is_disabled("[data-step='next']")
        reason, cells = game.table.explain(game, end)
        assert reason in page.inner_text("#replay-over") and marked(page, ".decided") == cells
        screenshot(page, "history-flipfour-replay-end")

        page.click("#moves .ply-step >> nth=0")  # a move of the list is a step too
        page.wait_for_selector("body[data-replay-step='1']", timeout=WAIT_MS)
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("body[data-replay-step='2']", timeout=WAIT_MS)
        step(page, "first", 0)

        page.click("#back-to-game")
        page.wait_for_selector("body:not(.replaying)", timeout=WAIT_MS)
        assert page.is_visible("#status") and page.is_hidden("#replay-banner")
        assert drawn(page) == live and page.locator("#moves .ply").count() == 0
        wait_kind(page, "your_turn")
        page.click("#tray [data-thing='piece:0']")  # the live board takes input again
        page.wait_for_selector("#hand[data-held='piece:0']", timeout=WAIT_MS)
        screenshot(page, "history-flipfour-back")
