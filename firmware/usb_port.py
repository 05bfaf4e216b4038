"""The USB serial port (the REPL's stdin/stdout), read without ever blocking."""

import select


class UsbPort:
    """read_byte() returns -1 at once when nothing is waiting.

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

    def read_byte(self):
        for _stream, events in self._poll.ipoll(0):
            if events & select.POLLIN:
                try:
                    if self._reader.readinto(self._byte, 1):
                        return self._byte[0]
                except OSError:
                    return -1
        return -1

    def write(self, buf, length):
        try:  # noqa: SIM105 (MicroPython has no contextlib)
            self._writer.write(buf, length)
        except OSError:
            pass
