"""`magboard play --emulated`: the exact firmware a Pico runs, played on the simulated board."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli


def test_a_scripted_move_is_committed_on_the_emulated_pico(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text("lift a4\nplace a6\nwait 3000\n")
    result = run_cli(
        "play", "desdemona", "--board", "desdemona-reed", "--humans", "--new", "--no-browser", "--terminal",
        "--emulated", "--journal", str(tmp_path / "j"), "--script", str(script),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    commits = [e for e in map(json.loads, result.stdout.splitlines()) if e["event"] == "commit"]
    assert [(e["move"], e["ply"]) for e in commits] == [("a4-a6", 1)]


def test_emulated_and_a_real_board_do_not_mix() -> None:
    result = run_cli("play", "desdemona", "--emulated", "--serial", "/dev/ttyACM0")
    assert result.returncode == 2
    assert result.stderr.strip().endswith(
        "--emulated emulates the simulated board's Pico: leave out --serial"
    )
