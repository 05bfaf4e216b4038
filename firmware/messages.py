"""Message types and the layout of every message body (docs/protocol.md).

The packers write a body into a frame buffer at an offset and return the
offset after it, so the device builds each message in place without
allocating. All multi-byte fields are little-endian.
"""

import struct

try:
    from micropython import const
except ImportError:

    def const(value):
        return value


PROTOCOL_VERSION = const(1)

# Device to host.
HELLO = const(0x01)
STATE = const(0x02)
HEARTBEAT = const(0x03)
ACK = const(0x04)
NAK = const(0x05)
LOG = const(0x06)

# Host to device.
HELLO_REQ = const(0x81)
GET_STATE = const(0x82)
SET_CONFIG = const(0x83)
PING = const(0x84)
LED_FRAME = const(0x85)

# Why a command was refused (NAK).
REASON_UNKNOWN_TYPE = const(1)
REASON_BAD_LENGTH = const(2)
REASON_OUT_OF_RANGE = const(3)
REASON_NO_LEDS = const(4)
REASON_CONFIG_INVALID = const(5)
REASON_BAD_VERSION = const(6)

# HELLO status.
STATUS_OK = const(0)
STATUS_CONFIG_INVALID = const(1)

# Sensor kinds.
SENSOR_REED = const(0)
SENSOR_HALL_ANALOG = const(1)
SENSOR_NONE = const(0xFF)

# HELLO capability bits.
CAP_LEDS = const(0x0001)
CAP_POLARITY = const(0x0002)
CAP_LEVELS = const(0x0004)

# LOG levels.
LOG_DEBUG = const(0)
LOG_INFO = const(1)
LOG_WARNING = const(2)
LOG_ERROR = const(3)

# LED_FRAME flags.
LED_SHOW = const(0x01)

PING_MAX = const(32)
STATE_HEADER = const(15)


def _text_into(buf, off, text, limit):
    """Copy text (str) as UTF-8 into buf, cut to `limit` bytes; return the end offset."""
    data = text.encode()
    n = len(data)
    if n > limit:
        n = limit
    buf[off : off + n] = data[:n]
    return off + n


def pack_hello(buf, off, version, boot_id, status, sensor, rows, cols, bits, caps, led_count, timing, board):
    """HELLO: who the device is. version is (major, minor, patch); timing is
    (debounce_ms, scan_period_us, heartbeat_ms)."""
    struct.pack_into(
        "<BBBBIBBBBBHHHHH",
        buf,
        off,
        PROTOCOL_VERSION,
        version[0],
        version[1],
        version[2],
        boot_id,
        status,
        sensor,
        rows,
        cols,
        bits,
        caps,
        led_count,
        timing[0],
        timing[1],
        timing[2],
    )
    end = _text_into(buf, off + 24, board, 32)
    buf[off + 23] = end - off - 24
    return end


def pack_state_header(buf, off, boot_id, generation, settled_ms, rows, cols, bits):
    """The fixed part of STATE; the packed cells follow at off + STATE_HEADER."""
    struct.pack_into("<IIIBBB", buf, off, boot_id, generation, settled_ms & 0xFFFFFFFF, rows, cols, bits)
    return off + STATE_HEADER


def pack_rows_1bit(rows_bits, nrows, ncols, buf, off):
    """Cells as 1 bit each: cell r*ncols + c is bit (i % 8) of byte i // 8.

    rows_bits[r] holds row r with column c in bit c.
    """
    acc = 0
    nbits = 0
    for r in range(nrows):
        acc |= rows_bits[r] << nbits
        nbits += ncols
        while nbits >= 8:
            buf[off] = acc & 0xFF
            off += 1
            acc >>= 8
            nbits -= 8
    if nbits:
        buf[off] = acc
        off += 1
    return off


def pack_cells_2bit(values, count, buf, off):
    """Cells as 2 bits each: cell i sits at bits 2*(i % 4) of byte i // 4."""
    acc = 0
    shift = 0
    for i in range(count):
        acc |= values[i] << shift
        shift += 2
        if shift == 8:
            buf[off] = acc
            off += 1
            acc = 0
            shift = 0
    if shift:
        buf[off] = acc
        off += 1
    return off


def pack_heartbeat(buf, off, boot_id, uptime_ms, counters):
    """HEARTBEAT. counters is (scans_per_s, max_scan_us, deadline_misses,
    rx_rejected, rx_overflows, naks, free_bytes); 16-bit fields saturate."""
    struct.pack_into(
        "<IIHHIHHHI",
        buf,
        off,
        boot_id,
        uptime_ms & 0xFFFFFFFF,
        min(counters[0], 0xFFFF),
        min(counters[1], 0xFFFF),
        counters[2] & 0xFFFFFFFF,
        min(counters[3], 0xFFFF),
        min(counters[4], 0xFFFF),
        min(counters[5], 0xFFFF),
        counters[6] & 0xFFFFFFFF,
    )
    return off + 26


def pack_ack(buf, off, seq, msg_type, echo, echo_off, echo_len):
    """ACK of command (seq, msg_type); echo[echo_off:echo_off+echo_len] is copied back (PING)."""
    struct.pack_into("<HB", buf, off, seq, msg_type)
    off += 3
    for i in range(echo_len):
        buf[off + i] = echo[echo_off + i]
    return off + echo_len


def pack_nak(buf, off, seq, msg_type, reason, text):
    struct.pack_into("<HBB", buf, off, seq, msg_type, reason)
    return _text_into(buf, off + 4, text, 200)


def pack_log(buf, off, level, text):
    buf[off] = level
    return _text_into(buf, off + 1, text, 200)


def parse_set_config(buf, off, length):
    """SET_CONFIG body -> (debounce_ms, scan_period_us, heartbeat_ms), 0 meaning
    unchanged, or None when the length is wrong."""
    if length != 6:
        return None
    return struct.unpack_from("<HHH", buf, off)


def parse_led_header(buf, off, length, out):
    """LED_FRAME body -> flags, first_led, count in out[0:3] (a preallocated array, so that
    nothing is allocated a frame); False when the length is wrong."""
    if length < 3 or (length - 3) % 3:
        return False
    out[0] = buf[off]
    out[1] = buf[off + 1] | (buf[off + 2] << 8)
    out[2] = (length - 3) // 3
    return True
