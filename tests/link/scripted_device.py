"""A device behind a fake serial port, scripted by the test, for the link's logic.

It answers HELLO_REQ, GET_STATE, PING, SET_CONFIG and LED_FRAME the way the
firmware does (docs/protocol.md); tests push other frames or noise as they like.
"""

from __future__ import annotations

import threading

from host.link.frames import FrameSplitter, decode_frame
from host.link.messages import MessageType
from tests.link import device_frames


class ScriptedDevice:
    def __init__(
        self, *, board: str = "test", rows: int = 2, cols: int = 2, boot_id: int = 1, leds: int = 0
    ) -> None:
        self.board = board
        self.rows = rows
        self.cols = cols
        self.boot_id = boot_id
        self.leds = leds
        self._values = [0] * (rows * cols)
        self.config_valid = True
        self.generation = 0  # settled changes since boot, as the firmware counts them
        self.answer = True  # reply to commands
        self.nak_next: str | None = None  # refuse the next SET_CONFIG / LED_FRAME with this text
        self.seq = 0
        self.received: list[tuple[int, int, bytes]] = []  # (type, seq, body) of host commands
        self.opened = 0
        self.closed = False
        self._outgoing = bytearray()
        self._ready = threading.Condition()
        self._splitter = FrameSplitter()

    @property
    def values(self) -> list[int]:
        return self._values

    @values.setter
    def values(self, values: list[int]) -> None:
        if values != self._values:
            self.generation += 1
        self._values = values

    # --- the serial port the link sees --------------------------------------------------

    @property
    def in_waiting(self) -> int:
        with self._ready:
            return len(self._outgoing)

    def read(self, size: int = 1) -> bytes:
        with self._ready:
            self._ready.wait_for(lambda: self._outgoing or self.closed, timeout=0.05)
            data = bytes(self._outgoing[:size])
            del self._outgoing[:size]
            return data

    def write(self, data: bytes) -> int:
        for piece in self._splitter.feed(data):
            assert piece is not None
            frame = decode_frame(piece)
            self.received.append((frame.type, frame.seq, frame.body))
            if self.answer:
                self._answer(frame.type, frame.seq, frame.body)
        return len(data)

    def reset_input_buffer(self) -> None:
        with self._ready:
            self._outgoing.clear()

    def close(self) -> None:
        with self._ready:
            self.closed = True
            self._ready.notify_all()

    # --- the device's side ----------------------------------------------------------------

    def commands(self, msg_type: MessageType) -> list[tuple[int, bytes]]:
        return [(seq, body) for t, seq, body in self.received if t == msg_type]

    def push(self, data: bytes) -> None:
        with self._ready:
            self._outgoing += data
            self._ready.notify_all()

    def send(self, msg_type: int, body: bytes, *, skip: int = 0) -> None:
        """Send a frame; skip > 0 pretends that many frames were lost before it."""
        self.seq = (self.seq + skip) & 0xFFFF
        self.push(device_frames.frame(msg_type, body, self.seq))
        self.seq = (self.seq + 1) & 0xFFFF

    def send_hello(self) -> None:
        body = device_frames.hello_body(
            boot_id=self.boot_id,
            board=self.board,
            rows=self.rows if self.config_valid else 0,
            cols=self.cols if self.config_valid else 0,
            sensor=0 if self.config_valid else 255,
            bits=1 if self.config_valid else 0,
            status=0 if self.config_valid else 1,
            caps=1 if self.leds else 0,
            led_count=self.leds,
        )
        self.send(MessageType.HELLO, body)

    def send_state(
        self,
        *,
        skip: int = 0,
        boot_id: int | None = None,
        rows: int | None = None,
        values: list[int] | None = None,
    ) -> None:
        """A STATE of the device's values (or of ``values``, as this generation)."""
        rows = self.rows if rows is None else rows
        values = ((self.values if values is None else values) + [0] * rows * self.cols)[: rows * self.cols]
        body = device_frames.state_body(
            boot_id=self.boot_id if boot_id is None else boot_id,
            values=values,
            rows=rows,
            cols=self.cols,
            generation=self.generation,
        )
        self.send(MessageType.STATE, body, skip=skip)

    def send_heartbeat(self) -> None:
        self.send(MessageType.HEARTBEAT, device_frames.heartbeat_body(boot_id=self.boot_id))

    def _answer(self, msg_type: int, seq: int, body: bytes) -> None:
        if msg_type == MessageType.HELLO_REQ:
            self.send_hello()
            if not self.config_valid:
                self.send(MessageType.LOG, device_frames.log_body(3, "board_config.json: rows: got 17"))
        elif msg_type == MessageType.GET_STATE and self.config_valid:
            self.send_state()
        elif msg_type == MessageType.PING:
            self.send(MessageType.ACK, device_frames.ack_body(seq, msg_type, body))
        elif msg_type in (MessageType.SET_CONFIG, MessageType.LED_FRAME):
            if self.nak_next is not None:
                self.send(MessageType.NAK, device_frames.nak_body(seq, msg_type, 3, self.nak_next))
                self.nak_next = None
            else:
                self.send(MessageType.ACK, device_frames.ack_body(seq, msg_type))
