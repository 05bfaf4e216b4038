"""Consistent Overhead Byte Stuffing, in place and without allocating.

COBS removes every zero byte from a frame so that a single 0x00 can end it:
after any corruption or a mid-frame start, the receiver is back in step at the
next zero. The encoder is the canonical one (no trailing 0x01 block after a
final 254-byte run), so both ends produce byte-identical frames.

These are the plain Python references; under MicroPython the frames go through their viper
twins (hotloops.cobs_encode_into, hotloops.cobs_decode_in_place).
"""


def encode_into(src, length, dst, at=0):
    """Encode src[0:length] into dst from index at; return the index after the last byte.

    No delimiter is written. dst needs at + length + length // 254 + 2 bytes:
    one byte past the returned index may be scribbled on.
    """
    code_at = at
    out = at + 1
    code = 1
    i = 0
    while i < length:
        byte = src[i]
        i += 1
        if byte:
            dst[out] = byte
            out += 1
            code += 1
            if code == 0xFF:
                dst[code_at] = code
                code = 1
                code_at = out
                if i < length:
                    out += 1
        else:
            dst[code_at] = code
            code = 1
            code_at = out
            out += 1
    dst[code_at] = code
    return out


def decode_in_place(buf, length):
    """Decode the frame buf[0:length] (delimiter removed) into buf from index 0.

    Returns the decoded length, or -1 when the bytes are not valid COBS (a
    zero byte inside, or a block running past the end).
    """
    i = 0
    out = 0
    while i < length:
        code = buf[i]
        if code == 0:
            return -1
        i += 1
        end = i + code - 1
        if end > length:
            return -1
        while i < end:
            byte = buf[i]
            if byte == 0:
                return -1
            buf[out] = byte
            out += 1
            i += 1
        if code != 0xFF and i < length:
            buf[out] = 0
            out += 1
    return out
