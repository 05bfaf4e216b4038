"""Space Tiles, written from RULES.md section 2 alone (reference for the cross-check).

Readings chosen where RULES.md leaves room (each also noted where it is used):
- n = 1: the piece moves to a neighbouring cell that has a tile (not the tile placed this turn) and no piece.
- n >= 2: the pieces may stand next to pieces already on the board; only pieces placed this turn may not be
  neighbours of each other.
- The result is judged on the whole board at the end of the turn (RULES.md: any such run was made by that
  turn), for the player who just moved only; a run of 4+ of the opponent's colour is not looked at.
- A player with no legal turn at the start of their turn has lost: the game is over then, winner the other.
- Space Tiles has no score: score() is None.
- to_move simply alternates, also once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

FILES = "abcdefghi"
RANKS = 5
# (q, r): q the file index 0..8, r the rank index 0..4.
CELLS = [f"{FILES[q]}{r + 1}" for r in range(RANKS) for q in range(len(FILES))]
NEIGHBOUR_STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
# Lines run along a rank, along a file, and along (q+1, r-1).
AXES = [(1, 0), (0, 1), (1, -1)]
CENTRE = [f"{file}{rank}" for file in "def" for rank in (2, 3, 4)]


@dataclass(frozen=True)
class State:
    """A position (its containers are never mutated)."""

    tiles: frozenset[str]  # cells that hold a tile
    pieces: dict[str, int]  # cell -> owner of the piece on it
    supply: int  # tiles not yet placed
    hands: tuple[int, int]  # pieces each player has not placed yet
    player: int
    winner: int | None  # decided by the runs at the end of the last turn


def coords(cell: str) -> tuple[int, int]:
    return FILES.index(cell[0]), int(cell[1:]) - 1


def name(q: int, r: int) -> str | None:
    if 0 <= q < len(FILES) and 0 <= r < RANKS:
        return f"{FILES[q]}{r + 1}"
    return None


def neighbours_on_board(cell: str) -> list[str]:
    q, r = coords(cell)
    found = [name(q + dq, r + dr) for dq, dr in NEIGHBOUR_STEPS]
    return [neighbour for neighbour in found if neighbour is not None]


NEIGHBOURS = {cell: neighbours_on_board(cell) for cell in CELLS}


def neighbours(cell: str) -> list[str]:
    return NEIGHBOURS[cell]


def initial(options: frozenset[str] = frozenset()) -> State:
    if options:
        raise ValueError(f"Space Tiles has no options: {sorted(options)}")
    return State(frozenset(CENTRE), {}, 31, (20, 20), 0, None)


def to_move(state: State) -> int:
    return state.player


def score(state: State) -> None:
    return None


def turns(state: State) -> Iterator[str]:
    """Every legal turn of the player to move: a tile placement whose step 2 can be done in full."""
    if state.supply == 0:
        return
    for tile in CELLS:
        if tile in state.tiles:
            continue
        n = sum(1 for cell in neighbours(tile) if cell in state.tiles)
        if n == 0:
            continue
        # The tile placed this turn is not in state.tiles, so it is never used below.
        if n == 1:
            for source, owner in state.pieces.items():
                if owner != state.player:
                    continue
                for target in neighbours(source):
                    if target in state.tiles and target not in state.pieces:
                        yield f"{tile}:{source}-{target}"
        else:
            count = n - 1
            if state.hands[state.player] < count:
                continue
            free = sorted(cell for cell in state.tiles if cell not in state.pieces)
            for chosen in combinations(free, count):
                if any(b in neighbours(a) for a, b in combinations(chosen, 2)):
                    continue
                yield f"{tile}:{','.join(sorted(chosen))}"


def legal(state: State) -> list[str]:
    if state.winner is not None:
        return []
    return sorted(set(turns(state)))


def result(state: State) -> tuple[int, None] | None:
    if state.winner is not None:
        return state.winner, None
    if not any(True for _ in turns(state)):
        return 1 - state.player, None  # no legal turn: the player to move loses
    return None


def runs(pieces: dict[str, int]) -> list[list[str]]:
    """Every maximal run of consecutive cells holding pieces (any colours) along the three axes."""
    found = []
    for dq, dr in AXES:
        for cell in CELLS:
            q, r = coords(cell)
            before = name(q - dq, r - dr)
            if cell not in pieces or (before is not None and before in pieces):
                continue  # not the first cell of a run
            run = [cell]
            following = name(q + dq, r + dr)
            while following is not None and following in pieces:
                run.append(following)
                fq, fr = coords(following)
                following = name(fq + dq, fr + dr)
            found.append(run)
    return found


def colour_runs(run: list[str], pieces: dict[str, int]) -> list[list[str]]:
    """The maximal one-colour stretches of a run."""
    stretches: list[list[str]] = []
    for cell in run:
        if stretches and pieces[stretches[-1][-1]] == pieces[cell]:
            stretches[-1].append(cell)
        else:
            stretches.append([cell])
    return stretches


def judge(pieces: dict[str, int], mover: int) -> int | None:
    """The winner decided by the runs at the end of ``mover``'s turn, or None."""
    all_runs = runs(pieces)
    if any(len(run) >= 6 for run in all_runs):
        return 1 - mover  # a run of 6 or more of any colours: the mover loses
    if any(len(run) == 5 for run in all_runs):
        return mover  # a run of exactly 5 of any colours
    for run in all_runs:
        for stretch in colour_runs(run, pieces):
            if len(stretch) >= 4 and pieces[stretch[0]] == mover:
                return mover  # 4 or more of the mover's own colour
    return None


def apply(state: State, move: str) -> State:
    if move not in legal(state):
        raise ValueError(f"not a legal move here: {move!r}")
    return play(state, move)


def play(state: State, move: str) -> State:
    """The position after ``move``, which must be legal (apply checks that)."""
    mover = state.player
    tile, action = move.split(":")
    pieces = dict(state.pieces)
    hands = list(state.hands)
    if "-" in action:
        source, target = action.split("-")
        del pieces[source]
        pieces[target] = mover
    else:
        for cell in action.split(","):
            pieces[cell] = mover
            hands[mover] -= 1
    return State(
        state.tiles | {tile}, pieces, state.supply - 1, (hands[0], hands[1]), 1 - mover, judge(pieces, mover)
    )
