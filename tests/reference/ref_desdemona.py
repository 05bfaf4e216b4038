"""Desdemona, written from RULES.md section 3 alone (reference for the cross-check).

Readings chosen where RULES.md leaves room (each also noted where it is used):
- A capture needs at least one opponent stone next to the moved queen, then only opponent stones, then an
  empty square (no stone, no queen) on the board; a run that reaches the edge, one of your own stones or any
  queen is no capture. (The English seed's "is vacant" case, a capture of zero stones, is not a capture.)
- Only the game's very first turn (Black's) is the queen move alone; every later turn is a queen move with a
  shot or a capture, and a shot is always possible after a queen move (the square it left is empty).
- The score is reported at every position (stones of each colour on the board so far).
- to_move simply alternates (passes included), also once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .common import EIGHT_DIRECTIONS, square_cells, square_step

FILES = "abcdefghij"
RANKS = 10
CELLS = square_cells(FILES, RANKS)
BLACK, WHITE = 0, 1


@dataclass(frozen=True)
class State:
    """A position. ``queens`` and ``stones`` map a cell to its colour (0 Black, 1 White); never mutated."""

    queens: dict[str, int]
    stones: dict[str, int]
    player: int
    plies: int  # turns played so far, passes included
    passes_in_a_row: int
    over: bool


def step(cell: str, d_file: int, d_rank: int) -> str | None:
    return square_step(cell, FILES, RANKS, d_file, d_rank)


def initial(options: frozenset[str] = frozenset()) -> State:
    if options:
        raise ValueError(f"Desdemona has no options: {sorted(options)}")
    queens = {cell: BLACK for cell in ("a4", "d10", "g1", "j7")}
    queens.update({cell: WHITE for cell in ("a7", "d1", "g10", "j4")})
    return State(queens, {}, BLACK, 0, 0, False)


def to_move(state: State) -> int:
    return state.player


def score(state: State) -> list[int]:
    """[black stones, white stones]; queens are not counted."""
    return [sum(1 for colour in state.stones.values() if colour == player) for player in (BLACK, WHITE)]


def result(state: State) -> tuple[int | None, list[int]] | None:
    if not state.over:
        return None
    stones = score(state)
    if stones[0] > stones[1]:
        return 0, stones
    if stones[1] > stones[0]:
        return 1, stones
    return None, stones


def is_empty(queens: dict[str, int], stones: dict[str, int], cell: str) -> bool:
    return cell not in queens and cell not in stones


def queen_reach(queens: dict[str, int], stones: dict[str, int], source: str) -> list[str]:
    """The squares a queen on ``source`` can reach: one or more squares in one of 8 directions, across empty
    squares only (stones and queens block), ending on an empty square."""
    reach = []
    for d_file, d_rank in EIGHT_DIRECTIONS:
        cell = step(source, d_file, d_rank)
        while cell is not None and is_empty(queens, stones, cell):
            reach.append(cell)
            cell = step(cell, d_file, d_rank)
    return reach


def capture_line(
    queens: dict[str, int], stones: dict[str, int], queen: str, player: int, d_file: int, d_rank: int
) -> tuple[list[str], str] | None:
    """For a capture by the queen on ``queen`` in one direction: (the opponent stones turned, the empty square
    where the player's stone goes), or None if that direction is no capture."""
    opponent = 1 - player
    turned = []
    cell = step(queen, d_file, d_rank)
    while cell is not None and stones.get(cell) == opponent:
        turned.append(cell)
        cell = step(cell, d_file, d_rank)
    if not turned or cell is None or not is_empty(queens, stones, cell):
        return None
    return turned, cell


def turns(state: State) -> Iterator[str]:
    """Every queen move (with its shot or capture) of the player to move."""
    for source, colour in state.queens.items():
        if colour != state.player:
            continue
        for target in queen_reach(state.queens, state.stones, source):
            if state.plies == 0:
                # Black's very first turn is the queen move alone.
                yield f"{source}-{target}"
                continue
            queens_after = dict(state.queens)
            del queens_after[source]
            queens_after[target] = colour
            # a. Shot: an empty square the moved queen could reach from its new square.
            for shot in queen_reach(queens_after, state.stones, target):
                yield f"{source}-{target}/{shot}"
            # b. Capture: one line only.
            for d_file, d_rank in EIGHT_DIRECTIONS:
                line = capture_line(queens_after, state.stones, target, state.player, d_file, d_rank)
                if line is not None:
                    yield f"{source}-{target}x{line[1]}"


def legal(state: State) -> list[str]:
    if state.over:
        return []
    moves = sorted(set(turns(state)))
    return moves if moves else ["pass"]  # a player with no queen move passes


def apply(state: State, move: str) -> State:
    if move not in legal(state):
        raise ValueError(f"not a legal move here: {move!r}")
    return play(state, move)


def play(state: State, move: str) -> State:
    """The position after ``move``, which must be legal (apply checks that)."""
    player = state.player
    queens = dict(state.queens)
    stones = dict(state.stones)
    if move == "pass":
        passes = state.passes_in_a_row + 1
    else:
        passes = 0
        source, rest = move.split("-")
        target = rest.replace("x", "/").split("/")[0]
        del queens[source]
        queens[target] = player
        if "/" in rest:
            shot = rest.split("/")[1]
            stones[shot] = 1 - player  # a stone of the OPPONENT's colour
        if "x" in rest:
            placed = rest.split("x")[1]
            for d_file, d_rank in EIGHT_DIRECTIONS:
                line = capture_line(queens, stones, target, player, d_file, d_rank)
                if line is not None and line[1] == placed:
                    for cell in line[0]:
                        stones[cell] = player  # turned to the mover's colour
                    stones[placed] = player
    return State(queens, stones, 1 - player, state.plies + 1, passes, passes >= 2)
