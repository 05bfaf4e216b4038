"""Flip Four, written from RULES.md section 4 alone (reference for the cross-check).

Readings chosen where RULES.md leaves room (each also noted where it is used):
- A position for the repetition rule is (which colour every point shows, both hands, player to move); the
  start position is its first appearance. A move is illegal when the position it makes has already appeared
  twice. Moves ruled out this way can leave a player with no legal move, who then loses.
- The over-line check after a turn decides the game at once; otherwise the start-of-turn checks decide it:
  first "the player to move shows a run of exactly 4" (that player wins), then "no legal move" (loses).
- A player may place 2 pieces only with 2 or more in hand, and never on the game's first turn.
- Flip Four has no score: score() is None.
- to_move simply alternates, also once the game is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

RED, YELLOW = 0, 1  # player 0 is red
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
AXES = [(1, 0), (0, 1), (1, -1)]


def name(q: int, r: int) -> str | None:
    """The point (q, r), or None off the board: max(|q|, |r|, |q + r|) <= 2."""
    if max(abs(q), abs(r), abs(q + r)) <= 2:
        return f"{'abcde'[q + 2]}{r + 3}"
    return None


def coords(point: str) -> tuple[int, int]:
    return "abcde".index(point[0]) - 2, int(point[1:]) - 3


POINTS = [p for p in (name(q, r) for r in range(-2, 3) for q in range(-2, 3)) if p is not None]

Key = tuple[frozenset[tuple[str, int]], tuple[int, int], int]


@dataclass(frozen=True)
class State:
    """A position and the game's history (its containers are never mutated)."""

    board: dict[str, int]  # point -> colour shown
    hands: tuple[int, int]
    player: int
    plies: int
    appearances: dict[Key, int]  # how often each position has appeared in the game, this one included
    over_line_winner: int | None  # decided at once by an over-line after the last turn


def key(board: dict[str, int], hands: tuple[int, int], player: int) -> Key:
    return frozenset(board.items()), hands, player


def initial(options: frozenset[str] = frozenset()) -> State:
    if options:
        raise ValueError(f"Flip Four has no options: {sorted(options)}")
    return State({}, (8, 8), RED, 0, {key({}, (8, 8), RED): 1}, None)


def to_move(state: State) -> int:
    return state.player


def score(state: State) -> None:
    return None


def all_lines() -> list[list[str]]:
    """Every line of points along the three directions, in order."""
    found: list[list[str]] = []
    for dq, dr in AXES:
        for point in POINTS:
            q, r = coords(point)
            if name(q - dq, r - dr) is not None:
                continue  # not the first point of its line
            line = []
            point_name = name(q, r)
            while point_name is not None:
                line.append(point_name)
                q, r = q + dq, r + dr
                point_name = name(q, r)
            found.append(line)
    return found


LINES = all_lines()


def colour_runs(board: dict[str, int], colour: int) -> list[int]:
    """The lengths of the maximal runs of points showing ``colour``, line by line."""
    lengths = []
    for line in LINES:
        length = 0
        for point in [*line, None]:
            if point is not None and board.get(point) == colour:
                length += 1
            else:
                if length:
                    lengths.append(length)
                length = 0
    return lengths


def over_lines(board: dict[str, int], colour: int) -> bool:
    """A run of 5, or two or more separate runs of exactly 4."""
    lengths = colour_runs(board, colour)
    return any(length >= 5 for length in lengths) or sum(1 for length in lengths if length == 4) >= 2


def shows_four(board: dict[str, int], colour: int) -> bool:
    return 4 in colour_runs(board, colour)


def candidate_turns(state: State) -> Iterator[tuple[str, dict[str, int], tuple[int, int]]]:
    """Every placement and move before the repetition rule: (text, board after, hands after)."""
    player = state.player
    empty = [point for point in POINTS if point not in state.board]
    in_hand = state.hands[player]
    if in_hand >= 1:
        for point in empty:
            board = dict(state.board)
            board[point] = player
            yield point, board, hands_minus(state.hands, player, 1)
    if in_hand >= 2 and state.plies > 0:
        for first, second in combinations(sorted(empty), 2):
            board = dict(state.board)
            board[first] = player
            board[second] = player
            yield f"{first},{second}", board, hands_minus(state.hands, player, 2)
    for source, colour in state.board.items():
        if colour != player:
            continue
        for dq, dr in DIRECTIONS:
            q, r = coords(source)
            jumped = []
            landing = name(q + dq, r + dr)
            while landing is not None and landing in state.board:
                jumped.append(landing)
                q, r = q + dq, r + dr
                landing = name(q + dq, r + dr)
            if not jumped or landing is None:
                continue  # the next point is empty, or the run reaches the edge
            board = dict(state.board)
            del board[source]
            for over in jumped:
                board[over] = 1 - board[over]
            board[landing] = player
            yield f"{source}-{landing}", board, state.hands


def hands_minus(hands: tuple[int, int], player: int, count: int) -> tuple[int, int]:
    new = list(hands)
    new[player] -= count
    return new[0], new[1]


def turns(state: State) -> Iterator[tuple[str, dict[str, int], tuple[int, int]]]:
    """The candidates that do not make a position for the third time."""
    for text, board, hands in candidate_turns(state):
        if state.appearances.get(key(board, hands, 1 - state.player), 0) < 2:
            yield text, board, hands


def result(state: State) -> tuple[int, None] | None:
    if state.over_line_winner is not None:
        return state.over_line_winner, None
    if shows_four(state.board, state.player):
        return state.player, None  # a run of exactly 4 at the start of the turn, whoever made it
    if not any(True for _ in turns(state)):
        return 1 - state.player, None  # no legal move: the player to move loses
    return None


def legal(state: State) -> list[str]:
    if result(state) is not None:
        return []
    return sorted(text for text, _, _ in turns(state))


def apply(state: State, move: str) -> State:
    if move not in legal(state):
        raise ValueError(f"not a legal move here: {move!r}")
    return play(state, move)


def play(state: State, move: str) -> State:
    """The position after ``move``, which must be legal (apply checks that)."""
    board, hands = next((board, hands) for text, board, hands in candidate_turns(state) if text == move)
    mover = state.player
    appearances = dict(state.appearances)
    new_key = key(board, hands, 1 - mover)
    appearances[new_key] = appearances.get(new_key, 0) + 1
    winner = None
    if over_lines(board, mover):
        winner = 1 - mover  # a loss outranks a win
    elif over_lines(board, 1 - mover):
        winner = mover
    return State(board, hands, 1 - mover, state.plies + 1, appearances, winner)
