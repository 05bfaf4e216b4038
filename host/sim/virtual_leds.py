"""A simulated LED chain that records every frame, as meant and as the LEDs would get it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from host.drivers.interfaces import RGB, Clock, check_frame
from host.drivers.shaping import OutputShaper
from host.hardware.spec import LedSpec


@dataclass(frozen=True)
class ShownFrame:
    at_us: int
    frame: tuple[RGB, ...]  # the colours asked for
    output: tuple[RGB, ...]  # after gamma, brightness cap and current limit


class VirtualStrip:
    """An LedStrip that keeps what it was shown (``frames``) instead of lighting anything."""

    def __init__(self, leds: LedSpec, clock: Clock) -> None:
        self.shaper = OutputShaper(leds)
        self.clock = clock
        self._count = leds.count
        self.frames: list[ShownFrame] = []
        self.closed = False

    @property
    def count(self) -> int:
        return self._count

    def show(self, frame: Sequence[RGB]) -> None:
        if self.closed:
            raise RuntimeError("the LED strip is closed")
        check_frame(frame, self._count)
        self.frames.append(ShownFrame(self.clock(), tuple(frame), tuple(self.shaper.shape(frame))))

    def close(self) -> None:
        if not self.closed:
            self.show([(0, 0, 0)] * self._count)
            self.closed = True

    @property
    def current(self) -> tuple[RGB, ...]:
        """The output now on the LEDs (all off before the first frame)."""
        return self.frames[-1].output if self.frames else ((0, 0, 0),) * self._count

    def ever_lit(self) -> set[int]:
        """The LED indices that some frame actually lit."""
        return {i for shown in self.frames for i, rgb in enumerate(shown.output) if any(rgb)}
