"""The three gates for outside input: whole numbers, text shown on a terminal, files read and written."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from host.cli import main
from host.files import FileProblem, read_bytes, read_text, write_text
from host.numbers import integer, whole
from host.shown import is_unsafe, quoted, shown


@pytest.mark.parametrize(
    ("text", "number"),
    [("7", 7), ("+3", 3), ("-0", 0), ("007", 7), ("9" * 18, int("9" * 18))]
    + [
        (bad, None)
        for bad in ("²", "٣", "７", " 7", "7 ", "7\n", "1_000", "0x10", "1e3", "", "+", "9" * 19, "9" * 5000)
    ],
)
def test_a_number_is_ascii_digits_and_nothing_else(text: str, number: int | None) -> None:
    assert integer(text) == number


def test_a_number_out_of_its_range_says_what_was_expected() -> None:
    assert whole("12", 1, 12, "a month") == 12
    with pytest.raises(ValueError, match=r"^expected a month 1\.\.12, got '13'$"):
        whole("13", 1, 12, "a month")
    with pytest.raises(ValueError, match=r"^expected a whole number 0\.\.5, got '9{37}\.\.\.'$"):
        whole("9" * 5000, 0, 5)


def test_text_a_terminal_would_act_on_is_shown_escaped() -> None:
    name = "Al\x1b[2J\x07ice\x9b31m \u202egnp.exe\u2066 é ñ 名前\nforged line\r\x00\udcff"
    assert shown(name) == (
        "Al\\x1b[2J\\x07ice\\x9b31m \\u202egnp.exe\\u2066 é ñ 名前\\x0aforged line\\x0d\\x00\\udcff"
    )
    assert shown("Ann - Bo (level 4)") == "Ann - Bo (level 4)"
    assert all(ord(c) >= 0x20 and c not in "\x7f\u202e" for c in shown(name))
    assert quoted("\x1b" * 100) == repr("\x1b" * 37 + "...")


def test_a_regular_file_is_read_up_to_its_limit(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 1000)
    assert read_bytes(path, 1000) == b"x" * 1000
    with pytest.raises(FileProblem, match=r": too large: 1000 bytes; at most 999 bytes is read$"):
        read_bytes(path, 999)
    with pytest.raises(FileProblem, match=r"is a directory, not a file"):
        read_bytes(tmp_path, 1000)
    path.write_bytes(b"\xffgame")
    with pytest.raises(FileProblem, match=r"not a text file \(not UTF-8: invalid start byte at byte 0\)"):
        read_text(path, 1000)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_that_never_ends_is_read_up_to_the_limit(device: str) -> None:
    with pytest.raises(FileProblem, match=r"too large: more than 64 KiB, the most read here"):
        read_bytes(Path(device), 64 * 1024)
    assert read_bytes(Path("/dev/null"), 10) == b""


def test_a_fifo_is_read_within_its_time(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(FileProblem, match=r"did not end within 0.3 s \(a FIFO or a device\?\)"):
        read_bytes(fifo, 1000, timeout=0.3)  # no writer ever comes
    assert time.monotonic() - started < 3

    def writer(close: bool) -> None:
        fd = os.open(fifo, os.O_WRONLY)
        os.write(fd, b"game: desdemona\n")
        if close:
            os.close(fd)
        else:
            time.sleep(1.0)
            os.close(fd)

    thread = threading.Thread(target=writer, args=(True,))
    thread.start()
    assert read_bytes(fifo, 1000, timeout=5) == b"game: desdemona\n"
    thread.join()
    thread = threading.Thread(target=writer, args=(False,))
    thread.start()
    with pytest.raises(FileProblem, match=r"did not end within 0\.3 s"):
        read_bytes(fifo, 1000, timeout=0.3)  # a writer that never finishes
    thread.join()


def test_a_write_replaces_a_regular_file_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "record.txt"
    write_text(path, "first\n")
    assert path.read_text() == "first\n"
    path.chmod(0o600)
    write_text(path, "second\n")
    assert path.read_text() == "second\n" and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["record.txt"]  # no temporary file left behind


def test_a_write_never_replaces_what_is_not_a_regular_file(tmp_path: Path) -> None:
    target = tmp_path / "target.txt"
    target.write_text("kept\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "nowhere.txt")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = {
        link: "is a symbolic link: name the file itself (nothing was written)",
        dangling: "is a symbolic link: name the file itself (nothing was written)",
        fifo: "is a FIFO, not a regular file (nothing was written)",
        tmp_path: "is a directory, not a regular file (nothing was written)",
        Path("/dev/null"): "is a character device, not a regular file (nothing was written)",
    }
    for path, reason in cases.items():
        with pytest.raises(FileProblem) as refused:
            write_text(path, "record\n")
        assert refused.value.strerror == reason
    assert link.is_symlink() and target.read_text() == "kept\n"
    assert dangling.is_symlink() and not (tmp_path / "nowhere.txt").exists()
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.txt", "fifo", "link.txt", "target.txt"]


@pytest.mark.parametrize(
    "argv",
    [
        ["history", "show", "1", "-\x1b[2J"],  # left over: 'unrecognized arguments'
        ["history", "show", "\x1b]0;owned\x07"],  # a bad game number
        ["perft", "desdemona", "\u202e1"],  # a bad depth
    ],
)
def test_a_command_line_error_shows_the_arguments_escaped(argv: list[str], capsys: Any) -> None:
    """argparse echoes what was typed; the message must not be a terminal escape sequence."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and not any(is_unsafe(c) for c in err.replace("\n", "")), err
