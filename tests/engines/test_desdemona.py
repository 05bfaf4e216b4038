"""Desdemona (RULES.md section 3): one test per rule, each on a hand-checked position.

Diagrams list rank 10 first; ``B``/``W`` are Black/White queens, ``x``/``o``
Black/White stones.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.desdemona.rules import Desdemona, Position
from engines.game import MoveError, Outcome
from engines.physical import Thing
from tests.budget import examples

GAME = Desdemona()


def legal(pos: Position) -> set[str]:
    return set(GAME.legal_texts(pos))


def after(pos: Position, *texts: str) -> Position:
    return GAME.play_texts(texts, pos)


def test_start_position_has_the_eight_queens_and_no_stones() -> None:
    cells = GAME.cells(GAME.start())
    queens = {name: things[0].colour for name, things in cells.items() if things}
    assert queens == {"a4": 0, "d10": 0, "g1": 0, "j7": 0, "a7": 1, "d1": 1, "g10": 1, "j4": 1}
    assert GAME.score(GAME.start()) == (0, 0)


def test_first_move_is_a_queen_move_without_a_shot() -> None:
    # a4 reaches a5 a6 (a7 is White's), a3 a2 a1, b4..i4 (j4 is White's), b5 c6 d7 e8 f9 (g10 is White's)
    # and b3 c2 (d1 is White's): 20 squares.  The setup is symmetric under a quarter turn, so 80 in all.
    moves = legal(GAME.start())
    assert len(moves) == 80
    assert all("/" not in m and "x" not in m for m in moves)
    assert {m for m in moves if m.startswith("a4-")} == {
        "a4-a5", "a4-a6", "a4-a3", "a4-a2", "a4-a1", "a4-b4", "a4-c4", "a4-d4", "a4-e4", "a4-f4", "a4-g4",
        "a4-h4", "a4-i4", "a4-b5", "a4-c6", "a4-d7", "a4-e8", "a4-f9", "a4-b3", "a4-c2",
    }  # fmt: skip


def test_every_later_move_needs_a_shot_or_capture() -> None:
    pos = after(GAME.start(), "a4-a6")
    moves = legal(pos)
    assert moves and all("/" in m or "x" in m for m in moves)
    with pytest.raises(MoveError, match="shot"):
        GAME.parse_move(pos, "a7-a8")


SHOT_BOARD = """
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . x . . . . . .
. . . . . . . . . .
. . . B . . . . . .
. . . . . . . . . .
W . . . . . . . . .
"""


def test_shot_targets_are_the_squares_the_moved_queen_could_reach_including_the_one_it_left() -> None:
    pos = Desdemona.from_diagram(SHOT_BOARD)
    # d3 -> d4: d3 is empty again, so d3, d2 and d1 are reachable through it; d5 holds a stone, so
    # neither d5 nor anything beyond it on the file is.
    shots = {m.split("/")[1] for m in legal(pos) if m.startswith("d3-d4/")}
    assert {"d3", "d2", "d1"} <= shots
    assert "d5" not in shots and "d6" not in shots
    # The shot puts a stone of the OPPONENT's colour.
    pos2 = after(pos, "d3-d4/d3")
    assert GAME.cells(pos2)["d3"][0].kind == "stone" and GAME.cells(pos2)["d3"][0].colour == 1


CAPTURE_BOARD = """
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . o o . . .
. . . . . o . . . .
B . . . o o . . . W
. . . . . . . . . .
"""


def test_a_capture_turns_one_line_only() -> None:
    pos = Desdemona.from_diagram(CAPTURE_BOARD)
    # Black a2 -> d2 (b2 c2 d2 empty).  From d2 east: e2 f2 White, then g2 empty: a capture at g2.
    # North-east of d2 is e3, empty: no second line.
    assert "a2-d2xg2" in legal(pos)
    cells = GAME.cells(after(pos, "a2-d2xg2"))
    assert [cells[c][0].colour for c in ("e2", "f2", "g2")] == [0, 0, 0]
    # f3, f4 and g4 touch the line but are not on it: they stay White.
    assert [cells[c][0].colour for c in ("f3", "f4", "g4")] == [1, 1, 1]


def _queen_moves_to_d2_with_east_run(end_of_run: str) -> Position:
    """Black queen d1 (it will step to d2); White stones e2 f2; ``end_of_run`` on g2."""
    return Desdemona.from_diagram(
        "\n".join([". . . . . . . . . ."] * 8) + f"\n. . . . o o {end_of_run} . . .\n. . . B . . . . . W"
    )


@pytest.mark.parametrize(
    ("end_of_run", "captures"),
    [
        ("x", set()),  # the run ends at one of Black's stones
        ("W", set()),  # the run ends at a queen
        (".", {"d1-d2xg2"}),  # control: an empty end square is a capture
    ],
)
def test_no_capture_when_the_run_ends_at_a_queen_or_own_stone(end_of_run: str, captures: set[str]) -> None:
    pos = _queen_moves_to_d2_with_east_run(end_of_run)
    assert {m for m in legal(pos) if m.startswith("d1-d2x")} == captures


def test_no_capture_when_the_run_reaches_the_edge() -> None:
    pos = Desdemona.from_diagram(
        "\n".join([". . . . . . . . . ."] * 8) + "\n. . . . . . . o o o\n. . . . . . B . . W"
    )
    # g1 -> g2: east h2 i2 j2 are White stones, then the edge.
    assert not any(m.startswith("g1-g2x") for m in legal(pos))


BLOCKED_BOARD = """
. . . . . . . . . W
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
. . . . . . . . . .
W x . . . . . . . .
B x . . . . . . . .
"""


def test_a_blocked_player_passes_and_moves_again_when_freed() -> None:
    # Black's only queen a1 is boxed in by a2 (White queen), b1 and b2 (Black stones): it must pass.
    pos = Desdemona.from_diagram(BLOCKED_BOARD)
    assert legal(pos) == {"pass"}
    pos = after(pos, "pass")
    assert GAME.to_move(pos) == 1 and not GAME.is_over(pos)
    assert "pass" not in legal(pos)
    # White's queen leaves a2 (shooting a Black stone on a3): a1 can move again to a2.
    pos = after(pos, "a2-a5/a3")
    assert "a1-a2/a1" in legal(pos)
    assert "pass" not in legal(pos)


def test_two_passes_in_a_row_end_the_game_and_more_stones_win() -> None:
    # Both sides boxed in: Black a1 by b1 b2 a2 stones; White j10 by i10 i9 j9 stones.
    pos = Desdemona.from_diagram(
        """
        . . . . . . . . o W
        . . . . . . . . o o
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        x x . . . . . . . .
        B x . . . . . . . x
        """
    )
    assert GAME.score(pos) == (4, 3)
    pos = after(pos, "pass")
    assert GAME.outcome(pos) is None and legal(pos) == {"pass"}
    pos = after(pos, "pass")
    assert GAME.outcome(pos) == Outcome(0, (4, 3))
    assert legal(pos) == set()


def test_equal_stones_is_a_draw() -> None:
    pos = Desdemona.from_diagram(
        """
        . . . . . . . . o W
        . . . . . . . . o o
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        x x . . . . . . . .
        B x . . . . . . . .
        """
    )
    pos = after(pos, "pass", "pass")
    assert GAME.outcome(pos) == Outcome(None, (3, 3))


def test_a_single_pass_does_not_end_the_game() -> None:
    pos = after(Desdemona.from_diagram(BLOCKED_BOARD), "pass", "a2-a5/a3", "a1-a2/a1")
    assert GAME.outcome(pos) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a4-k4", "no square 'k4'"),
        ("a4a6", "expected"),
        ("a4-a6/", "expected"),
        ("", "expected"),
        ("a11-a6", "no square 'a11'"),
    ],
)
def test_malformed_moves_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        GAME.parse_move(GAME.start(), text)


def test_illegal_moves_say_why() -> None:
    start = GAME.start()
    with pytest.raises(MoveError, match="no queen of the side to move on a7"):
        GAME.parse_move(start, "a7-a8")
    with pytest.raises(MoveError, match="cannot reach"):
        GAME.parse_move(start, "a4-a9")
    with pytest.raises(MoveError, match="first turn"):
        GAME.parse_move(start, "a4-a6/a5")


def random_position(seed: int, max_plies: int) -> tuple[list[Position], list[int]]:
    rng = random.Random(seed)
    positions, moves = [GAME.start()], []
    for _ in range(max_plies):
        legal_moves = GAME.legal_moves(positions[-1])
        if not legal_moves:
            break
        move = rng.choice(legal_moves)
        moves.append(move)
        positions.append(GAME.play(positions[-1], move))
    return positions, moves


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 10_000))
def test_random_playouts_keep_the_invariants(seed: int) -> None:
    positions, moves = random_position(seed, 200)
    for pos, move in zip(positions, moves, strict=False):
        text = GAME.format_move(pos, move)
        assert GAME.parse_move(pos, text) == move
        things = [t for stack in GAME.cells(pos).values() for t in stack]
        assert sum(t.kind == "queen" for t in things) == 8
        assert GAME.score(pos) == (things.count(Thing("stone", 0)), things.count(Thing("stone", 1)))
        assert (GAME.outcome(pos) is None) == bool(GAME.legal_moves(pos))
    texts = [GAME.format_move(p, m) for p, m in zip(positions, moves, strict=False)]
    replayed = GAME.play_texts(texts)
    assert replayed == positions[-1] and GAME.key(replayed) == GAME.key(positions[-1])


def test_a_position_survives_pickling_for_the_search_workers() -> None:
    import pickle

    positions, _ = random_position(7, 30)
    pos = positions[-1]
    back = pickle.loads(pickle.dumps(pos))
    assert (back.board, back.to_move, back.passes, back.ply) == (pos.board, pos.to_move, pos.passes, pos.ply)
    assert GAME.legal_moves(back) == GAME.legal_moves(pos)
