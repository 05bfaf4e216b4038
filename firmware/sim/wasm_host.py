"""The simulated board's wires under MicroPython's WebAssembly port, which has no file
descriptors of its own: emulator/micropython_wasm.mjs hands it the ``host`` module (read, write
and a look at what is waiting on the process's real descriptors), and ``HostStream`` makes each
descriptor the stream sim_main.py gets from the unix port's files: select.poll watches it,
read and readinto wait for bytes as a file does, write hands them on.
"""

import binascii
import io
import os
import time

import host

_STREAM_POLL = 3  # MP_STREAM_POLL: what select.poll asks a Python stream through ioctl
_EAGAIN = 11


class HostStream(io.IOBase):
    def __init__(self, fd):
        self.fd = fd

    def ioctl(self, request, arg):
        if request == _STREAM_POLL:
            return arg & 1 if host.waiting(self.fd) else 0  # POLLIN
        return 0

    def read(self, n):
        return bytes(host.read(self.fd, n))

    def readinto(self, buf, n=-1):
        data = self.read(len(buf) if n < 0 else n)
        buf[: len(data)] = data
        return len(data)

    def write(self, buf, length=-1):
        data = memoryview(buf) if length < 0 else memoryview(buf)[:length]
        written = host.write(self.fd, binascii.hexlify(data).decode())
        if written < 0:
            raise OSError(_EAGAIN)
        return written


def install():
    """What the firmware needs of a port that this one lacks: os.urandom, and a clock of the
    process's own. The port's ticks are whole milliseconds and its sleeps run over by up to 15 ms,
    which stretched the scan period tenfold; the process's clock ticks in microseconds, and its
    sleeps sleep (the port's busy-wait)."""
    os.urandom = lambda n: bytes(host.urandom(n))
    time.ticks_us = host.ticks_us
    time.ticks_ms = host.ticks_ms
    time.sleep_us = host.sleep_us
    time.sleep_ms = lambda ms: host.sleep_us(ms * 1000)
    time.sleep = lambda seconds: host.sleep_us(int(seconds * 1000000))
