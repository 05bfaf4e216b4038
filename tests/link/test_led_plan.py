"""The LED sender's decisions by tables, without its thread: what is due, what counts as sent again.

Each row is (operation, argument, result, resends, problem, current for the
device accepted as the link's first and second). The rules are those of
docs/protocol.md section 4, item 9.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from host.link.led_plan import RGB, LedPlan, led_frames
from host.link.messages import Capability, Hello, LedFrame, SensorKind
from host.link.status import CommandRefused

RED: tuple[RGB, ...] = ((255, 0, 0),) * 4
BLUE: tuple[RGB, ...] = ((0, 0, 255),) * 4
FIVE: tuple[RGB, ...] = ((9, 9, 9),) * 5
TOO_MANY = "LEDs 0..4 do not exist: the board has 4"

Row = tuple[str, object, object, int, str | None, tuple[bool, bool]]


def run(rows: list[Row]) -> None:
    plan = LedPlan()
    for index, (operation, argument, result, resends, problem, current) in enumerate(rows):
        if operation == "want":
            assert isinstance(argument, tuple)
            got: object = plan.want(argument)
        elif operation == "attempt":
            assert isinstance(argument, int)
            got = plan.attempt(argument)
        else:
            assert isinstance(argument, tuple)
            got = plan.taken(*argument)
        assert (got, plan.resends, plan.problem, (plan.current(1), plan.current(2))) == (
            result, resends, problem, current,
        ), f"row {index}: {operation} {argument}"  # fmt: skip


def test_a_frame_is_sent_again_until_the_device_accepted_now_has_taken_it() -> None:
    run([
        ("attempt", 1, None, 0, None, (True, True)),  # nothing wanted yet: the LEDs are as they are
        ("want", RED, None, 0, None, (False, False)),
        ("attempt", 1, (RED, 1), 0, None, (False, False)),
        ("attempt", 1, (RED, 1), 1, None, (False, False)),  # its ACK was lost: sent again
        ("taken", (1, 1), False, 1, None, (True, False)),
        ("attempt", 1, None, 1, None, (True, False)),
        ("attempt", 2, (RED, 1), 2, None, (True, False)),  # a device accepted afresh has a dark strip
        ("taken", (1, 2), False, 2, None, (False, True)),
    ])  # fmt: skip


def test_a_newer_frame_overtakes_one_still_on_its_way() -> None:
    run([
        ("want", RED, None, 0, None, (False, False)),
        ("attempt", 1, (RED, 1), 0, None, (False, False)),
        ("want", BLUE, None, 0, None, (False, False)),  # before RED's ACK
        ("taken", (1, 1), False, 0, None, (False, False)),  # RED taken: BLUE is still due
        ("attempt", 1, (BLUE, 2), 0, None, (False, False)),  # a new frame, not a resend
        ("taken", (2, 1), False, 0, None, (True, False)),
    ])  # fmt: skip


def test_a_refused_frame_is_reported_once_and_not_sent_again() -> None:
    run([
        ("want", FIVE, None, 0, None, (False, False)),
        ("attempt", 1, (FIVE, 1), 0, None, (False, False)),
        ("taken", (1, 1, TOO_MANY), True, 0, TOO_MANY, (True, False)),  # news: report it
        ("attempt", 1, None, 0, TOO_MANY, (True, False)),  # refusing it again would light nothing
        ("want", FIVE, None, 0, TOO_MANY, (False, False)),
        ("attempt", 1, (FIVE, 2), 0, TOO_MANY, (False, False)),
        ("taken", (2, 1, TOO_MANY), False, 0, TOO_MANY, (True, False)),  # the same refusal: not news
        ("want", RED, None, 0, TOO_MANY, (False, False)),
        ("attempt", 1, (RED, 3), 0, TOO_MANY, (False, False)),
        ("taken", (3, 1), False, 0, None, (True, False)),
    ])  # fmt: skip


@pytest.mark.parametrize(
    ("colours", "message"),
    [
        ([(0, 0, 0), (0, 0, 256)], r"LED 1: colour \(0, 0, 256\)"),
        ([(-1, 0, 0)], "LED 0: colour"),
        ([(1, 2)], "LED 0: colour"),
        ([(1, 2, 3, 4)], "LED 0: colour"),
        ([(1.0, 2, 3)], "LED 0: colour"),
    ],
)
def test_a_colour_that_is_not_rgb_is_refused_at_once(colours: list[RGB], message: str) -> None:
    plan = LedPlan()
    with pytest.raises(ValueError, match=message):
        plan.want(colours)
    assert plan.current(1)  # and nothing is wanted


def test_the_extreme_colours_are_colours() -> None:
    plan = LedPlan()
    plan.want([(0, 0, 0), (255, 255, 255)])
    assert plan.attempt(1) == (((0, 0, 0), (255, 255, 255)), 1)


DEVICE = Hello(
    protocol=1, firmware=(0, 1, 0), boot_id=1, config_valid=True, sensor=SensorKind.REED, rows=2, cols=2,
    bits_per_cell=1, capabilities=Capability.LEDS, led_count=310, debounce_ms=5, scan_period_us=1000,
    heartbeat_ms=1000, board="test",
)  # fmt: skip


def test_frames_of_at_most_256_leds_and_only_the_last_one_shows() -> None:
    colours = [(i % 256, 0, 0) for i in range(300)]
    frames = led_frames(DEVICE, colours, first=10)
    assert [(f.first, len(f.colours), f.show) for f in frames] == [(10, 256, False), (266, 44, True)]
    assert frames[1].colours[0] == (0, 0, 0) and frames[0].colours[255] == (255, 0, 0)
    assert led_frames(DEVICE, [(1, 2, 3)] * 256) == [LedFrame(0, ((1, 2, 3),) * 256, show=True)]
    assert led_frames(DEVICE, [], first=4) == [LedFrame(4, (), show=True)]  # just show what is latched


@pytest.mark.parametrize(
    ("device", "count", "first", "message"),
    [
        (replace(DEVICE, capabilities=Capability.POLARITY), 1, 0, "board test: the Pico drives no LEDs"),
        (DEVICE, 311, 0, r"LEDs 0\.\.310 do not exist: the board has 310"),
        (DEVICE, 2, 309, r"LEDs 309\.\.310 do not exist"),
        (DEVICE, 1, -1, r"LEDs -1\.\.-1 do not exist"),
    ],
)
def test_leds_the_device_does_not_drive_are_refused(
    device: Hello, count: int, first: int, message: str
) -> None:
    with pytest.raises(CommandRefused, match=message):
        led_frames(device, [(0, 0, 0)] * count, first)


def test_the_last_led_is_one_the_device_drives() -> None:
    assert led_frames(DEVICE, [(0, 0, 0)], first=309)[0].first == 309
