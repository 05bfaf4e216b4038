"""The whole simulated board build: what stands in for the wood, the magnets and the Pico.

A ``Rig`` joins a virtual board (objects with sensor physics) to the real
firmware running under MicroPython on a pseudo-terminal: a feeder thread
samples the virtual sensors every millisecond, bounce and noise included, and
wires the values into the simulated chip, as the real sensors would be felt by
a real scan.  The host side then talks to ``rig.port`` exactly as it talks to a
Pico, and shows LEDs on ``rig.leds`` (or, for a Pico-driven chain, through the
link).  Nothing here knows the rules of any game.
"""

from __future__ import annotations

import threading
import time
from types import TracebackType

from host.drivers.interfaces import monotonic_us
from host.hardware.calibration import Calibration, from_frames
from host.hardware.firmware_config import firmware_config
from host.hardware.spec import BoardSpec
from host.sim.firmware_process import FirmwareProcess
from host.sim.virtual_board import SensorPhysics, VirtualBoard
from host.sim.virtual_buttons import VirtualButtons
from host.sim.virtual_leds import VirtualStrip

SAMPLE_S = 0.001
CALIBRATION_FRAMES = 15


class Rig:
    def __init__(self, board: BoardSpec, *, seed: int = 0, physics: SensorPhysics | None = None) -> None:
        self.board = board
        self.clock = monotonic_us
        self.virtual = VirtualBoard(board, self.clock, seed=seed, physics=physics)
        self.firmware = FirmwareProcess(firmware_config(board, self._calibrate()))
        self.leds = VirtualStrip(board.leds, self.clock)
        self.buttons = VirtualButtons(self.clock)
        self.lock = threading.Lock()  # held while hands change the virtual board
        self._stop = threading.Event()
        self._feeder: threading.Thread | None = None
        self._last: list[list[int]] | None = None

    def _calibrate(self) -> Calibration | None:
        """Hall zeros measured on the empty board, as a builder calibrates a new board."""
        if not self.board.sensor.analog:
            return None
        frames = []
        for _ in range(CALIBRATION_FRAMES):
            frames.append(self.virtual.flat_frame())
            time.sleep(SAMPLE_S)
        return from_frames(self.board, frames)

    @property
    def port(self) -> str:
        return self.firmware.port

    def start(self) -> Rig:
        self.firmware.start()
        self._feed()
        self._feeder = threading.Thread(target=self._run, name="rig-feeder", daemon=True)
        self._feeder.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._feeder is not None:
            self._feeder.join(timeout=2.0)
        self.firmware.close()
        self.leds.close()

    def __enter__(self) -> Rig:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            self._feed()
            time.sleep(SAMPLE_S)

    def _feed(self) -> None:
        with self.lock:
            frame = self.virtual.frame()
        if frame == self._last or not self.firmware.alive:
            return
        self._last = frame
        if self.board.sensor.analog:
            self.firmware.set_analog(frame)
        else:
            self.firmware.set_digital([[bool(v) for v in row] for row in frame])
