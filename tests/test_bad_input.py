"""Bad input to the commands a person types ends in one line and exit status 2, never a traceback or a hang.

Each case was a crash, a hang or a false success before: a script of /dev/zero, a wait longer than
``time.sleep`` takes (a thread's traceback, then exit 0 as if the script had run), an unknown rule
option beside --script, a perft depth deeper than Python's stack, a record or board file that never
ends, a board file of keys nested so deep that reading it took seconds and gigabytes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli


def refused(*args: str, status: int = 2) -> list[str]:
    """The lines said on stderr by a command that fails with ``status`` (`hardware check`: 1, a bad board)."""
    result = run_cli(*args)
    assert result.returncode == status and "Traceback" not in result.stderr, result
    return (result.stdout + result.stderr).splitlines()


def test_a_script_that_never_ends_is_refused(tmp_path: Path) -> None:
    journal = str(tmp_path / "games.sqlite3")
    assert refused("play", "--humans", "--journal", journal, "--script", "/dev/zero") == [
        "magboard play: /dev/zero: cannot read: too large: more than 1 MiB, the most read here"
    ]


@pytest.mark.parametrize("line", ["wait 99999999999999999999999", "step 3600001", "wait ²", "wait -1"])
def test_a_time_no_script_means_is_its_line(tmp_path: Path, line: str) -> None:
    script = tmp_path / "script.txt"
    script.write_text(f"lift a4\n{line}\n")
    journal = str(tmp_path / "games.sqlite3")
    number = line.split()[1]
    expected = f"expected a whole number of milliseconds 0..3600000, got {number!r}"
    assert refused("play", "--humans", "--journal", journal, "--script", str(script)) == [
        f"magboard play: {script}:line 2: {line!r}: {expected}"
    ]


def test_an_unknown_option_beside_a_script_is_one_line(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text("lift a4\n")
    with_script = refused("play", "--option", "bogus", "--humans", "--script", str(script))
    assert (
        len(with_script) == 1 and with_script[0].startswith("magboard play: ") and "bogus" in with_script[0]
    )


def test_a_perft_depth_beyond_the_stack_is_refused() -> None:
    lines = refused("perft", "flipfour", str(10**30))
    assert lines[-1] == f"magboard perft: error: argument depth: expected a depth 0..100, got '{10**30}'"


def test_records_and_board_files_that_never_end_are_refused(tmp_path: Path) -> None:
    assert refused("record", "check", "/dev/zero") == [
        "magboard record: /dev/zero: too large: more than 1 MiB, the most read here"
    ]
    deep = tmp_path / "deep.toml"
    deep.write_text("a" + ".a" * 50_000 + " = 1\n")  # took 16 s and 2.9 GB in tomllib
    lines = refused("hardware", "check", str(deep), status=1)
    assert any(
        "a key of more than 32 dotted parts: no magboard file nests that deep" in line for line in lines
    )
    huge, config = tmp_path / "huge.toml", tmp_path / "config.toml"
    with open(huge, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    config.write_text(f'board = "{huge}"\n')
    assert refused("service", "check", str(config)) == [
        f"magboard service: {config}: board: '{huge}' cannot be used: cannot read: too large: 50 MiB; at most"
        " 1 MiB is read"
    ]


@pytest.mark.parametrize("game", ["desdemona", "amazons", "kingofrings", "flipfour", "go7", "spacetiles"])
def test_a_huge_move_is_quoted_by_its_head_and_its_length(game: str, tmp_path: Path) -> None:
    """A 100 KB move once gave an error line of 200 KB (the move quoted whole, twice)."""
    move = "a" * 100_000
    (line,) = refused("analyse", game, move)
    assert len(line) < 400 and "(100000 characters)" in line, line[:400]
    record = tmp_path / "game.txt"
    record.write_text(f"game: {game}\n\n{move}\n")
    (line,) = refused("record", "check", str(record))
    assert len(line) < 400 and "(100000 characters)" in line, line[:400]
