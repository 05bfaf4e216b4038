"""The tracker's verdicts where the evidence or a waiting AI move decides them, by tables worked out by hand.

Positions from RULES.md; touches in milliseconds, as ``Evidence`` keeps them (a touch is a cell off its
committed reading; 70 ms counts as a hand, 80 ms makes it sure, evidence.py).
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from engines.physical import Thing
from engines.table import Role
from host.tracking.candidates import Expectations
from host.tracking.evidence import Evidence
from host.tracking.plan import Do
from host.tracking.tracker import Seen, Tracker
from tests.tracking.test_guidance import DESDEMONA, FLIP_FOUR, KING_OF_RINGS, WHITE_STONE, history, named
from tests.tracking.test_tracker import KOR, hall, kor_before_capture, reading_of, reed, touches, tracker

# White to move: a7-d4xf4 puts a white stone on f4 and turns the black stone on e4 (shot there by j4-e9/e4),
# which a reed board cannot see: only a touch on e4 tells the capture from the queen move with a shot on f4.
CAPTURE_BEFORE = ["g1-g4", "j4-e9/e4", "j7-j8/d2"]
CAPTURED = {"a7": "empty", "d4": "magnet", "f4": "magnet"}
HANDS = (("a7", 0, None), ("d4", 100, None), ("f4", 200, None))


@pytest.mark.parametrize(
    ("e4", "seen"),
    [
        ([(300, 400)], Seen.MATCH),  # a hand on e4, 100 ms: sure
        ([(300, 370)], Seen.CONFIRM),  # exactly the 70 ms of a hand, under the sure 80: Confirm
        ([(300, 369)], Seen.PROGRESS),  # a knock: the stone is not turned yet
        ([(300, 400), (500, 530)], Seen.MATCH),  # turned by a hand, knocked afterwards: still turned
    ],
)
def test_a_turn_the_sensors_cannot_see_is_made_by_a_touch_of_a_hand(
    e4: list[tuple[int, int]], seen: Seen
) -> None:
    positions = history(DESDEMONA, CAPTURE_BEFORE)
    reading = reading_of(DESDEMONA, positions[-1], reed, **CAPTURED)
    evidence = touches(DESDEMONA, *HANDS, *(("e4", start, end) for start, end in e4))
    verdict = tracker(DESDEMONA, positions, reed).observe(reading, evidence, 1000)
    assert verdict.seen is seen
    if seen is not Seen.PROGRESS:
        assert verdict.match is not None and verdict.match.label == "a7-d4xf4"


def waiting(game: Any, texts: list[str], ai_move: str, model: Any) -> Tracker[str]:
    positions = history(game, texts)
    pending = game.parse_move(positions[-1], ai_move)
    reversible = game.table.kinds(Role.REVERSIBLE)
    return Tracker(Expectations(game, model, "empty", positions, pending, reversible=reversible))


def test_the_ais_move_made_by_hand_is_taken_though_the_players_reply_could_follow() -> None:
    # Flip Four: after Red's c3 the AI (Yellow) places b2 and d4. The board showing them is that move, whole:
    # Red's reply would be another turn, not a longer form of this one.
    track = waiting(FLIP_FOUR, ["c3"], "b2,d4", hall)
    reading = reading_of(FLIP_FOUR, history(FLIP_FOUR, ["c3"])[-1], hall, b2="south", d4="south")
    verdict = track.observe(reading, touches(FLIP_FOUR, ("b2", 0, 200), ("d4", 300, 500)), 1000)
    assert verdict.seen is Seen.MATCH
    assert verdict.match is not None and verdict.match.label == "b2,d4"


def test_the_ais_queen_lifted_shows_its_one_landing_and_what_is_left_of_its_move() -> None:
    # Desdemona: the AI (White) plays a7-b7/b8 after a4-a6. Its queen lifted from a7 may go only to b7, and
    # the move still wants the queen put on b7 and then the black stone of the shot on b8.
    track = waiting(DESDEMONA, ["a4-a6"], "a7-b7/b8", reed)
    reading = reading_of(DESDEMONA, history(DESDEMONA, ["a4-a6"])[-1], reed, a7="empty")
    verdict = track.observe(reading, touches(DESDEMONA, ("a7", 0, None)), 500)
    names, index = DESDEMONA.geometry.names, DESDEMONA.geometry.index
    assert verdict.seen is Seen.PROGRESS
    assert {names[a]: {names[b] for b in bs} for a, bs in verdict.lifted.items()} == {"a7": {"b7"}}
    assert [(s.do, s.target) for s in verdict.todo] == [(Do.PUT, index["b7"]), (Do.PUT, index["b8"])]
    assert verdict.todo[1].things[0].colour == 0  # a shot is the opponent's colour: Black


def test_no_evidence_is_no_proof() -> None:
    positions = history(DESDEMONA, CAPTURE_BEFORE)
    reading = reading_of(DESDEMONA, positions[-1], reed, **CAPTURED)
    assert tracker(DESDEMONA, positions, reed).observe(reading, Evidence(), 1000).seen is Seen.PROGRESS


@pytest.mark.parametrize(
    ("yellow", "lands"),
    [
        ("d3", "e3"),  # d3 after c3 in the board's order
        ("b3", "a3"),  # b3 before c3: a cell only turned comes first
    ],
)
def test_a_piece_lifted_while_the_one_it_jumps_is_turned_shows_where_it_lands(
    yellow: str, lands: str
) -> None:
    # Flip Four, Red c3 and Yellow next to it; Red's c3 jumps that piece (turning it red) and lands beyond it,
    # its only move (its only neighbour with a piece). The jumped piece turned and c3 lifted: the piece in the
    # hand goes there.
    positions = history(FLIP_FOUR, ["c3", yellow])
    reading = reading_of(FLIP_FOUR, positions[-1], hall, **{"c3": "empty", yellow: "north"})
    evidence = touches(FLIP_FOUR, ("c3", 0, None), (yellow, 100, None))
    verdict = tracker(FLIP_FOUR, positions, hall).observe(reading, evidence, 1000)
    names = FLIP_FOUR.geometry.names
    assert verdict.seen is Seen.PROGRESS
    assert {names[a]: {names[b] for b in bs} for a, bs in verdict.lifted.items()} == {"c3": {lands}}


def test_a_stone_put_down_the_wrong_side_up_in_a_capture_is_turned_over() -> None:
    # White's a7-d4xf4 made on a Hall board with e4 turned white, but the new stone on f4 showing black: the
    # capture with f4 turned, not the shot on f4 (which would leave e4 black), nor the whole move taken back.
    positions = history(DESDEMONA, CAPTURE_BEFORE)
    reading = reading_of(DESDEMONA, positions[-1], hall, a7="empty", d4="south", e4="south", f4="north")
    evidence = touches(DESDEMONA, ("a7", 0, None), ("d4", 100, None), ("f4", 200, None), ("e4", 300, None))
    verdict = tracker(DESDEMONA, positions, hall).observe(reading, evidence, 1000)
    assert verdict.seen is Seen.MISMATCH
    assert named(DESDEMONA, verdict.steps) == [("TURN", "f4", "f4", (WHITE_STONE,))]


def test_a_verdict_is_a_value() -> None:
    verdict = tracker(DESDEMONA, [DESDEMONA.start()]).observe(
        reading_of(DESDEMONA, DESDEMONA.start()), Evidence(), 0
    )
    with pytest.raises(FrozenInstanceError):
        verdict.seen = Seen.MISMATCH  # type: ignore[misc]


@pytest.mark.parametrize(
    ("a3", "seen", "label", "steps"),
    [
        # Red's reply begun with a3: Red may place a second piece, so Confirm.
        ("north", Seen.CONFIRM, "b2,d4 a3", []),
        # a3 put down yellow side up: turn it (the AI's move, which the board shows, needs no turn and is no
        # answer by itself).
        ("south", Seen.MISMATCH, None, [("TURN", "a3", "a3", (Thing("piece", 0),))]),
    ],
)
def test_the_players_reply_after_the_ais_move_made_by_hand(
    a3: str, seen: Seen, label: str | None, steps: list[Any]
) -> None:
    # Flip Four: after Red's c3 the AI (Yellow) plays b2,d4, which a hand has made on the board.
    track = waiting(FLIP_FOUR, ["c3"], "b2,d4", hall)
    reading = reading_of(FLIP_FOUR, history(FLIP_FOUR, ["c3"])[-1], hall, b2="south", d4="south", a3=a3)
    evidence = touches(FLIP_FOUR, ("b2", 0, 200), ("d4", 300, 500), ("a3", 600, 800))
    verdict = track.observe(reading, evidence, 1000)
    assert verdict.seen is seen
    assert (verdict.match.label if verdict.match is not None else None) == label
    assert named(FLIP_FOUR, verdict.steps) == steps


@pytest.mark.parametrize(("stood_ms", "seen"), [(250, Seen.CONFIRM), (249, Seen.MATCH)])
def test_a_cell_that_stood_changed_for_the_settle_time_makes_a_match_unsure(
    stood_ms: int, seen: Seen
) -> None:
    # Black's a4-a6 by hand, and meanwhile the queen on j7 lifted and put back: after the 250 ms a reading
    # stands (the tracker's default, the session's settle time) what is on j7 may not be that queen: Confirm.
    reading = reading_of(DESDEMONA, DESDEMONA.start(), a4="empty", a6="magnet")
    evidence = touches(DESDEMONA, ("a4", 0, None), ("a6", 100, None), ("j7", 200, 200 + stood_ms))
    verdict = tracker(DESDEMONA, [DESDEMONA.start()]).observe(reading, evidence, 1000)
    assert verdict.seen is seen and verdict.match is not None and verdict.match.label == "a4-a6"


@pytest.mark.parametrize(("b8", "seen"), [(430, Seen.AMBIGUOUS), (429, Seen.MATCH)])
def test_a_landing_counts_as_before_its_piece_left_only_by_more_than_a_touch(b8: int, seen: Seen) -> None:
    # As in test_tracker: after a4-a6, a7 empty with a9 and b8 magnets is a7-a9/b8 or a7-b8/a9; b8 read so at
    # least 70 ms before the queen left a7 (at 500) says b8 is the stone: a7-a9/b8.
    positions = history(DESDEMONA, ["a4-a6"])
    reading = reading_of(DESDEMONA, positions[-1], a7="empty", a9="magnet", b8="magnet")
    evidence = touches(DESDEMONA, ("b8", b8, None), ("a7", 500, None), ("a9", 580, None))
    assert tracker(DESDEMONA, positions).observe(reading, evidence, 1000).seen is seen


def test_a_stone_lifted_to_be_turned_is_still_to_be_turned() -> None:
    # White's a7-d4xf4 with the black stone on e4 lifted (a reed switch reads it gone): what is left is to
    # turn it, not to put a stone there.
    positions = history(DESDEMONA, CAPTURE_BEFORE)
    reading = reading_of(DESDEMONA, positions[-1], reed, e4="empty", **CAPTURED)
    evidence = touches(DESDEMONA, *HANDS, ("e4", 300, None))
    verdict = tracker(DESDEMONA, positions, reed).observe(reading, evidence, 1000)
    assert verdict.seen is Seen.PROGRESS
    assert named(DESDEMONA, verdict.todo) == [("TURN", "e4", "e4", (WHITE_STONE,))]


def test_a_capture_with_its_queen_missing_is_guided_back_not_turned() -> None:
    # White's a7-d4xf4 with e4 turned white and f4 black side up, but no queen on d4 yet: no legal move is one
    # turn away, so the board is guided back: the queen to a7, the stone off f4, e4 turned back to black.
    positions = history(DESDEMONA, CAPTURE_BEFORE)
    reading = reading_of(DESDEMONA, positions[-1], hall, a7="empty", e4="south", f4="north")
    evidence = touches(DESDEMONA, ("a7", 0, None), ("f4", 200, None), ("e4", 300, None))
    verdict = tracker(DESDEMONA, positions, hall).observe(reading, evidence, 1000)
    assert verdict.seen is Seen.MISMATCH
    assert named(DESDEMONA, verdict.steps) == [
        ("PUT", None, "a7", (Thing("queen", 1),)),
        ("REMOVE", "f4", None, ()),
        ("TURN", "e4", "e4", (Thing("stone", 0),)),
    ]


def test_the_objects_in_a_hand_are_those_a_cell_reads_without() -> None:
    track = tracker(DESDEMONA, [DESDEMONA.start()])
    a4 = DESDEMONA.geometry.index["a4"]
    assert track.held(a4, "empty") == (Thing("queen", 0),)
    assert track.held(a4, "magnet") == ()


@pytest.mark.parametrize(
    ("a7", "a4", "seen"),
    [
        ((300, 500), (0, None), Seen.MATCH),  # White's knight taken off after the capturer left a4
        (
            (0, 200),
            (300, None),
            Seen.PROGRESS,
        ),  # a7 touched before: no capture yet, the knight is in the hand
    ],
)
def test_a_capture_a_reed_board_cannot_see_needs_a_touch_after_the_capturer_left(
    a7: tuple[int, int], a4: tuple[int, None], seen: Seen
) -> None:
    # Black's knight with three rings on a4 may jump three squares onto White's knight on a7 (a4xa7, as in
    # test_guidance). A knight on a knight reads as before: only a7 touched after a4 was lifted shows it.
    positions = history(KING_OF_RINGS, ["b2-b1", "e7-e6", "b1-c2", "c7-b7", "c2-a4", "e6-e5"])
    reading = reading_of(KING_OF_RINGS, positions[-1], reed, a4="empty")
    evidence = touches(KING_OF_RINGS, ("a7", *a7), ("a4", *a4))
    verdict = tracker(KING_OF_RINGS, positions, reed).observe(reading, evidence, 1000)
    assert verdict.seen is seen
    if seen is Seen.MATCH:
        assert verdict.match is not None and verdict.match.label == "a4xa7"


def lifted_names(game: Any, lifted: Any) -> dict[str, set[str]]:
    names = game.geometry.names
    return {names[a]: {names[b] for b in bs} for a, bs in lifted.items()}


def test_a_capturer_lifted_after_the_captured_holder_went_off_shows_the_square_it_takes() -> None:
    # King of Rings on reed: Light's b3 (one ring) may capture Dark's holder on a4 (two rings under it). The
    # captured knight taken off first (a4 reads empty: rings have no magnet), then b3 lifted: the knight in
    # the hand lands on a4, where its capture puts it on the rings left there.
    pos = kor_before_capture()
    reading = reading_of(KOR, pos, reed, b3="empty", a4="empty")
    evidence = touches(KOR, ("a4", 100, None), ("b3", 300, None))
    verdict = tracker(KOR, [pos], reed).observe(reading, evidence, 900)
    assert verdict.seen is Seen.PROGRESS
    assert lifted_names(KOR, verdict.lifted) == {"b3": {"a4"}}


def test_the_players_queen_lifted_after_the_ais_queen_was_put_shows_the_players_targets() -> None:
    # Desdemona on reed, the AI's a7-b7/b8 under way: its queen put on b7 (the shot on b8 still to come).
    # Black then lifts the queen on d10 for the reply: a7, the AI's queen's square, comes first in the
    # board's order and is done with; d10 shows every square Black's queen reaches after the AI's move.
    track = waiting(DESDEMONA, ["a4-a6"], "a7-b7/b8", reed)
    before = history(DESDEMONA, ["a4-a6"])[-1]
    reading = reading_of(DESDEMONA, before, reed, a7="empty", b7="magnet", d10="empty")
    evidence = touches(DESDEMONA, ("a7", 0, None), ("b7", 100, None), ("d10", 300, None))
    verdict = track.observe(reading, evidence, 900)
    after = DESDEMONA.play_texts(["a7-b7/b8"], before)
    reached = {
        text.split("/")[0].split("-")[1] for text in DESDEMONA.legal_texts(after) if text[:4] == "d10-"
    }
    assert len(reached) > 5
    assert verdict.seen is Seen.PROGRESS
    assert lifted_names(DESDEMONA, verdict.lifted) == {"d10": reached}


def test_two_pieces_lifted_off_one_line_each_show_where_they_land_over_the_other() -> None:
    # Flip Four: Red's c3 and c4 stand side by side (Yellow's four pieces elsewhere). Red may jump c3 over c4
    # to c5 or c4 over c3 to c2, turning the jumped one; both lifted, each shows its own landing (the move
    # that turns a piece over is not where that piece goes).
    positions = history(FLIP_FOUR, ["c3", "a3,a4", "c4", "e1,e2"])
    reading = reading_of(FLIP_FOUR, positions[-1], hall, c3="empty", c4="empty")
    evidence = touches(FLIP_FOUR, ("c3", 0, None), ("c4", 300, None))
    verdict = tracker(FLIP_FOUR, positions, hall).observe(reading, evidence, 900)
    assert verdict.seen is Seen.PROGRESS
    assert lifted_names(FLIP_FOUR, verdict.lifted) == {"c3": {"c5"}, "c4": {"c2"}}


def test_a_piece_lifted_again_is_answered_from_its_cells_index_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 27: a lift costs the lit cells, not the legal moves. The first lift of a queen sorts the moves
    # from its square once; lifted again, no candidate is looked at (covering, turned) to light its targets.
    start = DESDEMONA.start()
    track = tracker(DESDEMONA, [start])
    reading = reading_of(DESDEMONA, start, reed, g1="empty")
    evidence = touches(DESDEMONA, ("g1", 0, None))
    first = track.observe(reading, evidence, 500)

    def looked_at(*_: object) -> None:
        raise AssertionError("a candidate was looked at")

    monkeypatch.setattr(track.expect, "covering", looked_at)
    monkeypatch.setattr(track.expect, "turned", looked_at)
    again = track.observe(reading, evidence, 600)
    reached = {text.split("/")[0].split("-")[1] for text in DESDEMONA.legal_texts(start) if text[:3] == "g1-"}
    assert again.seen is Seen.PROGRESS and again.lifted == first.lifted
    assert lifted_names(DESDEMONA, again.lifted) == {"g1": reached}


@pytest.mark.parametrize(
    ("moves", "todo"), [(2, [("TURN", "e4", "e4")]), (8, [("TURN", "e4", "e4")]), (9, [])]
)
def test_what_each_of_up_to_eight_moves_on_the_way_still_needs_is_asked_for(
    moves: int, todo: list[tuple[str, str, str]]
) -> None:
    # Nothing left to put anywhere: the steps every move on the way still needs are asked for, up to eight
    # moves (tracker.MANY; past that they are not worth working out). The capture a7-d4xf4 on reed with its
    # queen and new stone down and e4 not yet turned, as that many moves, each still needing the turn on e4.
    positions = history(DESDEMONA, CAPTURE_BEFORE)
    track = tracker(DESDEMONA, positions, reed)
    reading = reading_of(DESDEMONA, positions[-1], reed, **CAPTURED)
    capture = track.expect.candidate_for((DESDEMONA.parse_move(positions[-1], "a7-d4xf4"),))
    differing = track.expect.differing(reading)
    verdict = track._progress(reading, differing, [capture] * moves, touches(DESDEMONA, *HANDS), 1000)
    assert verdict.seen is Seen.PROGRESS and not verdict.lifted and not verdict.next
    assert [step[:3] for step in named(DESDEMONA, verdict.todo)] == todo


@pytest.mark.parametrize(("b7", "lifted", "lit"), [("empty", {"a7": {"b7"}}, set()), ("magnet", {}, {"b8"})])
def test_while_a_piece_is_in_a_hand_or_a_cell_waits_for_one_the_lights_say_what_is_next(
    b7: str, lifted: dict[str, set[str]], lit: set[str]
) -> None:
    # The AI's a7-b7/b8 under way, its queen in the hand or put on b7: what is next is where it goes or
    # where the shot lands, not the steps that moves on the way share (two of them here, both the AI's).
    track = waiting(DESDEMONA, ["a4-a6"], "a7-b7/b8", reed)
    reading = reading_of(DESDEMONA, history(DESDEMONA, ["a4-a6"])[-1], reed, a7="empty", b7=b7)
    differing = track.expect.differing(reading)
    ai = track.expect.pending_candidate
    verdict = track._progress(reading, differing, [ai, ai], touches(DESDEMONA, ("a7", 0, None)), 500)
    names = DESDEMONA.geometry.names
    assert lifted_names(DESDEMONA, verdict.lifted) == lifted and {names[c] for c in verdict.next} == lit
    assert verdict.todo == ()
