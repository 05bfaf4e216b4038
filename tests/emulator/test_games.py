"""A game on every board build through the real pipeline with the firmware on the emulated Pico:
virtual board -> emulated GPIOs and ADC -> MicroPython's rp2 port -> USB CDC on a pseudo-terminal
-> pyserial link -> tracker -> session -> LEDs (over the link to the Pico's NeoPixels on the
Pico-LED build, decoded back from its data pin).

Each game has a mistake put right (a piece the person knocks off its cell or a stray object
put down, shown as wrong, then undone), a take-back by hand after the AI replied, then play on
against the AI."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engines.physical import Thing
from host.hardware.sensing import SensorModel
from host.hardware.spec import LED_PICO
from host.reach.diff import hand_actions
from host.session.ai_opponent import AiOpponent
from host.session.intent import Kind
from host.session.lights import Blink
from host.session.session import Settings
from host.sim.emulated_pico import EmulatedPico
from host.sim.rig import EMULATED_SLOWDOWN, MirroredStrip
from host.store.games import read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import Table, open_table
from tests.pipeline.player import Person

# (game, board, plies played on after the take-back)
CASES = [
    ("kingofrings", "kingofrings-hall", 8),
    ("kingofrings", "kingofrings-reed", 8),
    ("desdemona", "desdemona-hall", 8),
    ("desdemona", "desdemona-reed", 8),
    ("spacetiles", "spacetiles-hall", 8),
    ("spacetiles", "spacetiles-reed", 8),
    ("flipfour", "flipfour-hall", 8),
    ("flipfour", "flipfour-reed", 6),  # fewer: a turn quicker than its scan can stall a long game
    ("go7", "go7-hall", 8),
    ("amazons", "amazons-hall", 8),
]
# A hand's step on boards where a move may leave a square reading as before (an amazon shooting its arrow
# back onto the square it left, on reeds or for Black on Hall): the emulated Pico, several times slower than
# a Pico and slower still on a loaded machine, must see the square empty in between.
STEP_MS = {"amazons-hall": 250}


def readings(model: SensorModel, cells: Mapping[str, Any]) -> dict[str, Any]:
    return {name: model.reading_of(tuple(stack)) for name, stack in cells.items()}


def a_mistake(table: Table) -> dict[str, tuple[Thing, ...]]:
    """The board after a wrong action that no order of hands can turn into a move (or a move and
    the AI's reply): a piece put on a cell no legal move changes, or where every cell can change,
    the board filled up, as the sensors tell."""
    game, board, session = table.game, table.board, table.session
    model = SensorModel(board)
    now = {name: tuple(stack) for name, stack in game.cells(session.position).items()}
    seen = readings(model, now)
    told = [seen]
    for move in game.legal_moves(session.position):
        told.append(readings(model, game.cells(game.play(session.position, move))))
    touched = {name for after in told for name in now if after[name] != seen[name]}
    empty = [name for name in sorted(now) if not now[name]]
    for source in sorted(name for name in now if now[name]):
        for target in sorted(set(now) - touched - {source}):
            wrong = {**now, source: now[source][:-1], target: now[target] + now[source][-1:]}
            if readings(model, wrong)[target] != seen[target]:
                return wrong
    # Where every cell can change: an object on every empty cell, more than a move and the AI's
    # reply could put down.
    most = max(sum(after[name] != seen[name] for name in now) for after in told)
    thing = next(
        (Thing(kind, colour),)
        for kind, spec in sorted(board.objects.items())
        for colour in spec.role.colours
        if model.reading_of((Thing(kind, colour),)) != model.reading_of(())
    )
    if len(empty) > 2 * most:
        return {**now, **{name: thing for name in empty}}
    raise AssertionError(f"no wrong action on {board.id} that its sensors can tell")


def put_right(person: Person, wrong: dict[str, tuple[Thing, ...]]) -> None:
    table = person.table
    session, game = table.session, table.game
    right = game.cells(session.position)

    def shown() -> bool:
        return any(light.blink is Blink.FAST for light in session.scene.values())

    person.act(hand_actions(game, right, wrong, person.rng))
    person.serve(30.0, until=shown)
    assert session.intent.kind is Kind.MISTAKE
    assert shown(), "the mistake is not shown"
    person.act(hand_actions(game, wrong, right, person.rng))
    # Clearing a filled board passes through a legal move (its last piece) that may be committed, and
    # then taken back as the board shows the position before it.
    person.serve(30.0, until=lambda: not shown() and session.moves == [])
    assert not shown() and session.moves == []


def pico_frames_match_the_session(table: Table) -> None:
    """The frames the Pico's NeoPixels showed are the session's, in order, colour for colour, ending on
    the session's last one.  The LED sender sends the newest frame (one the Pico had no time for is
    skipped) and sends a frame again when its ACK was lost, so a frame may show twice in a row."""
    rig, strip = table.reach.rig, table.play.leds
    assert rig is not None and isinstance(rig.firmware, EmulatedPico) and isinstance(strip, MirroredStrip)
    pico = rig.firmware
    Person(table).serve(10.0 * EMULATED_SLOWDOWN, until=lambda: strip.idle)
    session_frames = [shown.output for shown in rig.leds.frames]
    Person(table).serve(
        10.0 * EMULATED_SLOWDOWN,
        until=lambda: bool(pico.led_frames) and tuple(pico.led_frames[-1][1]) == tuple(session_frames[-1]),
    )
    shown = [tuple(colours) for _t, colours in pico.led_frames]
    distinct = [frame for i, frame in enumerate(shown) if i == 0 or frame != shown[i - 1]]
    at = 0
    for frame in distinct:
        at = session_frames.index(frame, at)  # ValueError: the Pico showed a frame the session never sent
    assert distinct[-1] == session_frames[-1]


@pytest.mark.parametrize(("game_id", "board_id", "plies"), CASES)
def test_a_game_on_the_emulated_pico(tmp_path: Path, game_id: str, board_id: str, plies: int) -> None:
    rng = random.Random(11)
    journal = tmp_path / "game.journal"
    ai = AiOpponent(level=2, nodes=30, seed=1)
    hardware = SimulatedHardware(emulated=True)
    with open_table(
        game_id, hardware, board_id=board_id, opponent=ai, settings=Settings(ai_side=1), journal_path=journal
    ) as table:
        person = Person(table, seed=5, step_ms=STEP_MS.get(board_id, 80))
        session, game = table.session, table.game
        person.serve(0.5)
        put_right(person, a_mistake(table))
        assert session.moves == []
        start = game.cells(session.position)
        person.make(rng.choice(game.legal_moves(session.position)))
        person.carry_out_ai_move_if_any()
        assert len(session.moves) == 2
        person.act(
            hand_actions(game, game.cells(session.position), start, person.rng)
        )  # take both back by hand
        person.serve(30.0, until=lambda: session.moves == [])
        assert session.moves == []
        while not game.is_over(session.position) and len(session.moves) < plies:
            person.make(rng.choice(game.legal_moves(session.position)))
            person.carry_out_ai_move_if_any()
        assert table.play.bad_snapshots == 0
        moves = list(session.moves)
        if table.board.leds.driver == LED_PICO:
            pico_frames_match_the_session(table)
    assert moves, "no move was committed"
    (stored,) = read_games(journal)
    assert stored.moves == moves
