"""GTP's text, from the protocol's specification (GTP 2, sections 2.4-2.6, 3.6), by hand."""

from __future__ import annotations

import pytest

from host.peers.gtp.protocol import GtpError, Reader, Response, command


def feed_all(lines: list[str]) -> list[Response]:
    reader = Reader()
    return [r for r in (reader.feed(line) for line in lines) if r is not None]


def test_a_success_ends_at_the_empty_line() -> None:
    assert feed_all(["= C3\n", "\n"]) == [Response(True, "C3")]


def test_a_failure_keeps_its_reason() -> None:
    assert feed_all(["? illegal move\n", "\n"]) == [Response(False, "illegal move")]


def test_an_id_and_carriage_returns_and_tabs_are_read_away() -> None:
    assert feed_all(["=12 D4\r\n", "\r\n"]) == [Response(True, "D4")]
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
    assert command("komi", 7.5) == "komi 7.5\n"
    with pytest.raises(ValueError, match="one line"):
        command("play", "black\nquit")
