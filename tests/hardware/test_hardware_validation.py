"""Broken board files are rejected with messages naming the file and the key."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from host.hardware.loading import BoardFileError, board_path, display_path, load_board

Variant = Callable[..., Path]


def problems(path: Path) -> list[str]:
    with pytest.raises(BoardFileError) as info:
        load_board(path)
    text = str(info.value)
    assert all(line.startswith(f"{display_path(path)}: ") for line in text.splitlines())
    return info.value.problems


def test_two_cells_on_one_address(variant: Variant) -> None:
    path = variant(
        "kingofrings-reed",
        ("b1 = { x = 80.0, y = 40.0, row = 0, col = 1,", "b1 = { x = 80.0, y = 40.0, row = 0, col = 0,"),
    )
    assert problems(path) == ["cells.b1: row 0 col 0 is already the address of cells.a1"]


def test_a_cell_missing(variant: Variant) -> None:
    path = variant("flipfour-hall", ("c3 = {", "# c3 = {"))
    assert problems(path) == ["cells: 1 cell(s) missing: c3"]


def test_a_cell_the_geometry_does_not_have(variant: Variant) -> None:
    path = variant(
        "flipfour-hall",
        ("[cells]\n", "[cells]\na1 = { x = 30.0, y = 30.0, mux = 1, channel = 15, led = 3 }\n"),
    )
    assert "cells.a1: no such cell in this geometry" in problems(path)


def test_a_pico_pin_used_twice(variant: Variant) -> None:
    path = variant("kingofrings-reed", ("col_pins = [9, 10,", "col_pins = [9, 3,"))
    assert problems(path) == ["pico.col_pins[1]: GP3 is already used by pico.row_pins[1]"]


def test_a_pi_pin_used_twice(variant: Variant) -> None:
    path = variant("desdemona-reed", ("hint = 13", "hint = 18"))
    assert problems(path) == ["leds.pin: GPIO18 is already used by buttons.hint"]


def test_a_pin_the_pico_does_not_have(variant: Variant) -> None:
    path = variant("kingofrings-hall", ("adc_pin = 26", "adc_pin = 25"))
    assert problems(path) == [
        "pico.adc_pin: GP25 is not an ADC input (GP26, GP27 or GP28)",
        "pico.adc_pin: GP25 is not a Pico GPIO",
    ]


def test_an_led_budget_the_leds_can_exceed(variant: Variant) -> None:
    # 100 LEDs at cap 0.4: 100 * 1 mA idle + 300 channels * 20 mA * 102 / 255 = 2500 mA > 2000 mA.
    path = variant(
        "desdemona-hall", ("supply_ma = 2500.0", "supply_ma = 2000.0"), ("current_limit_ma = 1800.0\n", "")
    )
    assert problems(path) == [
        "leds: 100 LEDs at brightness_cap 0.4 can draw 2500 mA, more than supply_ma = 2000; "
        "lower the cap or set current_limit_ma"
    ]


def test_a_current_limit_above_the_supply(variant: Variant) -> None:
    path = variant("desdemona-hall", ("current_limit_ma = 1800.0", "current_limit_ma = 3000.0"))
    assert problems(path) == ["leds.current_limit_ma: 3000 is above supply_ma = 2500"]


def test_two_leds_on_one_cell_and_an_led_off_the_chain(variant: Variant) -> None:
    path = variant("flipfour-reed", ("led = 1 }", "led = 0 }"), ("led = 18 }", "led = 19 }"))
    found = problems(path)
    assert any(p.endswith("LED 0 already lights cells.c1") for p in found)
    assert any(p.endswith(".led: 19 is outside the chain of leds.count = 19") for p in found)


def test_cells_too_close_together(variant: Variant) -> None:
    path = variant("kingofrings-reed", ("b1 = { x = 80.0,", "b1 = { x = 45.0,"))
    assert problems(path) == [
        "cells.b1: 5.0 mm from cells.a1, closer than 15 mm (the sensors would feel each other's magnets)"
    ]


def test_a_misspelt_key_and_a_wrong_type(variant: Variant) -> None:
    path = variant("kingofrings-reed", ("debounce_ms = 5", "debounce = 5"), ("rows = 7", 'rows = "seven"'))
    assert problems(path) == [
        "sensor.rows: expected an integer, got 'seven'",
        "sensor.debounce_ms: missing",
        "sensor.debounce: unknown key",
    ]


def test_a_settle_time_out_of_range(variant: Variant) -> None:
    path = variant("desdemona-hall", ("settle_us = 5 ", "settle_us = 101 "))
    assert problems(path) == ["sensor.settle_us: 101 is above the maximum 100"]
    path = variant("flipfour-reed", ("settle_us = 10 ", "settle_us = -1 "))
    assert problems(path) == ["sensor.settle_us: -1 is below the minimum 0"]


def test_a_settle_time_that_fills_the_scan_period(variant: Variant) -> None:
    # 7 multiplexers x 16 channels, each read 20 us after its switch: 2240 us of waiting alone.
    path = variant(
        "desdemona-hall",
        ("settle_us = 5 ", "settle_us = 20 "),
        ("scan_period_us = ", "scan_period_us = 2240  # "),
    )
    assert problems(path) == [
        "sensor.settle_us: 112 sensors x 20 us = 2240 us of settling alone, "
        "not less than scan_period_us = 2240"
    ]
    # A matrix waits once a row (a read of GPIO_IN gives every column): 5 rows x 60 us leave time in
    # flipfour-reed's 400 us, where its 25 switches x 60 us would not.
    assert load_board(variant("flipfour-reed", ("settle_us = 10 ", "settle_us = 60 "))).sensor.settle_us == 60


def test_a_reversible_object_with_one_pole_on_both_sides(variant: Variant) -> None:
    path = variant(
        "desdemona-hall",
        (
            'stone = { count = 92, magnet = "strong", pole_down = ["north", "south"]',
            'stone = { count = 92, magnet = "strong", pole_down = ["north", "north"]',
        ),
    )
    assert problems(path) == [
        "objects.stone.pole_down: turning a stone over turns its magnet: the two poles must differ"
    ]


def test_an_object_of_another_game_and_a_missing_kind(variant: Variant) -> None:
    path = variant("flipfour-hall", ("piece = {", "queen = {"))
    assert problems(path) == [
        "objects.queen: game flipfour has no object of kind 'queen'",
        "objects.piece: missing: game flipfour uses objects of kind 'piece'",
    ]


def test_a_weak_magnet_under_reed_switches(variant: Variant) -> None:
    path = variant(
        "spacetiles-reed",
        (
            'tile = { count = 40, magnet = "none" }',
            'tile = { count = 40, magnet = "weak", pole_down = "north" }',
        ),
    )
    assert (
        "objects.tile.magnet: a reed switch has no 'weak': it closes or not (use 'none' or 'strong')"
        in problems(path)
    )


def test_thresholds_that_cannot_tell_a_tile_from_a_piece(variant: Variant) -> None:
    # A weak magnet of 3000 is within the hysteresis (300) of a strong_threshold of 3200.
    path = variant("spacetiles-hall", ("strong_threshold = 7000", "strong_threshold = 3200"))
    assert problems(path) == [
        "sensor.signal.weak: 3000 is too close to strong_threshold = 3200: a weak magnet could read strong"
    ]


def test_a_strong_magnet_over_an_opposed_weak_one_must_read_strong(variant: Variant) -> None:
    # 9000 - 3000 = 6000 < strong_threshold 7000 + hysteresis 300.
    path = variant("spacetiles-hall", ("strong = 14000", "strong = 9000"))
    assert problems(path) == [
        "sensor.signal.strong: 9000 (less 3000 from an opposed weak magnet) is below 7300: "
        "a strong magnet would not read as one"
    ]


def test_mux_pins_must_match_the_multiplexers(variant: Variant) -> None:
    path = variant(
        "desdemona-hall", ("mux_enable_pins = [6, 7, 8, 9, 10, 11, 12]", "mux_enable_pins = [6, 7, 8]")
    )
    assert problems(path) == ["pico.mux_enable_pins: 3 pins for sensor.rows = 7 multiplexers"]


def test_id_must_match_the_file_name(tmp_path: Path) -> None:
    source = board_path("flipfour-reed").read_text(encoding="utf-8")
    path = tmp_path / "myboard.toml"
    path.write_text(source, encoding="utf-8")
    assert problems(path) == ["id: 'flipfour-reed' differs from the file name 'myboard'"]


def test_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("id = [\n", encoding="utf-8")
    (message,) = problems(path)
    assert message.startswith("not valid TOML: ")


def test_an_unknown_board_id_lists_the_known_ones() -> None:
    with pytest.raises(
        BoardFileError, match=r"no board 'chess' \(known: amazons-hall, amazons-reed, desdemona-hall, "
    ):
        load_board("chess")


def test_a_missing_part_for_the_bill_of_materials(variant: Variant) -> None:
    path = variant("spacetiles-hall", ('magnet_weak = "ferrite disc magnet 5 x 1 mm"\n', ""))
    assert problems(path) == ["parts.magnet_weak: missing (the bill of materials needs it)"]


def test_the_pass_button_is_optional_and_its_pin_is_checked(variant: Variant) -> None:
    assert "pass" not in load_board("kingofrings-hall").buttons.pins
    assert load_board("go7-hall").buttons.pins["pass"] == 26
    path = variant("go7-hall", ("pass = 26", "pass = 19"))
    assert problems(path) == ["buttons.pass: GPIO19 is already used by buttons.take_back"]
