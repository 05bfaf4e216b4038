"""What the link tells the rest of the host: its status, its events, its counters and its errors.

Plain values, shared by the protocol (which decides them) and the thread that
runs it (which hands them on), so that neither imports the other for them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum


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

    def __add__(self, other: LinkStats) -> LinkStats:
        """Counts added field by field (the reader's and the protocol's make the link's)."""
        return LinkStats(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))
