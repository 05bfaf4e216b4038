"""The cells lit green are where a legal move goes next, and nowhere else (property test, every build).

For random positions of each game and random partial hand sequences of a random legal move (its objects
lifted, taken off, put and turned in a random order, 80 ms an action), whenever the board is on the way
to some legal move, the cells the board lights "put" are checked against the cells where a legal move
consistent with the board puts something.  Those are worked out here from the legal moves alone (the
engine plays each one; the board file's sensor model says what the sensors feel), never from the tracker:

- a legal move is consistent with the board when every cell that reads differently from the committed
  position is one the move changes, and reads either as the move leaves it or as its committed objects
  with some taken off the top (in a hand);
- a cell a move changes is done when it reads as the move leaves it and, where that reading is no
  change, a hand has worked there (its reading left the committed one); a move still puts something on
  a cell that is not done where it leaves an object that was not there (not the one there turned over);
- a piece is in the hand when its cell reads as its objects without the top one, some consistent move
  carries that top object to another cell, and no such move shows it put down there yet.

Then, with a piece in the hand, the green cells are exactly where the consistent moves carry it.  With
none, every green cell is one where a consistent move still puts something (a light never points where
no legal move goes), and a cell that is all a consistent move has left to do, a put, is green (no
move's last target is hidden); where no consistent move has more than one cell left, the green cells are
exactly those.  A move with several cells left may be guided one step at a time (a piece taken off
before a tile is asked for, a Space Tiles tile before its pieces): which come first is the board's
choice.

States where the reading is a whole legal move or an earlier position (then the board commits or asks),
or no legal move at all (a mistake), light no targets and are not checked here.  Budget: 10 examples a
board in CI; ``HYPOTHESIS_PROFILE=thorough`` runs 5,000.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from engines import registry
from engines.game import Game
from engines.physical import Thing
from engines.table import Role
from host.hardware.loading import load_board
from host.hardware.sensing import Reading, SensorModel
from host.reach.diff import hand_actions
from host.session.intent import Kind
from host.session.session import Session, Settings
from tests.budget import examples

BOARDS = tuple(
    f"{g}-{s}" for g in ("kingofrings", "desdemona", "spacetiles", "flipfour") for s in ("reed", "hall")
)
STEP_MS = 80
Stack = tuple[Thing, ...]


class Move:
    """One legal move as the engine plays it: the objects it leaves on each cell it changes."""

    def __init__(self, before: Mapping[str, Stack], after: Mapping[str, Stack]) -> None:
        self.after = {n: tuple(after[n]) for n in before if tuple(before[n]) != tuple(after[n])}


def turned(before: Stack, after: Stack, reversible: frozenset[str]) -> bool:
    """Whether ``after`` is ``before`` with its top object turned over."""
    return (
        len(before) == len(after) > 0
        and before[:-1] == after[:-1]
        and before[-1].kind == after[-1].kind
        and before[-1].kind in reversible
        and before[-1].colour != after[-1].colour
    )


def puts(before: Stack, after: Stack, reversible: frozenset[str]) -> bool:
    """Whether ``after`` has an object ``before`` lacks, other than the top one turned over."""
    return not turned(before, after, reversible) and bool(Counter(after) - Counter(before))


def expected_targets(
    game: Game[Any, Any],
    read: Any,
    before: Mapping[str, Stack],
    moves: list[Move],
    reading: Mapping[str, Hashable],
    touched: set[str],
) -> tuple[set[str], set[str], bool]:
    """Where the board may light "put", where it must, and whether a piece is in the hand (the module
    docstring says how each is worked out from the legal moves)."""
    reversible = game.table.kinds(Role.REVERSIBLE)
    committed = {n: read(before[n]) for n in before}
    differing = {n for n in before if reading[n] != committed[n]}

    def lifted(cell: str) -> bool:
        stack = before[cell]
        return any(reading[cell] == read(stack[:keep]) for keep in range(len(stack)))

    consistent = [
        m
        for m in moves
        if all(n in m.after and (reading[n] == read(m.after[n]) or lifted(n)) for n in differing)
    ]
    held: set[str] = set()
    in_hand = False
    for origin in sorted(differing):
        if not lifted(origin):
            continue
        top = before[origin][-1]
        landings = [
            (m, cell)
            for m in consistent
            if not turned(before[origin], m.after[origin], reversible)
            for cell, stack in m.after.items()
            if cell != origin
            and top in stack
            and top not in before[cell]
            and puts(before[cell], stack, reversible)
        ]
        down = any(reading[cell] == read(m.after[cell]) != committed[cell] for m, cell in landings)
        if landings and not down:
            in_hand = True
            held |= {cell for _, cell in landings}
    if in_hand:
        return held, held, True

    def done(cell: str, stack: Stack) -> bool:
        return reading[cell] == read(stack) and (read(stack) != committed[cell] or cell in touched)

    lefts = [{cell for cell, stack in m.after.items() if not done(cell, stack)} for m in consistent]
    may = {
        cell
        for m, left in zip(consistent, lefts, strict=True)
        for cell in left
        if puts(before[cell], m.after[cell], reversible)
    }
    must = {cell for left in lefts if len(left) == 1 for cell in left if cell in may}
    return may, must, False


def random_position(game: Game[Any, Any], rng: random.Random, plies: int) -> tuple[list[Any], list[str]]:
    history, texts = [game.start()], []
    for _ in range(plies):
        pos = history[-1]
        moves = game.legal_moves(pos)
        if not moves:
            break
        move = rng.choice(moves)
        after = game.play(pos, move)
        if game.is_over(after):
            break
        texts.append(game.format_move(pos, move))
        history.append(after)
    return history, texts


@pytest.mark.parametrize("board_id", BOARDS)
@settings(max_examples=examples(10))
@given(seed=st.integers(0, 10**6))
def test_the_lit_targets_are_where_a_legal_move_puts_something_next(board_id: str, seed: int) -> None:
    rng = random.Random(seed)
    spec = load_board(board_id)
    model = SensorModel(spec)
    read = model.reading_of
    game = registry.make(spec.game)
    history, texts = random_position(game, rng, rng.choice((0, 1, 2, 5, 9, 14)))
    pos = history[-1]
    session = Session(
        game, read, Reading.EMPTY, history=history, moves=texts,
        settings=Settings(ai_side=None, think_in_background=False),
    )  # fmt: skip
    names = game.geometry.names
    before = {n: tuple(s) for n, s in game.cells(pos).items()}
    legal = game.legal_moves(pos)
    moves = [Move(before, game.cells(game.play(pos, m))) for m in legal]
    shown = {tuple(read(tuple(game.cells(p)[n])) for n in names) for p in history[:-1]}
    shown |= {tuple(read(m.after.get(n, before[n])) for n in names) for m in moves}
    committed = {n: read(before[n]) for n in names}

    # Half the time a move of many cells (a jump that turns pieces, a capture, a tile with several pieces):
    # the single-cell placements of Flip Four and Space Tiles are whole moves at once.
    widest = max(len(m.after) for m in moves)
    wide = [m for m, w in zip(legal, moves, strict=True) if len(w.after) == widest]
    move = rng.choice(wide if rng.random() < 0.5 else legal)
    actions = hand_actions(game, before, game.cells(game.play(pos, move)), rng)
    note(f"{texts} then {game.format_move(pos, move)}: {[(a.verb, a.cells, a.thing) for a in actions]}")
    stacks = {n: list(s) for n, s in before.items()}
    held: list[Thing] = []
    touched: set[str] = set()
    t = 0
    checked = 0

    def send() -> None:
        nonlocal t, checked
        t += STEP_MS
        reading = {n: read(tuple(stacks[n])) for n in names}
        session.on_reading(t, [reading[n] for n in names])
        if tuple(reading[n] for n in names) not in shown and any(reading[n] != committed[n] for n in names):
            may, must, in_hand = expected_targets(game, read, before, moves, reading, touched)
            intent = session.intent
            lit = {c for c, light in intent.scene.items() if light.meaning.value == "put"}
            if intent.kind in (Kind.LIFTED, Kind.TURN_UNDER_WAY) or must:
                said = (intent.kind, intent.sentence, sorted(lit))
                assert must <= lit, (*said, "hidden:", sorted(must - lit))
                assert lit <= may, (*said, "no move puts anything on:", sorted(lit - may))
                assert (intent.kind is Kind.LIFTED) == in_hand, said
                checked += 1
        touched.update(n for n in names if reading[n] != committed[n])

    for action in actions[: rng.randrange(1, len(actions) + 1)]:
        cell = action.cells[0]
        if action.verb in ("lift", "remove"):
            thing = stacks[cell].pop()
            if action.verb == "lift":
                held.append(thing)
        elif action.verb == "place":
            thing = action.thing or held[-1]
            if thing in held:
                held.remove(thing)
            stacks[cell].append(thing)
        else:  # turn: off its cell, then back the other side up
            thing = stacks[cell].pop()
            send()
            assert thing.colour is not None
            stacks[cell].append(Thing(thing.kind, 1 - thing.colour))
        send()
    note(f"{checked} states checked")
