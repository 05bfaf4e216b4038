"""The session core by tables, as QMK tests its debounce: (state, event) rows, and the intent and effects.

``core.step`` is pure, so each row starts from a state built by events and asserts what the next event does:
answers for an older position are dropped, a change of position drops what was derived from the old one,
Confirm takes what the board shows when it is pressed, and nothing but a candidate of the committed
position's own expectations is ever committed.  Readings come from the Desdemona reed board's sensor model
(a queen or a stone is a magnet); positions from RULES.md's notation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import FrozenInstanceError, replace
from typing import Any

import pytest

from engines import registry
from engines.desdemona.rules import Desdemona
from engines.physical import Thing
from engines.table import Role
from host.hardware.loading import load_board
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import Button
from host.session import core
from host.session.describe import describe
from host.session.intent import Kind, RestoreReason
from host.tracking.candidates import Expectations

GAME = registry.make("desdemona")
MODEL = SensorModel(load_board("desdemona-reed"))
NAMES = GAME.geometry.names
SETTLE = core.Settings().settle_ms


def context(ai_side: int | None = None) -> core.Context:
    settings = core.Settings(ai_side=ai_side, think_in_background=True)
    reversible = GAME.table.kinds(Role.REVERSIBLE)
    return core.Context(GAME, MODEL.reading_of, Reading.EMPTY, settings, reversible, describe, hints=True)


def reading_of(pos: Any, changes: dict[str, tuple[Thing, ...]] | None = None) -> tuple[Any, ...]:
    cells = dict(GAME.cells(pos)) | (changes or {})
    return tuple(MODEL.reading_of(tuple(cells[n])) for n in NAMES)


def run(ctx: core.Context, state: core.State, events: Sequence[core.Event]) -> tuple[core.State, list[Any]]:
    effects: list[Any] = []
    for event in events:
        state, more = core.step(ctx, state, event)
        effects += more
    return state, effects


def played(effects: list[Any]) -> list[str]:
    return [e.text for e in effects if isinstance(e, core.Played)]


def shown(pos: Any, t: int) -> list[core.Event]:
    """The board showing ``pos`` at ``t``, then settled."""
    return [core.Reading(t, reading_of(pos)), core.Tick(t + SETTLE)]


START = GAME.start()
A4A6 = GAME.play_texts(["a4-a6"])


def test_a_settled_reading_of_a_legal_move_commits_it_once() -> None:
    ctx = context()
    state, _ = core.start(ctx, core.Log((START,)))
    state, effects = run(ctx, state, [core.Reading(10, reading_of(A4A6)), core.Tick(10 + SETTLE - 1)])
    assert played(effects) == [] and state.intent.kind is Kind.TURN_UNDER_WAY  # not settled yet
    state, effects = run(ctx, state, [core.Tick(10 + SETTLE)])
    assert played(effects) == ["a4-a6"] and state.log.version == 1 and state.log.position == A4A6
    state, effects = run(ctx, state, [core.Tick(10 + 3 * SETTLE)])
    assert played(effects) == []


# --- answers for an older position -----------------------------------------------------------------
def test_the_ai_answer_for_an_older_position_is_dropped() -> None:
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)))
    state, effects = run(ctx, state, shown(A4A6, 10))
    asked = [e for e in effects if isinstance(e, core.AskAi)]
    assert played(effects) == ["a4-a6"] and asked and asked[0].version == state.log.version
    reply = GAME.legal_moves(A4A6)[0]
    stale, _ = run(ctx, state, [core.AiMoved(500, state.log.version - 1, reply)])
    assert stale.pending is None and stale.thinking and stale.intent.kind is Kind.AI_THINKING
    fresh, _ = run(ctx, state, [core.AiMoved(500, state.log.version, reply)])
    assert fresh.pending == reply and fresh.intent.kind is Kind.AI_MOVE


def test_the_ais_side_is_idle_then_thinking_then_waiting_for_hands_then_idle_one_at_a_time() -> None:
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)))
    assert state.ai == core.Idle()  # the player (Black) moves first
    state, _ = run(ctx, state, shown(A4A6, 10))
    assert state.ai == core.Thinking()
    reply = GAME.parse_move(A4A6, "a7-b7/b8")
    state, _ = run(ctx, state, [core.AiMoved(500, state.log.version, reply)])
    assert state.ai == core.Waiting(reply) and state.pending == reply and not state.thinking
    again, _ = run(ctx, state, [core.AiMoved(600, state.log.version, GAME.legal_moves(A4A6)[0])])
    assert again.ai == core.Waiting(reply)  # an answer nobody asked for (any more) changes nothing
    state, effects = run(ctx, state, shown(GAME.play(A4A6, reply), 1000))
    assert played(effects) == ["a7-b7/b8"] and state.ai == core.Idle()


def test_an_ai_answer_nobody_asked_for_is_dropped() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    after, _ = run(ctx, state, [core.AiMoved(5, state.log.version, GAME.legal_moves(START)[0])])
    assert after.pending is None and after.intent.kind is Kind.YOUR_TURN


def test_a_hint_for_an_older_position_is_dropped() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    state, effects = run(ctx, state, [core.Press(5, Button.HINT)])
    assert [type(e) for e in effects] == [core.AskHint] and state.hinting
    hint = (GAME.legal_moves(START)[0],)
    stale, _ = run(ctx, state, [core.HintFound(6, state.log.version + 1, hint)])
    assert stale.hint == () and "Hint" not in stale.intent.sentence
    fresh, _ = run(ctx, state, [core.HintFound(6, state.log.version, hint)])
    assert fresh.hint == hint and "Hint" in fresh.intent.sentence


def test_a_hint_nobody_asked_for_is_dropped() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    after, _ = run(ctx, state, [core.HintFound(6, state.log.version, (GAME.legal_moves(START)[0],))])
    assert after.hint == ()


# --- a change of position drops what was derived ------------------------------------------------------
@pytest.mark.parametrize("button", [Button.TAKE_BACK, Button.NEW_GAME])
def test_take_back_and_new_game_bump_the_version_and_drop_the_pending_move(button: Button) -> None:
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)))
    state, _ = run(ctx, state, shown(A4A6, 10))
    state, _ = run(ctx, state, [core.AiMoved(400, state.log.version, GAME.legal_moves(A4A6)[0])])
    assert state.pending is not None
    version = state.log.version
    after, effects = run(ctx, state, [core.Press(500, button)])
    expected = core.TookBack(1) if button is Button.TAKE_BACK else core.NewGame()
    assert effects == [expected] and after.log.version == version + 1 and after.log.position == START
    assert after.pending is None and not after.thinking and after.hint == () and after.asking is None
    assert after.away is not None and after.intent.kind is Kind.RESTORE
    late, _ = run(ctx, after, [core.AiMoved(600, version, GAME.legal_moves(A4A6)[0])])
    assert late.pending is None  # the AI's move of the position left behind


def test_a_resumed_game_starts_at_its_last_position_with_nothing_derived() -> None:
    ctx = context(ai_side=None)
    log = core.Log((START, A4A6), ("a4-a6",), version=7)
    state, effects = core.start(ctx, log)
    assert effects == [] and state.log.version == 7 and state.pending is None and state.asking is None
    assert state.intent.kind is Kind.YOUR_TURN and "White to move" in state.intent.sentence


# --- Confirm -----------------------------------------------------------------------------------------
def asked_about_d1() -> tuple[core.Context, core.State, tuple[Any, ...]]:
    """A reed board showing White's queen moved up from d1 with a shot: d1-d3/d5 or d1-d5/d3 (a new context:
    the core's expectations are a memo of one line of play, and a branch of it starts its own)."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START, A4A6), ("a4-a6",)))
    after = reading_of(GAME.play_texts(["d1-d3/d5"], A4A6))
    state, _ = run(ctx, state, [core.Reading(10, after), core.Tick(10 + SETTLE)])
    assert state.intent.kind is Kind.CHOOSE and state.asking is not None
    return ctx, state, after


def test_confirm_takes_the_move_shown_when_it_is_pressed() -> None:
    ctx, state, _ = asked_about_d1()
    assert state.asking is not None
    first = state.asking.shown.label
    _, effects = run(ctx, state, [core.Press(400, Button.CONFIRM)])
    assert played(effects) == [first]


def test_after_a_tap_confirm_takes_the_other_move() -> None:
    ctx, state, after = asked_about_d1()
    assert state.asking is not None
    first = state.asking.shown.label
    lifted = tuple(Reading.EMPTY if n == "d3" else r for n, r in zip(NAMES, after, strict=True))
    tapped, _ = run(ctx, state, [core.Reading(500, lifted), core.Reading(650, after)])
    assert tapped.asking is not None and tapped.asking.shown.label != first
    _, effects = run(ctx, tapped, [core.Press(700, Button.CONFIRM)])
    assert played(effects) == [tapped.asking.shown.label]


def test_confirm_with_nothing_to_confirm_commits_nothing() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    for events in ([], [core.Reading(10, reading_of(START, {"a4": ()}))]):
        now, _ = run(ctx, state, events)
        after, effects = run(ctx, now, [core.Press(50, Button.CONFIRM)])
        assert played(effects) == [] and after.log.version == state.log.version


def test_confirm_is_worked_out_again_when_pressed_not_taken_from_an_older_verdict() -> None:
    """The board asked, then a hand took the stone off again: Confirm takes nothing of what was asked."""
    ctx, state, after = asked_about_d1()
    moved = tuple(Reading.EMPTY if n == "d5" else r for n, r in zip(NAMES, after, strict=True))
    state, _ = run(ctx, state, [core.Reading(400, moved)])
    _, effects = run(ctx, state, [core.Press(410, Button.CONFIRM)])
    assert played(effects) == []


# --- legal by construction ---------------------------------------------------------------------------
def test_a_candidate_of_an_older_position_is_never_committed() -> None:
    """A candidate carries the version it was made for: one made before a take-back, for a position the
    board was at then, is not committed after it, even where the position is the same again (the version
    is not); one of the current version is."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    a4a6 = (GAME.parse_move(START, "a4-a6"),)
    older = ctx.expect(state).candidate_for(a4a6)
    state, _ = run(ctx, state, shown(A4A6, 10))
    state, _ = run(ctx, state, [core.Press(400, Button.TAKE_BACK), *shown(START, 500)])
    assert state.log.position == START and state.log.version == 2 and state.away is None
    effects: list[Any] = []
    after = core._commit(ctx, state, older, effects)
    assert after is state and effects == []
    stranger = Expectations(GAME, MODEL.reading_of, Reading.EMPTY, [START], reversible=frozenset({"stone"}))
    assert core._commit(ctx, state, stranger.candidate_for(a4a6), effects) is state and effects == []
    current = ctx.expect(state).candidate_for(a4a6)
    after = core._commit(ctx, state, current, effects)
    assert after.log.moves == ("a4-a6",) and played(effects) == ["a4-a6"]


def test_a_question_asked_for_an_older_position_is_not_answered_after_a_take_back() -> None:
    ctx, state, _ = asked_about_d1()
    back, _ = run(ctx, state, [core.Press(400, Button.TAKE_BACK)])
    assert back.asking is None and back.log.position == START
    _, effects = run(ctx, back, [core.Press(410, Button.CONFIRM)])
    assert played(effects) == []


def test_a_state_with_its_derived_fields_dropped_is_the_same_intent() -> None:
    """describe reads the state only: the same state gives the same intent (a pure function)."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    state, _ = run(ctx, state, [core.Reading(10, reading_of(START, {"a4": ()}))])
    again, _ = core.step(ctx, replace(state), core.Tick(10))
    assert again.intent == state.intent and again.intent.scene == state.intent.scene


# --- taps while asking -------------------------------------------------------------------------------
def asking_between(first: str, second: str) -> tuple[core.Context, core.State, tuple[Any, ...]]:
    """The core asking between two moves of the start (a state row: which two does not matter to the taps)."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    base = reading_of(START)
    state, _ = run(ctx, state, [core.Reading(10, base), core.Tick(10 + SETTLE)])
    expect = ctx.expect(state)
    choices = tuple(expect.candidate_for((GAME.parse_move(START, text),)) for text in (first, second))
    return ctx, replace(state, asking=core.Asking(choices, base)), base


def tap(base: tuple[Any, ...], cell: str, t: int) -> list[core.Event]:
    """A hand lifting what is on ``cell`` and putting it back, within the settling time."""
    lifted = tuple(Reading.EMPTY if n == cell else r for n, r in zip(NAMES, base, strict=True))
    return [core.Reading(t, lifted), core.Reading(t + 50, base)]


def test_a_tap_on_a_cell_only_one_choice_moves_picks_that_choice() -> None:
    for cell, label in (("d10", "d10-d8"), ("a4", "a4-a6")):
        ctx, state, base = asking_between("a4-a6", "d10-d8")  # a new context for each branch
        assert state.asking is not None and state.asking.shown.label == "a4-a6"
        tapped, effects = run(ctx, state, tap(base, cell, 400))
        assert tapped.asking is not None and [c.label for c in tapped.asking.choices] == [label]
        assert played(effects) == []
        _, effects = run(ctx, tapped, [core.Press(500, Button.CONFIRM)])
        assert played(effects) == [label]


def test_a_tap_on_a_cell_no_choice_moves_shows_the_next_choice() -> None:
    ctx, state, base = asking_between("a4-a6", "d10-d8")
    tapped, _ = run(ctx, state, tap(base, "g1", 400))
    assert tapped.asking is not None and len(tapped.asking.choices) == 2
    assert tapped.asking.shown.label == "d10-d8"
    again, _ = run(ctx, tapped, tap(base, "g1", 500))
    assert again.asking is not None and again.asking.shown.label == "a4-a6"  # round again


# --- take-backs --------------------------------------------------------------------------------------
D1D3 = GAME.play_texts(["a4-a6", "d1-d3/d5"])


def test_take_back_with_two_humans_takes_back_one_move() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START, A4A6, D1D3), ("a4-a6", "d1-d3/d5")))
    after, effects = run(ctx, state, [core.Press(5, Button.TAKE_BACK)])
    assert effects == [core.TookBack(1)]
    assert after.log.moves == ("a4-a6",) and after.log.history == (START, A4A6)


def test_take_back_before_the_player_has_moved_takes_back_the_ais_first_move_only() -> None:
    """The AI moved first and the player has no earlier turn: back to the start, and the AI is asked again."""
    ctx = context(ai_side=0)
    state, _ = core.start(ctx, core.Log((START, A4A6), ("a4-a6",)))
    assert state.log.position == A4A6 and not state.thinking  # the player (White) to move
    after, effects = run(ctx, state, [core.Press(5, Button.TAKE_BACK)])
    assert effects[0] == core.TookBack(1) and after.log.history == (START,) and after.log.moves == ()
    assert [type(e) for e in effects[1:]] == [core.AskAi] and after.thinking


def test_a_move_taken_back_by_hand_keeps_the_moves_before_it() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START, A4A6, D1D3), ("a4-a6", "d1-d3/d5")))
    after, effects = run(ctx, state, [*shown(D1D3, 10), *shown(A4A6, 20 + SETTLE)])
    assert effects == [core.TookBack(1)]
    assert after.log.moves == ("a4-a6",) and after.log.history == (START, A4A6)


def test_new_game_at_the_start_with_nothing_to_put_back_does_nothing() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    state, _ = run(ctx, state, shown(START, 10))
    after, effects = run(ctx, state, [core.Press(400, Button.NEW_GAME)])
    assert effects == [] and after.log.version == state.log.version


def test_new_game_while_the_board_is_still_put_back_after_a_take_back_starts_again() -> None:
    """Nothing is left in the log, but the board still shows the move taken back: a new game is a change."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START, A4A6), ("a4-a6",)))
    state, _ = run(ctx, state, [*shown(A4A6, 10), core.Press(400, Button.TAKE_BACK)])
    assert state.log.moves == () and state.away is not None
    after, effects = run(ctx, state, [core.Press(500, Button.NEW_GAME)])
    assert effects == [core.NewGame()] and after.log.version == state.log.version + 1
    assert after.away is not None and after.intent.kind is Kind.RESTORE


def test_once_the_board_is_put_back_the_session_is_no_longer_wary() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START, A4A6), ("a4-a6",)))
    state, _ = run(ctx, state, [*shown(A4A6, 10), core.Press(400, Button.TAKE_BACK)])
    back, _ = run(ctx, state, shown(START, 500))
    assert back.away is None and not back.wary and back.intent.kind is Kind.YOUR_TURN


# --- nothing is taken while restoring or thinking, no hint while thinking ------------------------------
def test_confirm_while_the_board_is_put_back_commits_nothing() -> None:
    """After a take-back the board still shows a4-a6, a legal move of the position now committed."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START, A4A6), ("a4-a6",)))
    state, _ = run(ctx, state, [*shown(A4A6, 10), core.Press(400, Button.TAKE_BACK)])
    after, effects = run(ctx, state, [core.Tick(400 + 2 * SETTLE), core.Press(1000, Button.CONFIRM)])
    assert played(effects) == [] and after.log.moves == ()


def test_hint_while_the_ai_thinks_asks_for_nothing() -> None:
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)))
    state, _ = run(ctx, state, shown(A4A6, 10))
    assert state.thinking
    after, effects = run(ctx, state, [core.Press(400, Button.HINT)])
    assert effects == [] and not after.hinting


def test_by_default_the_player_moves_first_and_the_ai_answers() -> None:
    ctx = core.Context(
        GAME,
        MODEL.reading_of,
        Reading.EMPTY,
        core.Settings(),
        GAME.table.kinds(Role.REVERSIBLE),
        describe,
        True,
    )
    state, effects = core.start(ctx, core.Log((START,)))
    assert effects == [] and not state.thinking
    state, effects = run(ctx, state, shown(A4A6, 10))
    assert [type(e) for e in effects] == [core.Played, core.AskAi]


# --- a pass nobody makes with their hands --------------------------------------------------------------
BLOCKED = Desdemona.from_diagram(  # Black's only queen a1 boxed in: Black must pass (RULES.md section 3)
    """
    . . . . . . . . . W
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    W x . . . . . . . .
    B x . . . . . . . .
    """
)


def test_a_forced_pass_is_played_at_once() -> None:
    ctx = context(ai_side=None)
    state, effects = core.start(ctx, core.Log((BLOCKED,)))
    assert effects == [core.Played("pass", 1)] and state.log.moves == ("pass",)
    assert GAME.to_move(state.log.position) == 1


def test_a_blocked_ai_passes_without_being_asked() -> None:
    ctx = context(ai_side=0)
    state, effects = core.start(ctx, core.Log((BLOCKED,)))
    assert played(effects) == ["pass"] and not state.thinking and state.pending is None


def test_the_cores_states_events_and_effects_are_values_no_step_can_change() -> None:
    """A step returns a new state and never alters one it was given: a table row can be replayed from any
    state it kept (and an event or effect cannot be changed by whoever else holds it)."""
    log = core.Log((START,))
    state = core.State(log)
    values: list[object] = [
        core.Settings(), log, state, core.Asking((), ()), core.Away(RestoreReason.TAKE_BACK, {}),
        core.Reading(0, ()), core.Tick(0), core.Press(0, Button.HINT), core.AiMoved(0, 0, None),
        core.HintFound(0, 0, ()), core.Played("a4-a6", 1), core.TookBack(1), core.NewGame(),
        core.AskAi(0, START), core.AskHint(0, START), core.AiStopped(0, 0, "gone"), core.TakeOver(),
        core.Idle(), core.Thinking(), core.Waiting(None),
    ]  # fmt: skip
    for value in values:
        with pytest.raises(FrozenInstanceError):
            value.t = 1  # type: ignore[attr-defined]


# --- more rows: settling, thinking, evidence, questions ---------------------------------------------------
def test_a_reading_is_taken_once_it_has_stood_250_ms() -> None:
    """README: one match is committed once the reading has settled (250 ms)."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    state, effects = run(ctx, state, [core.Reading(10, reading_of(A4A6)), core.Tick(259)])
    assert played(effects) == []
    _, effects = run(ctx, state, [core.Tick(260)])
    assert played(effects) == ["a4-a6"]


@pytest.mark.parametrize(
    ("back_for", "against"),
    [(SETTLE - 1, True), (SETTLE, False)],
    ids=["back-briefly-still-against", "back-settled-put-back"],
)
def test_a_settled_return_to_the_committed_position_puts_the_touches_before_it_back(
    back_for: int, against: bool
) -> None:
    """Issue 40: the queens on a4 and g1 lifted, a4 put back while g1 is still in the hand (a4's touch
    ended with the board still changed: it may count against a move), then g1 put back.  Once the board
    has stood as committed for the settle time, a4's touch ended with everything put back and counts
    against nothing done next (d1 lifted); a briefer return is a hand still at work."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    back = 300
    events = [
        core.Reading(10, reading_of(START, {"a4": ()})),
        core.Reading(100, reading_of(START, {"a4": (), "g1": ()})),
        core.Reading(200, reading_of(START, {"g1": ()})),
        core.Reading(back, reading_of(START)),
        core.Reading(back + back_for, reading_of(START, {"d1": ()})),
    ]
    state, _ = run(ctx, state, events)
    (touch,) = state.evidence.touches[NAMES.index("a4")]
    assert touch.back is not against and touch.end == 200 and NAMES.index("d1") in state.evidence.touches
    assert state.evidence.stood(NAMES.index("a4"), 150) is against


def test_a_board_that_stands_off_the_committed_position_keeps_its_touches() -> None:
    """A piece held off its cell for longer than the settle time is a turn under way, not a turn begun
    afresh: a4's touch stays when g1 is lifted too."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    events = [core.Reading(10, reading_of(START, {"a4": ()})), core.Tick(10 + 2 * SETTLE)]
    state, _ = run(
        ctx, state, [*events, core.Reading(20 + 2 * SETTLE, reading_of(START, {"a4": (), "g1": ()}))]
    )
    assert not any(t.back for t in state.evidence.touches[NAMES.index("a4")])


def test_a_commit_leaves_no_mistake_shown() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    wrong = reading_of(START, {"e5": (Thing("stone", 0),)})  # a magnet on e5 and no queen gone: no move
    state, _ = run(ctx, state, [core.Reading(10, wrong), core.Tick(10 + SETTLE)])
    assert state.wary and state.intent.kind is Kind.MISTAKE
    state, effects = run(ctx, state, shown(A4A6, 400))
    assert played(effects) == ["a4-a6"] and not state.wary and state.intent.kind is Kind.YOUR_TURN


def test_while_the_ai_thinks_a_board_in_sync_is_calm_and_a_stray_change_is_a_mistake() -> None:
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)))
    state, _ = run(ctx, state, shown(A4A6, 10))
    state, _ = run(ctx, state, [core.Tick(10 + 3 * SETTLE)])
    assert state.thinking and not state.wary and state.intent.kind is Kind.AI_THINKING
    wrong = reading_of(A4A6, {"e5": (Thing("stone", 0),)})
    state, effects = run(ctx, state, [core.Reading(1000, wrong), core.Tick(1000 + SETTLE)])
    assert effects == [] and state.thinking and state.wary


def test_while_the_ai_thinks_the_player_may_take_their_move_back_by_hand() -> None:
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)))
    state, _ = run(ctx, state, shown(A4A6, 10))
    assert state.thinking
    version = state.log.version
    back, effects = run(ctx, state, shown(START, 400))
    assert effects[0] == core.TookBack(1) and back.log.moves == () and back.log.version == version + 1
    late, _ = run(ctx, back, [core.AiMoved(800, version, GAME.legal_moves(A4A6)[0])])
    assert late.pending is None  # the answer to the position taken back


def test_a_hint_that_arrives_ends_the_asking() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    state, _ = run(ctx, state, [core.Press(5, Button.HINT)])
    hint = (GAME.legal_moves(START)[0],)
    after, _ = run(ctx, state, [core.HintFound(6, state.log.version, hint)])
    assert not after.hinting and after.hint == hint
    _, effects = run(ctx, after, [core.Press(7, Button.HINT)])
    assert [type(e) for e in effects] == [core.AskHint]  # and a new one may be asked for


def test_a_tap_on_no_choice_goes_round_three_choices_in_order() -> None:
    ctx, state, base = asking_between("a4-a6", "d10-d8")
    assert state.asking is not None
    third = ctx.expect(state).candidate_for((GAME.parse_move(START, "g1-g3"),))
    state = replace(state, asking=replace(state.asking, choices=(*state.asking.choices, third)))
    labels = []
    for t in (400, 500, 600):
        state, _ = run(ctx, state, tap(base, "j7", t))
        assert state.asking is not None
        labels.append(state.asking.shown.label)
    assert labels == ["d10-d8", "g1-g3", "a4-a6"]


def test_a_shot_put_down_before_the_queen_moved_is_told_from_the_queen_landing_there() -> None:
    """Reed sensors read a queen and a stone alike: d1-d3/d5 and d1-d5/d3 end the same.  The stone was on
    d5 before the queen left d1, so the queen cannot have landed on d5 (the times each cell changed)."""
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START, A4A6), ("a4-a6",)))
    after = reading_of(D1D3)
    now, cell = list(reading_of(A4A6)), {n: k for k, n in enumerate(NAMES)}
    events: list[core.Event] = []
    for t, name in ((10, "d5"), (100, "d1"), (200, "d3")):
        now[cell[name]] = after[cell[name]]
        events.append(core.Reading(t, tuple(now)))
    state, effects = run(ctx, state, [*events, core.Tick(200 + SETTLE)])
    assert played(effects) == ["d1-d3/d5"] and state.asking is None


def test_while_the_ai_thinks_a_move_of_its_own_made_by_hand_is_not_taken() -> None:
    """Only a take-back is taken while the AI thinks: the player may not move for it."""
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)))
    state, _ = run(ctx, state, shown(A4A6, 10))
    assert state.thinking
    theirs = GAME.play_texts(["d1-d2/e3"], A4A6)  # one of White's moves, and no other reads like it
    after, effects = run(ctx, state, shown(theirs, 400))
    assert played(effects) == [] and after.thinking and after.log.moves == ("a4-a6",)


def test_the_same_reading_and_evidence_give_the_same_verdict_without_working_it_out_again() -> None:
    ctx = context(ai_side=None)
    state, _ = core.start(ctx, core.Log((START,)))
    state, _ = run(ctx, state, [core.Reading(10, reading_of(A4A6))])
    assert ctx.verdict(state) is ctx.verdict(state)


def test_a_forced_pass_waits_for_the_board_to_be_set_up_and_is_then_played() -> None:
    """New game back to a position where Black must pass: not while White's queen is still away from j10,
    and at once when the board shows the position again (Black could never move otherwise)."""
    ctx = context(ai_side=None)
    moves = ("pass", "j10-j9/j8", "pass")
    history = [BLOCKED]
    for text in moves:
        history.append(GAME.play_texts([text], history[-1]))
    state, _ = core.start(ctx, core.Log(tuple(history), moves))
    state, _ = run(ctx, state, [*shown(history[-1], 10), core.Press(400, Button.NEW_GAME)])
    assert state.log.moves == () and state.away is not None and state.intent.kind is Kind.RESTORE
    state, effects = run(ctx, state, shown(BLOCKED, 500))
    assert (
        effects == [core.Played("pass", 1)] and state.away is None and GAME.to_move(state.log.position) == 1
    )


def test_a_take_back_is_put_right_only_once_a_stone_it_turned_has_been_turned_back() -> None:
    """White's a7-d4xf4 turned the stone on e4 (RULES.md section 3, a capture). A reed reads a stone the
    same either side up: with the queen back on a7 and f4 empty the board reads as before the capture,
    yet e4 must still be turned over, which only a touch shows."""
    ctx = context(ai_side=None)
    texts = ("g1-g4", "j4-e9/e4", "j7-j8/d2", "a7-d4xf4")
    history = [START]
    for text in texts:
        history.append(GAME.play_texts([text], history[-1]))
    state, _ = core.start(ctx, core.Log(tuple(history), texts))
    state, _ = run(ctx, state, [*shown(history[-1], 10), core.Press(400, Button.TAKE_BACK)])
    state, effects = run(ctx, state, shown(history[-2], 500))
    assert effects == [] and not state.differing and state.away is not None
    assert state.intent.kind is Kind.RESTORE and "e4" in state.intent.sentence
    before = reading_of(history[-2])
    lifted = tuple(Reading.EMPTY if n == "e4" else r for n, r in zip(NAMES, before, strict=True))
    state, _ = run(
        ctx, state, [core.Reading(1000, lifted), core.Reading(1200, before), core.Tick(1200 + SETTLE)]
    )
    assert state.away is None and state.intent.kind is Kind.YOUR_TURN


def test_take_back_with_the_ai_takes_back_its_reply_and_the_players_move() -> None:
    """Back to the player's previous turn: the AI's reply and the move it answered (two plies)."""
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START, A4A6, D1D3), ("a4-a6", "d1-d3/d5")))
    assert not state.thinking  # Black, the player, to move
    after, effects = run(ctx, state, [core.Press(5, Button.TAKE_BACK)])
    assert effects == [core.TookBack(2)] and after.log.history == (START,) and not after.thinking


def test_take_back_while_the_ai_thinks_takes_back_only_the_players_move() -> None:
    """The player has moved and the AI not yet answered: the player's previous turn is the one just
    played, so one ply goes (not the AI's earlier reply with it), and the AI is no longer asked."""
    ctx = context(ai_side=1)
    third = GAME.legal_texts(D1D3)[0]
    history = (START, A4A6, D1D3, GAME.play_texts(["a4-a6", "d1-d3/d5", third]))
    state, _ = core.start(ctx, core.Log(history, ("a4-a6", "d1-d3/d5", third)))
    assert state.thinking  # Black, the AI, to move
    after, effects = run(ctx, state, [core.Press(5, Button.TAKE_BACK)])
    assert effects[0] == core.TookBack(1) and after.log.history == (START, A4A6, D1D3)
    assert not after.thinking


def go_context() -> tuple[core.Context, core.State, tuple[Any, ...]]:
    """Go on a Hall board (a voluntary pass, RULES.md), the empty board shown and settled."""
    game = registry.make("go7")
    model = SensorModel(load_board("go7-hall"))
    settings = core.Settings(ai_side=None)
    ctx = core.Context(game, model.reading_of, Reading.EMPTY, settings, frozenset(), describe, hints=True)
    state, _ = core.start(ctx, core.Log((game.start(),)))
    empty = tuple(model.reading_of(()) for _ in game.geometry.names)
    state, _ = run(ctx, state, [core.Reading(10, empty), core.Tick(10 + SETTLE)])
    return ctx, state, empty


def test_pass_plays_the_pass_only_with_no_question_standing_and_nothing_to_set_up() -> None:
    ctx, state, empty = go_context()
    _, effects = run(ctx, state, [core.Press(400, Button.PASS)])
    assert played(effects) == ["pass"]
    # A question stands (a stone put down and lifted again within the settling time) ...
    expect = ctx.expect(state)
    choices = tuple(expect.candidate_for((move,)) for move in ctx.game.legal_moves(state.log.position)[:2])
    base = list(empty)
    for cell, value in choices[0].reading.items():
        base[cell] = value
    asking = replace(state, asking=core.Asking(choices, tuple(base)))
    _, effects = run(ctx, asking, [core.Press(400, Button.PASS)])
    assert played(effects) == []
    # ... or the board is still to be set up (what a board could not see yet).
    away = replace(state, away=core.Away(RestoreReason.TAKE_BACK, {0: ()}))
    _, effects = run(ctx, away, [core.Press(400, Button.PASS)])
    assert played(effects) == []
