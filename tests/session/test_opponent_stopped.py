"""An opponent that stops (a GTP engine dies, hangs, cheats, resigns) by tables of (state, event) rows.

The board offers the built-in AI in its place and waits for Confirm: meanwhile nobody is asked for the AI's
side and nothing is committed for it, a take-back or a new game still works, and what the board says names
who plays - the engine, then "The AI" once the built-in AI has taken over.  The same core as
test_core_tables.py, with its Desdemona reed board.
"""

from __future__ import annotations

from typing import Any

from host.hardware.spec import Button
from host.session import core
from host.session.intent import Kind
from tests.session.test_core_tables import GAME, SETTLE, START, context, played, reading_of, run, shown

A4A6 = GAME.play_texts(["a4-a6"])
WHY = "GNU Go 3.8: 'gnugo --mode gtp' died (exited with status 1). Nothing of it was committed."


def asked(effects: list[Any]) -> list[type]:
    return [type(e) for e in effects if isinstance(e, core.AskAi | core.AskHint | core.TakeOver)]


def stopped_after_a4a6(opponent: str | None = "GNU Go 3.8") -> tuple[core.Context, core.State]:
    """The player (Black, side 0) played a4-a6; the engine, asked for White's move, stopped."""
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)), opponent)
    state, effects = run(ctx, state, [*shown(START, 0), core.Reading(1000, reading_of(A4A6))])
    state, effects = run(ctx, state, [core.Tick(1000 + SETTLE)])
    assert played(effects) == ["a4-a6"] and asked(effects) == [core.AskAi] and state.thinking
    state, effects = run(ctx, state, [core.AiStopped(1500, state.log.version, WHY)])
    return ctx, state


def test_the_engine_is_named_while_it_thinks_and_plays() -> None:
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)), "GNU Go 3.8")
    state, _ = run(
        ctx, state, [*shown(START, 0), core.Reading(1000, reading_of(A4A6)), core.Tick(1000 + SETTLE)]
    )
    assert (
        state.intent.kind is Kind.AI_THINKING and state.intent.sentence == "GNU Go 3.8 (White) is thinking..."
    )
    reply = GAME.legal_moves(A4A6)[0]
    state, _ = run(ctx, state, [core.AiMoved(2000, state.log.version, reply)])
    text = GAME.format_move(A4A6, reply)
    assert state.intent.kind is Kind.AI_MOVE and state.intent.sentence.startswith(
        f"GNU Go 3.8 plays {text} for White"
    )


def test_a_stopped_engine_is_said_and_the_builtin_ai_offered_not_asked() -> None:
    ctx, state = stopped_after_a4a6()
    intent = state.intent
    assert intent.kind is Kind.OPPONENT_STOPPED and not state.thinking and state.pending is None
    assert (
        intent.sentence == "GNU Go 3.8 has stopped: press Confirm to play on against the built-in AI (White)."
    )
    assert intent.summary()["kind"] == "opponent_stopped" and state.stopped == WHY
    assert Button.CONFIRM in intent.buttons and Button.HINT not in intent.buttons
    # Time passes, Hint is pressed: nobody is asked anything meanwhile.
    state, effects = run(ctx, state, [core.Tick(9000), core.Press(9001, Button.HINT), core.Tick(20000)])
    assert asked(effects) == [] and state.intent.kind is Kind.OPPONENT_STOPPED


def test_while_offered_a_move_for_the_ai_side_by_hand_is_not_committed() -> None:
    ctx, state = stopped_after_a4a6()
    by_hand = GAME.play(A4A6, GAME.legal_moves(A4A6)[0])
    state, effects = run(ctx, state, [core.Reading(3000, reading_of(by_hand)), core.Tick(3000 + SETTLE)])
    assert played(effects) == [] and state.log.position == A4A6
    assert state.intent.kind is Kind.MISTAKE
    assert state.intent.sentence.startswith("GNU Go 3.8 has stopped: put the board back, then press Confirm")
    assert Button.CONFIRM in state.intent.buttons
    state, effects = run(ctx, state, shown(A4A6, 4000))  # put back: the offer again
    assert played(effects) == [] and state.intent.kind is Kind.OPPONENT_STOPPED


def test_confirm_lets_the_builtin_ai_take_over_and_be_named_the_ai() -> None:
    ctx, state = stopped_after_a4a6()
    state, effects = run(ctx, state, [core.Press(3000, Button.CONFIRM)])
    assert asked(effects) == [core.TakeOver, core.AskAi] and state.thinking
    assert state.stopped is None and state.opponent is None
    assert state.intent.sentence == "The AI (White) is thinking..."
    reply = GAME.legal_moves(A4A6)[0]
    state, _ = run(ctx, state, [core.AiMoved(3500, state.log.version, reply)])
    assert state.intent.kind is Kind.AI_MOVE and state.intent.sentence.startswith("The AI plays")
    # Confirm again (no offer now, no move on the board to confirm) does nothing.
    state, effects = run(ctx, state, [core.Press(3600, Button.CONFIRM)])
    assert effects == [] and state.intent.kind is Kind.AI_MOVE


def test_a_take_back_keeps_the_engine_stopped_until_the_offer_is_taken() -> None:
    ctx, state = stopped_after_a4a6()
    state, effects = run(ctx, state, [core.Press(3000, Button.TAKE_BACK)])
    assert [type(e) for e in effects] == [core.TookBack] and state.log.position == START
    state, _ = run(ctx, state, shown(START, 4000))  # the board set back by hand
    assert state.intent.kind is Kind.YOUR_TURN and state.stopped == WHY
    # The player moves again: the engine is still gone, so the offer comes back, and nobody is asked.
    state, effects = run(ctx, state, [core.Reading(5000, reading_of(A4A6)), core.Tick(5000 + SETTLE)])
    assert played(effects) == ["a4-a6"] and asked(effects) == []
    assert state.intent.kind is Kind.OPPONENT_STOPPED


def test_a_new_game_keeps_the_engine_stopped() -> None:
    ctx, state = stopped_after_a4a6()
    state, effects = run(ctx, state, [core.Press(3000, Button.NEW_GAME), *shown(START, 4000)])
    assert state.log.position == START and state.stopped == WHY and asked(effects) == []
    assert state.intent.kind is Kind.YOUR_TURN


def test_a_stop_reported_for_an_older_position_still_waits_for_the_current_question() -> None:
    ctx, state = stopped_after_a4a6()
    state, _ = run(ctx, state, [core.Press(3000, Button.CONFIRM)])
    assert state.thinking and state.log.version == 1
    # The built-in AI thinks about version 1; a stop said about version 0 does not end that wait.
    state, _ = run(ctx, state, [core.AiStopped(3100, 0, WHY)])
    assert state.thinking and state.intent.kind is Kind.AI_THINKING
    state, _ = run(ctx, state, [core.AiStopped(3200, 1, WHY)])
    assert not state.thinking and state.intent.kind is Kind.OPPONENT_STOPPED


def test_an_ai_move_that_came_is_shown_even_with_a_stop_on_record() -> None:
    ctx, state = stopped_after_a4a6()
    state, _ = run(ctx, state, [core.Press(3000, Button.CONFIRM), core.AiStopped(3100, 0, WHY)])
    reply = GAME.legal_moves(A4A6)[0]
    state, _ = run(ctx, state, [core.AiMoved(3200, state.log.version, reply)])
    assert state.pending == reply and state.intent.kind is Kind.AI_MOVE
