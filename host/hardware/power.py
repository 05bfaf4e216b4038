"""How much current an LED chain draws, estimated from the duty of every channel.

A WS2812-type LED draws a small quiescent current plus, per colour channel,
roughly its full-scale current times the PWM duty (byte / 255).  The board
file gives both; the validator uses the worst case to check the supply, and
the LED drivers use the estimate of each frame to stay under the limit.
"""

from __future__ import annotations

from collections.abc import Sequence

from host.hardware.spec import LedSpec

RGB = tuple[int, int, int]


def frame_current_ma(leds: LedSpec, output: Sequence[RGB]) -> float:
    """The estimated draw of a frame of output bytes (after gamma and brightness)."""
    duty = sum(r + g + b for r, g, b in output) / 255
    return leds.count * leds.idle_ma + duty * leds.ma_per_channel


def worst_case_ma(leds: LedSpec) -> float:
    """Every LED full white at the brightness cap."""
    top = int(255 * leds.brightness_cap)
    return frame_current_ma(leds, [(top, top, top)] * leds.count)
