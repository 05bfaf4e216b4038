"""The device's answers to host commands, garbage, and a broken configuration.

Runs under CPython (pytest) and MicroPython (mpy_runner.py).
"""

import fwtest  # noqa: F401  (first: puts the firmware and the simulated chip on the import path)

# isort: split
import struct

import boardconfig
import device
import fake_neopixel
import messages
import wire
from fake_machine import FakeClock, gpio
from fwtest import FakePort, check, decode_frames, reed_config


def _device(config_data=None, config_error=None):
    gpio.reset()
    del fake_neopixel.shown[:]
    port = FakePort()
    clock = FakeClock()
    config = boardconfig.parse(config_data or reed_config()) if config_error is None else None
    dev = device.Device(port, clock, config, config_error, 0xCAFE)
    dev.start()
    for _ in range(10):  # past the warm-up
        dev.step()
    port.take_frames()
    return dev, port


def _command(msg_type, body=b"", seq=7, version=1):
    writer = wire.FrameWriter(1100)
    writer.payload[4 : 4 + len(body)] = body
    writer.seq = seq
    n = writer.encode(msg_type, 4 + len(body))
    frame = bytearray(writer.frame[:n])
    if version != 1:  # re-frame with another version byte (and a matching CRC)
        payload = bytearray(writer.payload[: 4 + len(body)])
        payload[0] = version
        import binascii

        import cobs

        payload.extend(struct.pack("<I", binascii.crc32(payload)))
        out = bytearray(len(payload) + 8)
        frame = b"\x00" + out[: cobs.encode_into(payload, len(payload), out)] + b"\x00"
    return bytes(frame)


def _exchange(dev, port, data, steps=3):
    port.incoming.extend(data)
    for _ in range(steps):
        dev.step()
    return decode_frames(port.take_frames())


def _nak(frames):
    check(len(frames) == 1 and frames[0][0] == messages.NAK, "expected one NAK: " + str(frames))
    seq, command, reason = struct.unpack("<HBB", frames[0][2][:4])
    return seq, command, reason, frames[0][2][4:].decode()


def test_hello_request_gets_hello():
    dev, port = _device(reed_config(led_pin=20, led_count=12))
    frames = _exchange(dev, port, _command(messages.HELLO_REQ))
    check([f[0] for f in frames] == [messages.HELLO], str(frames))
    body = frames[0][2]
    fields = struct.unpack("<BBBBIBBBBBHHHHHB", body[:24])
    check(fields[4] == 0xCAFE and fields[5] == messages.STATUS_OK, "boot id, status")
    check(fields[6:10] == (messages.SENSOR_REED, 3, 4, 1), "sensor, shape, bits")
    check(fields[10] == messages.CAP_LEDS and fields[11] == 12, "LED capability and count")
    check(fields[12:15] == (5, 1000, 1000), "timing")
    check(body[24:] == b"test-reed", "board id")


def test_get_state_gets_the_state():
    dev, port = _device()
    frames = _exchange(dev, port, _command(messages.GET_STATE))
    check([f[0] for f in frames] == [messages.STATE], str(frames))


def test_set_config_changes_timing_or_says_why_not():
    dev, port = _device()
    frames = _exchange(dev, port, _command(messages.SET_CONFIG, struct.pack("<HHH", 12, 0, 500), seq=9))
    check(
        frames[0][0] == messages.ACK and frames[0][2] == struct.pack("<HB", 9, messages.SET_CONFIG),
        str(frames),
    )
    check((dev.debounce_ms, dev.scan_period_us, dev.heartbeat_ms) == (12, 1000, 500), "applied, 0 kept")
    check(dev.sensor.debouncer.debounce_us == 12000, "the debouncer uses it")
    _, _, reason, text = _nak(
        _exchange(dev, port, _command(messages.SET_CONFIG, struct.pack("<HHH", 5000, 0, 0)))
    )
    check(reason == messages.REASON_OUT_OF_RANGE and text == "debounce_ms must be 1..1000, got 5000", text)
    check(dev.debounce_ms == 12, "a refused change changes nothing")
    _, _, reason, text = _nak(_exchange(dev, port, _command(messages.SET_CONFIG, b"\x01\x02")))
    check(reason == messages.REASON_BAD_LENGTH and "6-byte body, got 2" in text, text)


def test_ping_is_echoed():
    dev, port = _device()
    frames = _exchange(dev, port, _command(messages.PING, b"\x00\x03hi", seq=0x0201))
    check(frames[0][0] == messages.ACK and frames[0][2] == b"\x01\x02\x84\x00\x03hi", str(frames))
    _, _, reason, text = _nak(_exchange(dev, port, _command(messages.PING, b"x" * 33)))
    check(reason == messages.REASON_BAD_LENGTH, text)


def test_led_frames_light_the_pico_strip():
    dev, port = _device(reed_config(led_pin=20, led_count=4))
    body = struct.pack("<BH", messages.LED_SHOW, 1) + bytes([10, 20, 30, 40, 50, 60])
    frames = _exchange(dev, port, _command(messages.LED_FRAME, body))
    check(frames[0][0] == messages.ACK, str(frames))
    # GRB on the wire to the strip: LED 1 = (g20, r10, b30), LED 2 = (g50, r40, b60).
    check(
        fake_neopixel.shown == [bytes([0, 0, 0, 20, 10, 30, 50, 40, 60, 0, 0, 0])], str(fake_neopixel.shown)
    )
    frames = _exchange(dev, port, _command(messages.LED_FRAME, struct.pack("<BH", 0, 0) + bytes(3)))
    check(frames[0][0] == messages.ACK and len(fake_neopixel.shown) == 1, "no show flag: not latched")
    _, _, reason, text = _nak(
        _exchange(dev, port, _command(messages.LED_FRAME, struct.pack("<BH", 1, 3) + bytes(6)))
    )
    check(reason == messages.REASON_OUT_OF_RANGE and text == "LEDs 3..4 do not exist: led_count is 4", text)
    _, _, reason, text = _nak(_exchange(dev, port, _command(messages.LED_FRAME, b"\x01\x00")))
    check(reason == messages.REASON_BAD_LENGTH, text)


class _HeapNeutralPort:
    """A port that allocates nothing itself: the bytes to read in one buffer, writes counted."""

    def __init__(self, data):
        self.data = data
        self.at = 0
        self.writes = 0

    def read_into(self, buf, limit):
        n = 0
        while n < limit and self.at < len(self.data):
            buf[n] = self.data[self.at]
            self.at += 1
            n += 1
        return n

    def write(self, buf, length):
        self.writes += 1


def test_receiving_an_led_frame_allocates_nothing():
    # 19 LEDs, as flipfour-reed has, read a few bytes a period, checked, copied to the strip and
    # acknowledged: no heap block, so no garbage collection comes of a stream of frames. (The
    # show flag is off: the simulated strip's write keeps a copy of each frame shown.)
    dev, _ = _device(reed_config(led_pin=20, led_count=19))
    body = struct.pack("<BH", 0, 0) + bytes(range(1, 58))
    frames = _command(messages.LED_FRAME, body, seq=1) + _command(messages.LED_FRAME, body, seq=2)
    port = _HeapNeutralPort(frames)
    dev.port = port
    dev._serve_commands()  # the first bytes, and whatever is allocated once
    try:
        import gc

        alloc = gc.mem_alloc
    except (ImportError, AttributeError):  # CPython: the same path, without a heap to count
        alloc = None
    before = alloc() if alloc else 0
    while port.at < len(frames):
        dev._deadline = dev.clock.ticks_add(dev.clock.ticks_us(), 10000)
        dev._serve_commands()
    grown = alloc() - before if alloc else 0
    check(port.writes == 2 and dev.rx_rejected == 0, "both frames acknowledged: " + str(port.writes))
    check(bytes(dev.leds._buf[:6]) == bytes([2, 1, 3, 5, 4, 6]), "the colours, GRB on the strip")
    check(grown == 0, "an LED frame allocated " + str(grown) + " bytes")


def test_play_allocates_nothing_and_the_free_heap_is_measured_only_after_text():
    # Three seconds of play: a cell closing and opening, its STATEs, three HEARTBEATs and their
    # STATEs, and PINGs and GET_STATEs from the host meanwhile. Not one heap block, so no garbage
    # collection ever pauses the loop; and no gc.mem_free() either, which walks the whole heap
    # (8.5 ms on the emulated Pico, once a heartbeat before): the free bytes measured at the
    # first heartbeat, after the HELLO's text, stand. A HELLO_REQ has them measured again.
    dev, _ = _device()
    commands = _command(messages.PING, b"hand", seq=1) + _command(messages.GET_STATE, seq=2)
    port = _HeapNeutralPort(commands)
    dev.port = port
    calls = [0]
    free = device.mem_free

    def counted():
        calls[0] += 1
        return free()

    device.mem_free = counted
    closed = [(1 << 0, 1 << 3)]  # row GPIO 0 to column GPIO 3: cell (0, 0)
    opened = []
    try:
        for _ in range(1100):  # the first heartbeat, then the commands served for the first time
            dev.step()
        check(calls[0] == 1, "the free heap measured at the first heartbeat: " + str(calls[0]))
        try:
            import gc

            alloc = gc.mem_alloc
        except (ImportError, AttributeError):  # CPython: the same path, without a heap to count
            alloc = None
        writes = port.writes
        before = alloc() if alloc else 0
        for period in range(3000):
            if period % 250 == 0:
                port.at = 0  # the host's commands again
            if period % 300 == 0:
                gpio.switches = closed if period % 600 == 0 else opened
            dev.step()
        grown = alloc() - before if alloc else 0
        check(port.writes - writes == 10 + 3 * 2 + 12 * 2, "10 changes, 3 heartbeats, 12 PINGs, GET_STATEs")
        check(grown == 0, "3 s of play allocated " + str(grown) + " bytes")
        check(calls[0] == 1, "the free heap measured again in play: " + str(calls[0]))
        port.data = _command(messages.HELLO_REQ, seq=3)
        port.at = 0
        for _ in range(1000):
            dev.step()
        check(calls[0] == 2, "the free heap measured after a HELLO: " + str(calls[0]))
    finally:
        device.mem_free = free


def test_led_frames_without_pico_leds_are_refused():
    dev, port = _device()
    _, _, reason, text = _nak(_exchange(dev, port, _command(messages.LED_FRAME, struct.pack("<BH", 1, 0))))
    check(reason == messages.REASON_NO_LEDS and "led_pin is null" in text, text)


def test_unknown_commands_and_versions_are_refused():
    dev, port = _device()
    seq, command, reason, text = _nak(_exchange(dev, port, _command(0x99, seq=3)))
    check((seq, command, reason) == (3, 0x99, messages.REASON_UNKNOWN_TYPE) and "0x99" in text, text)
    _, _, reason, text = _nak(_exchange(dev, port, _command(messages.GET_STATE, version=2)))
    check(reason == messages.REASON_BAD_VERSION and "version 2" in text, text)
    _, _, reason, text = _nak(_exchange(dev, port, _command(messages.GET_STATE, b"\x00")))
    check(reason == messages.REASON_BAD_LENGTH, text)


def test_garbage_and_ctrl_c_bytes_are_survived():
    dev, port = _device()
    garbage = b"\x03\x03\x03\x04\x1a\xff\xfe\x00" + bytes(range(256)) + b"\x00" + b"\x55" * 2000 + b"\x00"
    data = garbage + _command(messages.GET_STATE)
    frames = _exchange(dev, port, data, steps=len(data) // device.RX_BYTES_PER_PERIOD + 2)
    check(
        [f[0] for f in frames] == [messages.STATE], "the command after the garbage is served: " + str(frames)
    )
    check(dev.rx_rejected >= 2 and dev.rx_overflows == 1, str((dev.rx_rejected, dev.rx_overflows)))


def test_reading_commands_never_takes_more_than_a_bounded_number_of_bytes_per_period():
    dev, port = _device(reed_config(led_pin=20, led_count=300))
    body = struct.pack("<BH", 1, 0) + bytes(3 * 300)
    port.incoming.extend(_command(messages.LED_FRAME, body))
    waiting = len(port.incoming)
    dev.step()
    check(waiting - len(port.incoming) == device.RX_BYTES_PER_PERIOD, "one period reads a bounded slice")
    for _ in range(waiting // device.RX_BYTES_PER_PERIOD + 1):
        dev.step()
    check([f[0] for f in decode_frames(port.take_frames())] == [messages.ACK], "the frame completes later")


def test_a_period_reads_commands_only_while_its_time_lasts():
    # Each byte costs 150 us here (as bytecode did on the emulated Pico): a 1 ms period reads the
    # RX_BYTES_LATE (4) bytes at a time it starts before its deadline (at 0 and 600 us: 8), a
    # period already late reads 4, so a burst of commands still drains.
    dev, port = _device(reed_config(led_pin=20, led_count=300))
    clock = dev.clock
    read = port.read_into

    def slow_read(buf, limit):
        count = read(buf, limit)
        clock.advance(150 * count)
        return count

    port.read_into = slow_read
    port.incoming.extend(_command(messages.LED_FRAME, struct.pack("<BH", 1, 0) + bytes(3 * 300)))
    waiting = len(port.incoming)
    dev.step()
    check(
        waiting - len(port.incoming) == 8, "bytes read in a 1 ms period: " + str(waiting - len(port.incoming))
    )
    clock.advance(5000)  # the next period starts late
    waiting = len(port.incoming)
    dev.step()
    check(waiting - len(port.incoming) == device.RX_BYTES_LATE, "a late period still reads 4 bytes")


def _heartbeats(dev, port, clock, start_us, steps):
    """(ms since start_us, the uptime it carries) of each HEARTBEAT over ``steps`` periods."""
    beats = []
    for _ in range(steps):
        dev.step()
        for kind, _seq, body in decode_frames(port.take_frames()):
            if kind == messages.HEARTBEAT:
                beats.append(((clock.now_us - start_us) // 1000, struct.unpack("<II", body[:8])[1]))
    return beats


def test_heartbeats_come_each_second_with_the_uptime_across_the_ticks_wrap():
    # The uptime is counted up from the millisecond ticks only when a frame carries it: it must still
    # follow the clock, through ticks_ms wrapping 2.5 s in.
    gpio.reset()
    port = FakePort()
    start_us = (FakeClock.PERIOD - 2500) * 1000
    clock = FakeClock(start_us)
    dev = device.Device(port, clock, boardconfig.parse(reed_config()), None, 0xCAFE)
    dev.start()
    beats = _heartbeats(dev, port, clock, start_us, 6100)  # 6.1 s of 1 ms periods
    check([round(at / 1000) for at, _ in beats] == [1, 2, 3, 4, 5, 6], "one a second: " + str(beats))
    check(all(abs(uptime - at) <= 2 for at, uptime in beats), "each says how long it ran: " + str(beats))


def _frames_until(dev, port, clock, until_ms, swap_every_ms=0):
    """(ms on the clock, type) of each frame sent until until_ms, the switch of cell (0, 0)
    closed at once - or, every swap_every_ms, opened as cell (0, 1)'s closes and back, so that
    one cell or the other is always waiting out its debounce time."""
    frames = []
    first = True
    gpio.set_switches([(0, 1 << 3)])
    last = clock.now_us // 1000
    while clock.now_us // 1000 < until_ms:
        dev.step()
        now = clock.now_us // 1000
        if swap_every_ms and now - last >= swap_every_ms:
            last = now
            first = not first
            gpio.set_switches([(0, 1 << 3)] if first else [(0, 1 << 4)])
        frames.extend((now, kind) for kind, _seq, _body in decode_frames(port.take_frames()))
    return frames


def test_a_heartbeat_waits_for_a_settling_change_to_be_reported():
    # Due at 1000 ms while the cell closed at 997 ms waits out its 5 ms: the change's STATE goes
    # first, at the end of that time, then the HEARTBEAT, and the STATE after it the next period.
    dev, port = _device()
    clock = dev.clock
    due = dev._next_heartbeat_ms
    _exchange(dev, port, b"", steps=due - 3 - clock.ticks_ms())
    frames = _frames_until(dev, port, clock, due + 20)
    kinds = [kind for _ms, kind in frames]
    check(kinds == [messages.STATE, messages.HEARTBEAT, messages.STATE], "in that order: " + str(frames))
    check(frames[1][0] - frames[0][0] <= 1, "the heartbeat right after the change: " + str(frames))
    check(frames[2][0] - frames[1][0] == 1, "its STATE the period after (a scan between): " + str(frames))
    check(frames[0][0] - due in (2, 3), "the change reported 5 ms after it: " + str(frames))


def test_chattering_contacts_delay_a_heartbeat_by_at_most_its_wait():
    dev, port = _device()
    clock = dev.clock
    due = dev._next_heartbeat_ms
    _exchange(dev, port, b"", steps=due - 10 - clock.ticks_ms())
    frames = _frames_until(dev, port, clock, due + 300, swap_every_ms=2)
    beats = [ms - due for ms, kind in frames if kind == messages.HEARTBEAT]
    wait = device.HEARTBEAT_WAIT_MS
    check(beats in ([wait], [wait + 1]), "ms late (seen in the period after): " + str(beats))


def test_a_new_heartbeat_period_counts_from_when_it_is_set():
    dev, port = _device()
    clock = dev.clock
    start_us = clock.now_us
    _heartbeats(dev, port, clock, start_us, 1000)  # one heartbeat, 1 s in
    _exchange(dev, port, b"", steps=900)  # 0.9 s after it
    port.incoming.extend(_command(messages.SET_CONFIG, struct.pack("<HHH", 0, 0, 500)))
    set_at = (clock.now_us - start_us) // 1000
    beats = _heartbeats(dev, port, clock, start_us, 1200)
    check([at - set_at for at, _ in beats][:2] in ([500, 1000], [501, 1001]), "every 500 ms: " + str(beats))


def test_an_invalid_config_is_reported_and_the_link_stays_up():
    gpio.reset()
    port = FakePort()
    clock = FakeClock()
    problem = "board_config.json: rows: expected an integer 1..16, got 17"
    dev = device.Device(port, clock, None, problem, 0xBAD)
    dev.start()
    frames = decode_frames(port.take_frames())
    check([f[0] for f in frames] == [messages.HELLO, messages.LOG], str(frames))
    hello = struct.unpack("<BBBBIBBBBB", frames[0][2][:13])
    check(hello[5:10] == (messages.STATUS_CONFIG_INVALID, messages.SENSOR_NONE, 0, 0, 0), str(hello))
    check(frames[1][2] == bytes([messages.LOG_ERROR]) + problem.encode(), "the LOG says why")
    _, _, reason, text = _nak(_exchange(dev, port, _command(messages.GET_STATE)))
    check(reason == messages.REASON_CONFIG_INVALID and text == problem, text)
    frames = _exchange(dev, port, _command(messages.HELLO_REQ))
    check([f[0] for f in frames] == [messages.HELLO, messages.LOG], "HELLO_REQ repeats the reason")
    for _ in range(1100):
        dev.step()
    check(messages.HEARTBEAT in [f[0] for f in decode_frames(port.take_frames())], "heartbeats go on")


def test_pins_the_chip_refuses_become_a_config_error():
    # GPIO 29 passes the file check but this simulated chip (like a Pico board) refuses it as a Pin.
    data = reed_config(rows=1, cols=1, row_pins=[0], col_pins=[29])
    config = boardconfig.parse(data)
    config.col_pins = [30]  # what a chip with fewer GPIOs would refuse
    dev = device.Device(FakePort(), FakeClock(), config, None, 1)
    check(dev.sensor is None and "could not set up the pins" in dev.config_error, str(dev.config_error))


def test_build_reads_the_config_file():
    path = "/tmp/magboard_fw_test_config.json"
    with open(path, "w") as handle:
        handle.write(
            '{"version": 1, "board": "b", "sensor": "reed", "rows": 1, "cols": 2, '
            '"row_pins": [0], "col_pins": [1, 2]}'
        )
    gpio.reset()
    port = FakePort()
    dev = device.build(port, FakeClock(), path, 5)
    check(
        dev.config_error is None and dev.sensor is not None and dev.config.board == "b", str(dev.config_error)
    )
    dev = device.build(FakePort(), FakeClock(), path + ".missing", 5)
    check(dev.sensor is None and "not on the device" in dev.config_error, dev.config_error)
