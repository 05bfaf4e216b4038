"""The firmware's COBS, CRC and framing against the shared test vectors.

Runs under CPython (pytest) and MicroPython (mpy_runner.py).
"""

import fwtest  # noqa: F401  (first: puts the firmware and the simulated chip on the import path)

# isort: split
import binascii

import cobs
import wire
from fwtest import check, hexed, unhex, vectors


def test_cobs_vectors_encode():
    for case in vectors()["cobs"]:
        data = unhex(case["decoded"])
        out = bytearray(len(data) + len(data) // 254 + 2)
        n = cobs.encode_into(data, len(data), out)
        check(
            hexed(out[:n]) == case["encoded"], "encode " + case["decoded"][:40] + ": " + hexed(out[:n])[:40]
        )


def test_cobs_vectors_decode_in_place():
    for case in vectors()["cobs"]:
        buf = bytearray(unhex(case["encoded"]))
        n = cobs.decode_in_place(buf, len(buf))
        check(hexed(buf[:n]) == case["decoded"], "decode " + case["encoded"][:40])


def test_cobs_rejects_zero_and_overrun():
    # A zero byte cannot occur inside an encoded frame; code 05 promises 4 bytes, 2 follow.
    check(cobs.decode_in_place(bytearray(b"\x03\x11\x00\x22"), 4) == -1, "zero inside")
    check(cobs.decode_in_place(bytearray(b"\x05\x11\x22"), 3) == -1, "overrun")


def test_crc32_vectors():
    for case in vectors()["crc32"]:
        check(binascii.crc32(unhex(case["data"])) == case["crc32"], "crc of " + case["data"][:20])


def test_frames_encode():
    writer = wire.FrameWriter(400)
    for case in vectors()["frames"]:
        body = unhex(case["body"])
        writer.payload[4 : 4 + len(body)] = body
        writer.seq = case["seq"]
        n = writer.encode(case["type"], 4 + len(body))
        check(hexed(writer.frame[:n]) == case["wire"], case["name"] + ": " + hexed(writer.frame[:n]))
        check(writer.seq == (case["seq"] + 1) & 0xFFFF, case["name"] + ": sequence number not advanced")


def test_frames_decode():
    for case in vectors()["frames"]:
        receiver = wire.FrameReceiver(400)
        results = [receiver.push(b) for b in unhex(case["wire"])]
        length = results[-1]
        check(all(r == 0 for r in results[:-1]), case["name"] + ": frame reported before its delimiter")
        buf = receiver.buf
        check(buf[0] == case["version"] and buf[1] == case["type"], case["name"] + ": header")
        check(buf[2] | (buf[3] << 8) == case["seq"], case["name"] + ": seq")
        check(hexed(buf[4 : length - 4]) == case["body"], case["name"] + ": body")


def test_bad_frames_are_rejected_with_the_right_error():
    errors = {"crc": wire.ERR_CRC, "short": wire.ERR_SHORT, "cobs": wire.ERR_COBS}
    for case in vectors()["bad_frames"]:
        receiver = wire.FrameReceiver(400)
        for byte in unhex(case["wire"]):
            result = receiver.push(byte)
        check(result == errors[case["error"]], case["name"] + ": got " + str(result))


def test_receiver_resyncs_after_garbage_and_overflow():
    # Garbage, then a frame longer than the buffer, then a good frame: only the last is delivered.
    good = unhex(vectors()["frames"][0]["wire"])
    receiver = wire.FrameReceiver(16)
    results = [receiver.push(b) for b in b"\x03\x03\xff\x00" + b"\x07" * 100 + b"\x00" + good]
    check(results.count(wire.ERR_OVERFLOW) == 1, "one overflow expected: " + str(results))
    check(results[-1] >= wire.MIN_PAYLOAD, "good frame after garbage not delivered")
    check(sum(1 for r in results if r > 0) == 1, "only the good frame is a frame")


def test_the_first_frame_after_noise_arrives():
    # Noise with no zero byte in it, then a frame: the frame's leading delimiter ends the noise.
    good = unhex(vectors()["frames"][0]["wire"])
    receiver = wire.FrameReceiver(64)
    results = [receiver.push(b) for b in b"\x7fnoise\x03\x01" + good]
    check(results[-1] >= wire.MIN_PAYLOAD, "the frame after the noise was lost: " + str(results))
    check(sum(1 for r in results if r > 0) == 1, "only the good frame is a frame")


def test_empty_frames_are_ignored():
    receiver = wire.FrameReceiver(16)
    check([receiver.push(0) for _ in range(3)] == [0, 0, 0], "a lone delimiter is not an error")


def _outcomes_pushed(receiver, stream):
    """(result, payload) of every byte push has something to say about, byte by byte."""
    out = []
    for byte in stream:
        result = receiver.push(byte)
        if result:
            out.append((result, bytes(receiver.buf[:result]) if result > 0 else b""))
    return out


def _outcomes_fed(receiver, stream, chunks):
    """The same through feed, the stream cut into chunks of the given sizes (as a period reads)."""
    out = []
    start = 0
    for size in chunks:
        chunk = bytearray(stream[start : start + size])
        start += size
        at = 0
        while at < len(chunk):
            at = receiver.feed(chunk, at, len(chunk))
            result = receiver.result
            if result:
                out.append((result, bytes(receiver.buf[:result]) if result > 0 else b""))
    return out


def test_feeding_chunks_delivers_and_refuses_what_pushing_bytes_does():
    # Good frames, every bad one of the vectors, noise and a frame longer than the buffer, in one
    # stream read in chunks of 1..9 bytes: the same frames come out, the same errors, in order.
    cases = vectors()
    good = [unhex(case["wire"]) for case in cases["frames"]]
    bad = [unhex(case["wire"]) for case in cases["bad_frames"]]
    stream = b"\x7fnoise\x03"
    for i, frame in enumerate(good):
        stream += frame + bad[i % len(bad)] + bad[-1 - i] + b"\x00" + (b"\x07" * 500 if i % 3 == 0 else b"")
    stream += b"\x00" + good[0]
    chunks = [1 + (i * 7) % 9 for i in range(len(stream))]
    expected = _outcomes_pushed(wire.FrameReceiver(400), stream)
    got = _outcomes_fed(wire.FrameReceiver(400), stream, chunks)
    check(got == expected, "fed " + str([r for r, _ in got]) + ", pushed " + str([r for r, _ in expected]))
    results = [result for result, _ in expected]
    check(sum(1 for r in results if r > 0) == len(good) + 1, "every good frame delivered: " + str(results))
    for error in (wire.ERR_CRC, wire.ERR_SHORT, wire.ERR_COBS, wire.ERR_OVERFLOW):
        check(error in results, "error " + str(error) + " reported: " + str(results))
