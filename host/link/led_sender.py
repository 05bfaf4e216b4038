"""LED frames to the Pico without ever holding up the session that lights them.

``show`` hands the frame to the plan (host.link.led_plan, which decides what
is due) and returns; a thread of its own sends what is due over the link
(one LED_FRAME per 256 LEDs, each waiting for its ACK) and tells the plan
how the device answered.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from host.link.device_link import DeviceLink
from host.link.led_plan import RGB, LedPlan
from host.link.status import CommandRefused, LinkError

log = logging.getLogger(__name__)

ACK_S = 0.5  # a frame's ACK is a few milliseconds away; longer means it was lost
RETRY_S = 0.05  # pause before sending again after a lost ACK or while no device is accepted


class LedSender:
    def __init__(self, link: DeviceLink, *, ack_timeout: float = ACK_S) -> None:
        self.link = link
        self.ack_timeout = ack_timeout
        self._plan = LedPlan()
        self._changed = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="led-sender", daemon=True)
        self._thread.start()

    @property
    def resends(self) -> int:
        """Frames sent again after a lost ACK or to a newly accepted device."""
        return self._plan.resends

    @property
    def problem(self) -> str | None:
        """Why the device refused the current frame."""
        return self._plan.problem

    def show(self, colours: Sequence[RGB]) -> None:
        """Have the LEDs show these colours as soon as the device takes them (never blocks).

        ValueError, at once, for a colour that is not three integers 0..255.
        """
        with self._changed:
            self._plan.want(colours)
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
        return self._plan.current(self.link.accepted)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._stop or not self._current(), RETRY_S)
                if self._stop:
                    return
                if self._current():
                    continue
            accepted = self.link.accepted
            if self.link.device is None:
                self._pause()
                continue
            with self._changed:
                due = self._plan.attempt(accepted)
            if due is None:
                continue
            frame, version = due
            refusal = None
            try:
                self.link.send_leds(frame, timeout=self.ack_timeout)
            except CommandRefused as exc:
                refusal = str(exc)
            except LinkError as exc:
                log.debug("LED frame not acknowledged, sending it again: %s", exc)
                self._pause()
                continue
            with self._changed:
                if self._plan.taken(version, accepted, refusal):
                    log.warning("the LEDs cannot show this frame: %s", refusal)
                self._changed.notify_all()

    def _pause(self) -> None:
        with self._changed:
            self._changed.wait_for(lambda: self._stop, RETRY_S)
