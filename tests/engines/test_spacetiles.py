"""Space Tiles (RULES.md section 2): one test per rule on a hand-checked position, then invariants.

Diagrams list rank 5 first, one token per cell from file a to i: ``.`` no tile,
``_`` an empty tile, ``R`` / ``Y`` a tile with a piece of player 0 / 1.  The
hex neighbours of (q, r) are (q+-1, r), (q, r+-1), (q+1, r-1), (q-1, r+1):
e3's are d3 f3 e2 e4 f2 d4.  Lines run along a rank, along a file, and along
(q+1, r-1), e.g. c5 d4 e3 f2 g1.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.game import MoveError, Outcome
from engines.physical import Thing
from engines.spacetiles.board import BoardError, board_from_data, load_board
from engines.spacetiles.rules import Decisions, Position, SpaceTiles, Turn
from tests.budget import examples
from tests.conftest import run_cli

GAME = SpaceTiles()
NAMES = GAME.geometry.names


def legal(pos: Position) -> set[str]:
    return set(GAME.legal_texts(pos))


def after(pos: Position, *texts: str) -> Position:
    return GAME.play_texts(texts, pos)


def illegal_because(pos: Position, text: str) -> str:
    with pytest.raises(MoveError) as info:
        GAME.parse_move(pos, text)
    return str(info.value)


# --- setup ---------------------------------------------------------------------------


def test_start_has_the_centre_nine_tiles_twenty_pieces_each_and_31_in_supply() -> None:
    start = GAME.start()
    cells = GAME.cells(start)
    assert set(cells) == set(NAMES) and len(cells) == 45
    with_tile = {name for name, things in cells.items() if things}
    assert with_tile == {f + r for f in "def" for r in "234"}
    assert all(cells[name] == (Thing("tile"),) for name in with_tile)
    assert GAME.hands(start) == {0: {"piece": 20}, 1: {"piece": 20}, 2: {"tile": 31}}
    assert GAME.to_move(start) == 0 and GAME.outcome(start) is None


def test_first_turn_count_by_hand() -> None:
    # The 9 start tiles form the rhombus d2-f4.  The 14 cells touching it and how many tiles each touches
    # (neighbours (q+-1,r), (q,r+-1), (q+1,r-1), (q-1,r+1)):
    #   rank 1: d1 -> d2 (1); e1 -> d2 e2 (2); f1 -> e2 f2 (2); g1 -> f2 (1)
    #   rank 5: c5 -> d4 (1); d5 -> d4 e4 (2); e5 -> e4 f4 (2); f5 -> f4 (1)
    #   file c: c2 -> d2 (1); c3 -> d3 d2 (2); c4 -> d4 d3 (2)
    #   file g: g2 -> f2 f3 (2); g3 -> f3 f4 (2); g4 -> f4 (1)
    # The six 1-tile cells need a step, but nobody has a piece yet; each of the eight 2-tile cells is
    # followed by one piece on any of the 9 empty old tiles: 8 * 9 = 72.
    moves = legal(GAME.start())
    assert len(moves) == 72
    assert {m.split(":")[0] for m in moves} == {"e1", "f1", "d5", "e5", "c3", "c4", "g2", "g3"}
    assert {m.split(":")[1] for m in moves} == {f + r for f in "def" for r in "234"}


# --- the follow-up -----------------------------------------------------------------------


def test_a_one_side_tile_is_illegal_on_each_players_first_turn() -> None:
    # d1 touches only d2, so the follow-up is a step of one of the mover's pieces - and on the first turn
    # of either player that player has no piece on the board, so the step cannot be done.
    start = GAME.start()
    assert "no piece of player 0 on d2" in illegal_because(start, "d1:d2-d3")
    assert not any(m.startswith("d1:") for m in legal(start))
    pos = after(start, "e1:e3")  # player 0's piece on e3; player 1 still has none
    assert "no piece of player 1 on e3" in illegal_because(pos, "c5:e3-e4")
    assert all("-" not in m for m in legal(pos))


STEP_BOARD = """
5 . . . . . . . . .
4  . . . _ _ _ . . .
3   . . . _ _ _ . . .
2    . . . R Y _ . . .
1     . . . . . . . . .
"""


def test_a_one_side_tile_moves_one_own_piece_one_step_never_onto_the_new_tile() -> None:
    pos = GAME.from_diagram(STEP_BOARD, to_move=0)
    # c2 touches only d2.  R on d2 may go to: c2 (the new tile: no), e2 (Y: no), d3 (yes); d1, e1 and c3
    # hold no tile.  So c2 is followed by exactly one step.
    assert {m for m in legal(pos) if m.startswith("c2:")} == {"c2:d2-d3"}
    assert "may not be used" in illegal_because(pos, "c2:d2-c2")
    assert "e2 already holds a piece" in illegal_because(pos, "c2:d2-e2")
    assert "no piece of player 0 on e2" in illegal_because(pos, "c2:e2-e3")
    assert "not next to" in illegal_because(pos, "c2:d2-f3")
    assert "steps" in illegal_because(pos, "c2:d3")
    # Whole count: the six 1-tile cells of the rhombus (d1 g1 c5 f5 c2 g4) each with the one step d2-d3,
    # plus the eight 2-tile cells each with one piece on the 7 empty tiles: 6 + 56 = 62.
    assert len(legal(pos)) == 62
    moved = after(pos, "c2:d2-d3")
    assert GAME.cells(moved)["d3"] == (Thing("tile"), Thing("piece", 0))
    assert GAME.cells(moved)["d2"] == (Thing("tile"),) and GAME.cells(moved)["c2"] == (Thing("tile"),)
    assert GAME.hands(moved)[0] == {"piece": 19}  # a step takes nothing from the hand


def test_n_tiles_touched_means_n_minus_1_pieces_pairwise_not_neighbours() -> None:
    # After e1:e3 (e1 touches d2 e2), f1 touches e1 e2 f2: player 1 places 2 pieces.  The empty tiles are
    # d2 e2 f2 d3 f3 d4 e4 f4 e1 (9; e3 is taken, f1 is the new tile).  Edges among them, by hand:
    # d2-e2 d2-d3 d2-e1 e2-f2 e2-e1 e2-d3 f2-f3 d3-d4 f3-f4 f3-e4 d4-e4 e4-f4 = 12, so C(9,2) - 12 = 24.
    pos = after(GAME.start(), "e1:e3")
    f1_turns = {m for m in legal(pos) if m.startswith("f1:")}
    assert len(f1_turns) == 24
    assert "f1:d2,f2" in f1_turns
    assert "d2 and e2 would be neighbours" in illegal_because(pos, "f1:d2,e2")
    assert "exactly 2" in illegal_because(pos, "f1:d2")
    assert "may not be used" in illegal_because(pos, "f1:d2,f1")
    assert "e3 already holds a piece" in illegal_because(pos, "f1:d2,e3")
    assert "not moved" in illegal_because(pos, "f1:e3-e4")
    placed = after(pos, "f1:f2,d2")
    assert GAME.hands(placed)[1] == {"piece": 18} and GAME.hands(placed)[2] == {"tile": 29}


def test_a_single_placed_piece_may_not_go_on_the_new_tile_or_off_the_tiles() -> None:
    start = GAME.start()
    assert "may not be used" in illegal_because(start, "c3:c3")
    assert "c2 holds no tile" in illegal_because(start, "c3:c2")
    assert "touch no tile" in illegal_because(start, "a1:d2")
    assert "already holds a tile" in illegal_because(start, "e3:d2")


HAND_BOARD = """
5 . . . . . . . . .
4  . . . _ _ _ . . .
3   . . . _ _ _ . . .
2    . . . _ _ _ . . .
1     . . . . _ . . . .
"""


def test_too_few_pieces_in_hand_makes_the_placement_illegal() -> None:
    # f1 touches e1 e2 f2 (needs 2 pieces), d1 touches d2 e1 (needs 1).
    short = GAME.from_diagram(HAND_BOARD, to_move=0, hands=(1, 20))
    assert "has 1 piece(s) in hand, 2 needed" in illegal_because(short, "f1:d3,f3")
    assert "f1:d3,f3" not in legal(short) and "d1:d3" in legal(short)
    assert NAMES.index("f1") not in GAME.tile_choices(short)
    enough = GAME.from_diagram(HAND_BOARD, to_move=0, hands=(2, 20))
    assert "f1:d3,f3" in legal(enough)


# --- the end-of-turn judgement -------------------------------------------------------------


OWN_RANK = """
5 . . . . . . . . .
4  . . . _ _ _ . . .
3   . R R R _ _ _ . .
2    . . . _ _ _ . . .
1     . . . . . . . . .
"""
OWN_FILE = """
5 . . . . _ . . . .
4  . . . _ R _ . . .
3   . . . _ R _ . . .
2    . . . _ R _ . . .
1     . . . . _ . . . .
"""
OWN_DIAGONAL = """
5 . . . . . . . . .
4  . . . R _ _ . . .
3   . . . _ R _ . . .
2    . . . _ _ R . . .
1     . . . . . . _ . .
"""


@pytest.mark.parametrize(
    ("diagram", "move"),
    [
        (OWN_RANK, "e1:e3"),  # R b3 c3 d3 + e3 (e1 touches d2 e2: one piece)
        (OWN_FILE, "d1:e5"),  # R e2 e3 e4 + e5 (d1 touches d2 e1)
        (OWN_DIAGONAL, "c3:g1"),  # R d4 e3 f2 + g1 along (q+1, r-1) (c3 touches d2 d3)
    ],
)
def test_four_own_in_a_row_wins(diagram: str, move: str) -> None:
    pos = GAME.from_diagram(diagram, to_move=0)
    assert GAME.outcome(pos) is None  # three in a row decide nothing
    won = after(pos, move)
    assert GAME.outcome(won) == Outcome(0)
    assert GAME.legal_moves(won) == [] and GAME.tile_choices(won) == []


MIXED_BOARD = """
5 . . . . . . . . .
4  . . . _ _ _ . . .
3   . R Y R Y _ _ . .
2    . . . _ _ _ . . .
1     . . . . . . . . .
"""


def test_exactly_five_of_any_colours_wins_for_the_mover() -> None:
    # Rank 3: b3 R, c3 Y, d3 R, e3 Y, f3 and g3 empty, a3 no tile.  One more piece on f3 makes b3-f3 a
    # run of exactly 5 (g3 empty): the mover wins whichever colour it is, though no 4 are its own.
    for player in (0, 1):
        pos = GAME.from_diagram(MIXED_BOARD, to_move=player)
        assert GAME.outcome(after(pos, "e1:f3")) == Outcome(player)
    # A piece on g3 instead leaves b3-e3, four mixed pieces, which decide nothing.
    pos = GAME.from_diagram(MIXED_BOARD, to_move=0)
    assert GAME.outcome(after(pos, "e1:g3")) is None


SIX_BOARD = """
5 . . . . . . . . .
4  . . . _ _ _ . . .
3   R Y R _ Y R _ . .
2    . . . _ _ _ . . .
1     . . . . . . . . .
"""

LOSS_OVER_WIN_BOARD = """
5 . . . . . . . . .
4  . . . _ _ _ . . .
3   Y R R _ R Y _ . .
2    . . . _ _ _ . . .
1     . . . . . . . . .
"""


def test_six_in_a_row_of_any_colours_loses() -> None:
    # Rank 3 a3-f3: R Y R _ Y R.  Filling d3 makes a run of 6 (a3 to f3): the mover loses, although
    # b3-f3 and a3-e3 are runs of 5 inside it - a five inside a longer run does not count.
    pos = GAME.from_diagram(SIX_BOARD, to_move=0)
    assert GAME.outcome(after(pos, "e1:d3")) == Outcome(1)
    pos = GAME.from_diagram(SIX_BOARD, to_move=1)
    assert GAME.outcome(after(pos, "e1:d3")) == Outcome(0)


def test_a_loss_by_six_outranks_a_win_by_four_own() -> None:
    # Rank 3 a3-f3: Y R R _ R Y.  R on d3 makes b3-e3 four of R's own, but a3-f3 is a run of 6.
    pos = GAME.from_diagram(LOSS_OVER_WIN_BOARD, to_move=0)
    assert GAME.outcome(after(pos, "e1:d3")) == Outcome(1)


# --- no legal turn -------------------------------------------------------------------------

BOXED_BOARD = """
5 . . . . . . . . .
4  . . . Y Y Y . . .
3   . . . Y R Y . . .
2    . . . Y Y Y . . .
1     . . . . . . . . .
"""


def test_no_legal_turn_loses() -> None:
    # Every tile holds a piece, so no placement can be done (no empty tile) and the only piece of player 0
    # (e3) has no empty tile to step to - although player 0 has 19 pieces in hand and tiles are left.
    # No line has 4 pieces (each run is 3 long), so nothing was decided by the last turn.
    pos = GAME.from_diagram(BOXED_BOARD, to_move=0)
    assert GAME.hands(pos) == {0: {"piece": 19}, 1: {"piece": 12}, 2: {"tile": 31}}
    assert GAME.legal_moves(pos) == [] and GAME.tile_choices(pos) == []
    assert GAME.outcome(pos) == Outcome(1)
    assert "game is over" in illegal_because(pos, "c3:d3")


def test_an_empty_supply_loses_for_the_player_to_move() -> None:
    # The same position as the first-turn one, but without tiles in supply: 72 turns become none.
    pos = GAME.from_diagram(GAME.render(GAME.start()), to_move=1, supply=0)
    assert GAME.legal_moves(pos) == [] and GAME.turn_counts(pos) == {}
    assert GAME.outcome(pos) == Outcome(0)


# A played game (found by random playouts that avoid ending moves) that uses up all 31 tiles of the supply.
SUPPLY_GAME = [
    "g2:f3", "c3:e2", "b3:f3-e3", "e1:d4", "d1:g2", "c5:e2-f2", "e5:e4", "b5:d4-d3",
    "c2:c3,c5,f3", "g1:b5", "a3:e4-f4", "b4:a3,d4", "f1:b4,d2,e5", "a2:d4-e4", "g3:c2,g1", "a1:a3-a2",
    "f5:a3", "a4:d1,f5", "g5:e3-d4", "b1:g3", "a5:b1,g5", "h3:b5-a5", "i3:d2-e2", "i2:b5",
    "h5:b4-b3", "h1:i2", "c1:e1,i3", "d5:b4,h1,h5", "i4:h3", "i5:a4", "i1:c1",
]  # fmt: skip


def test_a_game_that_uses_up_the_supply_ends_with_a_loss_for_the_next_player() -> None:
    before_last = after(GAME.start(), *SUPPLY_GAME[:-1])
    assert GAME.hands(before_last)[2] == {"tile": 1} and GAME.outcome(before_last) is None
    end = after(before_last, SUPPLY_GAME[-1])
    assert GAME.hands(end)[2] == {"tile": 0} and GAME.to_move(end) == 1
    assert GAME.legal_moves(end) == [] and GAME.outcome(end) == Outcome(0)


# --- notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("c2:e3-e4", "c2:e3-e4"), ("e1:d2", "e1:d2"), ("g3:f2,d3", "g3:d3,f2"), (" G3: D3 , F2 ", "g3:d3,f2")],
)
def test_notation_is_canonical_with_placed_cells_sorted_as_strings(text: str, canonical: str) -> None:
    assert GAME.normalise_move_text(text) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("e1", "expected '<tile>:<action>'"),
        ("k3:d2", "no cell 'k3'"),
        ("e1:", "nothing after ':'"),
        ("e1:d2-d3-d4", "a step is '<from>-<to>'"),
        ("e1:d2-d2", "another cell"),
        ("e1:d2,d2", "listed twice"),
        ("e1:d2,,d3", "missing"),
        ("e1:a1,b2,c3,d4,e5,f1", "at most 5"),
        ("e1:x", "not a cell name"),
    ],
)
def test_malformed_move_texts_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        GAME.normalise_move_text(text)


def test_the_command_line_plays_space_tiles() -> None:
    result = run_cli("rules", "spacetiles", "e1:e3", "f1:f2,d2")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["to_move"] == 0 and state["winner"] is None and "c2:e3-d3" in state["legal"]


# --- the board as data ----------------------------------------------------------------------


def test_the_board_comes_from_its_data_file() -> None:
    board = load_board()
    assert board.geometry.size == 45 and board.supply == 31 and board.pieces_each == 20
    assert sorted(board.geometry.names[c] for c in board.start_tiles) == sorted(
        f + r for f in "def" for r in "234"
    )


def test_another_layout_needs_only_a_description() -> None:
    # A 7-cell hexagon with the centre tile only: every first turn touches 1 tile, so player 0 has none.
    small = board_from_data(
        "tiny",
        {
            "geometry": {"kind": "hex_hexagon", "radius": 1},
            "start_tiles": ["b2"],
            "tiles": 7,
            "pieces_each": 3,
        },
        "test",
    )
    game = SpaceTiles(board=small)
    assert game.legal_moves(game.start()) == [] and game.outcome(game.start()) == Outcome(1)
    assert len(game.cells(game.start())) == 7


HEX1 = {"kind": "hex_hexagon", "radius": 1}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected a JSON object"),
        ({"geometry": {"kind": "square"}, "start_tiles": [], "tiles": 1, "pieces_each": 1}, "unknown kind"),
        ({"geometry": HEX1, "start_tiles": ["z9"], "tiles": 1, "pieces_each": 1}, "no cell 'z9'"),
        ({"geometry": HEX1, "start_tiles": ["b2", "b2"], "tiles": 2, "pieces_each": 1}, "listed twice"),
        ({"geometry": HEX1, "start_tiles": ["b2"], "tiles": 9, "pieces_each": 1}, "tiles: from 1"),
        ({"geometry": HEX1, "start_tiles": ["b2"], "tiles": 2, "pieces_each": -1}, "pieces_each"),
        ({"geometry": HEX1, "start_tiles": ["b2"], "tiles": 2, "pieces_each": 1, "hue": 1}, "'hue'"),
        (
            {"geometry": {"kind": "hex_cells", "cells": {"a1": [0, 0], "b1": [0, 0]}}, "start_tiles": ["a1"],
             "tiles": 1, "pieces_each": 1},
            "unique",
        ),
    ],
)  # fmt: skip
def test_bad_board_descriptions_are_refused_with_the_reason(data: object, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        board_from_data("bad", data, "test")


def test_unknown_board_names_are_refused() -> None:
    with pytest.raises(BoardError, match="no Space Tiles board"):
        load_board("octagon")
    with pytest.raises(BoardError, match="lower-case"):
        load_board("../x")


def test_diagram_errors_name_the_rank() -> None:
    with pytest.raises(ValueError, match="rank 3: expected 9 cells"):
        GAME.from_diagram(STEP_BOARD.replace("3   . . . _ _ _ . . .", "3 . . _ _ _ . . ."))
    with pytest.raises(ValueError, match="unknown cell 'X'"):
        GAME.from_diagram(STEP_BOARD.replace("R", "X"))


# --- invariants on random positions --------------------------------------------------------------


def random_position(seed: int, plies: int, avoid_endings: bool) -> Position:
    """A position after up to ``plies`` random turns; ``avoid_endings`` prefers turns that decide nothing,
    which reaches the crowded late positions (holes touching 3-6 tiles) that quick random games miss."""
    rng = random.Random(seed)
    pos = GAME.start()
    for _ in range(plies):
        moves = GAME.legal_moves(pos)
        if not moves:
            break
        move = rng.choice(moves)
        if avoid_endings:
            for candidate in rng.sample(moves, min(len(moves), 40)):
                if GAME.play(pos, candidate).winner < 0:
                    move = candidate
                    break
        pos = GAME.play(pos, move)
    return pos


positions = st.builds(random_position, st.integers(0, 2**32), st.integers(0, 31), st.booleans())


def reachable_turns(pos: Position) -> list[Turn]:
    """Every complete turn reached through partial_choices, checking that no path is a dead end."""
    out: list[Turn] = []

    def walk(decisions: Decisions) -> None:
        choices = GAME.partial_choices(pos, decisions)
        turn = GAME.complete(pos, decisions)
        if turn is not None:
            assert choices == []
            out.append(turn)
            return
        assert choices, f"dead end after {decisions}"
        for cell in choices:
            walk((*decisions, cell))

    if GAME.tile_choices(pos):
        walk(())
    return out


@settings(max_examples=examples(60), deadline=None)
@given(positions)
def test_step_by_step_turns_are_exactly_the_legal_moves(pos: Position) -> None:
    moves = GAME.legal_moves(pos)
    reached = reachable_turns(pos)
    assert len(reached) == len(set(reached))  # one decision path per turn
    assert set(reached) == set(moves) and len(moves) == len(set(moves))
    assert all(GAME.decisions(m) and GAME.complete(pos, GAME.decisions(m)) == m for m in moves)
    assert GAME.turn_counts(pos) == dict(Counter(m[0] for m in moves))
    assert GAME.count_moves(pos) == len(moves)
    assert GAME.tile_choices(pos) == sorted({m[0] for m in moves})


@settings(max_examples=examples(60), deadline=None)
@given(positions)
def test_legal_moves_are_empty_exactly_when_the_game_is_over(pos: Position) -> None:
    assert (GAME.outcome(pos) is None) == bool(GAME.legal_moves(pos))


@settings(max_examples=examples(60), deadline=None)
@given(positions, st.integers(0, 2**32))
def test_text_round_trip_and_illegal_reasons_agree_with_legal_moves(pos: Position, seed: int) -> None:
    rng = random.Random(seed)
    moves = GAME.legal_moves(pos)
    for move in rng.sample(moves, min(len(moves), 20)):
        assert GAME.parse_move(pos, GAME.format_move(pos, move)) == move
    legal_set = set(moves)
    for _ in range(100):
        tile = rng.randrange(45)
        if rng.random() < 0.3:
            candidate = (tile, rng.randrange(45), 1 << rng.randrange(45))
        else:
            targets = sum(1 << c for c in rng.sample(range(45), rng.randint(1, 5)))
            candidate = (tile, -1, targets)
        if candidate[1] == candidate[2].bit_length() - 1:
            continue  # not a syntactically valid step
        assert (GAME.illegal_reason(pos, candidate) is None) == (candidate in legal_set), candidate


@settings(max_examples=examples(40), deadline=None)
@given(positions)
def test_positions_rebuilt_from_their_drawing_and_cells_are_equal(pos: Position) -> None:
    cells = GAME.cells(pos)
    rebuilt = GAME.from_diagram(
        GAME.render(pos), to_move=pos.to_move, hands=(pos.hand0, pos.hand1), supply=pos.supply
    )
    assert rebuilt == pos and GAME.key(rebuilt) == GAME.key(pos)
    pieces = sum(1 for things in cells.values() if len(things) == 2)
    assert pieces + pos.hand0 + pos.hand1 == 40
    assert sum(1 for things in cells.values() if things) + pos.supply == 40


# --- an independent, slow reading of the rules, for cross-checking the bit masks -------------------

COORDS = {name: GAME.geometry.coords[i] for i, name in enumerate(NAMES)}
AT = {coord: name for name, coord in COORDS.items()}
DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def around(name: str) -> list[str]:
    q, r = COORDS[name]
    return [AT[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in AT]


def slow_legal_texts(pos: Position) -> set[str]:
    cells = GAME.cells(pos)
    hands = GAME.hands(pos)
    me = GAME.to_move(pos)
    if hands[2]["tile"] == 0:
        return set()
    tiles = {n for n, t in cells.items() if t}
    owner = {n: t[1].colour for n, t in cells.items() if len(t) == 2}
    empty = sorted(n for n in tiles if n not in owner)
    out = set()
    for new in NAMES:
        touching = sum(1 for n in around(new) if n in tiles)
        if new in tiles or touching == 0:
            continue
        if touching == 1:
            out |= {f"{new}:{a}-{b}" for a in owner if owner[a] == me for b in around(a) if b in empty}
        elif hands[me]["piece"] >= touching - 1:
            for group in itertools.combinations(empty, touching - 1):
                if not any(b in around(a) for a, b in itertools.combinations(group, 2)):
                    out.add(f"{new}:{','.join(sorted(group))}")
    return out


def slow_verdict(pos: Position, mover: int) -> int | None:
    """The winner by the end-of-turn rule, judged for ``mover``, or None."""
    owner = {n: t[1].colour for n, t in GAME.cells(pos).items() if len(t) == 2}
    runs: list[list[int | None]] = []
    for dq, dr in ((1, 0), (0, 1), (1, -1)):
        for q, r in COORDS.values():
            if (q - dq, r - dr) in AT and AT[(q - dq, r - dr)] in owner:
                continue  # not the start of a run
            run = []
            while (q, r) in AT and AT[(q, r)] in owner:
                run.append(owner[AT[(q, r)]])
                q, r = q + dq, r + dr
            runs.append(run)
    if any(len(run) >= 6 for run in runs):
        return 1 - mover
    for run in runs:
        longest_own = max((len(list(g)) for c, g in itertools.groupby(run) if c == mover), default=0)
        if longest_own >= 4 or len(run) == 5:
            return mover
    return None


@settings(max_examples=examples(40), deadline=None)
@given(positions)
def test_the_bit_masks_agree_with_a_slow_reading_of_the_rules(pos: Position) -> None:
    if pos.winner >= 0:
        return
    assert legal(pos) == slow_legal_texts(pos)
    moves = GAME.legal_moves(pos)
    for move in moves[:: max(1, len(moves) // 30)]:
        played = GAME.play(pos, move)
        assert (played.winner if played.winner >= 0 else None) == slow_verdict(played, pos.to_move)
