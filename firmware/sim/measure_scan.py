"""Measures the firmware's scan loop on the simulated RP2040, under MicroPython.

    micropython measure_scan.py FIRMWARE_DIR   (stdin: an idle pipe)

For a 10x10 reed matrix (columns on consecutive GPIOs, and scattered), and a
10x10 Hall build, runs the real Device.step() on a fake clock with the real
USB port code polling stdin, and prints one JSON object per build: register,
pin and ADC operations per scan; heap bytes allocated per scan while idle and
while a contact bounces (measured over two run lengths, so a one-off
allocation shows as a difference); bytes per STATE and per HEARTBEAT frame;
and the host's microseconds per scan (not the Pico's).
"""

import gc
import json
import sys
import time

sys.path.insert(0, sys.argv[1])

import fake_machine
import fake_neopixel

sys.modules["machine"] = fake_machine
sys.modules["neopixel"] = fake_neopixel

import boardconfig  # noqa: E402
import device  # noqa: E402
import usb_port  # noqa: E402

ROWS = COLS = 10
REED = {
    "version": 1,
    "board": "bench-reed",
    "sensor": "reed",
    "rows": ROWS,
    "cols": COLS,
    "row_pins": list(range(10)),
    "col_pins": list(range(10, 20)),
}
SCATTERED = dict(REED, col_pins=[10, 12, 14, 16, 18, 20, 21, 22, 26, 27])
HALL = {
    "version": 1,
    "board": "bench-hall",
    "sensor": "hall_analog",
    "rows": ROWS,
    "cols": COLS,
    "mux_select_pins": [0, 1, 2, 3],
    "mux_enable_pins": list(range(4, 14)),
    "adc_pin": 26,
    "calibration": {"zero": [32768] * (ROWS * COLS), "threshold": 2000, "hysteresis": 400},
}


def wirings(data, hall):
    """The simulated chip's wiring with cell (4, 4) open and closed, built once so
    that switching between them allocates nothing: (Gpio attribute, [open, closed])."""
    out = []
    for closed_44 in (False, True):
        closed = [
            [(r * COLS + c) % 7 == 0 or ((r, c) == (4, 4) and closed_44) for c in range(COLS)]
            for r in range(ROWS)
        ]
        if hall:
            values = [[32768 + (9000 if closed[m][ch] else 0) for ch in range(COLS)] for m in range(ROWS)]
            fake_machine.wire_muxes(data["mux_select_pins"], data["mux_enable_pins"], data["adc_pin"], values)
            out.append(fake_machine.gpio.muxes)
        else:
            fake_machine.wire_matrix(data["row_pins"], data["col_pins"], closed)
            out.append(fake_machine.gpio.switches)
    return ("muxes" if hall else "switches"), out


def allocated(dev, steps, wiring=None, every=1):
    """Heap bytes allocated by `steps` loop periods; with wiring, cell (4, 4)
    toggles every `every` periods."""
    gpio = fake_machine.gpio
    gc.collect()
    gc.disable()
    before = gc.mem_free()
    for i in range(steps):
        if wiring is not None and i % every == 0:
            setattr(gpio, wiring[0], wiring[1][(i // every) % 2])
        dev.step()
    used = before - gc.mem_free()
    gc.enable()
    return used


def measure(name, data):
    hall = data["sensor"] == "hall_analog"
    gpio = fake_machine.gpio
    gpio.reset()
    clock = fake_machine.FakeClock()
    with open("/dev/null", "wb") as sink:
        dev = device.Device(
            usb_port.UsbPort(sys.stdin, sys.stdin.buffer, sink), clock, boardconfig.parse(data), None, 1
        )
        dev.start()
        wiring = wirings(data, hall)
        allocated(dev, 1, wiring)  # cell (4, 4) open
        # Run just past a heartbeat, so that the windows below (< 900 periods) contain none.
        while clock.now_us < 1_000_000 or clock.ticks_diff(dev._next_heartbeat_ms, clock.ticks_ms()) < 990:
            dev.step()
        gpio.reset_counters()
        for _ in range(100):
            dev.step()
        ops = {
            "register_reads": gpio.register_reads / 100,
            "register_writes": gpio.register_writes / 100,
            "pin_calls": gpio.pin_calls / 100,
            "adc_reads": gpio.adc_reads / 100,
        }
        idle = (allocated(dev, 100), allocated(dev, 300))
        bouncing = (allocated(dev, 100, wiring), allocated(dev, 300, wiring))
        generation = dev.generation
        changing = allocated(dev, 200, wiring, 20)
        states = dev.generation - generation
        start = time.ticks_us()
        for _ in range(300):
            dev.step()
        host_us = time.ticks_diff(time.ticks_us(), start) / 300
    return {
        "build": name,
        "ops_per_scan": ops,
        "bytes_per_scan_idle": (idle[1] - idle[0]) / 200,
        "bytes_idle_100_300": idle,
        "bytes_per_scan_bouncing": (bouncing[1] - bouncing[0]) / 200,
        "bytes_bouncing_100_300": bouncing,
        "state_frames": states,
        "bytes_per_state_frame": changing / states if states else None,
        "host_us_per_period": host_us,
    }


for name, data in (
    ("reed 10x10, consecutive columns", REED),
    ("reed 10x10, scattered columns", SCATTERED),
    ("hall 10x10 (10 muxes of 10 channels)", HALL),
):
    print(json.dumps(measure(name, data)))
