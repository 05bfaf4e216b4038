"""The board in a real browser: each game played through the page, the LEDs it draws, its buttons.

Each test runs `magboard play` as a program, serving the page for the
simulated board (the real firmware under MicroPython, the serial link, the
tracker and the session), and drives Debian's Chromium with Playwright as a
player would: clicks, drags and the page's buttons.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from engines.game import Game
from tests.web.conftest import screenshot, served
from tests.web.plan import plan

WAIT_MS = 30_000
MOVE_MARKS = {"lift", "put", "remove", "turn"}


def position_of(game: Game[Any, Any], page: Any) -> Any:
    """The position after the moves the page lists."""
    pos = game.start()
    for text in page.locator("#moves li").all_inner_texts():
        pos = game.play(pos, game.parse_move(pos, text))
    return pos


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f"body[data-ply='{ply}']", timeout=WAIT_MS)


def wait_dark(page: Any) -> None:
    """Until no LED is drawn lit."""
    page.wait_for_function("!document.querySelector('#board .cell[data-led]')", timeout=WAIT_MS)


def lit(page: Any) -> dict[str, str]:
    """The cells the page draws lit, with what each light means."""
    cells = page.locator("#board .cell[data-led]")
    return {
        cells.nth(i).get_attribute("data-cell"): cells.nth(i).get_attribute("data-led")
        for i in range(cells.count())
    }


def gesture(page: Any, verb: str, target: str) -> None:
    if verb == "click":
        page.click(f"#board [data-cell='{target}']")
    elif verb == "lift":
        page.click(f"#board [data-cell='{target}']", modifiers=["Shift"])
    elif verb == "turn":
        page.click(f"#board [data-cell='{target}']", button="right")
    elif target:
        page.click(f"#tray [data-thing='{target}']")
    else:
        page.click("#tray .tray-item >> nth=0")  # puts back what the hand holds


def check_lift(page: Any, game: Game[Any, Any], pos: Any, cell: str) -> None:
    """Lift the top piece of ``cell`` and put it back: meanwhile the LEDs show where it may go."""
    gesture(page, "lift", cell)
    page.wait_for_selector("#board .cell[data-led='put']", timeout=WAIT_MS)
    shown = lit(page)
    assert shown[cell] == "lift"
    reachable = set().union(*(changed_cells(game, pos, m) for m in game.legal_moves(pos)))
    assert {c for c, meaning in shown.items() if meaning == "put"} <= reachable
    screenshot(page, f"{game.id}-lifted")
    gesture(page, "click", cell)
    wait_dark(page)


def make(page: Any, game: Game[Any, Any], pos: Any, move: Any) -> str:
    """Make ``move`` with the mouse where a person could, else type it; says which."""
    gestures = plan(game, game.cells(pos), game.cells(game.play(pos, move)))
    if gestures is None:
        page.fill("#move-text", game.format_move(pos, move))
        page.click("#move-form button[type=submit]")
        return "typed"
    for verb, target in gestures:
        gesture(page, verb, target)
    return "mouse"


def changed_cells(game: Game[Any, Any], pos: Any, move: Any) -> set[str]:
    before, after = game.cells(pos), game.cells(game.play(pos, move))
    return {cell for cell in before if before[cell] != after[cell]}


@pytest.mark.parametrize("game_id", ["desdemona", "kingofrings", "spacetiles", "flipfour"])
def test_a_game_played_through_the_page(game_id: str, page: Any, tmp_path: Path) -> None:
    game = registry.make(game_id)
    rng = random.Random(game_id)
    ways = []
    with served(game_id, tmp_path) as url:
        page.goto(url)
        page.wait_for_selector("#board .cell", timeout=WAIT_MS)
        assert page.locator("#board .cell").count() == game.geometry.size
        assert page.inner_text("#title") == game.name
        for turn in range(3):
            ply = 2 * turn
            page.wait_for_selector("#status[data-state='your-move']", timeout=WAIT_MS)
            pos = position_of(game, page)
            moves = game.legal_moves(pos)
            plans = {m: plan(game, game.cells(pos), game.cells(game.play(pos, m))) for m in moves}
            simple = [m for m in moves if plans[m] is not None]
            lifting = [m for m in simple if plans[m][0][0] == "lift"]
            move = rng.choice(lifting if turn == 0 and lifting else simple or moves)
            if move in lifting:
                check_lift(page, game, pos, plans[move][0][1])
            ways.append(make(page, game, pos, move))
            wait_ply(page, ply + 1)
            page.wait_for_selector(
                "#status[data-state='ai-move'], #status[data-state='over']", timeout=WAIT_MS
            )
            if page.get_attribute("#status", "data-state") == "over":
                break
            pos = position_of(game, page)
            ai_move = game.parse_move(pos, page.get_attribute("#status", "data-pending"))
            shown = lit(page)
            # The AI's move is lit where the board must change, with what to do there.
            assert shown and set(shown) <= changed_cells(game, pos, ai_move), shown
            assert set(shown.values()) <= MOVE_MARKS
            if turn == 0:
                screenshot(page, f"{game_id}-ai-move")
            ways.append(make(page, game, pos, ai_move))
            wait_ply(page, ply + 2)
        page.wait_for_selector("#status[data-state='your-move'], #status[data-state='over']", timeout=WAIT_MS)
        screenshot(page, f"{game_id}-game")
        assert "mouse" in ways
        moves_listed = page.locator("#moves li").all_inner_texts()
        assert moves_listed and len(moves_listed) == int(page.get_attribute("body", "data-ply"))


def test_a_lifted_queen_lights_where_it_may_go_and_a_drag_moves_it(page: Any, tmp_path: Path) -> None:
    game = registry.make("desdemona")
    start = game.start()
    # Hand-checked on the start diagram: the black queen on a4 goes up its file to a6 (a white queen on a7),
    # down to a1, along rank 4 to i4 (white on j4), up the diagonal to f9 (white on g10) and down it to c2
    # (white on d1).
    reach = {"a1", "a2", "a3", "a5", "a6", "b5", "c6", "d7", "e8", "f9", "b3", "c2"} | {
        f"{f}4" for f in "bcdefghi"
    }
    targets = {game.format_move(start, m) for m in game.legal_moves(start)}
    assert {text.split("-")[1] for text in targets if text.startswith("a4-")} == reach
    with served("desdemona", tmp_path) as url:
        page.goto(url)
        page.wait_for_selector("#status[data-state='your-move']", timeout=WAIT_MS)
        page.click("#board [data-cell='a4']")
        page.wait_for_selector("#hand[data-held='queen:0']", timeout=WAIT_MS)
        page.wait_for_selector("#board [data-cell='a6'][data-led='put']", timeout=WAIT_MS)
        assert lit(page) == {"a4": "lift"} | {cell: "put" for cell in reach}
        screenshot(page, "desdemona-lifted")
        page.click("#board [data-cell='a4']")  # put back: nothing to show
        wait_dark(page)
        page.drag_and_drop("#board [data-cell='a4']", "#board [data-cell='a6']")
        wait_ply(page, 1)
        assert page.locator("#moves li").all_inner_texts() == ["a4-a6"]


def test_the_buttons_take_back_hint_and_start_a_new_game(page: Any, tmp_path: Path) -> None:
    with served("flipfour", tmp_path) as url:
        page.goto(url)
        page.wait_for_selector("#status[data-state='your-move']", timeout=WAIT_MS)
        page.click("#board [data-cell='c3']")  # an empty point, and nothing in hand either
        page.wait_for_selector("#message:has-text('is empty')", timeout=WAIT_MS)
        page.click("#tray [data-thing='piece:0']")
        page.click("#board [data-cell='c3']")
        wait_ply(page, 1)
        page.wait_for_selector("#status[data-state='ai-move']", timeout=WAIT_MS)
        page.click("#ai-move")
        wait_ply(page, 2)
        page.wait_for_selector("#status[data-state='your-move']", timeout=WAIT_MS)
        page.click("[data-button='hint']")
        page.wait_for_function("document.getElementById('hint').textContent !== '-'", timeout=WAIT_MS)
        hinted = page.locator("#board .cell[data-led][data-dim]")
        assert hinted.count() >= 1  # the hint is lit, dimmed
        page.click("[data-button='take_back']")
        wait_ply(page, 0)
        # The board still shows both moves: the LEDs guide the pieces off again.
        page.wait_for_selector("#status[data-state='restore']", timeout=WAIT_MS)
        assert set(lit(page)) <= {"c3"} | set(
            page.locator("#board .cell:has(.thing)").evaluate_all("els => els.map(e => e.dataset.cell)")
        )
        page.click("[data-button='new_game']")
        page.wait_for_selector("#status[data-state='restore']", timeout=WAIT_MS)
        screenshot(page, "flipfour-restore")


def test_bad_messages_get_a_reason_and_the_game_goes_on(page: Any, tmp_path: Path) -> None:
    from websockets.sync.client import connect

    with served("flipfour", tmp_path) as url:
        origin = url.rstrip("/")
        with connect(url.replace("http", "ws") + "ws", origin=origin) as ws:  # type: ignore[arg-type]

            def answer(message: str) -> str:
                ws.send(message)
                while True:  # the next picture that says something
                    got = json.loads(ws.recv(timeout=10))
                    if got.get("message"):
                        return str(got["message"])

            assert "unknown gesture 'fly'" in answer('{"type": "gesture", "verb": "fly"}')
            assert "no cell 'z9'" in answer('{"type": "gesture", "verb": "click", "cell": "z9"}')
            assert "1..10, not 99" in answer('{"type": "level", "level": 99}')
            assert "no button 'explode'" in answer('{"type": "button", "name": "explode"}')
            assert "unknown message 'nope'" in answer('{"type": "nope"}')
            assert "c9" in answer('{"type": "move", "text": "c9"}')
            assert "AI has no move waiting" in answer('{"type": "ai_move"}')
        page.goto(url)
        page.select_option("#level", "3")
        page.fill("#move-text", "c3")
        page.click("#move-form button[type=submit]")
        wait_ply(page, 1)
        page.reload()  # what the server holds, not what the page remembers
        page.wait_for_selector("body[data-ply='1']", timeout=WAIT_MS)
        assert page.input_value("#level") == "3"
