"""Random noisy readings - bounce, ghost magnets, random lifts, whole candidates shown, buttons in any
state - never crash a session and never commit a move that is not legal in the committed position at that
moment (property test, every board build).  Budget: 5 examples per board in CI (40 in all, as before);
``HYPOTHESIS_PROFILE=thorough`` runs 5,000 per board."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from engines import registry
from host.hardware.loading import board_ids, load_board
from host.hardware.sensing import Reading, SensorModel
from host.hardware.spec import Button
from host.session.session import Event, EventKind, Session, Settings
from tests.budget import examples

BUTTONS = [b.value for b in Button if not b.optional]


class Random:
    def __init__(self, seed: int) -> None:
        import random

        self.rng = random.Random(seed)

    def choose(self, game: Any, pos: Any) -> Any:
        return self.rng.choice(game.legal_moves(pos))

    def hint(self, game: Any, pos: Any) -> list[Any]:
        return [self.choose(game, pos)]


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["flip", "flip", "flip", "restore", "candidate", "candidate", "button", "wait"]),
        st.integers(0, 10_000),
        st.integers(1, 400),
    ),
    max_size=60,
)


@pytest.mark.parametrize("board_id", board_ids())
@settings(max_examples=examples(5))
@given(seed=st.integers(0, 1000), actions=ACTIONS)
def test_noise_never_crashes_and_commits_only_legal_moves(
    board_id: str, seed: int, actions: list[tuple[str, int, int]]
) -> None:
    board = load_board(board_id)
    model = SensorModel(board)
    game = registry.make(board.game)
    session = Session(
        game, model.reading_of, Reading.EMPTY, opponent=Random(seed),
        settings=Settings(ai_side=seed % 2 if seed % 3 else None, think_in_background=False),
    )  # fmt: skip
    before = tuple(session.moves)
    seen: list[tuple[Any, Event]] = []  # each event with the committed position it happened in
    session.listeners.append(lambda event: seen.append((session.position, event)))
    values = list(model.readings)
    size = game.geometry.size
    reading = list(session.expect.reading)
    t = 0
    session.on_reading(t, reading)
    for kind, number, ms in actions:
        t += ms
        if kind == "flip":
            i = number % len(reading)
            reading[i] = values[(values.index(reading[i]) + 1) % len(values)]
            session.on_reading(t, reading)
        elif kind == "restore":
            reading = list(session.expect.reading)
            session.on_reading(t, reading)
        elif kind == "candidate":  # the board jumps to what some candidate would show, touched or not
            expect = session.expect
            candidates = [c for cell in range(size) for c in expect.covering([cell])] + expect.undoing
            if candidates:
                chosen = candidates[number % len(candidates)]
                reading = list(expect.reading)
                for cell, value in chosen.reading.items():
                    reading[cell] = value
                session.on_reading(t, reading)
        elif kind == "button":
            session.on_button(t, BUTTONS[number % len(BUTTONS)])
        else:
            session.on_tick(t)
    # Every commit was legal where it was made, and replaying them reaches the session's position (from the
    # moves made before the listener was there: an AI that moves first in Go may pass at once).
    moves: list[str] = list(before)
    replayed = game.play_texts(moves)
    for _, event in seen:
        if event.kind is EventKind.COMMIT:
            replayed = game.play(
                replayed, game.parse_move(replayed, event.data["move"])
            )  # MoveError: illegal
            moves.append(event.data["move"])
        elif event.kind is EventKind.TAKEBACK:
            moves = moves[: -event.data["plies"]]
            replayed = game.play_texts(moves)
        elif event.kind is EventKind.NEWGAME:
            moves, replayed = [], game.start()
    assert moves == session.moves
    note(f"{len(moves)} moves committed")
    assert game.key(replayed) == game.key(session.position)
