"""Run on the emulated Pico by mpremote (the firmware and board_config.json on it, no main.py):
one scan by the register scan the firmware runs (hotloops) and one by the plain Python
reference, on the same wiring; then the heap bytes 300 periods of sensor.update() allocate (the
collector off), and how many of them reported a change. Prints one JSON line. MicroPython code."""

import array
import gc
import json

import boardconfig
import hotloops

config = boardconfig.load()
if config.sensor == boardconfig.SENSOR_HALL_ANALOG:
    import hall_scan

    sensor = hall_scan.HallSensor(config)
    reference = hall_scan.AnalogMatrix.scan
    fast = hotloops.scan_muxes
else:
    import matrix_scan

    sensor = matrix_scan.DigitalSensor(config)
    reference = matrix_scan.DigitalMatrix.scan
    fast = hotloops.scan_rows
expected = array.array("H", sensor.raw)
reference(sensor.matrix, expected)
fast(sensor.matrix, sensor.raw)
scanned = list(sensor.raw)


def allocated(periods):
    """(bytes, changes reported) over periods of sensor.update(), in a function so that no new
    global (a dict that may grow) is allocated meanwhile."""
    period = config.scan_period_us
    changes = 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(periods):
        if sensor.update(period):
            changes += 1
    used = gc.mem_alloc() - before
    gc.enable()
    return used, changes


allocated(10)
used, changes = allocated(300)
print(json.dumps({"viper": scanned, "python": list(expected), "bytes": used, "changes": changes}))
