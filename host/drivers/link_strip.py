"""An LED chain driven by the Pico: frames travel over the serial link."""

from __future__ import annotations

from collections.abc import Sequence

from host.drivers.interfaces import RGB, check_frame
from host.drivers.shaping import OutputShaper
from host.hardware.spec import LedSpec
from host.link.device_link import DeviceLink


class LinkStrip:
    """An LedStrip whose frames the firmware shows (board files with ``driver = "pico"``)."""

    def __init__(self, link: DeviceLink, leds: LedSpec, timeout: float = 1.0) -> None:
        self.link = link
        self.timeout = timeout  # for the Pico's answer to each frame
        self.shaper = OutputShaper(leds)
        self._count = leds.count

    @property
    def count(self) -> int:
        return self._count

    def show(self, frame: Sequence[RGB]) -> None:
        check_frame(frame, self._count)
        self.link.send_leds(self.shaper.shape(frame), timeout=self.timeout)

    def close(self) -> None:
        self.show([(0, 0, 0)] * self._count)
