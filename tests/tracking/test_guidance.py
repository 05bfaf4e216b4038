"""How the tracker tells a player to put a board right, by tables: readings, and steps worked out by hand.

Positions come from RULES.md. Some rows use a sensor that sees every object of a stack (``camera``) and a
King of Rings table whose knights are declared reversible: no board of the project has a reversible object on
top of another, but the tracker takes the reversible kinds as given and must turn over the top object only,
keeping what it stands on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engines.desdemona.rules import Desdemona
from engines.flipfour.rules import FlipFour
from engines.game import Game
from engines.kingofrings.rules import KingOfRings
from engines.physical import Thing
from host.tracking.candidates import Expectations
from host.tracking.evidence import Evidence
from host.tracking.plan import Step
from host.tracking.tracker import Seen, Tracker
from tests.tracking.test_tracker import hall, reading_of, reed, touches, tracker

DESDEMONA, KING_OF_RINGS, FLIP_FOUR = Desdemona(), KingOfRings(), FlipFour()
BLACK_STONE, WHITE_STONE = Thing("stone", 0), Thing("stone", 1)
BLACK_QUEEN, WHITE_QUEEN = Thing("queen", 0), Thing("queen", 1)
KNIGHT = Thing("knight", 0)


def camera(stack: tuple[Thing, ...]) -> str:
    """A sensor that sees every object of a stack, bottom first, and the side each shows."""
    return "/".join(t.kind + ("" if t.colour is None else str(t.colour)) for t in stack) or "empty"


def history(game: Game[Any, Any], texts: Sequence[str]) -> list[Any]:
    positions = [game.start()]
    for text in texts:
        positions.append(game.play_texts([text], positions[-1]))
    return positions


def named(game: Game[Any, Any], steps: Sequence[Step[int]]) -> list[tuple[str, str | None, str | None, Any]]:
    names = game.geometry.names
    return [
        (
            s.do.name,
            None if s.source is None else names[s.source],
            None if s.target is None else names[s.target],
            s.things,
        )
        for s in steps
    ]


def knights_reversible(positions: list[Any]) -> Tracker[str]:
    expect = Expectations(KING_OF_RINGS, camera, "empty", positions, None, reversible=frozenset({"knight"}))
    return Tracker(expect)


@pytest.mark.parametrize(
    ("plies", "cell", "shows", "stone"), [(2, "e5", "south", BLACK_STONE), (3, "d2", "north", WHITE_STONE)]
)
def test_a_stone_showing_the_wrong_side_is_turned_over(
    plies: int, cell: str, shows: str, stone: Thing
) -> None:
    # a4-a6, White's j4-j5/e5 shoots a black stone on e5, Black's j7-j8/d2 a white one on d2; a Hall board
    # then reads the stone of the player to move with the other side up (no move of theirs turns it).
    positions = history(DESDEMONA, ["a4-a6", "j4-j5/e5", "j7-j8/d2"][:plies])
    reading = reading_of(DESDEMONA, positions[-1], hall, **{cell: shows})
    verdict = tracker(DESDEMONA, positions, hall).observe(reading, touches(DESDEMONA, (cell, 0, None)), 500)
    assert verdict.seen is Seen.MISMATCH
    assert named(DESDEMONA, verdict.steps) == [("TURN", cell, cell, (stone,))]


def test_only_the_top_object_of_a_stack_is_turned_over() -> None:
    # a1-b1 and then b1-c2 (a holder of one ring jumps one square): the knight stands on the two silver rings
    # it took, and shows its other side.
    positions = history(KING_OF_RINGS, ["a1-b1", "g7-g6", "b1-c2"])
    reading = reading_of(KING_OF_RINGS, positions[-1], camera, c2="ring_silver/ring_silver/knight1")
    verdict = knights_reversible(positions).observe(reading, touches(KING_OF_RINGS, ("c2", 0, None)), 500)
    assert verdict.seen is Seen.MISMATCH
    assert named(KING_OF_RINGS, verdict.steps) == [("TURN", "c2", "c2", (KNIGHT,))]


def test_a_move_made_with_its_piece_the_wrong_side_up_is_put_right_by_a_turn() -> None:
    # a1-b1 made, the knight put down on b1's ring showing its other side: turn it, do not take the move back.
    reading = reading_of(KING_OF_RINGS, KING_OF_RINGS.start(), camera, a1="empty", b1="ring_silver/knight1")
    evidence = touches(KING_OF_RINGS, ("a1", 0, None), ("b1", 200, None))
    verdict = knights_reversible(history(KING_OF_RINGS, [])).observe(reading, evidence, 800)
    assert verdict.seen is Seen.MISMATCH
    assert named(KING_OF_RINGS, verdict.steps) == [("TURN", "b1", "b1", (KNIGHT,))]


def test_a_queen_of_the_wrong_colour_is_no_stone_to_turn() -> None:
    # Black's first move a4-a6, but a6 reads White: queens are not reversible, so the queen comes back to a4
    # and whatever stands on a6 comes off (a white queen and a white stone read alike: it is not named).
    reading = reading_of(DESDEMONA, DESDEMONA.start(), hall, a4="empty", a6="south")
    evidence = touches(DESDEMONA, ("a4", 0, None), ("a6", 200, None))
    verdict = tracker(DESDEMONA, [DESDEMONA.start()], hall).observe(reading, evidence, 800)
    assert verdict.seen is Seen.MISMATCH
    assert named(DESDEMONA, verdict.steps) == [
        ("PUT", None, "a4", (BLACK_QUEEN,)),
        ("REMOVE", "a6", None, ()),
    ]


@pytest.mark.parametrize(
    ("game", "model", "cell", "value", "named_as"),
    [
        (FLIP_FOUR, hall, "c3", "north", (Thing("piece", 0),)),  # only a red-up piece reads north
        (DESDEMONA, hall, "e5", "north", ()),  # a black queen or a black stone
        (KING_OF_RINGS, reed, "b1", "magnet", ()),  # a knight of either side, on the ring that stays
    ],
)
def test_what_stands_where_nothing_should_is_taken_off_named_if_only_one_object_reads_so(
    game: Game[Any, Any], model: Any, cell: str, value: str, named_as: tuple[Thing, ...]
) -> None:
    """A ring under a reed switch reads as an empty square: the magnet on it is the extra object, and the
    ring is neither taken off nor put back."""
    reading = reading_of(game, game.start(), model, **{cell: value})
    steps = tracker(game, [game.start()], model).guidance(reading)
    assert named(game, steps) == [("REMOVE", cell, None, named_as)]


@pytest.mark.parametrize(
    ("done", "left"),
    [
        ({}, [("MOVE", "a7", "d4", (WHITE_QUEEN,)), ("PUT", None, "f4", (WHITE_STONE,))]),
        (
            {"a7": "empty", "d4": "magnet"},
            [("PUT", None, "f4", (WHITE_STONE,))],
        ),  # the queen is there already
    ],
)
def test_the_way_to_the_ais_move_asks_for_the_turns_the_sensors_cannot_see(
    done: dict[str, str], left: list[Any]
) -> None:
    # White's capture a7-d4xf4 turns the black stone on e4 (the shot of j4-e9/e4); on a reed board e4 reads
    # the same either side, so the turn is asked for after what the board still lacks of the queen's move
    # and the stone put on f4.
    positions = history(DESDEMONA, ["g1-g4", "j4-e9/e4", "j7-j8/d2"])
    track = tracker(DESDEMONA, positions, reed)
    capture = track.expect.candidate_for((DESDEMONA.parse_move(positions[-1], "a7-d4xf4"),))
    reading = reading_of(DESDEMONA, positions[-1], reed, **done)
    steps = track.guidance_to(capture, reading, Evidence(), 0)
    assert named(DESDEMONA, steps) == [*left, ("TURN", "e4", "e4", (WHITE_STONE,))]


def test_a_piece_from_the_hand_may_go_wherever_a_legal_move_puts_one() -> None:
    # Flip Four starts empty and Red places one piece anywhere: all 19 points, for a red-up piece only.
    start = FLIP_FOUR.start()
    track = tracker(FLIP_FOUR, [start], hall)
    reading = reading_of(FLIP_FOUR, start, hall)
    assert track.placements(reading, Evidence(), 0, Thing("piece", 0)) == frozenset(range(19))
    assert track.placements(reading, Evidence(), 0, Thing("piece", 1)) == frozenset()


def test_a_knight_in_the_hand_with_its_ring_may_go_where_its_jump_lands() -> None:
    # After a1-b1 the knight on b1 holds one ring: it jumps exactly one square, onto a loose ring or an enemy
    # (RULES.md): a2 and c2; not a1 (emptied by its step), nor c1 and b2 (its own knights). Lifted with its
    # ring, it is put down with it, the knight on top.
    positions = history(KING_OF_RINGS, ["a1-b1", "g7-g6"])
    reading = reading_of(KING_OF_RINGS, positions[-1], reed, b1="empty")
    found = tracker(KING_OF_RINGS, positions, reed).placements(
        reading, touches(KING_OF_RINGS, ("b1", 0, None)), 500, KNIGHT
    )
    assert {KING_OF_RINGS.geometry.names[i] for i in found} == {"a2", "c2"}


def test_putting_back_after_a_take_back_guides_what_else_is_out_of_place_too() -> None:
    # a4-a6 taken back: the queen goes home to a4, and a stone left on e5 comes off.
    index = DESDEMONA.geometry.index
    away = {index["a4"]: (), index["a6"]: (BLACK_QUEEN,)}
    reading = reading_of(DESDEMONA, DESDEMONA.play_texts(["a4-a6"]), reed, e5="magnet")
    steps = tracker(DESDEMONA, [DESDEMONA.start()], reed).restore(away, reading, Evidence(), 0)
    assert named(DESDEMONA, steps) == [("MOVE", "a6", "a4", (BLACK_QUEEN,)), ("REMOVE", "e5", None, ())]


def test_putting_back_a_capture_asks_for_the_captured_knight_only_once_its_square_is_free() -> None:
    # Black's knight gathers silver rings on b1 and c2 and the blue one on a4 (a holder of k rings jumps k
    # squares), then jumps three squares onto White's knight on a7, which had no ring and leaves the game.
    # Taken back: first the knight with its three rings back to a4; White's knight goes on a7 once it is free.
    positions = history(KING_OF_RINGS, ["b2-b1", "e7-e6", "b1-c2", "c7-b7", "c2-a4", "e6-e5", "a4xa7"])
    index = KING_OF_RINGS.geometry.index
    carried = (Thing("ring_silver"), Thing("ring_silver"), Thing("ring_blue"), KNIGHT)
    away = {index["a4"]: (), index["a7"]: carried}
    track = tracker(KING_OF_RINGS, positions[:-1], reed)
    steps = track.restore(away, reading_of(KING_OF_RINGS, positions[-1], reed), Evidence(), 0)
    assert named(KING_OF_RINGS, steps) == [("MOVE", "a7", "a4", carried)]
