"""Go 7x7 (engines/go7/rules.md): one test per rule on hand-checked positions, then OpenSpiel's own ``go``
move for move.

Diagrams list rank 7 first, files a-g left to right: ``x`` Black, ``o`` White, ``.`` empty.
"""

from __future__ import annotations

import importlib
import os
import random

import pytest

from engines.game import MoveError
from engines.go7.board import KOMI, area
from engines.go7.rules import (
    BOWL,
    PASS,
    REPETITION,
    TWO_PASSES,
    Go7,
    Position,
    diagram,
    position_from_diagram,
)
from engines.perft import perft
from engines.physical import Thing
from tests.reference.openspiel_go7 import DEFAULT, UNCAPPED, choose, replay

GAME = Go7()
# OpenSpiel is in the dev extra: CI fails without it rather than skip the agreement.
pyspiel = (
    importlib.import_module("pyspiel") if os.environ.get("CI") == "true" else pytest.importorskip("pyspiel")
)


def legal(pos: Position) -> set[str]:
    return set(GAME.legal_texts(pos))


def after(pos: Position, *texts: str) -> Position:
    return GAME.play_texts(texts, pos)


def stones(pos: Position) -> dict[str, str]:
    return {name: "xo"[s[0].colour or 0] for name, s in GAME.cells(pos).items() if s}


# --- placing and passing ----------------------------------------------------------------------------
def test_the_empty_board_has_every_point_and_the_pass() -> None:
    start = GAME.start()
    assert GAME.to_move(start) == 0
    assert len(legal(start)) == 50 and "pass" in legal(start) and {"a1", "d4", "g7"} <= legal(start)


def test_perft_of_whole_turns_from_the_start() -> None:
    """49 points and the pass; after a stone 48 and the pass, after a pass all 50; two passes end the game."""
    start = GAME.start()
    assert [perft(GAME, start, depth) for depth in (1, 2, 3)] == [50, 2451, 117698]


def test_a_stone_is_placed_and_the_turn_passes() -> None:
    pos = after(GAME.start(), "d4")
    assert stones(pos) == {"d4": "x"} and GAME.to_move(pos) == 1
    assert "d4" not in legal(pos)
    pos = after(pos, "e4")
    assert stones(pos) == {"d4": "x", "e4": "o"}


def test_pass_is_legal_while_stones_could_be_placed() -> None:
    pos = after(GAME.start(), "pass")
    assert GAME.to_move(pos) == 1 and stones(pos) == {} and not GAME.is_over(pos)
    assert GAME.changed_cells(GAME.start(), PASS) == ()


def test_two_passes_in_a_row_end_the_game_one_pass_does_not() -> None:
    pos = after(GAME.start(), "pass", "d4", "pass", "e5")
    assert not GAME.is_over(pos)
    pos = after(pos, "pass", "pass")
    assert pos.over == TWO_PASSES and GAME.legal_moves(pos) == []


# --- captures --------------------------------------------------------------------------------------
# Two White stones c4-d4 whose last liberties are d5 and d3.
TWO_IN_ATARI = """
.......
.......
..x....
.xoox..
..x....
.......
.......
"""


def test_a_group_without_liberties_is_taken_off_whole() -> None:
    pos = after(position_from_diagram(TWO_IN_ATARI), "d5", "pass")
    assert stones(pos)["c4"] == stones(pos)["d4"] == "o"
    taken = after(pos, "d3")
    assert {"c4", "d4"}.isdisjoint(stones(taken)) and stones(taken)["d3"] == "x"
    assert GAME.hands(taken) == {0: {"stone": BOWL - 6}, 1: {"stone": BOWL}}


def test_a_capture_changes_the_point_played_and_every_stone_taken() -> None:
    pos = after(position_from_diagram(TWO_IN_ATARI), "d5", "pass")
    d3, c4, d4 = (GAME.geometry.cell(n) for n in ("d3", "c4", "d4"))
    move = GAME.parse_move(pos, "d3")
    assert GAME.changed_cells(pos, move) == (d3, c4, d4)
    assert GAME.changes(pos, move) == {d3: (Thing("stone", 0),), c4: (), d4: ()}
    assert GAME.changed_cells(pos, GAME.parse_move(pos, "a1")) == (GAME.geometry.cell("a1"),)


# White a2 and b1 in the corner, each with a1 as its last liberty only when Black holds a3, b2 and c1.
CORNER = """
.......
.......
.......
.......
.......
o......
.o.....
"""
CORNER_IN_ATARI = """
.......
.......
.......
.......
x......
ox.....
.ox....
"""


def test_suicide_is_not_legal() -> None:
    pos = position_from_diagram(CORNER)
    assert "a1" not in legal(pos)
    with pytest.raises(MoveError, match="no liberty"):
        GAME.parse_move(pos, "a1")
    assert "a1" in legal(position_from_diagram(CORNER, to_move=1))  # White's own corner


def test_a_stone_without_liberty_is_legal_when_it_takes_a_group() -> None:
    pos = position_from_diagram(CORNER_IN_ATARI)
    taken = after(pos, "a1")
    assert stones(taken) == {"a1": "x", "a3": "x", "b2": "x", "c1": "x"}


def test_a_stone_may_fill_its_groups_liberty_if_another_remains() -> None:
    pos = position_from_diagram(
        """
        .......
        .......
        .......
        .......
        .......
        x......
        .o.....
        """
    )
    assert "a1" in legal(pos)  # joins a2, which keeps a3 and b2
    assert "a1" in legal(position_from_diagram(diagram(pos), to_move=1))  # joins b1, which keeps c1 and b2


# --- ko ------------------------------------------------------------------------------------------------
# The White stone on c3 has its last liberty on d3, whose neighbours are all White stones.
KO = """
.......
.......
.......
..xo...
.xo.o..
..xo...
.......
"""


def test_the_single_stone_just_taken_in_a_ko_cannot_be_retaken_at_once() -> None:
    pos = after(position_from_diagram(KO), "d3")
    assert "c3" not in stones(pos) and pos.ko == GAME.geometry.cell("c3")
    assert "c3" not in legal(pos) and "pass" in legal(pos)
    with pytest.raises(MoveError, match="ko"):
        GAME.parse_move(pos, "c3")
    assert "place a stone on an empty point but c3 (the ko)" in GAME.table.turn_words(GAME, pos)


def test_the_ko_point_is_free_again_after_one_move() -> None:
    pos = after(position_from_diagram(KO), "d3", "a7", "a6")
    assert pos.ko == -1 and "ko" not in GAME.why_illegal(pos, "c3")
    retaken = after(pos, "c3")
    assert "d3" not in stones(retaken) and retaken.ko == GAME.geometry.cell("d3")


def test_a_capture_of_one_stone_outside_an_enemy_eye_makes_no_ko() -> None:
    # Black d3 takes c3 but touches its own stone on d4: no ko point (c3 is suicide for White, not ko).
    pos = after(
        position_from_diagram(
            """
            .......
            .......
            .......
            ..xx...
            .xo.o..
            ..xo...
            .......
            """
        ),
        "d3",
    )
    assert pos.ko == -1 and "ko" not in GAME.why_illegal(pos, "c3")


# --- the end ----------------------------------------------------------------------------------------------
# Two kos, White stones on c3 and e6 that Black takes on d3 and f6. Black takes one, White passes (which
# frees the ko point), Black takes the other, White retakes the first, Black passes, White retakes the
# second: the board after the setup's last move comes back.
DOUBLE_KO_SETUP = [
    "c4", "d4", "b3", "e3", "c2", "d2", "e7", "f7", "d6", "g6", "e5", "f5", "pass", "c3", "pass", "e6",
]  # fmt: skip
DOUBLE_KO_CYCLE = ["d3", "pass", "f6", "c3", "pass", "e6"]


def test_a_stone_that_remakes_an_earlier_board_ends_the_game_in_a_draw() -> None:
    pos = after(GAME.start(), *DOUBLE_KO_SETUP)
    board = diagram(pos)
    pos = after(pos, *DOUBLE_KO_CYCLE[:-1])
    assert not GAME.is_over(pos)
    drawn = after(pos, DOUBLE_KO_CYCLE[-1])
    assert diagram(drawn) == board and drawn.over == REPETITION
    assert GAME.outcome(drawn) is not None and GAME.outcome(drawn).winner is None
    assert GAME.legal_moves(drawn) == []
    assert "repetition" in GAME.table.explain(GAME, drawn).reason


def test_a_pass_never_counts_as_a_repetition() -> None:
    pos = after(GAME.start(), "d4", "pass", "e4", "pass")
    assert not GAME.is_over(pos)


def test_area_counts_stones_and_the_empty_points_only_they_reach() -> None:
    walls = position_from_diagram("\n".join(["...xo.."] * 7))
    assert area(walls.black, walls.white)[:2] == (28, 21)
    over = after(walls, "pass", "pass")
    assert GAME.outcome(over) is not None and GAME.outcome(over).winner == 1  # 28 < 21 + 7.5
    assert GAME.outcome(over).score == (28, 21)
    reason = GAME.table.explain(GAME, over).reason
    assert "Black has 28 points, White 21 + 7.5 komi: White wins by 0.5 points" in reason
    assert GAME.table.explain(GAME, over).cells == frozenset(n for n in GAME.geometry.names if n[0] in "efg")


def test_an_empty_region_touching_both_colours_counts_for_nobody() -> None:
    split = position_from_diagram("\n".join(["..x.o.."] * 7))
    assert area(split.black, split.white)[:2] == (21, 21)
    empty = GAME.start()
    assert GAME.score(empty) == (0, 0)
    over = after(empty, "pass", "pass")
    assert GAME.outcome(over) is not None and GAME.outcome(over).winner == 1  # komi alone


def test_black_wins_with_more_than_komi_ahead() -> None:
    pos = position_from_diagram("\n".join(["....xo."] * 7))
    over = after(pos, "pass", "pass")
    assert GAME.score(over) == (35, 14) and GAME.outcome(over) is not None
    assert GAME.outcome(over).winner == 0 and 35 - 14 - KOMI == 13.5


# --- notation -------------------------------------------------------------------------------------
def test_notation_reads_points_and_pass_case_insensitively() -> None:
    start = GAME.start()
    assert GAME.parse_move(start, " D4 ") == GAME.geometry.cell("d4")
    assert GAME.parse_move(start, "PASS") == PASS
    assert GAME.format_move(start, PASS) == "pass" and GAME.format_move(start, 0) == "a1"


@pytest.mark.parametrize(("text", "message"), [("", "empty"), ("h1", "not a move"), ("d4-d5", "not a move")])
def test_malformed_moves_say_what_is_expected(text: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        GAME.parse_move(GAME.start(), text)


def test_an_occupied_point_and_a_finished_game_are_said() -> None:
    pos = after(GAME.start(), "d4")
    with pytest.raises(MoveError, match="d4 is not empty"):
        GAME.parse_move(pos, "d4")
    with pytest.raises(MoveError, match="game is over"):
        GAME.parse_move(after(pos, "pass", "pass"), "a1")


def test_a_diagram_round_trips_and_bad_ones_are_refused() -> None:
    assert diagram(position_from_diagram(KO)) == KO.strip()
    with pytest.raises(ValueError, match="7 lines"):
        position_from_diagram("...")
    with pytest.raises(ValueError, match="line 1"):
        position_from_diagram("\n".join(["...q..."] + ["......."] * 6))


def test_key_follows_the_boards_seen() -> None:
    """Two move orders reaching one board differ in the boards seen, which decide repetitions."""
    a = after(GAME.start(), "a1", "g7", "b1", "g6")
    b = after(GAME.start(), "b1", "g6", "a1", "g7")
    assert diagram(a) == diagram(b) and GAME.key(a) != GAME.key(b)
    assert GAME.key(a) == GAME.key(after(GAME.start(), "a1", "g7", "b1", "g6"))


# --- OpenSpiel's go, move for move -----------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_random_games_agree_with_openspiel(seed: int) -> None:
    assert replay(pyspiel.load_game("go", UNCAPPED), seed).difference is None


@pytest.mark.parametrize("seed", range(2))
def test_prolonged_random_games_agree_with_openspiel(seed: int) -> None:
    """Passing rarely: long games through many kos, ended by a repeated board (OpenSpiel's draw)."""
    found = replay(pyspiel.load_game("go", UNCAPPED), 1000 + seed, prolong=True)
    assert found.difference is None and found.plies > 200


def test_openspiels_default_game_agrees_up_to_its_cap() -> None:
    reference = pyspiel.load_game("go", DEFAULT)
    assert reference.max_game_length() == 98
    found = [replay(reference, seed, prolong=True, max_plies=97) for seed in range(4)]
    assert [f.difference for f in found] == [None] * 4
    assert max(f.plies for f in found) == 97


def test_openspiels_cap_ends_its_game_where_go7_plays_on() -> None:
    """The one difference (rules.md section 6): OpenSpiel's default game is over after 98 moves."""
    state = pyspiel.load_game("go", DEFAULT).new_initial_state()
    pos, rng = GAME.start(), random.Random(5)
    while len(state.history()) < 98:
        move = choose(GAME.legal_moves(pos), rng, prolong=True)
        state.apply_action(move)
        pos = GAME.play(pos, move)
    assert state.is_terminal() and not GAME.is_over(pos)


def test_the_double_ko_draw_agrees_with_openspiel() -> None:
    state = pyspiel.load_game("go", UNCAPPED).new_initial_state()
    pos = GAME.start()
    for text in DOUBLE_KO_SETUP + DOUBLE_KO_CYCLE:
        move = GAME.parse_move(pos, text)
        assert sorted(state.legal_actions()) == GAME.legal_moves(pos)
        state.apply_action(move)
        pos = GAME.play(pos, move)
    assert state.is_terminal() and state.returns() == [0.0, 0.0] and GAME.is_over(pos)


def test_the_comparison_finds_a_difference() -> None:
    """A reference that plays other rules (no ko on 9x9 boards is not at hand: a 5x5 board) differs."""
    found = replay(pyspiel.load_game("go", {"board_size": 5}), 0)
    assert found.difference is not None and "legal moves differ" in found.difference
