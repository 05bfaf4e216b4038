"""End to end: the real firmware under MicroPython on a pseudo-terminal, the
real host link on the other end through pyserial.

Every snapshot handed on must be a board that was really there: recorded
snapshots are checked against the matrices the test set, whatever noise,
loss or restart happened in between.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator

import pytest
import serial

from host.link import DeviceLink, EventKind, Expectation, LinkEvent, SensorKind, Snapshot
from host.link.port import SerialPort, open_exclusive
from host.sim.firmware_process import FirmwareProcess

ROWS = COLS = 6

CONFIG = {
    "version": 1,
    "board": "e2e-reed",
    "sensor": "reed",
    "rows": ROWS,
    "cols": COLS,
    "row_pins": [0, 1, 2, 3, 4, 5],
    "col_pins": [6, 7, 8, 9, 10, 11],
    "led_pin": 22,
    "led_count": 4,
    "debounce_ms": 5,
    "scan_period_us": 1000,
    "heartbeat_ms": 1000,
}


def _matrix(*closed: tuple[int, int]) -> list[list[bool]]:
    return [[(r, c) in closed for c in range(COLS)] for r in range(ROWS)]


def _flat(matrix: list[list[bool]]) -> tuple[int, ...]:
    return tuple(int(v) for row in matrix for v in row)


class Recorder:
    def __init__(self) -> None:
        self.snapshots: list[Snapshot] = []
        self.events: list[LinkEvent] = []
        self._next = 0

    def wait_for(self, values: tuple[int, ...], timeout: float = 5.0, boot_id: int | None = None) -> Snapshot:
        """The first snapshot with these values after the one the previous wait returned."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for index in range(self._next, len(self.snapshots)):
                snap = self.snapshots[index]
                if snap.values == values and (boot_id is None or snap.boot_id == boot_id):
                    self._next = index + 1
                    return snap
            time.sleep(0.005)
        raise AssertionError(
            f"no snapshot {values} in {[s.values for s in self.snapshots]}, events {self.events}"
        )

    def assert_only(self, boards: set[tuple[int, ...]]) -> None:
        wrong = [s.values for s in self.snapshots if s.values not in boards]
        assert not wrong, f"snapshots of boards never set: {wrong}"


@pytest.fixture
def firmware() -> Iterator[FirmwareProcess]:
    with FirmwareProcess(CONFIG) as process:
        yield process


def _link(port: str, recorder: Recorder, **options: object) -> DeviceLink:
    return DeviceLink(
        port,
        expect=Expectation(board="e2e-reed", rows=ROWS, cols=COLS, sensor=SensorKind.REED),
        on_snapshot=recorder.snapshots.append,
        on_event=recorder.events.append,
        **options,  # type: ignore[arg-type]
    )


def test_matrix_changes_arrive_as_snapshots_and_leds_go_back(firmware: FirmwareProcess) -> None:
    rec = Recorder()
    with _link(firmware.port, rec) as link:
        hello = link.wait_ready(10)
        assert (hello.board, hello.rows, hello.cols, hello.led_count) == ("e2e-reed", ROWS, COLS, 4)
        rec.wait_for(_flat(_matrix()))
        boards = [_matrix((0, 0)), _matrix((0, 0), (5, 5)), _matrix((2, 3), (5, 5)), _matrix()]
        for board in boards:
            firmware.set_digital(board)
            rec.wait_for(_flat(board))
        rec.assert_only({_flat(_matrix())} | {_flat(b) for b in boards})
        assert [s.generation for s in rec.snapshots] == [0, 1, 2, 3, 4]
        link.send_leds([(255, 0, 0), (0, 255, 0), (0, 0, 255), (1, 2, 3)])
        deadline = time.monotonic() + 5
        while firmware.leds != [(255, 0, 0), (0, 255, 0), (0, 0, 255), (1, 2, 3)]:
            assert time.monotonic() < deadline, firmware.leds
            time.sleep(0.01)
        assert link.ping(b"e2e") < 1.0


def test_bouncing_contacts_settle_to_one_snapshot(firmware: FirmwareProcess) -> None:
    rec = Recorder()
    with _link(firmware.port, rec) as link:
        link.wait_ready(10)
        rec.wait_for(_flat(_matrix()))
        for i in range(12):  # a contact chattering every 0.3 ms or so, far below the 5 ms debounce
            firmware.set_digital(_matrix((1, 1)) if i % 2 == 0 else _matrix())
            time.sleep(0.0003)
        firmware.set_digital(_matrix((1, 1)))
        rec.wait_for(_flat(_matrix((1, 1))))
        time.sleep(0.05)
        rec.assert_only({_flat(_matrix()), _flat(_matrix((1, 1)))})


def test_noise_both_ways_and_ctrl_c_are_survived(firmware: FirmwareProcess) -> None:
    rec = Recorder()
    with _link(firmware.port, rec) as link:
        boot = link.wait_ready(10).boot_id
        rec.wait_for(_flat(_matrix()))
        # Towards the device: Ctrl-C, Ctrl-D and garbage through a second handle on the port.
        fd = os.open(firmware.port, os.O_WRONLY | os.O_NOCTTY)
        try:
            os.write(fd, b"\x03\x03\x04\x03garbage\x00\xff\x03" * 20 + b"\x03\x00")
        finally:
            os.close(fd)
        # Towards the host: noise in the middle of the device's frames.
        for _ in range(5):
            firmware.inject(b"\x00\x7fnoise\x03\x01\x00" + os.urandom(40))
            time.sleep(0.01)
        firmware.set_digital(_matrix((3, 3)))
        rec.wait_for(_flat(_matrix((3, 3))), boot_id=boot)
        assert firmware.alive, firmware.output()
        deadline = time.monotonic() + 5
        while link.heartbeat is None or link.heartbeat.rx_rejected == 0:
            assert time.monotonic() < deadline, link.heartbeat
            time.sleep(0.05)
        assert link.device is not None and link.device.boot_id == boot  # never restarted
        assert link.stats.bad_frames > 0
        rec.assert_only({_flat(_matrix()), _flat(_matrix((3, 3)))})


def test_the_first_frame_after_a_noise_burst_arrives(firmware: FirmwareProcess) -> None:
    # Noise without a zero byte between two device frames: the next frame's leading delimiter ends
    # it, so that frame is read whole - no frame is lost, and no sequence gap is ever seen.
    rec = Recorder()
    with _link(firmware.port, rec) as link:
        link.wait_ready(10)
        rec.wait_for(_flat(_matrix()))
        rng = random.Random(5)
        for burst in range(20):
            firmware.inject(bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 80))))
            firmware.set_digital(_matrix((burst % ROWS, 0)))
            rec.wait_for(_flat(_matrix((burst % ROWS, 0))))
        assert link.stats.bad_frames == 20 and link.stats.gaps == 0, link.stats


class LossySerial:
    """A pyserial port that loses every third frame the device sends."""

    def __init__(self, port: SerialPort) -> None:
        self.port = port
        self.frames = 0

    @property
    def in_waiting(self) -> int:
        return self.port.in_waiting

    def read(self, size: int = 1) -> bytes:
        out = bytearray()
        for byte in self.port.read(size):
            if self.frames % 3 != 2:
                out.append(byte)
            if byte == 0:
                self.frames += 1
        return bytes(out)

    def write(self, data: bytes) -> int | None:
        return self.port.write(data)

    def reset_input_buffer(self) -> None:
        self.port.reset_input_buffer()

    def close(self) -> None:
        self.port.close()


def test_dropped_frames_are_noticed_and_the_state_read_again(firmware: FirmwareProcess) -> None:
    rec = Recorder()
    with _link(firmware.port, rec, open_serial=lambda path: LossySerial(open_exclusive(path))) as link:
        link.wait_ready(10)
        boards = [_matrix((r, r)) for r in range(ROWS)]
        for board in boards:
            firmware.set_digital(board)
            time.sleep(0.03)
        rec.wait_for(_flat(boards[-1]))
        assert link.stats.gaps > 0
        rec.assert_only({_flat(_matrix())} | {_flat(b) for b in boards})


def test_power_off_and_restart_never_report_a_wrong_board(firmware: FirmwareProcess) -> None:
    rec = Recorder()
    with _link(firmware.port, rec, silence_timeout=0.5, backoff=(0.05, 0.2)) as link:
        first_boot = link.wait_ready(10).boot_id
        firmware.set_digital(_matrix((0, 1)))
        rec.wait_for(_flat(_matrix((0, 1))))
        firmware.kill()  # power off: silence, the link closes the port and keeps trying
        deadline = time.monotonic() + 5
        while EventKind.DISCONNECTED not in [e.kind for e in rec.events]:
            assert time.monotonic() < deadline, rec.events
            time.sleep(0.02)
        assert link.device is None and link.latest is None
        firmware.set_digital(_matrix((4, 2)))  # the board changed while the power was off
        firmware.restart()
        second = rec.wait_for(_flat(_matrix((4, 2))), timeout=10)
        assert second.boot_id != first_boot
        firmware.restart()  # quick enough that the link sees only a new boot id
        third = rec.wait_for(_flat(_matrix((4, 2))), timeout=10)
        assert third.boot_id not in (first_boot, second.boot_id)
    for snap in rec.snapshots:
        expected = {first_boot: {_flat(_matrix()), _flat(_matrix((0, 1)))}}.get(
            snap.boot_id, {_flat(_matrix((4, 2)))}
        )
        assert snap.values in expected, (snap, rec.snapshots)


def test_a_device_configured_for_another_board_is_not_listened_to(firmware: FirmwareProcess) -> None:
    rec = Recorder()
    expect = Expectation(board="desdemona-reed")
    with DeviceLink(firmware.port, expect=expect, on_snapshot=rec.snapshots.append) as link:
        deadline = time.monotonic() + 10
        while link.problem is None:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert link.problem == "device is configured for board 'e2e-reed', expected 'desdemona-reed'"
        firmware.set_digital(_matrix((1, 2)))
        time.sleep(0.1)
        with pytest.raises(TimeoutError, match="expected 'desdemona-reed'"):
            link.wait_ready(0.05)
    assert rec.snapshots == []


def test_an_invalid_board_config_is_explained() -> None:
    broken = {**CONFIG, "rows": 17}
    with FirmwareProcess(broken) as firmware, DeviceLink(firmware.port) as link:
        deadline = time.monotonic() + 10
        while link.problem is None or "rows" not in link.problem:
            assert time.monotonic() < deadline, link.problem
            time.sleep(0.02)
        assert (
            link.problem
            == "the device cannot scan: board_config.json: rows: expected an integer 1..16, got 17"
        )
        assert link.device is None and firmware.alive


def test_the_port_is_opened_exclusively(firmware: FirmwareProcess) -> None:
    with DeviceLink(firmware.port) as link:
        link.wait_ready(10)
        with pytest.raises(serial.SerialException):
            open_exclusive(firmware.port)


def test_hall_sensors_report_polarity_and_levels() -> None:
    config = {
        "version": 1,
        "board": "e2e-hall",
        "sensor": "hall_analog",
        "rows": 2,
        "cols": 3,
        "mux_select_pins": [2, 3, 4, 5],
        "mux_enable_pins": [6, 7],
        "adc_pin": 26,
        "calibration": {
            "zero": [32000, 32100, 32200, 32300, 32400, 32500],
            "threshold": 1500,
            "hysteresis": 300,
            "strong_threshold": 6000,
        },
    }
    rec = Recorder()
    with (
        FirmwareProcess(config) as firmware,
        DeviceLink(firmware.port, on_snapshot=rec.snapshots.append) as link,
    ):
        hello = link.wait_ready(10)
        assert (hello.sensor, hello.bits_per_cell) == (SensorKind.HALL_ANALOG, 2)
        rec.wait_for((0, 0, 0, 0, 0, 0))
        # north (far below zero), south (far above), weak, below threshold, weak north, empty
        firmware.set_analog([[32000 - 9000, 32100 + 9000, 32200 + 3000], [32300 + 1000, 32400 - 2000, 32500]])
        snap = rec.wait_for((1, 2, 3, 0, 3, 0))
        assert snap.sensor is SensorKind.HALL_ANALOG
