"""The AI's move that captures the stone the player has just put down, made by hand in either order.

Go 7x7 (engines/go7/rules.md: a move takes off the opponent's stones left without liberties): Black d4,
White b1, Black a1 - a1 then has one liberty, a2 - and the AI (White) answers a2, capturing a1.  A hand
that takes a1 off first leaves the board exactly as it was before Black's a1: a take-back by hand, or the
AI's move under way.  The board must not undo the player's turn then: it waits (Confirm would take the
take-back; the Take back button does too) and the stone put on a2 commits the AI's move.  Where the AI's
move does not touch a1, taking a1 off is the take-back it always was.
"""

from __future__ import annotations

from typing import Any

from engines import registry
from engines.table import Role
from host.hardware.loading import load_board
from host.hardware.sensing import Reading, SensorModel
from host.session import core
from host.session.describe import describe
from host.session.intent import Kind

GAME = registry.make("go7")
MODEL = SensorModel(load_board("go7-hall"))
NAMES = GAME.geometry.names
SETTLE = core.Settings().settle_ms
BEFORE = GAME.play_texts(["d4", "b1"])
PLAYED = GAME.play_texts(["d4", "b1", "a1"])


def reading(pos: Any, empty: tuple[str, ...] = ()) -> tuple[Any, ...]:
    cells = GAME.cells(pos)
    return tuple(MODEL.reading_of(() if n in empty else tuple(cells[n])) for n in NAMES)


def run(ctx: core.Context[Any, Any], state: core.State[Any, Any], events: list[Any]) -> tuple[Any, list[Any]]:
    effects: list[Any] = []
    for event in events:
        state, more = core.step(ctx, state, event)
        effects += more
    return state, effects


def ai_to_play(reply: str) -> tuple[core.Context[Any, Any], core.State[Any, Any]]:
    """Black has played a1 on the board; the AI (White) answers ``reply``, to be made by hand."""
    settings = core.Settings(ai_side=1, think_in_background=True)
    reversible = GAME.table.kinds(Role.REVERSIBLE)
    ctx = core.Context(GAME, MODEL.reading_of, Reading.EMPTY, settings, reversible, describe, hints=True)
    log = core.Log((GAME.start(), GAME.play_texts(["d4"]), BEFORE), ("d4", "b1"))
    state, _ = core.start(ctx, log)
    state, effects = run(ctx, state, [core.Reading(0, reading(BEFORE)), core.Reading(1000, reading(PLAYED))])
    state, effects = run(ctx, state, [core.Tick(1000 + SETTLE)])
    assert [e.text for e in effects if isinstance(e, core.Played)] == ["a1"] and state.thinking
    state, _ = run(ctx, state, [core.AiMoved(2000, state.log.version, GAME.parse_move(PLAYED, reply))])
    assert state.intent.kind is Kind.AI_MOVE
    return ctx, state


def test_the_captured_stone_taken_off_first_is_the_ai_move_under_way_not_a_take_back() -> None:
    ctx, state = ai_to_play("a2")
    assert "a2" in state.intent.sentence and "a1" in state.intent.sentence
    state, effects = run(ctx, state, [core.Reading(3000, reading(PLAYED, empty=("a1",))), core.Tick(9000)])
    assert effects == [] and state.log.moves == ("d4", "b1", "a1")
    assert state.intent.kind is Kind.AI_MOVE and "a2" in state.intent.sentence
    after = GAME.play(PLAYED, GAME.parse_move(PLAYED, "a2"))
    state, effects = run(ctx, state, [core.Reading(9500, reading(after)), core.Tick(9500 + SETTLE)])
    assert [e.text for e in effects if isinstance(e, core.Played)] == ["a2"]
    assert state.log.moves == ("d4", "b1", "a1", "a2") and state.intent.kind is Kind.YOUR_TURN


def test_the_stone_taken_off_while_the_ai_plays_elsewhere_is_a_take_back() -> None:
    ctx, state = ai_to_play("g7")
    state, effects = run(ctx, state, [core.Reading(3000, reading(PLAYED, empty=("a1",))), core.Tick(9000)])
    assert [type(e) for e in effects] == [core.TookBack] and state.log.moves == ("d4", "b1")
