"""Go 7x7's knowledge for the search, on hand-checked positions: area, atari, eyes, and the search that uses
them taking a group, saving one, and passing only when two passes would win.

Diagrams list rank 7 first: ``x`` Black, ``o`` White, ``.`` empty.
"""

from __future__ import annotations

import random

from engines.ai import think
from engines.go7.board import FULL
from engines.go7.policy import Go7Policy, estimate, in_atari, is_own_eye
from engines.go7.rules import PASS, Go7, position_from_diagram

GAME = Go7()
POLICY = Go7Policy(GAME)


def test_the_estimate_gives_each_empty_point_to_the_colour_that_weighs_more_there() -> None:
    pos = position_from_diagram("\n".join(["x.....o"] * 7))
    # Files b and c are nearer Black's a-file, e and f nearer White's g-file; d weighs nothing either way.
    assert estimate(pos.black, pos.white) == (21, 21)
    lone = position_from_diagram("\n".join(["......."] * 3 + ["...x..."] + ["......."] * 3))
    assert estimate(lone.black, lone.white) == (1 + 4 + 8, 0)  # d4 and the points one and two steps away


def test_an_invader_outweighed_by_the_opponent_counts_for_the_opponent() -> None:
    walls = position_from_diagram("\n".join(["..x.o.."] * 7))
    invaded = position_from_diagram("\n".join(["..x.o.."] * 3 + ["..x.ox."] + ["..x.o.."] * 3))
    assert estimate(walls.black, walls.white) == (21, 21)
    # The Black stone on f4 against White's wall, nothing of its own near: dead, White's area as it was.
    assert estimate(invaded.black, invaded.white) == (21, 21)


def test_the_biggest_group_in_atari_is_found() -> None:
    pos = position_from_diagram(
        """
        .......
        .......
        ..x....
        .xoox..
        ..xx...
        .......
        o......
        """
    )
    empty = FULL & ~(pos.black | pos.white)
    assert in_atari(pos.white, empty) == (2, 1 << GAME.geometry.cell("d5"))  # c4-d4; a1 has two liberties
    assert in_atari(pos.black, empty) == (0, 0)


def test_an_eye_is_a_point_surrounded_by_its_colour_with_enough_diagonals() -> None:
    pos = position_from_diagram(
        """
        .......
        .......
        .......
        ..x....
        .x.x...
        ..x....
        .x.....
        """
    )
    c3 = GAME.geometry.cell("c3")
    assert is_own_eye(pos.black, pos.white, c3)  # one diagonal empty: still an eye
    assert not is_own_eye(pos.white, pos.black, c3)
    a1 = GAME.geometry.cell("a1")
    corner = position_from_diagram("\n".join(["......."] * 5 + ["xo....."] + [".x....."]))
    assert not is_own_eye(corner.black, corner.white, a1)  # the corner's one diagonal is White's


def test_evaluation_is_bounded_and_favours_the_side_ahead() -> None:
    ahead = position_from_diagram("\n".join(["...xo.."] * 7))  # Black 28, White 21 + 7.5: White ahead
    assert POLICY.evaluate(ahead) < 0 < POLICY.evaluate(ahead._replace(to_move=1))
    rng = random.Random(1)
    pos = GAME.start()
    while not GAME.is_over(pos):
        assert -1 < POLICY.evaluate(pos) < 1
        pos = GAME.play(pos, rng.choice(GAME.legal_moves(pos)))


def test_playouts_never_fill_their_own_eye_and_pass_last() -> None:
    pos = position_from_diagram("\n".join(["......."] * 5 + ["xx....."] + [".x....."]))
    rng = random.Random(0)
    a1 = GAME.geometry.cell("a1")
    for _ in range(200):
        assert POLICY.playout_move(pos, GAME.legal_moves(pos), rng) != a1
    two_eyes = position_from_diagram("\n".join(["xxxxxx."] + ["xxxxxxx"] * 5 + [".xxxxxx"]))
    assert GAME.legal_moves(two_eyes) == [a1, GAME.geometry.cell("g7"), PASS]
    assert POLICY.playout_move(two_eyes, GAME.legal_moves(two_eyes), rng) == PASS


# White's five stones c4-d4-c5-d5-e5 have one liberty left, d3; on d3 they would have two more.
FIVE_IN_ATARI = """
.......
..xxx..
.xooox.
.xoox..
..x....
.......
.......
"""


def test_the_search_takes_a_group_in_atari_and_saves_its_own() -> None:
    pos = position_from_diagram(FIVE_IN_ATARI)
    d3 = GAME.geometry.cell("d3")
    for algorithm in ("mcts", "alphabeta"):
        assert think(GAME, pos, nodes=600, seed=1, algorithm=algorithm).best == d3  # takes five stones
        assert think(GAME, pos._replace(to_move=1), nodes=600, seed=1, algorithm=algorithm).best == d3


def test_captures_and_escapes_are_ordered_first_self_atari_last() -> None:
    pos = position_from_diagram(FIVE_IN_ATARI)
    order = [GAME.format_move(pos, m) for m in POLICY.order(pos, GAME.legal_moves(pos))]
    assert order[0] == "d3"
    white = pos._replace(to_move=1)
    order = [GAME.format_move(white, m) for m in POLICY.order(white, GAME.legal_moves(white))]
    assert order[0] == "d3"  # the escape
    # Black a2, between White's a3 and b2, would have one liberty and take nothing: last, with the pass.
    corner = position_from_diagram("\n".join(["......."] * 4 + ["o......"] + [".o....."] + ["......."]))
    order = [GAME.format_move(corner, m) for m in POLICY.order(corner, GAME.legal_moves(corner))]
    assert set(order[-2:]) == {"a2", "pass"}


def test_after_a_pass_the_search_passes_to_win_and_plays_on_when_a_pass_would_lose() -> None:
    # White passed; Black's area (files a-e, 35) beats White's 14 + 7.5: Black's pass wins the game.
    winning = GAME.play(position_from_diagram("\n".join(["....xo."] * 7))._replace(to_move=1), PASS)
    assert think(GAME, winning, nodes=500, seed=1).best == PASS
    # Black passed with 28 against White's 21 + 7.5: White's pass wins by half a point.
    white_wins = GAME.play(position_from_diagram("\n".join(["...xo.."] * 7)), PASS)
    assert think(GAME, white_wins, nodes=500, seed=1).best == PASS
    # Had White passed, Black passing would lose by half a point: Black plays on.
    losing = GAME.play(position_from_diagram("\n".join(["...xo.."] * 7))._replace(to_move=1), PASS)
    assert think(GAME, losing, nodes=500, seed=1).best != PASS
