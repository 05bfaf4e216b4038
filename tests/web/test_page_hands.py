"""The page's hands as a person's (issue 41): a click or a drag lifts what a hand lifts there by the game's
rules, a drop puts down all that is held, and the tray gives only what the game can still give.

What the board should show is worked out from RULES.md and the engines, never read back from the server.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engines import registry
from tests.web.conftest import import_game, old_journal, screenshots, served
from tests.web.plan import Gesture, plan
from tests.web.test_page import (
    WAIT_MS,
    drawn,
    finished,
    gesture,
    lit,
    marked,
    serious_violations,
    status,
    type_moves,
    wait_kind,
    wait_ply,
)
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


def follow_the_steps(page: Any, done: set[str]) -> None:
    """Do what the sentence asks, by plain clicks, as a person reading it would: take off, move or put (what
    to put is drawn faintly on its cell, and comes from the tray).  A ring put down is not felt by the
    sensors, so the sentence goes on naming it: what was ``done`` is not done again, as a person would not."""
    sentence = status(page)
    said = sentence.split(". ", 1)[1].split(" (")[0].rstrip(".").split("; ")
    for step in said:
        first = step[:1].upper() + step[1:]
        if first in done:
            continue
        done.add(first)
        if found := re.match(r"Take .+ off (\w+)$", first):
            steps: list[Gesture] = [("click", found[1]), ("tray", "")]
        elif found := re.match(r"Move .+ from (\w+) to (\w+)$", first):
            steps = [("click", found[1]), ("click", found[2])]
        elif found := re.match(r"Put .+ on (\w+)$", first):
            ghost = page.get_attribute(f"{cell(found[1])} .ghost .thing", "data-thing")
            steps = [("tray", str(ghost)), ("click", found[1])]
        else:
            raise AssertionError(f"not an instruction: {first!r} in {sentence!r}")
        by_hand(page, steps, dragging=False)
        page.wait_for_selector("#hand[data-held='']", timeout=WAIT_MS)
    page.wait_for_function("s => document.getElementById('status').textContent !== s", arg=sentence)


def test_new_game_set_up_by_following_the_lights_leaves_no_ring_astray(page: Any, tmp_path: Path) -> None:
    """Issue 41 item 1: after New game, knights with rings taken off as the sentence asks ("take Dark's knight
    with its ring off f4") leave no ring behind, so no note stays under the board: the start position of
    RULES.md, every ring on its square."""
    game = registry.make("kingofrings")
    texts = finished(game, 92)[:6]
    with served("kingofrings", tmp_path, "--humans") as url:
        page.goto(url)
        type_moves(page, texts)
        page.click("[data-button='new_game']")
        done: set[str] = set()
        while wait_kind(page, "restore", "your_turn") == "restore":
            follow_the_steps(page, done)
        wait_ply(page, 0)
        page.wait_for_timeout(1000)  # a note would be drawn by now
        assert page.is_hidden("#unseen"), page.inner_text("#unseen")
        assert drawn(page) == {c: as_text(stack) for c, stack in game.cells(game.start()).items()}


def test_a_tile_from_the_tray_lights_its_cells_and_the_sentence_says_what_to_do(
    page: Any, tmp_path: Path
) -> None:
    """Issue 41 item 6.  RULES.md: a turn's tile goes next to a tile, and at the start (no piece to move) only
    where it touches two or more: the 8 cells around the centre 9 that are not its corners' outer
    neighbours (hand-checked on the board's drawing), each lit green as a lifted piece's places are, and
    the sentence says what the hand holds and where it goes."""
    game = registry.make("spacetiles")
    start = game.start()
    tiles = {text.split(":")[0] for text in game.legal_texts(start)}
    assert len(tiles) == 8
    with served("spacetiles", tmp_path) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        before = status(page)
        gesture(page, "tray", "tile")
        page.wait_for_selector("#hand[data-held='tile']", timeout=WAIT_MS)
        page.wait_for_selector("#board .cell[data-led='put']", timeout=WAIT_MS)
        assert lit(page) == {cell: "put" for cell in tiles}
        assert marked(page, ".target") == tiles
        assert status(page) == "Put the tile in your hand on a green cell, or back in the box."
        screenshots(page, "spacetiles-hands-tray_tile")
        assert serious_violations(page) == []
        gesture(page, "tray", "")
        page.wait_for_selector("#hand[data-held='']", timeout=WAIT_MS)
        page.wait_for_function("s => document.getElementById('status').textContent === s", arg=before)
        assert lit(page) == {}


CAPTURE = ["a1-b1", "b6-a5", "b2-b3", "a5-a4"]  # Light's b3 (1 ring) may take Dark's a4 (2 rings): b3xa4


def test_a_capture_says_to_lift_the_taken_knight_off_first_and_its_rings_stay(
    page: Any, tmp_path: Path
) -> None:
    """Issue 41 item 1.  RULES.md: a knight that lands on an enemy knight takes all its rings, and the enemy
    knight leaves the board (to its owner's hand: it held rings).  The sentence says to lift it off first
    (else the rings carried would go on top of it); a plain click on it lifts it alone, since it is not the
    mover's, and a drag carries the taker with its ring onto the rings left there."""
    game = registry.make("kingofrings")
    pos = game.play_texts(CAPTURE)
    after = game.play_texts([*CAPTURE, "b3xa4"])
    import_game(tmp_path, "kingofrings", old_journal("kingofrings", CAPTURE))
    with served("kingofrings", tmp_path, "--humans", new=False) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        assert (
            status(page)
            == "Light to move: step or jump a knight; to take a knight, lift it off its square first."
        )
        # The help says what a click lifts here.
        assert "a click lifts what a hand would (a knight with the rings it carries on its owner's turn)" in (
            page.inner_text("#help")
        )
        # Every ring is on the board (RULES.md: 35 at the start, none ever goes back): the box gives none.
        assert page.is_disabled("#tray [data-thing='ring_silver']")
        assert "0 in the box" in page.inner_text("#tray [data-thing='ring_silver']")
        gesture(page, "click", "b3")
        wait_kind(page, "lifted")
        assert status(page) == (
            "Put Light's knight with its ring from b3 on a green square; to take Dark's knight on a4, "
            "lift it off first."
        )
        screenshots(page, "kingofrings-hands-lifted_capture")
        assert serious_violations(page) == []
        gesture(page, "click", "b3")
        wait_kind(page, "your_turn")
        drag(page, cell("a4"), "#tray .tray-item:visible >> nth=0")
        page.wait_for_selector("#hand[data-held='']", timeout=WAIT_MS)
        assert drawn(page)["a4"] == as_text(game.cells(pos)["a4"][:-1])  # its two rings stay
        wait_kind(page, "turn_under_way")
        assert status(page) == "To finish b3xa4: move Light's knight with its ring from b3 to a4."
        screenshots(page, "kingofrings-turn_under_way")
        drag(page, cell("b3"), cell("a4"))
        wait_ply(page, len(CAPTURE) + 1)
        assert same_to_the_game(drawn(page)["a4"], as_text(game.cells(after)["a4"]))
        assert "1 knight in hand" in page.inner_text("#players li[data-side='1']")
