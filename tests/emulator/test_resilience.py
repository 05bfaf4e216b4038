"""The emulated Pico in a game survives what a real one meets: a power cut and reboot, and a
burst of noise on the USB serial line both ways (Ctrl-C and Ctrl-D among it)."""

from __future__ import annotations

import os

from host.session.session import Settings
from host.sim.rig import EMULATED_SLOWDOWN, READY_S
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import open_table
from tests.pipeline.player import Person

WAIT_S = READY_S * EMULATED_SLOWDOWN
HUMANS = Settings(ai_side=None)


def test_a_power_cut_mid_game_loses_nothing_and_the_game_goes_on() -> None:
    with open_table(
        "flipfour",
        SimulatedHardware(emulated=True),
        board_id="flipfour-hall",
        settings=Settings(ai_side=None),
    ) as t:
        person = Person(t)
        game, session, link = t.game, t.session, t.link
        person.make(game.parse_move(session.position, "c3"))
        assert link.device is not None and t.reach is not None
        first = link.device.boot_id
        t.reach.rig.firmware.restart()  # the power goes and comes back; the port stays
        person.serve(WAIT_S, until=lambda: link.device is not None and link.device.boot_id != first)
        assert link.device is not None and link.device.boot_id != first
        assert session.moves == ["c3"]
        person.make(game.legal_moves(session.position)[0])
        assert len(session.moves) == 2 and t.play.bad_snapshots == 0


def test_a_noise_burst_both_ways_is_survived_without_a_restart() -> None:
    with open_table(
        "desdemona",
        SimulatedHardware(emulated=True),
        board_id="desdemona-reed",
        settings=Settings(ai_side=None),
    ) as t:
        person = Person(t)
        game, session, link, rig = t.game, t.session, t.link, t.reach.rig
        assert link.device is not None and rig is not None
        boot = link.device.boot_id
        # Towards the Pico: Ctrl-C, Ctrl-D, Ctrl-A and garbage through a second handle on the port.
        fd = os.open(rig.port, os.O_WRONLY | os.O_NOCTTY)
        try:
            os.write(fd, b"\x03\x03\x04\x01garbage\x00\xff\x03" * 20 + b"\x03\x00")
        finally:
            os.close(fd)
        # Towards the host: noise in the middle of the Pico's frames.
        for _ in range(5):
            rig.firmware.inject(b"\x00\x7fnoise\x03\x01\x00" + os.urandom(40))
        person.make(game.parse_move(session.position, "a4-a6"))
        assert session.moves == ["a4-a6"]
        person.serve(WAIT_S, until=lambda: link.heartbeat is not None and link.heartbeat.rx_rejected > 0)
        assert link.heartbeat is not None and link.heartbeat.rx_rejected > 0  # the Pico saw the garbage
        assert link.stats.bad_frames > 0  # and the host the noise
        assert link.device is not None and link.device.boot_id == boot  # neither stopped the scanner
        assert t.play.bad_snapshots == 0
