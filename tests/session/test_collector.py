"""The garbage collector as session set-up leaves it: what set-up made frozen, the thresholds tuned, and
the tracker's garbage of every earlier position still freed."""

from __future__ import annotations

import gc
import random
from collections.abc import Iterator

import pytest

from engines import registry
from host.hardware.loading import load_board
from host.hardware.sensing import SensorModel
from host.session.session import Session, Settings
from host.session.setup import GC_THRESHOLDS, make_session
from host.tracking.candidates import Expectations

PLIES = 40


@pytest.fixture
def collector() -> Iterator[None]:
    """gc as a fresh process has it, and back as it was after the test."""
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*thresholds)
    if enabled:
        gc.enable()


def desdemona_session() -> tuple[Session, SensorModel]:
    board = load_board("desdemona-hall")
    settings = Settings(ai_side=None, think_in_background=False)
    return make_session(
        registry.make("desdemona"), board, opponent=None, settings=settings, journal_path=None
    ), (SensorModel(board))


def test_set_up_freezes_what_it_made_and_tunes_the_thresholds(collector: None) -> None:
    session, _ = desdemona_session()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == GC_THRESHOLDS
    session.close()


def test_the_expectations_of_earlier_positions_are_freed(collector: None) -> None:
    # Each position's candidates and expectations refer to each other: only the collector frees them.
    session, model = desdemona_session()
    game, names = session.game, session.names
    rng = random.Random(2)
    t = 0
    live = []
    for _ in range(PLIES):
        pos = session.position
        after = game.play(pos, rng.choice(game.legal_moves(pos)))
        t += 100
        session.on_reading(t, [model.reading_of(tuple(game.cells(after)[n])) for n in names])
        t += 400
        session.on_tick(t)
        live.append(sum(isinstance(o, Expectations) for o in gc.get_objects()))
    session.close()
    assert len(session.moves) == PLIES
    # Some wait for the next collection of their generation, but most are gone (none would be if
    # the collector were off or had frozen them).
    assert max(live) < PLIES * 3 // 4
