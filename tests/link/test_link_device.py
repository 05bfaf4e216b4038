"""The link's logic against a scripted device: handshake, resync, checks,
reconnection and commands. No interpreter, no pseudo-terminal: fast and exact."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from host.link import DeviceLink, EventKind, Expectation, LinkError, LinkEvent
from host.link.messages import MessageType
from host.link.port import UsbId, find_ports
from tests.link.scripted_device import ScriptedDevice


def _wait(condition: Callable[[], object], timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


class Harness:
    def __init__(self, device: ScriptedDevice, **options: object) -> None:
        self.device = device
        self.events: list[LinkEvent] = []
        self.link = DeviceLink(
            "/dev/fake",
            open_serial=self._open,
            on_event=self.events.append,
            **options,  # type: ignore[arg-type]
        )

    def _open(self, path: str) -> ScriptedDevice:
        assert path == "/dev/fake"
        self.device.opened += 1
        self.device.closed = False
        return self.device

    def kinds(self) -> list[EventKind]:
        return [e.kind for e in self.events]


@pytest.fixture
def harness() -> Iterator[Harness]:
    h = Harness(ScriptedDevice(board="test", rows=2, cols=2, boot_id=1))
    h.link.start()
    yield h
    h.link.close()


def test_handshake_then_the_state_as_a_snapshot(harness: Harness) -> None:
    device = harness.device
    snap = harness.link.next_snapshot(3)
    assert (snap.board, snap.rows, snap.cols, snap.values, snap.boot_id) == ("test", 2, 2, (0, 0, 0, 0), 1)
    assert [t for t, _s, _b in device.received[:2]] == [MessageType.HELLO_REQ, MessageType.GET_STATE]
    assert harness.link.device is not None and harness.link.device.board == "test"
    assert harness.kinds()[:2] == [EventKind.CONNECTED, EventKind.READY]


def test_only_changes_are_handed_on(harness: Harness) -> None:
    device = harness.device
    harness.link.next_snapshot(3)
    device.send_heartbeat()
    device.send_state()  # the heartbeat's state: unchanged
    device.values = [1, 0, 0, 1]
    device.generation = 1
    device.send_state()
    assert harness.link.next_snapshot(3).values == (1, 0, 0, 1)
    with pytest.raises(TimeoutError):
        harness.link.next_snapshot(0.2)
    assert harness.link.latest is not None and harness.link.latest.generation == 1


def test_a_sequence_gap_makes_the_link_read_the_state_again(harness: Harness) -> None:
    device = harness.device
    harness.link.next_snapshot(3)
    asked = len(device.commands(MessageType.GET_STATE))
    device.values = [0, 1, 0, 0]
    device.answer = False
    device.send_state(skip=3)  # three frames lost before this one
    assert harness.link.next_snapshot(3).values == (0, 1, 0, 0)
    _wait(lambda: len(device.commands(MessageType.GET_STATE)) == asked + 1)
    assert harness.link.stats.gaps == 1
    assert EventKind.RESYNC in harness.kinds()


def test_noise_before_and_between_frames(harness: Harness) -> None:
    device = harness.device
    harness.link.next_snapshot(3)
    device.push(b"\x03\x03garbage\x00\xff\xfe\x00\x01\x02")
    device.values = [1, 1, 1, 1]
    device.send_state()  # right after the noise: its leading delimiter ends the noise
    assert harness.link.next_snapshot(3).values == (1, 1, 1, 1)
    assert harness.link.stats.bad_frames == 3  # "\x03\x03garbage", "\xff\xfe" and "\x01\x02"


def test_an_older_state_of_the_same_boot_is_dropped(harness: Harness) -> None:
    device = harness.device
    harness.link.next_snapshot(3)
    device.values = [1, 0, 0, 0]
    device.values = [1, 1, 0, 0]  # generation 2
    device.send_state()
    assert harness.link.next_snapshot(3).generation == 2
    device.generation = 1  # a STATE that was overtaken on the way: older than the one handed on
    device.send_state(values=[1, 0, 0, 0])
    device.generation = 3
    device.send_state(values=[0, 0, 0, 1])
    snapshot = harness.link.next_snapshot(3)
    assert (snapshot.values, snapshot.generation) == ((0, 0, 0, 1), 3)
    assert harness.link.stats.stale == 1


def test_garbage_before_the_first_frame_is_discarded_quietly() -> None:
    device = ScriptedDevice()
    device.answer = False
    h = Harness(device)
    with h.link:
        _wait(lambda: device.opened)
        device.push(b"MicroPython v1.24 on 2024-01-01; Raspberry Pi Pico\r\n>>> \x00")
        device.send_hello()
        device.send_state()
        assert h.link.next_snapshot(3).values == (0, 0, 0, 0)
        assert h.link.stats.discarded == 1 and h.link.stats.bad_frames == 0


def test_a_new_boot_id_is_never_reported_before_its_hello(harness: Harness) -> None:
    device = harness.device
    harness.link.next_snapshot(3)
    device.answer = False
    device.values = [1, 0, 0, 0]
    device.send_state(boot_id=2)  # a restarted device, its HELLO lost
    with pytest.raises(TimeoutError):
        harness.link.next_snapshot(0.3)
    assert harness.link.device is None and harness.link.latest is None
    assert device.commands(MessageType.HELLO_REQ)[-1]  # asked who it is
    device.boot_id = 2
    device.send_hello()
    device.send_state()
    snap = harness.link.next_snapshot(3)
    assert (snap.boot_id, snap.values) == (2, (1, 0, 0, 0))
    assert harness.link.stats.boots == 1


def test_a_restarted_device_is_reported_even_when_its_state_is_the_same(harness: Harness) -> None:
    device = harness.device
    harness.link.next_snapshot(3)
    device.boot_id = 9
    device.send_heartbeat()  # the link notices the new boot id and asks again
    snap = harness.link.next_snapshot(3)
    assert (snap.boot_id, snap.values) == (9, (0, 0, 0, 0))


def test_a_state_of_the_wrong_shape_is_dropped(harness: Harness) -> None:
    device = harness.device
    harness.link.next_snapshot(3)
    device.send_state(rows=1)
    with pytest.raises(TimeoutError):
        harness.link.next_snapshot(0.2)
    assert harness.link.stats.bad_messages == 1


def test_a_device_for_another_board_is_rejected() -> None:
    h = Harness(ScriptedDevice(board="flipfour-hall"), expect=Expectation(board="desdemona-reed"))
    with h.link:
        _wait(lambda: EventKind.REJECTED in h.kinds())
        with pytest.raises(TimeoutError):
            h.link.next_snapshot(0.3)
        assert h.link.device is None
        assert h.link.problem == "device is configured for board 'flipfour-hall', expected 'desdemona-reed'"
        with pytest.raises(TimeoutError, match="flipfour-hall"):
            h.link.wait_ready(0.1)


def test_a_device_of_another_shape_is_rejected() -> None:
    h = Harness(ScriptedDevice(rows=2, cols=2), expect=Expectation(rows=10, cols=10))
    with h.link:
        _wait(lambda: h.link.problem is not None)
        assert h.link.problem == "device scans 2x2 sensors, expected 10x10"


def test_a_device_with_a_broken_config_is_rejected_with_its_reason() -> None:
    device = ScriptedDevice()
    device.config_valid = False
    h = Harness(device)
    with h.link:
        _wait(lambda: h.link.problem is not None and "rows" in h.link.problem)
        assert h.link.problem == "the device cannot scan: board_config.json: rows: got 17"
        assert h.link.device is None


def test_silence_means_reconnect() -> None:
    device = ScriptedDevice()
    h = Harness(device, silence_timeout=0.3, backoff=(0.05, 0.1))
    with h.link:
        h.link.next_snapshot(3)
        device.answer = False
        _wait(lambda: device.opened >= 2)
        assert EventKind.DISCONNECTED in h.kinds()
        assert any("no valid frame for 0.3 s" in e.message for e in h.events)
        device.answer = True
        device.send_hello()
        _wait(lambda: h.link.device is not None)
        assert h.link.stats.reconnects >= 1


def test_a_port_that_cannot_be_opened_is_retried_with_backoff() -> None:
    device = ScriptedDevice()
    attempts: list[float] = []

    def flaky_open(path: str) -> ScriptedDevice:
        attempts.append(time.monotonic())
        if len(attempts) < 3:
            raise OSError(16, "Device or resource busy")
        return device

    events: list[LinkEvent] = []
    with DeviceLink("/dev/fake", open_serial=flaky_open, backoff=(0.1, 1.0), on_event=events.append) as link:
        link.next_snapshot(3)
    assert len(attempts) == 3
    assert attempts[1] - attempts[0] >= 0.1 and attempts[2] - attempts[1] >= 0.2  # the wait doubles
    assert [e.kind for e in events[:2]] == [EventKind.PORT_UNAVAILABLE] * 2
    assert "Device or resource busy" in events[0].message


def test_a_read_error_closes_and_reopens_the_port(harness: Harness) -> None:
    device = harness.device
    harness.link.next_snapshot(3)

    def unplugged(size: int = 1) -> bytes:
        raise OSError(5, "Input/output error")

    device.read = unplugged  # type: ignore[method-assign]
    _wait(lambda: EventKind.DISCONNECTED in harness.kinds())
    del device.read
    _wait(lambda: device.opened >= 2 and harness.link.device is not None)


def test_no_device_found_by_usb_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("host.link.device_link.find_ports", lambda usb_id: [])
    events: list[LinkEvent] = []
    with DeviceLink(on_event=events.append, backoff=(0.05, 0.1)):
        _wait(lambda: events)
    assert events[0].kind is EventKind.PORT_UNAVAILABLE
    assert events[0].message == "no serial device with USB id 2e8a:0005"


def test_find_ports_matches_vid_and_pid(monkeypatch: pytest.MonkeyPatch) -> None:
    class Port:
        def __init__(self, device: str, vid: int | None, pid: int | None) -> None:
            self.device, self.vid, self.pid = device, vid, pid

    ports = [
        Port("/dev/ttyACM1", 0x2E8A, 0x0005),
        Port("/dev/ttyUSB0", 0x0403, 0x6001),
        Port("/dev/ttyACM0", 0x2E8A, 5),
    ]
    monkeypatch.setattr("host.link.port.list_ports.comports", lambda: ports)
    assert find_ports() == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert find_ports(UsbId(0x0403, 0x6001)) == ["/dev/ttyUSB0"]


def test_commands_and_their_answers() -> None:
    device = ScriptedDevice(leds=300)
    with DeviceLink("/dev/fake", open_serial=lambda path: device) as link:
        link.wait_ready(3)
        assert link.ping(b"hi") < 1.0
        link.set_config(debounce_ms=8)
        assert device.commands(MessageType.SET_CONFIG)[-1][1] == bytes([8, 0, 0, 0, 0, 0])
        device.nak_next = "debounce_ms must be 1..1000, got 5000"
        with pytest.raises(LinkError, match=r"refused \(OUT_OF_RANGE\): debounce_ms must be 1\.\.1000"):
            link.set_config(debounce_ms=5000)
        link.send_leds([(1, 2, 3)] * 300)
        frames = device.commands(MessageType.LED_FRAME)
        assert [
            (body[0], int.from_bytes(body[1:3], "little"), (len(body) - 3) // 3) for _s, body in frames
        ] == [
            (0, 0, 256),
            (1, 256, 44),
        ]
        with pytest.raises(LinkError, match=r"LEDs 299\.\.300 do not exist"):
            link.send_leds([(0, 0, 0)] * 2, first=299)
        device.answer = False
        with pytest.raises(LinkError, match=r"Ping: no answer within 0\.2 s"):
            link.ping(timeout=0.2)


def test_led_frames_need_pico_leds(harness: Harness) -> None:
    harness.link.wait_ready(3)
    with pytest.raises(LinkError, match="the Pico drives no LEDs"):
        harness.link.send_leds([(0, 0, 0)])


def test_the_snapshot_callback_and_iterator() -> None:
    device = ScriptedDevice()
    seen = []
    with DeviceLink("/dev/fake", open_serial=lambda path: device, on_snapshot=seen.append) as link:
        first = next(link.snapshots(timeout=3))
        device.values = [0, 0, 1, 0]
        device.send_state()
        second = next(link.snapshots(timeout=3))
        assert list(link.snapshots(timeout=0.1)) == []
    assert seen == [first, second]
    assert second.values == (0, 0, 1, 0)
