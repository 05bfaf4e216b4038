"""A person's hands are not a robot's: slides, knocks, mistakes, take-backs and power cuts,
through the full simulated pipeline (virtual board, real firmware, serial link, tracker, session)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import AbstractContextManager
from pathlib import Path

from host.reach.script import parse
from host.session.ai_opponent import AiOpponent
from host.session.intent import Kind
from host.session.session import Settings
from host.store.games import read_games
from host.wiring.hardware import SimulatedHardware
from host.wiring.table import Table, open_table
from tests.conftest import ROOT
from tests.pipeline.player import Person


def do(person: Person, text: str) -> None:
    person.act(parse(text, set(person.game.geometry.names)))
    person.serve(0.5)


def humans(board: str = "desdemona-hall", journal: Path | None = None) -> AbstractContextManager[Table]:
    """Two people at a simulated Desdemona board."""
    return open_table(
        "desdemona",
        SimulatedHardware(),
        board_id=board,
        settings=Settings(ai_side=None),
        journal_path=journal,
    )


def test_a_piece_knocked_over_and_put_back_changes_nothing() -> None:
    with humans("desdemona-reed") as table:
        person = Person(table)
        # d10 stood empty for a settled time while a4 was off too, then read as before: on reeds it could
        # hold another object now (issue 25 item 14), so a4-a6 waits for the player's Confirm.
        do(person, "lift a4\nlift d10\nwait 400\nplace d10 queen:0\nplace a6")
        assert table.session.moves == [] and table.session.intent.kind is Kind.CONFIRM
        do(person, "press confirm")
        assert table.session.moves == ["a4-a6"]
        do(person, "lift j4\nwait 300\nplace j4 queen:1")  # knocked while nobody moves
        assert table.session.moves == ["a4-a6"] and table.session.scene == {}


def test_an_illegal_move_is_shown_and_can_be_corrected() -> None:
    with humans() as table:
        person = Person(table)
        do(person, "lift a4\nplace b6\nwait 300")
        scene = table.session.scene
        assert (
            scene["b6"].meaning.value == "lift" and scene["b6"].blink.value == "fast"
        )  # take it from here...
        assert scene["a4"].meaning.value == "put"  # ...back to here
        assert table.session.moves == []
        do(person, "lift b6\nplace a4\nwait 300\nlift a4\nplace a6")
        assert table.session.moves == ["a4-a6"]


def test_take_back_by_hand_and_by_button(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite3"
    with humans(journal=journal) as table:
        person = Person(table)
        do(person, "lift a4\nplace a6")
        do(person, "lift a7\nplace a8\nplace a7 stone:0")
        assert table.session.moves == ["a4-a6", "a7-a8/a7"]
        do(person, "remove a7\nlift a8\nplace a7")  # White's move undone by hand
        assert table.session.moves == ["a4-a6"]
        do(person, "press take_back\nwait 300")
        assert table.session.moves == []
        assert (
            table.session.scene["a6"].meaning.value == "lift"
            and table.session.scene["a4"].meaning.value == "put"
        )
        do(person, "lift a6\nplace a4")
        assert table.session.scene == {}
    assert read_games(journal)[-1].moves == []


def test_with_the_ai_a_take_back_restores_the_position_before_your_move() -> None:
    with open_table(
        "flipfour", SimulatedHardware(), opponent=AiOpponent(level=2, nodes=30), settings=Settings(ai_side=1)
    ) as table:
        person = Person(table)
        session, game = table.session, table.game
        person.make(game.parse_move(session.position, "c3"))
        person.carry_out_ai_move()
        assert len(session.moves) == 2
        before = game.cells(game.start())
        after = game.cells(session.position)
        removals = "\n".join(f"remove {c}" for c in game.geometry.names if after[c] != before[c])
        do(person, removals)
        assert session.moves == []


def test_a_power_cut_loses_no_committed_move(tmp_path: Path) -> None:
    """Kill `magboard play` the moment a move is committed; the next run resumes with it."""
    journal = tmp_path / "games.sqlite3"
    script = tmp_path / "script.txt"
    script.write_text("lift a4\nplace a6\nwait 200\nlift a7\nplace a8\nplace a7 stone:0\nwait 5000\n")
    command = [sys.executable, "-m", "host", "play", "desdemona", "--humans", "--terminal", "--journal"]
    command.append(str(journal))
    proc = subprocess.Popen(
        [*command, "--script", str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    committed = []
    deadline = time.monotonic() + 60
    while len(committed) < 2 and time.monotonic() < deadline:
        event = json.loads(proc.stdout.readline())
        if event["event"] == "commit":
            committed.append(event["move"])
    os.killpg(proc.pid, signal.SIGKILL)  # the power goes: host, firmware, everything
    proc.wait()
    assert committed == ["a4-a6", "a7-a8/a7"]
    assert read_games(journal)[-1].moves == committed
    resumed = subprocess.run(
        [*command], cwd=ROOT, input="quit\n", capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "moves: a4-a6 a7-a8/a7" in resumed.stdout
