"""The USB serial port of a simulated Pico - a pseudo-terminal whose far end the host opens -
and the lifetime both simulated Picos share (``PicoProcess``).

The simulator holds the master side (what the firmware reads and writes); ``port``
is the path of the slave side, which the host link, pyserial and mpremote open
exactly as they open a Pico's /dev/ttyACM0. The slave stays open here too, so the
port outlives a firmware restart as a Pico's does when it reboots.
"""

from __future__ import annotations

import abc
import contextlib
import fcntl
import os
import subprocess
import tempfile
import tty
from pathlib import Path
from typing import Self


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

    def inject_to_device(self, data: bytes) -> None:
        """Put bytes on the line towards the firmware as if the host had sent them (noise)."""
        os.write(self._slave, data)

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


class PicoProcess(abc.ABC):
    """The lifetime both simulated Picos share: a working folder, the serial port, one child
    process at a time. Subclasses write what the Pico holds in ``_prepare`` and start the child
    in ``_spawn``; ``_after_kill`` closes what belonged to the child. Errors are ``error``'s."""

    error: type[Exception] = RuntimeError
    prefix = "magboard-pico-"
    slowdown = 1.0  # the host waits this many times longer for this device than for the unix port

    def __init__(self) -> None:
        self._workdir: tempfile.TemporaryDirectory[str] | None = None
        self._pty: SerialPty | None = None
        self.port = ""
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Self:
        if self._workdir is not None:
            raise self.error("already started")
        self._workdir = tempfile.TemporaryDirectory(prefix=self.prefix)
        # A stable name for the port, as udev's by-id link is for a Pico: it survives unplugging.
        self.port = str(self._path("ttyACM0"))
        self._prepare()
        self.plug_in()
        return self

    def plug_in(self) -> None:
        """A new pseudo-terminal under the same name, and the Pico booting on it."""
        if self._workdir is None:
            raise self.error("not started")
        if self._pty is not None:
            raise self.error("already plugged in")
        self._pty = SerialPty()
        os.symlink(self._pty.port, self.port)
        self._spawn()

    def unplug(self) -> None:
        """Pull the cable: the Pico loses power and the port vanishes (reads on it fail)."""
        self.kill()
        if self._pty is not None:
            self._pty.close()
            self._pty = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.port)

    def close(self) -> None:
        """Stop the Pico and remove its pseudo-terminal and files."""
        self.unplug()
        if self._workdir is not None:
            self._workdir.cleanup()
            self._workdir = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def kill(self) -> None:
        """Stop the Pico at once, as pulling the power would (the port stays)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
        self._after_kill()

    def restart(self) -> None:
        """Power-cycle: the Pico boots again (a new boot id) with the sensors as they are now."""
        if self._workdir is None or self._pty is None:
            raise self.error("not started")
        self.kill()
        self._pty.discard_host_bytes()
        self._spawn()

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def output(self) -> str:
        """What the child printed on stderr in the current run (tracebacks)."""
        if self._workdir is None:
            return ""
        path = self._path("stderr.txt")
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def inject(self, data: bytes) -> None:
        """Put bytes on the line towards the host as if the device had sent them (noise)."""
        if self._pty is None:
            raise self.error("not started")
        self._pty.inject(data)

    def inject_to_device(self, data: bytes) -> None:
        """Put bytes on the line towards the firmware as if the host had sent them (noise)."""
        if self._pty is None:
            raise self.error("not started")
        self._pty.inject_to_device(data)

    def _path(self, name: str) -> Path:
        assert self._workdir is not None
        return Path(self._workdir.name) / name

    @abc.abstractmethod
    def _prepare(self) -> None:
        """Write the Pico's files into the working folder before the first boot."""

    @abc.abstractmethod
    def _spawn(self) -> None:
        """Start the child: the Pico boots."""

    @abc.abstractmethod
    def _after_kill(self) -> None:
        """Close what belonged to the child that was just stopped."""
