"""A session wired to a board build: firmware snapshots in, LED frames out.

The same wiring serves the real board (snapshots from the serial link, frames
to the NeoPixels) and the simulated one (snapshots from the firmware logic
scanning a virtual board, frames to a virtual strip): only the two ends differ.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Generic

from engines.game import M, P
from host.drivers.interfaces import RGB, LedStrip
from host.hardware.sensing import SensorModel, SnapshotError
from host.hardware.spec import BoardSpec, Button
from host.session.lights import frame
from host.session.session import Session

log = logging.getLogger(__name__)


class BoardPlay(Generic[P, M]):
    def __init__(self, session: Session[P, M], board: BoardSpec, model: SensorModel, leds: LedStrip) -> None:
        if board.game != session.game.id:
            raise ValueError(f"board {board.id} is a {board.game} board, not {session.game.id}")
        self.session = session
        self.board = board
        self.model = model
        self.leds = leds
        self.names = session.game.geometry.names
        self.last_frame: list[RGB] | None = None
        self.bad_snapshots = 0

    def on_snapshot(self, t_ms: int, values: Sequence[int]) -> None:
        """A settled snapshot from the firmware: one code per sensor address."""
        try:
            readings = self.model.decode(values)
        except SnapshotError as exc:
            self.bad_snapshots += 1
            log.warning("ignored a snapshot: %s", exc)
            return
        self.session.on_reading(t_ms, [readings[name] for name in self.names])
        self.refresh(t_ms)

    def on_button(self, t_ms: int, name: str | Button) -> None:
        self.session.on_button(t_ms, name)
        self.refresh(t_ms)

    def tick(self, t_ms: int) -> None:
        self.session.on_tick(t_ms)
        self.refresh(t_ms)

    def refresh(self, t_ms: int) -> list[RGB] | None:
        """Write the LED frame for this moment if it differs from the last one; return it if written."""
        colours = frame(self.session.scene, t_ms)
        leds = self.board.led_frame(colours)
        if leds == self.last_frame:
            return None
        self.leds.show(leds)
        self.last_frame = leds
        return leds
