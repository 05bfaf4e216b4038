"""The host end of the serial link to the board's microcontroller.

A background thread owns the port. It finds the device (a configured path or
the Pico's USB id), opens it exclusively, asks who is there (HELLO_REQ) and for
the state (GET_STATE), then reads frames: bytes up to the first valid frame
are discarded, every frame's CRC and sequence number are checked, and the
state is asked for again after a gap in the sequence or when the device
reports a new boot id. After `silence_timeout` seconds without a valid frame
the port is closed and reopened with back-off.

Snapshots are handed on only when they belong to the device that said HELLO
(same boot id, same shape) and that device passed the expectations (board id,
shape, sensor kind): a wrong or restarted board is never reported as the
current one. Consumers get them through a callback or by iterating; the move
tracker sends LED frames back through the same object (host.link.led_sender).

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
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from typing import Protocol

import serial

from host.link.discovery import PICO_MICROPYTHON, UsbId, find_ports
from host.link.frames import PROTOCOL_VERSION, FrameError, FrameSplitter, decode_frame
from host.link.messages import (
    LEDS_PER_FRAME,
    Ack,
    Capability,
    GetState,
    Heartbeat,
    Hello,
    HelloRequest,
    HostMessage,
    LedFrame,
    Log,
    LogLevel,
    MessageError,
    Nak,
    NakReason,
    Ping,
    SensorKind,
    SetConfig,
    State,
    encode_command,
    parse_device_message,
)
from host.link.snapshot import Snapshot

log = logging.getLogger(__name__)

SILENCE_TIMEOUT_S = 3.0
RETRY_S = 1.0  # resend HELLO_REQ / GET_STATE while the answer is missing
READ_TIMEOUT_S = 0.05
SNAPSHOT_QUEUE = 1024


def _name(kind: type[IntEnum], value: int) -> str:
    try:
        return kind(value).name
    except ValueError:
        return str(value)


class LinkError(Exception):
    """A command could not be carried out (not connected, refused, no answer)."""


class CommandRefused(LinkError):
    """The device cannot carry out this command at all (NAK, or no such capability): do not retry it."""


class LinkStatus(Enum):
    """Whether the board is there, as the player should be told."""

    CONNECTED = "connected"  # a device passed the checks: snapshots flow
    RECONNECTING = "reconnecting"  # the port is open, but no device is accepted (yet, or again)
    DISCONNECTED = "disconnected"  # no port: unplugged, or it cannot be opened

    def notice(self, reason: str) -> str:
        """What the page and the terminal tell the player about the board."""
        if self is LinkStatus.CONNECTED:
            return "board connected"
        return f"board disconnected: {reason}" + ("; reconnecting" if self is LinkStatus.RECONNECTING else "")


class SerialPort(Protocol):
    """What the link needs of a pyserial Serial (tests may wrap one)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def reset_input_buffer(self) -> None: ...

    def close(self) -> None: ...


def open_exclusive(path: str) -> SerialPort:
    """Open a serial port that no other process may use at the same time."""
    port: SerialPort = serial.Serial(
        path, baudrate=115200, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True
    )
    return port


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the device must be for its snapshots to count; None accepts anything."""

    board: str | None = None
    rows: int | None = None
    cols: int | None = None
    sensor: SensorKind | None = None

    def problem(self, hello: Hello) -> str | None:
        if self.board is not None and hello.board != self.board:
            return f"device is configured for board {hello.board!r}, expected {self.board!r}"
        rows_differ = self.rows is not None and hello.rows != self.rows
        if rows_differ or (self.cols is not None and hello.cols != self.cols):
            return f"device scans {hello.rows}x{hello.cols} sensors, expected {self.rows}x{self.cols}"
        if self.sensor is not None and hello.sensor != self.sensor:
            return f"device has sensor {hello.sensor.name.lower()}, expected {self.sensor.name.lower()}"
        return None


class EventKind(Enum):
    CONNECTED = "connected"  # port open, handshake sent
    DISCONNECTED = "disconnected"  # port closed (error or silence); will reconnect
    PORT_UNAVAILABLE = "port_unavailable"  # no device found, or it cannot be opened
    READY = "ready"  # a device passed the checks; snapshots follow
    REJECTED = "rejected"  # the device's config is invalid or not what was expected
    RESYNC = "resync"  # sequence gap or new boot id: the state is read again
    DEVICE_LOG = "device_log"  # a LOG message from the firmware


@dataclass(frozen=True, slots=True)
class LinkEvent:
    kind: EventKind
    message: str


@dataclass(frozen=True, slots=True)
class LinkStats:
    frames: int = 0  # valid frames received
    discarded: int = 0  # chunks dropped before the first valid frame after opening
    bad_frames: int = 0  # COBS/CRC/length failures after that
    bad_messages: int = 0  # intact frames with an unknown or malformed message
    gaps: int = 0  # sequence numbers skipped
    boots: int = 0  # new boot ids seen after the first
    reconnects: int = 0  # times the port was closed to be opened again
    snapshots: int = 0  # snapshots handed on
    stale: int = 0  # changed STATEs whose generation is not above the last one's (same boot): dropped


class _Pending:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.reply: Ack | Nak | None = None


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
        backoff: tuple[float, float] = (0.2, 5.0),
        on_snapshot: Callable[[Snapshot], None] | None = None,
        on_event: Callable[[LinkEvent], None] | None = None,
        open_serial: Callable[[str], SerialPort] = open_exclusive,
    ) -> None:
        if silence_timeout <= 0 or backoff[0] <= 0 or backoff[1] < backoff[0]:
            raise ValueError("silence_timeout and back-off times must be positive, back-off (min, max)")
        self._path = port
        self._usb_id = usb_id
        self._expect = expect or Expectation()
        self._silence_timeout = silence_timeout
        self._backoff_min, self._backoff_max = backoff
        self._on_snapshot = on_snapshot
        self._on_event = on_event
        self._open_serial = open_serial

        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._snapshot_ready = threading.Condition(self._lock)
        self._queue: deque[Snapshot] = deque(maxlen=SNAPSHOT_QUEUE)
        self._pending: dict[int, _Pending] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._stats = LinkStats()

        self._serial: SerialPort | None = None
        self._splitter = FrameSplitter()
        self._synced = False
        self._rx_seq: int | None = None
        self._tx_seq = 0
        self._last_frame = 0.0
        self._backoff = self._backoff_min
        self._hello: Hello | None = None  # the device's latest HELLO, checked or not
        self._ready = False
        self._asked_hello = 0.0
        self._asked_state = 0.0
        self._latest: Snapshot | None = None
        self._heartbeat: Heartbeat | None = None
        self._last_problem: str | None = None
        self._last_trouble = "not connected yet"
        self._accepted = 0

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
        self._close_port()
        with self._lock:
            self._snapshot_ready.notify_all()

    def __enter__(self) -> DeviceLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- what is known ------------------------------------------------------------------

    @property
    def device(self) -> Hello | None:
        """The device whose snapshots are being handed on, or None."""
        return self._hello if self._ready else None

    @property
    def status(self) -> LinkStatus:
        if self._ready:
            return LinkStatus.CONNECTED
        return LinkStatus.RECONNECTING if self._serial is not None else LinkStatus.DISCONNECTED

    @property
    def status_reason(self) -> str:
        """Why the board is not connected (the latest trouble); empty while it is."""
        if self._ready:
            return ""
        return self._last_problem or self._last_trouble

    @property
    def accepted(self) -> int:
        """How many times a device was accepted: each one must be told everything again (its LEDs)."""
        return self._accepted

    @property
    def latest(self) -> Snapshot | None:
        return self._latest if self._ready else None

    @property
    def heartbeat(self) -> Heartbeat | None:
        return self._heartbeat

    @property
    def problem(self) -> str | None:
        """Why the connected device is not being listened to, if it is not."""
        return self._last_problem

    @property
    def stats(self) -> LinkStats:
        return self._stats

    def wait_ready(self, timeout: float) -> Hello:
        """Block until a device has passed the checks; raises TimeoutError."""
        deadline = time.monotonic() + timeout
        while (device := self.device) is None:
            if time.monotonic() >= deadline:
                raise TimeoutError(self._last_problem or "no device answered")
            time.sleep(0.01)
        return device

    def next_snapshot(self, timeout: float) -> Snapshot:
        """The next snapshot handed on (oldest first); raises TimeoutError."""
        with self._lock:
            if not self._snapshot_ready.wait_for(lambda: self._queue or self._stop.is_set(), timeout):
                raise TimeoutError(f"no snapshot within {timeout} s")
            if not self._queue:
                raise LinkError("the link is closed")
            return self._queue.popleft()

    def snapshots(self, timeout: float | None = None) -> Iterator[Snapshot]:
        """Snapshots as they come, until the link closes (or none came for timeout seconds)."""
        while not self._stop.is_set():
            try:
                yield self.next_snapshot(timeout if timeout is not None else 3600.0)
            except TimeoutError:
                if timeout is not None:
                    return
            except LinkError:
                return

    # --- commands -------------------------------------------------------------------------

    def request_state(self) -> None:
        """Ask for the full state now (it arrives as a snapshot only if it changed)."""
        self._send(GetState())

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
            raise LinkError(self._last_problem or "no device is connected")
        if not device.capabilities & Capability.LEDS:
            raise CommandRefused(f"board {device.board}: the Pico drives no LEDs (led_pin is null)")
        if first < 0 or first + len(colours) > device.led_count:
            raise CommandRefused(
                f"LEDs {first}..{first + len(colours) - 1} do not exist: the board has {device.led_count}"
            )
        chunks = [colours[i : i + LEDS_PER_FRAME] for i in range(0, len(colours), LEDS_PER_FRAME)] or [[]]
        for index, chunk in enumerate(chunks):
            last = index == len(chunks) - 1
            rgb = tuple(tuple(colour) for colour in chunk)
            self._request(LedFrame(first + index * LEDS_PER_FRAME, rgb, show=last), timeout)

    def _request(self, message: HostMessage, timeout: float) -> Ack:
        pending = _Pending()
        seq = self._send(message, pending)
        try:
            if not pending.done.wait(timeout):
                raise LinkError(f"{type(message).__name__}: no answer within {timeout} s")
        finally:
            with self._lock:
                self._pending.pop(seq, None)
        reply = pending.reply
        if isinstance(reply, Nak):
            reason = _name(NakReason, reply.reason)
            raise CommandRefused(f"{type(message).__name__} refused ({reason}): {reply.message}")
        assert isinstance(reply, Ack)
        return reply

    def _send(self, message: HostMessage, pending: _Pending | None = None) -> int:
        with self._write_lock:
            port = self._serial
            if port is None:
                raise LinkError(self._last_problem or "no device is connected")
            seq = self._tx_seq
            data = encode_command(message, seq)  # ValueError for impossible values: nothing sent
            self._tx_seq = (seq + 1) & 0xFFFF
            if pending is not None:
                with self._lock:
                    self._pending[seq] = pending
            try:
                port.write(data)
            except (serial.SerialException, OSError) as exc:
                with self._lock:
                    self._pending.pop(seq, None)
                raise LinkError(f"writing to the device failed: {exc}") from None
            return seq

    # --- the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._serial is None:
                if not self._connect():
                    self._stop.wait(self._next_backoff())
                continue
            try:
                port = self._serial
                data = port.read(max(1, port.in_waiting))
            except (serial.SerialException, OSError) as exc:
                self._disconnect(f"reading failed: {exc}")
                self._stop.wait(self._next_backoff())
                continue
            now = time.monotonic()
            if data:
                for chunk in self._splitter.feed(data):
                    self._chunk(chunk, now)
            if now - self._last_frame > self._silence_timeout:
                self._disconnect(f"no valid frame for {self._silence_timeout:g} s")
                self._stop.wait(self._next_backoff())
                continue
            self._retry_handshake(now)

    def _next_backoff(self) -> float:
        delay = self._backoff
        self._backoff = min(self._backoff * 2, self._backoff_max)
        return delay

    def _connect(self) -> bool:
        path = self._path
        if path is None:
            found = find_ports(self._usb_id)
            if not found:
                self._emit(EventKind.PORT_UNAVAILABLE, f"no serial device with USB id {self._usb_id}")
                return False
            path = found[0]
        try:
            port = self._open_serial(path)
            port.reset_input_buffer()
        except (serial.SerialException, OSError, ValueError) as exc:
            self._emit(EventKind.PORT_UNAVAILABLE, f"{path}: {exc}")
            return False
        self._splitter.reset()
        self._synced = False
        self._rx_seq = None
        self._ready = False
        self._hello = None
        self._last_frame = time.monotonic()
        self._serial = port
        self._emit(EventKind.CONNECTED, path)
        self._ask_hello(self._last_frame)
        return True

    def _disconnect(self, reason: str) -> None:
        self._close_port()
        self._ready = False
        self._stats = replace(self._stats, reconnects=self._stats.reconnects + 1)
        self._emit(EventKind.DISCONNECTED, reason)

    def _close_port(self) -> None:
        with self._write_lock:
            port, self._serial = self._serial, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _retry_handshake(self, now: float) -> None:
        if self._hello is None:
            if now - self._asked_hello > RETRY_S:
                self._ask_hello(now)
        elif self._latest is None and now - self._asked_state > RETRY_S:
            self._ask_state(now)

    def _ask_hello(self, now: float) -> None:
        self._asked_hello = now
        self._asked_state = now
        self._send_quietly(HelloRequest())
        self._send_quietly(GetState())

    def _ask_state(self, now: float) -> None:
        self._asked_state = now
        self._send_quietly(GetState())

    def _send_quietly(self, message: HostMessage) -> None:
        try:
            self._send(message)
        except LinkError as exc:
            log.debug("could not send %s: %s", type(message).__name__, exc)

    def _count(self, **changes: int) -> None:
        stats = self._stats
        self._stats = replace(stats, **{k: getattr(stats, k) + v for k, v in changes.items()})

    # --- frames in ------------------------------------------------------------------------

    def _chunk(self, chunk: bytes | None, now: float) -> None:
        if chunk is None:
            self._count(**({"bad_frames": 1} if self._synced else {"discarded": 1}))
            return
        try:
            frame = decode_frame(chunk)
        except FrameError as exc:
            if self._synced:
                self._count(bad_frames=1)
                log.debug("bad frame (%s): %s", exc.reason, exc)
            else:
                self._count(discarded=1)
            return
        self._synced = True
        self._last_frame = now
        self._count(frames=1)
        if frame.version == PROTOCOL_VERSION:
            expected = None if self._rx_seq is None else (self._rx_seq + 1) & 0xFFFF
            self._rx_seq = frame.seq
            if expected is not None and frame.seq != expected:
                self._count(gaps=1)
                self._emit(EventKind.RESYNC, f"frames lost: sequence {frame.seq}, expected {expected}")
                if self._ready:
                    self._ask_state(now)
        try:
            message = parse_device_message(frame)
        except MessageError as exc:
            self._count(bad_messages=1)
            log.debug("bad message: %s", exc)
            return
        if isinstance(message, Hello):
            self._on_hello(message, now)
        elif isinstance(message, State):
            self._on_state(message, now)
        elif isinstance(message, Heartbeat):
            self._heartbeat = message
            self._check_boot(message.boot_id, now)
        elif isinstance(message, Ack | Nak):
            with self._lock:
                pending = self._pending.get(message.seq)
            if pending is not None:
                pending.reply = message
                pending.done.set()
        elif isinstance(message, Log):
            self._emit(EventKind.DEVICE_LOG, f"{_name(LogLevel, message.level)}: {message.text}")
            hello = self._hello
            if hello is not None and not hello.config_valid and message.level == LogLevel.ERROR:
                self._reject(f"the device cannot scan: {message.text}")

    def _check_boot(self, boot_id: int, now: float) -> bool:
        """False (and a new handshake) when boot_id is not the accepted device's."""
        hello = self._hello
        if hello is None:
            return False
        if boot_id == hello.boot_id:
            return True
        self._ready = False
        self._hello = None
        self._count(boots=1)
        self._emit(EventKind.RESYNC, f"device restarted (boot id {boot_id:08x}, was {hello.boot_id:08x})")
        self._ask_hello(now)
        return False

    def _on_hello(self, hello: Hello, now: float) -> None:
        previous = self._hello
        if previous is not None and previous.boot_id != hello.boot_id:
            self._count(boots=1)
        self._hello = hello
        if not hello.config_valid:
            self._reject("the device's board_config.json is invalid")
            return
        problem = self._expect.problem(hello)
        if problem is not None:
            self._reject(problem)
            return
        self._last_problem = None
        if not self._ready:
            self._accepted += 1
            self._ready = True
            self._backoff = self._backoff_min
            if self._latest is not None and self._latest.boot_id != hello.boot_id:
                self._latest = None
            self._emit(
                EventKind.READY,
                f"board {hello.board}: {hello.rows}x{hello.cols} {hello.sensor.name.lower()}, "
                f"firmware {'.'.join(map(str, hello.firmware))}, boot id {hello.boot_id:08x}",
            )
            if self._latest is None:
                self._ask_state(now)

    def _reject(self, problem: str) -> None:
        self._ready = False
        if problem != self._last_problem:
            self._last_problem = problem
            self._emit(EventKind.REJECTED, problem)

    def _on_state(self, state: State, now: float) -> None:
        hello = self._hello
        if not self._check_boot(state.boot_id, now) or not self._ready or hello is None:
            return
        if (state.rows, state.cols, state.bits_per_cell) != (hello.rows, hello.cols, hello.bits_per_cell):
            self._count(bad_messages=1)
            log.warning(
                "STATE of %dx%d at %d bits does not match HELLO (%dx%d at %d bits)",
                state.rows,
                state.cols,
                state.bits_per_cell,
                hello.rows,
                hello.cols,
                hello.bits_per_cell,
            )
            return
        latest = self._latest
        if latest is not None and latest.boot_id == state.boot_id:
            if latest.values == state.values:
                return
            if state.generation <= latest.generation:  # a change must come with a newer generation
                self._count(stale=1)
                log.debug("dropped a STATE of generation %d after %d", state.generation, latest.generation)
                return
        snapshot = Snapshot(
            board=hello.board,
            sensor=hello.sensor,
            rows=state.rows,
            cols=state.cols,
            values=state.values,
            boot_id=state.boot_id,
            device_time_ms=state.settled_ms,
            generation=state.generation,
            received_ms=time.monotonic_ns() // 1_000_000,
        )
        with self._lock:
            self._latest = snapshot
            self._queue.append(snapshot)
            self._snapshot_ready.notify_all()
        self._count(snapshots=1)
        if self._on_snapshot is not None:
            try:
                self._on_snapshot(snapshot)
            except Exception:
                log.exception("the snapshot callback failed")

    def _emit(self, kind: EventKind, message: str) -> None:
        log.info("%s: %s", kind.value, message)
        if kind in (EventKind.DISCONNECTED, EventKind.PORT_UNAVAILABLE, EventKind.RESYNC):
            self._last_trouble = message
        if self._on_event is not None:
            try:
                self._on_event(LinkEvent(kind, message))
            except Exception:
                log.exception("the link event callback failed")
