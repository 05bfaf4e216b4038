"""The host end of the serial link to the board's microcontroller: the protocol run on a port.

A background thread owns the port: it finds the device (a configured path or
the Pico's USB id), opens it exclusively, feeds what it reads with the time
to the protocol (host.link.protocol, which decides everything else), writes
what the protocol asks to send, and closes and reopens the port when the
protocol gives the line up. Consumers get snapshots through a callback or by
iterating; LED frames go back through the same object (host.link.led_sender).

No fault of the line ends the link: an unplugged port, a restarted device or
noise only change ``status`` (connected / reconnecting / disconnected) until a
device is accepted again, and every accepted device has been asked for its
whole state.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

import serial

from host.link.answers import Answers
from host.link.expectation import Expectation
from host.link.led_plan import led_frames
from host.link.messages import (
    Ack,
    Heartbeat,
    Hello,
    HelloRequest,
    HostMessage,
    Ping,
    SetConfig,
)
from host.link.port import PICO_MICROPYTHON, SerialPort, UsbId, find_ports, open_exclusive
from host.link.protocol import BACKOFF_S, SILENCE_TIMEOUT_S, LinkProtocol, ProtocolEvent
from host.link.snapshot import Snapshot
from host.link.snapshot_queue import SnapshotQueue
from host.link.status import LinkError, LinkEvent, LinkStats, LinkStatus

log = logging.getLogger(__name__)


T = TypeVar("T")


class DeviceLink:
    """The serial link to one board's microcontroller.

    Use as a context manager (or start()/close()). Snapshots arrive through
    on_snapshot (called on the link's thread: keep it short) or snapshots().
    """

    def __init__(
        self,
        port: str | None = None,
        *,
        usb_id: UsbId = PICO_MICROPYTHON,
        expect: Expectation | None = None,
        silence_timeout: float = SILENCE_TIMEOUT_S,
        backoff: tuple[float, float] = BACKOFF_S,
        on_snapshot: Callable[[Snapshot], None] | None = None,
        on_event: Callable[[LinkEvent], None] | None = None,
        open_serial: Callable[[str], SerialPort] = open_exclusive,
    ) -> None:
        self._protocol = LinkProtocol(expect, silence_timeout=silence_timeout, backoff=backoff)
        self._path = port
        self._usb_id = usb_id
        self._on_snapshot = on_snapshot
        self._on_event = on_event
        self._open_serial = open_serial
        # _lock guards the protocol and the port; _write_lock keeps one writer at
        # a time, so that bytes reach the port in the order the protocol numbered them. Take it first.
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._serial: SerialPort | None = None
        self._answers = Answers()
        self._snapshots = SnapshotQueue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # --- lifetime ---------------------------------------------------------------------

    def start(self) -> DeviceLink:
        if self._thread is not None:
            raise LinkError("the link is already running")
        self._thread = threading.Thread(target=self._run, name="device-link", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
        with self._lock:
            self._protocol.close()
        self._close_port()
        self._snapshots.close()

    def __enter__(self) -> DeviceLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- what is known (the protocol's; see there) ----------------------------------------

    @property
    def device(self) -> Hello | None:
        return self._protocol.device

    @property
    def status(self) -> LinkStatus:
        return self._protocol.status

    @property
    def status_reason(self) -> str:
        return self._protocol.status_reason

    @property
    def accepted(self) -> int:
        return self._protocol.accepted

    @property
    def latest(self) -> Snapshot | None:
        return self._protocol.latest

    @property
    def heartbeat(self) -> Heartbeat | None:
        return self._protocol.heartbeat

    @property
    def problem(self) -> str | None:
        return self._protocol.problem

    @property
    def stats(self) -> LinkStats:
        return self._protocol.stats

    def wait_ready(self, timeout: float) -> Hello:
        """Block until a device has passed the checks; raises TimeoutError."""
        deadline = time.monotonic() + timeout
        while (device := self.device) is None:
            if time.monotonic() >= deadline:
                raise TimeoutError(self.problem or "no device answered")
            time.sleep(0.01)
        return device

    def next_snapshot(self, timeout: float) -> Snapshot:
        """The next snapshot handed on (oldest first); raises TimeoutError."""
        return self._snapshots.next(timeout)

    def snapshots(self, timeout: float | None = None) -> Iterator[Snapshot]:
        """Snapshots as they come, until the link closes (or none came for timeout seconds)."""
        return self._snapshots.each(timeout)

    # --- commands -------------------------------------------------------------------------

    def set_config(
        self,
        *,
        debounce_ms: int | None = None,
        scan_period_us: int | None = None,
        heartbeat_ms: int | None = None,
        timeout: float = 1.0,
    ) -> None:
        """Change the device's timing until it restarts; raises LinkError if refused."""
        self._request(SetConfig(debounce_ms or 0, scan_period_us or 0, heartbeat_ms or 0), timeout)
        self._send(HelloRequest())

    def ping(self, token: bytes = b"", timeout: float = 1.0) -> float:
        """Round-trip time in seconds."""
        start = time.monotonic()
        reply = self._request(Ping(token), timeout)
        if reply.echo != token:
            raise LinkError(f"PING echoed {reply.echo!r}, sent {token!r}")
        return time.monotonic() - start

    def send_leds(
        self, colours: Sequence[tuple[int, int, int]], *, first: int = 0, timeout: float = 1.0
    ) -> None:
        """Light the Pico-driven LEDs first.. with these RGB colours, all at once.

        Blocks for the ACKs; raises CommandRefused when the device cannot (no
        LEDs, too few, refused), LinkError when it is not there or did not
        answer, and ValueError for a colour that is not three values 0..255.
        """
        device = self.device
        if device is None:
            raise LinkError(self.problem or "no device is connected")
        for frame in led_frames(device, colours, first):
            self._request(frame, timeout)

    def _request(self, message: HostMessage, timeout: float) -> Ack:
        return self._answers.wait(self._send(message, answered=True), type(message).__name__, timeout)

    def _send(self, message: HostMessage, *, answered: bool = False) -> int:
        with self._write_lock:
            with self._lock:
                seq = self._protocol.send(message)  # LinkError, or ValueError for impossible values
                if answered:
                    self._answers.expect(seq)
            try:
                self._write()
            except LinkError:
                self._answers.forget(seq)
                raise
            return seq

    def _write(self) -> None:
        """Write what the protocol has queued (the caller holds _write_lock)."""
        with self._lock:
            data = self._protocol.data_to_send()
            port = self._serial
        if not data:
            return
        assert port is not None, "the protocol queued bytes while no port was open"
        try:
            port.write(data)
        except (serial.SerialException, OSError) as exc:
            raise LinkError(f"writing to the device failed: {exc}") from None

    def _write_quietly(self) -> None:
        """Write the protocol's own requests (the handshake); a failed write is the reader's to notice."""
        with self._write_lock:
            try:
                self._write()
            except LinkError as exc:
                log.debug("could not send: %s", exc)

    # --- the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self._serial
            if port is None:
                if not self._connect():
                    self._pause()
                continue
            try:
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError) as exc:
                self._disconnect(f"reading failed: {exc}")
                self._pause()
                continue
            now = time.monotonic()
            with self._lock:
                events = self._protocol.receive_data(data, now) + self._protocol.handle_timer(now)
                given_up = self._protocol.status is LinkStatus.DISCONNECTED
            if given_up:
                self._close_port()
            else:
                self._write_quietly()
            self._dispatch(events)
            if given_up:
                self._pause()

    def _pause(self) -> None:
        with self._lock:
            delay = self._protocol.next_backoff()
        self._stop.wait(delay)

    def _connect(self) -> bool:
        path = self._path
        if path is None:
            found = find_ports(self._usb_id)
            if not found:
                self._unavailable(f"no serial device with USB id {self._usb_id}")
                return False
            path = found[0]
        try:
            port = self._open_serial(path)
            port.reset_input_buffer()
        except (serial.SerialException, OSError, ValueError) as exc:
            self._unavailable(f"{path}: {exc}")
            return False
        with self._lock:
            self._serial = port
            events = self._protocol.port_opened(path, time.monotonic())
        self._write_quietly()
        self._dispatch(events)
        return True

    def _unavailable(self, reason: str) -> None:
        with self._lock:
            events = self._protocol.port_unavailable(reason)
        self._dispatch(events)

    def _disconnect(self, reason: str) -> None:
        with self._lock:
            events = self._protocol.port_failed(reason)
        self._close_port()
        self._dispatch(events)

    def _close_port(self) -> None:
        with self._lock:
            port, self._serial = self._serial, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _dispatch(self, events: list[ProtocolEvent]) -> None:
        """Hand the protocol's events on: snapshots to the queue and callback, answers to their waiters."""
        for event in events:
            if isinstance(event, Snapshot):
                self._snapshots.put(event)
                self._call(self._on_snapshot, event, "the snapshot callback failed")
            elif isinstance(event, LinkEvent):
                log.info("%s: %s", event.kind.value, event.message)
                self._call(self._on_event, event, "the link event callback failed")
            else:
                self._answers.deliver(event)

    @staticmethod
    def _call(callback: Callable[[T], None] | None, argument: T, failure: str) -> None:
        if callback is not None:
            try:
                callback(argument)
            except Exception:
                log.exception(failure)
