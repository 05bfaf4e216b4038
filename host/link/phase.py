"""The link's phases (docs/protocol.md, section 4, draws them): one closed set and one table.

h11 keeps its states so: which facts can hold together - a port open, a HELLO taken, that HELLO
passed - is stated once, here, and host.link.protocol moves from phase to phase only through
``TRANSITIONS``; tests/link/test_link_phases.py drives every input in every phase through the
protocol's own inputs and checks the phase it lands in against a table written by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from host.link.status import LinkStatus


class Phase(Enum):
    """Where the conversation stands: one value, so that which facts can hold together is stated
    once (docs/protocol.md, section 4, draws the table) instead of in flags."""

    CLOSED = "closed"  # no port open: before the first, after a line lost, after the host's close
    ASKING = "asking"  # a port open and no HELLO taken: HELLO_REQ and GET_STATE asked every RETRY_S
    REJECTED = "rejected"  # the device's HELLO failed the checks: nothing handed on, a new HELLO awaited
    READY = "ready"  # its HELLO passed: its snapshots are handed on


class Input(Enum):
    """What moves the conversation from one phase to another."""

    OPENED = "opened"  # port_opened: a fresh start, whatever was before
    LOST = "lost"  # port_failed, or a line silent for silence_timeout
    CLOSED = "closed"  # close(): the host is done
    ACCEPTED = "accepted"  # a HELLO that passes the checks
    REJECTED = "rejected"  # a HELLO that fails them, or an error logged by a device that cannot scan
    RESTARTED = "restarted"  # a HEARTBEAT or STATE of another boot than the HELLO taken


# Every input in every phase where it can happen. Nothing is read from the device without a port
# (CLOSED takes no HELLO, HEARTBEAT or STATE), and a restart is a boot id other than a HELLO's, so
# ASKING, which has none, cannot see one: those pairs are missing.
TRANSITIONS: Mapping[tuple[Phase, Input], Phase] = {
    **{(phase, Input.OPENED): Phase.ASKING for phase in Phase},
    **{(phase, Input.LOST): Phase.CLOSED for phase in Phase},
    **{(phase, Input.CLOSED): Phase.CLOSED for phase in Phase},
    **{(phase, Input.ACCEPTED): Phase.READY for phase in (Phase.ASKING, Phase.REJECTED, Phase.READY)},
    **{(phase, Input.REJECTED): Phase.REJECTED for phase in (Phase.ASKING, Phase.REJECTED, Phase.READY)},
    (Phase.REJECTED, Input.RESTARTED): Phase.ASKING,
    (Phase.READY, Input.RESTARTED): Phase.ASKING,
}

STATUS: Mapping[Phase, LinkStatus] = {
    Phase.CLOSED: LinkStatus.DISCONNECTED,
    Phase.ASKING: LinkStatus.RECONNECTING,
    Phase.REJECTED: LinkStatus.RECONNECTING,
    Phase.READY: LinkStatus.CONNECTED,
}
