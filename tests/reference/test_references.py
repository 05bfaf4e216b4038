"""The references themselves, on positions worked out by hand from RULES.md, so they are not trusted blindly.

Each test says how its expected answer was worked out.
"""

from __future__ import annotations

from . import ref_desdemona, ref_flipfour, ref_kingofrings, ref_spacetiles
from .common import perft
from .ref_kingofrings import Knight, Ring

# --- The King of Rings ------------------------------------------------------------------------------------


def kor_position(
    squares: dict[str, Ring | Knight],
    player: int = 0,
    hands: tuple[int, int] = (0, 0),
    options: frozenset[str] = frozenset(),
) -> ref_kingofrings.State:
    return ref_kingofrings.State(squares, hands, player, 0, False, False, options)


def test_kingofrings_start_has_35_rings_worth_51_points_and_no_empty_square() -> None:
    state = ref_kingofrings.initial()
    rings = [thing.points for thing in state.squares.values() if isinstance(thing, Ring)]
    assert len(state.squares) == 49
    assert sorted(rings).count(1) == 28 and rings.count(3) == 6 and rings.count(5) == 1
    assert sum(rings) == 51
    assert state.squares["d4"] == Ring(5)


def test_kingofrings_start_moves_are_the_28_steps_onto_rings() -> None:
    # Each knight's 8 neighbours minus the board edge and its own side's knights (all other squares hold
    # rings): a1 2, c1 3, e1 3, g1 2, b2 6, d2 6, f2 6 = 28.
    expected = {
        "a1-a2", "a1-b1",
        "c1-b1", "c1-c2", "c1-d1",
        "e1-d1", "e1-e2", "e1-f1",
        "g1-f1", "g1-g2",
        "b2-a2", "b2-a3", "b2-b1", "b2-b3", "b2-c2", "b2-c3",
        "d2-c2", "d2-c3", "d2-d1", "d2-d3", "d2-e2", "d2-e3",
        "f2-e2", "f2-e3", "f2-f1", "f2-f3", "f2-g2", "f2-g3",
    }  # fmt: skip
    assert ref_kingofrings.legal(ref_kingofrings.initial()) == sorted(expected)
    assert perft(ref_kingofrings, ref_kingofrings.initial(), 1) == 28


def test_kingofrings_blue_parity_moves_the_knights_and_gives_29_first_moves() -> None:
    # b1 3 (a1 b2 c1), d1 3, f1 3, a2 4 (a1 a3 b2 b3), c2 6, e2 6, g2 4 = 29.
    state = ref_kingofrings.initial(frozenset({"blue_parity"}))
    knights = {cell: thing.owner for cell, thing in state.squares.items() if isinstance(thing, Knight)}
    assert knights == {
        **{cell: 0 for cell in ("b1", "d1", "f1", "a2", "c2", "e2", "g2")},
        **{cell: 1 for cell in ("b7", "d7", "f7", "a6", "c6", "e6", "g6")},
    }
    assert len(ref_kingofrings.legal(state)) == 29


def jump_position(options: frozenset[str] = frozenset()) -> ref_kingofrings.State:
    return kor_position(
        {
            "d4": Knight(0, (1, 1)),  # a holder with k = 2
            "b2": Knight(0, ()),
            "c3": Ring(1),
            "b6": Ring(1),
            "c5": Knight(1, ()),  # between d4 and b6: ignored by the jump
            "f4": Knight(1, (3,)),
            "a1": Knight(1, ()),
        },
        options=options,
    )


def test_kingofrings_holder_jumps_exactly_k_and_k0_knight_steps() -> None:
    # d4 (k=2) lands 2 away: b2 own, b4 d2 d6 f2 f6 empty, b6 ring, f4 enemy. b2 (k=0) steps: c3 ring,
    # a1 enemy; a2 a3 b1 b3 c1 c2 are empty.
    assert ref_kingofrings.legal(jump_position()) == ["b2-c3", "b2xa1", "d4-b6", "d4xf4"]
    # empty_steps adds only the k=0 steps onto empty squares, never a jump onto one.
    with_option = ref_kingofrings.legal(jump_position(frozenset({"empty_steps"})))
    assert set(with_option) - {"b2-c3", "b2xa1", "d4-b6", "d4xf4"} == {
        "b2-a2",
        "b2-a3",
        "b2-b1",
        "b2-b3",
        "b2-c1",
        "b2-c2",
    }


def test_kingofrings_capturing_a_holder_takes_its_rings_and_returns_it_to_its_owners_hand() -> None:
    state = ref_kingofrings.apply(jump_position(), "d4xf4")
    assert state.squares["f4"] == Knight(0, (1, 1, 3))
    assert "d4" not in state.squares
    assert state.hands == (0, 1)
    assert ref_kingofrings.score(state) == [5, 0]
    # Player 1 may now drop on either loose ring (b6, c3).
    assert {"*b6", "*c3"} <= set(ref_kingofrings.legal(state))
    dropped = ref_kingofrings.apply(state, "*c3")
    assert dropped.squares["c3"] == Knight(1, (1,)) and dropped.hands == (0, 0)


def test_kingofrings_capturing_a_knight_without_rings_puts_it_out_for_good() -> None:
    state = ref_kingofrings.apply(jump_position(), "b2xa1")
    assert state.squares["a1"] == Knight(0, ())
    assert state.hands == (0, 0)


def test_kingofrings_last_ring_taken_by_player_0_gives_player_1_exactly_one_more_turn() -> None:
    state = kor_position({"b2": Knight(0, ()), "c3": Ring(1), "d4": Knight(1, (1,))})
    after = ref_kingofrings.apply(state, "b2-c3")
    # No loose ring is left; d4 (k=1) can only jump onto the knight on c3.
    assert ref_kingofrings.result(after) is None
    assert ref_kingofrings.legal(after) == ["d4xc3"]
    end = ref_kingofrings.apply(after, "d4xc3")
    assert ref_kingofrings.result(end) == (1, [0, 2])
    assert ref_kingofrings.legal(end) == []


def test_kingofrings_last_turn_is_a_pass_when_player_1_has_no_move() -> None:
    state = kor_position({"b2": Knight(0, ()), "c3": Ring(1), "g7": Knight(1, (3,))})
    after = ref_kingofrings.apply(state, "b2-c3")
    assert ref_kingofrings.legal(after) == ["pass"]  # g7 (k=1) has no ring or enemy 1 away
    assert ref_kingofrings.result(ref_kingofrings.apply(after, "pass")) == (1, [1, 3])


def test_kingofrings_last_ring_taken_by_player_1_ends_the_game_at_once() -> None:
    state = kor_position({"b2": Knight(1, ()), "c3": Ring(3), "d4": Knight(0, (1,))}, player=1)
    assert ref_kingofrings.result(ref_kingofrings.apply(state, "b2-c3")) == (1, [1, 3])


def test_kingofrings_two_passes_end_the_game_and_equal_points_draw() -> None:
    # Knights with 7 rings never move; the ring on d4 is out of everyone's reach.
    state = kor_position({"a1": Knight(0, (1,) * 7), "g7": Knight(1, (1,) * 7), "d4": Ring(5)})
    assert ref_kingofrings.legal(state) == ["pass"]
    once = ref_kingofrings.apply(state, "pass")
    assert ref_kingofrings.result(once) is None and ref_kingofrings.legal(once) == ["pass"]
    twice = ref_kingofrings.apply(once, "pass")
    assert ref_kingofrings.result(twice) == (None, [7, 7])


# --- Desdemona ----------------------------------------------------------------------------------------------


def test_desdemona_start_has_80_queen_moves_alone() -> None:
    # a4: up a5 a6 (a7 White queen), down a3 a2 a1, right b4..i4 (j4 queen), up-right b5..f9 (g10 queen),
    # down-right b3 c2 (d1 queen): 2+3+8+5+2 = 20; the setup turns into itself by a quarter turn: 4 x 20.
    moves = ref_desdemona.legal(ref_desdemona.initial())
    assert len(moves) == 80
    from_a4 = {move for move in moves if move.startswith("a4-")}
    targets = {"a5", "a6", "a3", "a2", "a1", "b5", "c6", "d7", "e8", "f9", "b3", "c2"}
    targets |= {f"{file}4" for file in "bcdefghi"}
    assert from_a4 == {f"a4-{cell}" for cell in targets}
    after = ref_desdemona.apply(ref_desdemona.initial(), "a4-a5")
    assert after.stones == {}
    assert all(("/" in move) or ("x" in move) for move in ref_desdemona.legal(after))


def small_desdemona(stones: dict[str, int]) -> ref_desdemona.State:
    # White to move, not the first turn; White queen a1, Black queen j10.
    return ref_desdemona.State({"a1": 1, "j10": 0}, stones, 1, 5, 0, False)


def test_desdemona_shots_and_capture_after_one_queen_move() -> None:
    # a1 reaches a2 (a3 stone), b1 (c1 stone) and b2..i9 (j10 queen) = 10 squares. From b2 the shots are
    # a2, a1 (just left), b1, b3..b10 (8) and c3..i9 (7) = 18; c1, c2 and a3 hold stones. Capture: c2 d2
    # Black then e2 empty; c1 Black then the edge is none.
    state = small_desdemona({"a3": 1, "c1": 0, "c2": 0, "d2": 0})
    moves = ref_desdemona.legal(state)
    assert {move.split("/")[0].split("x")[0] for move in moves} == {
        "a1-a2",
        "a1-b1",
        "a1-b2",
        "a1-c3",
        "a1-d4",
        "a1-e5",
        "a1-f6",
        "a1-g7",
        "a1-h8",
        "a1-i9",
    }
    from_b2 = [move for move in moves if move.startswith("a1-b2")]
    assert len(from_b2) == 19
    assert "a1-b2/a1" in from_b2 and "a1-b2xe2" in from_b2
    after = ref_desdemona.apply(state, "a1-b2xe2")
    assert after.stones == {"a3": 1, "c1": 0, "c2": 1, "d2": 1, "e2": 1}
    assert after.queens == {"b2": 1, "j10": 0}
    assert ref_desdemona.score(after) == [1, 4]
    shot = ref_desdemona.apply(state, "a1-b2/b10")
    assert shot.stones["b10"] == 0  # a shot places the OPPONENT's colour


def test_desdemona_no_capture_against_own_stone_or_queen() -> None:
    own_stone = small_desdemona({"c2": 0, "d2": 0, "e2": 1})
    queen = ref_desdemona.State({"a1": 1, "j10": 0, "e2": 0}, {"c2": 0, "d2": 0}, 1, 5, 0, False)
    for state in (own_stone, queen):
        assert not any(move.startswith("a1-b2x") for move in ref_desdemona.legal(state))


def test_desdemona_blocked_players_pass_and_two_passes_end_the_game() -> None:
    # Both queens are walled in by stones: three of each colour, a draw.
    stones = {"a2": 0, "b1": 0, "b2": 1, "j9": 1, "i10": 1, "i9": 0}
    state = ref_desdemona.State({"a1": 1, "j10": 0}, stones, 1, 5, 0, False)
    assert ref_desdemona.legal(state) == ["pass"]
    once = ref_desdemona.apply(state, "pass")
    assert ref_desdemona.result(once) is None and ref_desdemona.legal(once) == ["pass"]
    assert ref_desdemona.result(ref_desdemona.apply(once, "pass")) == (None, [3, 3])


# --- Space Tiles --------------------------------------------------------------------------------------------


def test_spacetiles_start_has_72_turns() -> None:
    # Around the centre block (files d-f, ranks 2-4) the cells touching 2 tiles are e1 f1 c3 c4 g2 g3 d5 e5
    # (one piece, on any of the 9 tiles); d1 g1 c2 g4 c5 f5 touch 1 tile, but there is no piece to move yet.
    touching_two = ["e1", "f1", "c3", "c4", "g2", "g3", "d5", "e5"]
    expected = {f"{tile}:{cell}" for tile in touching_two for cell in ref_spacetiles.CENTRE}
    assert ref_spacetiles.legal(ref_spacetiles.initial()) == sorted(expected)


def spacetiles_position(
    tiles: set[str], pieces: dict[str, int], hands: tuple[int, int] = (19, 20), supply: int = 30
) -> ref_spacetiles.State:
    return ref_spacetiles.State(frozenset(tiles), pieces, supply, hands, 0, None)


def test_spacetiles_one_touching_side_moves_a_piece_but_not_onto_the_new_tile() -> None:
    # d1 touches only d2. The piece on d2 may go to e2 or d3 (tiles without pieces); d1 is this turn's tile
    # and c2, e1, c3 hold no tile.
    state = spacetiles_position(set(ref_spacetiles.CENTRE), {"d2": 0})
    from_d1 = [move for move in ref_spacetiles.legal(state) if move.startswith("d1:")]
    assert from_d1 == ["d1:d2-d3", "d1:d2-e2"]
    after = ref_spacetiles.apply(state, "d1:d2-e2")
    assert after.pieces == {"e2": 0} and "d1" in after.tiles and after.supply == 29


def test_spacetiles_three_touching_sides_place_two_pieces_that_are_not_neighbours() -> None:
    # With e1 added, f1 touches e1, e2 and f2: 2 pieces on 2 of the 10 free tiles. The 3x3 block has 16
    # neighbouring pairs (6 along ranks, 6 along files, 4 along (q+1, r-1)) and e1 touches d2 and e2: 18 of
    # the C(10, 2) = 45 pairs are neighbours, 27 are not.
    state = spacetiles_position({*ref_spacetiles.CENTRE, "e1"}, {})
    from_f1 = [move for move in ref_spacetiles.legal(state) if move.startswith("f1:")]
    assert len(from_f1) == 27
    assert "f1:d2,d4" in from_f1 and "f1:d2,d3" not in from_f1
    assert ref_spacetiles.apply(state, "f1:d2,d4").hands == (17, 20)
    short_handed = spacetiles_position({*ref_spacetiles.CENTRE, "e1"}, {}, hands=(1, 20))
    assert not any(move.startswith("f1:") for move in ref_spacetiles.legal(short_handed))


def test_spacetiles_runs_decide_for_the_player_who_just_moved() -> None:
    judge = ref_spacetiles.judge
    own_four = {"b2": 0, "c2": 0, "d2": 0, "e2": 0}
    assert judge(own_four, 0) == 0
    assert judge(own_four, 1) is None  # a run of the opponent's colour is not looked at
    mixed_five_on_the_diagonal = {"c5": 0, "d4": 1, "e3": 0, "f2": 1, "g1": 0}  # along (q+1, r-1)
    assert judge(mixed_five_on_the_diagonal, 1) == 1
    mixed_six = {f"{file}3": index % 2 for index, file in enumerate("abcdef")}
    assert judge(mixed_six, 0) == 1
    own_five_in_six = {**{f"{file}3": 0 for file in "abcde"}, "f3": 1}
    assert judge(own_five_in_six, 0) == 1  # six of any colours: the mover loses, whatever else
    mixed_four_with_gap = {"e1": 0, "e2": 1, "e3": 0, "e5": 1}
    assert judge(mixed_four_with_gap, 0) is None


def test_spacetiles_no_tile_left_means_the_player_to_move_loses() -> None:
    state = spacetiles_position(set(ref_spacetiles.CENTRE), {"d2": 0}, supply=0)
    assert ref_spacetiles.legal(state) == []
    assert ref_spacetiles.result(state) == (1, None)


# --- Flip Four ----------------------------------------------------------------------------------------------


def test_flipfour_first_turns_place_one_then_one_or_two() -> None:
    start = ref_flipfour.initial()
    assert len(ref_flipfour.POINTS) == 19
    assert ref_flipfour.legal(start) == sorted(ref_flipfour.POINTS)  # exactly 1 on the first turn
    assert len(ref_flipfour.legal(ref_flipfour.apply(start, "c3"))) == 18 + 153  # 18 singles, C(18, 2) pairs
    assert start.appearances == {ref_flipfour.key({}, (8, 8), 0): 1}  # the start counts as an appearance


def test_flipfour_perft_3_matches_the_count_worked_out_by_hand() -> None:
    # Placements: 19 x (18 x 153 + 153 x 136) on the third turn (17 or 16 empty points) = 447678. Red jumps:
    # after one yellow piece, each of the 54 (point, direction) pairs with two points ahead on the board has
    # exactly one yellow placement that it can jump; after two yellow pieces, each such pair jumps a yellow on
    # the next point with the other anywhere but the landing point (16 ways), and each of the 24 pairs with
    # three points ahead jumps both when they are the next two (1 way): 54 + 54 x 16 + 24 = 942.
    assert perft(ref_flipfour, ref_flipfour.initial(), 3) == 447678 + 942


def flipfour_position(board: dict[str, int], hands: tuple[int, int], player: int = 0) -> ref_flipfour.State:
    return ref_flipfour.State(board, hands, player, 10, {ref_flipfour.key(board, hands, player): 1}, None)


def test_flipfour_a_move_jumps_the_whole_run_and_turns_it_over() -> None:
    # c1 jumps c2 and c3 and lands on c4; c3 cannot move down (c2, c1, then the edge); no other piece is next.
    state = flipfour_position({"c1": 0, "c2": 1, "c3": 0}, (0, 5))
    assert ref_flipfour.legal(state) == ["c1-c4"]
    assert ref_flipfour.apply(state, "c1-c4").board == {"c2": 0, "c3": 1, "c4": 0}


def test_flipfour_a_position_may_not_appear_a_third_time() -> None:
    state = flipfour_position({"c1": 0, "c2": 1, "c3": 0}, (0, 5))
    successor = ref_flipfour.key({"c2": 0, "c3": 1, "c4": 0}, (0, 5), 1)
    seen_once = ref_flipfour.State(state.board, state.hands, 0, 10, {successor: 1}, None)
    assert ref_flipfour.legal(seen_once) == ["c1-c4"]
    seen_twice = ref_flipfour.State(state.board, state.hands, 0, 10, {successor: 2}, None)
    assert ref_flipfour.legal(seen_twice) == []
    assert ref_flipfour.result(seen_twice) == (1, None)  # no legal move: red loses


def test_flipfour_own_run_of_five_loses_at_once() -> None:
    state = flipfour_position({"c1": 0, "c2": 0, "c3": 0, "c5": 0}, (4, 8))
    assert ref_flipfour.result(state) is None
    assert ref_flipfour.result(ref_flipfour.apply(state, "c4")) == (1, None)


def test_flipfour_turning_the_opponent_into_a_run_of_five_makes_them_lose() -> None:
    # b3 jumps c3 (red turns yellow) to d3: yellow shows c1..c5.
    state = flipfour_position({"c1": 1, "c2": 1, "c3": 0, "c4": 1, "c5": 1, "b3": 0}, (4, 4))
    assert ref_flipfour.result(ref_flipfour.apply(state, "b3-d3")) == (0, None)


def test_flipfour_when_both_colours_over_line_the_mover_loses() -> None:
    # a3 jumps b3 c3 d3 to e3: b3 d3 turn red, c3 yellow. Red then shows b2..b5 and d1..d4 (two runs of 4),
    # yellow c1..c5.
    board = {"a3": 0, "b3": 1, "c3": 0, "d3": 1, "c1": 1, "c2": 1, "c4": 1, "c5": 1,
             "b2": 0, "b4": 0, "b5": 0, "d1": 0, "d2": 0, "d4": 0}  # fmt: skip
    state = flipfour_position(board, (1, 1))
    assert ref_flipfour.result(state) is None
    after = ref_flipfour.apply(state, "a3-e3")
    assert ref_flipfour.over_lines(after.board, 0) and ref_flipfour.over_lines(after.board, 1)
    assert ref_flipfour.result(after) == (1, None)


def test_flipfour_a_run_of_exactly_four_wins_at_the_start_of_its_owners_turn() -> None:
    # Red turns c3 yellow: yellow shows c1..c4 (exactly 4) and wins as its turn starts, whoever made it.
    state = flipfour_position({"c1": 1, "c2": 1, "c3": 0, "c4": 1, "b3": 0}, (4, 4))
    assert ref_flipfour.result(ref_flipfour.apply(state, "b3-d3")) == (1, None)
    # Red's own run of 4 wins only if it is still there when red's next turn starts.
    own = flipfour_position({"c1": 0, "c2": 0, "c3": 0}, (4, 4))
    after = ref_flipfour.apply(own, "c4")
    assert ref_flipfour.result(after) is None
    assert ref_flipfour.result(ref_flipfour.apply(after, "a3")) == (0, None)
