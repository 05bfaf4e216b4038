"""Random noisy readings - bounce, ghost magnets, random lifts, buttons - never crash a session
and never commit a move that is not legal (property test, every game, reed and Hall models)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, note, settings
from hypothesis import strategies as st

from engines import registry
from host.hardware.loading import board_ids, load_board
from host.hardware.sensing import Reading, SensorModel
from host.session.session import Event, Session, Settings

BOARDS = board_ids()


class Random:
    def __init__(self, seed: int) -> None:
        import random

        self.rng = random.Random(seed)

    def choose(self, game: Any, pos: Any) -> Any:
        return self.rng.choice(game.legal_moves(pos))

    def hint(self, game: Any, pos: Any) -> list[Any]:
        return [self.choose(game, pos)]


@settings(max_examples=40, deadline=None)
@given(
    board_id=st.sampled_from(BOARDS),
    seed=st.integers(0, 1000),
    actions=st.lists(
        st.tuples(
            st.sampled_from(["flip", "flip", "flip", "restore", "candidate", "button", "wait"]),
            st.integers(0, 99),
            st.integers(1, 400),
        ),
        max_size=60,
    ),
)
def test_noise_never_crashes_and_commits_only_legal_moves(
    board_id: str, seed: int, actions: list[tuple[str, int, int]]
) -> None:
    board = load_board(board_id)
    model = SensorModel(board)
    game = registry.make(board.game)
    settings = Settings(ai_side=1, think_in_background=False)
    session = Session(game, model.reading_of, Reading.EMPTY, opponent=Random(seed), settings=settings)
    committed: list[Event] = []
    session.listeners.append(committed.append)
    values = list(model.readings)
    reading = list(session.expect.reading)
    t = 0
    session.on_reading(t, reading)
    for kind, cell, ms in actions:
        t += ms
        if kind == "flip":
            i = cell % len(reading)
            reading[i] = values[(values.index(reading[i]) + 1) % len(values)]
            session.on_reading(t, reading)
        elif kind == "restore":
            reading = list(session.expect.reading)
            session.on_reading(t, reading)
        elif kind == "candidate":  # the board jumps to what some candidate would show
            candidates = session.expect.candidates
            if candidates:
                reading = list(candidates[cell % len(candidates)].reading)
                session.on_reading(t, reading)
        elif kind == "button":
            session.on_button(t, ["confirm", "hint", "take_back", "new_game"][cell % 4])
        else:
            session.on_tick(t)
    # Replaying the committed moves from the start is legal, and reaches the session's position.
    replayed = game.start()
    moves: list[str] = []
    for event in committed:
        if event.kind in ("scene", "over"):
            continue
        if event.kind == "commit":
            replayed = game.play(replayed, game.parse_move(replayed, event.data["move"]))
            moves.append(event.data["move"])
        elif event.kind == "takeback":
            moves = moves[: -event.data["plies"]]
            replayed = game.play_texts(moves)
        else:
            moves, replayed = [], game.start()
    assert moves == session.moves
    note(f"{len(moves)} moves committed")
    assert game.key(replayed) == game.key(session.position)
