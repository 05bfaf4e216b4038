"""An LED chain driven by the Pico: frames travel over the serial link."""

from __future__ import annotations

from collections.abc import Sequence

from host.drivers.interfaces import RGB, check_frame
from host.drivers.shaping import OutputShaper
from host.hardware.spec import LedSpec
from host.link.device_link import DeviceLink
from host.link.led_sender import ACK_S, LedSender

CLOSE_S = 1.0  # how long closing waits for the dark frame to reach the LEDs


class LinkStrip:
    """An LedStrip whose frames the firmware shows (board files with ``driver = "pico"``).

    ``show`` never blocks and never fails for the link's sake: the sender
    delivers the newest frame whenever a device is there to take it.
    """

    def __init__(self, link: DeviceLink, leds: LedSpec, timeout: float = ACK_S) -> None:
        self.sender = LedSender(link, ack_timeout=timeout)  # timeout: for the Pico's answer to each frame
        self.shaper = OutputShaper(leds)
        self._count = leds.count

    @property
    def count(self) -> int:
        return self._count

    def show(self, frame: Sequence[RGB]) -> None:
        check_frame(frame, self._count)
        self.sender.show(self.shaper.shape(frame))

    def close(self) -> None:
        self.show([(0, 0, 0)] * self._count)
        self.sender.wait_shown(CLOSE_S)
        self.sender.close()
