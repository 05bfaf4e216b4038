"""The emulated-Pico tests run wherever node, rp2040js and the RP2040 binaries are; elsewhere
they skip with one line saying what is missing - except in CI (CI=true), where that is a failure."""

from __future__ import annotations

import os

import pytest

from host.sim.emulated_pico import missing


@pytest.fixture(autouse=True)
def emulated_pico_available() -> None:
    reason = missing()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the emulated Pico must run in CI: {reason}")
    pytest.skip(f"emulated Pico: {reason}")
