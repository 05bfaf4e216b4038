"""The tracker's verdicts on hand-built readings of Desdemona positions, reed and Hall builds."""

from __future__ import annotations

from engines.desdemona import Desdemona, Position
from engines.physical import Thing
from host.tracking.candidates import Expectations
from host.tracking.tracker import IN_SYNC, MATCH, MISMATCH, PROGRESS, Step, Tracker

GAME = Desdemona()
NAMES = GAME.geometry.names


def reed(stack: tuple[Thing, ...]) -> str:
    return "magnet" if stack else "empty"


def hall(stack: tuple[Thing, ...]) -> str:
    return "empty" if not stack else ("north", "south")[stack[-1].colour or 0]


def tracker(history: list[Position], model=reed, pending=None) -> Tracker[str]:  # type: ignore[no-untyped-def]
    return Tracker(Expectations(GAME, model, "empty", history, pending))


def reading_of(pos: Position, model=reed, **changes: str) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    cells = GAME.cells(pos)
    values = {name: model(cells[name]) for name in NAMES}
    values.update(changes)
    return tuple(values[name] for name in NAMES)


def cells(*names: str) -> set[int]:
    return {NAMES.index(n) for n in names}


START = GAME.start()


def test_the_start_position_is_in_sync() -> None:
    assert tracker([START]).observe(reading_of(START)).kind == IN_SYNC


def test_a_completed_queen_move_is_a_match() -> None:
    verdict = tracker([START]).observe(reading_of(START, a4="empty", a6="magnet"), cells("a4", "a6"))
    assert verdict.kind == MATCH and verdict.match is not None
    assert verdict.match.label == "a4-a6"


def test_a_lifted_queen_shows_where_it_may_go() -> None:
    verdict = tracker([START]).observe(reading_of(START, a4="empty"), cells("a4"))
    assert verdict.kind == PROGRESS
    destinations = {NAMES[i] for i in verdict.lifted[NAMES.index("a4")]}
    assert destinations == {
        "a5", "a6", "a3", "a2", "a1", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4",
        "b5", "c6", "d7", "e8", "f9", "b3", "c2",
    }  # fmt: skip


def test_an_illegal_move_is_guided_back_one_pair_at_a_time() -> None:
    # a4 to b6 is no queen move: the guidance pairs the extra queen on b6 with the empty a4.
    verdict = tracker([START]).observe(reading_of(START, a4="empty", b6="magnet"), cells("a4", "b6"))
    assert verdict.kind == MISMATCH
    assert verdict.steps == (Step("move", NAMES.index("b6"), NAMES.index("a4")),)


def test_missing_and_extra_objects_pair_by_distance() -> None:
    # Two queens gone (a4, j7) and two strangers (a3 next to a4, j9 two from j7): nearest pairs.
    reading = reading_of(START, a4="empty", j7="empty", a3="magnet", j9="magnet")
    steps = tracker([START]).observe(reading, cells("a4", "j7", "a3", "j9")).steps
    assert set(steps) == {
        Step("move", NAMES.index("a3"), NAMES.index("a4")),
        Step("move", NAMES.index("j9"), NAMES.index("j7")),
    }
    assert steps[0] == Step("move", NAMES.index("a3"), NAMES.index("a4"))  # the nearer pair first


def test_a_shot_onto_the_square_just_left_needs_that_square_touched() -> None:
    after = GAME.play_texts(["a4-a6"])
    t = tracker([START, after])
    # White a7 -> a8 and a Black stone on a7: under reed a7 reads "magnet" before and after.
    reading = reading_of(after, a8="magnet")
    assert t.observe(reading, cells("a8")).kind != MATCH  # a7 never lifted: not that shot
    verdict = t.observe(reading, cells("a7", "a8"))
    assert verdict.kind == MATCH and verdict.match is not None and verdict.match.label == "a7-a8/a7"


def test_putting_the_last_move_back_is_a_take_back() -> None:
    after = GAME.play_texts(["a4-a6"])
    verdict = tracker([START, after]).observe(reading_of(START), cells("a4", "a6"))
    assert verdict.kind == MATCH and verdict.match is not None and verdict.match.back == 1


CAPTURE = Desdemona.from_diagram(
    "\n".join([". . . . . . . . . ."] * 7) + "\n. . . . . . . . . .\n. . . . o o . . . .\n. . . B . . . . . W"
)


def test_a_capture_under_reed_waits_until_the_turned_stones_were_touched() -> None:
    t = tracker([CAPTURE])
    # d1 -> d2, Black stone on g2 (after e2 f2): same reading as before for e2 and f2.
    reading = reading_of(CAPTURE, d1="empty", d2="magnet", g2="magnet")
    verdict = t.observe(reading, cells("d1", "d2", "g2"))
    assert verdict.kind == PROGRESS
    assert {(s.action, NAMES[s.source or 0]) for s in verdict.todo} == {("turn", "e2"), ("turn", "f2")}
    verdict = t.observe(reading, cells("d1", "d2", "g2", "e2", "f2"))
    assert verdict.kind == MATCH and verdict.match is not None and verdict.match.label == "d1-d2xg2"


def test_a_capture_under_hall_is_seen_in_the_polarity() -> None:
    t = tracker([CAPTURE], hall)
    reading = reading_of(CAPTURE, hall, d1="empty", d2="north", g2="north", e2="north", f2="north")
    verdict = t.observe(reading, cells("d1", "d2", "g2", "e2", "f2"))
    assert verdict.kind == MATCH and verdict.match is not None and verdict.match.label == "d1-d2xg2"
    # Half done: one stone still White: progress, and the LEDs ask for f2 to be turned.
    half = reading_of(CAPTURE, hall, d1="empty", d2="north", g2="north", e2="north")
    verdict = t.observe(half, cells("d1", "d2", "g2", "e2"))
    assert verdict.kind == PROGRESS
    assert [(s.action, NAMES[s.source or 0]) for s in verdict.todo] == [("turn", "f2")]


def test_the_ai_move_then_a_reply_is_two_moves() -> None:
    after = GAME.play_texts(["a4-a6"])
    ai_move = GAME.parse_move(after, "a7-a8/a7")
    t = tracker([START, after], pending=ai_move)
    ai_done = GAME.play(after, ai_move)
    verdict = t.observe(reading_of(ai_done), cells("a7", "a8"))
    assert verdict.kind == MATCH and verdict.match is not None and verdict.match.label == "a7-a8/a7"
    reply = GAME.play_texts(["a6-b6/a6"], ai_done)
    verdict = t.observe(reading_of(reply), cells("a7", "a8", "a6", "b6"))
    assert verdict.kind == MATCH and verdict.match is not None
    assert verdict.match.label == "a7-a8/a7 a6-b6/a6"
    # Any other White move is not accepted while the AI's move waits (Hall sees the colours).
    t = tracker([START, after], hall, pending=ai_move)
    other = GAME.play_texts(["d1-d2/d1"], after)
    verdict = t.observe(reading_of(other, hall), cells("d1", "d2"))
    assert verdict.kind == MISMATCH
    d1, d2 = NAMES.index("d1"), NAMES.index("d2")
    assert verdict.steps == (Step("remove", d2, None), Step("turn", d1, d1))
