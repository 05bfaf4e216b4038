"""Measures a scan on a Pico (or the emulated one), run by mpremote from the REPL:

    mpremote exec "$(cat firmware/sim/measure_on_pico.py)"   (the firmware and its
    board_config.json on the Pico, main.py left out so the REPL answers)

Times the firmware's own per-period work, sensor.update() (scan, classify, debounce: the viper
loops of hotloops.py), the bare scan, and the same period done by the plain Python references
(the firmware before the viper loops), with time.ticks_us over runs of 50 and 150 periods (at
125 MHz, us x 125 = cycles), and the heap bytes they allocate (gc.mem_alloc, the collector off),
with the sensors as the host wires them meanwhile (the benchmark runs it once idle, once with a
contact it keeps toggling). Prints one JSON line.
"""

import gc
import json
import time

import boardconfig
import debounce

config = boardconfig.load()
if config.sensor == boardconfig.SENSOR_HALL_ANALOG:
    import calibration
    import hall_scan

    sensor = hall_scan.HallSensor(config)
    scan = hall_scan._scan

    def reference():
        hall_scan.AnalogMatrix.scan(sensor.matrix, sensor.raw)
        calibration.classify_cells(sensor.raw, sensor.zero, sensor.codes, sensor.limits)
        debounce.update_cells(sensor.debouncer, sensor.codes, period)

else:
    import matrix_scan

    sensor = matrix_scan.DigitalSensor(config)
    scan = matrix_scan._scan

    def reference():
        matrix_scan.DigitalMatrix.scan(sensor.matrix, sensor.raw)
        debounce.update_rows(sensor.debouncer, sensor.raw, period)


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


def bare_scan():
    scan(sensor.matrix, sensor.raw)


def per_period(work):
    """(us, bytes) a period: the difference of a 150 and a 50 period run, over 100 periods (a
    one-off cost cancels out)."""
    short = run(50, work)
    long = run(150, work)
    return (long[0] - short[0]) / 100, (long[1] - short[1]) / 100, (short[1], long[1])


for _ in range(20):
    update()
fast = per_period(update)
bare = per_period(bare_scan)
slow = per_period(reference)
print(
    json.dumps(
        {
            "board": config.board,
            "sensors": config.rows * config.cols,
            "us_per_update": fast[0],
            "bytes_per_update": fast[1],
            "bytes_50_150": fast[2],
            "us_per_bare_scan": bare[0],
            "bytes_per_bare_scan": bare[1],
            "us_per_python_update": slow[0],
            "bytes_per_python_update": slow[1],
            "scan_period_us": period,
            "settle_us": config.settle_us,
        }
    )
)
