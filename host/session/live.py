"""The live loop: the serial link, the buttons and the clock drive a board session.

Everything that touches the session happens on the thread that calls
``run``: snapshots wait in the link's queue, button presses in the buttons'
queue, and the loop hands them on in order and ticks the clock often enough
for readings to settle and LEDs to blink.

No fault of the link stops the loop: while the board is unplugged, restarting
or drowned in noise, the loop keeps ticking the session, and passes every
change of the link's status (connected / reconnecting / disconnected, with the
reason) to ``link_listeners``, and tells the session, whose view then says so.

Readings keep the time they were taken: each snapshot carries the time the
link's reader thread took it off the line, and every snapshot waiting in the
queue is handed on before the clock ticks, so a stall never makes two moves
into one or a half-way board look settled.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic

from engines.game import M, P
from host.drivers.interfaces import Buttons
from host.link.device_link import DeviceLink
from host.link.snapshot import Snapshot
from host.link.status import LinkError, LinkStatus
from host.session.board_play import BoardPlay

TICK_S = 0.02


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class LiveLoop(Generic[P, M]):
    def __init__(
        self,
        play: BoardPlay[P, M],
        link: DeviceLink,
        buttons: Buttons | None = None,
        clock: Callable[[], int] = monotonic_ms,
    ) -> None:
        self.play = play
        self.link = link
        self.buttons = buttons
        self.clock = clock
        self.stop = threading.Event()
        self.observers: list[Callable[[], None]] = []  # called after every step, on the loop's thread
        # called with the link's new status and its reason whenever it changes, on the loop's thread
        self.link_listeners: list[Callable[[LinkStatus, str], None]] = []
        self.link_status = link.status

    def run(self, until: Callable[[], bool] | None = None) -> None:
        """Serve the board until ``stop`` is set or ``until()`` says so."""
        while not self.stop.is_set() and not (until is not None and until()):
            self.step()

    def step(self) -> None:
        try:
            snapshots = [self.link.next_snapshot(TICK_S)]
        except TimeoutError:
            snapshots = []
        except LinkError:  # only once the link is closed, when the table is put away
            self.stop.set()
            return
        snapshots.extend(self._queued())
        status = self.link.status
        if status is not self.link_status:
            self.link_status = status
            reason = self.link.status_reason
            self.play.session.board_link(status is LinkStatus.CONNECTED, status.notice(reason))
            for listener in self.link_listeners:
                listener(status, reason)
        now = self.clock()
        for snapshot in snapshots:
            taken = min(now, snapshot.received_ms) if snapshot.received_ms else now
            self.play.on_snapshot(taken, snapshot.values)
        if self.buttons is not None:
            for press in self.buttons.poll():
                self.play.on_button(now, press.button)
        self.play.tick(now)
        for observer in self.observers:
            observer()

    def _queued(self) -> list[Snapshot]:
        """The snapshots already waiting (read during a stall), oldest first."""
        out = []
        while True:
            try:
                out.append(self.link.next_snapshot(0))
            except (TimeoutError, LinkError):
                return out
