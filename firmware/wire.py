"""Frames on the serial line: COBS-encoded between two 0x00 delimiters, checked by CRC-32.

A frame's payload is version (u8), type (u8), sequence number (u16), body,
CRC-32 (u32, zlib's, over everything before it). Both directions use the same
framing; the delimiter sent before each frame ends any noise the other side
has half-received, so the frame itself is never lost with it. Buffers are
allocated once, at start-up.
"""

import binascii
import struct
import sys

from messages import PROTOCOL_VERSION


def crc32_into(buf, end):
    """Write zlib's CRC-32 of buf[0:end] little-endian at buf[end]; whether those four bytes
    held it already (a frame received intact)."""
    crc = binascii.crc32(memoryview(buf)[:end])
    held = struct.unpack_from("<I", buf, end)[0] == crc
    struct.pack_into("<I", buf, end, crc)
    return held


def collect(receiver, src, start, end):
    """Append src[start:end] to the frame receiver collects, up to the first byte push has
    something to say about (a delimiter, or a byte that overflows the buffer); its index, or
    end. While dropping an overlong frame, its bytes are skipped."""
    i = start
    if receiver._dropping:
        while i < end and src[i]:
            i += 1
        return i
    buf = receiver.buf
    length = receiver._length
    capacity = receiver._capacity
    while i < end:
        byte = src[i]
        if not byte or length == capacity:
            break
        buf[length] = byte
        length += 1
        i += 1
    receiver._length = length
    return i


if sys.implementation.name == "micropython":
    from hotloops import cobs_decode_in_place as _decode_in_place
    from hotloops import cobs_encode_into as _encode_into
    from hotloops import collect_frame as _collect
    from hotloops import crc32_into as _crc32_into
else:
    from cobs import decode_in_place as _decode_in_place
    from cobs import encode_into as _encode_into

    _collect = collect
    _crc32_into = crc32_into

try:
    from micropython import const
except ImportError:

    def const(value):
        return value


HEADER = const(4)
TRAILER = const(4)
MIN_PAYLOAD = const(8)

# FrameReceiver.push results below zero.
ERR_OVERFLOW = const(-1)
ERR_COBS = const(-2)
ERR_SHORT = const(-3)
ERR_CRC = const(-4)


def encoded_capacity(max_payload):
    """Bytes needed for a COBS-encoded payload of max_payload bytes plus both delimiters."""
    return max_payload + max_payload // 254 + 4


class FrameReceiver:
    """Collects bytes up to a 0x00 delimiter and decodes the frame in place.

    Bytes before the first delimiter after start-up (a frame cut in half)
    simply fail the checks; a frame longer than the buffer is dropped whole.
    """

    def __init__(self, max_payload):
        self.buf = bytearray(encoded_capacity(max_payload))
        self._capacity = len(self.buf)
        self._length = 0
        self._dropping = False
        self.result = 0

    def feed(self, src, start, end):
        """Feed src[start:end] up to and including the first byte that ends a frame or
        overflows the buffer; return the index after the bytes taken. What push would have
        returned for that byte is in result (0 when there was none)."""
        at = _collect(self, src, start, end)
        if at == end:
            self.result = 0
            return end
        self.result = self.push(src[at])
        return at + 1

    def push(self, byte):
        """Feed one byte. Returns the payload length (>= MIN_PAYLOAD) when a
        valid frame is complete in buf, 0 while none is, or an ERR_ code."""
        if byte:
            if self._dropping:
                return 0
            if self._length == self._capacity:
                self._dropping = True
                self._length = 0
                return ERR_OVERFLOW
            self.buf[self._length] = byte
            self._length += 1
            return 0
        length = self._length
        self._length = 0
        if self._dropping:
            self._dropping = False
            return 0
        if length == 0:
            return 0
        length = _decode_in_place(self.buf, length)
        if length < 0:
            return ERR_COBS
        if length < MIN_PAYLOAD:
            return ERR_SHORT
        if not _crc32_into(self.buf, length - TRAILER):
            return ERR_CRC
        return length


class FrameWriter:
    """Builds outgoing frames: the body goes into payload at HEADER, then
    encode() adds header, sequence number and CRC and COBS-encodes into frame."""

    def __init__(self, max_payload):
        self.payload = bytearray(max_payload)
        self.frame = bytearray(encoded_capacity(max_payload))
        self.max_body = max_payload - HEADER - TRAILER
        self.seq = 0

    def encode(self, msg_type, body_end):
        """Frame the payload whose body ends at offset body_end; return the
        number of bytes of frame to send (both delimiters included)."""
        struct.pack_into("<BBH", self.payload, 0, PROTOCOL_VERSION, msg_type, self.seq)
        self.seq = (self.seq + 1) & 0xFFFF
        _crc32_into(self.payload, body_end)
        frame = self.frame
        frame[0] = 0
        n = _encode_into(self.payload, body_end + TRAILER, frame, 1)
        frame[n] = 0
        return n + 1
