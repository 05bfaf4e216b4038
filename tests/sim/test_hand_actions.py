"""The simulated hands make a move on a board as it really stands: they reach only the top of a stack.

The page's "Make the AI's move" and "Set up the board", a typed move and the tests' players all move the
objects with ``hand_actions``; here the actions are carried out by the same ``Hands`` on a virtual board,
from stacks the game holds the same as its own but a hand left otherwise (RULES.md, The King of Rings: a
knight carries the rings it won, in no particular order; a ring put on top of it is one of them).
"""

from __future__ import annotations

import random
import threading
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engines import registry
from engines.physical import Thing
from host.hardware.loading import load_board
from host.reach.diff import hand_actions
from host.sim.hands import Hands
from host.sim.virtual_board import SimClock, VirtualBoard
from tests.budget import examples

Stacks = dict[str, tuple[Thing, ...]]
RINGS = frozenset({"ring_silver", "ring_blue", "ring_bigblue"})


def carried_out(game_id: str, before: Stacks, after: Any, rng: random.Random | None = None) -> Stacks:
    """The board after the hands' actions from ``before`` to ``after``; nothing may be left in the hand."""
    board = load_board(f"{game_id}-hall")
    virtual = VirtualBoard(board, SimClock())
    virtual.set_position(before)
    hands = Hands(SimpleNamespace(virtual=virtual, lock=threading.Lock(), board=board), sleep=lambda s: None)  # type: ignore[arg-type]
    hands.run(hand_actions(registry.make(game_id), before, after, rng))
    assert hands.held == [], f"left in the hand: {hands.held}"
    return virtual.cells()


def alike(a: tuple[Thing, ...], b: tuple[Thing, ...]) -> bool:
    """The same stack to the game: the same top and the same objects (a knight's rings in any order)."""
    return a[-1:] == b[-1:] and sorted(map(str, a)) == sorted(map(str, b))


def test_a_capture_of_a_knight_with_a_ring_put_on_top_takes_the_knight_off() -> None:
    """Issue 25 item 1: the capturer was put on the captured knight, then a ring from the box on top."""
    game = registry.make("kingofrings")
    pos = game.play_texts(["d2-d3", "d6-d5", "d3-d4"])
    board = dict(game.cells(pos))
    # d3-d4 made with the knight alone, then its silver ring put on it: the game holds d4 the same.
    board["d4"] = (Thing("ring_bigblue"), Thing("knight", 0), Thing("ring_silver"))
    after = game.cells(game.play_texts(["d5xd4"], pos))
    done = carried_out("kingofrings", board, after)
    assert done["d4"][-1] == Thing("knight", 1) and alike(done["d4"], after["d4"])
    assert done["d5"] == () and all(done[c] == after[c] for c in after if c != "d4")
    # Once there, the board is the AI's position: nothing more to do.
    assert hand_actions(game, done, after) == []


def test_a_take_back_of_a_capture_restores_both_knights_with_their_rings() -> None:
    game = registry.make("kingofrings")
    pos = game.play_texts(["d2-d3", "d6-d5", "d3-d4"])
    captured = game.cells(game.play_texts(["d5xd4"], pos))
    done = carried_out("kingofrings", dict(captured), game.cells(pos))
    assert all(alike(done[c], game.cells(pos)[c]) for c in done)


@settings(max_examples=examples(40))
@given(
    st.sampled_from(["kingofrings", "desdemona", "spacetiles", "flipfour"]), st.randoms(use_true_random=False)
)
def test_any_move_from_a_board_the_game_holds_the_same_ends_in_its_position(
    game_id: str, rng: random.Random
) -> None:
    """A position some random moves in, its stacks shuffled as a hand may leave them, then a legal move:
    the hands end in the move's position, whichever order they take (``rng``)."""
    game = registry.make(game_id)
    pos = game.start()
    for _ in range(rng.randrange(12)):
        if game.is_over(pos):
            break
        pos = game.play(pos, rng.choice(game.legal_moves(pos)))
    if game.is_over(pos):
        return
    board: Stacks = {}
    for cell, stack in game.cells(pos).items():
        rings = [t for t in stack if t.kind in RINGS]
        if len(rings) < len(stack) and rings:  # a knight's rings: in another order, maybe one on top
            rng.shuffle(rings)
            top = [rings.pop()] if rng.random() < 0.5 else []
            stack = (*rings, stack[-1], *top)
        board[cell] = tuple(stack)
    after = game.cells(game.play(pos, rng.choice(game.legal_moves(pos))))
    done = carried_out(game_id, board, after, rng if rng.random() < 0.5 else None)
    wrong = {c: (done[c], after[c]) for c in after if not alike(done[c], tuple(after[c]))}
    assert not wrong
    if game_id != "kingofrings":  # nothing rides: every stack exactly as the game has it
        assert all(done[c] == after[c] for c in after)
