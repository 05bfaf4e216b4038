"""Every kind of intent each game can show, on the page at desktop and phone size, checked by axe.

Issue 41: a person looks at test-artifacts/web/GAME-KIND-{desktop,phone}.png
for every (game, intent kind) the game's board can show, and axe-core finds
nothing serious or critical in any of them.  The kinds a game never shows are
the game's own word (``Table.never``, with the phrasebook's additions:
host/words/phrasebook.py); the others are reached in turn on one page, the
player's turns made with the page's hands, and the end of a game on a second
page resumed from a journal.  What makes each kind is worked out from the
rules (the legal moves, what they change, what the board's sensors read), not
read back from the server.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from engines.game import Game
from host.hardware.loading import board_ids, load_board
from host.hardware.sensing import SensorModel
from host.session.intent import Kind
from host.words.phrasebook import never_said
from tests.web.conftest import ARTIFACTS, PHONE, import_game, old_journal, served
from tests.web.plan import Gesture, plan
from tests.web.test_page import (
    GAMES,
    MISTAKE,
    finished,
    gestures,
    make,
    partial,
    position_of,
    serious_violations,
    set_up,
    wait_kind,
    wait_ply,
)

TURNS = 8  # the player's turns tried, at most, to reach every kind a turn can lead to
SAMPLE = 60  # legal moves looked at for a move of a shape (a plan each costs)
PLIES = 6  # the plies of a random game tried, at most, for moves the sensors confuse
THINK_S = "8"  # the AI's time: long enough to take the pictures and run axe while it thinks (a busy CPU)
# Not in the browser: an engine that stops needs a GTP engine on the machine (tests/peers cover it).
ELSEWHERE = {Kind.OPPONENT_STOPPED}
AT_THE_END = {Kind.GAME_OVER, Kind.DEAD_STONES}


def kinds(game: Game[Any, Any]) -> list[Kind]:
    """The kinds of intent a game's board can show (intent.py's order)."""
    never = never_said(game)
    return [k for k in Kind if k.value not in never]


def alike_groups(game: Game[Any, Any], model: SensorModel, pos: Any, moves: list[Any]) -> list[list[Any]]:
    """The legal moves that leave the same readings on this board, two or more of them."""
    names = game.geometry.names
    by_reading: dict[tuple[Any, ...], list[Any]] = {}
    for move in moves:
        after = game.cells(game.play(pos, move))
        by_reading.setdefault(tuple(model.reading_of(tuple(after[n])) for n in names), []).append(move)
    return [group for group in by_reading.values() if len(group) >= 2]


def board_for(game: Game[Any, Any], wanted: list[Kind]) -> str | None:
    """Where a game can ask which move was made: the board whose sensors confuse most moves in the first
    positions of a random game; else None."""
    if Kind.CHOOSE not in wanted:
        return None
    positions = first_positions(game)
    boards = [b for b in board_ids() if load_board(b).game == game.id]
    confused = {
        b: sum(len(alike_groups(game, SensorModel(load_board(b)), p, game.legal_moves(p))) for p in positions)
        for b in boards
    }
    return max(boards, key=lambda b: confused[b])


def first_positions(game: Game[Any, Any]) -> list[Any]:
    """The positions of the first plies of a random game (the one the end is taken from)."""
    texts = finished(game, 2)[:PLIES]
    return [game.play_texts(texts[:n]) for n in range(len(texts) + 1)]


def under_way(shots: Shots, game: Game[Any, Any], store: Path) -> None:
    """Where the first turns made no move in two parts (Go's first capture comes later): a random game
    resumed at the first position that has one, its first part made by hand."""
    texts = finished(game, 2)
    for ply in range(len(texts)):
        pos = game.play_texts(texts[:ply])
        for move in game.legal_moves(pos):
            parts = in_two(plan(game, pos, game.cells(game.play(pos, move))))
            if parts is not None:
                store.mkdir()
                import_game(store, game.id, old_journal(game.id, texts[:ply]))
                with served(game.id, store, "--humans", new=False) as url:
                    shots.page.goto(url)
                    wait_ply(shots.page, ply)
                    wait_kind(shots.page, Kind.YOUR_TURN.value)
                    gestures(shots.page, parts[0])
                    shots.take(Kind.TURN_UNDER_WAY)
                return


def choose(shots: Shots, game: Game[Any, Any], board: str, store: Path) -> None:
    """On ``board``, a random game's moves typed until the player can make a move the sensors read as
    another: made by hand, the board asks which."""
    model = SensorModel(load_board(board))
    page = shots.page
    texts = finished(game, 2)[:PLIES]
    store.mkdir()
    with served(game.id, store, "--humans", "--board", board) as url:
        page.goto(url)
        for ply, pos in enumerate(first_positions(game)):
            wait_ply(page, ply)
            wait_kind(page, Kind.YOUR_TURN.value)
            for group in alike_groups(game, model, pos, game.legal_moves(pos)):
                steps = plan(game, pos, game.cells(game.play(pos, group[0])))
                if steps:
                    gestures(page, steps)
                    shots.take(Kind.CHOOSE)
                    return
            page.fill("#move-text", texts[ply])
            page.click("#move-form button[type=submit]")


def in_two(steps: list[Gesture] | None) -> tuple[list[Gesture], list[Gesture]] | None:
    """A move in two parts (test_page's ``partial``), or a capture: what the player's own objects do
    first and the captured taken off after, or where they land on the captured one's cell, the first
    captured one taken off first."""
    parts = partial(steps)
    if parts is not None or steps is None or len(steps) < 3 or steps[1] != ("tray", ""):
        return parts
    taken = [steps[i : i + 2] for i in range(0, len(steps) - 1, 2) if steps[i + 1] == ("tray", "")]
    off = [g for pair in taken for g in pair]
    own = steps[len(off) :]
    if {cell for _, cell in own}.isdisjoint(cell for _, cell in off[::2]):
        return own, off
    return steps[:2], steps[2:]


def confirmable(game: Game[Any, Any], pos: Any, moves: list[Any]) -> Any | None:
    """A move that is the beginning of another (the board waits for Confirm), or None."""
    cells = game.cells(pos)
    changed = []
    for move in moves:
        after = game.cells(game.play(pos, move))
        changed.append({c: after[c] for c in cells if after[c] != cells[c]})
    for move, mine in zip(moves, changed, strict=True):
        for other in changed:
            grows = len(other) > len(mine) and all(other.get(c) == s for c, s in mine.items())
            if grows and plan(game, pos, game.cells(game.play(pos, move))):
                return move
    return None


class Shots:
    """The pictures and the axe check of one game's page, each kind once."""

    def __init__(self, page: Any, game_id: str, wanted: list[Kind]) -> None:
        self.page = page
        self.game_id = game_id
        self.left = set(wanted)

    def wants(self, kind: Kind) -> bool:
        return kind in self.left

    def take(self, kind: Kind) -> None:
        """The page in ``kind``: desktop and phone pictures, then axe at the phone's size."""
        page = self.page
        assert wait_kind(page, kind.value) == kind.value
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        before = page.viewport_size
        for size, viewport in (("desktop", before), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            path = ARTIFACTS / f"{self.game_id}-{kind.value}-{size}.png"
            page.screenshot(path=str(path), full_page=True, animations="disabled")
        assert serious_violations(page) == [], (self.game_id, kind.value)
        page.set_viewport_size(before)
        assert page.get_attribute("#status", "data-kind") == kind.value, "the state changed meanwhile"
        self.left.discard(kind)


def play_a_turn(shots: Shots, game: Game[Any, Any], rng: random.Random) -> None:
    """The player's turn: the kinds a turn can show that are still wanted, then a move made."""
    page = shots.page
    pos = position_of(game, page)
    moves = game.legal_moves(pos)
    sample = rng.sample(moves, min(len(moves), SAMPLE))
    if shots.wants(Kind.YOUR_TURN):
        shots.take(Kind.YOUR_TURN)
    if shots.wants(Kind.MISTAKE) and page.locator("#moves .ply").count() == 0:
        steps, _ = MISTAKE[shots.game_id]
        gestures(page, steps)
        shots.take(Kind.MISTAKE)
        set_up(page)
        wait_kind(page, Kind.YOUR_TURN.value)
    plans = {m: plan(game, pos, game.cells(game.play(pos, m))) for m in sample}
    if shots.wants(Kind.LIFTED):
        lifting = [m for m, p in plans.items() if p and len(p) > 1 and p[0][0] == p[1][0] == "click"]
        if lifting:
            origin = plans[lifting[0]][0][1]  # type: ignore[index]
            gestures(page, [("click", origin)])
            shots.take(Kind.LIFTED)
            gestures(page, [("click", origin)])
            wait_kind(page, Kind.YOUR_TURN.value)
    if shots.wants(Kind.CONFIRM):
        move = confirmable(game, pos, moves)
        if move is not None:
            grown = plan(game, pos, game.cells(game.play(pos, move)))
            assert grown
            gestures(page, grown)
            shots.take(Kind.CONFIRM)
            page.click("[data-button='confirm']")
            return
    if shots.wants(Kind.TURN_UNDER_WAY):
        two_part = [(m, parts) for m, p in plans.items() if (parts := in_two(p))]
        if two_part:
            _, (first, rest) = two_part[0]
            gestures(page, first)
            shots.take(Kind.TURN_UNDER_WAY)
            gestures(page, rest)
            return
    simple = [m for m, p in plans.items() if p]
    make(page, game, pos, rng.choice(simple or moves))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_kind_of_intent_on_the_page_pictured_and_checked(
    game_id: str, page: Any, tmp_path: Path
) -> None:
    game = registry.make(game_id)
    wanted = kinds(game)
    shots = Shots(page, game_id, [k for k in wanted if k not in ELSEWHERE])
    rng = random.Random(game_id)
    with served(game_id, tmp_path, budget=("--seconds", THINK_S)) as url:
        page.goto(url)
        for _ in range(TURNS):
            if not shots.left - AT_THE_END or my_turn(shots) == Kind.GAME_OVER.value:
                break
            ply = int(page.get_attribute("body", "data-ply"))
            play_a_turn(shots, game, rng)
            wait_ply(page, ply + 1)
            if shots.wants(Kind.RESTORE) and my_turn(shots) == Kind.YOUR_TURN.value:
                page.click("[data-button='take_back']")
                shots.take(Kind.RESTORE)
                set_up(page)
    board = board_for(game, wanted)
    if board is not None:
        choose(shots, game, board, tmp_path / "choose")
    if shots.wants(Kind.TURN_UNDER_WAY):
        under_way(shots, game, tmp_path / "under-way")
    assert shots.left <= AT_THE_END, f"not reached in {TURNS} turns: {sorted(k.value for k in shots.left)}"
    # The end: the game but its last move resumed from a journal, the last move typed.
    texts = finished(game, 2)
    end = tmp_path / "end"  # a store of its own: resumed, it holds only that game
    end.mkdir()
    import_game(end, game_id, old_journal(game_id, texts[:-1]))
    with served(game_id, end, "--humans", new=False) as url:
        page.goto(url)
        kind = wait_kind(page, "your_turn", "game_over", "dead_stones")
        if kind == "your_turn":
            page.fill("#move-text", texts[-1])
            page.click("#move-form button[type=submit]")
            kind = wait_kind(page, "game_over", "dead_stones")
        if kind == "dead_stones" and shots.wants(Kind.DEAD_STONES):
            shots.take(Kind.DEAD_STONES)
            page.click("[data-button='confirm']")
        shots.take(Kind.GAME_OVER)
    assert not shots.left, f"never reached: {sorted(k.value for k in shots.left)}"


def my_turn(shots: Shots) -> str:
    """Until the player is to move or the game is over (the AI's move pictured and made); which it is."""
    page = shots.page
    while True:
        kind = wait_kind(
            page, *(k.value for k in (Kind.YOUR_TURN, Kind.AI_THINKING, Kind.AI_MOVE, Kind.GAME_OVER))
        )
        if kind == Kind.AI_THINKING.value:
            if shots.wants(Kind.AI_THINKING):
                shots.take(Kind.AI_THINKING)
            wait_kind(page, Kind.AI_MOVE.value, Kind.GAME_OVER.value)
        elif kind == Kind.AI_MOVE.value:
            if shots.wants(Kind.AI_MOVE):
                shots.take(Kind.AI_MOVE)
            ply = int(page.get_attribute("body", "data-ply"))
            set_up(page)
            wait_ply(page, ply + 1)
        else:
            return kind
