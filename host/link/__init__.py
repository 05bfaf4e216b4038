"""The host side of the serial link to the board's microcontroller.

``DeviceLink`` finds and opens the device, keeps the connection alive and in
step, and hands on settled ``Snapshot`` values; it also carries commands back
(LED frames, timing). ``messages`` and ``frames`` are the wire protocol of
docs/protocol.md as typed values.
"""

from host.link.device_link import (
    CommandRefused,
    DeviceLink,
    EventKind,
    Expectation,
    LinkError,
    LinkEvent,
    LinkStats,
    LinkStatus,
)
from host.link.discovery import PICO_MICROPYTHON, UsbId, find_ports
from host.link.led_sender import LedSender
from host.link.messages import Capability, Heartbeat, Hello, SensorKind
from host.link.snapshot import Snapshot

__all__ = [
    "PICO_MICROPYTHON",
    "Capability",
    "CommandRefused",
    "DeviceLink",
    "EventKind",
    "Expectation",
    "Heartbeat",
    "Hello",
    "LedSender",
    "LinkError",
    "LinkEvent",
    "LinkStats",
    "LinkStatus",
    "SensorKind",
    "Snapshot",
    "UsbId",
    "find_ports",
]
