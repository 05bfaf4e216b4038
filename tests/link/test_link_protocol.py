"""The link protocol by tables: at time t, this comes in; these events and these commands go out.

Each row is (t, input, events, commands). An input is bytes from the device
(fed as the link's thread feeds them: receive_data, then handle_timer), b""
for time passing, OPEN for a port just opened, or Fail(reason) for a port
that failed. Events are written ``kind: message`` for notices, ``snapshot
CELLS gen G boot B at MS`` for readings handed on, ``ack SEQ`` / ``nak SEQ
REASON`` for answers; commands are the host's frames decoded, by type name.
The expected rows come from docs/protocol.md section 4, by hand.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host.link.expectation import Expectation
from host.link.frames import MAX_FRAME, Frame, FrameSplitter, decode_frame, encode_frame
from host.link.messages import Ack, GetState, LedFrame, MessageType, Ping, SetConfig
from host.link.protocol import LinkProtocol, ProtocolEvent
from host.link.reader import FrameReader
from host.link.snapshot import Snapshot
from host.link.status import LinkError, LinkEvent, LinkStats, LinkStatus
from tests.budget import examples
from tests.link import device_frames

OPEN = "open"
READY_1 = "ready: board test: 2x2 reed, firmware 0.1.0, boot id 00000001"
READY_2 = "ready: board test: 2x2 reed, firmware 0.1.0, boot id 00000002"
HANDSHAKE = ["HELLO_REQ", "GET_STATE"]


@dataclass(frozen=True)
class Fail:
    reason: str


class Device:
    """Frames as one run of the firmware sends them, numbered from 0 at its boot."""

    def __init__(self, boot: int = 1, board: str = "test", rows: int = 2, cols: int = 2) -> None:
        self.boot, self.board, self.rows, self.cols = boot, board, rows, cols
        self.seq = 0

    def _frame(self, msg_type: int, body: bytes) -> bytes:
        self.seq += 1
        return device_frames.frame(msg_type, body, self.seq - 1)

    def lose(self, frames: int) -> bytes:
        """Frames sent but lost on the way."""
        self.seq += frames
        return b""

    def hello(self, *, board: str | None = None, status: int = 0, leds: int = 0) -> bytes:
        body = device_frames.hello_body(
            boot_id=self.boot, board=board or self.board, rows=self.rows, cols=self.cols,
            status=status, caps=1 if leds else 0, led_count=leds,
        )  # fmt: skip
        return self._frame(MessageType.HELLO, body)

    def state(self, cells: str, gen: int, *, boot: int | None = None, rows: int | None = None) -> bytes:
        rows = self.rows if rows is None else rows
        values = [int(c) for c in cells]
        body = device_frames.state_body(
            boot_id=self.boot if boot is None else boot, values=values, rows=rows, cols=self.cols,
            generation=gen,
        )  # fmt: skip
        return self._frame(MessageType.STATE, body)

    def beat(self, *, boot: int | None = None) -> bytes:
        return self._frame(MessageType.HEARTBEAT, device_frames.heartbeat_body(boot_id=boot or self.boot))

    def log(self, level: int, text: str) -> bytes:
        return self._frame(MessageType.LOG, device_frames.log_body(level, text))

    def ack(self, seq: int, command: MessageType) -> bytes:
        return self._frame(MessageType.ACK, device_frames.ack_body(seq, command))

    def nak(self, seq: int, command: MessageType, reason: int, text: str) -> bytes:
        return self._frame(MessageType.NAK, device_frames.nak_body(seq, command, reason, text))


def describe(event: ProtocolEvent) -> str:
    if isinstance(event, LinkEvent):
        return f"{event.kind.value}: {event.message}"
    if isinstance(event, Snapshot):
        cells = "".join(map(str, event.values))
        return f"snapshot {cells} gen {event.generation} boot {event.boot_id} at {event.received_ms}"
    if isinstance(event, Ack):
        return f"ack {event.seq}"
    return f"nak {event.seq} {event.reason_name}"


def commands(data: bytes) -> list[str]:
    return [MessageType(decode_frame(chunk).type).name for chunk in FrameSplitter().feed(data) if chunk]


Row = tuple[float, "bytes | str | Fail", list[str], list[str]]


def run(protocol: LinkProtocol, rows: list[Row]) -> None:
    for index, (at, given_, events, sent) in enumerate(rows):
        if given_ == OPEN:
            got = protocol.port_opened("/dev/pico", at)
        elif isinstance(given_, Fail):
            got = protocol.port_failed(given_.reason)
        else:
            assert isinstance(given_, bytes)
            got = protocol.receive_data(given_, at) + protocol.handle_timer(at)
        row = ([describe(e) for e in got], commands(protocol.data_to_send()))
        assert row == (events, sent), f"row {index} (t={at})"


def test_the_handshake_then_only_changes_are_handed_on() -> None:
    dev, link = Device(), LinkProtocol()
    assert (link.status, link.status_reason) == (LinkStatus.DISCONNECTED, "not connected yet")
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.01, dev.hello(), [READY_1], ["GET_STATE"]),  # no reading yet: asked for once more
        (0.02, dev.state("0000", 0), ["snapshot 0000 gen 0 boot 1 at 20"], []),
        (0.03, dev.state("0000", 0), [], []),  # the second GET_STATE's answer: nothing new
        (0.5, dev.beat(), [], []),
        (0.6, dev.state("1001", 1), ["snapshot 1001 gen 1 boot 1 at 600"], []),
        (0.7, dev.hello(), [], []),  # asked again (after SET_CONFIG): the same device, nothing new
    ])  # fmt: skip
    assert (link.status, link.status_reason, link.accepted) == (LinkStatus.CONNECTED, "", 1)
    assert link.latest is not None and link.latest.values == (1, 0, 0, 1)
    assert link.heartbeat is not None and link.heartbeat.boot_id == 1
    assert link.stats == LinkStats(frames=6, snapshots=2)


def test_noise_before_the_first_frame_is_discarded_and_after_it_counted() -> None:
    dev, link = Device(), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.01, b"MicroPython v1.24 on 2024-01-01\r\n>>> \x00\x01", [], []),  # the REPL's banner
        (0.02, dev.hello(), [READY_1], ["GET_STATE"]),
        (0.03, b"\x03\x03garbage\x00\xff\xfe\x00\x01\x02" + dev.state("1111", 1),
         ["snapshot 1111 gen 1 boot 1 at 30"], []),  # the frame's leading 0x00 ends the noise
        (0.04, b"\x05" * (MAX_FRAME + 1) + dev.state("0111", 2), ["snapshot 0111 gen 2 boot 1 at 40"], []),
        (0.05, encode_frame(Frame(2, MessageType.STATE, 40, b"")), [], []),  # another version: not understood
        (0.06, dev.beat(), [], []),  # and not numbered in this version's sequence
    ])  # fmt: skip
    assert link.stats == LinkStats(frames=5, discarded=2, bad_frames=4, bad_messages=1, snapshots=2)


def test_a_frame_in_pieces_is_one_frame() -> None:
    dev, link = Device(), LinkProtocol()
    hello = dev.hello()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, hello[:5], [], []),
        (0.2, hello[5:-1], [], []),
        (0.3, hello[-1:], [READY_1], ["GET_STATE"]),
    ])  # fmt: skip


def test_lost_frames_mean_the_state_is_read_again() -> None:
    dev, link = Device(), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, dev.hello() + dev.state("0000", 0),
         [READY_1, "snapshot 0000 gen 0 boot 1 at 100"], ["GET_STATE"]),
        (0.2, dev.lose(3) + dev.state("0100", 4),
         ["resync: frames lost: sequence 5, expected 2", "snapshot 0100 gen 4 boot 1 at 200"], ["GET_STATE"]),
        (0.3, dev.beat(), [], []),  # in step again
    ])  # fmt: skip
    assert (link.stats.gaps, link.status_reason) == (1, "")


def test_sequence_numbers_wrap() -> None:
    dev, link = Device(), LinkProtocol()
    dev.seq = 65535
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, dev.hello() + dev.state("0000", 0),
         [READY_1, "snapshot 0000 gen 0 boot 1 at 100"], ["GET_STATE"]),
    ])  # fmt: skip
    assert link.stats.gaps == 0


def test_a_restarted_device_is_never_reported_before_its_hello() -> None:
    dev, link = Device(boot=1), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, dev.hello() + dev.state("0000", 0),
         [READY_1, "snapshot 0000 gen 0 boot 1 at 100"], ["GET_STATE"]),
        (0.2, dev.state("1000", 1, boot=2),
         ["resync: device restarted (boot id 00000002, was 00000001)"], HANDSHAKE),
        (0.3, dev.state("1000", 1, boot=2), [], []),  # still no HELLO of boot 2: dropped
        (0.4, dev.beat(boot=2), [], []),
    ])  # fmt: skip
    assert (link.device, link.latest, link.status) == (None, None, LinkStatus.RECONNECTING)
    assert link.status_reason == "device restarted (boot id 00000002, was 00000001)"
    dev.boot = 2
    run(link, [
        (0.5, dev.hello(), [READY_2], ["GET_STATE"]),
        (0.6, dev.state("1000", 1), ["snapshot 1000 gen 1 boot 2 at 600"], []),
    ])  # fmt: skip
    assert (link.accepted, link.stats.boots) == (2, 1)


def test_a_restart_announced_by_its_hello_is_a_device_accepted_afresh() -> None:
    # The firmware says HELLO at boot: the new run's strip is dark, so it must count as a new device.
    first, link = Device(boot=1), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, first.hello() + first.state("0000", 0),
         [READY_1, "snapshot 0000 gen 0 boot 1 at 100"], ["GET_STATE"]),
    ])  # fmt: skip
    second = Device(boot=2)  # numbers its frames from 0 again
    run(link, [
        (0.2, second.hello(),
         ["resync: frames lost: sequence 0, expected 2", READY_2], ["GET_STATE", "GET_STATE"]),
        (0.3, second.state("0000", 0), ["snapshot 0000 gen 0 boot 2 at 300"], []),  # same cells, new run
    ])  # fmt: skip
    assert (link.accepted, link.stats.boots) == (2, 1)


def test_an_older_reading_of_the_same_run_is_dropped() -> None:
    dev, link = Device(), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, dev.hello() + dev.state("1100", 2),
         [READY_1, "snapshot 1100 gen 2 boot 1 at 100"], ["GET_STATE"]),
        (0.2, dev.state("1000", 1), [], []),  # overtaken on the way
        (0.3, dev.state("1000", 2), [], []),  # a change must come with a newer generation
        (0.4, dev.state("0001", 3), ["snapshot 0001 gen 3 boot 1 at 400"], []),
        (0.5, dev.state("0001", 1), [], []),  # unchanged: not stale, just nothing new
    ])  # fmt: skip
    assert link.stats.stale == 2


def test_a_reading_of_another_shape_is_dropped() -> None:
    dev, link = Device(), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, dev.hello() + dev.state("00", 0, rows=1), [READY_1], ["GET_STATE"]),
    ])  # fmt: skip
    assert (link.latest, link.stats.bad_messages) == (None, 1)


def test_a_device_that_is_not_the_one_expected_is_never_listened_to() -> None:
    dev = Device(board="flipfour-hall")
    link = LinkProtocol(expect=Expectation(board="desdemona-reed"))
    wrong = "rejected: device is configured for board 'flipfour-hall', expected 'desdemona-reed'"
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, dev.hello() + dev.state("0000", 0), [wrong], []),
        (0.2, dev.hello(), [], []),  # the same problem is reported once
    ])  # fmt: skip
    assert (link.device, link.latest, link.status) == (None, None, LinkStatus.RECONNECTING)
    assert link.status_reason == link.problem == wrong.removeprefix("rejected: ")
    run(link, [(0.3, dev.hello(board="desdemona-reed"), ["ready: board desdemona-reed: 2x2 reed, "
                "firmware 0.1.0, boot id 00000001"], ["GET_STATE"])])  # fmt: skip
    assert link.problem is None


@pytest.mark.parametrize(
    ("expect", "problem"),
    [
        (Expectation(rows=10, cols=10), "device scans 2x2 sensors, expected 10x10"),
        (Expectation(rows=2, cols=3), "device scans 2x2 sensors, expected 2x3"),
        (Expectation(rows=3), "device scans 2x2 sensors, expected 3xNone"),
        (Expectation(board="test", rows=2, cols=2, sensor=None), None),
    ],
)
def test_the_shape_expected(expect: Expectation, problem: str | None) -> None:
    link = LinkProtocol(expect)
    link.port_opened("/dev/pico", 0.0)
    link.receive_data(Device().hello(), 0.1)
    assert link.problem == problem and (link.device is None) == (problem is not None)


def test_a_device_that_cannot_scan_is_rejected_with_its_reason() -> None:
    dev, link = Device(), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, dev.hello(status=1), ["rejected: the device's board_config.json is invalid"], []),
        (0.2, dev.log(2, "calibration missing"), ["device_log: WARNING: calibration missing"], []),
        (0.3, dev.log(3, "rows: got 17"),
         ["device_log: ERROR: rows: got 17", "rejected: the device cannot scan: rows: got 17"], []),
        (0.4, dev.log(9, "odd"), ["device_log: 9: odd"], []),
    ])  # fmt: skip
    assert link.device is None


def test_an_error_logged_by_a_working_device_is_only_passed_on() -> None:
    dev, link = Device(), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.1, dev.hello() + dev.log(3, "scan overran"),
         [READY_1, "device_log: ERROR: scan overran"], ["GET_STATE"]),
    ])  # fmt: skip
    assert link.device is not None


def test_a_silent_line_is_given_up_and_a_reopened_one_starts_afresh() -> None:
    dev, link = Device(), LinkProtocol()  # docs/protocol.md: 3 s without a valid frame
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.5, dev.hello() + dev.state("0000", 0),
         [READY_1, "snapshot 0000 gen 0 boot 1 at 500"], ["GET_STATE"]),
        (3.5, b"", [], []),  # 3 s since the last frame: not more than the timeout
        (3.625, b"", ["disconnected: no valid frame for 3 s"], []),
        (4.0, b"", [], []),  # nothing more happens on a line given up
    ])  # fmt: skip
    assert (link.status, link.status_reason, link.device) == (
        LinkStatus.DISCONNECTED,
        "no valid frame for 3 s",
        None,
    )
    with pytest.raises(LinkError, match="no device is connected"):
        link.send(GetState())
    run(link, [
        (5.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (5.125, b"\x01\x02\x00", [], []),  # noise before the first frame again: discarded
        (5.25, dev.lose(10) + dev.hello(), [READY_1], []),  # no gap across a reopening; the reading is known
        (5.375, dev.state("0000", 0), [], []),
        (5.5, dev.state("0010", 1), ["snapshot 0010 gen 1 boot 1 at 5500"], []),
        (5.625, Fail("reading failed: [Errno 5] Input/output error"),
         ["disconnected: reading failed: [Errno 5] Input/output error"], []),
    ])  # fmt: skip
    assert link.stats == LinkStats(frames=5, discarded=1, gaps=0, reconnects=2, snapshots=2)
    assert (link.accepted, link.status) == (2, LinkStatus.DISCONNECTED)


def test_a_port_opened_again_starts_afresh_whatever_it_was() -> None:
    dev, link = Device(), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (0.5, dev.hello() + dev.state("0000", 0),
         [READY_1, "snapshot 0000 gen 0 boot 1 at 500"], ["GET_STATE"]),
        (1.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),  # the caller reopened it without a failure
    ])  # fmt: skip
    assert (link.device, link.status) == (None, LinkStatus.RECONNECTING)
    run(link, [(2.125, b"", [], HANDSHAKE)])  # who is there is asked again


def test_what_was_to_be_sent_on_a_line_that_failed_is_never_sent() -> None:
    link = LinkProtocol()
    link.port_opened("/dev/pico", 0.0)
    link.port_failed("reading failed")  # before the handshake was written
    assert link.data_to_send() == b""
    link.port_opened("/dev/pico", 1.0)
    assert commands(link.data_to_send()) == HANDSHAKE


def test_a_port_that_is_not_there() -> None:
    link = LinkProtocol()
    assert [describe(e) for e in link.port_unavailable("no serial device with USB id 2e8a:0005")] == [
        "port_unavailable: no serial device with USB id 2e8a:0005"
    ]
    assert (link.status, link.status_reason) == (
        LinkStatus.DISCONNECTED,
        "no serial device with USB id 2e8a:0005",
    )
    assert link.handle_timer(100.0) == [] and link.data_to_send() == b""


def test_unanswered_questions_are_asked_again_every_second() -> None:
    dev, link = Device(), LinkProtocol()
    run(link, [
        (0.0, OPEN, ["connected: /dev/pico"], HANDSHAKE),
        (1.0, b"", [], []),  # a second: not yet more than RETRY_S
        (1.125, b"", [], HANDSHAKE),
        (1.25, dev.beat(), [], []),  # a heartbeat is no answer to HELLO_REQ
        (2.125, b"", [], []),
        (2.25, b"", [], HANDSHAKE),
        (2.5, dev.hello(), [READY_1], ["GET_STATE"]),
        (3.5, b"", [], []),
        (3.625, b"", [], ["GET_STATE"]),  # HELLO came, the reading did not
        (3.75, dev.state("0000", 0), ["snapshot 0000 gen 0 boot 1 at 3750"], []),
        (5.0, b"", [], []),  # everything answered: nothing is asked
    ])  # fmt: skip


def test_the_back_off_is_from_a_fifth_of_a_second_to_five_seconds() -> None:
    link = LinkProtocol()  # docs/protocol.md: "0.2 s doubling to 5 s"
    assert [link.next_backoff() for _ in range(7)] == [0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0]


def test_the_back_off_doubles_until_a_device_is_accepted() -> None:
    link = LinkProtocol(backoff=(0.25, 1.5))
    assert [link.next_backoff() for _ in range(5)] == [0.25, 0.5, 1.0, 1.5, 1.5]
    link.port_opened("/dev/pico", 0.0)
    assert link.next_backoff() == 1.5  # a port opened is not yet a device
    link.receive_data(Device().hello(), 0.1)
    assert [link.next_backoff() for _ in range(2)] == [0.25, 0.5]


@pytest.mark.parametrize(
    ("silence", "backoff"), [(0.0, (0.2, 5.0)), (-1.0, (0.2, 5.0)), (3.0, (0.0, 5.0)), (3.0, (1.0, 0.5))]
)
def test_impossible_timings_are_refused(silence: float, backoff: tuple[float, float]) -> None:
    with pytest.raises(ValueError, match="must be positive"):
        LinkProtocol(silence_timeout=silence, backoff=backoff)


def test_the_smallest_timings_are_allowed() -> None:
    link = LinkProtocol(silence_timeout=0.001, backoff=(0.5, 0.5))
    assert [link.next_backoff() for _ in range(2)] == [0.5, 0.5]


def test_commands_are_numbered_in_order_and_their_answers_passed_on() -> None:
    link = LinkProtocol()
    with pytest.raises(LinkError, match="no device is connected"):
        link.send(GetState())
    dev = Device()
    link.port_opened("/dev/pico", 0.0)  # HELLO_REQ 0, GET_STATE 1
    assert link.send(Ping(b"hi")) == 2
    with pytest.raises(ValueError, match="SET_CONFIG debounce_ms"):
        link.send(SetConfig(debounce_ms=70000))
    assert link.send(LedFrame(0, ((1, 2, 3),))) == 3  # a command refused here used no number
    sent = [
        (MessageType(f.type).name, f.seq)
        for f in map(decode_frame, FrameSplitter().feed(link.data_to_send()))
    ]
    assert sent == [("HELLO_REQ", 0), ("GET_STATE", 1), ("PING", 2), ("LED_FRAME", 3)]
    assert link.data_to_send() == b""
    run(link, [
        (0.1, dev.ack(2, MessageType.PING), ["ack 2"], []),
        (0.2, dev.nak(3, MessageType.LED_FRAME, 4, "no LEDs"), ["nak 3 NO_LEDS"], []),
        (0.3, dev.nak(9, MessageType.LED_FRAME, 77, "?"), ["nak 9 77"], []),
    ])  # fmt: skip


def test_command_numbers_wrap() -> None:
    link = LinkProtocol()
    link.port_opened("/dev/pico", 0.0)
    for _ in range(65534):
        link.send(GetState())
    assert [link.send(GetState()) for _ in range(2)] == [0, 1]


def test_a_closed_protocol_sends_nothing() -> None:
    dev, link = Device(), LinkProtocol()
    link.port_opened("/dev/pico", 0.0)
    link.receive_data(dev.hello(), 0.1)
    link.close()
    assert (link.data_to_send(), link.status, link.device) == (b"", LinkStatus.DISCONNECTED, None)
    with pytest.raises(LinkError):
        link.send(GetState())


def _stream() -> bytes:
    dev = Device()
    return (
        b"MicroPython\r\n>>> "
        + dev.hello()
        + dev.state("0000", 0)
        + b"\x03garbage\x00"
        + dev.lose(2)
        + dev.state("0110", 1)
        + dev.beat(boot=5)
        + dev.hello()
        + dev.state("1111", 2)
    )


@settings(max_examples=examples(100))
@given(st.lists(st.integers(min_value=0, max_value=len(_stream())), max_size=20))
def test_any_cutting_of_the_stream_gives_the_same_events(cuts: list[int]) -> None:
    stream = _stream()
    whole = LinkProtocol()
    whole.port_opened("/dev/pico", 0.0)
    expected = [describe(e) for e in whole.receive_data(stream, 0.5)]
    pieces = LinkProtocol()
    pieces.port_opened("/dev/pico", 0.0)
    bounds = [0, *sorted(cuts), len(stream)]
    got = [describe(e) for a, b in itertools.pairwise(bounds) for e in pieces.receive_data(stream[a:b], 0.5)]
    assert got == expected and pieces.stats == whole.stats
    assert expected == [
        READY_1,
        "snapshot 0000 gen 0 boot 1 at 500",
        "resync: frames lost: sequence 4, expected 2",
        "snapshot 0110 gen 1 boot 1 at 500",
        "resync: device restarted (boot id 00000005, was 00000001)",
        READY_1,
        "snapshot 1111 gen 2 boot 1 at 500",
    ]


def test_a_new_reader_discards_what_comes_before_its_first_frame() -> None:
    reader = FrameReader()
    assert reader.feed(b"MicroPython\x00") == [] and reader.stats == LinkStats(discarded=1)
