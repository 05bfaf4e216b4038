"""The simulated Pico's own contract: wiring checks, restarts, power off."""

from __future__ import annotations

import time

import pytest

from host.link import DeviceLink
from host.sim.firmware_process import FirmwareProcess, FirmwareProcessError, encode_analog, encode_digital
from tests.link.test_link_e2e import CONFIG

HALL = {
    "version": 1,
    "board": "sim-hall",
    "sensor": "hall_analog",
    "rows": 2,
    "cols": 3,
    "mux_select_pins": [2, 3, 4, 5],
    "mux_enable_pins": [6, 7],
    "adc_pin": 26,
}


def test_digital_wiring_is_checked_and_encoded() -> None:
    # Row GPIO 1 with column GPIOs 6 and 11 closed: mask (1 << 6) | (1 << 11) = 0x840.
    closed = [[False] * 6 for _ in range(6)]
    closed[1][0] = closed[1][5] = True
    assert encode_digital(CONFIG, closed) == b"D\x01" + bytes([1]) + (0x840).to_bytes(4, "little")
    with pytest.raises(ValueError, match="set_digital: expected 6 rows of 6 values"):
        encode_digital(CONFIG, [[False] * 5] * 6)
    with pytest.raises(FirmwareProcessError, match="row_pins: expected 6 GPIO numbers"):
        encode_digital({**CONFIG, "row_pins": [0]}, closed)


def test_analog_wiring_is_checked_and_encoded() -> None:
    message = encode_analog(HALL, [[1, 2, 3], [4, 5, 65535]])
    assert message[:7] == bytes([ord("A"), 26, 2, 3, 4, 5, 2])
    assert message[7] == 6 and message[8:14] == bytes([1, 0, 2, 0, 3, 0])  # mux 0: enable GPIO 6, channels
    assert len(message) == 7 + 2 * (1 + 32)
    with pytest.raises(ValueError, match="70000 is not an ADC value"):
        encode_analog(HALL, [[1, 2, 3], [4, 5, 70000]])
    with pytest.raises(FirmwareProcessError, match="a multiplexer has 16 channels, got 17"):
        encode_analog({**HALL, "cols": 17}, [[0] * 17] * 2)


def test_restart_keeps_the_port_and_gives_a_new_boot() -> None:
    with FirmwareProcess(CONFIG) as firmware, DeviceLink(firmware.port) as link:
        port = firmware.port
        first = link.wait_ready(10).boot_id
        firmware.restart()
        assert firmware.port == port and firmware.boots == 2
        deadline = time.monotonic() + 10
        while (device := link.device) is None or device.boot_id == first:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        firmware.kill()
        assert not firmware.alive
