"""The King of Rings, written from RULES.md section 1 alone (reference for the cross-check).

Readings chosen where RULES.md leaves room (each also noted where it is used):
- A knight with k = 0 that steps onto an enemy knight with k = 0 captures it and still has k = 0 (it takes
  "all of that knight's rings", which are none); the captured knight is out of the game for good.
- `empty_steps` lets only a k = 0 STEP end on an empty square; jumps and drops still need a ring (or an
  enemy). A step onto an empty square is written like a step onto a ring, `b2-c3`.
- Player 1's "one more turn" after player 0 took the last loose ring ends the game whatever it is (a capture,
  an empty step under `empty_steps`, or a pass).
- The score is reported at every position (the points held by each side's knights on the board so far), as
  Game.score says; the result's score is the same numbers when the game ends.
- to_move simply alternates (passes included), also once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .common import EIGHT_DIRECTIONS, square_cells, square_step

FILES = "abcdefg"
RANKS = 7
CELLS = square_cells(FILES, RANKS)
OPTIONS = frozenset({"empty_steps", "blue_parity"})


@dataclass(frozen=True)
class Ring:
    """A loose ring on a square, worth ``points``."""

    points: int


@dataclass(frozen=True)
class Knight:
    """A knight of ``owner`` carrying the rings it has won (the points of each)."""

    owner: int
    rings: tuple[int, ...]

    @property
    def k(self) -> int:
        return len(self.rings)

    @property
    def p(self) -> int:
        return sum(self.rings)


@dataclass(frozen=True)
class State:
    """A position. ``squares`` has an entry for every square that is not empty (never mutated)."""

    squares: dict[str, Ring | Knight]
    hands: tuple[int, int]  # knights each player may drop
    player: int  # whose turn it is
    passes_in_a_row: int
    final_turn: bool  # player 0 took the last loose ring: this is player 1's one more turn
    over: bool
    options: frozenset[str]


def step(cell: str, d_file: int, d_rank: int) -> str | None:
    return square_step(cell, FILES, RANKS, d_file, d_rank)


def is_blue(cell: str, options: frozenset[str]) -> bool:
    """Checkerboard colouring with a1 blue (or b1 blue under `blue_parity`)."""
    file_index = FILES.index(cell[0])
    rank_index = int(cell[1:]) - 1
    a1_colour = (file_index + rank_index) % 2 == 0
    return not a1_colour if "blue_parity" in options else a1_colour


def initial(options: frozenset[str] = frozenset()) -> State:
    unknown = options - OPTIONS
    if unknown:
        raise ValueError(f"unknown option(s): {sorted(unknown)}")
    squares: dict[str, Ring | Knight] = {}
    for cell in CELLS:
        rank = int(cell[1:])
        if rank in (1, 2) and is_blue(cell, options):
            squares[cell] = Knight(0, ())
        elif rank in (6, 7) and is_blue(cell, options):
            squares[cell] = Knight(1, ())
        elif cell == "d4":
            squares[cell] = Ring(5)  # the big blue ring
        elif cell in ("a4", "b4", "c4", "e4", "f4", "g4"):
            squares[cell] = Ring(3)  # blue rings
        else:
            squares[cell] = Ring(1)  # silver rings
    return State(squares, (0, 0), 0, 0, False, False, options)


def to_move(state: State) -> int:
    return state.player


def score(state: State) -> list[int]:
    """Each player's points: the rings held by their knights on the board."""
    points = [0, 0]
    for thing in state.squares.values():
        if isinstance(thing, Knight):
            points[thing.owner] += thing.p
    return points


def result(state: State) -> tuple[int | None, list[int]] | None:
    if not state.over:
        return None
    points = score(state)
    if points[0] > points[1]:
        return 0, points
    if points[1] > points[0]:
        return 1, points
    return None, points


def landing_text(state: State, source: str, target: str, may_land_on_empty: bool) -> str | None:
    """The text of the move from source to target by the player to move, or None if it may not land there.

    Never on its own side's knight; only on a loose ring or an enemy knight (or, for a k = 0 step under
    `empty_steps`, an empty square).
    """
    thing = state.squares.get(target)
    if isinstance(thing, Knight):
        if thing.owner == state.player:
            return None
        return f"{source}x{target}"
    if isinstance(thing, Ring):
        return f"{source}-{target}"
    if may_land_on_empty:
        return f"{source}-{target}"
    return None


def turns(state: State) -> Iterator[str]:
    """Every step, jump and drop of the player to move (not pass)."""
    if state.over:
        return
    for source, thing in state.squares.items():
        if not isinstance(thing, Knight) or thing.owner != state.player:
            continue
        for d_file, d_rank in EIGHT_DIRECTIONS:
            if thing.k == 0:
                # Step: one of the 8 neighbouring squares.
                target = step(source, d_file, d_rank)
                may_land_on_empty = "empty_steps" in state.options
            else:
                # Jump: exactly k squares in a straight line; what lies between is ignored.
                target = step(source, d_file * thing.k, d_rank * thing.k)
                may_land_on_empty = False
            if target is None:
                continue
            text = landing_text(state, source, target, may_land_on_empty)
            if text is not None:
                yield text
    if state.hands[state.player] > 0:
        for cell, thing in state.squares.items():
            if isinstance(thing, Ring):
                yield f"*{cell}"


def legal(state: State) -> list[str]:
    if state.over:
        return []
    moves = sorted(set(turns(state)))
    return moves if moves else ["pass"]


def apply(state: State, move: str) -> State:
    if move not in legal(state):
        raise ValueError(f"not a legal move here: {move!r}")
    return play(state, move)


def play(state: State, move: str) -> State:
    """The position after ``move``, which must be legal (apply checks that)."""
    mover = state.player
    squares = dict(state.squares)
    hands = list(state.hands)
    took_loose_ring = False

    if move == "pass":
        passes = state.passes_in_a_row + 1
    else:
        passes = 0
        if move.startswith("*"):
            target = move[1:]
            hands[mover] -= 1
            knight = Knight(mover, ())
        else:
            source, target = move.replace("x", "-").split("-")
            moving = squares.pop(source)
            assert isinstance(moving, Knight)
            knight = moving
        landed_on = squares.get(target)
        if isinstance(landed_on, Ring):
            # Taking is compulsory: k + 1.
            knight = Knight(mover, (*knight.rings, landed_on.points))
            took_loose_ring = True
        elif isinstance(landed_on, Knight):
            # The mover takes all of the captured knight's rings; the captured knight goes back to its OWNER's
            # hand if it held at least one ring, otherwise it is out of the game for good.
            knight = Knight(mover, (*knight.rings, *landed_on.rings))
            if landed_on.k >= 1:
                hands[landed_on.owner] += 1
        squares[target] = knight

    over = False
    final_turn = False
    if state.final_turn:
        over = True  # player 1's one more turn has been played
    elif passes >= 2:
        over = True
    elif took_loose_ring and not any(isinstance(thing, Ring) for thing in squares.values()):
        if mover == 1:
            over = True
        else:
            final_turn = True
    return State(squares, (hands[0], hands[1]), 1 - mover, passes, final_turn, over, state.options)
