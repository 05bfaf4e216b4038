"""Flip Four (RULES.md section 4): one test per rule, each on a hand-checked position.

Diagrams list rank 5 first, each rank's points left to right (as ``render`` draws them):

      a5 b5 c5            Directions from c3: c4 and b4 above it, b3 and d3 beside it,
     a4 b4 c4 d4          c2 and d2 below it.  Lines of 4 or more: ranks 2, 3, 4; files
    a3 b3 c3 d3 e3        b, c, d; diagonals a4-b3-c2-d1, a5-b4-c3-d2-e1, b5-c4-d3-e2.
     b2 c2 d2 e2          The lines of 5: rank 3, file c and a5-e1.
      c1 d1 e1

``R`` shows red (player 0's colour), ``Y`` yellow (player 1's), ``.`` is empty.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.flipfour.board import (
    GEOMETRY,
    MOVE_FLAG,
    NAMES,
    NO_RUN,
    ONE_FOUR,
    OVERLINE,
    judge_colour,
    movement,
    parse_diagram,
)
from engines.flipfour.rules import FlipFour, Position
from engines.game import MoveError, Outcome
from engines.physical import Thing
from tests.budget import examples

GAME = FlipFour()


def legal(pos: Position) -> set[str]:
    return set(GAME.legal_texts(pos))


def after(pos: Position, *texts: str) -> Position:
    return GAME.play_texts(texts, pos)


def bits(*names: str) -> int:
    return sum(1 << GEOMETRY.cell(name) for name in names)


def shown(pos: Position) -> dict[str, str]:
    """The colour each occupied point shows, as 'R' or 'Y'."""
    return {name: "RY"[things[0].colour or 0] for name, things in GAME.cells(pos).items() if things}


# --- the board and placing ------------------------------------------------------------------
def test_board_has_the_nineteen_points_of_rules_md() -> None:
    # RULES.md: a3-a5, b2-b5, c1-c5, d1-d4, e1-e3.
    expected = [
        f"{file}{rank}"
        for file, low, high in ("a35", "b25", "c15", "d14", "e13")
        for rank in range(int(low), int(high) + 1)
    ]
    assert sorted(GEOMETRY.names) == expected
    start = GAME.start()
    assert GAME.hands(start) == {0: {"piece": 8}, 1: {"piece": 8}}
    assert all(things == () for things in GAME.cells(start).values())
    assert GAME.to_move(start) == 0 and GAME.outcome(start) is None and GAME.score(start) is None


def test_first_turn_of_the_game_places_exactly_one_piece() -> None:
    assert legal(GAME.start()) == set(NAMES)
    with pytest.raises(MoveError, match="first turn of the game places exactly one piece"):
        GAME.parse_move(GAME.start(), "b2,d4")


def test_later_turns_place_one_or_two_pieces_on_empty_points() -> None:
    # After c3, yellow has 18 empty points: 18 single placements + 18*17/2 = 153 pairs, and no piece to move.
    pos = after(GAME.start(), "c3")
    moves = legal(pos)
    assert len(moves) == 18 + 153 and "b2,d4" in moves and "c3" not in moves and "c3,d4" not in moves
    pos = after(pos, "d4,b2")
    assert GAME.hands(pos) == {0: {"piece": 7}, 1: {"piece": 6}}
    assert shown(pos) == {"c3": "R", "b2": "Y", "d4": "Y"}
    # Red's second turn may place two: 16 + 120; c3 has no neighbour occupied (b2 and d4 are not next to it).
    assert len(legal(pos)) == 16 + 120


def test_one_piece_in_hand_places_one_and_none_in_hand_places_none() -> None:
    # Red has 1 in hand; the 11 empty points are a4 b4 c4 d4, b3 c3 d3 e3, c2 d2, d1.  No line holds
    # more than three red pieces (rank 5 and a3-b2-c1 are whole lines of three).
    pos = GAME.from_diagram(
        """
          R R R
         . . . .
        R . . . .
         R . . R
          R . R
        """,
        to_move=0,
        hands=(1, 7),
    )
    placements = {m for m in legal(pos) if "-" not in m}
    assert placements == {"a4", "b4", "c4", "d4", "b3", "c3", "d3", "e3", "c2", "d2", "d1"}
    with pytest.raises(MoveError, match="only one piece left in hand"):
        GAME.parse_move(pos, "a4,b4")
    # With none in hand only jumps are left: red's a5 over a4 to a3 (see CYCLE_START below).
    assert legal(GAME.from_diagram(CYCLE_START, to_move=0, hands=(0, 8))) == {"a5-a3"}


# --- moving ---------------------------------------------------------------------------------
def test_a_move_jumps_the_whole_run_and_flips_every_jumped_piece() -> None:
    # File c: c1 R, c2 Y, c3 R, c4 Y, c5 empty.  c1 jumps c2 c3 c4 and lands on c5 (not on c3: it is
    # occupied); c3 jumps c4 to c5; c3 downwards meets c2 c1 and the edge.  c1's other neighbours (b2,
    # d1) and c3's (b3, b4, d2, d3) are empty, so these are red's only moves.
    pos = GAME.from_diagram(
        """
          . . .
         . . Y .
        . . R . .
         . Y . .
          R . .
        """,
        to_move=0,
        hands=(6, 6),
    )
    assert {m for m in legal(pos) if "-" in m} == {"c1-c5", "c3-c5"}
    moved = after(pos, "c1-c5")
    assert shown(moved) == {"c2": "R", "c3": "Y", "c4": "R", "c5": "R"}
    assert GAME.hands(moved) == GAME.hands(pos) and GAME.to_move(moved) == 1


def test_only_pieces_showing_your_colour_move_and_only_over_a_piece() -> None:
    # Red's c3 has one occupied neighbour, c2, with c1 empty beyond it: c3-c1 is red's only jump.
    # Yellow's c2 could jump c3 to c4, but it is red's turn.
    pos = GAME.from_diagram(
        """
          . . .
         . . . .
        . . R . .
         . Y . .
          . . .
        """,
        to_move=0,
        hands=(7, 7),
    )
    movements = {m for m in legal(pos) if "-" in m}
    assert movements == {"c3-c1"}
    with pytest.raises(MoveError, match="shows player 1's colour"):
        GAME.parse_move(pos, "c2-c4")
    with pytest.raises(MoveError, match="must jump a piece"):
        GAME.parse_move(pos, "c3-c5")
    with pytest.raises(MoveError, match="no piece on a3"):
        GAME.parse_move(pos, "a3-a5")
    with pytest.raises(MoveError, match="e2 is not on a line through c3"):
        GAME.parse_move(pos, "c3-e2")


def test_a_move_whose_run_reaches_the_edge_does_not_exist() -> None:
    # Red c3 towards c4: c4 and c5 are occupied and c5 is at the edge.  Red a4 towards a5: a5 is at the
    # edge.  Their other neighbours (b3 b4 c2 d2 d3; a3 b3 b4) are empty, so red has no move at all,
    # while yellow's c4 can jump c3 down to c2.
    pos = GAME.from_diagram(
        """
          Y . Y
         R . Y .
        . . R . .
         . . . .
          . . .
        """,
        to_move=0,
        hands=(6, 5),
    )
    assert not any("-" in m for m in legal(pos))
    with pytest.raises(MoveError, match="reaches the edge"):
        GAME.parse_move(pos, "c3-c5")
    with pytest.raises(MoveError, match="reaches the edge"):
        GAME.parse_move(pos, "a4-a5")
    yellow = GAME.from_diagram(GAME.render(pos), to_move=1, hands=(6, 5))
    assert "c4-c2" in legal(yellow)


def test_the_jump_lands_on_the_first_empty_point() -> None:
    # c1 R jumps c2 (Y) and lands on c3, the first empty point; it cannot go on over c4 to c5.
    pos = GAME.from_diagram(
        """
          . . .
         . . Y .
        . . . . .
         . Y . .
          R . .
        """,
        to_move=0,
        hands=(7, 6),
    )
    assert "c1-c3" in legal(pos)
    with pytest.raises(MoveError, match="lands on c3"):
        GAME.parse_move(pos, "c1-c5")


# --- the line judgement -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("points", "status"),
    [
        (("a3", "b3", "c3", "d3"), ONE_FOUR),  # 4 of the 5 on rank 3, e3 not red
        (("b3", "c3", "d3", "e3"), ONE_FOUR),
        (("a3", "b3", "c3", "d3", "e3"), OVERLINE),  # 5 is not 4: it is an over-line
        (("a4", "b4", "c4", "d4"), ONE_FOUR),  # a whole line of 4
        (("a3", "b3", "d3", "e3"), NO_RUN),  # broken
        (("a4", "b4", "c4", "d4", "d1", "d2", "d3"), OVERLINE),  # rank 4 and file d cross at d4: two runs
        (("a4", "b4", "c4", "d4", "c1", "d1", "e1"), ONE_FOUR),  # a run of 3 does not count
        (("a5", "b5", "c5"), NO_RUN),
    ],
)
def test_runs_are_maximal_and_crossing_runs_count_separately(points: tuple[str, ...], status: int) -> None:
    assert judge_colour(bits(*points)) == status


def test_a_run_of_four_you_make_wins_only_if_it_lasts_until_your_turn() -> None:
    # Red places d4: rank 4 a4-d4 is red, a whole line of 4.  Yellow to move: not over yet.
    pos = GAME.from_diagram(
        """
          . . Y
         R R R .
        . . . . .
         . . . .
          . . .
        """,
        to_move=0,
        hands=(5, 7),
    )
    made = after(pos, "d4")
    assert GAME.outcome(made) is None and legal(made)
    # Yellow places e1: the four stands at red's turn, so red wins.
    assert GAME.outcome(after(made, "e1")) == Outcome(0)
    assert GAME.legal_moves(after(made, "e1")) == []
    # Yellow's c5 jumps c4 and lands on c3, turning c4 yellow: the four is broken, play goes on.
    broken = after(made, "c5-c3")
    assert GAME.outcome(broken) is None
    assert shown(broken) == {"a4": "R", "b4": "R", "c4": "Y", "d4": "R", "c3": "Y"}


def test_an_opponents_flip_that_hands_you_a_four_wins_at_the_start_of_your_turn() -> None:
    # Yellow's c5 jumps c4 to c3; c4 turns red and rank 4 (a whole line of 4) is red.
    pos = GAME.from_diagram(
        """
          . . Y
         R R Y R
        . . . . .
         . . . .
          . . .
        """,
        to_move=1,
        hands=(5, 6),
    )
    assert GAME.outcome(pos) is None
    flipped = after(pos, "c5-c3")
    assert shown(flipped)["c4"] == "R"
    assert GAME.outcome(flipped) == Outcome(0)
    assert GAME.legal_moves(flipped) == []


def test_a_four_of_each_colour_wins_for_the_player_to_move() -> None:
    # Red c1 jumps c2 (R) and c3 (Y) and lands on c4: c2 turns yellow and c3 red.
    # Red then shows a3 b3 c3 d3 (rank 3, e3 yellow) = one four; yellow shows b2 c2 d2 e2 = one four.
    # Neither colour over-lines, so yellow, to move, wins with its four although red made both.
    pos = GAME.from_diagram(
        """
          . . .
         . . . .
        R R Y R Y
         Y R Y Y
          R . .
        """,
        to_move=0,
        hands=(2, 4),
    )
    assert GAME.outcome(pos) is None
    both = after(pos, "c1-c4")
    assert shown(both) == {
        "a3": "R", "b3": "R", "c3": "R", "d3": "R", "e3": "Y",
        "b2": "Y", "c2": "Y", "d2": "Y", "e2": "Y", "c4": "R",
    }  # fmt: skip
    assert GAME.outcome(both) == Outcome(1)


def test_a_flip_that_gives_the_opponent_a_five_makes_the_opponent_lose() -> None:
    # Red's c4 jumps c3 to c2; c3 turns yellow and rank 3 is five yellow: yellow over-lines, red wins.
    pos = GAME.from_diagram(
        """
          . . .
         . . R .
        Y Y R Y Y
         . . . .
          . . .
        """,
        to_move=0,
        hands=(6, 4),
    )
    assert GAME.outcome(after(pos, "c4-c2")) == Outcome(0)


def test_making_your_own_five_or_two_fours_loses() -> None:
    five = GAME.from_diagram(
        """
          . . .
         . . . .
        R R . R R
         . . . .
          . . .
        """,
        to_move=0,
        hands=(4, 8),
    )
    assert GAME.outcome(after(five, "c3")) == Outcome(1)
    # Placing d4 completes rank 4 (a4-d4) and file d (d1-d4): two fours crossing at d4.
    two_fours = GAME.from_diagram(
        """
          . . .
         R R R .
        . . . R .
         . . R .
          . R .
        """,
        to_move=0,
        hands=(2, 8),
    )
    assert GAME.outcome(after(two_fours, "d4")) == Outcome(1)
    assert GAME.outcome(after(two_fours, "d4,e1")) == Outcome(1)
    # b2 and e1 complete no line (b2 c2 d2 e2 lacks c2; a5-e1 lacks a5 and c3): play goes on.
    assert GAME.outcome(after(two_fours, "b2,e1")) is None


def test_a_move_that_over_lines_both_colours_loses_for_the_mover() -> None:
    # Red a3 jumps b3 (R) c3 (Y) d3 (R) and lands on e3: c3 turns red, completing file c (c1-c5, five red);
    # b3 and d3 turn yellow, completing files b (b2-b5) and d (d1-d4): two yellow fours.  Both colours
    # over-line; the mover's over-line comes first, so red loses.
    pos = GAME.from_diagram(
        """
          . Y R
         . Y R Y
        R R Y R .
         Y R Y .
          R Y .
        """,
        to_move=0,
        hands=(1, 1),
    )
    assert GAME.outcome(pos) is None
    moved = after(pos, "a3-e3")
    assert judge_colour(moved.red) == OVERLINE and judge_colour(moved.yellow) == OVERLINE
    assert GAME.outcome(moved) == Outcome(1)
    assert GAME.legal_moves(moved) == []


def test_the_player_to_move_wins_with_a_four_even_without_a_legal_move() -> None:
    # Red shows file d (d1-d4), a whole line of 4, that yellow's last turn left standing.  Red has nothing
    # in hand, and every red run reaches the edge (c and e are empty), but the four is judged first.
    pos = GAME.from_diagram(
        """
          Y . .
         Y . . R
        Y . . R .
         Y . R .
          . R .
        """,
        to_move=0,
        hands=(0, 8),
    )
    assert GAME.outcome(pos) == Outcome(0) and GAME.legal_moves(pos) == []


def test_a_player_with_no_legal_move_loses() -> None:
    # Red has nothing in hand and shows only a3, whose neighbours b3, a4 and b2 are empty.
    pos = GAME.from_diagram(
        """
          Y . Y
         . . . Y
        R . . . Y
         . . . .
          Y Y Y
        """,
        to_move=0,
        hands=(0, 8),
    )
    assert GAME.legal_moves(pos) == []
    assert GAME.outcome(pos) == Outcome(1)
    with pytest.raises(MoveError, match="game is over"):
        GAME.parse_move(pos, "a3-a5")


# --- repetition -------------------------------------------------------------------------------
# Red has nothing in hand.  Red's a5 jumps a4 to a3 and back; yellow's e1 jumps e2 to e3 and back.  Each
# jump flips the jumped piece, so four plies restore the position.  This is B of the cycle
# B -(e1-e3)-> C -(a5-a3)-> D -(e3-e1)-> A -(a3-a5)-> B.  In A red shows only a3 (a4 and the e-file
# pieces are yellow), whose only occupied neighbour is a4: a3-a5 is red's one move.  No colour ever has
# more than three in a row (the yellow c2 c3 c4 d3 group has no fourth point beside it).
CYCLE_START = """
      R . .
     R . Y .
    . . Y Y .
     . Y . Y
      . . Y
"""
CYCLE = ("e1-e3", "a5-a3", "e3-e1", "a3-a5")


def test_a_repetition_that_removes_the_last_legal_move_loses() -> None:
    b1 = GAME.from_diagram(CYCLE_START, to_move=1, hands=(0, 8))
    a1 = after(b1, *CYCLE[:3])
    assert legal(a1) == {"a3-a5"}
    b2 = after(a1, "a3-a5")
    assert GAME.position_key(b2) == GAME.position_key(b1) and GAME.appearances(b2) == 2
    a2 = after(b2, *CYCLE[:3])
    # a3-a5 would make B appear a third time (the diagram's start counts as its first appearance).
    assert GAME.legal_moves(a2) == []
    assert GAME.outcome(a2) == Outcome(1)
    with pytest.raises(MoveError, match="game is over"):
        GAME.parse_move(a2, "a3-a5")


def test_a_move_repeating_a_position_a_third_time_is_left_out_but_others_stay() -> None:
    # CYCLE_START one move earlier (A, red to move): after A B C D A B C D, yellow's e3-e1 would bring A
    # a third time, since the diagram's start is A's first appearance.  Yellow keeps its placements.
    a1 = GAME.from_diagram(
        """
          . . .
         Y . Y .
        R . Y Y .
         . Y . Y
          . . Y
        """,
        to_move=0,
        hands=(0, 8),
    )
    cycle = ("a3-a5", *CYCLE[:3])
    d1 = after(a1, *cycle[:3])
    assert "e3-e1" in legal(d1)
    d2 = after(d1, "e3-e1", *cycle[:3])
    assert GAME.appearances(d2) == 2
    moves = legal(d2)
    assert "e3-e1" not in moves and "b3" in moves and "b3,b4" in moves
    with pytest.raises(MoveError, match="appear for the third time"):
        GAME.parse_move(d2, "e3-e1")


def test_a_placement_clears_the_history() -> None:
    b1 = GAME.from_diagram(CYCLE_START, to_move=1, hands=(0, 8))
    b2 = after(b1, *CYCLE)
    placed = after(b2, "b3")
    assert GAME.appearances(placed) == 1 and placed.history == (GAME.position_key(placed),)
    assert GAME.key(placed) == GAME.position_key(placed)


def test_key_follows_the_history_but_position_key_does_not() -> None:
    b1 = GAME.from_diagram(CYCLE_START, to_move=1, hands=(0, 8))
    b2 = after(b1, *CYCLE)
    assert GAME.position_key(b1) == GAME.position_key(b2)
    assert GAME.key(b1) != GAME.key(b2)
    # Transposed placements reach the same position with the same key.
    one = after(GAME.start(), "c3", "b2", "a3", "d4")
    other = after(GAME.start(), "a3", "d4", "c3", "b2")
    assert one == other and GAME.key(one) == GAME.key(other)


# --- notation ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "canonical"),
    [("c3", "c3"), ("d4,b2", "b2,d4"), (" C1 , B2 ", "b2,c1"), ("c3-c5", "c3-c5"), ("E3 - a3", "e3-a3")],
)
def test_move_texts_are_normalised(text: str, canonical: str) -> None:
    assert GAME.normalise_move_text(text) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move text"),
        ("pass", "no passing"),
        ("f3", "no point 'f3'"),
        ("a1", "no point 'a1'"),
        ("c3,c3", "c3 is named twice"),
        ("a3,b3,c3", "at most two"),
        ("c3-c5-d4", "two points"),
        ("c3-", "a point is missing"),
        ("c3,d4-e3", "either places pieces or moves one"),
        ("c3-c3", "another point"),
    ],
)
def test_malformed_moves_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        GAME.normalise_move_text(text)


def test_illegal_placements_say_why() -> None:
    pos = after(GAME.start(), "c3")
    with pytest.raises(MoveError, match="c3 is not empty"):
        GAME.parse_move(pos, "b2,c3")
    no_hand = GAME.from_diagram(CYCLE_START, to_move=0, hands=(0, 8))
    with pytest.raises(MoveError, match="no pieces left in hand"):
        GAME.parse_move(no_hand, "b3")


def test_format_sorts_placed_points_as_strings() -> None:
    # c1 is point 0 and b2 point 3, but "b2" < "c1".
    pos = after(GAME.start(), "c3")
    assert GAME.format_move(pos, bits("c1", "b2")) == "b2,c1"
    assert GAME.parse_move(pos, "c1,b2") == bits("b2", "c1")


# --- diagrams, cells, hands -------------------------------------------------------------------
def test_render_and_diagram_round_trip() -> None:
    pos = after(GAME.start(), "c3", "b2,d4", "e1,a5")
    again = GAME.from_diagram(GAME.render(pos), to_move=1, hands=(5, 6))
    assert (again.red, again.yellow) == (pos.red, pos.yellow)
    assert GAME.cells(pos)["a5"] == (Thing("piece", 0),) and GAME.cells(pos)["b2"] == (Thing("piece", 1),)
    assert GAME.cells(pos)["c1"] == ()


@pytest.mark.parametrize(
    ("diagram", "message"),
    [
        (". . .\n. . . .\n. . . . .\n. . . .", "5 lines"),
        (". . .\n. . . .\n. . X . .\n. . . .\n. . .", "'X' on c3"),
        (". . .\n. . .\n. . . . .\n. . . .\n. . .", "line 2 \\(rank 4\\): expected 4 points"),
        ("5 . . .\n3 . . . .\n. . . . .\n. . . .\n. . .", "expected rank 4"),
    ],
)
def test_bad_diagrams_say_what_is_wrong(diagram: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_diagram(diagram)


def test_diagram_hands_must_account_for_all_sixteen_pieces() -> None:
    with pytest.raises(ValueError, match="make 15, not 16"):
        GAME.from_diagram(CYCLE_START, to_move=0, hands=(0, 7))
    with pytest.raises(ValueError, match="two counts from 0 to 8"):
        GAME.from_diagram(CYCLE_START, to_move=0, hands=(9, -1))


# --- invariants on random games ---------------------------------------------------------------
def naive_status(points: set[int]) -> int:
    """The line judgement by scanning every line for maximal runs (independent of the bit patterns)."""
    fours = 0
    for line in GEOMETRY.lines(min_length=2):
        run = 0
        for point in (*line, -1):
            if point in points:
                run += 1
                continue
            if run >= 5:
                return OVERLINE
            fours += run == 4
            run = 0
    return OVERLINE if fours >= 2 else fours


def naive_after(pos: Position, text: str) -> dict[str, str]:
    """The colours shown after a move, by walking the board step by step."""
    board = shown(pos)
    colour = "RY"[pos.to_move]
    if "-" not in text:
        return board | dict.fromkeys(text.split(","), colour)
    start, end = text.split("-")
    here = GEOMETRY.cell(start)
    for direction in range(6):
        ray = [NAMES[p] for p in GEOMETRY.ray(here, direction)]
        if end in ray:
            for jumped in ray[: ray.index(end)]:
                board[jumped] = "Y" if board[jumped] == "R" else "R"
    del board[start]
    board[end] = colour
    return board


def naive_moves(pos: Position) -> set[str]:
    """Every jump, found by walking rays (repetition not applied)."""
    board = shown(pos)
    out = set()
    for name, colour in board.items():
        if colour != "RY"[pos.to_move]:
            continue
        for direction in range(6):
            ray = [NAMES[p] for p in GEOMETRY.ray(GEOMETRY.cell(name), direction)]
            empties = [i for i, p in enumerate(ray) if p not in board]
            if empties and empties[0] > 0:
                out.add(f"{name}-{ray[empties[0]]}")
    return out


def random_game(seed: int, max_plies: int) -> tuple[list[Position], list[int]]:
    """A random game that prefers jumps, so that long movement phases and repetitions occur."""
    rng = random.Random(seed)
    positions, moves = [GAME.start()], []
    while len(moves) < max_plies and (legal_now := GAME.legal_moves(positions[-1])):
        jumps = [m for m in legal_now if m >= MOVE_FLAG]
        move = rng.choice(jumps if jumps and rng.random() < 0.9 else legal_now)
        moves.append(move)
        positions.append(GAME.play(positions[-1], move))
    return positions, moves


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 100_000))
def test_random_playouts_keep_the_invariants(seed: int) -> None:
    positions, moves = random_game(seed, 150)
    seen: Counter[int] = Counter()
    for pos in positions:
        seen[GAME.position_key(pos)] += 1
        assert seen[GAME.position_key(pos)] == GAME.appearances(pos) <= 2
        legal_now = GAME.legal_moves(pos)
        assert (GAME.outcome(pos) is None) == bool(legal_now)
        board = shown(pos)
        reds = {GEOMETRY.cell(n) for n, c in board.items() if c == "R"}
        yellows = {GEOMETRY.cell(n) for n, c in board.items() if c == "Y"}
        assert judge_colour(pos.red) == naive_status(reds) and judge_colour(pos.yellow) == naive_status(
            yellows
        )
        hands = GAME.hands(pos)
        assert len(board) + hands[0]["piece"] + hands[1]["piece"] == 16
        if pos.winner is None:
            # Every jump found by walking the board is legal unless it repeats a position a third time.
            jumps = {GAME.format_move(pos, m) for m in legal_now if m >= MOVE_FLAG}
            assert jumps <= naive_moves(pos)
            for missing in naive_moves(pos) - jumps:
                start, end = (GEOMETRY.cell(name) for name in missing.split("-"))
                assert GAME.appearances(GAME.play(pos, movement(start, end))) == 3
            hand = hands[pos.to_move]["piece"]
            assert any(m < MOVE_FLAG for m in legal_now) == (hand > 0)
    for pos, move in zip(positions, moves, strict=False):
        text = GAME.format_move(pos, move)
        assert GAME.normalise_move_text(text) == text and GAME.parse_move(pos, text) == move
        assert shown(GAME.play(pos, move)) == naive_after(pos, text)
    texts = [GAME.format_move(p, m) for p, m in zip(positions, moves, strict=False)]
    replayed = GAME.play_texts(texts)
    assert replayed == positions[-1] and GAME.key(replayed) == GAME.key(positions[-1])
