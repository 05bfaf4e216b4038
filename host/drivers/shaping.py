"""From the colours a frame means to the bytes the LEDs get: gamma, brightness cap, current limit.

LEDs respond linearly to PWM duty while eyes do not, so colours go through a
gamma curve; the cap keeps a bright board from dazzling players across the
table; the limit scales a whole frame down when its estimated draw would
exceed what the supply leaves for the LEDs (a frame of many white cells),
keeping hues and relative brightness intact.
"""

from __future__ import annotations

from collections.abc import Sequence

from host.drivers.interfaces import RGB
from host.hardware.power import frame_current_ma
from host.hardware.spec import LedSpec


class OutputShaper:
    def __init__(self, leds: LedSpec) -> None:
        self.leds = leds
        self.table = tuple(round(255 * (i / 255) ** leds.gamma * leds.brightness_cap) for i in range(256))

    def shape(self, frame: Sequence[RGB]) -> list[RGB]:
        table = self.table
        out = [(table[r], table[g], table[b]) for r, g, b in frame]
        limit = self.leds.current_limit_ma
        if limit is None:
            return out
        drawn = frame_current_ma(self.leds, out)
        if drawn <= limit:
            return out
        idle = self.leds.count * self.leds.idle_ma
        factor = (limit - idle) / (drawn - idle)
        return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in out]
