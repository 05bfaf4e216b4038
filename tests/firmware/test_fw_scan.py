"""The real scan code on the simulated RP2040: what it reads, and what it costs.

Runs under CPython (pytest) and MicroPython (mpy_runner.py).
"""

import fwtest  # noqa: F401  (first: puts the firmware and the simulated chip on the import path)

# isort: split
import array
import struct

import boardconfig
import device
import fake_machine
import hall_scan
import matrix_scan
from fake_machine import FakeClock, gpio, wire_matrix, wire_muxes
from fwtest import FakePort, check, decode_frames, hall_config, reed_config
from messages import HEARTBEAT, STATE


def _pattern(rows, cols, seed):
    return [[(r * 7 + c * 3 + seed) % 5 == 0 for c in range(cols)] for r in range(rows)]


def _bits(matrix):
    out = []
    for row in matrix:
        bits = 0
        for c in range(len(row)):
            if row[c]:
                bits |= 1 << c
        out.append(bits)
    return out


def test_consecutive_columns_read_in_one_register_access_per_row():
    gpio.reset()
    rows, cols = 10, 10
    row_pins = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    col_pins = list(range(10, 20))
    matrix = matrix_scan.DigitalMatrix(row_pins, col_pins, 0)
    out = array.array("H", [0] * rows)
    for seed in range(3):
        closed = _pattern(rows, cols, seed)
        wire_matrix(row_pins, col_pins, closed)
        gpio.reset_counters()
        matrix.scan(out)
        check(list(out) == _bits(closed), "scan read " + str(list(out)))
        # Per row: one read of GPIO_IN and one write moving the low level; one more write to idle.
        check(gpio.register_reads == rows, "reads per scan: " + str(gpio.register_reads))
        check(gpio.register_writes == rows + 1, "writes per scan: " + str(gpio.register_writes))
        check(gpio.pin_calls == 0, "no Pin calls while scanning")
        check(gpio.out & 0x3FF == 0x3FF, "every row idles high after the scan")


def test_scattered_pins_are_gathered_from_the_same_single_read():
    gpio.reset()
    row_pins = [14, 2, 9]
    col_pins = [0, 27, 5, 12, 21]
    matrix = matrix_scan.DigitalMatrix(row_pins, col_pins, 0)
    out = array.array("H", [0] * 3)
    closed = [
        [True, False, False, True, False],
        [False, True, True, False, False],
        [False, False, False, False, True],
    ]
    wire_matrix(row_pins, col_pins, closed)
    gpio.reset_counters()
    matrix.scan(out)
    check(list(out) == _bits(closed), "scan read " + str(list(out)))
    check(gpio.register_reads == 3 and gpio.register_writes == 4, "still one access per row")


def test_a_scan_touches_no_other_outputs():
    gpio.reset()
    led = fake_machine.Pin(22, fake_machine.Pin.OUT, value=1)
    matrix = matrix_scan.DigitalMatrix([0, 1], [2, 3], 0)
    out = array.array("H", [0, 0])
    wire_matrix([0, 1], [2, 3], [[True, True], [True, True]])
    matrix.scan(out)
    check(led.value() == 1 and list(out) == [3, 3], "LED pin kept, all closed")


def test_multiplexed_sensors_read_every_channel_of_every_mux():
    gpio.reset()
    select, enable = [2, 3, 4, 5], [6, 7, 8]
    cols = 5
    values = [[1000 * m + 10 * ch + 1 for ch in range(cols)] for m in range(3)]
    wire_muxes(select, enable, 26, values)
    matrix = hall_scan.AnalogMatrix(select, enable, 26, cols, 0)
    raw = array.array("H", [0] * 15)
    for _ in range(2):  # the select lines cycle back to where they started
        gpio.reset_counters()
        matrix.scan(raw)
        check(list(raw) == [v for mux in values for v in mux], "read " + str(list(raw)))
        check(gpio.adc_reads == 15, "one ADC read per sensor")
        check(gpio.register_writes == 15 + 2, "one write per sensor, one enabling the first mux, one to idle")
    check(gpio.out & (0b111 << 6) == 0b111 << 6, "every multiplexer disabled (high) after the scan")


def test_hall_sensor_classifies_and_debounces():
    gpio.reset()
    data = hall_config(rows=2, cols=3)
    data["calibration"]["strong_threshold"] = 8000
    config = boardconfig.parse(data)
    sensor = hall_scan.HallSensor(config)
    zero = 30000
    # cells: empty, north (strong, below zero), south (strong), weak, noise below threshold, weak north
    readings = [zero, zero - 9000, zero + 9000, zero + 3000, zero + 1500, zero - 2500]
    wire_muxes([2, 3, 4, 5], [6, 7], 26, [readings[0:3], readings[3:6]])
    changed = [sensor.update(1000) for _ in range(6)]
    check(changed == [False] * 5 + [True], "settled once, after 5 ms: " + str(changed))
    check(list(sensor.debouncer.cooked) == [0, 1, 2, 3, 0, 3], "codes " + str(list(sensor.debouncer.cooked)))
    buf = bytearray(4)
    end = sensor.pack(buf, 0)
    # 2 bits per cell, cell 0 lowest: 0,1,2,3 -> 0b11100100 = 0xe4; 0,3 -> 0b1100 = 0x0c
    check(end == 2 and buf[0] == 0xE4 and buf[1] == 0x0C, "packed " + str(list(buf[:end])))


def _device(config_data, start_us=0, boot_id=0x11223344):
    gpio.reset()
    port = FakePort()
    clock = FakeClock(start_us)
    dev = device.Device(port, clock, boardconfig.parse(config_data), None, boot_id)
    dev.start()
    return dev, port, clock


def _states(port):
    out = []
    for msg_type, _seq, body in decode_frames(port.take_frames()):
        if msg_type == STATE:
            _boot, generation, settled = struct.unpack("<III", body[:12])
            out.append((generation, settled, list(body[15:])))
    return out


def _scan_until(dev, clock, until_us):
    while clock.now_us < until_us:
        dev.step()


def test_the_loop_reports_each_settled_change_once():
    data = reed_config(rows=2, cols=3)
    dev, port, clock = _device(data)
    wire_matrix(data["row_pins"], data["col_pins"], [[True, False, False], [False, False, False]])
    _scan_until(dev, clock, 20000)
    check(_states(port) == [(0, 6, [0b000001])], "first state after the warm-up scans")
    # A bounce burst on cell (1, 2): toggles every ms for 4 ms, then stays closed.
    for i in range(4):
        closed = i % 2 == 0
        wire_matrix(data["row_pins"], data["col_pins"], [[True, False, False], [False, False, closed]])
        _scan_until(dev, clock, 21000 + i * 1000)
    wire_matrix(data["row_pins"], data["col_pins"], [[True, False, False], [False, False, True]])
    _scan_until(dev, clock, 40000)
    states = _states(port)
    check(len(states) == 1 and states[0][0] == 1, "exactly one new state: " + str(states))
    check(states[0][2] == [0b100001], "cell 5 (row 1, col 2) and cell 0 closed: " + str(states))
    check(29 <= states[0][1] <= 30, "settled 5 ms after the last bounce (ms): " + str(states[0][1]))


def test_heartbeats_come_every_second_with_the_state():
    dev, port, clock = _device(reed_config())
    _scan_until(dev, clock, 3001500)
    frames = decode_frames(port.take_frames())
    beats = [body for msg_type, _seq, body in frames if msg_type == HEARTBEAT]
    states = [body for msg_type, _seq, body in frames if msg_type == STATE]
    check(len(beats) == 3, "3 heartbeats in 3 s: " + str(len(beats)))
    check(len(states) == 4, "the first state and one with each heartbeat: " + str(len(states)))
    kinds = [msg_type for msg_type, _seq, _body in frames]
    after = [kinds[i + 1] for i in range(len(kinds) - 1) if kinds[i] == HEARTBEAT]
    check(after == [STATE] * 3, "each heartbeat's state comes next (the period after): " + str(kinds))
    boot, uptime, rate, _longest, misses = struct.unpack("<IIHHI", beats[-1][:16])
    check(boot == 0x11223344 and uptime == 3000, "boot id and uptime: " + str((boot, uptime)))
    check(rate == 1000 and misses == 0, "1000 scans/s on time: " + str((rate, misses)))
    seqs = [seq for _t, seq, _b in frames]
    check(seqs == list(range(len(frames))), "sequence numbers count up from 0 with no gap")


def test_slow_scans_are_counted_as_missed_deadlines():
    dev, _port, clock = _device(reed_config())
    scan = dev.sensor.update

    def slow_update(elapsed_us):
        clock.advance(2500)  # a scan that takes 2.5 periods
        return scan(elapsed_us)

    dev.sensor.update = slow_update
    for _ in range(10):
        dev.step()
    check(dev.deadline_misses == 10, "every period missed: " + str(dev.deadline_misses))
    check(clock.now_us == 25000, "no sleeping, no catching up beyond one period")


def test_the_loop_runs_steadily_across_the_tick_wraparound():
    data = reed_config(rows=1, cols=1)
    start = (1 << 30) - 3500  # ticks_us wraps 3.5 ms after the start
    dev, port, clock = _device(data, start)
    _scan_until(dev, clock, start + 10000)
    wire_matrix([0], [1], [[True]])
    _scan_until(dev, clock, start + 20000)
    states = _states(port)
    check([s[2] for s in states] == [[0], [1]], "empty then closed: " + str(states))
    check(dev.deadline_misses == 0, "no misses across the wrap")
    check(dev._scans == 20, "one scan per period: " + str(dev._scans))
