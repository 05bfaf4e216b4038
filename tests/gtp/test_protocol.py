"""GTP's text, from the protocol's specification (GTP 2, sections 2.4-2.6, 3.6), by hand."""

from __future__ import annotations

import pytest

from host.peers.gtp.protocol import MAX_RESPONSE_LINES, GtpError, Reader, Response, command


def feed_all(lines: list[str]) -> list[Response]:
    reader = Reader()
    return [r for r in (reader.feed(line) for line in lines) if r is not None]


def test_a_success_ends_at_the_empty_line() -> None:
    assert feed_all(["= C3\n", "\n"]) == [Response(True, "C3")]


def test_a_failure_keeps_its_reason() -> None:
    assert feed_all(["? illegal move\n", "\n"]) == [Response(False, "illegal move")]


def test_an_id_is_read_and_carriage_returns_and_tabs_are_read_away() -> None:
    assert feed_all(["=12 D4\r\n", "\r\n"]) == [Response(True, "D4", 12)]
    assert feed_all(["?3 unknown command\n", "\n"]) == [Response(False, "unknown command", 3)]
    assert feed_all(["=\tpass\n", "\n"]) == [Response(True, "pass")]


def test_a_response_of_several_lines_keeps_them() -> None:
    lines = ["= boardsize\n", "genmove\n", "quit\n", "\n"]
    assert feed_all(lines) == [Response(True, "boardsize\ngenmove\nquit")]


def test_an_empty_success_and_blank_lines_between_responses() -> None:
    assert feed_all(["=\n", "\n", "\n", "= \n", "\n"]) == [Response(True, ""), Response(True, "")]


def test_a_response_is_not_given_before_its_empty_line() -> None:
    assert feed_all(["= C3\n"]) == []


def test_a_line_that_cannot_begin_a_response_is_garbage() -> None:
    with pytest.raises(GtpError, match="'I am not a Go engine', not a GTP response"):
        feed_all(["I am not a Go engine\n"])


def test_a_command_is_one_printable_line() -> None:
    assert command("play", "black", "D4") == "play black D4\n"
    assert command("genmove", "white", id=7) == "7 genmove white\n"
    assert command("komi", 7.5) == "komi 7.5\n"
    with pytest.raises(ValueError, match="one line"):
        command("play", "black\nquit")


def test_a_response_that_never_ends_is_refused_at_its_bound() -> None:
    """2,000 lines of one response are more than any command asks (GnuGo's list_commands is 190)."""
    reader = Reader()
    reader.feed("= first\n")
    for _ in range(MAX_RESPONSE_LINES - 1):
        assert reader.feed("more\n") is None
    with pytest.raises(GtpError, match=f"more than {MAX_RESPONSE_LINES} lines or 256 KB at once"):
        reader.feed("more\n")
    reader = Reader()
    reader.feed("= first\n")
    with pytest.raises(GtpError, match="256 KB"):
        for _ in range(10):
            reader.feed("x" * 30_000 + "\n")


def test_garbage_is_quoted_by_its_head_and_its_length() -> None:
    with pytest.raises(GtpError) as refused:
        feed_all(["x" * 100_000 + "\n"])
    assert str(refused.value) == f"answered {'x' * 40!r}... (100000 characters), not a GTP response"


def test_an_id_too_long_to_be_ours_is_refused() -> None:
    with pytest.raises(GtpError, match="an id of 30 digits"):
        feed_all(["=" + "9" * 30 + " D4\n"])
