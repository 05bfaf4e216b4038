"""The messages of the wire protocol as typed values (docs/protocol.md).

Device messages are parsed from frames; host commands are encoded to frames.
Every parse failure is a MessageError naming the message and what is wrong.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, IntFlag

from host.link.frames import PROTOCOL_VERSION, Frame, encode_frame


class MessageType(IntEnum):
    HELLO = 0x01
    STATE = 0x02
    HEARTBEAT = 0x03
    ACK = 0x04
    NAK = 0x05
    LOG = 0x06
    HELLO_REQ = 0x81
    GET_STATE = 0x82
    SET_CONFIG = 0x83
    PING = 0x84
    LED_FRAME = 0x85


class SensorKind(IntEnum):
    REED = 0
    HALL_ANALOG = 1
    NONE = 0xFF


class Capability(IntFlag):
    LEDS = 0x0001
    POLARITY = 0x0002
    LEVELS = 0x0004


class NakReason(IntEnum):
    UNKNOWN_TYPE = 1
    BAD_LENGTH = 2
    OUT_OF_RANGE = 3
    NO_LEDS = 4
    CONFIG_INVALID = 5
    BAD_VERSION = 6


class LogLevel(IntEnum):
    DEBUG = 0
    INFO = 1
    WARNING = 2
    ERROR = 3


def _name(kind: type[IntEnum], value: int) -> str:
    try:
        return kind(value).name
    except ValueError:
        return str(value)


class MessageError(ValueError):
    """A frame that is intact but does not hold a message this host understands."""


PING_MAX = 32
LEDS_PER_FRAME = 256


@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    firmware: tuple[int, int, int]
    boot_id: int
    config_valid: bool
    sensor: SensorKind
    rows: int
    cols: int
    bits_per_cell: int
    capabilities: Capability
    led_count: int
    debounce_ms: int
    scan_period_us: int
    heartbeat_ms: int
    board: str


@dataclass(frozen=True, slots=True)
class State:
    boot_id: int
    generation: int
    settled_ms: int
    rows: int
    cols: int
    bits_per_cell: int
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Heartbeat:
    boot_id: int
    uptime_ms: int
    scans_per_second: int
    max_scan_us: int
    deadline_misses: int
    rx_rejected: int
    rx_overflows: int
    naks: int
    free_bytes: int


@dataclass(frozen=True, slots=True)
class Ack:
    seq: int
    command: int
    echo: bytes


@dataclass(frozen=True, slots=True)
class Nak:
    seq: int
    command: int
    reason: int
    message: str

    @property
    def reason_name(self) -> str:
        """The reason's name, or its number when this host does not know it."""
        return _name(NakReason, self.reason)


@dataclass(frozen=True, slots=True)
class Log:
    level: int
    text: str

    @property
    def level_name(self) -> str:
        """The level's name, or its number when this host does not know it."""
        return _name(LogLevel, self.level)


DeviceMessage = Hello | State | Heartbeat | Ack | Nak | Log


@dataclass(frozen=True, slots=True)
class HelloRequest:
    pass


@dataclass(frozen=True, slots=True)
class GetState:
    pass


@dataclass(frozen=True, slots=True)
class SetConfig:
    """New timing; 0 leaves a setting unchanged."""

    debounce_ms: int = 0
    scan_period_us: int = 0
    heartbeat_ms: int = 0


@dataclass(frozen=True, slots=True)
class Ping:
    token: bytes = b""


@dataclass(frozen=True, slots=True)
class LedFrame:
    """RGB colours for LEDs first, first+1, ...; show latches them onto the strip."""

    first: int
    colours: tuple[tuple[int, ...], ...] = field(default_factory=tuple)
    show: bool = True


HostMessage = HelloRequest | GetState | SetConfig | Ping | LedFrame

_HELLO = struct.Struct("<BBBBIBBBBBHHHHHB")
_STATE = struct.Struct("<IIIBBB")
_HEARTBEAT = struct.Struct("<IIHHIHHHI")
_ACK = struct.Struct("<HB")
_NAK = struct.Struct("<HBB")
_SET_CONFIG = struct.Struct("<HHH")
_LED_HEADER = struct.Struct("<BH")


def _text(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MessageError(f"{what}: text is not UTF-8 ({exc.reason} at byte {exc.start})") from None


def unpack_cells(data: bytes, count: int, bits: int) -> tuple[int, ...]:
    """Cell values from a STATE's packed cells (cell i at bits i*bits, LSB first)."""
    mask = (1 << bits) - 1
    number = int.from_bytes(data, "little")
    return tuple((number >> (i * bits)) & mask for i in range(count))


def pack_cells(values: Sequence[int], bits: int) -> bytes:
    """The inverse of unpack_cells."""
    number = 0
    for i, value in enumerate(values):
        number |= value << (i * bits)
    return number.to_bytes((len(values) * bits + 7) // 8, "little")


def _parse_hello(body: bytes) -> Hello:
    if len(body) < _HELLO.size:
        raise MessageError(f"HELLO: {len(body)} bytes, expected at least {_HELLO.size}")
    fields = _HELLO.unpack_from(body)
    proto, major, minor, patch, boot_id, status, sensor, rows, cols, bits = fields[:10]
    caps, leds, debounce, period, beat, board_len = fields[10:]
    if len(body) != _HELLO.size + board_len:
        raise MessageError(f"HELLO: board id of {board_len} bytes, but {len(body) - _HELLO.size} follow")
    try:
        kind = SensorKind(sensor)
    except ValueError:
        raise MessageError(f"HELLO: unknown sensor kind {sensor}") from None
    if status == 0 and (kind is SensorKind.NONE or bits not in (1, 2) or not rows or not cols):
        raise MessageError(f"HELLO: a working device with sensor {kind.name} {rows}x{cols}, {bits} bits/cell")
    return Hello(
        protocol=proto,
        firmware=(major, minor, patch),
        boot_id=boot_id,
        config_valid=status == 0,
        sensor=kind,
        rows=rows,
        cols=cols,
        bits_per_cell=bits,
        capabilities=Capability(caps),
        led_count=leds,
        debounce_ms=debounce,
        scan_period_us=period,
        heartbeat_ms=beat,
        board=_text(body[_HELLO.size :], "HELLO board id"),
    )


def _parse_state(body: bytes) -> State:
    if len(body) < _STATE.size:
        raise MessageError(f"STATE: {len(body)} bytes, expected at least {_STATE.size}")
    boot_id, generation, settled, rows, cols, bits = _STATE.unpack_from(body)
    if bits not in (1, 2):
        raise MessageError(f"STATE: {bits} bits per cell, expected 1 or 2")
    count = rows * cols
    size = (count * bits + 7) // 8
    if len(body) != _STATE.size + size:
        got = len(body) - _STATE.size
        raise MessageError(f"STATE: {rows}x{cols} at {bits} bits needs {size} bytes of cells, got {got}")
    values = unpack_cells(body[_STATE.size :], count, bits)
    return State(boot_id, generation, settled, rows, cols, bits, values)


def _parse_heartbeat(body: bytes) -> Heartbeat:
    if len(body) != _HEARTBEAT.size:
        raise MessageError(f"HEARTBEAT: {len(body)} bytes, expected {_HEARTBEAT.size}")
    return Heartbeat(*_HEARTBEAT.unpack(body))


def _parse_ack(body: bytes) -> Ack:
    if len(body) < _ACK.size:
        raise MessageError(f"ACK: {len(body)} bytes, expected at least {_ACK.size}")
    seq, command = _ACK.unpack_from(body)
    return Ack(seq, command, bytes(body[_ACK.size :]))


def _parse_nak(body: bytes) -> Nak:
    if len(body) < _NAK.size:
        raise MessageError(f"NAK: {len(body)} bytes, expected at least {_NAK.size}")
    seq, command, reason = _NAK.unpack_from(body)
    return Nak(seq, command, reason, _text(body[_NAK.size :], "NAK"))


def _parse_log(body: bytes) -> Log:
    if not body:
        raise MessageError("LOG: empty, expected a level byte and text")
    return Log(body[0], _text(body[1:], "LOG"))


_PARSERS: dict[int, Callable[[bytes], DeviceMessage]] = {
    MessageType.HELLO: _parse_hello,
    MessageType.STATE: _parse_state,
    MessageType.HEARTBEAT: _parse_heartbeat,
    MessageType.ACK: _parse_ack,
    MessageType.NAK: _parse_nak,
    MessageType.LOG: _parse_log,
}


def parse_device_message(frame: Frame) -> DeviceMessage:
    """The message a device frame carries; raises MessageError."""
    if frame.version != PROTOCOL_VERSION:
        raise MessageError(f"protocol version {frame.version}, this host speaks {PROTOCOL_VERSION}")
    parser = _PARSERS.get(frame.type)
    if parser is None:
        raise MessageError(f"message type 0x{frame.type:02x} is not one a device sends")
    return parser(frame.body)


def command_body(message: HostMessage) -> tuple[MessageType, bytes]:
    """The type and body of a host command; raises ValueError for impossible values."""
    if isinstance(message, HelloRequest):
        return MessageType.HELLO_REQ, b""
    if isinstance(message, GetState):
        return MessageType.GET_STATE, b""
    if isinstance(message, SetConfig):
        for name in ("debounce_ms", "scan_period_us", "heartbeat_ms"):
            value = getattr(message, name)
            if not 0 <= value <= 0xFFFF:
                raise ValueError(f"SET_CONFIG {name}: {value} does not fit 0..65535")
        return MessageType.SET_CONFIG, _SET_CONFIG.pack(
            message.debounce_ms, message.scan_period_us, message.heartbeat_ms
        )
    if isinstance(message, Ping):
        if len(message.token) > PING_MAX:
            raise ValueError(f"PING token: {len(message.token)} bytes, at most {PING_MAX}")
        return MessageType.PING, bytes(message.token)
    if not 0 <= message.first <= 0xFFFF:
        raise ValueError(f"LED_FRAME first LED {message.first} does not fit 0..65535")
    if len(message.colours) > LEDS_PER_FRAME:
        raise ValueError(f"LED_FRAME: {len(message.colours)} LEDs, at most {LEDS_PER_FRAME} per frame")
    rgb = bytearray()
    for index, colour in enumerate(message.colours):
        if len(colour) != 3 or any(not 0 <= c <= 255 for c in colour):
            raise ValueError(f"LED {message.first + index}: colour {colour!r} is not (r, g, b) in 0..255")
        rgb += bytes(colour)
    return MessageType.LED_FRAME, _LED_HEADER.pack(1 if message.show else 0, message.first) + bytes(rgb)


def encode_command(message: HostMessage, seq: int) -> bytes:
    """A host command as wire bytes (delimiter included)."""
    msg_type, body = command_body(message)
    return encode_frame(Frame(PROTOCOL_VERSION, msg_type, seq & 0xFFFF, body))
