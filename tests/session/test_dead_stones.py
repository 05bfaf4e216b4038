"""Go's end at the table, by tables: after two passes the board proposes the dead stones, the players take
them off (or put them back) and press Confirm, and the area is counted on the agreed board.

The game: Black walls the e file, White the f file, then White invades at d4 and both pass.  Counted by
hand: as the stones stand (OpenSpiel's rules) the empty a-d files touch both colours, so Black has its 7
stones and White 7 + d4 + the 7 empty points of the g file = 15; with d4 taken off as dead, Black has the
e file and the 28 points of a-d = 35 and White 14, and Black wins by 35 - 14 - 7.5 = 13.5.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines import registry
from engines.physical import Thing
from engines.table import Role
from host.hardware.loading import load_board
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import Button
from host.session import core
from host.session.describe import describe
from host.session.intent import Kind
from tests.engines.test_go7 import DOUBLE_KO_CYCLE, DOUBLE_KO_SETUP
from tests.session.test_core_tables import run

GAME = registry.make("go7")
MODEL = SensorModel(load_board("go7-hall"))
NAMES = GAME.geometry.names
SETTLE = core.Settings().settle_ms
WALLS = [m for rank in range(1, 8) for m in (f"e{rank}", f"f{rank}")]
MOVES = [*WALLS, "pass", "d4", "pass", "pass"]
BLACK = (Thing("stone", 0),)


def context() -> core.Context:
    settings = core.Settings(ai_side=None, think_in_background=True)
    reversible = GAME.table.kinds(Role.REVERSIBLE)
    return core.Context(GAME, MODEL.reading_of, Reading.EMPTY, settings, reversible, describe, hints=True)


def reading_of(pos: Any, changes: dict[str, tuple[Thing, ...]] | None = None) -> tuple[Any, ...]:
    cells = dict(GAME.cells(pos)) | (changes or {})
    return tuple(MODEL.reading_of(tuple(cells[n])) for n in NAMES)


def at_the_end(moves: Sequence[str] = MOVES) -> tuple[core.Context, core.State, Any]:
    """A session resumed at the end of ``moves`` with the board showing it, settled."""
    ctx = context()
    history = [GAME.start()]
    for text in moves:
        history.append(GAME.play(history[-1], GAME.parse_move(history[-1], text)))
    state, _ = core.start(ctx, core.Log(tuple(history), tuple(moves)))
    pos = history[-1]
    state, _ = run(ctx, state, [core.Reading(0, reading_of(pos)), core.Tick(SETTLE)])
    return ctx, state, pos


def test_two_passes_light_the_stones_the_board_holds_dead_and_say_the_count_as_it_stands() -> None:
    _, state, _ = at_the_end()
    assert state.end == core.Agreeing(frozenset({NAMES.index("d4")}))
    intent = state.intent
    assert intent.kind is Kind.DEAD_STONES
    assert {c: light.meaning.value for c, light in intent.scene.items()} == {"d4": "remove"}
    assert intent.sentence == (
        "Take off the dead stones (lit); press Confirm when you agree. "
        "By area Black 7, White 15 + 7.5: White wins by 15.5."
    )
    assert Button.CONFIRM in intent.buttons


def test_the_dead_stone_taken_off_and_confirmed_is_counted_as_a_person_would() -> None:
    ctx, state, pos = at_the_end()
    state, _ = run(ctx, state, [core.Reading(1000, reading_of(pos, {"d4": ()})), core.Tick(1000 + SETTLE)])
    assert state.intent.scene == {}
    assert state.intent.sentence == (
        "Press Confirm when you agree. With 1 dead stone off, by area Black 35, White 14 + 7.5: "
        "Black wins by 13.5."
    )
    state, effects = run(ctx, state, [core.Press(2000, Button.CONFIRM)])
    assert effects == [core.AgreedDead(("d4",))]
    assert state.end == core.Agreed(frozenset({NAMES.index("d4")}))
    assert state.intent.kind is Kind.GAME_OVER
    assert state.intent.sentence == (
        "Game over: Black wins. With 1 dead stone off, by area Black 35, White 14 + 7.5: Black wins by 13.5. "
        "Press New game to play again."
    )
    lit = {n for n in NAMES if n[0] in "abcde"}  # Black's area, the 35 points it counted
    assert set(state.intent.scene) == lit


def test_confirm_with_the_proposed_stone_left_on_counts_the_board_as_it_stands() -> None:
    ctx, state, _ = at_the_end()
    state, effects = run(ctx, state, [core.Press(1000, Button.CONFIRM)])
    assert effects == [core.AgreedDead(())]
    assert (
        "Game over: White wins. By area Black 7, White 15 + 7.5: White wins by 15.5." in state.intent.sentence
    )


def test_a_stone_put_down_while_agreeing_is_a_mistake_and_confirm_waits_for_it() -> None:
    ctx, state, pos = at_the_end()
    state, _ = run(ctx, state, [core.Reading(1000, reading_of(pos, {"a1": BLACK})), core.Tick(1000 + SETTLE)])
    assert state.intent.kind is Kind.DEAD_STONES
    assert state.intent.sentence.startswith("Only stones come off now: put a1 back as it was (red)")
    assert state.intent.scene["a1"].meaning.value == "wrong"
    assert Button.CONFIRM not in state.intent.buttons
    state, effects = run(ctx, state, [core.Press(2000, Button.CONFIRM)])
    assert effects == [] and isinstance(state.end, core.Agreeing)
    # Put right, the stones off are what Confirm agrees.
    state, _ = run(ctx, state, [core.Reading(3000, reading_of(pos, {"d4": ()})), core.Tick(3000 + SETTLE)])
    state, effects = run(ctx, state, [core.Press(4000, Button.CONFIRM)])
    assert effects == [core.AgreedDead(("d4",))]


def test_every_stone_taken_off_is_no_new_game_but_all_of_them_dead() -> None:
    """An empty board would read to the tracker as a new game set up by hand: while agreeing, the phase
    reads the board itself, and nothing is committed."""
    ctx, state, pos = at_the_end()
    cleared = {n: () for n in NAMES}
    state, effects = run(ctx, state, [core.Reading(1000, reading_of(pos, cleared)), core.Tick(5000)])
    assert effects == [] and state.log.moves == tuple(MOVES)
    state, effects = run(ctx, state, [core.Press(6000, Button.CONFIRM)])
    assert len(effects[0].dead) == 15  # 7 + 8 stones
    assert (
        "With 15 dead stones off, by area Black 0, White 0 + 7.5: White wins by 7.5." in state.intent.sentence
    )
    # Agreed, the empty board is still no new game set up by hand; New game finds nothing to put back.
    state, effects = run(ctx, state, [core.Tick(9000)])
    assert effects == [] and state.intent.kind is Kind.GAME_OVER
    state, effects = run(ctx, state, [core.Press(10000, Button.NEW_GAME)])
    assert effects == [core.NewGame()] and state.away is None and state.intent.kind is Kind.YOUR_TURN


def test_take_back_after_the_agreement_asks_for_the_dead_stones_back() -> None:
    ctx, state, pos = at_the_end()
    state, _ = run(ctx, state, [core.Reading(1000, reading_of(pos, {"d4": ()})), core.Tick(1000 + SETTLE)])
    state, _ = run(ctx, state, [core.Press(2000, Button.CONFIRM), core.Press(3000, Button.TAKE_BACK)])
    assert state.intent.kind is Kind.RESTORE and state.away is not None
    assert state.away.objects == {NAMES.index("d4"): ()}  # believed off the board, as it is


def test_take_back_leaves_the_phase_and_the_second_pass_enters_it_again() -> None:
    ctx, state, _ = at_the_end()
    state, _ = run(ctx, state, [core.Press(1000, Button.TAKE_BACK)])
    assert state.end == core.BY_RULES and state.log.moves == tuple(MOVES[:-1])
    assert state.intent.kind is Kind.YOUR_TURN
    state, _ = run(ctx, state, [core.Press(2000, Button.PASS)])
    assert isinstance(state.end, core.Agreeing) and state.intent.kind is Kind.DEAD_STONES


def test_a_game_still_going_and_a_draw_by_repetition_agree_nothing() -> None:
    _, state, _ = at_the_end(WALLS)
    assert state.end == core.BY_RULES and state.intent.kind is Kind.YOUR_TURN
    _, state, _ = at_the_end([*DOUBLE_KO_SETUP, *DOUBLE_KO_CYCLE])  # a stone remakes an earlier board
    assert state.end == core.BY_RULES and state.intent.kind is Kind.GAME_OVER
    assert "repetition" in state.intent.sentence


def test_take_back_while_agreeing_asks_for_the_stones_taken_off_back() -> None:
    ctx, state, pos = at_the_end()
    state, _ = run(ctx, state, [core.Reading(1000, reading_of(pos, {"d4": ()})), core.Tick(1000 + SETTLE)])
    state, _ = run(ctx, state, [core.Press(2000, Button.TAKE_BACK)])
    assert state.away is not None and state.away.objects == {NAMES.index("d4"): ()}
    assert state.intent.kind is Kind.RESTORE


def test_confirm_before_the_board_is_read_agrees_nothing() -> None:
    ctx = context()
    history = [GAME.start()]
    for text in MOVES:
        history.append(GAME.play(history[-1], GAME.parse_move(history[-1], text)))
    state, _ = core.start(ctx, core.Log(tuple(history), tuple(MOVES)))
    assert isinstance(state.end, core.Agreeing)
    state, effects = run(ctx, state, [core.Press(1000, Button.CONFIRM)])
    assert effects == [] and isinstance(state.end, core.Agreeing)
