"""The host's codec against the test vectors the firmware's codec also passes."""

from __future__ import annotations

import zlib

import pytest

from host.link import cobs
from host.link.frames import Frame, FrameError, decode_frame, encode_frame
from host.link.messages import (
    Ack,
    Capability,
    GetState,
    Heartbeat,
    Hello,
    HelloRequest,
    HostMessage,
    LedFrame,
    Log,
    Nak,
    Ping,
    SensorKind,
    SetConfig,
    State,
    encode_command,
    parse_device_message,
)
from tests.link import device_frames
from tests.link.vectors import vectors


def _id(case: dict[str, object]) -> str:
    return str(case.get("name", case.get("decoded", case.get("data", ""))))[:40]


@pytest.mark.parametrize("case", vectors()["crc32"], ids=_id)
def test_crc32(case: dict) -> None:
    assert zlib.crc32(bytes.fromhex(case["data"])) == case["crc32"]


@pytest.mark.parametrize("case", vectors()["cobs"], ids=_id)
def test_cobs(case: dict) -> None:
    decoded, encoded = bytes.fromhex(case["decoded"]), bytes.fromhex(case["encoded"])
    assert cobs.encode(decoded) == encoded
    assert cobs.decode(encoded) == decoded


@pytest.mark.parametrize("case", vectors()["frames"], ids=_id)
def test_frames(case: dict) -> None:
    frame = Frame(case["version"], case["type"], case["seq"], bytes.fromhex(case["body"]))
    wire = bytes.fromhex(case["wire"])
    assert encode_frame(frame) == wire
    assert decode_frame(wire[1:-1]) == frame


@pytest.mark.parametrize("case", vectors()["bad_frames"], ids=_id)
def test_bad_frames(case: dict) -> None:
    with pytest.raises(FrameError) as caught:
        decode_frame(bytes.fromhex(case["wire"])[1:-1])
    assert caught.value.reason == case["error"]


def _expected_device_message(case: dict) -> object:
    f = case["fields"]
    kind = case["type"]
    if kind == 1:
        return Hello(
            protocol=1,
            firmware=tuple(f["firmware"]),
            boot_id=f["boot_id"],
            config_valid=f["status"] == 0,
            sensor=SensorKind(f["sensor"]),
            rows=f["rows"],
            cols=f["cols"],
            bits_per_cell=f["bits_per_cell"],
            capabilities=Capability(f["capabilities"]),
            led_count=f["led_count"],
            debounce_ms=f["debounce_ms"],
            scan_period_us=f["scan_period_us"],
            heartbeat_ms=f["heartbeat_ms"],
            board=f["board"],
        )
    if kind == 2:
        return State(**{**f, "values": tuple(f["values"])})
    if kind == 3:
        return Heartbeat(**f)
    if kind == 4:
        return Ack(f["seq"], f["command"], bytes.fromhex(f["echo"]))
    if kind == 5:
        return Nak(**f)
    return Log(**f)


@pytest.mark.parametrize("case", vectors()["device_messages"], ids=_id)
def test_device_messages_parse(case: dict) -> None:
    frame = decode_frame(bytes.fromhex(case["wire"])[1:-1])
    assert (frame.type, frame.seq) == (case["type"], case["seq"])
    assert parse_device_message(frame) == _expected_device_message(case)


def _host_message(case: dict) -> HostMessage:
    fields = case["fields"]
    kind = case["type"]
    if kind == 0x81:
        return HelloRequest()
    if kind == 0x82:
        return GetState()
    if kind == 0x83:
        return SetConfig(**fields)
    if kind == 0x84:
        return Ping(bytes.fromhex(fields["token"]))
    colours = tuple((r, g, b) for r, g, b in fields["colours"])
    return LedFrame(fields["first"], colours, show=fields["show"])


@pytest.mark.parametrize("case", vectors()["host_messages"], ids=_id)
def test_host_commands_encode(case: dict) -> None:
    assert encode_command(_host_message(case), case["seq"]).hex() == case["wire"]


@pytest.mark.parametrize("case", vectors()["device_messages"], ids=_id)
def test_the_test_device_encodes_like_the_vectors(case: dict) -> None:
    """tests/link/device_frames.py plays the device in other tests: it must match the spec too."""
    f = case["fields"]
    kind = case["type"]
    if kind == 1:
        body = device_frames.hello_body(
            boot_id=f["boot_id"],
            board=f["board"],
            rows=f["rows"],
            cols=f["cols"],
            sensor=f["sensor"],
            bits=f["bits_per_cell"],
            status=f["status"],
            caps=f["capabilities"],
            led_count=f["led_count"],
            firmware=tuple(f["firmware"]),
            timing=(f["debounce_ms"], f["scan_period_us"], f["heartbeat_ms"]),
        )
    elif kind == 2:
        body = device_frames.state_body(
            boot_id=f["boot_id"],
            values=f["values"],
            rows=f["rows"],
            cols=f["cols"],
            bits=f["bits_per_cell"],
            generation=f["generation"],
            settled_ms=f["settled_ms"],
        )
    elif kind == 3:
        body = device_frames.heartbeat_body(**f)
    elif kind == 4:
        body = device_frames.ack_body(f["seq"], f["command"], bytes.fromhex(f["echo"]))
    elif kind == 5:
        body = device_frames.nak_body(f["seq"], f["command"], f["reason"], f["message"])
    else:
        body = device_frames.log_body(f["level"], f["text"])
    assert device_frames.frame(kind, body, case["seq"]).hex() == case["wire"]
