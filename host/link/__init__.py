"""The host side of the serial link to the board's microcontroller.

``DeviceLink`` finds and opens the device, keeps the connection alive and in
step, and hands on settled ``Snapshot`` values; it also carries commands back
(LED frames, timing). It is a thin shell - a thread and a serial port - round
``LinkProtocol``, which holds every rule of the conversation and does no I/O.
``messages`` and ``frames`` are the wire protocol of docs/protocol.md as typed
values.
"""

from host.link.device_link import DeviceLink
from host.link.expectation import Expectation
from host.link.led_sender import LedSender
from host.link.messages import Capability, Heartbeat, Hello, SensorKind
from host.link.port import PICO_MICROPYTHON, UsbId, find_ports
from host.link.protocol import LinkProtocol
from host.link.snapshot import Snapshot
from host.link.status import CommandRefused, EventKind, LinkError, LinkEvent, LinkStats, LinkStatus

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
    "LinkProtocol",
    "LinkStats",
    "LinkStatus",
    "SensorKind",
    "Snapshot",
    "UsbId",
    "find_ports",
]
