"""The board in a real browser: each game through the page, every kind of intent, its lights and buttons.

Each test runs `magboard play` as a program, serving the page for the
simulated board (the real firmware under MicroPython, the serial link, the
tracker and the session), and drives Debian's Chromium with Playwright as a
player would: clicks, drags and the page's buttons.  What the page should show
is worked out here from the rules (RULES.md) and the engines, not read back
from the server.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from engines.game import Game
from tests.web.conftest import import_game, old_journal, screenshot, screenshots, served
from tests.web.plan import Gesture, plan

WAIT_MS = 30_000
MOVE_MARKS = {"lift", "put", "remove", "turn"}
GAMES = ["desdemona", "kingofrings", "spacetiles", "flipfour", "go7", "amazons"]
SIDES = {
    "kingofrings": ("Light", "Dark"),
    "desdemona": ("Black", "White"),
    "spacetiles": ("Orange", "Violet"),
    "flipfour": ("Red", "Yellow"),
    "go7": ("Black", "White"),
    "amazons": ("White", "Black"),
}
# RULES.md: what each player holds at the start, and the score before the first move.
START_HANDS = {
    "kingofrings": ("0 knights in hand", "0 knights in hand"),
    "desdemona": ("", ""),
    "spacetiles": ("20 pieces in hand", "20 pieces in hand"),
    "flipfour": ("8 pieces to place", "8 pieces to place"),
    "go7": ("48 stones in the bowl", "48 stones in the bowl"),
    "amazons": ("", ""),
}
START_SCORE = {
    "kingofrings": "Light 0 points - Dark 0 points",
    "desdemona": "Black 0 stones - White 0 stones",
    "go7": "Black 0 points - White 0 points + 7.5 komi",
}
NOTATION_EXAMPLE = {
    "kingofrings": "b2xc3",
    "desdemona": "a4-a6xc8",
    "spacetiles": "g3:d3,f2",
    "flipfour": "b2,d4",
    "go7": "d4 or pass",
    "amazons": "d1-d7/g7",
}
# Something the player to move may not do at the start (the gestures, and the cell that shows it): the
# opponent's object from the box put on a cell, or where the box has none to give (RULES.md: the King of
# Rings' hands start empty, every amazon stands on the board) a piece moved as it may not move: a knight
# without rings jumped three squares, an amazon moved as a chess knight.
MISTAKE: dict[str, tuple[list[Gesture], str]] = {
    "kingofrings": ([("click", "a1"), ("click", "d4")], "d4"),
    "desdemona": ([("tray", "stone:1"), ("click", "e5")], "e5"),
    "spacetiles": ([("tray", "piece:1"), ("click", "e3")], "e3"),
    "flipfour": ([("tray", "piece:1"), ("click", "c3")], "c3"),
    "go7": ([("tray", "stone:1"), ("click", "d4")], "d4"),
    "amazons": ([("click", "d1"), ("click", "e3")], "e3"),
}


# --- reading the page --------------------------------------------------------------------------------
def position_of(game: Game[Any, Any], page: Any) -> Any:
    """The position after the moves the page lists."""
    return game.play_texts(page.locator("#moves .ply").all_inner_texts())


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f"body[data-ply='{ply}']", timeout=WAIT_MS)


def wait_kind(page: Any, *kinds: str) -> str:
    """Until the board wants one of ``kinds``; the kind it wants then.  A timeout says what it wanted."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector(", ".join(f"#status[data-kind='{k}']" for k in kinds), timeout=WAIT_MS)
    except PlaywrightTimeout:
        screenshot(page, f"failed-waiting-for-{'-or-'.join(kinds)}")
        raise AssertionError(
            f"waited for {kinds}, the page says {status(page)!r} and lights {lit(page)}"
        ) from None
    return str(page.get_attribute("#status", "data-kind"))


def status(page: Any) -> str:
    return str(page.inner_text("#status"))


def lit(page: Any) -> dict[str, str]:
    """The cells the page draws lit, with what each light means."""
    return dict(
        page.locator("#board .cell[data-led]").evaluate_all(
            "els => els.map(e => [e.dataset.cell, e.dataset.led])"
        )
    )


def marked(page: Any, selector: str) -> set[str]:
    """The cells matching ``selector`` (a class: .last-move, .target, .decided, ...)."""
    return set(page.locator(f"#board .cell{selector}").evaluate_all("els => els.map(e => e.dataset.cell)"))


def drawn(page: Any) -> dict[str, tuple[str, ...]]:
    """What the page draws on every cell (ghosts aside), bottom to top."""
    found = page.locator("#board .cell").evaluate_all(
        "els => els.map(e => [e.dataset.cell,"
        " [...e.querySelectorAll('.pieces .thing')].map(t => t.dataset.thing)])"
    )
    return {cell: tuple(things) for cell, things in found}


def as_text(stacks: Any) -> dict[str, tuple[str, ...]]:
    return {cell: tuple(str(t) for t in stack) for cell, stack in stacks.items()}


def enabled(page: Any) -> set[str]:
    return set(
        page.locator("[data-button]:not([disabled])").evaluate_all("els => els.map(e => e.dataset.button)")
    )


def changed_cells(game: Game[Any, Any], pos: Any, move: Any) -> set[str]:
    before, after = game.cells(pos), game.cells(game.play(pos, move))
    return {cell for cell in before if before[cell] != after[cell]}


def serious_violations(page: Any) -> list[str]:
    """What axe-core (the accessibility engine) finds serious or critical on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])}x)"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


# --- doing things -------------------------------------------------------------------------------------
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
        page.click("#tray .tray-item:visible >> nth=0")  # puts back what the hand holds


def gestures(page: Any, steps: list[Gesture]) -> None:
    for verb, target in steps:
        gesture(page, verb, target)


def make(page: Any, game: Game[Any, Any], pos: Any, move: Any) -> str:
    """Make ``move`` with the mouse where a person could, else type it; says which."""
    steps = plan(game, pos, game.cells(game.play(pos, move)))
    if steps == []:  # a pass: no hand makes it
        page.click("[data-button='pass']")
        return "button"
    if steps is None:
        page.fill("#move-text", game.format_move(pos, move))
        page.click("#move-form button[type=submit]")
        return "typed"
    gestures(page, steps)
    return "mouse"


def partial(steps: list[Gesture] | None) -> tuple[list[Gesture], list[Gesture]] | None:
    """A move made in two parts: (the first part, the rest), or None for a move of one part.

    The rest is the pieces to turn over (Flip Four's jump), else the last
    object brought from the box when it is of another kind than those brought
    before (Desdemona's shot, Space Tiles' pieces after the tile; Flip Four's
    second piece would leave a whole move of one piece).
    """
    if steps is None or len(steps) < 3:
        return None
    turns = [s for s in steps if s[0] == "turn"]
    if turns and len(turns) < len(steps):
        return steps[: -len(turns)], turns
    kinds = [target.split(":")[0] for verb, target in steps if verb == "tray" and target]
    if steps[-2][0] == "tray" and steps[-2][1] and kinds[-1] not in kinds[:-1]:
        return steps[:-2], steps[-2:]
    return None


def type_moves(page: Any, texts: list[str]) -> None:
    """Each move typed in its turn, from the start of the game: the hands make it."""
    for ply, text in enumerate(texts, start=1):
        wait_kind(page, "your_turn")
        page.fill("#move-text", text)
        page.click("#move-form button[type=submit]")
        wait_ply(page, ply)


def set_up(page: Any) -> None:
    page.wait_for_selector("#setup:not([disabled])", timeout=WAIT_MS)
    page.click("#setup")


# --- every game through the page ---------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_through_the_page_in_every_kind_of_intent(game_id: str, page: Any, tmp_path: Path) -> None:
    game = registry.make(game_id)
    sides = SIDES[game_id]
    rng = random.Random(game_id)
    start = game.start()
    with served(game_id, tmp_path) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        assert page.locator("#board .cell").count() == game.geometry.size
        assert page.inner_text("#title") == game.name
        # Your turn: nothing lit, nothing to confirm; each player's pieces in hand and the score in words.
        assert sides[0] in status(page) and not lit(page)
        # Nothing to confirm, take back or start again yet: those buttons are off until they apply.
        assert enabled(page) & {"confirm", "take_back", "new_game"} == set()
        players = page.locator("#players li").all_inner_texts()
        assert [sides[0] in players[0], sides[1] in players[1]] == [True, True]
        for text, hand in zip(players, START_HANDS[game_id], strict=True):
            assert hand in text
        assert game_id not in START_SCORE or START_SCORE[game_id] in page.inner_text("#score")
        assert NOTATION_EXAMPLE[game_id] in page.get_attribute("#move-text", "placeholder")
        assert drawn(page) == as_text(game.cells(start))
        assert serious_violations(page) == []
        screenshots(page, f"{game_id}-your_turn")

        # A mistake (the opponent's object put on a cell, or a piece moved astray): it is lit, and "Set up
        # the board" puts it right.
        steps, cell = MISTAKE[game_id]
        gestures(page, steps)
        wait_kind(page, "mistake")
        assert cell in lit(page) and "confirm" not in enabled(page)
        screenshots(page, f"{game_id}-mistake")
        set_up(page)
        wait_kind(page, "your_turn")
        assert drawn(page) == as_text(game.cells(start)) and not lit(page)

        # A piece lifted: where it may go is lit, and dotted where the cell is empty.
        moves = game.legal_moves(start)
        plans = {m: plan(game, start, game.cells(game.play(start, m))) for m in moves}
        lifting = [m for m in moves if (p := plans[m]) and len(p) > 1 and p[0][0] == p[1][0] == "click"]
        if lifting:
            origin = plans[lifting[0]][0][1]
            gesture(page, "click", origin)
            wait_kind(page, "lifted")
            shown = lit(page)
            puts = {c for c, meaning in shown.items() if meaning == "put"}
            assert origin not in shown and puts  # the piece is in the hand: nothing to lift there
            assert puts <= set().union(*(changed_cells(game, start, m) for m in moves))
            # A dot where the piece goes onto the cell: empty, or a ring or tile (nobody's) to stand on.
            onto = {c for c in puts if not game.cells(start)[c] or game.cells(start)[c][-1].colour is None}
            assert marked(page, ".target") == onto
            assert origin in status(page)
            screenshots(page, f"{game_id}-lifted")
            gesture(page, "click", origin)
            wait_kind(page, "your_turn")

        # The player's move, then the AI's: its move is said, lit where the board must change, and
        # made by "Make the AI's move"; each move is then marked on the board.
        simple = [m for m in moves if plans[m]]
        move = rng.choice(lifting or simple or moves)
        make(page, game, start, move)
        wait_ply(page, 1)
        assert marked(page, ".last-move") == changed_cells(game, start, move)
        wait_kind(page, "ai_move")
        pos = position_of(game, page)
        ai_text = page.get_attribute("#status", "data-move")
        ai_move = game.parse_move(pos, ai_text)
        assert ai_text in status(page) and sides[1] in page.inner_text("#players li.to-move")
        shown = lit(page)
        assert shown and set(shown) <= changed_cells(game, pos, ai_move), shown
        assert set(shown.values()) <= MOVE_MARKS
        after_ai = as_text(game.cells(game.play(pos, ai_move)))
        ghosts = page.locator("#board .cell:has(.ghost .thing)")
        for cell, ghost in ghosts.evaluate_all(
            "els => els.map(e => [e.dataset.cell, e.querySelector('.ghost .thing').dataset.thing])"
        ):
            assert shown[cell] == "put" and after_ai[cell][-1] == ghost  # what goes there, drawn faintly
        assert page.inner_text("#setup") == "Make the AI's move"
        screenshots(page, f"{game_id}-ai_move")
        set_up(page)
        wait_ply(page, 2)
        kind = wait_kind(page, "your_turn", "game_over")
        assert marked(page, ".last-move") == changed_cells(game, pos, ai_move)
        rows = page.locator("#moves tbody tr").all_inner_texts()
        assert len(rows) == 1 and rows[0].split() == ["1.", game.format_move(start, move), ai_text]
        assert page.locator("#moves .ply[data-side='0']").count() == 1
        pos = game.play(pos, ai_move)
        if kind == "game_over":
            return

        # A turn under way: the first part of a move of two parts is on the board.
        moves = game.legal_moves(pos)
        sample = rng.sample(moves, min(len(moves), 60))  # Desdemona has ~2,000: a plan each costs
        two_part = [(m, p) for m in sample if (p := partial(plan(game, pos, game.cells(game.play(pos, m)))))]
        if two_part:
            move, (first, rest) = two_part[0]
            gestures(page, first)
            # The session core before the intent redesign calls a moved queen still "lifted".
            wait_kind(page, "turn_under_way", "lifted")
            # Lit: only cells that a legal move changes (where the rest of the turn may go).
            assert set(lit(page)) <= set().union(*(changed_cells(game, pos, m) for m in moves))
            screenshots(page, f"{game_id}-turn_under_way")
            gestures(page, rest)
            wait_ply(page, 3)

        # Take back: the LEDs ask for the board as it was; "Set up the board" does it.
        page.click("[data-button='take_back']")
        wait_kind(page, "restore")
        back = position_of(game, page)
        shown = lit(page)
        wanted = as_text(game.cells(back))
        now = drawn(page)
        assert shown and set(shown) <= {c for c in wanted if wanted[c] != now[c]}
        assert page.inner_text("#setup") == "Set up the board"
        screenshots(page, f"{game_id}-restore")
        set_up(page)
        wait_kind(page, "your_turn")
        assert drawn(page) == as_text(game.cells(back))

        # A phone: what the board wants and the buttons above the board, the board as wide as the screen.
        page.set_viewport_size({"width": 390, "height": 844})
        board = page.locator("#board").bounding_box()
        assert page.locator("#buttons").bounding_box()["y"] < board["y"]
        assert page.locator("#status").bounding_box()["y"] < board["y"] and board["width"] <= 390
        screenshot(page, f"{game_id}-phone")


# --- Pass ---------------------------------------------------------------------------------------------------
def test_pass_is_a_button_only_for_a_game_that_lets_a_player_pass(page: Any, tmp_path: Path) -> None:
    with served("go7", tmp_path, "--humans") as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        assert page.is_visible("[data-button='pass']") and "pass" in enabled(page)
        page.click("[data-button='pass']")
        wait_ply(page, 1)
        assert "a second pass in a row ends the game" in status(page)
        page.fill("#move-text", "pass")  # typed, it is the button too
        page.click("#move-form button[type=submit]")
        wait_kind(page, "dead_stones")  # Go's players agree on the dead stones (none here), then count
        assert "pass" not in enabled(page)
        page.click("[data-button='confirm']")
        wait_kind(page, "game_over")
        assert "White wins by 7.5." in status(page) and "pass" not in enabled(page)
        screenshot(page, "go7-passes")
    with served("kingofrings", tmp_path) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        assert not page.is_visible("[data-button='pass']")


def test_a_group_taken_off_stone_by_stone_and_a_stone_lifted(page: Any, tmp_path: Path) -> None:
    """Go: the capture under way lights the stones to take off; a stone lifted is asked back."""
    setup = ["c5", "c4", "b4", "d4", "e4", "pass", "d5", "pass", "c3", "pass"]
    with served("go7", tmp_path, "--humans") as url:
        page.goto(url)
        type_moves(page, setup)
        wait_kind(page, "your_turn")
        gestures(page, [("tray", "stone:0"), ("click", "d3")])
        wait_kind(page, "turn_under_way")
        assert lit(page) == {"c4": "remove", "d4": "remove"} and "White stone off c4" in status(page)
        screenshot(page, "go7-turn_under_way")
        gestures(page, [("lift", "c4"), ("tray", "")])
        page.wait_for_function("!document.querySelector('#board [data-cell=c4][data-led]')", timeout=WAIT_MS)
        assert lit(page) == {"d4": "remove"}
        gestures(page, [("lift", "d4"), ("tray", "")])
        wait_ply(page, len(setup) + 1)
        wait_kind(page, "your_turn")
        assert page.locator("#moves .ply").all_inner_texts()[-1] == "d3"
        # Stones never move in Go: one lifted is a mistake to put back, not a piece on its way.
        gesture(page, "lift", "c5")
        wait_kind(page, "mistake")
        assert lit(page) == {"c5": "put"} and "Put a Black stone on c5" in status(page)
        gesture(page, "click", "c5")
        wait_kind(page, "your_turn")


# --- the AI thinking, Confirm, the hint, reduced motion ---------------------------------------------------
def test_confirm_hint_and_the_ai_thinking(page: Any, tmp_path: Path) -> None:
    game = registry.make("flipfour")
    with served("flipfour", tmp_path, budget=("--seconds", "1")) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        gestures(page, [("tray", "piece:0"), ("click", "c3")])  # the first move is exactly one piece
        wait_kind(page, "ai_thinking")
        assert "Yellow" in status(page) and "confirm" not in enabled(page)
        screenshots(page, "flipfour-ai_thinking")
        wait_kind(page, "ai_move")
        blinking = "#board .cell[data-blinking] .led-ring"
        assert page.eval_on_selector(blinking, "e => getComputedStyle(e).animationName") == "blink"
        page.emulate_media(reduced_motion="reduce")  # no blinking: a dashed frame says the light is urgent
        assert page.eval_on_selector(blinking, "e => getComputedStyle(e).animationName") == "none"
        assert page.eval_on_selector(blinking, "e => getComputedStyle(e).strokeDasharray") != "none"
        set_up(page)
        wait_ply(page, 2)
        wait_kind(page, "your_turn")
        page.click("[data-button='hint']")
        page.wait_for_function("document.getElementById('hint').textContent !== '-'", timeout=WAIT_MS)
        assert page.locator("#board .cell[data-led][data-dim]").count() >= 1  # the hint is lit, dimmed
        pos = position_of(game, page)
        landings = {t.split("-")[1] for t in game.legal_texts(pos) if t.startswith("c3-")}
        if landings:  # Red's piece on c3 can jump: lifted, its landing points are lit
            gesture(page, "lift", "c3")
            wait_kind(page, "lifted")
            assert "c3" not in lit(page) and landings <= {c for c, m in lit(page).items() if m == "put"}
            screenshots(page, "flipfour-lifted")
            gesture(page, "click", "c3")
            wait_kind(page, "your_turn")
        free = sorted(c for c, stack in game.cells(pos).items() if not stack)
        # One piece put down: a complete move that a second piece could still grow into.
        gestures(page, [("tray", "piece:0"), ("click", free[0])])
        wait_kind(page, "confirm")
        assert free[0] in status(page) and "confirm" in enabled(page)
        screenshots(page, "flipfour-confirm")
        page.click("[data-button='confirm']")
        wait_ply(page, 3)
        assert page.locator("#moves .ply").all_inner_texts()[-1] == free[0]
        page.click("[data-button='new_game']")
        wait_kind(page, "restore")
        set_up(page)
        wait_kind(page, "your_turn")
        wait_ply(page, 0)
        assert drawn(page) == as_text(game.cells(game.start()))


def test_moves_the_sensors_cannot_tell_apart_are_asked(page: Any, tmp_path: Path) -> None:
    """Space Tiles on reed switches: the tiles carry no magnet, so the board asks which cell got the tile.
    (A typed move is the player's answer already: see test_page_cases.py.)"""
    game = registry.make("spacetiles")
    with served("spacetiles", tmp_path, "--board", "spacetiles-reed") as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        gestures(page, [("tray", "tile"), ("click", "c3"), ("tray", "piece:0"), ("click", "d3")])
        wait_kind(page, "choose")
        shown = page.get_attribute("#status", "data-move") or ""
        choices = lit(page)
        assert "choose" in choices.values() and "confirm" in enabled(page)
        screenshots(page, "spacetiles-choose")
        page.click("[data-button='confirm']")  # takes the choice the lights show
        wait_ply(page, 1)
        played = page.locator("#moves .ply").all_inner_texts()
        assert played[0].endswith(":d3") and game.play_texts(played)
        assert played[0] == shown


def test_an_amazon_and_its_arrow_that_could_have_swapped_squares_are_asked(page: Any, tmp_path: Path) -> None:
    """The Amazons on reed switches: d1-d5/d7 and d1-d7/d5 leave magnets on the same squares (RULES.md of
    engines/amazons: an amazon moves like a queen, its arrow flies like one from where it lands)."""
    with served("amazons", tmp_path, "--humans", "--board", "amazons-reed") as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        gestures(page, [("lift", "d1"), ("click", "d5"), ("tray", "arrow"), ("click", "d7")])
        wait_kind(page, "choose")
        shown = page.get_attribute("#status", "data-move") or ""
        assert shown in {"d1-d5/d7", "d1-d7/d5"} and "confirm" in enabled(page)
        # Lit: the squares the turn shown changes, green where its amazon lands.
        landing = shown.split("-")[1].split("/")[0]
        assert lit(page) == {"d1": "choose", "d5": "choose", "d7": "choose", landing: "put"}
        screenshots(page, "amazons-choose")
        page.click("[data-button='confirm']")  # takes the choice the lights show
        wait_ply(page, 1)
        assert page.locator("#moves .ply").all_inner_texts() == [shown]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_ai_thinking_in_every_game(game_id: str, page: Any, tmp_path: Path) -> None:
    """A timed AI: while it thinks the board says so, lights nothing and offers nothing to confirm."""
    game = registry.make(game_id)
    start = game.start()
    with served(game_id, tmp_path, budget=("--seconds", "2")) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        make(page, game, start, game.legal_moves(start)[0])
        wait_kind(page, "ai_thinking")
        assert SIDES[game_id][1] in status(page) and not lit(page) and "confirm" not in enabled(page)
        screenshots(page, f"{game_id}-ai_thinking")
        wait_kind(page, "ai_move")


# --- the end of each game --------------------------------------------------------------------------------
def finished(game: Game[Any, Any], seed: int) -> list[str]:
    """A whole game of random legal moves."""
    rng = random.Random(seed)
    pos, texts = game.start(), []
    while not game.is_over(pos):
        move = rng.choice(game.legal_moves(pos))
        texts.append(game.format_move(pos, move))
        pos = game.play(pos, move)
    return texts


@pytest.mark.parametrize("game_id", GAMES)
def test_game_over_names_the_winner_the_reason_and_the_deciding_cells(
    game_id: str, page: Any, tmp_path: Path
) -> None:
    game = registry.make(game_id)
    texts = finished(game, 2)
    # The game but its last move, from an old journal, into the store.
    import_game(tmp_path, game_id, old_journal(game_id, texts[:-1]))
    end = game.play_texts(texts)
    outcome = game.outcome(end)
    with served(game_id, tmp_path, "--humans", new=False) as url:
        page.goto(url)
        kind = wait_kind(page, "your_turn", "game_over", "dead_stones")
        if kind == "your_turn":  # else a last pass is made by itself
            page.fill("#move-text", texts[-1])  # the last move, made by the simulated hands
            page.click("#move-form button[type=submit]")
            kind = wait_kind(page, "game_over", "dead_stones")
        reason, cells = game.table.explain(game, end)
        if kind == "dead_stones":  # Go's players agree on the dead stones: none taken off here
            page.click("[data-button='confirm']")
            wait_kind(page, "game_over")
            outcome, (reason, cells) = game.table.agreed(game, end, frozenset())
        assert outcome is not None
        winner = "draw" if outcome.winner is None else f"{SIDES[game_id][outcome.winner]} wins"
        assert winner in status(page)
        assert reason in status(page) + page.inner_text("#over") and marked(page, ".decided") == cells
        assert page.locator("#moves .ply").count() == len(texts)
        # However tall a stack (a knight's rings), its top object is drawn within its own cell.
        astray = page.locator("#board .cell").evaluate_all(
            """els => els.filter(e => e.querySelector('.pieces .thing')).filter(e => {
                 const cell = e.querySelector('.hit').getBoundingClientRect();
                 const top = [...e.querySelectorAll('.pieces .thing')].pop().getBoundingClientRect();
                 return top.top < cell.top - 1 || top.bottom > cell.bottom + 1;
               }).map(e => e.dataset.cell)"""
        )
        assert astray == []
        assert {"confirm", "hint"}.isdisjoint(enabled(page))
        if game_id == "flipfour":  # the reason's panel, once (axe takes seconds on a 100-cell board)
            assert serious_violations(page) == []
        screenshots(page, f"{game_id}-game_over")


# --- a page without its board --------------------------------------------------------------------------
def test_a_page_that_loses_its_board_says_so_refuses_input_and_reconnects(page: Any, tmp_path: Path) -> None:
    with served("flipfour", tmp_path) as url:
        page.goto(url)
        wait_kind(page, "your_turn")
        gestures(page, [("tray", "piece:0"), ("click", "c3")])
        wait_ply(page, 1)
    page.wait_for_selector("body[data-connection='closed']", timeout=WAIT_MS)
    assert page.is_visible("#offline") and "disconnected" in page.inner_text("#connection")
    assert enabled(page) == set() and page.is_disabled("#setup")
    assert page.eval_on_selector("#board", "e => getComputedStyle(e).filter") == "grayscale(1)"
    page.click("#tray [data-thing='piece:0']", force=True)
    assert "not connected" in page.inner_text("#message")
    screenshots(page, "flipfour-disconnected")
    port = int(url.rsplit(":", 1)[1].strip("/"))
    with served("flipfour", tmp_path, new=False, port=port):
        page.wait_for_selector("body[data-connection='open']", timeout=WAIT_MS)  # by itself, no reload
        wait_ply(page, 1)
        assert page.is_hidden("#offline")
        wait_kind(page, "ai_move", "your_turn")


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
            assert "unknown button 'explode'" in answer('{"type": "button", "name": "explode"}')
            assert "unknown message 'nope'" in answer('{"type": "nope"}')
            assert "c9" in answer('{"type": "move", "text": "c9"}')
        page.goto(url)
        page.select_option("#level", "3")
        page.fill("#move-text", "c3")
        page.click("#move-form button[type=submit]")
        wait_ply(page, 1)
        page.reload()  # what the server holds, not what the page remembers
        page.wait_for_selector("body[data-ply='1']", timeout=WAIT_MS)
        assert page.input_value("#level") == "3"


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
        wait_kind(page, "your_turn")
        page.click("#board [data-cell='a4']")
        page.wait_for_selector("#hand[data-held='queen:0']", timeout=WAIT_MS)
        page.wait_for_selector("#board [data-cell='a6'][data-led='put']", timeout=WAIT_MS)
        assert lit(page) == {cell: "put" for cell in reach}
        assert marked(page, ".target") == reach  # all empty: a dot on each
        page.click("#board [data-cell='a4']")  # put back: nothing to show
        wait_kind(page, "your_turn")
        page.focus("#board [data-cell='a4']")  # the keyboard lifts it too
        page.keyboard.press("Enter")
        page.wait_for_selector("#hand[data-held='queen:0']", timeout=WAIT_MS)
        page.keyboard.press("Enter")
        page.wait_for_selector("#hand:not([data-held='queen:0'])", timeout=WAIT_MS)
        wait_kind(page, "your_turn")
        assert page.get_attribute("#board [data-cell='a4']", "aria-label") == "a4: Black queen"
        page.drag_and_drop("#board [data-cell='a4']", "#board [data-cell='a6']")
        wait_ply(page, 1)
        assert page.locator("#moves .ply").all_inner_texts() == ["a4-a6"]
