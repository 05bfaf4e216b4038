"""The page's hands as a person's (issue 41): a click or a drag lifts what a hand lifts there by the game's
rules, a drop puts down all that is held, and the tray gives only what the game can still give.

What the board should show is worked out from RULES.md and the engines, never read back from the server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engines import registry
from tests.web.conftest import screenshots, served
from tests.web.plan import Gesture, plan
from tests.web.test_page import WAIT_MS, drawn, finished, gesture, status, wait_kind, wait_ply
from tests.web.test_page_cases import same_to_the_game


def as_text(stack: tuple[Any, ...]) -> tuple[str, ...]:
    return tuple(map(str, stack))


def cell(name: str) -> str:
    return f"#board [data-cell='{name}']"


def drag(page: Any, source: str, target: str) -> None:
    """Press on ``source``, move as a hand does (the page lifts once the pointer has gone a few pixels), and
    let go over ``target``."""
    start, end = page.locator(source).bounding_box(), page.locator(target).bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(start["x"] + start["width"] / 2 + 10, start["y"] + start["height"] / 2, steps=2)
    page.wait_for_selector("#hand:not([data-held=''])", timeout=WAIT_MS)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=5)
    page.mouse.up()


def by_hand(page: Any, steps: list[Gesture], dragging: bool) -> None:
    """The plan's plain clicks, or where ``dragging`` each carry and each removal as one drag."""
    assert all(verb in ("click", "tray") for verb, _ in steps), f"a modifier or a turn: {steps}"
    i = 0
    while i < len(steps):
        verb, target = steps[i]
        after = steps[i + 1] if i + 1 < len(steps) else None
        if dragging and verb == "click" and after is not None and after[0] == "click":
            drag(page, cell(target), cell(after[1]))
            i += 2
        elif dragging and verb == "click" and after == ("tray", ""):
            drag(page, cell(target), "#tray .tray-item:visible >> nth=0")
            i += 2
        else:
            gesture(page, verb, target)
            i += 1


def test_a_whole_king_of_rings_game_by_plain_clicks_and_drags(page: Any, tmp_path: Path) -> None:
    """A random game (seed 92: 38 moves, 3 captures of ring holders, 3 drops) between two people at the page,
    every move made by the mouse without a modifier key: a knight carried with its rings (one click or one
    drag), a captured knight taken off alone (it is not the mover's: its rings stay for the captor) and put
    in the box, a knight back in hand dropped from the tray.  After every move the board is the game's."""
    game = registry.make("kingofrings")
    texts = finished(game, 92)
    pos = game.start()
    captures = [
        t for i, t in enumerate(texts) if "x" in t and len(game.cells(game.play_texts(texts[:i]))[t[3:]]) > 1
    ]
    assert len(texts) == 38 and len(captures) == 3 and sum(t.startswith("*") for t in texts) == 3
    with served("kingofrings", tmp_path, "--humans") as url:
        page.goto(url)
        for ply, text in enumerate(texts, start=1):
            wait_kind(page, "your_turn")
            move = game.parse_move(pos, text)
            after = game.play(pos, move)
            steps = plan(game, pos, game.cells(after))
            assert steps, text
            by_hand(page, steps, dragging=ply % 2 == 0)
            wait_ply(page, ply)
            assert page.locator("#moves .ply").all_inner_texts()[-1] == text
            pos = after
            shown, wanted = drawn(page), game.cells(pos)
            wrong = {c: shown[c] for c in wanted if not same_to_the_game(shown[c], as_text(wanted[c]))}
            assert not wrong, f"after {text} the board is not the game's: {wrong}"
            if text in captures:
                screenshots(page, f"kingofrings-hands-capture-{ply}")
        wait_kind(page, "game_over")
        assert page.locator("#moves .ply").all_inner_texts() == texts
        assert page.is_hidden("#unseen") and ("wins" in status(page) or "draw" in status(page))
        screenshots(page, "kingofrings-hands-game_over")
