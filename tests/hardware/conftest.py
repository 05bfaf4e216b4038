"""Shared fixtures of the hardware tests: board-file variants and a fake GPIO module."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from host.hardware.loading import BOARDS_DIR


@pytest.fixture
def variant(tmp_path: Path) -> Callable[..., Path]:
    """A copy of a shipped board file with text replaced (each ``old`` must occur), under the same name."""

    def make(board_id: str, *replacements: tuple[str, str]) -> Path:
        text = (BOARDS_DIR / f"{board_id}.toml").read_text(encoding="utf-8")
        for old, new in replacements:
            assert old in text, f"{old!r} not in {board_id}.toml"
            text = text.replace(old, new, 1)
        path = tmp_path / f"{board_id}.toml"
        path.write_text(text, encoding="utf-8")
        return path

    return make


class FakeGPIO:
    """The part of RPi.GPIO the button driver uses, with pins a test drives (like gpiozero's mock pins).

    An input set up with a pull-up reads high until the test drives it.
    """

    BCM = 11
    IN = 1
    OUT = 0
    PUD_UP = 22
    PUD_DOWN = 21
    HIGH = 1
    LOW = 0

    def __init__(self) -> None:
        self.mode: int | None = None
        self.setups: dict[int, tuple[int, int]] = {}
        self.levels: dict[int, int] = {}
        self.cleaned: list[int] = []

    def setmode(self, mode: int) -> None:
        self.mode = mode

    def setup(self, pin: int, direction: int, pull_up_down: int = 0) -> None:
        assert self.mode == self.BCM, "setmode must come first"
        self.setups[pin] = (direction, pull_up_down)
        self.levels.setdefault(pin, self.HIGH if pull_up_down == self.PUD_UP else self.LOW)

    def input(self, pin: int) -> int:
        if pin not in self.setups:
            raise RuntimeError(f"pin {pin} was not set up")
        return self.levels[pin]

    def cleanup(self, pins: list[int] | None = None) -> None:
        self.cleaned.extend(pins or list(self.setups))

    def drive(self, pin: int, level: int) -> None:
        self.levels[pin] = level


@pytest.fixture
def fake_gpio() -> FakeGPIO:
    return FakeGPIO()
