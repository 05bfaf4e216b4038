"""What an engine says is bounded and shown safely: stderr without newlines and an answer without end
hold no more than a bounded amount of memory, an answer too many is named as such, its messages and its
name are one printable line, and a message quotes only the head of a hostile answer, with its length.

The engine is tests/gtp/fake_engine.py, misbehaving at its first genmove (or from its start)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engines.go7.rules import Go7
from host.peers.gtp.engine import STDERR_KEPT, GtpEngine
from host.peers.gtp.game import GtpGame
from host.peers.gtp.opponent import EngineOpponent
from host.peers.gtp.protocol import GtpError
from host.session.ai_opponent import AiOpponent
from host.store.games import read_games
from tests.conftest import run_cli
from tests.gtp.test_engine_faults import MARGIN_S, SECONDS, fake

GAME = Go7()
LONG_S = 600.0  # a move's time so long that only a bound, never the deadline, can end an answer
FLOOD_S = 2.0


def rss_bytes() -> int:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * 4096


def test_stderr_without_newlines_is_kept_bounded_while_the_game_goes_on() -> None:
    table = GtpGame(GtpEngine(fake("flood")), GAME, SECONDS, MARGIN_S)
    try:
        before = rss_bytes()
        time.sleep(FLOOD_S)  # at tens of MB a second, kept whole it would grow by 100 MB or more
        grown = rss_bytes() - before
        assert grown < 30 * 1024 * 1024, grown
        assert 0 < len(table.engine._stderr) <= STDERR_KEPT
        assert table.choose(GAME.play_texts(["g7"])) == GAME.parse_move(GAME.start(), "a1")
    finally:
        table.engine.close()


def test_an_answer_without_end_is_refused_at_its_bound_long_before_its_deadline() -> None:
    table = GtpGame(GtpEngine(fake("endless")), GAME, LONG_S, MARGIN_S)
    started = time.monotonic()
    with pytest.raises(GtpError, match="answered more than 2000 lines or 256 KB at once to genmove"):
        table.choose(GAME.play_texts(["g7"]))
    assert time.monotonic() - started < 10
    assert table.engine._process.poll() is not None


def test_an_answer_too_many_is_named_a_surplus() -> None:
    table = GtpGame(GtpEngine(fake("twice")), GAME, SECONDS, MARGIN_S)
    table.choose(GAME.play_texts(["g7"]))  # answered, and answered again
    time.sleep(0.3)  # the second answer is in before the next question
    with pytest.raises(GtpError, match=r"answered once more than it was asked \(command \d+, 'A1'\)"):
        table.choose(GAME.play_texts(["g7", "a1", "b2"]))


def test_the_last_stderr_line_is_said_with_its_escapes_written_out() -> None:
    table = GtpGame(GtpEngine(fake("escapes")), GAME, SECONDS, MARGIN_S)
    with pytest.raises(GtpError) as died:
        table.choose(GAME.play_texts(["g7"]))
    words = str(died.value)
    assert "\x1b" not in words and "\x07" not in words and words.isprintable()
    assert r"(it said: \x1b[2J\x1b]0;owned\x07fake engine: gone)" in words


def test_a_name_of_two_lines_is_one_printable_line() -> None:
    engine = EngineOpponent(fake("twolines"), SECONDS, AiOpponent(level=3, nodes=30, seed=1), MARGIN_S)
    engine.start(GAME)
    try:
        assert engine.name == r"Fake\x0asecond line twolines"
    finally:
        engine.close()


def test_a_game_against_an_engine_of_a_two_line_name_exports_to_a_record_that_imports(tmp_path: Path) -> None:
    journal = tmp_path / "games.sqlite3"
    played = run_cli(
        "play", "go7", "--engine", fake("twolines"), "--seconds", "0.2", "--nodes", "30", "--level", "3",
        "--journal", str(journal), "--terminal", input_text="g7\ndo\nquit\n",
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    (stored,) = read_games(journal)
    assert stored.players[1] == r"Fake\x0asecond line twolines"
    record = tmp_path / "game.txt"
    exported = run_cli("history", "--journal", str(journal), "export", str(stored.id), "-o", str(record))
    assert exported.returncode == 0, exported.stderr
    checked = run_cli("record", "check", str(record))
    assert checked.returncode == 0, checked.stderr + checked.stdout
    other = tmp_path / "other.sqlite3"
    imported = run_cli("history", "--journal", str(other), "import", str(record))
    assert imported.returncode == 0, imported.stderr
    (again,) = read_games(other)
    assert again.players == stored.players and again.moves == stored.moves


def test_a_huge_answer_is_quoted_by_its_head_and_its_length() -> None:
    table = GtpGame(GtpEngine(fake("huge")), GAME, SECONDS, MARGIN_S)
    with pytest.raises(GtpError) as refused:
        table.choose(GAME.play_texts(["g7"]))
    words = str(refused.value)
    assert len(words) < 400 and "(60000 characters)" in words, words[:400]
