"""The whole simulated board build: what stands in for the wood, the magnets and the Pico.

A ``Rig`` joins a virtual board (objects with sensor physics) to the real
firmware running under MicroPython on a pseudo-terminal - the unix port with a
simulated chip (``FirmwareProcess``), or with ``emulated=True`` the rp2 port on an
emulated RP2040 (``EmulatedPico``, slower than a Pico: the link is given more
time) - : a feeder thread
samples the virtual sensors every millisecond, bounce and noise included, and
wires the values into the simulated chip, as the real sensors would be felt by
a real scan.  The host side then talks to ``rig.port`` exactly as it talks to a
Pico, and shows LEDs on ``rig.leds`` (or, for a Pico-driven chain, through the
link).  Nothing here knows the rules of any game.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from types import TracebackType

from host.drivers.interfaces import RGB, LedStrip, monotonic_us
from host.drivers.link_strip import LinkStrip
from host.hardware.calibration import Calibration, from_frames
from host.hardware.firmware_config import firmware_config
from host.hardware.spec import LED_PICO, BoardSpec
from host.link.device_link import DeviceLink
from host.link.protocol import READY_S, SILENCE_TIMEOUT_S
from host.link.status import LinkError
from host.sim.emulated_pico import EmulatedPico
from host.sim.firmware_process import FirmwareProcess
from host.sim.virtual_board import SensorPhysics, VirtualBoard
from host.sim.virtual_buttons import VirtualButtons
from host.sim.virtual_leds import VirtualStrip

log = logging.getLogger(__name__)

SAMPLE_S = 0.001
CALIBRATION_FRAMES = 15
EMULATED_SLOWDOWN = EmulatedPico.slowdown


class MirroredStrip:
    """The session's LED frames recorded on the rig's virtual strip and sent over the link to the
    emulated Pico's NeoPixels, from a thread of their own: the emulated Pico takes a frame in
    several times slower than a Pico, and the live loop must not wait for it. A frame still
    waiting when a newer one comes is dropped, as a person would never see it; ``sent`` holds
    the frames the Pico was sent, shaped as it got them."""

    def __init__(self, record: VirtualStrip, link_strip: LinkStrip) -> None:
        self.record = record
        self.link_strip = link_strip
        self.sent: list[tuple[RGB, ...]] = []
        self._latest: tuple[RGB, ...] | None = None
        self._busy = False
        self._closing = False
        self._wake = threading.Condition()
        self._sender = threading.Thread(target=self._send, name="pico-leds", daemon=True)
        self._sender.start()

    @property
    def count(self) -> int:
        return self.record.count

    def show(self, frame: Sequence[RGB]) -> None:
        self.record.show(frame)
        with self._wake:
            self._latest = tuple(frame)
            self._wake.notify()

    @property
    def idle(self) -> bool:
        """True when every frame shown has been sent (or dropped for a newer one)."""
        with self._wake:
            return self._latest is None and not self._busy

    def _send(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._latest is not None or self._closing)
                if self._latest is None:
                    return
                frame, self._latest = self._latest, None
                self._busy = True
            try:
                self.link_strip.show(frame)
                self.sent.append(tuple(self.link_strip.shaper.shape(frame)))
            except LinkError as exc:
                log.warning("an LED frame did not reach the emulated Pico: %s", exc)
            finally:
                with self._wake:
                    self._busy = False

    def close(self) -> None:
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._sender.join(timeout=30.0)
        self.link_strip.close()
        self.record.close()


class Rig:
    def __init__(
        self,
        board: BoardSpec,
        *,
        seed: int = 0,
        physics: SensorPhysics | None = None,
        emulated: bool = False,
    ) -> None:
        self.board = board
        self.clock = monotonic_us
        self.virtual = VirtualBoard(board, self.clock, seed=seed, physics=physics)
        config = firmware_config(board, self._calibrate())
        self.emulated = emulated
        self.firmware: FirmwareProcess | EmulatedPico
        self.firmware = EmulatedPico(config) if emulated else FirmwareProcess(config)
        self.slowdown = self.firmware.slowdown  # the host waits this many times longer
        self.ready_s = READY_S * self.slowdown  # how long the firmware may take to boot and answer
        self.silence_timeout_s = SILENCE_TIMEOUT_S * self.slowdown  # for the host's DeviceLink
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

    def strip_for(self, link: DeviceLink) -> LedStrip:
        """The LED chain the session drives: the virtual strip, or for a chain the emulated Pico
        drives, frames over the link to it (recorded on the virtual strip as well)."""
        if self.emulated and self.board.leds.driver == LED_PICO:
            return MirroredStrip(self.leds, LinkStrip(link, self.board.leds, timeout=self.slowdown))
        return self.leds

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
