"""The King of Rings (RULES.md section 1): one test per rule, each on a hand-checked position.

Diagrams list rank 7 first, files a-g left to right: ``.`` empty, ``s``/``b``/``B``
a loose silver/blue/big blue ring, ``K``/``k`` a knight of player 0/1 followed by
the rings it carries bottom to top (``Ksb``: a silver, then a blue on top).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import registry
from engines.game import MoveError, Outcome
from engines.geometry import SQUARE_DIRECTIONS
from engines.kingofrings.rules import KingOfRings, Position, diagram, from_diagram
from engines.physical import Thing
from tests.budget import examples

GAME = KingOfRings()
EMPTY_STEPS = KingOfRings(frozenset({"empty_steps"}))
BLUE_PARITY = KingOfRings(frozenset({"blue_parity"}))

SILVER, BLUE, BIGBLUE = Thing("ring_silver"), Thing("ring_blue"), Thing("ring_bigblue")
KNIGHT0, KNIGHT1 = Thing("knight", 0), Thing("knight", 1)


def legal(pos: Position, game: KingOfRings = GAME) -> set[str]:
    return set(game.legal_texts(pos))


def after(pos: Position, *texts: str, game: KingOfRings = GAME) -> Position:
    return game.play_texts(texts, pos)


def hand(pos: Position, game: KingOfRings = GAME) -> tuple[int, int]:
    hands = game.hands(pos)
    return hands[0]["knight"], hands[1]["knight"]


# --- setup ---------------------------------------------------------------------------------------------


def test_start_position_has_knights_on_blue_squares_and_a_ring_everywhere_else() -> None:
    pos = GAME.start()
    cells = GAME.cells(pos)
    knights = {name: things[0].colour for name, things in cells.items() if things[0].kind == "knight"}
    assert knights == {
        "a1": 0, "c1": 0, "e1": 0, "g1": 0, "b2": 0, "d2": 0, "f2": 0,
        "a7": 1, "c7": 1, "e7": 1, "g7": 1, "b6": 1, "d6": 1, "f6": 1,
    }  # fmt: skip
    assert cells["d4"] == (BIGBLUE,)
    assert {name for name, things in cells.items() if things == (BLUE,)} == {
        "a4",
        "b4",
        "c4",
        "e4",
        "f4",
        "g4",
    }
    assert sum(things == (SILVER,) for things in cells.values()) == 28
    assert all(len(things) == 1 for things in cells.values())  # no square is empty
    assert GAME.hands(pos) == {0: {"knight": 0}, 1: {"knight": 0}}
    assert GAME.score(pos) == (0, 0)
    assert GAME.to_move(pos) == 0


def test_start_moves_are_the_steps_of_the_seven_ringless_knights() -> None:
    # By hand: a1 -> a2 b1; c1 -> b1 c2 d1; e1 -> d1 e2 f1; g1 -> f1 g2 (their other neighbours are
    # their own knights); b2, d2, f2 -> the six ring squares around each.  2+3+3+2+6+6+6 = 28.
    moves = legal(GAME.start())
    assert len(moves) == 28
    assert {m for m in moves if m.startswith(("a1", "b2"))} == {
        "a1-a2", "a1-b1", "b2-b1", "b2-a2", "b2-c2", "b2-a3", "b2-b3", "b2-c3",
    }  # fmt: skip


# --- moving ----------------------------------------------------------------------------------------------

STEP_BOARD = """
. . . . . . .
. . . . . . .
. . . . . . .
. . s k K . .
. . . K . s .
. . . . b . .
. . . . . . .
"""


def test_ringless_knight_steps_one_square_onto_a_ring_or_an_enemy_only() -> None:
    pos = from_diagram(STEP_BOARD)
    # d3: e2 ring, c4 ring, d4 enemy; c2 d2 c3 e3 empty; e4 own.  e4: f3 ring, d4 enemy; d3 own, rest
    # empty.  f3 is two squares from d3, so d3 cannot reach it.
    assert legal(pos) == {"d3-e2", "d3-c4", "d3xd4", "e4-f3", "e4xd4"}


def test_stepping_onto_a_ring_takes_it() -> None:
    pos = after(from_diagram(STEP_BOARD), "d3-e2")
    cells = GAME.cells(pos)
    assert cells["e2"] == (BLUE, KNIGHT0)
    assert cells["d3"] == ()
    assert GAME.score(pos) == (3, 0)
    # The new holder carries one ring, so from e2 it jumps one square: d3 is now empty, f3 has a ring.
    assert {m for m in legal(after(pos, "d4-c4")) if m.startswith("e2")} == {"e2-f3"}


HOLDER_BOARD = """
s . . k . . s
. . . . . s .
. . . s k . .
s . K Ksss . . b
. . s s s . .
. s . . . . .
s . . K . . ksb
"""


def test_holder_jumps_exactly_its_ring_count_over_anything_and_never_steps() -> None:
    pos = from_diagram(HOLDER_BOARD)
    # d4 carries 3 rings; the squares 3 away are a7 (ring, over c5 b6), d7 (enemy, over the ring d5),
    # g7 (ring, over the enemy e5 and the ring f6), a4 (ring, over its own knight c4), g4 (blue ring),
    # a1 (ring, over the rings c3 b2), d1 (its own knight: no) and g1 (enemy holder).  The rings next to
    # it (d5 c3 d3 e3), the enemy next to it (e5) and the rings 2 away (f6 b2) are out of reach.
    jumps = {m for m in legal(pos) if m.startswith("d4")}
    assert jumps == {"d4-a7", "d4xd7", "d4-g7", "d4-a4", "d4-g4", "d4-a1", "d4xg1"}
    # The ring-less c4 steps to its ring neighbours c3 d3 d5; d1 has only empty neighbours.
    assert legal(pos) == jumps | {"c4-c3", "c4-d3", "c4-d5"}


def test_a_knight_never_lands_on_its_own_side() -> None:
    pos = from_diagram(HOLDER_BOARD)
    for text in ("d4-d1", "d4xd1", "c4-d4"):
        with pytest.raises(MoveError, match="your own knight"):
            GAME.parse_move(pos, text)


def test_taking_a_ring_is_compulsory_the_ring_goes_on_top_and_the_square_is_left_empty() -> None:
    pos = from_diagram(HOLDER_BOARD)
    nxt = after(pos, "d4-g4")
    assert GAME.cells(nxt)["g4"] == (SILVER, SILVER, SILVER, BLUE, KNIGHT0)
    assert GAME.cells(nxt)["d4"] == ()
    assert GAME.score(nxt) == (GAME.score(pos)[0] + 3, GAME.score(pos)[1])
    # One move per destination: there is no way to land on g4 and leave its ring there.
    assert [m for m in GAME.legal_texts(pos) if m.endswith("g4")] == ["d4-g4"]
    # With 4 rings the knight now jumps 4: from g4 that is c4 (its own knight), c8/c0 are off the board.
    assert not {m for m in legal(after(nxt, "e5-f6")) if m.startswith("g4")}


def test_capturing_a_holder_takes_all_its_rings_and_sends_it_to_its_owners_hand() -> None:
    pos = from_diagram(HOLDER_BOARD)
    assert GAME.score(pos) == (3, 4)
    nxt = after(pos, "d4xg1")
    # The captured silver and blue go on top of d4's three silvers, in their order.
    assert GAME.cells(nxt)["g1"] == (SILVER, SILVER, SILVER, SILVER, BLUE, KNIGHT0)
    assert GAME.score(nxt) == (7, 0)
    assert hand(nxt) == (0, 1)  # player 1's own knight, not the capturer's
    # Player 1 may drop it on any loose ring (11 of them) - and player 0 has nothing to drop.
    drops = {m for m in legal(nxt) if m.startswith("*")}
    assert drops == {f"*{c}" for c in ("a7", "g7", "f6", "d5", "a4", "g4", "c3", "d3", "e3", "b2", "a1")}
    back = after(nxt, "*d5")
    assert GAME.cells(back)["d5"] == (SILVER, KNIGHT1)
    assert hand(back) == (0, 0)
    assert GAME.score(back) == (7, 1)


def test_capturing_a_ringless_knight_removes_it_for_good() -> None:
    pos = from_diagram(HOLDER_BOARD)
    nxt = after(pos, "d4xd7")
    assert GAME.cells(nxt)["d7"] == (SILVER, SILVER, SILVER, KNIGHT0)
    assert hand(nxt) == (0, 0)
    assert sum(t[-1:] == (KNIGHT1,) for t in GAME.cells(nxt).values()) == 2  # g1 and e5 are left
    assert GAME.score(nxt) == (3, 4)
    # A ring-less capturer stays ring-less: d3xd4 in the step board.
    stepped = after(from_diagram(STEP_BOARD), "d3xd4")
    assert GAME.cells(stepped)["d4"] == (KNIGHT0,)
    assert hand(stepped) == (0, 0)


def test_drops_go_only_onto_loose_rings_and_take_them() -> None:
    pos = from_diagram(HOLDER_BOARD, hands=(1, 0))
    drops = {m for m in legal(pos) if m.startswith("*")}
    # The 11 loose rings; not the empty squares (b7 d1...) nor any knight.
    assert drops == {f"*{c}" for c in ("a7", "g7", "f6", "d5", "a4", "g4", "c3", "d3", "e3", "b2", "a1")}
    with pytest.raises(MoveError, match="no loose ring"):
        GAME.parse_move(pos, "*b7")
    with pytest.raises(MoveError, match="no loose ring"):
        GAME.parse_move(pos, "*e5")
    nxt = after(pos, "*g4")
    assert GAME.cells(nxt)["g4"] == (BLUE, KNIGHT0)
    assert hand(nxt) == (0, 0)
    assert GAME.score(nxt) == (6, 4)
    with pytest.raises(MoveError, match="no knight in hand"):
        GAME.parse_move(from_diagram(HOLDER_BOARD), "*g4")


HEAVY_BOARD = """
s . . . . . s
. . . . . . .
. . . . s . .
. . . Ksssssss . . .
. . s . . . .
. . . . . . .
Kssssss . . . . . s
"""


def test_a_knight_with_seven_rings_never_moves_and_six_rings_cross_the_board() -> None:
    pos = from_diagram(HEAVY_BOARD)
    # a1 (6 rings) reaches a7, g7 and g1.  d4 (7 rings) has every jump off the board and never steps,
    # though e5 and c3 hold rings next to it.
    assert legal(pos) == {"a1-a7", "a1-g7", "a1-g1"}
    with pytest.raises(MoveError, match="can no longer move"):
        GAME.parse_move(pos, "d4-e5")


# --- passing and the end -------------------------------------------------------------------------------

STUCK_BOARD = """
. . . . . . s
. . . . . . .
. . . . . . .
. . . s . . .
. . . k . . .
. . . . . . .
K . . . . . .
"""


def test_pass_is_forced_without_moves_and_illegal_with_them() -> None:
    pos = from_diagram(STUCK_BOARD)
    # a1's neighbours a2 b1 b2 are empty and player 0 has no hand.
    assert GAME.legal_texts(pos) == ["pass"]
    with pytest.raises(MoveError, match="only when no step"):
        GAME.parse_move(GAME.start(), "pass")


def test_two_passes_in_a_row_end_the_game_but_a_move_between_resets_the_count() -> None:
    pos = from_diagram(STUCK_BOARD)
    pos = after(pos, "pass")
    assert legal(pos) == {"d3-d4"}  # d3's only ring neighbour
    pos = after(pos, "d3-d4", "pass")
    assert GAME.outcome(pos) is None  # pass, move, pass: not two in a row
    # d4 now carries one ring and its neighbours are empty: it must pass too, and that ends the game.
    assert GAME.legal_texts(pos) == ["pass"]
    pos = after(pos, "pass")
    assert GAME.legal_moves(pos) == []
    assert GAME.outcome(pos) == Outcome(1, (0, 1))  # g7 was never taken


LAST_RING_BOARD = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. k K . . . .
K s . . . . .
"""


def test_after_player_0_takes_the_last_ring_player_1_gets_exactly_one_more_turn() -> None:
    pos = from_diagram(LAST_RING_BOARD)
    pos = after(pos, "a1-b1")
    assert GAME.outcome(pos) is None
    assert GAME.to_move(pos) == 1
    # b2 may capture b1 (a holder now) or c2 (ring-less); a1 is empty.
    assert legal(pos) == {"b2xb1", "b2xc2"}
    pos = after(pos, "b2xb1")
    # c2 could recapture b1, but the game is over.
    assert GAME.legal_moves(pos) == []
    assert GAME.outcome(pos) == Outcome(1, (0, 1))
    assert hand(pos) == (1, 0)


FAR_KNIGHT_BOARD = """
k . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . K . . . .
K s . . . . .
"""


def test_the_extra_turn_of_player_1_may_be_a_pass_and_still_ends_the_game() -> None:
    # Player 1's only knight stands on a7 with empty neighbours a6 b6 b7.
    pos = after(from_diagram(FAR_KNIGHT_BOARD), "a1-b1")
    assert GAME.legal_texts(pos) == ["pass"]
    pos = after(pos, "pass")
    assert GAME.legal_moves(pos) == []
    assert GAME.outcome(pos) == Outcome(0, (1, 0))


def test_when_player_1_takes_the_last_ring_the_game_ends_at_once() -> None:
    pos = from_diagram(LAST_RING_BOARD, player=1)
    pos = after(pos, "b2-b1")
    # a1 and c2 could both capture b1, but there is no more turn.
    assert GAME.legal_moves(pos) == []
    assert GAME.outcome(pos) == Outcome(1, (0, 1))


POINTS_BOARD = """
. . . . . . kB
. . . . . . s
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
Kssss . . . . . .
"""


def test_the_winner_has_more_points_not_more_rings() -> None:
    pos = from_diagram(POINTS_BOARD, player=1)
    pos = after(pos, "g7-g6")  # the last loose ring, taken by player 1: over
    # Player 0 holds 4 rings worth 4; player 1 holds 2 rings (big blue + silver) worth 6.
    assert GAME.outcome(pos) == Outcome(1, (4, 6))


DRAW_BOARD = """
. . . . . . ksss
. . . . s . .
. . . . . . .
. . . . . . .
. . . . . . .
. . s . . . .
Kb . . . . . .
"""


def test_equal_points_after_two_passes_is_a_draw() -> None:
    pos = from_diagram(DRAW_BOARD)
    # a1 (1 ring) reaches a2 b1 b2: empty.  g7 (3 rings) reaches d7 d4 g4: empty.  c2 and e6 are
    # two squares from them.
    assert GAME.legal_texts(pos) == ["pass"]
    pos = after(pos, "pass")
    assert GAME.legal_texts(pos) == ["pass"]
    pos = after(pos, "pass")
    assert GAME.outcome(pos) == Outcome(None, (3, 3))


def test_score_counts_points_on_the_board_during_the_game() -> None:
    pos = after(GAME.start(), "b2-c3", "b6-b5", "c3-c4")
    # c3 silver (1) then c4 blue (3) for player 0; b5 silver for player 1.
    assert GAME.score(pos) == (4, 1)
    assert GAME.outcome(pos) is None


# --- options -----------------------------------------------------------------------------------------------


def test_empty_steps_lets_ringless_knights_step_onto_empty_squares_only() -> None:
    board = STEP_BOARD.replace(". . . . . . .", "Ks . . . . . .", 1)
    pos = from_diagram(board)
    # a7 carries one ring: its neighbours a6 b6 b7 are empty, so it has no move either way.
    assert legal(pos, EMPTY_STEPS) - legal(pos) == {
        "d3-c2", "d3-d2", "d3-c3", "d3-e3", "e4-e3", "e4-f4", "e4-d5", "e4-e5", "e4-f5",
    }  # fmt: skip
    assert legal(pos) <= legal(pos, EMPTY_STEPS)
    with pytest.raises(MoveError, match="write d3-c2"):
        EMPTY_STEPS.parse_move(pos, "d3xc2")
    with pytest.raises(MoveError, match="a holder lands only"):
        EMPTY_STEPS.parse_move(pos, "a7-a6")
    nxt = after(pos, "d3-c2", game=EMPTY_STEPS)
    assert GAME.cells(nxt)["c2"] == (KNIGHT0,)
    assert GAME.score(nxt) == GAME.score(pos)
    # Drops still need a loose ring.
    dropped = from_diagram(board, hands=(1, 0))
    assert {m for m in legal(dropped, EMPTY_STEPS) if m.startswith("*")} == {"*c4", "*e2", "*f3"}


def test_empty_steps_does_not_change_the_start() -> None:
    assert legal(EMPTY_STEPS.start(), EMPTY_STEPS) == legal(GAME.start())


def test_blue_parity_starts_the_knights_on_the_other_colour() -> None:
    pos = BLUE_PARITY.start()
    cells = BLUE_PARITY.cells(pos)
    knights = {name: things[0].colour for name, things in cells.items() if things[0].kind == "knight"}
    assert knights == {
        "b1": 0, "d1": 0, "f1": 0, "a2": 0, "c2": 0, "e2": 0, "g2": 0,
        "b7": 1, "d7": 1, "f7": 1, "a6": 1, "c6": 1, "e6": 1, "g6": 1,
    }  # fmt: skip
    assert cells["d4"] == (BIGBLUE,) and cells["a4"] == (BLUE,) and cells["a1"] == (SILVER,)
    # By hand: b1 d1 f1 reach 3 rings each; a2 and g2 four; c2 and e2 six.  3*3 + 4*2 + 6*2 = 29.
    assert len(legal(pos, BLUE_PARITY)) == 29


def test_options_are_chosen_through_the_registry_and_unknown_ones_refused() -> None:
    game = registry.make("kingofrings", ["blue_parity", "empty_steps"])
    assert game.chosen == frozenset({"blue_parity", "empty_steps"})
    with pytest.raises(ValueError, match="unknown option"):
        registry.make("kingofrings", ["bogus"])


# --- notation --------------------------------------------------------------------------------------------


def test_notation_of_each_kind_of_move() -> None:
    pos = from_diagram(HOLDER_BOARD, hands=(1, 0))
    for text in ("d4-a7", "d4xg1", "*d5", "c4-c3"):
        assert GAME.format_move(pos, GAME.parse_move(pos, text)) == text
    stuck = from_diagram(STUCK_BOARD)
    assert GAME.format_move(stuck, GAME.parse_move(stuck, "pass")) == "pass"


@pytest.mark.parametrize(
    ("text", "canonical"), [(" B2-C3 ", "b2-c3"), ("D4XG1", "d4xg1"), ("*D5", "*d5"), ("PASS", "pass")]
)
def test_normalise_accepts_case_and_spaces(text: str, canonical: str) -> None:
    assert GAME.normalise_move_text(text) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h8-a1", "no cell 'h8'"),
        ("a1-a0", "no cell 'a0'"),
        ("*z9", "no cell 'z9'"),
        ("b2c3", "expected"),
        ("b2/c3", "expected"),
        ("", "expected"),
        ("*", "expected"),
        ("b2-b2", "leave its cell"),
    ],
)
def test_malformed_moves_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        GAME.normalise_move_text(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("b2-c4", "steps to a neighbouring square only"),
        ("a2-a3", "no knight of player 0 on a2"),
        ("a7-a6", "no knight of player 0 on a7"),
        ("b2xc3", "loose ring, not a knight: write b2-c3"),
        ("a1-b2", "your own knight"),
        ("*d4", "no knight in hand"),
    ],
)
def test_illegal_moves_say_why(text: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        GAME.parse_move(GAME.start(), text)


def test_illegal_jumps_and_landings_say_why() -> None:
    pos = from_diagram(HOLDER_BOARD)
    with pytest.raises(MoveError, match="jumps exactly that far"):
        GAME.parse_move(pos, "d4-d5")
    with pytest.raises(MoveError, match="write d4xd7"):
        GAME.parse_move(pos, "d4-d7")
    with pytest.raises(MoveError, match="is empty"):
        GAME.parse_move(from_diagram(STEP_BOARD), "d3-c2")
    over = after(from_diagram(LAST_RING_BOARD, player=1), "b2-b1")
    with pytest.raises(MoveError, match="game is over"):
        GAME.parse_move(over, "a1xb1")


# --- diagrams, cells and rendering -------------------------------------------------------------------------


def test_diagram_round_trip_and_bad_diagrams() -> None:
    pos = from_diagram(HOLDER_BOARD)
    assert diagram(pos) == HOLDER_BOARD.strip()
    assert KingOfRings.from_diagram(HOLDER_BOARD) == pos
    with pytest.raises(ValueError, match="7 rows"):
        from_diagram(". . .")
    with pytest.raises(ValueError, match="unknown token"):
        from_diagram(HOLDER_BOARD.replace("ksb", "kx"))
    with pytest.raises(ValueError, match="more than 7 knights"):
        from_diagram(HOLDER_BOARD, hands=(5, 0))
    with pytest.raises(ValueError, match="final turn"):
        from_diagram(HOLDER_BOARD, player=1, final_turn=True)
    with pytest.raises(ValueError, match="more than 1 ring_bigblue"):
        from_diagram(HOLDER_BOARD.replace("ksb", "kBB"))


def test_a_board_without_loose_rings_is_over_unless_it_is_player_1s_final_turn() -> None:
    board = LAST_RING_BOARD.replace("K s", "Ks .")
    assert GAME.outcome(from_diagram(board, player=1)) == Outcome(0, (1, 0))
    assert GAME.legal_texts(from_diagram(board, player=1, final_turn=True)) == ["b2xa1", "b2xc2"]


def test_render_shows_ring_counts_hands_and_score() -> None:
    text = GAME.render(from_diagram(HOLDER_BOARD, hands=(1, 0)))
    lines = text.splitlines()
    assert lines[3].split() == ["4", "s", ".", "K", "K3", ".", ".", "b"]
    assert "knights in hand 1/0" in lines[-1] and "score 3-4" in lines[-1]


# --- invariants over random games -------------------------------------------------------------------------


def naive_legal(game: KingOfRings, pos: Position) -> set[str]:
    """The rules read straight off cells(): an independent check of the table-driven generator."""
    me = game.to_move(pos)
    if game.outcome(pos) is not None:
        return set()
    cells = game.cells(pos)
    geo = game.geometry
    out: set[str] = set()
    for name, things in cells.items():
        if not things or things[-1] != Thing("knight", me):
            continue
        rings = len(things) - 1
        q, r = geo.coords[geo.cell(name)]
        for dq, dr in SQUARE_DIRECTIONS:
            dist = max(rings, 1)
            dest = geo.at((q + dq * dist, r + dr * dist))
            if dest is None:
                continue
            there = cells[geo.names[dest]]
            if not there:
                if rings == 0 and "empty_steps" in game.chosen:
                    out.add(f"{name}-{geo.names[dest]}")
            elif there[-1].kind == "knight":
                if there[-1].colour != me:
                    out.add(f"{name}x{geo.names[dest]}")
            else:
                out.add(f"{name}-{geo.names[dest]}")
    if game.hands(pos)[me]["knight"]:
        out |= {
            f"*{name}" for name, things in cells.items() if len(things) == 1 and things[0].kind != "knight"
        }
    return out or {"pass"}


def check_position(game: KingOfRings, pos: Position) -> None:
    moves = game.legal_moves(pos)
    assert (not moves) == (game.outcome(pos) is not None)
    assert set(game.legal_texts(pos)) == naive_legal(game, pos)
    for move in moves:
        text = game.format_move(pos, move)
        assert game.normalise_move_text(text) == text
        assert game.parse_move(pos, text) == move
    # The physical board: 35 rings always (28 silver, 6 blue, 1 big blue); knights' stacks make the score.
    cells = game.cells(pos)
    things = [t for stack in cells.values() for t in stack]
    assert (things.count(SILVER), things.count(BLUE), things.count(BIGBLUE)) == (28, 6, 1)
    worth = {SILVER: 1, BLUE: 3, BIGBLUE: 5}
    held = [0, 0]
    for stack in cells.values():
        if stack and stack[-1].kind == "knight":
            assert all(t.kind != "knight" for t in stack[:-1])
            held[stack[-1].colour or 0] += sum(worth[t] for t in stack[:-1])
    assert tuple(held) == game.score(pos)
    loose = sum(worth[s[0]] for s in cells.values() if len(s) == 1 and s[0].kind != "knight")
    assert sum(held) + loose == 51
    for player in (0, 1):
        on_board = sum(s[-1:] == (Thing("knight", player),) for s in cells.values())
        assert on_board + game.hands(pos)[player]["knight"] <= 7
    # Equal positions built another way are equal and have equal keys.
    rebuilt = from_diagram(diagram(pos), pos.player, pos.hands, pos.passes, pos.final_turn)
    assert rebuilt == pos and game.key(rebuilt) == game.key(pos)


def random_game(game: KingOfRings, seed: int, limit: int) -> list[Position]:
    rng = random.Random(seed)
    positions = [game.start()]
    while len(positions) <= limit:
        moves = game.legal_moves(positions[-1])
        if not moves:
            break
        before = positions[-1]
        copy = from_diagram(diagram(before), before.player, before.hands, before.passes, before.final_turn)
        positions.append(game.play(before, rng.choice(moves)))
        assert before == copy  # play never changes its argument
    return positions


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_keep_every_invariant(seed: int) -> None:
    positions = random_game(GAME, seed, limit=200)
    # Without empty steps every move takes a ring or a knight, so games are short and always end.
    assert GAME.outcome(positions[-1]) is not None
    for pos in positions:
        check_position(GAME, pos)
    final = GAME.outcome(positions[-1])
    assert final is not None and final.score == GAME.score(positions[-1])


@settings(max_examples=examples(10), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["empty_steps", "blue_parity"]))
def test_random_games_with_an_option_keep_every_invariant(seed: int, option: str) -> None:
    game = KingOfRings(frozenset({option}))
    for pos in random_game(game, seed, limit=150):
        check_position(game, pos)
