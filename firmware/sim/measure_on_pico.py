"""Measures a scan on a Pico (or the emulated one), run by mpremote from the REPL:

    mpremote exec "$(cat firmware/sim/measure_on_pico.py)"   (the firmware and its
    board_config.json on the Pico, main.py left out so the REPL answers)

Times the firmware's own per-period work, sensor.update() (scan, classify, debounce),
and the bare matrix scan, with time.ticks_us over runs of 100 and 300 periods (at
125 MHz, us x 125 = cycles), and the heap bytes they allocate (gc.mem_alloc, the
collector off), with the sensors as the host wires them meanwhile (the benchmark
runs it once idle, once with a contact it keeps toggling). Prints one JSON line.
"""

import gc
import json
import time

import boardconfig

config = boardconfig.load()
if config.sensor == boardconfig.SENSOR_HALL_ANALOG:
    import hall_scan

    sensor = hall_scan.HallSensor(config)
else:
    import matrix_scan

    sensor = matrix_scan.DigitalSensor(config)
period = config.scan_period_us


def run(count, work):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    start = time.ticks_us()
    for _ in range(count):
        work()
    took = time.ticks_diff(time.ticks_us(), start)
    allocated = gc.mem_alloc() - before
    gc.enable()
    return took, allocated


def update():
    sensor.update(period)


def scan():
    sensor.matrix.scan(sensor.raw)


for _ in range(20):
    update()
short = run(100, update)
long = run(300, update)
bare_short = run(100, scan)
bare_long = run(300, scan)
print(
    json.dumps(
        {
            "board": config.board,
            "sensors": config.rows * config.cols,
            "us_per_update": (long[0] - short[0]) / 200,
            "us_per_bare_scan": (bare_long[0] - bare_short[0]) / 200,
            "bytes_per_update": (long[1] - short[1]) / 200,
            "bytes_100_300": (short[1], long[1]),
            "scan_period_us": period,
        }
    )
)
