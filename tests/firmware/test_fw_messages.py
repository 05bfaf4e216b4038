"""The firmware's message layouts against the shared test vectors: device
messages as encoded by the device, host commands as parsed by the device.

Runs under CPython (pytest) and MicroPython (mpy_runner.py).
"""

import fwtest  # noqa: F401  (first: puts the firmware and the simulated chip on the import path)

# isort: split
import array

import messages
import wire
from fwtest import check, hexed, unhex, vectors


def _rows_bits(values, rows, cols):
    out = []
    for r in range(rows):
        bits = 0
        for c in range(cols):
            if values[r * cols + c]:
                bits |= 1 << c
        out.append(bits)
    return out


def _body(case):
    fields = case["fields"]
    buf = bytearray(400)
    kind = case["type"]
    if kind == messages.HELLO:
        timing = (fields["debounce_ms"], fields["scan_period_us"], fields["heartbeat_ms"])
        return buf, messages.pack_hello(
            buf,
            4,
            fields["firmware"],
            fields["boot_id"],
            fields["status"],
            fields["sensor"],
            fields["rows"],
            fields["cols"],
            fields["bits_per_cell"],
            fields["capabilities"],
            fields["led_count"],
            timing,
            fields["board"],
        )
    if kind == messages.STATE:
        rows, cols, bits = fields["rows"], fields["cols"], fields["bits_per_cell"]
        end = messages.pack_state_header(
            buf, 4, fields["boot_id"], fields["generation"], fields["settled_ms"], rows, cols, bits
        )
        if bits == 1:
            return buf, messages.pack_rows_1bit(
                _rows_bits(fields["values"], rows, cols), rows, cols, buf, end
            )
        return buf, messages.pack_cells_2bit(bytearray(fields["values"]), rows * cols, buf, end)
    if kind == messages.HEARTBEAT:
        counters = (
            fields["scans_per_second"],
            fields["max_scan_us"],
            fields["deadline_misses"],
            fields["rx_rejected"],
            fields["rx_overflows"],
            fields["naks"],
            fields["free_bytes"],
        )
        return buf, messages.pack_heartbeat(buf, 4, fields["boot_id"], fields["uptime_ms"], counters)
    if kind == messages.ACK:
        echo = unhex(fields["echo"])
        return buf, messages.pack_ack(buf, 4, fields["seq"], fields["command"], echo, 0, len(echo))
    if kind == messages.NAK:
        return buf, messages.pack_nak(
            buf, 4, fields["seq"], fields["command"], fields["reason"], fields["message"]
        )
    check(kind == messages.LOG, "unexpected type in vectors: " + str(kind))
    return buf, messages.pack_log(buf, 4, fields["level"], fields["text"])


def test_device_messages_encode_as_the_vectors():
    writer = wire.FrameWriter(400)
    for case in vectors()["device_messages"]:
        buf, end = _body(case)
        writer.payload[4:end] = buf[4:end]
        writer.seq = case["seq"]
        n = writer.encode(case["type"], end)
        check(hexed(writer.frame[:n]) == case["wire"], case["name"] + ":\n" + hexed(writer.frame[:n]))


def _received(case):
    receiver = wire.FrameReceiver(1024)
    for byte in unhex(case["wire"]):
        length = receiver.push(byte)
    check(length > 0, case["name"] + ": not a frame")
    buf = receiver.buf
    check(buf[1] == case["type"] and buf[2] | (buf[3] << 8) == case["seq"], case["name"] + ": header")
    return buf, length - wire.HEADER - wire.TRAILER


def test_host_commands_parse_as_the_vectors():
    for case in vectors()["host_messages"]:
        buf, body = _received(case)
        fields = case["fields"]
        if case["type"] == messages.SET_CONFIG:
            values = messages.parse_set_config(buf, wire.HEADER, body)
            expected = (fields["debounce_ms"], fields["scan_period_us"], fields["heartbeat_ms"])
            check(tuple(values) == expected, case["name"] + ": " + str(values))
        elif case["type"] == messages.LED_FRAME:
            header = array.array("i", (-1, -1, -1))
            check(messages.parse_led_header(buf, wire.HEADER, body, header), case["name"] + ": refused")
            flags, first, count = header
            check(first == fields["first"] and count == len(fields["colours"]), case["name"])
            check(bool(flags & messages.LED_SHOW) == fields["show"], case["name"] + ": show flag")
            rgb = []
            for colour in fields["colours"]:
                rgb.extend(colour)
            check(bytes(buf[wire.HEADER + 3 : wire.HEADER + body]) == bytes(rgb), case["name"] + ": colours")
        elif case["type"] == messages.PING:
            check(hexed(buf[wire.HEADER : wire.HEADER + body]) == fields["token"], case["name"])
        else:
            check(body == 0, case["name"] + ": has no body")


def test_command_bodies_of_the_wrong_length_are_refused():
    buf = bytearray(16)
    check(messages.parse_set_config(buf, 0, 5) is None, "SET_CONFIG of 5 bytes")
    check(messages.parse_set_config(buf, 0, 7) is None, "SET_CONFIG of 7 bytes")
    header = array.array("i", (-1, -1, -1))
    check(not messages.parse_led_header(buf, 0, 2, header), "LED_FRAME without its header")
    check(not messages.parse_led_header(buf, 0, 3 + 4, header), "LED_FRAME with a partial colour")
    check(messages.parse_led_header(buf, 0, 3, header), "LED_FRAME with no LEDs is valid")
    check(list(header) == [0, 0, 0], "no LEDs from LED 0: " + str(list(header)))


def test_packing_1bit_crosses_byte_boundaries():
    # 3 rows of 5 columns: bits r*5+c. Rows 0b10001, 0b01110, 0b11111 -> 15 bits
    # 0b11111_01110_10001 = 0x7dd1 little-endian: d1 7d.
    buf = bytearray(4)
    end = messages.pack_rows_1bit([0b10001, 0b01110, 0b11111], 3, 5, buf, 0)
    check(end == 2 and buf[0] == 0xD1 and buf[1] == 0x7D, hexed(buf[:end]))


def test_packing_2bit_puts_cell_0_in_the_low_bits():
    # Values 1,2,3,0,1 -> byte 0 = 1 | 2<<2 | 3<<4 | 0<<6 = 0x39, byte 1 = 0x01.
    buf = bytearray(4)
    end = messages.pack_cells_2bit(bytearray([1, 2, 3, 0, 1]), 5, buf, 0)
    check(end == 2 and buf[0] == 0x39 and buf[1] == 0x01, hexed(buf[:end]))


def test_text_is_cut_to_fit():
    buf = bytearray(300)
    end = messages.pack_log(buf, 0, 1, "x" * 500)
    check(end == 1 + 200, "LOG text cut to 200 bytes, got " + str(end - 1))
