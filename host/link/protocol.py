"""The host's side of the link protocol (docs/protocol.md, section 4): a state machine without I/O.

Modelled on h11 and h2: the caller says what happened and when - a port
opened or failed, bytes came, time passed, a command is wanted - and gets
back what it means: events (notices, snapshots, answers) and the bytes to
write (``data_to_send``). No port, no thread, no clock: every rule is tested
by feeding bytes and times (tests/link/test_link_protocol.py), and
host.link.device_link runs it on a serial port.

The rules: a gap in the sequence or a new boot id means the state is asked
for again; snapshots are handed on only from the device that said HELLO
(same boot id, same shape) once it passed the expectations, so a wrong or
restarted board is never reported as the current one; a line silent for
``silence_timeout`` is given up (the caller reopens the port after
``next_backoff``), and nothing ends the protocol itself.
"""

from __future__ import annotations

import logging

from host.link.expectation import Expectation
from host.link.messages import (
    Ack,
    DeviceMessage,
    GetState,
    Heartbeat,
    Hello,
    HelloRequest,
    HostMessage,
    Log,
    LogLevel,
    Nak,
    State,
    encode_command,
)
from host.link.phase import STATUS, TRANSITIONS, Input, Phase
from host.link.reader import FrameReader, Gap
from host.link.snapshot import Snapshot
from host.link.status import EventKind, LinkError, LinkEvent, LinkStats, LinkStatus

log = logging.getLogger(__name__)

SILENCE_TIMEOUT_S = 3.0
READY_S = 10.0  # how long a device may take to boot and say HELLO (a slower one: times its slowdown)
RETRY_S = 1.0  # resend HELLO_REQ / GET_STATE while the answer is missing
BACKOFF_S = (0.2, 5.0)  # the first wait before opening the port again, and the longest

ProtocolEvent = LinkEvent | Snapshot | Ack | Nak


class LinkProtocol:
    """One host's conversation with whatever device is on the line, over every reconnection.

    Each input returns the events it caused, oldest first; ``data_to_send``
    then holds the bytes to write, in the order of their sequence numbers.
    Times are seconds on any clock that does not go backwards.
    """

    def __init__(
        self,
        expect: Expectation | None = None,
        *,
        silence_timeout: float = SILENCE_TIMEOUT_S,
        backoff: tuple[float, float] = BACKOFF_S,
    ) -> None:
        if silence_timeout <= 0 or backoff[0] <= 0 or backoff[1] < backoff[0]:
            raise ValueError("silence_timeout and back-off times must be positive, back-off (min, max)")
        self.expect = expect or Expectation()
        self.silence_timeout = silence_timeout
        self._backoff_min, self._backoff_max = backoff
        self._backoff = self._backoff_min
        self._events: list[ProtocolEvent] = []
        self._outgoing = bytearray()
        self._reader = FrameReader()
        self._phase = Phase.CLOSED
        self._tx_seq = 0
        self._last_frame = 0.0
        self._asked_hello = 0.0
        self._asked_state = 0.0
        self._hello: Hello | None = None  # the device's latest HELLO, checked or not (None: ASKING)
        self._accepted = 0
        self._latest: Snapshot | None = None
        self._heartbeat: Heartbeat | None = None
        self._last_problem: str | None = None
        self._last_trouble = "not connected yet"
        self._stats = LinkStats()

    # --- what is known ------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def device(self) -> Hello | None:
        """The device whose snapshots are being handed on, or None."""
        return self._hello if self._phase is Phase.READY else None

    @property
    def status(self) -> LinkStatus:
        return STATUS[self._phase]

    @property
    def status_reason(self) -> str:
        """Why the board is not connected (the latest trouble); empty while it is."""
        if self._phase is Phase.READY:
            return ""
        return self._last_problem or self._last_trouble

    @property
    def accepted(self) -> int:
        """How many times a device was accepted: each one must be told everything again (its LEDs)."""
        return self._accepted

    @property
    def latest(self) -> Snapshot | None:
        return self._latest if self._phase is Phase.READY else None

    @property
    def heartbeat(self) -> Heartbeat | None:
        return self._heartbeat

    @property
    def problem(self) -> str | None:
        """Why the connected device is not being listened to, if it is not."""
        return self._last_problem

    @property
    def stats(self) -> LinkStats:
        return self._reader.stats + self._stats

    # --- the line -------------------------------------------------------------------------

    def port_opened(self, path: str, now: float) -> list[ProtocolEvent]:
        """A port was opened (its input flushed): start afresh and ask who is there."""
        self._reader.reset()
        self._enter(Input.OPENED)
        self._hello = None
        self._last_frame = now
        self._emit(EventKind.CONNECTED, path)
        self._ask_hello(now)
        return self._take()

    def port_failed(self, reason: str) -> list[ProtocolEvent]:
        """Reading or writing the port failed (the Pico unplugged): the caller closes it."""
        self._lose(reason)
        return self._take()

    def port_unavailable(self, reason: str) -> list[ProtocolEvent]:
        """No port was found, or it could not be opened."""
        self._emit(EventKind.PORT_UNAVAILABLE, reason)
        return self._take()

    def close(self) -> None:
        """The host is done with the link: nothing more is sent."""
        self._enter(Input.CLOSED)
        self._outgoing.clear()

    def next_backoff(self) -> float:
        """How long to wait before opening the port again: doubling, until a device is accepted."""
        delay = self._backoff
        self._backoff = min(self._backoff * 2, self._backoff_max)
        return delay

    def receive_data(self, data: bytes, now: float) -> list[ProtocolEvent]:
        """Bytes read from the port at time now (without a port open: nothing to read, ignored)."""
        if self._phase is Phase.CLOSED:
            return []
        frames = self._reader.stats.frames
        items = self._reader.feed(data)
        if self._reader.stats.frames != frames:
            self._last_frame = now
        for item in items:
            self._message(item, now)
        return self._take()

    def handle_timer(self, now: float) -> list[ProtocolEvent]:
        """Time has passed: give a silent line up, or ask again what was not answered.

        A line given up leaves the status DISCONNECTED: the caller closes the port.
        """
        if self._phase is Phase.CLOSED:
            return []
        if now - self._last_frame > self.silence_timeout:
            self._lose(f"no valid frame for {self.silence_timeout:g} s")
        elif self._phase is Phase.ASKING:
            if now - self._asked_hello > RETRY_S:
                self._ask_hello(now)
        elif self._latest is None and now - self._asked_state > RETRY_S:
            self._ask_state(now)
        return self._take()

    # --- commands out -----------------------------------------------------------------------

    def send(self, message: HostMessage) -> int:
        """Queue a command; its sequence number, which its ACK or NAK names.

        LinkError while no port is open; ValueError (and nothing queued) for
        values the protocol cannot carry.
        """
        if self._phase is Phase.CLOSED:
            raise LinkError(self._last_problem or "no device is connected")
        seq = self._tx_seq
        self._outgoing += encode_command(message, seq)
        self._tx_seq = (seq + 1) & 0xFFFF
        return seq

    def data_to_send(self) -> bytes:
        """The bytes queued since the last call, to be written in this order."""
        data = bytes(self._outgoing)
        self._outgoing.clear()
        return data

    # --- internals ------------------------------------------------------------------------

    def _enter(self, given: Input) -> None:
        self._phase = TRANSITIONS[self._phase, given]

    def _take(self) -> list[ProtocolEvent]:
        events, self._events = self._events, []
        return events

    def _emit(self, kind: EventKind, message: str) -> None:
        if kind in (EventKind.DISCONNECTED, EventKind.PORT_UNAVAILABLE, EventKind.RESYNC):
            self._last_trouble = message
        self._events.append(LinkEvent(kind, message))

    def _lose(self, reason: str) -> None:
        self._enter(Input.LOST)
        self._outgoing.clear()
        self._stats += LinkStats(reconnects=1)
        self._emit(EventKind.DISCONNECTED, reason)

    def _ask_hello(self, now: float) -> None:
        self._asked_hello = now
        self._asked_state = now
        self.send(HelloRequest())
        self.send(GetState())

    def _ask_state(self, now: float) -> None:
        self._asked_state = now
        self.send(GetState())

    def _message(self, item: DeviceMessage | Gap, now: float) -> None:
        if isinstance(item, Gap):
            self._emit(EventKind.RESYNC, f"frames lost: sequence {item.seq}, expected {item.expected}")
            if self._phase is Phase.READY:
                self._ask_state(now)
        elif isinstance(item, Hello):
            self._on_hello(item, now)
        elif isinstance(item, State):
            self._on_state(item, now)
        elif isinstance(item, Heartbeat):
            self._heartbeat = item
            self._restarted(item.boot_id, now)
        elif isinstance(item, Ack | Nak):
            self._events.append(item)
        else:
            self._on_log(item)

    def _restarted(self, boot_id: int, now: float) -> bool:
        """Whether boot_id says the device that said HELLO has restarted (then a new handshake)."""
        hello = self._hello
        if hello is None or boot_id == hello.boot_id:
            return False
        self._enter(Input.RESTARTED)
        self._hello = None
        self._stats += LinkStats(boots=1)
        self._emit(EventKind.RESYNC, f"device restarted (boot id {boot_id:08x}, was {hello.boot_id:08x})")
        self._ask_hello(now)
        return True

    def _on_hello(self, hello: Hello, now: float) -> None:
        previous = self._hello
        restarted = previous is not None and previous.boot_id != hello.boot_id
        if restarted:  # a restarted device is a new one: its strip is dark, its readings new
            self._stats += LinkStats(boots=1)
        self._hello = hello
        if not hello.config_valid:
            self._reject("the device's board_config.json is invalid")
            return
        problem = self.expect.problem(hello)
        if problem is not None:
            self._reject(problem)
            return
        self._last_problem = None
        if self._phase is Phase.READY and not restarted:
            return
        self._enter(Input.ACCEPTED)
        self._accepted += 1
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
        self._enter(Input.REJECTED)
        if problem != self._last_problem:
            self._last_problem = problem
            self._emit(EventKind.REJECTED, problem)

    def _on_log(self, message: Log) -> None:
        self._emit(EventKind.DEVICE_LOG, f"{message.level_name}: {message.text}")
        hello = self._hello
        if hello is not None and not hello.config_valid and message.level == LogLevel.ERROR:
            self._reject(f"the device cannot scan: {message.text}")

    def _on_state(self, state: State, now: float) -> None:
        hello = self.device
        if self._restarted(state.boot_id, now) or hello is None:
            return
        if (state.rows, state.cols, state.bits_per_cell) != (hello.rows, hello.cols, hello.bits_per_cell):
            self._stats += LinkStats(bad_messages=1)
            log.warning(
                "STATE of %dx%d at %d bits does not match HELLO (%dx%d at %d bits)",
                *(state.rows, state.cols, state.bits_per_cell, hello.rows, hello.cols, hello.bits_per_cell),
            )
            return
        latest = self._latest
        if latest is not None and latest.boot_id == state.boot_id:
            if latest.values == state.values:
                return
            if state.generation <= latest.generation:  # a change must come with a newer generation
                self._stats += LinkStats(stale=1)
                log.debug("dropped a STATE of generation %d after %d", state.generation, latest.generation)
                return
        self._latest = Snapshot(
            board=hello.board,
            sensor=hello.sensor,
            rows=state.rows,
            cols=state.cols,
            values=state.values,
            boot_id=state.boot_id,
            device_time_ms=state.settled_ms,
            generation=state.generation,
            received_ms=int(now * 1000),
        )
        self._stats += LinkStats(snapshots=1)
        self._events.append(self._latest)
