"""Waiting for a device's first STATE: it answers commands only once its sensors have settled.

The firmware says HELLO as it starts and its first STATE after scanning for a whole debounce time
(firmware/device.py); until then it heartbeats but serves no command.  That takes a few scans: a
moment on a Pico, minutes for MicroPython's WebAssembly port in an emulated Pi's userland (HELLO
after 37-52 s, the first STATE 57-84 s later, here).  So the wait lasts while the device is heard
from, up to SETTLE_READIES times the time its HELLO was given: a device that goes silent fails once
it has not come back within that time (a busy machine can delay a slow firmware's heartbeat past
the link's patience; the link then takes it back), and one that never settles still fails (the
firmware itself sends a STATE after at most a hundred debounce times of chatter).
"""

from __future__ import annotations

import time

from host.link.device_link import DeviceLink

SETTLE_READIES = 10.0
POLL_S = 0.005


def wait_settled(link: DeviceLink, ready_s: float) -> str | None:
    """Wait for the first STATE of the device that said HELLO on ``link`` (given ``ready_s`` to do so);
    None once it came, else what went wrong, to follow "said HELLO, then"."""
    patience = SETTLE_READIES * ready_s
    now = time.monotonic()
    deadline, heard = now + patience, now
    while link.latest is None:
        now = time.monotonic()
        if link.device is not None:
            heard = now
        elif now - heard > ready_s:  # dropped by the link and not back within a boot's time
            return "went silent"
        if now >= deadline:
            return f"sent no sensor state within {patience:.3g} s (its sensors never settled)"
        time.sleep(POLL_S)
    return None
