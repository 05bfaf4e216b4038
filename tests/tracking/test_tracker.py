"""The tracker's verdicts on hand-built readings, with the evidence of where hands worked and when.

Positions and the expected answers are worked out by hand from RULES.md.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from engines.desdemona.rules import Desdemona
from engines.game import Game
from engines.kingofrings.rules import KingOfRings
from engines.physical import Thing
from engines.spacetiles.rules import SpaceTiles
from engines.table import Role
from host.tracking.candidates import Expectations
from host.tracking.evidence import Evidence, Touch
from host.tracking.plan import Do
from host.tracking.tracker import Seen, Tracker

DESDEMONA = Desdemona()
NAMES = DESDEMONA.geometry.names


def reed(stack: tuple[Thing, ...]) -> str:
    return "magnet" if any(t.kind != "tile" and not t.kind.startswith("ring") for t in stack) else "empty"


def hall(stack: tuple[Thing, ...]) -> str:
    return "empty" if not stack else ("north", "south")[stack[-1].colour or 0]


def tracker(
    game: Game[Any, Any],
    history: Sequence[Any],
    model: Callable[[tuple[Thing, ...]], str] = reed,
    pending: Any = None,
) -> Tracker[str]:
    expect = Expectations(
        game, model, "empty", history, pending, reversible=game.table.kinds(Role.REVERSIBLE)
    )
    return Tracker(expect)


def reading_of(
    game: Game[Any, Any], pos: Any, model: Callable[[tuple[Thing, ...]], str] = reed, **changes: str
) -> tuple[str, ...]:
    cells = game.cells(pos)
    values = {name: model(tuple(cells[name])) for name in game.geometry.names}
    values.update(changes)
    return tuple(values[name] for name in game.geometry.names)


def touches(game: Game[Any, Any], *spans: tuple[str, int, int | None]) -> Evidence:
    """Evidence from (cell, start, end) spans; end None: still off its committed reading."""
    evidence = Evidence()
    index = game.geometry.index
    events = sorted(
        [(start, name, True) for name, start, _ in spans]
        + [(end, name, False) for name, _, end in spans if end is not None]
    )
    off: set[int] = set()
    for t, name, starts in events:
        now = off | {index[name]} if starts else off - {index[name]}
        evidence = evidence.observe(t, off, now)
        off = now
    return evidence


START = DESDEMONA.start()


def name(cell: int | None) -> str | None:
    return None if cell is None else NAMES[cell]


def test_the_start_position_is_in_sync() -> None:
    assert (
        tracker(DESDEMONA, [START]).observe(reading_of(DESDEMONA, START), Evidence(), 0).seen is Seen.IN_SYNC
    )


def test_a_completed_first_queen_move_is_a_match() -> None:
    reading = reading_of(DESDEMONA, START, a4="empty", a6="magnet")
    verdict = tracker(DESDEMONA, [START]).observe(
        reading, touches(DESDEMONA, ("a4", 0, None), ("a6", 0, 50)), 400
    )
    assert verdict.seen is Seen.MATCH and verdict.match is not None
    assert verdict.match.label == "a4-a6"


def test_a_lifted_queen_lights_only_its_reachable_squares_not_the_start_squares() -> None:
    """After three plies the start position is a candidate (a new game set up by hand); a lifted queen
    must still light only where a legal move takes it."""
    pos = DESDEMONA.play_texts(["a4-a6", "a7-a8/a7", "d10-d8/d10"])
    history = [START]
    for text in ["a4-a6", "a7-a8/a7", "d10-d8/d10"]:
        history.append(DESDEMONA.play_texts([text], history[-1]))
    assert history[-1] == pos
    reading = reading_of(DESDEMONA, pos, a8="empty")  # White's queen on a8 lifted
    verdict = tracker(DESDEMONA, history).observe(reading, touches(DESDEMONA, ("a8", 0, None)), 300)
    assert verdict.seen is Seen.PROGRESS
    targets = {NAMES[i] for i in verdict.lifted[NAMES.index("a8")]}
    # By hand: from a8 the queen slides along rank 8 (b8..c8, d8 holds a queen), file a (a9, a10; a7 has a
    # stone), and the diagonals b9-c10 and b7-c6-d5-e4-f3-g2-h1.
    assert targets == {"b8", "c8", "a9", "a10", "b9", "c10", "b7", "c6", "d5", "e4", "f3", "g2", "h1"}
    assert "a7" not in targets and "d10" not in targets  # start squares of White's queens: not moves


def test_a_position_s_expectations_are_freed_with_their_candidates_at_once() -> None:
    """After each commit the session drops the old expectations: they and the candidates they made must go
    by reference counting alone, leaving no cycle for a full garbage collection to walk (a pause in the
    frames).  A candidate kept past them still works out its own details."""
    pos = DESDEMONA.play_texts(["a4-a6"])
    expect = Expectations(
        DESDEMONA, reed, "empty", [START, pos], reversible=DESDEMONA.table.kinds(Role.REVERSIBLE)
    )
    a7 = DESDEMONA.geometry.index["a7"]
    verdict = Tracker(expect).observe(
        reading_of(DESDEMONA, pos, a7="empty"), touches(DESDEMONA, ("a7", 0, None)), 300
    )
    kept = expect.covering([a7])[0]
    _ = (expect.undoing, kept.steps, kept.reading)  # made and kept by the expectations
    gone = weakref.ref(expect)
    gc.disable()
    try:
        del expect, verdict
        assert gone() is None, "the expectations are in a reference cycle"
    finally:
        gc.enable()
    assert kept.basis == (0, None) and kept.label.startswith("a7-")


def test_evidence_keeps_when_each_cell_last_changed_its_reading() -> None:
    """A Hall cell may change from one reading to another that differs from the committed one too (a stone
    put, then swapped for a queen of the other colour): it still differs, so its touch goes on, but the
    time of its reading is the later one."""
    evidence = Evidence().observe(100, (), [5], [5]).observe(400, [5], [5], [5])
    assert evidence.touches[5] == (Touch(100),) and evidence.since[5] == 400
    assert evidence.first_left(5) == 100
    back = evidence.observe(500, [5], [], [5])
    assert back.touches[5] == (Touch(100, 500, back=True),) and back.since[5] == 500
    assert not back.stood(5, 300)  # the whole board as committed again: put back, nothing under way


def test_a_cell_that_stood_changed_counts_only_while_something_else_was_under_way() -> None:
    """Evidence against a move is a cell that stood changed and read as before again while another cell
    still differed (a repair); the same cell put back onto a board otherwise as committed is not."""
    repair = Evidence().observe(100, (), [5, 6]).observe(600, [5, 6], [6])
    assert repair.stood(5, 300) and not repair.stood(5, 600)
    alone = Evidence().observe(100, (), [5]).observe(600, [5], [])
    assert not alone.stood(5, 300)


def test_a_landing_read_so_since_before_the_piece_left_is_still_the_only_move() -> None:
    """When pieces land only decides between moves the board shows alike: a6 reading a magnet since before
    a4 was emptied (a fast hand, or a reading of the two in another order) never rules out a4-a6, the only
    move that reads so - a board that can match nothing stalls."""
    reading = reading_of(DESDEMONA, START, a4="empty", a6="magnet")
    evidence = touches(DESDEMONA, ("a6", 60, None), ("a4", 600, None))
    verdict = tracker(DESDEMONA, [START]).observe(reading, evidence, 1000)
    assert verdict.seen is Seen.MATCH and verdict.match is not None and verdict.match.label == "a4-a6"


def test_moves_that_read_alike_are_asked_about_unless_a_landing_came_clearly_first() -> None:
    """Reed, White after a4-a6: a7 empty, a9 and b8 magnets reads as a7-a9/b8 and as a7-b8/a9 (a queen and
    a stone alike).  A stone put on b8 well before the queen left a7 was no queen: a7-a9/b8.  Put 30 ms
    before (two changes a scan apart, a switch that bounced), the order says nothing: the player is asked."""
    pos = DESDEMONA.play_texts(["a4-a6"])
    reading = reading_of(DESDEMONA, pos, a7="empty", a9="magnet", b8="magnet")
    early = touches(DESDEMONA, ("b8", 60, None), ("a7", 500, None), ("a9", 580, None))
    verdict = tracker(DESDEMONA, [START, pos]).observe(reading, early, 1000)
    assert verdict.seen is Seen.MATCH and verdict.match is not None and verdict.match.label == "a7-a9/b8"
    close = touches(DESDEMONA, ("b8", 470, None), ("a7", 500, None), ("a9", 580, None))
    verdict = tracker(DESDEMONA, [START, pos]).observe(reading, close, 1000)
    assert verdict.seen is Seen.AMBIGUOUS
    assert {c.label for c in verdict.choices} == {"a7-a9/b8", "a7-b8/a9"}


def test_the_next_cells_include_the_square_a_queen_just_left() -> None:
    """RULES.md: the shot goes where the moved queen could reach, "the square it just left counts as
    empty".  Black g1-g5 on reed: the cells where a move on the way puts something next are g5's shots,
    g1 among them, though g1 already reads changed."""
    history = [START]
    for text in ["a4-a6", "a7-a9/b8"]:
        history.append(DESDEMONA.play_texts([text], history[-1]))
    pos = history[-1]
    reading = reading_of(DESDEMONA, pos, g1="empty", g5="magnet")
    verdict = tracker(DESDEMONA, history).observe(
        reading, touches(DESDEMONA, ("g1", 0, None), ("g5", 80, None)), 400
    )
    assert verdict.seen is Seen.PROGRESS and not verdict.lifted
    shots = {t.split("/")[1] for t in DESDEMONA.legal_texts(pos) if t.startswith("g1-g5/")}
    assert "g1" in shots and {NAMES[i] for i in verdict.next} == shots


def test_the_next_cells_leave_out_a_cell_a_move_only_empties() -> None:
    """Space Tiles on Hall sees a tile (weak): a Yellow piece put on f2 may be the step f3-f2, after which
    f3 reads as a bare tile - changed, but nothing is put there.  No cell holding a piece is next."""
    spacetiles = SpaceTiles()
    history = [spacetiles.start()]
    for text in ["c4:f4", "e1:f3", "g2:d2", "e5:e2", "c5:e3"]:
        history.append(spacetiles.play_texts([text], history[-1]))
    pos = history[-1]
    cells = spacetiles.cells(pos)
    reading = reading_of(spacetiles, pos, tiled, f2="south")
    verdict = tracker(spacetiles, history, tiled).observe(reading, touches(spacetiles, ("f2", 0, None)), 400)
    assert verdict.seen is Seen.PROGRESS and verdict.next
    names = spacetiles.geometry.names
    assert not {names[i] for i in verdict.next} & {
        n for n, stack in cells.items() if Thing("piece", 1) in stack
    }


def tiled(stack: tuple[Thing, ...]) -> str:
    """A Hall board with weak tiles: a piece reads by its owner's pole, a bare tile as weak."""
    if stack and stack[-1].kind == "piece":
        return ("north", "south")[stack[-1].colour or 0]
    return "weak" if stack else "empty"


def test_a_wrong_queen_move_is_guided_back_by_the_object() -> None:
    reading = reading_of(DESDEMONA, START, a4="empty", b6="magnet")  # a4 to b6 is no queen move
    verdict = tracker(DESDEMONA, [START]).observe(
        reading, touches(DESDEMONA, ("a4", 0, None), ("b6", 60, None)), 400
    )
    assert verdict.seen is Seen.MISMATCH
    (step,) = verdict.steps
    assert (step.do, NAMES[step.source or 0], NAMES[step.target or 0]) == (Do.MOVE, "b6", "a4")
    assert step.things == (Thing("queen", 0),)


def test_a_stone_put_where_the_queen_was_is_taken_off_and_the_queen_put_back() -> None:
    """Hall: the queen a4 went to a6 and a White stone stands on a4.  Black's first move has no shot,
    so this is a mistake; the guidance must not take the queen off and leave the stone."""
    reading = reading_of(DESDEMONA, START, hall, a4="south", a6="north")
    verdict = tracker(DESDEMONA, [START], hall).observe(reading, Evidence(), 400)
    assert verdict.seen is Seen.MISMATCH
    said = [(s.do, name(s.source), name(s.target)) for s in verdict.steps]
    assert said == [(Do.REMOVE, "a4", None), (Do.MOVE, "a6", "a4")]  # the stone off, the queen from a6 back


KOR = KingOfRings()


def test_a_knocked_neighbour_is_no_capture_by_a_knight_lifted_later() -> None:
    """King of Rings on reed: Light's knight on b3 (one ring) may capture Dark's on a4 (RULES.md: a holder
    with one ring jumps one square, onto an enemy knight).  The neighbour a4 was knocked (off for 60 ms)
    before the knight on b3 was lifted: the reading (b3 empty, a4 full) is the knight in the hand, not the
    capture b3xa4.  Emptied and refilled after the lift, it is the capture."""
    pos = kor_before_capture()
    reading = reading_of(KOR, pos, b3="empty")
    knocked = touches(KOR, ("a4", 100, 160), ("b3", 500, None))
    assert tracker(KOR, [pos]).observe(reading, knocked, 800).seen is Seen.PROGRESS
    in_order = touches(KOR, ("b3", 100, None), ("a4", 300, 600))
    verdict = tracker(KOR, [pos]).observe(reading, in_order, 900)
    assert verdict.seen is Seen.MATCH and verdict.match is not None and verdict.match.label == "b3xa4"


def kor_before_capture() -> Any:
    return KOR.play_texts(["a1-b1", "b6-a5", "b2-b3", "a5-a4"])


def test_a_glitch_shorter_than_a_touch_is_no_evidence() -> None:
    pos = kor_before_capture()
    reading = reading_of(KOR, pos, b3="empty")
    phantom = touches(KOR, ("b3", 100, None), ("a4", 300, 310))  # 10 ms: a phantom, not a hand
    assert tracker(KOR, [pos]).observe(reading, phantom, 900).seen is Seen.PROGRESS


def test_a_capture_is_a_knight_taken_off_and_one_carried_not_a_knight_turned_over() -> None:
    pos = kor_before_capture()
    expect = Expectations(KOR, reed, "empty", [pos], reversible=KOR.table.kinds(Role.REVERSIBLE))
    capture = expect.candidate_for((KOR.parse_move(pos, "b3xa4"),))
    steps = [(s.do, s.source, s.target) for s in capture.steps]
    index = KOR.geometry.index
    assert (Do.REMOVE, index["a4"], None) in steps and (Do.MOVE, index["b3"], index["a4"]) in steps
    assert all(s.do is not Do.TURN for s in capture.steps)


def test_a_drop_beside_your_own_knight_needs_no_confirm() -> None:
    """A drop is a knight from the hand: the step of the knight next to it onto the same ring is not a
    longer version of it (that knight would leave its square)."""
    pos = KOR.play_texts(["b3xa4"], kor_before_capture())  # Dark's captured holder went to Dark's hand
    own = [
        KOR.geometry.index[n] for n, stack in KOR.cells(pos).items() if stack[-1:] == (Thing("knight", 1),)
    ]
    drops = [t for t in KOR.legal_texts(pos) if t.startswith("*")]
    text = next(
        t for t in drops if any(KOR.geometry.distance(KOR.geometry.index[t[1:]], c) == 1 for c in own)
    )
    after = KOR.play_texts([text], pos)
    reading = reading_of(KOR, after)
    verdict = tracker(KOR, [pos]).observe(reading, Evidence(), 600)
    assert verdict.seen is Seen.MATCH and verdict.match is not None and verdict.match.label == text


def test_a_take_back_on_reed_asks_for_the_stones_to_be_turned_back() -> None:
    """Desdemona on reed after a capture: putting the queen back and lifting the new stone reads as the
    position before, but the turned stones must be turned back too - the LEDs ask until they are touched."""
    pos = Desdemona.from_diagram(
        """
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . o o . . . . . . .
        B . . . W . . . . .
        """
    )
    capture = DESDEMONA.parse_move(pos, "a1-a2xd2")
    after = DESDEMONA.play(pos, capture)
    expect = Expectations(DESDEMONA, reed, "empty", [pos], reversible=DESDEMONA.table.kinds(Role.REVERSIBLE))
    back = Tracker(expect)
    away = {i: tuple(DESDEMONA.cells(after)[NAMES[i]]) for i in expect.candidate_for((capture,)).changed}
    reading = reading_of(DESDEMONA, pos)  # queen back on a1, the stone off d2: reads as before
    left = back.restore(
        away, reading, touches(DESDEMONA, ("a2", 0, 200), ("a1", 0, 200), ("d2", 0, 200)), 900
    )
    assert {(s.do, NAMES[s.target or 0]) for s in left} == {(Do.TURN, "b2"), (Do.TURN, "c2")}
    turned = touches(
        DESDEMONA, ("a2", 0, 200), ("a1", 0, 200), ("d2", 0, 200), ("b2", 300, 400), ("c2", 400, 500)
    )
    assert back.restore(away, reading, turned, 900) == ()
