"""The viper loops (firmware/hotloops.py) against their plain Python references, on random
inputs: same results, same state left behind, scan after scan.

MicroPython only (CPython has no viper): test_fw_micropython.py runs this module under the unix
port with mpy_runner.py. The register scans need an RP2040 and are checked on the emulated Pico
(tests/emulator/test_scan.py).
"""

import fwtest  # noqa: F401  (first: puts the firmware and the simulated chip on the import path)

# isort: split
import array
import binascii
import random
import select
import struct

import calibration
import cobs
import debounce
import hall_scan
import hotloops
import leds
import matrix_scan
import messages
import usb_port
import wire
from fwtest import check

SEED = 2027
ROUNDS = 400


def _seeded(seed):
    """MicroPython's random module is one generator (no random.Random): seed it, hand it out."""
    random.seed(seed)
    return random


def _near(rng, *edges):
    """A reading delta: mostly on or next to one of the edges (either sign), sometimes anywhere."""
    if rng.getrandbits(2) == 0:
        return rng.randint(-32768, 32767)
    delta = rng.choice(edges) + rng.randint(-1, 1)
    return -delta if rng.getrandbits(1) else delta


def test_classify_cells_matches_the_python_reference():
    rng = _seeded(SEED)
    for _ in range(ROUNDS):
        count = rng.randint(1, 256)
        threshold = rng.randint(1, 20000)
        hysteresis = rng.randint(0, threshold - 1)
        strong = 0 if rng.getrandbits(1) else rng.randint(threshold + 1, 32767)
        limits = array.array("i", (threshold, strong, hysteresis))
        zero = array.array("H", [rng.randint(20000, 45000) for _ in range(count)])
        edges = (threshold, threshold - hysteresis, strong, strong - hysteresis)
        raw = array.array("H", [0] * count)
        for i in range(count):
            raw[i] = max(0, min(65535, zero[i] + _near(rng, *edges)))
        previous = bytearray(rng.getrandbits(2) for _ in range(count))
        expected = bytearray(previous)
        got = bytearray(previous)
        calibration.classify_cells(raw, zero, expected, limits)
        hotloops.classify_cells(raw, zero, got, limits)
        where = "limits " + str(list(limits)) + ": "
        check(got == expected, where + str(list(got)) + " != " + str(list(expected)))


def _elapsed(rng):
    """Mostly a scan period, often a round one (so a count runs out exactly at 0); sometimes
    none, negative (a clock glitch) or far beyond the clamp (taken as the clamp)."""
    kind = rng.getrandbits(3)
    if kind == 0:
        return rng.choice((0, -1, -rng.randint(1, 1 << 20), (1 << 24) + rng.randint(0, 1 << 28)))
    if kind < 4:
        return rng.choice((250, 500, 1000, 1500, 2000))
    return rng.randint(100, 3000)


def _cell_state(debouncer):
    return (bytes(debouncer.cooked), bytes(debouncer._last), list(debouncer._counters), debouncer._pending)


def test_update_cells_matches_the_python_reference():
    rng = _seeded(SEED + 1)
    for _ in range(ROUNDS // 4):
        count = rng.randint(1, 256)
        debounce_us = rng.randint(1, 20) * 1000
        reference = debounce.CellDebouncer(count, debounce_us)
        viper = debounce.CellDebouncer(count, debounce_us)
        raw = bytearray(count)
        for scan in range(60):
            # A few cells change (bounce) per scan, among values 0..3 as the Hall codes are.
            for _ in range(rng.randint(0, 4)):
                raw[rng.randint(0, count - 1)] = rng.getrandbits(2)
            elapsed = debounce.clamp_elapsed(_elapsed(rng))
            expected = debounce.update_cells(reference, raw, elapsed)
            got = hotloops.update_cells(viper, raw, elapsed)
            where = "scan " + str(scan) + " of " + str(count) + " cells, elapsed " + str(elapsed)
            check(got == expected, where + ": changed " + str(got) + " != " + str(expected))
            check(_cell_state(viper) == _cell_state(reference), where + ": the state differs")


def _row_state(debouncer):
    rows = (debouncer.cooked, debouncer._last, debouncer._pending, debouncer._counters)
    return [list(values) for values in rows]


def test_update_rows_matches_the_python_reference():
    rng = _seeded(SEED + 2)
    for _ in range(ROUNDS // 4):
        rows = rng.randint(1, 16)
        cols = rng.randint(1, 16)
        debounce_us = rng.randint(1, 20) * 1000
        reference = debounce.RowDebouncer(rows, cols, debounce_us)
        viper = debounce.RowDebouncer(rows, cols, debounce_us)
        raw = array.array("H", [0] * rows)
        for scan in range(60):
            for _ in range(rng.randint(0, 3)):
                raw[rng.randint(0, rows - 1)] ^= 1 << rng.randint(0, cols - 1)
            elapsed = debounce.clamp_elapsed(_elapsed(rng))
            expected = debounce.update_rows(reference, raw, elapsed)
            got = hotloops.update_rows(viper, raw, elapsed)
            where = "scan " + str(scan) + " of " + str(rows) + "x" + str(cols) + ", elapsed " + str(elapsed)
            check(got == expected, where + ": changed " + str(got) + " != " + str(expected))
            check(_row_state(viper) == _row_state(reference), where + ": the state differs")


def test_the_debouncers_run_the_viper_loops_under_micropython():
    # What the firmware's other tests exercise under this interpreter is the viper code.
    check(debounce._update_cells is hotloops.update_cells, "CellDebouncer runs hotloops.update_cells")
    check(debounce._update_rows is hotloops.update_rows, "RowDebouncer runs hotloops.update_rows")
    check(hall_scan._classify_cells is hotloops.classify_cells, "HallSensor runs hotloops.classify_cells")
    check(hall_scan._pack_cells_2bit is hotloops.pack_cells_2bit, "HallSensor packs with hotloops")
    check(matrix_scan._pack is hotloops.pack_rows_1bit, "DigitalSensor packs with hotloops")
    check(wire._encode_into is hotloops.cobs_encode_into, "frames out through hotloops.cobs_encode_into")
    check(wire._decode_in_place is hotloops.cobs_decode_in_place, "frames in through hotloops")
    check(wire._collect is hotloops.collect_frame, "frames collected by hotloops.collect_frame")
    check(wire._crc32_into is hotloops.crc32_into, "frames checked and signed by hotloops.crc32_into")
    check(usb_port._read_waiting is hotloops.read_waiting, "the USB port read by hotloops.read_waiting")
    check(leds._copy_rgb is hotloops.copy_rgb, "LED frames copied by hotloops.copy_rgb")


def _bytes(rng, length):
    """Random bytes, zeros frequent, sometimes a long run without any (COBS's 254-byte blocks)."""
    if rng.getrandbits(2) == 0:
        return bytearray(rng.randint(1, 255) for _ in range(length))
    return bytearray(0 if rng.getrandbits(2) == 0 else rng.randint(1, 255) for _ in range(length))


def test_cobs_encode_into_matches_the_python_reference():
    rng = _seeded(SEED + 3)
    for _ in range(ROUNDS):
        length = rng.choice((0, 1, 253, 254, 255, 508, rng.randint(0, 700)))
        src = _bytes(rng, length)
        at = rng.randint(0, 3)
        size = at + length + length // 254 + 2
        expected = bytearray(size)
        got = bytearray(size)
        end = cobs.encode_into(src, length, expected, at)
        check(hotloops.cobs_encode_into(src, length, got, at) == end, "end of " + str(length) + " bytes")
        check(got == expected, "encoding of " + str(length) + " bytes")


def test_cobs_decode_in_place_matches_the_python_reference():
    rng = _seeded(SEED + 4)
    for _ in range(ROUNDS):
        length = rng.choice((1, 254, 255, rng.randint(1, 700)))
        src = _bytes(rng, length)
        encoded = bytearray(length + length // 254 + 2)
        n = cobs.encode_into(src, length, encoded, 0)
        if rng.getrandbits(1):  # garbage: a byte changed, or the frame cut short
            if rng.getrandbits(1):
                encoded[rng.randint(0, n - 1)] = rng.getrandbits(8)
            else:
                n = rng.randint(1, n)
        expected = bytearray(encoded)
        got = bytearray(encoded)
        result = cobs.decode_in_place(expected, n)
        check(hotloops.cobs_decode_in_place(got, n) == result, "decoded length of " + str(n) + " bytes")
        check(got == expected, "decoding of " + str(n) + " bytes")


def test_pack_cells_2bit_matches_the_python_reference():
    rng = _seeded(SEED + 5)
    for _ in range(ROUNDS):
        count = rng.randint(0, 256)
        values = bytearray(rng.getrandbits(2) for _ in range(count))
        off = rng.randint(0, 20)
        expected = bytearray(off + count // 4 + 1)
        got = bytearray(len(expected))
        end = messages.pack_cells_2bit(values, count, expected, off)
        check(hotloops.pack_cells_2bit(values, count, got, off) == end, "end for " + str(count) + " cells")
        check(got == expected, "packing of " + str(count) + " cells")


class _Rows:
    """What hotloops.pack_rows_1bit reads of a DigitalSensor."""

    def __init__(self, rows, cols, bits):
        self.rows = rows
        self.cols = cols
        self.debouncer = self
        self.cooked = bits


def test_pack_rows_1bit_matches_the_python_reference():
    rng = _seeded(SEED + 6)
    for _ in range(ROUNDS):
        rows = rng.randint(1, 16)
        cols = rng.randint(1, 16)
        bits = array.array("H", [rng.getrandbits(cols) for _ in range(rows)])
        off = rng.randint(0, 20)
        expected = bytearray(off + (rows * cols + 7) // 8)
        got = bytearray(len(expected))
        end = messages.pack_rows_1bit(bits, rows, cols, expected, off)
        check(hotloops.pack_rows_1bit(_Rows(rows, cols, bits), got, off) == end, "end of the rows")
        check(got == expected, "packing of " + str(rows) + "x" + str(cols))


def test_crc32_into_matches_the_python_reference():
    rng = _seeded(SEED + 7)
    for _ in range(ROUNDS):
        end = rng.choice((0, 1, 3, 4, rng.randint(0, 1030)))
        buf = _bytes(rng, end + 4 + rng.randint(0, 3))
        # The CRC in place half the time (a frame received intact), else a bit flipped in the
        # data or in the CRC, or random bytes.
        if rng.getrandbits(1):
            struct.pack_into("<I", buf, end, binascii.crc32(buf[:end]))
            if rng.getrandbits(1):
                buf[rng.randint(0, end + 3)] ^= 1 << rng.getrandbits(3)
        expected = bytearray(buf)
        held = wire.crc32_into(expected, end)
        check(hotloops.crc32_into(buf, end) == held, "CRC of " + str(end) + " bytes held")
        check(buf == expected, "CRC of " + str(end) + " bytes written")


def test_copy_rgb_matches_the_python_reference():
    rng = _seeded(SEED + 8)
    for _ in range(ROUNDS):
        bpp = rng.choice((3, 4))
        order = [0, 1, 2, 3][:bpp]
        for i in range(bpp - 1, 0, -1):  # a random wire order (GRB, RGB, GRBW, ...)
            j = rng.randint(0, i)
            order[i], order[j] = order[j], order[i]
        leds_count = rng.randint(1, 300)
        first = rng.randint(0, leds_count - 1)
        count = rng.randint(0, leds_count - first)
        layout = array.array("i", (bpp, order[0], order[1], order[2], first, count))
        off = rng.randint(0, 8)
        src = _bytes(rng, off + 3 * count)
        expected = _bytes(rng, leds_count * bpp)
        got = bytearray(expected)
        leds.copy_rgb(expected, layout, src, off)
        hotloops.copy_rgb(got, layout, src, off)
        check(got == expected, "LEDs " + str(first) + "+" + str(count) + " of " + str(leds_count))


def _receiver_state(receiver):
    return (bytes(receiver.buf[: receiver._length]), receiver._length, receiver._dropping)


def test_collect_frame_matches_the_python_reference():
    rng = _seeded(SEED + 9)
    for _ in range(ROUNDS):
        capacity = rng.randint(1, 40)
        reference = wire.FrameReceiver(capacity)
        viper = wire.FrameReceiver(capacity)
        for chunk in range(8):
            src = _bytes(rng, rng.randint(0, 12))
            start = rng.randint(0, len(src))
            end = rng.randint(start, len(src))
            at = wire.collect(reference, src, start, end)
            where = "chunk " + str(chunk) + " into " + str(_receiver_state(reference))
            check(hotloops.collect_frame(viper, src, start, end) == at, where + ": the index")
            check(_receiver_state(viper) == _receiver_state(reference), where + ": the state differs")
            if at < end:  # the byte collect stopped at, as feed hands it to push (both receivers)
                check(reference.push(src[at]) == viper.push(src[at]), where + ": push")


class _WaitingBytes:
    """What read_waiting uses of a UsbPort (_poll, _reader, _byte), over bytes waiting that
    sometimes stop early: a poll that sees only a hang-up, a readinto that gets nothing or fails."""

    def __init__(self, data, trouble):
        self.data = data
        self.at = 0
        self.trouble = trouble  # (index, kind) or None
        self._poll = self
        self._reader = self
        self._byte = bytearray(1)
        self._entry = [(None, 0)]

    def _kind(self):
        if self.trouble is not None and self.trouble[0] == self.at:
            return self.trouble[1]
        return None

    def ipoll(self, timeout):
        if self.at == len(self.data) or self._kind() == "empty poll":
            return []
        self._entry[0] = (None, select.POLLHUP if self._kind() == "hang-up" else select.POLLIN)
        return self._entry

    def readinto(self, buf, n):
        kind = self._kind()
        if kind == "error":
            raise OSError(5)
        if kind == "nothing":
            return 0 if self.at % 2 else None
        buf[0] = self.data[self.at]
        self.at += 1
        return 1


def test_read_waiting_matches_the_python_reference():
    rng = _seeded(SEED + 10)
    for _ in range(ROUNDS):
        data = _bytes(rng, rng.randint(0, 40))
        trouble = None
        if rng.getrandbits(1):
            trouble = (rng.randint(0, len(data)), rng.choice(("empty poll", "hang-up", "nothing", "error")))
        limit = rng.randint(0, 48)
        reference = _WaitingBytes(data, trouble)
        viper = _WaitingBytes(data, trouble)
        expected = bytearray(48)
        got = bytearray(48)
        count = usb_port.read_waiting(reference, expected, limit)
        where = str(len(data)) + " bytes, limit " + str(limit) + ", " + str(trouble)
        check(hotloops.read_waiting(viper, got, limit) == count, where + ": the count")
        check(got == expected and viper.at == reference.at, where + ": the bytes read")
