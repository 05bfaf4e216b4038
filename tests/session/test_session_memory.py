"""A session kept running for weeks holds nothing per event: what it emitted went to its listeners, and
only their count stays (the scripted mode waits for a quiet moment by it)."""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

from host.hardware.sensing import Reading
from host.session.session import Session, Settings
from tests.session.test_core_tables import GAME, MODEL

EVENTS = 20_000


def test_events_emitted_are_counted_not_kept() -> None:
    session: Session[Any, Any] = Session(
        GAME, MODEL.reading_of, Reading.EMPTY, settings=Settings(ai_side=None, think_in_background=False)
    )
    heard: list[str] = []
    session.listeners.append(lambda event: heard.append(event.kind.value))
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(EVENTS // 2):  # each a notice that the link went, then one that it came back
            session.board_link(False, "the board's cable was pulled")
            session.board_link(True, "")
        assert len(heard) == EVENTS
        heard.clear()  # what the listener kept is the test's, not the session's
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert session.emitted >= EVENTS
    assert grown < 100_000, grown  # kept, 20,000 events are megabytes
