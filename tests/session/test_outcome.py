"""Why a game ended and which cells decided it, checked on hand-made final positions (RULES.md "Result")."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.desdemona.rules import Position as DesdemonaPosition

FLIPFOUR = registry.make("flipfour")
SPACETILES = registry.make("spacetiles")
DESDEMONA = registry.make("desdemona")
KINGOFRINGS = registry.make("kingofrings")


def test_a_game_that_goes_on_has_no_reason() -> None:
    with pytest.raises(ValueError, match="not over"):
        FLIPFOUR.table.explain(FLIPFOUR, FLIPFOUR.start())


# --- Flip Four -------------------------------------------------------------------------------------


def test_flipfour_a_line_of_exactly_four_wins_at_the_start_of_the_turn() -> None:
    # Yellow just moved; Red shows a3 b3 c3 d3 (e3 empty): Red wins whoever made the line.
    pos = FLIPFOUR.from_diagram(
        """
          . . .
         . . . .
        R R R R .
         . Y Y .
          . . .
        """,
        to_move=0,
        hands=(4, 6),
    )
    reason, cells = FLIPFOUR.table.explain(FLIPFOUR, pos)
    assert FLIPFOUR.outcome(pos).winner == 0
    assert (
        reason == "Red shows a line of exactly 4 at the start of Red's turn, and wins."
    )  # a player, not 'its'

    assert cells == {"a3", "b3", "c3", "d3"}


def test_flipfour_the_movers_own_line_of_five_loses() -> None:
    # Red just moved (Yellow to move) and shows all of rank 3: an over-line on its own turn.
    pos = FLIPFOUR.from_diagram(
        """
          . . .
         Y . . .
        R R R R R
         . . . Y
          . . .
        """,
        to_move=1,
        hands=(3, 6),
    )
    reason, cells = FLIPFOUR.table.explain(FLIPFOUR, pos)
    assert FLIPFOUR.outcome(pos).winner == 1
    assert reason == "Red shows a line of 5 (an over-line) after Red's own turn, and loses."
    assert cells == {"a3", "b3", "c3", "d3", "e3"}


def test_flipfour_two_lines_of_four_of_the_opponent_lose_for_it() -> None:
    # Red just moved; Yellow shows a4 b4 c4 d4 and a3 b3 c3 d3: two separate runs of exactly 4.
    pos = FLIPFOUR.from_diagram(
        """
          R . .
         Y Y Y Y
        Y Y Y Y .
         . . . R
          . . .
        """,
        to_move=1,
        hands=(6, 0),
    )
    reason, cells = FLIPFOUR.table.explain(FLIPFOUR, pos)
    assert FLIPFOUR.outcome(pos).winner == 0
    assert reason == "Yellow shows 2 lines of 4 (an over-line) after Red's turn, and loses."
    assert cells == {"a4", "b4", "c4", "d4", "a3", "b3", "c3", "d3"}


def test_flipfour_no_legal_move_loses_and_marks_the_stuck_pieces() -> None:
    # The engine test's position: Red has nothing in hand and its only piece, a3, has no neighbour.
    pos = FLIPFOUR.from_diagram(
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
    reason, cells = FLIPFOUR.table.explain(FLIPFOUR, pos)
    assert FLIPFOUR.outcome(pos).winner == 1
    assert reason == "Red has no legal move, and loses."
    assert cells == {"a3"}


# --- Space Tiles -----------------------------------------------------------------------------------


def test_spacetiles_four_of_your_own_in_a_row_wins() -> None:
    pos = SPACETILES.from_diagram(
        """
        5 . . . . . . . . .
        4  . . . _ _ _ . . .
        3   . . R R R R . . .
        2    . . . _ _ _ . . .
        1     . . . . . . . . .
        """,
        to_move=1,
    )
    reason, cells = SPACETILES.table.explain(SPACETILES, pos)
    assert SPACETILES.outcome(pos).winner == 0
    assert reason == "Orange made a run of 4 Orange pieces, and wins."
    assert cells == {"c3", "d3", "e3", "f3"}


def test_spacetiles_exactly_five_of_any_colours_wins_for_the_mover() -> None:
    pos = SPACETILES.from_diagram(
        """
        5 . . . . . . . . .
        4  . . . _ _ _ . . .
        3   . . Y R Y R Y . .
        2    . . . _ _ _ . . .
        1     . . . . . . . . .
        """,
        to_move=0,
    )
    reason, cells = SPACETILES.table.explain(SPACETILES, pos)
    assert SPACETILES.outcome(pos).winner == 1
    assert reason == "Violet made a run of exactly 5 pieces, and wins."
    assert cells == {"c3", "d3", "e3", "f3", "g3"}


def test_spacetiles_six_in_a_row_loses_for_the_mover() -> None:
    pos = SPACETILES.from_diagram(
        """
        5 . . . . . . . . .
        4  . . . _ _ _ . . .
        3   . R Y R Y R Y . .
        2    . . . _ _ _ . . .
        1     . . . . . . . . .
        """,
        to_move=1,
    )
    reason, cells = SPACETILES.table.explain(SPACETILES, pos)
    assert SPACETILES.outcome(pos).winner == 1
    assert reason == "Orange made a run of 6 pieces in a row, and loses."
    assert cells == {"b3", "c3", "d3", "e3", "f3", "g3"}


def test_spacetiles_an_empty_supply_loses_for_the_player_to_move() -> None:
    pos = SPACETILES.from_diagram(SPACETILES.render(SPACETILES.start()), to_move=1, supply=0)
    reason, cells = SPACETILES.table.explain(SPACETILES, pos)
    assert SPACETILES.outcome(pos).winner == 0
    assert reason == "The tile supply is empty: Violet has no turn, and loses."
    assert cells == frozenset()


def test_spacetiles_no_legal_turn_marks_where_a_tile_could_go() -> None:
    # Every tile holds a piece: no placement can be finished, and Orange's e3 cannot step.
    pos = SPACETILES.from_diagram(
        """
        5 . . . . . . . . .
        4  . . . Y Y Y . . .
        3   . . . Y R Y . . .
        2    . . . Y Y Y . . .
        1     . . . . . . . . .
        """,
        to_move=0,
    )
    reason, cells = SPACETILES.table.explain(SPACETILES, pos)
    assert SPACETILES.outcome(pos).winner == 1
    assert reason == "Orange has no legal turn (no tile placed anywhere lets Orange finish it), and loses."
    # The empty cells beside the 3x3 block (hex neighbours (q+-1, r), (q, r+-1), (q+1, r-1), (q-1, r+1)).
    assert cells == {"c5", "d5", "e5", "f5", "c4", "g4", "c3", "g3", "c2", "g2", "d1", "e1", "f1", "g1"}


# --- Desdemona and King of Rings: counted at the end -------------------------------------------------


def test_desdemona_counts_the_stones_and_marks_the_winners() -> None:
    board = DESDEMONA.from_diagram(
        """
        B x x . . . . . . .
        x x x . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        o o o . . . . . . .
        W o . . . . . . . .
        """
    ).board
    pos = DesdemonaPosition(board, 0, 2, 40)
    reason, cells = DESDEMONA.table.explain(DESDEMONA, pos)
    assert DESDEMONA.outcome(pos).winner == 0
    assert reason == "Neither player can move a queen (two passes in a row). Black 5 stones - White 4 stones."
    assert cells == {"b10", "c10", "a9", "b9", "c9"}


def test_kingofrings_the_last_ring_taken_and_the_winners_holders() -> None:
    pos = KINGOFRINGS.from_diagram(
        """
        . . . . . . .
        . k . . . . .
        . . . . . . .
        . . . KBb . . .
        . . . . . . .
        . Ks . . ksbb . .
        . . . . . . .
        """,
        player=0,
    )
    reason, cells = KINGOFRINGS.table.explain(KINGOFRINGS, pos)
    assert KINGOFRINGS.outcome(pos).winner == 0
    assert reason == "The last loose ring is taken. Light 9 points - Dark 7 points."
    assert cells == {"d4", "b2"}


def test_kingofrings_two_passes_with_a_ring_left() -> None:
    pos = KINGOFRINGS.from_diagram(
        """
        . . . . . . .
        . k . . . . .
        . . . . . . .
        . . . Ks . . s
        . . . . . . .
        . . . . ks . .
        . . . . . . .
        """,
        player=0,
        passes=2,
    )
    reason, cells = KINGOFRINGS.table.explain(KINGOFRINGS, pos)
    assert KINGOFRINGS.outcome(pos).winner is None
    assert reason == "Two passes in a row. Light 1 point - Dark 1 point."
    assert cells == {"d4", "e2"}


def test_the_score_names_the_players_and_the_unit() -> None:
    assert DESDEMONA.table.score_words((13, 28)) == "Black 13 stones - White 28 stones"
    assert KINGOFRINGS.table.score_words((1, 0)) == "Light 1 point - Dark 0 points"


@pytest.mark.parametrize("game_id", ["flipfour", "spacetiles", "desdemona", "kingofrings"])
def test_every_ending_of_random_games_is_explained_on_the_board(game_id: str) -> None:
    """Random whole games end in every way their rules allow; each ending gets a reason and real cells."""
    game = registry.make(game_id)
    for seed in range(8 if game_id == "desdemona" else 30):
        rng = random.Random(seed)
        pos = game.start()
        while not game.is_over(pos):
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
        reason, cells = game.table.explain(game, pos)
        assert reason.endswith(".") and cells <= set(game.geometry.names)
        winner = game.outcome(pos).winner
        if winner is not None and game_id in ("desdemona", "kingofrings"):
            assert all(
                game.cells(pos)[c][-1].colour == winner for c in cells
            )  # the winner's stones or holders
