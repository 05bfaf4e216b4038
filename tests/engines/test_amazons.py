"""The Amazons (engines/amazons/RULES.md): one test per rule, each on a hand-checked position.

Diagrams list rank 10 first; ``W``/``B`` are White/Black amazons, ``x`` arrows.  The move generator is
also checked against a slow one written here from the rules, square by square, on random positions.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.amazons.rules import Amazons, Position
from engines.game import MoveError, Outcome
from engines.physical import Thing
from tests.budget import examples

GAME = Amazons()
EMPTY_ROW = ". . . . . . . . . ."


def legal(pos: Position) -> set[str]:
    return set(GAME.legal_texts(pos))


def test_the_start_has_four_amazons_each_and_white_to_move() -> None:
    cells = GAME.cells(GAME.start())
    amazons = {name: stack[0].colour for name, stack in cells.items() if stack}
    assert amazons == {"a4": 0, "d1": 0, "g1": 0, "j4": 0, "a7": 1, "d10": 1, "g10": 1, "j7": 1}
    assert all(stack[0].kind == "amazon" for stack in cells.values() if stack)
    assert GAME.to_move(GAME.start()) == 0 and GAME.outcome(GAME.start()) is None


def test_an_amazon_moves_like_a_queen_across_empty_squares_only() -> None:
    # a4 at the start: up a5 a6 (Black on a7), down a3 a2 a1, along the rank b4..i4 (White on j4), up the
    # diagonal b5..f9 (Black on g10), down it b3 c2 (White on d1): 2 + 3 + 8 + 5 + 2 = 20 squares.
    moves = legal(GAME.start())
    reached = {m.split("/")[0].split("-")[1] for m in moves if m.startswith("a4-")}
    assert reached == {"a5", "a6", "a3", "a2", "a1", "b5", "c6", "d7", "e8", "f9", "b3", "c2"} | {
        f"{f}4" for f in "bcdefghi"
    }


SHOT_BOARD = f"""
{EMPTY_ROW}
{EMPTY_ROW}
{EMPTY_ROW}
{EMPTY_ROW}
{EMPTY_ROW}
. . . x . . . . . .
. . . . . . . . . .
. . . W . . . . . .
. . . . . . . . . .
. . . . . . . . . B
"""


def test_the_arrow_flies_like_a_queen_from_the_new_square_and_the_square_left_is_empty() -> None:
    pos = Amazons.from_diagram(SHOT_BOARD)
    # d3 -> d4: down the file d3 (just left), d2, d1; up it nothing (an arrow on d5).
    shots = {m.split("/")[1] for m in legal(pos) if m.startswith("d3-d4/")}
    assert {"d3", "d2", "d1"} <= shots and not {"d4", "d5", "d6"} & shots
    # Left and right along rank 4: a4 b4 c4 and e4..j4; the diagonals: c5 b6 a7, e5..j10, c3 b2 a1, e3 f2 g1.
    assert shots == {"d3", "d2", "d1"} | {f"{f}4" for f in "abcefghij"} | {
        "c5",
        "b6",
        "a7",
        "e5",
        "f6",
        "g7",
        "h8",
        "i9",
        "j10",
        "c3",
        "b2",
        "a1",
        "e3",
        "f2",
        "g1",
    }
    after = GAME.play_texts(["d3-d4/d3"], pos)
    cells = GAME.cells(after)
    assert cells["d3"] == (Thing("arrow"),) and cells["d4"] == (Thing("amazon", 0),)
    assert GAME.to_move(after) == 1


def test_a_turn_is_always_a_move_and_a_shot() -> None:
    with pytest.raises(MoveError, match="from-to/arrow"):
        GAME.parse_move(GAME.start(), "d1-d7")
    with pytest.raises(MoveError, match="no square 'k7'"):
        GAME.parse_move(GAME.start(), "d1-k7/d1")
    assert GAME.format_move(GAME.start(), GAME.parse_move(GAME.start(), " D1-D7/G7 ")) == "d1-d7/g7"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("a7-a5/a4", "no White amazon on a7"),  # Black's amazon, and White is to move
        ("e5-e6/e7", "no White amazon on e5"),
        ("a4-a8/a9", "the amazon on a4 cannot reach a8"),  # Black's a7 is in the way
        ("d1-d7/d10", "an arrow from d7 cannot reach d10"),  # Black's amazon sits on d10
    ],
)
def test_an_illegal_turn_says_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(MoveError, match=why):
        GAME.parse_move(GAME.start(), text)


WALLED = f"""
. . . . . . . . . B
{EMPTY_ROW}
{EMPTY_ROW}
{EMPTY_ROW}
{EMPTY_ROW}
{EMPTY_ROW}
{EMPTY_ROW}
{EMPTY_ROW}
x x . . . . . . . .
W x . . . . . . . .
"""


def test_a_player_without_a_legal_turn_loses() -> None:
    # White's only amazon a1 is walled in by arrows on a2, b2 and b1.
    pos = Amazons.from_diagram(WALLED, to_move=0)
    assert GAME.legal_moves(pos) == [] and GAME.count_moves(pos) == 0
    assert GAME.outcome(pos) == Outcome(1)
    with pytest.raises(MoveError, match="game is over"):
        GAME.parse_move(pos, "a1-a2/a1")
    # The same board with Black to move goes on: Black's walled-in opponent does not end Black's turn.
    assert GAME.outcome(Amazons.from_diagram(WALLED, to_move=1)) is None


def test_one_free_square_next_to_an_amazon_is_a_legal_turn() -> None:
    pos = Amazons.from_diagram(WALLED.replace("x x . .", "x . . ."), to_move=0)  # b2 free
    # a1 -> b2 (then c3.. is open too) and the arrow back onto a1, among others.
    assert "a1-b2/a1" in legal(pos) and GAME.outcome(pos) is None


def test_the_arrow_back_onto_the_square_left_changes_two_squares() -> None:
    pos = Amazons.from_diagram(SHOT_BOARD)
    move = GAME.parse_move(pos, "d3-d4/d3")
    assert sorted(GAME.changed_cells(pos, move)) == sorted(GAME.geometry.index[c] for c in ("d3", "d4"))
    move = GAME.parse_move(pos, "d3-d4/e4")
    assert len(GAME.changed_cells(pos, move)) == 3


def test_positions_pickle_and_compare_by_value() -> None:
    pos = GAME.play_texts(["d1-d7/g7"])
    assert pickle.loads(pickle.dumps(pos)) == pos and hash(pickle.loads(pickle.dumps(pos))) == hash(pos)
    assert pos != GAME.start() and GAME.play_texts(["d1-d7/g7"]) == pos


# --- the generator against one written square by square from RULES.md -------------------------------------
STEPS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def slow_reach(board: dict[tuple[int, int], str], q: int, r: int) -> list[tuple[int, int]]:
    out = []
    for dq, dr in STEPS:
        x, y = q + dq, r + dr
        while 0 <= x < 10 and 0 <= y < 10 and board[(x, y)] == ".":
            out.append((x, y))
            x, y = x + dq, y + dr
    return out


def slow_turns(diagram: str, to_move: int) -> set[str]:
    rows = [row.replace(" ", "") for row in diagram.strip().splitlines()]
    board = {(q, 9 - r): ch for r, row in enumerate(rows) for q, ch in enumerate(row)}
    name = lambda c: f"{'abcdefghij'[c[0]]}{c[1] + 1}"  # noqa: E731
    mine = "WB"[to_move]
    out = set()
    for origin in [c for c, ch in board.items() if ch == mine]:
        board[origin] = "."
        for dest in slow_reach(board, *origin):
            board[dest] = mine
            out |= {f"{name(origin)}-{name(dest)}/{name(a)}" for a in slow_reach(board, *dest)}
            board[dest] = "."
        board[origin] = mine
    return out


@settings(max_examples=examples(60))
@given(st.integers(0, 2**32), st.integers(0, 85))
def test_turns_are_those_of_a_square_by_square_generator(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    pos = GAME.start()
    for _ in range(plies):
        moves = GAME.legal_moves(pos)
        if not moves:
            break
        pos = GAME.play(pos, rng.choice(moves))
    diagram = GAME.render(pos)
    rows = [line.split()[1:] for line in diagram.splitlines()[:-1]]
    text = "\n".join(" ".join(row) for row in rows)
    assert Amazons.from_diagram(text, GAME.to_move(pos)) == pos
    assert legal(pos) == slow_turns(text, GAME.to_move(pos))
    assert GAME.count_moves(pos) == len(GAME.legal_moves(pos))
    assert GAME.is_over(pos) == (not GAME.legal_moves(pos))
