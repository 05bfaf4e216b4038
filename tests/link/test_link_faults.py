"""The link's failure policy on every board build, in the whole simulated pipeline.

Virtual board -> the real firmware under MicroPython -> pseudo-terminal and
pyserial -> link -> session, with LED frames going back over the link on the
builds whose LEDs hang off the Pico. Noise both ways, a firmware restart and
pulling the USB cable must each end with the board read again, the LEDs lit
again and the game going on; meanwhile the live loop reports the board as
not connected, and no snapshot of a board that was not there is handed on.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engines import registry
from host.drivers.interfaces import LedStrip
from host.drivers.link_strip import LinkStrip
from host.drivers.shaping import OutputShaper
from host.hardware.loading import load_board
from host.hardware.sensing import SensorModel
from host.hardware.spec import LED_PICO
from host.link import DeviceLink, Expectation, LedSender, LinkStatus, Snapshot
from host.link.port import open_exclusive
from host.session.board_play import BoardPlay
from host.session.live import LiveLoop
from host.session.session import Settings
from host.session.setup import make_session
from host.sim.firmware_process import FirmwareProcess, Rgb
from host.sim.reach import SimulatedReach
from host.sim.rig import Rig
from host.wiring.table import Table
from tests.link.test_link_e2e import CONFIG, LossySerial
from tests.pipeline.player import Person

BOARDS = sorted(path.stem for path in (Path(__file__).parents[2] / "hardware" / "boards").glob("*.toml"))
RECOVER_S = 15.0
SILENCE_S = 0.6  # the link gives a silent port up after this long (3 s in play)


def _noise(rng: random.Random, size: int) -> bytes:
    """Random bytes with zeros and Ctrl-C among them, as a bad cable or a probing modem tool sends."""
    return bytes(rng.choice((0, 3, rng.randrange(256))) for _ in range(size))


class Watch:
    """What the session side is told: snapshots handed on and the link's status changes."""

    def __init__(self) -> None:
        self.snapshots: list[Snapshot] = []
        self.statuses: list[tuple[LinkStatus, str]] = []

    def status(self, status: LinkStatus, reason: str) -> None:
        self.statuses.append((status, reason))


@pytest.fixture(params=BOARDS)
def table(request: pytest.FixtureRequest) -> Iterator[tuple[Table, Watch]]:
    board = load_board(request.param)
    game = registry.make(board.game)
    session = make_session(game, board, opponent=None, settings=Settings(ai_side=None), journal_path=None)
    watch = Watch()
    with Rig(board, seed=3) as rig:
        with rig.lock:
            rig.virtual.set_position(game.cells(session.position))
        expect = Expectation(board=board.id, rows=board.sensor.rows, cols=board.sensor.cols)
        link = DeviceLink(
            rig.port, expect=expect, silence_timeout=SILENCE_S, backoff=(0.05, 0.2),
            on_snapshot=watch.snapshots.append,
        )  # fmt: skip
        with link:
            link.wait_ready(10)
            leds: LedStrip = LinkStrip(link, board.leds) if board.leds.driver == LED_PICO else rig.leds
            play = BoardPlay(session, board, SensorModel(board), leds)
            loop = LiveLoop(play, link, rig.buttons)
            loop.link_listeners.append(watch.status)
            try:
                yield Table(game, board, session, play, link, loop, SimulatedReach(rig)), watch
            finally:
                session.close()
                if isinstance(leds, LinkStrip):
                    leds.close()


def _serve_until(table: Table, condition: Callable[[], bool], what: str) -> None:
    """Serve the board (the loop must not stop by itself) until condition() holds."""
    deadline = time.monotonic() + RECOVER_S
    table.loop.run(until=lambda: condition() or time.monotonic() > deadline)
    assert not table.loop.stop.is_set(), "the live loop stopped"
    link = table.link
    assert condition(), f"{what}: not within {RECOVER_S} s (link {link.status}: {link.status_reason})"


def _lit_as_wanted(table: Table) -> bool:
    """The Pico's strip shows the frame the session last wrote (always so for the Pi's own LEDs)."""
    if table.board.leds.driver != LED_PICO:
        return True
    assert table.reach is not None and table.play.last_frame is not None
    return table.reach.rig.firmware.leds == OutputShaper(table.board.leds).shape(table.play.last_frame)


def _back(table: Table, accepted: int) -> Callable[[], bool]:
    loop, link = table.loop, table.link
    return lambda: (
        link.accepted > accepted and loop.link_status is LinkStatus.CONNECTED and _lit_as_wanted(table)
    )


def test_noise_restarts_and_unplugging_never_stop_the_game(table: tuple[Table, Watch]) -> None:
    table_, watch = table
    rig, link = table_.reach.rig, table_.link
    assert rig is not None
    firmware = rig.firmware
    rng = random.Random(11)
    # The first reading as well as the first LEDs: a board whose LEDs hang off the Pi may light them
    # before the Pico's first STATE has arrived.
    _serve_until(
        table_,
        lambda: table_.play.last_frame is not None and _lit_as_wanted(table_) and link.latest is not None,
        "first LEDs and reading",
    )
    assert link.latest is not None
    board_before = link.latest.values
    seen = len(watch.snapshots)

    for _ in range(5):  # noise bursts towards the host and towards the device, between the frames
        firmware.inject(_noise(rng, 300))
        firmware.inject_to_device(_noise(rng, 300))
        table_.loop.step()
    accepted = link.accepted
    loop = table_.loop
    connected = lambda: loop.link_status is LinkStatus.CONNECTED  # noqa: E731
    _serve_until(table_, lambda: connected() and _lit_as_wanted(table_), "after noise")

    noticed = (link.stats.boots, link.stats.reconnects)
    firmware.restart()
    _serve_until(table_, _back(table_, accepted), "after a firmware restart")
    # Noticed as a new boot id (its HELLO: accepted afresh at once, too soon for the loop to say
    # "board disconnected") or, when the boot outlasts the silence timeout, as a line given up.
    assert (link.stats.boots, link.stats.reconnects) != noticed  # and connected again (_back)

    accepted = link.accepted
    firmware.unplug()
    _serve_until(table_, lambda: loop.link_status is LinkStatus.DISCONNECTED, "unplugging noticed")
    assert watch.statuses[-1][0] is LinkStatus.DISCONNECTED
    firmware.plug_in()
    _serve_until(table_, _back(table_, accepted), "after plugging the Pico in again")
    assert watch.statuses[-1] == (LinkStatus.CONNECTED, "")

    false = [s.values for s in watch.snapshots[seen:] if s.values != board_before]
    assert false == [], "snapshots of a board that was never there"
    assert table_.play.bad_snapshots == 0

    person = Person(table_, seed=5)
    game, session = table_.game, table_.session
    person.make(game.legal_moves(session.position)[0])
    assert len(session.moves) == 1  # the game goes on


class Strip:
    """The colours the simulated Pico's strip shows, as its LED pipe reports them."""

    def __init__(self) -> None:
        self.shown: list[Rgb] | None = None
        self._changed = threading.Condition()

    def __call__(self, colours: list[Rgb]) -> None:
        with self._changed:
            self.shown = colours
            self._changed.notify_all()

    def wait_for(self, colours: list[Rgb], timeout: float = 10.0) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: self.shown == colours, timeout)


def test_lost_acks_are_retried_and_the_newest_frame_wins() -> None:
    # Every third frame from the device is lost on the way (an ACK among them, sooner or later).
    strip = Strip()
    with (
        FirmwareProcess(CONFIG, on_leds=strip) as firmware,
        DeviceLink(firmware.port, open_serial=lambda path: LossySerial(open_exclusive(path))) as link,
    ):
        link.wait_ready(10)
        sender = LedSender(link, ack_timeout=0.2)
        try:
            frames = [[(i, 2 * i, 3 * i), (0, 0, i), (i, 0, 0), (1, 1, 1)] for i in range(40)]
            for frame in frames:
                sender.show(frame)  # returns at once: a frame still waiting is replaced
            assert strip.wait_for(frames[-1]), strip.shown
            for frame in frames[:8]:
                sender.show(frame)
                assert strip.wait_for(frame), (strip.shown, sender.problem)
            assert sender.wait_shown(10)
            assert sender.resends > 0
        finally:
            sender.close()


def test_a_frame_the_device_refuses_is_reported_not_retried() -> None:
    with FirmwareProcess(CONFIG) as firmware, DeviceLink(firmware.port) as link:
        link.wait_ready(10)
        sender = LedSender(link)
        try:
            sender.show([(9, 9, 9)] * 5)  # the device drives 4
            assert sender.wait_shown(5)
            assert sender.problem == "LEDs 0..4 do not exist: the board has 4" and firmware.leds is None
            with pytest.raises(ValueError, match="LED 1: colour"):
                sender.show([(0, 0, 0), (0, 0, 256)])
        finally:
            sender.close()


def test_showing_never_waits_for_the_device() -> None:
    # With the firmware powered off, show() still returns at once and the frame waits for the next boot.
    strip = Strip()
    with (
        FirmwareProcess(CONFIG, on_leds=strip) as firmware,
        DeviceLink(firmware.port, silence_timeout=0.5) as link,
    ):
        link.wait_ready(10)
        sender = LedSender(link)
        try:
            firmware.kill()
            worker = threading.Thread(target=lambda: [sender.show([(i, i, i)] * 4) for i in range(100)])
            worker.start()
            worker.join(timeout=5)
            assert not worker.is_alive()
            firmware.restart()
            assert strip.wait_for([(99, 99, 99)] * 4, 15), strip.shown
        finally:
            sender.close()
