"""Every input in every phase of the link, by the protocol's own inputs (host/link/phase.py).

Each phase is reached as the line reaches it - a fresh protocol, a port opened, a HELLO from the
wrong board, a HELLO that passes - and each input is given as the line gives it: a port opened or
failed, the host closing, a silence longer than the timeout, bytes of a HELLO, a HEARTBEAT of
another boot, a STATE. The phase each lands in is written by hand from docs/protocol.md, section 4.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from host.link.expectation import Expectation
from host.link.phase import STATUS, TRANSITIONS, Input, Phase
from host.link.protocol import LinkProtocol
from host.link.status import LinkStatus
from tests.link.test_link_protocol import Device

SILENCE_S = 3.0


def _at(phase: Phase) -> tuple[LinkProtocol, Device]:
    link, dev = LinkProtocol(Expectation(board="test"), silence_timeout=SILENCE_S), Device()
    if phase is not Phase.CLOSED:
        link.port_opened("/dev/pico", 0.0)
    if phase is Phase.REJECTED:
        link.receive_data(dev.hello(board="other"), 0.1)
    elif phase is Phase.READY:
        link.receive_data(dev.hello(), 0.1)
    assert link.phase is phase
    return link, dev


def _silence(link: LinkProtocol, dev: Device) -> None:
    link.handle_timer(0.1 + SILENCE_S + 0.5)


GIVEN: dict[str, Callable[[LinkProtocol, Device], object]] = {
    "open": lambda link, dev: link.port_opened("/dev/pico", 1.0),
    "fail": lambda link, dev: link.port_failed("unplugged"),
    "close": lambda link, dev: link.close(),
    "silence": _silence,
    "hello": lambda link, dev: link.receive_data(dev.hello(), 1.0),
    "wrong hello": lambda link, dev: link.receive_data(dev.hello(board="other"), 1.0),
    "invalid hello": lambda link, dev: link.receive_data(dev.hello(status=1), 1.0),
    "restart": lambda link, dev: link.receive_data(dev.beat(boot=9), 1.0),
    "state": lambda link, dev: link.receive_data(dev.state("0110", 1), 1.0),
    "no port": lambda link, dev: link.port_unavailable("no Pico found"),
}

C, A, J, R = Phase.CLOSED, Phase.ASKING, Phase.REJECTED, Phase.READY
# Rows: the phase before; columns: GIVEN's inputs in order. Without a port nothing is read; a
# restart needs a HELLO to differ from; a STATE never moves the phase.
EXPECTED = {
    #    open fail close silence hello wrong invalid restart state no-port
    C: (A, C, C, C, C, C, C, C, C, C),
    A: (A, C, C, C, R, J, J, A, A, A),
    J: (A, C, C, C, R, J, J, A, J, J),
    R: (A, C, C, C, R, J, J, A, R, R),
}
WHAT = {
    C: LinkStatus.DISCONNECTED,
    A: LinkStatus.RECONNECTING,
    J: LinkStatus.RECONNECTING,
    R: LinkStatus.CONNECTED,
}


@pytest.mark.parametrize("before", list(Phase), ids=lambda phase: phase.value)
@pytest.mark.parametrize("given", list(GIVEN))
def test_every_input_in_every_phase(before: Phase, given: str) -> None:
    link, dev = _at(before)
    GIVEN[given](link, dev)
    after = EXPECTED[before][list(GIVEN).index(given)]
    assert (link.phase, link.status) == (after, WHAT[after])
    assert (link.device is not None) == (after is Phase.READY)
    if given == "state":  # handed on only when READY
        assert (link.latest is not None) == (after is Phase.READY)


def test_the_table_has_each_input_where_it_can_happen_and_nowhere_else() -> None:
    # The pairs docs/protocol.md draws, by hand: an input missing from a phase cannot happen there.
    drawn = {
        (phase, given)
        for phase in Phase
        for given in Input
        if not (given in (Input.ACCEPTED, Input.REJECTED, Input.RESTARTED) and phase is Phase.CLOSED)
        and not (given is Input.RESTARTED and phase is Phase.ASKING)
    }
    assert set(TRANSITIONS) == drawn
    assert STATUS == WHAT
