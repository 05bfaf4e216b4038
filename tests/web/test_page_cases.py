"""Each game's corners as a new player meets them on the page (issue "Each game speaks for itself", its page
items 1, 5, 8, 9, 12 and 13), in a real browser on the simulated board.

What the page should show is worked out here from RULES.md and the engines' legal moves, never read back
from the server: a King of Rings knight carries its rings (their order under it is no difference to the
game), a Space Tiles tile goes only where a turn places one, a typed move is the player's answer to any
question the board would ask about it, and a game once over is a past game with its result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engines import registry
from tests.web.conftest import PHONE, import_game, old_journal, screenshots, served
from tests.web.test_page import (
    WAIT_MS,
    drawn,
    enabled,
    finished,
    gestures,
    lit,
    marked,
    serious_violations,
    set_up,
    status,
    wait_kind,
    wait_ply,
)

DESKTOP = {"width": 1200, "height": 900}


def legend_meanings(page: Any) -> set[str]:
    return set(
        page.locator("#legend li[data-meaning]").evaluate_all("els => els.map(e => e.dataset.meaning)")
    )


def badge(page: Any, cell: str) -> tuple[str, int] | None:
    """The points drawn on a stack's badge and its pips (one per carried ring), or None for no badge."""
    where = f"#board [data-cell='{cell}'] .points"
    if page.locator(f"{where} .badge").count() == 0:
        return None
    return page.text_content(f"{where} .badge text"), page.locator(f"{where} .pip").count()


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return dict(found)


def same_to_the_game(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """RULES.md: a knight carries the rings it won; in which order they lie under it is no matter."""
    return a[-1:] == b[-1:] and sorted(a) == sorted(b)


def dots(page: Any) -> set[str]:
    """The cells dotted as places for what the hand holds, once drawn (none ringed: nothing is taken)."""
    page.wait_for_selector("#board .cell.target", state="attached", timeout=WAIT_MS)
    assert marked(page, ".target-occupied") == set()
    return marked(page, ".target")


def no_dots(page: Any) -> bool:
    return marked(page, ".target") | marked(page, ".target-occupied") == set()


def take_from_tray(page: Any, thing: str) -> None:
    page.click(f"#tray [data-thing='{thing}']")
    page.wait_for_selector(f"#hand[data-held='{thing}']", timeout=WAIT_MS)


def put_back(page: Any) -> None:
    page.click("#tray .tray-item:visible >> nth=0")
    page.wait_for_selector("#hand[data-held='']", timeout=WAIT_MS)


# --- The King of Rings: a knight moved without its ring, the ring put on it, and the AI taking it -----------
@pytest.mark.parametrize("board", ["kingofrings-hall", "kingofrings-reed"])
def test_the_ais_capture_of_a_knight_with_its_ring_on_top_ends_in_the_ais_position(
    board: str, page: Any, tmp_path: Path
) -> None:
    """Items 1 and 5.  Light's knight on d3 holds the silver ring it took; moved with a shift-click (the top
    object alone) it leaves the ring behind (rings carry no magnet: the sensors see the knight jump d3-d4
    onto the big blue ring), and
    the player then puts the ring on the knight - on top, as a hand does.  Dark's holder on d5 takes it."""
    game = registry.make("kingofrings")
    line = ["d2-d3", "d6-d5"]
    import_game(tmp_path, "kingofrings", old_journal("kingofrings", line))
    with served("kingofrings", tmp_path, "--board", board, new=False) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        # Nothing in this game turns over: neither the legend nor the help offers it.
        assert "turn" not in legend_meanings(page) and "put" in legend_meanings(page)
        assert "turns a piece over" not in page.inner_text("#help")

        gestures(page, [("lift", "d3"), ("click", "d4")])  # shift-click: the knight alone
        wait_ply(page, 3)
        pos = game.play_texts([*line, "d3-d4"])
        # The ring left on d3 and the knight's stack on d4 differ from the game unseen: a note under the
        # board, in the caption's ink (nothing to do about it now), and dotted cells.
        page.wait_for_selector("#unseen:not([hidden])", timeout=WAIT_MS)
        assert marked(page, ".unseen") == {"d3", "d4"}
        note = page.inner_text("#unseen")
        assert "d3" in note and "d4" in note and page.inner_text("#message") == ""
        ink = page.eval_on_selector("#unseen", "e => getComputedStyle(e).color")
        assert ink == page.eval_on_selector("#help", "e => getComputedStyle(e).color"), ink
        assert box(page, "#unseen")["y"] >= box(page, "#board")["y"] + box(page, "#board")["height"]
        # The badge is the game's count (RULES.md: silver 1 + big blue 5), not the big blue ring alone.
        assert badge(page, "d4") == ("6", 2)
        screenshots(page, f"{board}-ring_left_behind")
        page.set_viewport_size(PHONE)  # a phone's first screen: what to do, and the whole board
        assert box(page, "#board")["y"] + box(page, "#board")["height"] <= PHONE["height"]
        page.set_viewport_size(DESKTOP)

        gestures(page, [("click", "d3"), ("click", "d4")])  # the ring onto the knight that won it
        page.wait_for_selector("#board [data-cell='d3']:not(.unseen)", timeout=WAIT_MS)
        # d3 is clear as soon as the ring is in the hand; d4 is drawn with it once the hand puts it there.
        page.wait_for_selector(
            "#board [data-cell='d4'] .pieces .thing[data-thing='ring_silver']", timeout=WAIT_MS
        )
        assert drawn(page)["d4"] == ("ring_bigblue", "knight:0", "ring_silver")
        # The knight's rings, in any order, are the game's: no note, no dotted cell, the same badge.
        assert page.is_hidden("#unseen") and marked(page, ".unseen") == set()
        assert badge(page, "d4") == ("6", 2)

        wait_kind(page, "ai_move")
        ai_text = str(page.get_attribute("#status", "data-move"))
        assert ai_text == "d5xd4", f"the AI (seed 1, 300 nodes) took Light's 6 points when written: {ai_text}"
        screenshots(page, f"{board}-ai_capture")
        if board.endswith("hall"):
            assert serious_violations(page) == []
        after = game.cells(game.play(pos, game.parse_move(pos, ai_text)))
        set_up(page)  # "Make the AI's move"
        wait_ply(page, 4)
        wait_kind(page, "your_turn")
        shown = drawn(page)
        wrong = {
            c: (shown[c], after[c])
            for c in after
            if not same_to_the_game(shown[c], tuple(map(str, after[c])))
        }
        assert not wrong, f"the board is not the AI's position: {wrong}"
        # d5's knight with its own silver ring took d4's silver and big blue: 3 rings, 7 points; Light's
        # knight held rings, so it is back in Light's hand.
        assert badge(page, "d4") == ("7", 3)
        assert "1 knight in hand" in page.inner_text("#players li[data-side='0']")
        assert not lit(page) and page.is_hidden("#unseen")
        # Nothing is left to set up: the button is off, and the board stays as it is.
        assert page.is_disabled("#setup")
        page.wait_for_timeout(1500)
        assert drawn(page) == shown and page.get_attribute("body", "data-ply") == "4"

        # Item 8: the knight back in hand, taken from the tray, is dotted where it may be dropped (RULES.md:
        # any square that holds a loose ring).
        now = game.play(pos, game.parse_move(pos, ai_text))
        drops = {text[1:] for text in game.legal_texts(now) if text.startswith("*")}
        assert drops == {
            c for c, stack in game.cells(now).items() if len(stack) == 1 and stack[0].colour is None
        }
        take_from_tray(page, "knight:0")
        assert dots(page) == drops
        put_back(page)


# --- Space Tiles on reed switches: the tray's dots, and a typed move the board cannot tell apart ------------
def test_a_tile_from_the_tray_is_dotted_only_where_a_turn_places_one_and_a_typed_twin_is_taken(
    page: Any, tmp_path: Path
) -> None:
    """Items 8, 9 and 13.  RULES.md: a tile goes on a cell without a tile next to at least one; the tiles
    carry no magnet on this board, so a move is told from its twins only by the player."""
    game = registry.make("spacetiles")
    start = game.start()
    texts = game.legal_texts(start)
    with served("spacetiles", tmp_path, "--board", "spacetiles-reed") as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        assert "turn" not in legend_meanings(page)
        assert "turns a piece over" not in page.inner_text("#help")

        take_from_tray(page, "tile")
        tiles = {text.split(":")[0] for text in texts}
        assert dots(page) == tiles and len(tiles) == 8  # hand-checked: the free cells around the centre 9
        screenshots(page, "spacetiles-tray_tile")
        page.click("#board [data-cell='c3']")  # next to d2 and d3: one piece to place (n = 2)
        page.wait_for_selector("#hand[data-held='']", timeout=WAIT_MS)
        take_from_tray(page, "piece:0")
        pieces = {cell for text in texts if text.startswith("c3:") for cell in text[3:].split(",")}
        assert dots(page) == pieces
        screenshots(page, "spacetiles-tray_piece")
        put_back(page)
        page.click("#board [data-cell='c3']")  # the tile back into the box: the start again
        put_back(page)
        wait_kind(page, "your_turn")
        assert no_dots(page)

        # A piece on d3 and a tile on g3: the sensors feel only the piece, as for c3:d3 and every twin.
        typed = "g3:d3"
        assert typed in texts and "c3:d3" in texts
        page.fill("#move-text", typed)
        page.click("#move-form button[type=submit]")
        wait_ply(page, 1)
        assert page.locator("#moves .ply").all_inner_texts() == [typed]
        wait_kind(page, "ai_move")
        screenshots(page, "spacetiles-reed-ai_move")


# --- Desdemona: a stone from the tray during a turn ---------------------------------------------------------
def test_a_stone_from_the_tray_is_dotted_where_the_moved_queen_may_shoot(page: Any, tmp_path: Path) -> None:
    """Items 8 and 13.  RULES.md: after the queen move, a shot puts a stone of the opponent's colour on an
    empty square the moved queen could reach, the square it just left included."""
    game = registry.make("desdemona")
    pos = game.play_texts(["a4-a6"])  # Black's first turn is the queen move alone
    with served("desdemona", tmp_path, "--humans") as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        assert "turn" in legend_meanings(page)
        assert "right-click turns a piece over" in page.inner_text("#help")
        take_from_tray(page, "stone:1")
        assert no_dots(page)  # Black's first turn places no stone
        put_back(page)
        page.drag_and_drop("#board [data-cell='a4']", "#board [data-cell='a6']")
        wait_ply(page, 1)
        page.drag_and_drop("#board [data-cell='g10']", "#board [data-cell='g5']")
        wait_kind(page, "turn_under_way")
        take_from_tray(page, "stone:0")  # White shoots a Black stone
        shots = {t.split("/")[1] for t in game.legal_texts(pos) if t.startswith("g10-g5/")}
        assert "g10" in shots
        assert dots(page) == shots
        screenshots(page, "desdemona-tray_stone")
        page.click("#board [data-cell='g10']")
        wait_ply(page, 2)
        assert page.locator("#moves .ply").all_inner_texts() == ["a4-a6", "g10-g5/g10"]


# --- Flip Four: a typed piece taken at once, and the past games following the live game ---------------------
def test_a_typed_piece_is_taken_and_the_past_games_follow_the_live_game_to_its_end(
    page: Any, tmp_path: Path
) -> None:
    """Items 9, 12 and 13.  A random game's last move is one piece put by a player holding two (RULES.md:
    one or two may be placed), which the board would ask to confirm; typed, it is the player's whole move."""
    game = registry.make("flipfour")
    texts = finished(game, 22)
    before_last = game.play_texts(texts[:-1])
    assert game.hands(before_last)[game.to_move(before_last)]["piece"] >= 2 and "," not in texts[-1]
    outcome = game.outcome(game.play_texts(texts))
    assert outcome is not None and outcome.winner is not None
    winner = ("Red", "Yellow")[outcome.winner]
    result = f"{winner} won"
    import_game(tmp_path, "flipfour", old_journal("flipfour", texts[:-2]))
    with served("flipfour", tmp_path, "--humans", new=False) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        assert "turn" in legend_meanings(page)
        assert "right-click turns a piece over" in page.inner_text("#help")
        entry = ".past-game[data-game='1']"
        page.wait_for_selector(f"{entry}:has-text('{len(texts) - 2} moves')", timeout=WAIT_MS)
        assert "being played now" in page.inner_text(entry)

        for ply, text in enumerate(texts[-2:], start=len(texts) - 1):
            page.fill("#move-text", text)
            page.click("#move-form button[type=submit]")
            wait_ply(page, ply)
        # The list follows without "Refresh the list": the moves made, and the result once it is over.
        wait_kind(page, "game_over")
        page.wait_for_selector(f"{entry}:has-text('{len(texts)} moves')", timeout=WAIT_MS)
        page.wait_for_selector(f"{entry}:has-text('{result}')", timeout=WAIT_MS)
        assert "being played now" not in page.inner_text(entry) and f"{winner} wins" in status(page)
        assert not page.is_disabled(entry) and not page.is_disabled("#past-refresh")
        screenshots(page, "flipfour-past_games_over")
    page.wait_for_selector("body[data-connection='closed']", timeout=WAIT_MS)
    # Nothing can be asked of a board out of reach: the list's buttons are off until it is back.
    assert page.is_disabled(entry) and page.is_disabled("#past-refresh") and enabled(page) == set()
    assert serious_violations(page) == []  # the greyed page is still readable
