"""The candidates a committed position offers, asked of ``Expectations`` directly, by tables from RULES.md.

Take-backs go back at most two plies by default, and a board set back to the start is a new game; while the
AI's move waits, its candidate comes first and each line after it is that move and one reply.  Line numbers
are the game's own move order: the replies rows below name the first two (c1 and d1) because a line number
must never be taken for the waiting move itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import FrozenInstanceError

import pytest

from engines.physical import Thing
from host.tracking.candidates import Expectations, Lines, Route
from tests.tracking.test_guidance import DESDEMONA, FLIP_FOUR, KING_OF_RINGS, camera, history
from tests.tracking.test_tracker import hall, reading_of, reed
from tests.tracking.test_verdicts import waiting

RING, BLUE_RING = Thing("ring_silver"), Thing("ring_blue")
WHITE_KNIGHT, BLACK_KNIGHT = Thing("knight", 0), Thing("knight", 1)


def names(cells: Iterable[int]) -> set[str]:
    return {DESDEMONA.geometry.names[i] for i in cells}


@pytest.mark.parametrize(
    ("old", "new", "turned"),
    [
        ((RING, WHITE_KNIGHT), (RING, BLACK_KNIGHT), True),  # the knight on its ring turned over
        ((RING, BLACK_KNIGHT), (RING, WHITE_KNIGHT), True),
        ((WHITE_KNIGHT,), (BLACK_KNIGHT,), True),
        ((RING, WHITE_KNIGHT), (RING, WHITE_KNIGHT), False),  # as it was
        ((RING, WHITE_KNIGHT), (BLUE_RING, BLACK_KNIGHT), False),  # the ring under it changed too
        ((RING, WHITE_KNIGHT), (WHITE_KNIGHT, BLACK_KNIGHT), False),
        ((RING,), (BLUE_RING,), False),  # rings are not reversible
        ((), (), False),  # an empty cell
    ],
)
def test_only_a_reversible_top_object_showing_its_other_side_is_turned(
    old: tuple[Thing, ...], new: tuple[Thing, ...], turned: bool
) -> None:
    # The King of Rings table of test_guidance whose knights are declared reversible.
    expect = Expectations(
        KING_OF_RINGS, camera, "empty", [KING_OF_RINGS.start()], reversible=frozenset({"knight"})
    )
    assert expect.turned(old, new) is turned


@pytest.mark.parametrize(
    ("plies", "undoing"),
    [
        (1, [(Route.TAKE_BACK, 1)]),  # taking back the one ply is the start: no new game besides
        (2, [(Route.TAKE_BACK, 1), (Route.TAKE_BACK, 2)]),
        (3, [(Route.TAKE_BACK, 1), (Route.TAKE_BACK, 2), (Route.NEW_GAME, 3)]),
    ],
)
def test_two_plies_may_be_taken_back_and_the_start_beyond_them_is_a_new_game(
    plies: int, undoing: list[tuple[Route, int]]
) -> None:
    positions = history(DESDEMONA, ["a4-a6", "a7-b7/b8", "g1-h1/i1"][:plies])
    expect = Expectations(DESDEMONA, reed, "empty", positions)
    assert [(c.route, c.back) for c in expect.undoing] == undoing


def test_a_board_set_back_to_the_start_after_three_plies_is_a_new_game() -> None:
    # Black a4-a6, White a7-b7/b8, Black g1-h1/i1: the start has the queens back and the two shots off.
    positions = history(DESDEMONA, ["a4-a6", "a7-b7/b8", "g1-h1/i1"])
    expect = Expectations(DESDEMONA, reed, "empty", positions)
    start = reading_of(DESDEMONA, DESDEMONA.start(), reed)
    differing = expect.differing(start)
    assert names(differing) == {"a4", "a6", "a7", "b7", "b8", "g1", "h1", "i1"}
    (found,) = expect.exact(start, differing)
    assert found.route is Route.NEW_GAME and found.back == 3 and found.changed == frozenset(differing)


@pytest.mark.parametrize("reply", ["c1", "d1"])  # lines 0 and 1
def test_each_reply_after_the_ais_waiting_move_is_a_line_of_its_own(reply: str) -> None:
    # Flip Four: after Red's c3 the AI (Yellow) places b2 and d4; the board shows them and Red's reply.
    track = waiting(FLIP_FOUR, ["c3"], "b2,d4", hall)
    expect = track.expect
    reading = reading_of(
        FLIP_FOUR, history(FLIP_FOUR, ["c3"])[-1], hall, b2="south", d4="south", **{reply: "north"}
    )
    found = expect.exact(reading, expect.differing(reading))
    assert [(c.label, c.route, c.back) for c in found] == [(f"b2,d4 {reply}", Route.MOVES, 0)]


def test_the_ais_waiting_move_comes_first_among_the_lines_that_change_its_cells_and_more() -> None:
    track = waiting(FLIP_FOUR, ["c3"], "b2,d4", hall)
    expect, index = track.expect, FLIP_FOUR.geometry.index
    ai_done = FLIP_FOUR.play(expect.position, expect.pending)
    replies = [
        m for m in FLIP_FOUR.legal_moves(ai_done) if index["c1"] in FLIP_FOUR.changed_cells(ai_done, m)
    ]
    want = ["b2,d4 " + " ".join(FLIP_FOUR.line_texts(ai_done, (m,))) for m in replies]
    assert "b2,d4 c1" in want and "b2,d4 c1,d1" in want  # one piece placed or two (RULES.md)
    found = expect.covering({index["b2"], index["d4"], index["c1"]})
    assert [c.label for c in found] == ["b2,d4", *want]
    # A piece of Red's lifted or put elsewhere first: the replies that change that cell, the AI's move being
    # no change there.
    assert [c.label for c in expect.lines(expect.cell_moves(index["c1"]).every)] == want


def test_the_candidates_of_given_moves_are_those_moves_played() -> None:
    track = waiting(FLIP_FOUR, ["c3"], "b2,d4", hall)
    expect = track.expect
    ai_done = FLIP_FOUR.play(expect.position, expect.pending)
    reply = FLIP_FOUR.parse_move(ai_done, "a3")
    after = FLIP_FOUR.play(ai_done, reply)
    both = expect.candidate_for((expect.pending, reply))
    assert both.label == "b2,d4 a3"
    index = FLIP_FOUR.geometry.index
    assert both.changed == {index["b2"], index["d4"], index["a3"]}
    assert both.after[index["a3"]] == tuple(FLIP_FOUR.cells(after)["a3"])
    assert expect.candidate_for((expect.pending,)).after == expect.pending_candidate.after


def test_the_lines_that_change_two_cells_are_the_moves_between_them() -> None:
    # Desdemona after a4-a6: the lines that change a7 and b7 are that queen's moves to b7 or
    # shooting b7, no other.
    positions = history(DESDEMONA, ["a4-a6"])
    expect = Expectations(DESDEMONA, reed, "empty", positions)
    index, pos = DESDEMONA.geometry.index, positions[-1]
    moves = {" ".join(DESDEMONA.line_texts(pos, (m,))) for m in DESDEMONA.legal_moves(pos)}
    want = {
        text
        for text in moves
        if text.startswith("a7-b7/") or (text.startswith("a7-") and text.endswith("/b7"))
    }
    labels = [c.label for c in expect.covering({index["a7"], index["b7"]})]
    assert len(labels) == len(want) > 1 and set(labels) == want


def test_the_moves_changed_cells_are_worked_out_on_demand() -> None:
    expect = Expectations(DESDEMONA, reed, "empty", [DESDEMONA.start()])
    assert expect.ready is False
    expect.build()
    assert expect.ready is True


def test_a_cells_sorted_moves_are_kept_unchanged() -> None:
    expect = Expectations(DESDEMONA, reed, "empty", [DESDEMONA.start()])
    moves = expect.cell_moves(DESDEMONA.geometry.index["a4"])
    with pytest.raises(FrozenInstanceError):
        moves.every = ()  # type: ignore[misc]


def test_a_reading_of_another_size_is_an_error_not_a_shorter_comparison() -> None:
    expect = Expectations(DESDEMONA, reed, "empty", [DESDEMONA.start()])
    reading = reading_of(DESDEMONA, DESDEMONA.start(), reed)
    assert expect.differing(reading) == []
    with pytest.raises(ValueError):
        expect.differing(reading[:-1])


def test_lines_give_the_candidates_of_their_numbers_one_at_a_time_or_a_slice() -> None:
    """``Lines`` stands for the candidates of some line numbers without making them: an index makes one,
    a slice the ones it covers, each the candidate ``Expectations.lines`` makes for that number."""
    expect = Expectations(DESDEMONA, camera, "empty", [DESDEMONA.start()])
    numbers = [5, 0, 17, 3]
    lines = Lines(expect, numbers)
    made = expect.lines(numbers)
    assert len(lines) == 4 and [c.moves for c in lines] == [c.moves for c in made]
    assert lines[2].moves == made[2].moves and lines[-1].moves == made[3].moves
    assert [c.moves for c in lines[1:3]] == [made[1].moves, made[2].moves]
