"""Game records: written, read back, validated and replayed; bad records name their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines import records
from engines.records import RecordError
from tests.conftest import ROOT, run_cli

GOOD = """# a short Desdemona game
game: desdemona
player0: Alice
player1: magboard level 10

a4-a6
a7-a8/a7        # White shoots a Black stone onto a7
"""


def test_a_record_round_trips_and_replays() -> None:
    record = records.parse(GOOD)
    assert record.game == "desdemona" and record.players == ("Alice", "magboard level 10")
    assert record.moves == ["a4-a6", "a7-a8/a7"]
    assert records.parse(record.to_text()) == record
    game, pos = record.replay()
    assert game.score(pos) == (1, 0)


def test_readme_example_is_a_valid_record() -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("    # a short Desdemona game\n", 1)[1].split("\n\n`magboard record check`")[0]
    example = "# a short Desdemona game\n" + "\n".join(line[4:] for line in block.splitlines())
    assert records.parse(example).moves == ["a4-a6", "a7-a8/a7"]


def test_save_is_atomic_and_loads_back(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    records.save(records.parse(GOOD), path)
    assert records.load(path).moves == ["a4-a6", "a7-a8/a7"]
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("player0: x\n\na4-a6\n", 1, "no 'game: ID' header"),
        ("game: chess\na4-a6\n", 1, "unknown game 'chess'"),
        ("game: desdemona\n\na4-a6\na7-a8\n", 4, "ply 2: move 'a7-a8': not legal here"),
        ("game: desdemona\n\na4-a6\n# fine\nzz\n", 5, "ply 2: move 'zz': expected"),
        ("game: desdemona\ngame: desdemona\n", 2, "header 'game' given twice"),
        ("game: desdemona\n\na4-a6\nplayer1: late\n", 4, "header line 'player1: late' after the first move"),
        ("game: desdemona\noptions: empty_steps\n", 2, "unknown option 'empty_steps'"),
    ],
)
def test_bad_records_name_the_line_and_reason(text: str, line: int, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        records.parse(text)
    assert info.value.line == line
    assert reason in info.value.reason


def test_record_check_command_reports_a_corrupted_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(GOOD.replace("a7-a8/a7", "a7-a8/a6"))
    result = run_cli("record", "check", str(path))
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"magboard record: {path}:7: ply 2: move 'a7-a8/a6': not legal here: "
        "a6 is not an empty square the moved queen could reach"
    ]
    assert "Traceback" not in result.stderr


def test_record_check_on_binary_and_missing_files(tmp_path: Path) -> None:
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00game")
    result = run_cli("record", "check", str(binary))
    assert result.returncode == 2 and "not a text file" in result.stderr
    result = run_cli("record", "check", str(tmp_path / "missing.txt"))
    assert result.returncode == 2 and "No such file" in result.stderr


def test_record_replay_prints_the_final_position(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text(GOOD)
    result = run_cli("record", "replay", str(path))
    assert result.returncode == 0, result.stderr
    assert '"score": [1, 0]' in result.stdout and '"to_move": 0' in result.stdout
