"""LED frames to the Pico without ever holding up the session that lights them.

The session only ever wants the newest picture on the LEDs, so ``show`` just
replaces the frame waiting to be sent and returns; a thread of its own sends
it (one LED_FRAME per 256 LEDs, each waiting for its ACK). An ACK lost to
noise is a frame sent again, a newer frame overtakes an older one that is
still being retried, and every device the link accepts (after an unplug or a
restart, whose strip starts dark) gets the current frame anew. A device that
refuses a frame (no LEDs, too few) is reported once and not asked again until
the frame changes: refusing it again would not light anything.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from host.link.device_link import CommandRefused, DeviceLink, LinkError

log = logging.getLogger(__name__)

ACK_S = 0.5  # a frame's ACK is a few milliseconds away; longer means it was lost
RETRY_S = 0.05  # pause before sending again after a lost ACK or while no device is accepted

RGB = tuple[int, int, int]


class LedSender:
    def __init__(self, link: DeviceLink, *, ack_timeout: float = ACK_S) -> None:
        self.link = link
        self.ack_timeout = ack_timeout
        self.resends = 0  # frames sent again after a lost ACK or to a newly accepted device
        self.problem: str | None = None  # why the device refused the current frame
        self._changed = threading.Condition()
        self._wanted: tuple[RGB, ...] | None = None
        self._version = 0  # of _wanted
        self._shown: tuple[int, int] | None = None  # (version, link.accepted) of the frame on the LEDs
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="led-sender", daemon=True)
        self._thread.start()

    def show(self, colours: Sequence[RGB]) -> None:
        """Have the LEDs show these colours as soon as the device takes them (never blocks).

        ValueError, at once, for a colour that is not three integers 0..255.
        """
        for index, colour in enumerate(colours):
            if len(colour) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in colour):
                raise ValueError(f"LED {index}: colour {colour!r} is not (r, g, b) in 0..255")
        with self._changed:
            self._wanted = tuple(colours)
            self._version += 1
            self._changed.notify_all()

    def wait_shown(self, timeout: float) -> bool:
        """Whether the newest frame reached the device within timeout seconds (used when closing)."""
        with self._changed:
            return self._changed.wait_for(self._current, timeout)

    def close(self) -> None:
        with self._changed:
            self._stop = True
            self._changed.notify_all()
        self._thread.join(timeout=2 * self.ack_timeout + 1.0)

    def _current(self) -> bool:
        return self._shown == (self._version, self.link.accepted) or self._wanted is None

    def _run(self) -> None:
        attempted: tuple[int, int] | None = None
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._stop or not self._current(), RETRY_S)
                if self._stop:
                    return
                if self._current():
                    continue
                frame, version = self._wanted, self._version
            assert frame is not None
            accepted = self.link.accepted
            if self.link.device is None:
                self._pause()
                continue
            if attempted is not None and attempted[0] == version:
                self.resends += 1
            attempted = (version, accepted)
            try:
                self.link.send_leds(frame, timeout=self.ack_timeout)
            except CommandRefused as exc:
                if str(exc) != self.problem:
                    log.warning("the LEDs cannot show this frame: %s", exc)
                self.problem = str(exc)
            except LinkError as exc:
                log.debug("LED frame not acknowledged, sending it again: %s", exc)
                self._pause()
                continue
            else:
                self.problem = None
            with self._changed:
                self._shown = (version, accepted)
                self._changed.notify_all()

    def _pause(self) -> None:
        with self._changed:
            self._changed.wait_for(lambda: self._stop, RETRY_S)
