"""The USB serial port (the REPL's stdin/stdout), read without ever blocking."""

import select
import sys


def read_waiting(port, buf, limit):
    """Up to limit of the bytes waiting on port (a UsbPort) into buf from index 0; how many
    (0: none waiting). One at a time, each after the poll has seen one: a readinto of more would
    wait for them all. The plain Python reference of hotloops.read_waiting (~0.1 ms a byte in
    bytecode on the emulated Pico)."""
    poll = port._poll
    reader = port._reader
    byte = port._byte
    n = 0
    while n < limit:
        ready = 0
        for _stream, events in poll.ipoll(0):
            ready = events & select.POLLIN
        if not ready:
            break
        try:
            if not reader.readinto(byte, 1):
                break
        except OSError:
            break
        buf[n] = byte[0]
        n += 1
    return n


if sys.implementation.name == "micropython":
    from hotloops import read_waiting as _read_waiting
else:
    _read_waiting = read_waiting


class UsbPort:
    """read_into() returns 0 at once when nothing is waiting.

    poll_stream is what select.poll watches (sys.stdin); reader and writer are
    the binary streams (sys.stdin.buffer, sys.stdout.buffer). A write the port
    cannot take is dropped: the protocol repeats full snapshots anyway.
    """

    def __init__(self, poll_stream, reader, writer):
        self._poll = select.poll()
        self._poll.register(poll_stream, select.POLLIN)
        self._reader = reader
        self._writer = writer
        self._byte = bytearray(1)

    def read_into(self, buf, limit):
        """Up to limit of the bytes waiting into buf from index 0; how many (0: none waiting)."""
        return _read_waiting(self, buf, limit)

    def write(self, buf, length):
        try:  # noqa: SIM105 (MicroPython has no contextlib)
            self._writer.write(buf, length)
        except OSError:
            pass
