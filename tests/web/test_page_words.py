"""Issue 41, items 2-5 and 7: what the page says and how it lays it out, in a real browser on the simulated
board.  What it should say is worked out from RULES.md and the engines, never read back from the server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engines import registry
from tests.web.conftest import PHONE, import_game, old_journal, screenshots, served
from tests.web.test_page import WAIT_MS, drawn, lit, status, type_moves, wait_kind, wait_ply
from tests.web.test_page_hands import follow_the_steps

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


SHOT_OR_CAPTURE = ["j7-i6", "a7-c9/c3", "g1-a7/b8"]  # White's queen c9-c4 may then take c3 by a stone on c2


def test_desdemona_says_which_colour_goes_where_and_counts_its_one_box_once(
    page: Any, tmp_path: Path
) -> None:
    """Item 2.  RULES.md: after the queen move a shot puts a stone of the opponent's colour (Black) on a
    square the queen could reach, and a capture one of the mover's (White) beyond a line of Black stones:
    from c4, Black's c3 lies between it and the empty c2, which no shot reaches (the engine agrees).  The
    stones are two-sided, so the box is one count, which a stone taken lowers by one."""
    game = registry.make("desdemona")
    pos = game.play_texts(SHOT_OR_CAPTURE)
    texts = [t for t in game.legal_texts(pos) if t.startswith("c9-c4")]
    assert "c9-c4xc2" in texts and "c9-c4/c2" not in texts and len(texts) == 27
    import_game(tmp_path, "desdemona", old_journal("desdemona", SHOT_OR_CAPTURE))
    with served("desdemona", tmp_path, "--humans", new=False) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        tray = page.locator("#tray .tray-item .count").all_inner_texts()
        stones = [t for t in tray if "stone" in t]
        assert len(stones) == 2 and sum("in the box" in t for t in stones) == 1, stones
        count = int(next(t for t in stones if "in the box" in t).split(": ")[1].split()[0])
        page.drag_and_drop("#board [data-cell='c9']", "#board [data-cell='c4']")
        wait_kind(page, "turn_under_way")
        assert (
            status(page)
            == "Finish your turn: put a White stone on c2, or a Black stone on any other green square."
        )
        assert lit(page)["c2"] == "put"
        screenshots(page, "desdemona-shot_or_capture")
        page.click("#tray [data-thing='stone:1']")
        page.wait_for_selector("#hand[data-held='stone:1']", timeout=WAIT_MS)
        now = page.locator("#tray .tray-item .count").all_inner_texts()
        box = f"Black stone: {count - 1} stones in the box, either side up"
        assert [t for t in now if "stone" in t] == [box, "White stone"]
        page.click("#board [data-cell='c2']")
        page.click("#board [data-cell='c3']", button="right")  # the Black stone between turned to White
        wait_ply(page, len(SHOT_OR_CAPTURE) + 1)
        assert page.locator("#moves .ply").all_inner_texts()[-1] == "c9-c4xc2"


def shown_choice(page: Any, move: str) -> None:
    page.wait_for_selector(f"#status[data-kind='choose'][data-move='{move}']", timeout=WAIT_MS)


def tap_until_shown(page: Any, cell: str, move: str) -> None:
    """Tap ``cell`` until the board shows ``move``, as a player taps again when the board did not notice (a
    tap that the busy machine's sensors read as a lift asks the question anew, showing its first choice)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(3):
        page.click(f"#board [data-cell='{cell}']")
        try:
            page.wait_for_selector(f"#status[data-kind='choose'][data-move='{move}']", timeout=5000)
            return
        except PlaywrightTimeout:
            continue
    shown_choice(page, move)


def test_desdemona_asks_with_the_move_made_shown_and_says_what_a_tap_shows(page: Any, tmp_path: Path) -> None:
    """Item 3.  RULES.md: a shot may land on a square the queen passed; on reed switches a queen on a10 with
    a stone on a8 reads as a queen on a8 with a stone on a10.  The queen was put down first, so the move
    shown is the one made (a7-a10/a8), and the sentence names what a tap shows instead."""
    with served("desdemona", tmp_path, "--humans", "--board", "desdemona-reed") as url:
        page.goto(url)
        type_moves(page, ["a4-a6"])
        wait_kind(page, "your_turn")
        page.drag_and_drop("#board [data-cell='a7']", "#board [data-cell='a10']")
        wait_kind(page, "turn_under_way")
        page.click("#tray [data-thing='stone:0']")
        page.click("#board [data-cell='a8']")
        shown_choice(page, "a7-a10/a8")
        assert status(page).endswith(
            "Press Confirm for a7-a10/a8 (shown), or tap any lit square (lift what is on it and put it "
            "back) to show a7-a8/a10 instead."
        )
        assert "a7-a10/a8 leaves the Black stone on a8 and the White queen on a10" in status(page)
        screenshots(page, "desdemona-reed-choose")
        tap_until_shown(page, "a8", "a7-a8/a10")
        assert status(page).endswith("to show a7-a10/a8 instead.")
        tap_until_shown(page, "a10", "a7-a10/a8")
        page.click("[data-button='confirm']")
        wait_ply(page, 2)
        assert page.locator("#moves .ply").all_inner_texts() == ["a4-a6", "a7-a10/a8"]


def test_an_amazons_take_back_counts_and_lights_the_step_that_waits_for_a_cleared_square(
    page: Any, tmp_path: Path
) -> None:
    """Item 4.  Black (the AI) answered d1-d7/g7 with j7-g4/d1, its arrow on the square White's amazon left
    (RULES.md of engines/amazons: an arrow flies like a queen from where its amazon lands).  Take back goes
    back to White's turn, two moves: four steps, the White amazon's back to d1 only once the arrow is off
    it, so it is counted and its square lit dimly, not yet asked for.  Followed step by step, the board is
    the start again."""
    game = registry.make("amazons")
    line = ["d1-d7/g7", "j7-g4/d1"]
    import_game(tmp_path, "amazons", old_journal("amazons", line))
    with served("amazons", tmp_path, new=False) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        page.click("[data-button='take_back']")
        wait_kind(page, "restore")
        assert status(page) == (
            "Take back: set the board back one turn. Take the arrow off d1; take the arrow off g7; move the "
            "Black amazon from g4 to j7. (1 more step after that.)"
        )
        assert lit(page) == {"d1": "remove", "g7": "remove", "g4": "lift", "j7": "put", "d7": "lift"}
        assert page.get_attribute("#board [data-cell='d7']", "data-dim") is not None
        screenshots(page, "amazons-restore-waiting")
        done: set[str] = set()
        while wait_kind(page, "restore", "your_turn") == "restore":
            follow_the_steps(page, done)
        assert "Move the White amazon from d7 to d1" in done
        wait_ply(page, 0)
        assert drawn(page) == {c: tuple(map(str, s)) for c, s in game.cells(game.start()).items()}
