"""Every opponent's answer is checked where it enters the core: a move or a hint that is not legal in the
position it was asked about is refused in words, nothing of it is committed, the opponent is stopped, and
the built-in AI is offered (as for an engine's illegal move).  Behind that check, ``_commit`` still refuses
any candidate holding an illegal move.

The illegal answer is g1-h1 after a4-a6: Black's queen on g1 moved while White is to move (RULES.md's
Desdemona: each side moves its own queens), which the engine's ``play`` would carry out regardless.
"""

from __future__ import annotations

from typing import Any

import pytest

from host.hardware.spec import Button
from host.session import core
from host.session.intent import Kind, Notice
from host.session.session import Session, Settings
from tests.session.test_core_tables import GAME, MODEL, SETTLE, START, context, played, reading_of, run, shown

A4A6 = GAME.play_texts(["a4-a6"])
G1H1 = GAME.parse_move(START, "g1-h1")  # Black's move at the start; White's turn after a4-a6


def asked_for_white() -> tuple[core.Context, core.State]:
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)))
    state, effects = run(ctx, state, [*shown(START, 0), core.Reading(1000, reading_of(A4A6))])
    state, effects = run(ctx, state, [core.Tick(1000 + SETTLE)])
    assert played(effects) == ["a4-a6"] and state.thinking
    return ctx, state


def test_an_illegal_ai_move_is_refused_in_words_and_the_builtin_ai_offered() -> None:
    assert G1H1 not in GAME.legal_moves(A4A6)
    ctx, state = asked_for_white()
    state, effects = run(ctx, state, [core.AiMoved(1500, state.log.version, G1H1)])
    assert state.pending is None and not state.thinking and state.log.position == A4A6
    (refused,) = [e for e in effects if isinstance(e, core.Refused)]
    assert refused.why == "The AI: answered a move, g1-h1, not legal here. Nothing of it was committed."
    assert state.stopped == refused.why
    assert state.intent.kind is Kind.OPPONENT_STOPPED and "g1-h1" not in state.intent.sentence
    # The board showing the refused move commits nothing.
    after = GAME.play(A4A6, G1H1)
    state, effects = run(ctx, state, [core.Reading(2000, reading_of(after)), core.Tick(2000 + SETTLE)])
    assert played(effects) == [] and state.log.position == A4A6
    state, effects = run(ctx, state, [*shown(A4A6, 3000), core.Press(3000 + SETTLE + 1, Button.CONFIRM)])
    assert [type(e) for e in effects if isinstance(e, core.TakeOver | core.AskAi)] == [
        core.TakeOver,
        core.AskAi,
    ]


def test_an_answer_that_is_no_move_at_all_is_said_by_its_value() -> None:
    ctx, state = asked_for_white()
    state, effects = run(ctx, state, [core.AiMoved(1500, state.log.version, "x" * 1000)])
    (refused,) = [e for e in effects if isinstance(e, core.Refused)]
    assert refused.why.startswith("The AI: answered a move, \"'xxxx")
    assert "... (1002 characters), not legal here." in refused.why and len(refused.why) < 200
    assert state.pending is None and state.log.position == A4A6


def test_a_legal_ai_move_is_taken() -> None:
    ctx, state = asked_for_white()
    reply = GAME.legal_moves(A4A6)[0]
    state, effects = run(ctx, state, [core.AiMoved(1500, state.log.version, reply)])
    assert state.pending == reply and not [e for e in effects if isinstance(e, core.Refused)]


def test_a_hint_with_an_illegal_move_is_refused() -> None:
    ctx = context(ai_side=1)
    state, _ = core.start(ctx, core.Log((START,)), "GNU Go 3.8")
    state, _ = run(ctx, state, [*shown(START, 0), core.Press(1000, Button.HINT)])
    assert state.hinting
    good = GAME.legal_moves(START)[0]
    # A line whose second move (White's) is Black's g1-h1 again: refused as a whole.
    state, effects = run(ctx, state, [core.HintFound(1100, state.log.version, (good, G1H1))])
    (refused,) = [e for e in effects if isinstance(e, core.Refused)]
    assert refused.why.startswith("GNU Go 3.8: answered a hint (its move 2 of 2), g1-h1, not legal here.")
    assert state.hint == () and not state.hinting and state.stopped == refused.why


def test_commit_refuses_a_candidate_with_an_illegal_move() -> None:
    """The last guard: were a candidate of an illegal move ever made, it is not committed."""
    ctx, state = asked_for_white()
    candidate = ctx.expect(state).candidate_for((G1H1,))
    effects: list[Any] = []
    with pytest.raises(AssertionError, match="not legal here: g1-h1"):
        core._commit(ctx, state, candidate, effects)
    assert effects == []


class Cheater:
    """An opponent with a process of its own that answers Black's g1-h1 for White."""

    def __init__(self) -> None:
        self.name: str | None = "Cheater 1.0"
        self.trouble: str | None = None
        self.stopped: str | None = None
        self.refused: list[str] = []

    def start(self, game: Any) -> None:
        """Nothing to start."""

    def choose(self, game: Any, pos: Any) -> Any:
        return G1H1

    def hint(self, game: Any, pos: Any) -> list[Any]:
        return [game.legal_moves(pos)[0]]

    def take_over(self) -> None:
        """Nothing plays instead in this test."""

    def refuse(self, why: str) -> None:
        self.refused.append(why)

    def close(self) -> None:
        """Nothing to stop."""


def test_the_session_stops_a_cheating_opponent_and_says_why() -> None:
    cheater = Cheater()
    settings = Settings(ai_side=1, think_in_background=False)
    session: Session[Any, Any] = Session(
        GAME, MODEL.reading_of, MODEL.reading_of(()), opponent=cheater, settings=settings
    )
    session.on_reading(0, reading_of(START))
    session.on_tick(SETTLE + 1)
    session.on_reading(1000, reading_of(A4A6))
    session.on_tick(1000 + SETTLE + 1)
    why = "Cheater 1.0: answered a move, g1-h1, not legal here. Nothing of it was committed."
    assert session.moves == ["a4-a6"] and session.pending is None
    assert cheater.refused == [why]
    assert session.intent.kind is Kind.OPPONENT_STOPPED
    view = session.view()
    assert Notice.OPPONENT in view.notices and why in view.notice_words
