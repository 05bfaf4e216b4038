"""The host codec on arbitrary input: it never fails with anything but its own
errors, and what it encodes it decodes."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from host.link import cobs
from host.link.frames import MAX_FRAME, Frame, FrameError, FrameSplitter, decode_frame, encode_frame
from host.link.messages import (
    LedFrame,
    MessageError,
    Ping,
    SensorKind,
    SetConfig,
    command_body,
    pack_cells,
    parse_device_message,
    unpack_cells,
)
from host.link.snapshot import Snapshot
from tests.budget import examples


@given(st.binary(max_size=700))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = cobs.encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + len(data) // 254 + 1
    assert cobs.decode(encoded) == data


@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=600))
def test_frame_round_trip(version: int, msg_type: int, seq: int, body: bytes) -> None:
    frame = Frame(version, msg_type, seq, body)
    wire = encode_frame(frame)
    assert wire.startswith(b"\x00") and wire.endswith(b"\x00") and wire.count(0) == 2
    assert decode_frame(wire[1:-1]) == frame


@given(st.binary(max_size=200).filter(lambda noise: 0 not in noise), st.integers(0, 0xFFFF))
def test_the_first_frame_after_noise_arrives(noise: bytes, seq: int) -> None:
    # Noise without a zero byte would swallow a frame that only had a closing delimiter.
    frame = Frame(1, 0x03, seq, bytes(range(1, 30)))
    chunks = FrameSplitter().feed(noise + encode_frame(frame))
    assert decode_frame(chunks[-1] or b"") == frame


@settings(max_examples=examples(300))
@given(st.lists(st.binary(max_size=80), max_size=12))
def test_garbage_never_escapes_the_codec_errors(chunks: list[bytes]) -> None:
    splitter = FrameSplitter()
    for chunk in chunks:
        for piece in splitter.feed(chunk):
            if piece is None:
                continue
            with contextlib.suppress(FrameError, MessageError):
                parse_device_message(decode_frame(piece))


@settings(max_examples=examples(300))
@given(st.integers(1, 6), st.integers(0, 0xFFFF), st.binary(max_size=100))
def test_intact_frames_with_bad_bodies_are_message_errors(msg_type: int, seq: int, body: bytes) -> None:
    try:
        parse_device_message(Frame(1, msg_type, seq, body))
    except MessageError as exc:
        assert str(exc)


def test_a_frame_after_noise_is_found_across_reads() -> None:
    # Noise, then a frame split over three reads, then the next frame's start: the noise is one bad
    # chunk (ended by the frame's leading delimiter) and the frame arrives whole.
    frame = encode_frame(Frame(1, 2, 5, b"\x01\x02"))
    splitter = FrameSplitter()
    pieces = splitter.feed(b"\x13\x37garbage" + frame[:4]) + splitter.feed(frame[4:] + frame[:3])
    pieces += splitter.feed(frame[3:] + b"\xff\xfe")
    assert len(pieces) == 3
    with pytest.raises(FrameError):
        decode_frame(pieces[0])  # type: ignore[arg-type]
    assert decode_frame(pieces[1]) == decode_frame(pieces[2]) == Frame(1, 2, 5, b"\x01\x02")  # type: ignore[arg-type]


def test_an_endless_frame_is_reported_once_and_skipped() -> None:
    splitter = FrameSplitter()
    pieces = splitter.feed(b"\x01" * (MAX_FRAME + 10)) + splitter.feed(b"\x01" * 100 + b"\x00")
    assert pieces == [None]
    assert splitter.feed(b"\x05\x00") == [b"\x05"]


def test_the_longest_frame_is_a_frame_and_one_byte_more_is_not() -> None:
    longest = 2048  # docs/protocol.md: "The host accepts encoded frames of up to 2048 bytes"
    splitter = FrameSplitter()
    assert splitter.feed(b"\x01" * longest + b"\x00") == [b"\x01" * longest]
    assert splitter.feed(b"\x01" * longest) == []
    assert splitter.feed(b"\x01") == [None]  # too long, across reads: reported when it becomes so


def test_a_frame_is_a_value() -> None:
    frame = decode_frame(encode_frame(Frame(1, 2, 3, b"\x04"))[1:-1])
    assert {frame: "seen"}[Frame(1, 2, 3, b"\x04")] == "seen"
    with pytest.raises(AttributeError):
        frame.seq = 4  # type: ignore[misc]


def test_empty_chunks_between_delimiters_are_nothing() -> None:
    assert FrameSplitter().feed(b"\x00\x00\x00") == []


def test_a_reset_splitter_forgets_the_chunk_it_held_and_an_overflow() -> None:
    splitter = FrameSplitter()
    splitter.feed(b"\x05")
    splitter.reset()
    assert splitter.feed(b"\x06\x00") == [b"\x06"]
    assert splitter.feed(b"\x01" * (MAX_FRAME + 1)) == [None]
    splitter.reset()
    assert splitter.feed(b"\x07\x00") == [b"\x07"]  # the rest of the overflowed chunk would have been skipped


@given(st.integers(1, 2), st.data())
def test_cells_round_trip(bits: int, data: st.DataObject) -> None:
    values = data.draw(st.lists(st.integers(0, (1 << bits) - 1), max_size=256))
    assert unpack_cells(pack_cells(values, bits), len(values), bits) == tuple(values)


def test_message_errors_say_what_is_wrong() -> None:
    with pytest.raises(MessageError, match="STATE: 3x3 at 1 bits needs 2 bytes of cells, got 1"):
        parse_device_message(Frame(1, 2, 0, bytes(12) + bytes([3, 3, 1, 0])))
    with pytest.raises(MessageError, match="STATE: 5 bits per cell"):
        parse_device_message(Frame(1, 2, 0, bytes(12) + bytes([1, 1, 5, 0])))
    with pytest.raises(MessageError, match="HEARTBEAT: 3 bytes, expected 26"):
        parse_device_message(Frame(1, 3, 0, b"abc"))
    with pytest.raises(MessageError, match="not one a device sends"):
        parse_device_message(Frame(1, 0x82, 0, b""))
    with pytest.raises(MessageError, match="protocol version 2"):
        parse_device_message(Frame(2, 1, 0, b""))
    with pytest.raises(MessageError, match="LOG: text is not UTF-8"):
        parse_device_message(Frame(1, 6, 0, b"\x01\xff\xfe"))


def test_commands_refuse_impossible_values() -> None:
    with pytest.raises(ValueError, match="PING token: 33 bytes"):
        command_body(Ping(b"x" * 33))
    with pytest.raises(ValueError, match="debounce_ms: 70000"):
        command_body(SetConfig(debounce_ms=70000))
    with pytest.raises(ValueError, match=r"LED 4: colour \(1, 2, 300\)"):
        command_body(LedFrame(3, ((0, 0, 0), (1, 2, 300))))
    with pytest.raises(ValueError, match="at most 256 per frame"):
        command_body(LedFrame(0, ((0, 0, 0),) * 257))


def test_snapshot_accessors() -> None:
    snap = Snapshot(
        "b", SensorKind.HALL_ANALOG, 2, 3, (0, 1, 2, 3, 0, 0), boot_id=1, device_time_ms=5, generation=2
    )
    assert snap.value(1, 0) == 3
    assert snap.occupied() == frozenset({1, 2, 3})
    other = Snapshot(
        "b", SensorKind.HALL_ANALOG, 2, 3, (0, 1, 1, 3, 0, 2), boot_id=1, device_time_ms=9, generation=3
    )
    assert snap.changed(other) == [2, 5]
    assert snap.rows_text() == "012\n300"
    with pytest.raises(IndexError, match="row 2, column 0 on a 2x3 board"):
        snap.value(2, 0)
    with pytest.raises(ValueError, match="2x3 with 5 values"):
        Snapshot("b", SensorKind.REED, 2, 3, (0,) * 5, boot_id=1, device_time_ms=0, generation=0)
