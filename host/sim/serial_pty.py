"""The USB serial port of a simulated Pico: a pseudo-terminal whose far end the host opens.

The simulator holds the master side (what the firmware reads and writes); ``port``
is the path of the slave side, which the host link, pyserial and mpremote open
exactly as they open a Pico's /dev/ttyACM0. The slave stays open here too, so the
port outlives a firmware restart as a Pico's does when it reboots.
"""

from __future__ import annotations

import fcntl
import os
import tty


class SerialPty:
    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        flags = fcntl.fcntl(self.master, fcntl.F_GETFL)
        fcntl.fcntl(self.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.port = os.ttyname(self._slave)

    def inject(self, data: bytes) -> None:
        """Put bytes on the line towards the host as if the device had sent them (noise)."""
        os.write(self.master, data)

    def discard_host_bytes(self) -> None:
        """Drop what the host sent that no firmware read (a restarted device never sees it)."""
        while True:
            try:
                if not os.read(self.master, 4096):
                    return
            except (BlockingIOError, OSError):
                return

    def close(self) -> None:
        for fd in (self.master, self._slave):
            os.close(fd)
