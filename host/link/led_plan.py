"""Which LED frame to send to the Pico next, and what its answer means: the LED sender without its thread.

The session only ever wants the newest picture on the LEDs: ``want`` replaces
the frame waiting to be sent. A frame is due until the device that is
accepted now has taken it, so an ACK lost to noise is a frame sent again, a
newer frame overtakes an older one still being retried, and every device the
link accepts (after an unplug or a restart, whose strip starts dark) gets the
current frame anew. A device that refuses a frame (no LEDs, too few) is not
asked again until the frame changes: refusing it again would not light
anything. host.link.led_sender runs this plan in a thread of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from host.link.messages import LEDS_PER_FRAME, Capability, Hello, LedFrame
from host.link.status import CommandRefused

RGB = tuple[int, int, int]


def led_frames(device: Hello, colours: Sequence[RGB], first: int = 0) -> list[LedFrame]:
    """The LED_FRAMEs that light the device's LEDs first.. with colours, all at once (the last one shows).

    CommandRefused when the device drives no LEDs or too few.
    """
    if not device.capabilities & Capability.LEDS:
        raise CommandRefused(f"board {device.board}: the Pico drives no LEDs (led_pin is null)")
    if first < 0 or first + len(colours) > device.led_count:
        raise CommandRefused(
            f"LEDs {first}..{first + len(colours) - 1} do not exist: the board has {device.led_count}"
        )
    starts = range(0, len(colours), LEDS_PER_FRAME) if colours else range(1)
    return [
        LedFrame(
            first + start,
            tuple(tuple(colour) for colour in colours[start : start + LEDS_PER_FRAME]),
            show=start == starts[-1],
        )
        for start in starts
    ]


class LedPlan:
    def __init__(self) -> None:
        self.resends = 0  # frames sent again after a lost ACK or to a newly accepted device
        self.problem: str | None = None  # why the device refused the current frame
        self._wanted: tuple[RGB, ...] | None = None
        self._version = 0  # of _wanted
        self._shown: tuple[int, int] | None = None  # (version, accepted) of the frame the device took
        self._attempted: int | None = None  # the version last sent

    def want(self, colours: Sequence[RGB]) -> None:
        """The LEDs should show these colours; ValueError for a colour that is not three integers 0..255."""
        for index, colour in enumerate(colours):
            if len(colour) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in colour):
                raise ValueError(f"LED {index}: colour {colour!r} is not (r, g, b) in 0..255")
        self._wanted = tuple(colours)
        self._version += 1

    def current(self, accepted: int) -> bool:
        """Whether nothing is due for the device accepted as the link's accepted-th."""
        return self._wanted is None or self._shown == (self._version, accepted)

    def attempt(self, accepted: int) -> tuple[tuple[RGB, ...], int] | None:
        """The frame to send to that device and its version (counting a resend), or None if none is due."""
        frame = self._wanted
        if frame is None or self.current(accepted):
            return None
        if self._attempted == self._version:
            self.resends += 1
        self._attempted = self._version
        return frame, self._version

    def taken(self, version: int, accepted: int, refusal: str | None = None) -> bool:
        """The device answered version's frame (refusal: why it would not show it).

        True when the refusal is news, to be reported: a frame refused for
        the same reason as the last one is not.
        """
        news = refusal is not None and refusal != self.problem
        self.problem = refusal
        self._shown = (version, accepted)
        return news
