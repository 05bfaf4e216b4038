"""`magboard history`: list, show, export as a record `magboard record check` accepts, import a record."""

from __future__ import annotations

import contextlib
import json
import os
import random
import stat
import subprocess
import time
from pathlib import Path

import pytest

from engines import registry
from host.gamearg import state_json
from host.store.games import read_games
from host.store.recorder import GameRecorder
from tests.conftest import ROOT, run_cli

CASES = [("desdemona", ()), ("flipfour", ()), ("spacetiles", ()), ("kingofrings", ("empty_steps",))]


def history(store: Path, *args: str) -> str:
    result = run_cli("history", "--journal", str(store), *args)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result.stdout


def play_randomly(store: Path, game_id: str, options: tuple[str, ...], seed: int) -> GameRecorder:
    recorder = GameRecorder.open(
        store, registry.make(game_id, options), board=f"{game_id}-hall", players=("Ann", "Bo")
    )
    rng = random.Random(seed)
    while not recorder.game.is_over(recorder.positions[-1]) and len(recorder.moves) < 80:
        recorder.move(rng.choice(recorder.game.legal_texts(recorder.positions[-1])))
    recorder.close()
    return recorder


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_every_exported_game_is_a_record_that_replays_to_the_stored_position(
    tmp_path: Path, game_id: str, options: tuple[str, ...]
) -> None:
    store = tmp_path / "games.sqlite3"
    played = play_randomly(store, game_id, options, seed=3)
    exported = tmp_path / "game.txt"
    assert (
        history(store, "export", "1", "--output", str(exported))
        == f"{exported}: game 1, {len(played.moves)} moves\n"
    )
    assert history(store, "export", "1") == exported.read_text()
    check = run_cli("record", "check", str(exported))
    assert check.stdout == f"{exported}: {game_id}, {len(played.moves)} moves, valid\n", check.stderr
    replay = run_cli("record", "replay", str(exported))
    assert json.loads(replay.stdout) == state_json(played.game, played.positions[-1])


def test_list_and_show(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    assert history(store, "list") == f"no games in {store} yet\n"
    finished = play_randomly(store, "flipfour", (), seed=1)
    assert finished.game.is_over(finished.positions[-1])
    recorder = GameRecorder.open(
        store, registry.make("desdemona"), board=None, players=("human", "magboard level 4")
    )
    recorder.move("a4-a6")
    recorder.new_game()
    recorder.close()
    lines = history(store, "list").splitlines()
    outcome = finished.game.outcome(finished.positions[-1])
    assert outcome is not None
    result = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[outcome.winner]
    assert [line.split()[0] for line in lines] == ["1", "2", "3"]
    assert lines[0].endswith(f"flipfour  {len(finished.moves)} moves  {result}  Ann - Bo")
    assert lines[1].endswith("desdemona  1 move  abandoned  human - magboard level 4")
    assert lines[2].endswith("desdemona  0 moves  playing  human - magboard level 4")
    shown = history(store, "show", "2").splitlines()
    assert shown[:2] == ["game 2: desdemona", "players: human - magboard level 4"]
    assert shown[4].startswith("   1. a4-a6 ")
    game = registry.make("desdemona")
    assert "\n".join(shown[5:]) == game.render(game.play_texts(["a4-a6"]))


def test_a_record_is_imported_once(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    record = tmp_path / "record.txt"
    record.write_text("# a game by hand\ngame: desdemona\nplayer0: Alice\nplayer1: Bob\n\na4-a6\na7-a8/a7\n")
    assert history(store, "import", str(record)) == f"{record}: imported, games 1\n"
    assert history(store, "import", str(record)) == f"{record}: imported before (games 1)\n"
    assert history(store, "export", "1") == (
        "game: desdemona\nplayer0: Alice\nplayer1: Bob\nstatus: abandoned\n\na4-a6\na7-a8/a7\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("show", "7"), "{store}: no game 7 (see `magboard history list`)"),
        (("export", "7"), "{store}: no game 7 (see `magboard history list`)"),
        (("import", "{missing}"), "{missing}: cannot read: no such file or directory"),
        (
            ("import", "{bad}"),
            "{bad}: line 3: ply 1: move 'a4-a9': not legal here: the queen on a4 cannot reach a9",
        ),
    ],
)
def test_mistakes_are_one_line(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    store, missing, bad = tmp_path / "games.sqlite3", tmp_path / "missing.txt", tmp_path / "bad.txt"
    bad.write_text("game: desdemona\n\na4-a9\n")
    names = {"store": store, "missing": missing, "bad": bad}
    result = run_cli("history", "--journal", str(store), *(a.format(**names) for a in args))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"magboard history: {message.format(**names)}\n"


def test_mistakes_with_unbounded_files_are_one_line(tmp_path: Path) -> None:
    store, huge = tmp_path / "games.sqlite3", tmp_path / "huge.txt"
    with open(huge, "wb") as f:
        f.truncate(50 * 1024 * 1024)  # 50 MiB of zeros, sparse
    for path, reason in (
        (huge, "too large: 50 MiB; at most 16 MiB is read"),
        (Path("/dev/zero"), "too large: more than 16 MiB, the most read here"),
        (Path("/dev/urandom"), "too large: more than 16 MiB, the most read here"),
    ):
        result = run_cli("history", "--journal", str(store), "import", str(path))
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr == f"magboard history: {path}: cannot read: {reason}\n"
    big_record = tmp_path / "big.txt"
    big_record.write_text("game: desdemona\n" + "# padding\n" * 200_000)
    result = run_cli("history", "--journal", str(store), "import", str(big_record))
    assert result.stderr == f"magboard history: {big_record}: longer than 1024 KiB: not a game record\n"
    assert history(store, "list") == f"no games in {store} yet\n"


@pytest.mark.parametrize("number", ["99999999999999999999999", "0", "-5", "²", "٣"])
def test_a_game_number_sqlite_cannot_hold_is_one_line(tmp_path: Path, number: str) -> None:
    for action in ("show", "export"):
        result = run_cli("history", "--journal", str(tmp_path / "games.sqlite3"), action, number)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        expected = f"expected a game number 1..{2**63 - 1}, got {number!r}"
        assert result.stderr.splitlines()[-1] == f"magboard history {action}: error: argument id: {expected}"


ESCAPES = "\x1b]0;owned\x07\x1b[2J\x9b31m\u202e"


def test_names_from_a_record_are_shown_with_their_escapes_inert(tmp_path: Path) -> None:
    store, record = tmp_path / "games.sqlite3", tmp_path / "record.txt"
    record.write_text(f"game: desdemona\nplayer0: Eve{ESCAPES}\nplayer1: Bob\nboard: x\x1b[5m\n\na4-a6\n")
    assert history(store, "import", str(record)) == f"{record}: imported, games 1\n"
    for output in (history(store, "list"), history(store, "show", "1")):
        assert not any(c in output for c in "\x1b\x07\x9b\u202e"), repr(output)
        assert "Eve\\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\u202e - Bob" in output
    assert "board: x\\x1b[5m " in history(store, "show", "1")
    # On stdout (a terminal, maybe) the record's names are escaped too; written to a file it is as stored.
    printed = history(store, "export", "1")
    assert "player0: Eve\\x1b]0;owned\\x07" in printed and not any(c in printed for c in "\x1b\x07\x9b\u202e")
    history(store, "export", "1", "-o", str(tmp_path / "out.txt"))
    assert f"player0: Eve{ESCAPES}\n" in (tmp_path / "out.txt").read_text()


def test_an_exported_record_imports_with_its_date_end_and_board(tmp_path: Path) -> None:
    store, copy = tmp_path / "games.sqlite3", tmp_path / "copy.sqlite3"
    clock = iter(1_700_000_000.0 + 60 * i for i in range(1000))
    recorder = GameRecorder.open(
        store,
        registry.make("flipfour"),
        board="flipfour-reed",
        players=("Ann", "Bo"),
        clock=lambda: next(clock),
    )
    rng = random.Random(5)
    while not recorder.game.is_over(recorder.positions[-1]):
        recorder.move(rng.choice(recorder.game.legal_texts(recorder.positions[-1])))
    recorder.close()
    exported = tmp_path / "game.txt"
    history(store, "export", "1", "-o", str(exported))
    assert history(copy, "import", str(exported)) == f"{exported}: imported, games 1\n"
    (original,), (imported,) = read_games(store), read_games(copy)
    assert imported.started_at == original.started_at == 1_700_000_000.0
    assert imported.ended_at == original.ended_at and imported.ended_at is not None
    assert (imported.board, imported.players, imported.status) == (
        "flipfour-reed",
        ("Ann", "Bo"),
        original.status,
    )
    assert imported.outcome == original.outcome and imported.moves == original.moves
    assert history(copy, "export", "1") == exported.read_text()  # and round again, the same record


def test_a_date_that_is_not_one_is_said_and_left_out(tmp_path: Path) -> None:
    store, record = tmp_path / "games.sqlite3", tmp_path / "record.txt"
    record.write_text("game: desdemona\ndate: 2024-02-30\nended: 2024-03-01\n\na4-a6\n")
    assert history(store, "import", str(record)) == (
        f"{record}: imported, games 1; date '2024-02-30' is not a date (YYYY-MM-DD HH:MM:SS): not kept\n"
    )
    (game,) = read_games(store)
    assert game.started_at is None and game.ended_at == time.mktime((2024, 3, 1, 0, 0, 0, 0, 0, -1))


def export_to(store: Path, target: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("history", "--journal", str(store), "export", "1", "-o", str(target))


def test_an_export_replaces_only_a_regular_file(tmp_path: Path) -> None:
    """A device node is made here when the kernel lets us (as root); never /dev's own."""
    store = tmp_path / "games.sqlite3"
    play_randomly(store, "flipfour", (), seed=2)
    kept = tmp_path / "kept.txt"
    kept.write_text("another file\n")
    (tmp_path / "link.txt").symlink_to(kept)
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "dir").mkdir()
    refusals = {
        "link.txt": "is a symbolic link: name the file itself (nothing was written)",
        "fifo": "is a FIFO, not a regular file (nothing was written)",
        "dir": "is a directory, not a regular file (nothing was written)",
        "games.sqlite3": "it is an SQLite database (a game store?): nothing was written",
    }
    with contextlib.suppress(PermissionError):
        os.mknod(tmp_path / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        refusals["null"] = "is a character device, not a regular file (nothing was written)"
    for name, reason in refusals.items():
        result = export_to(store, tmp_path / name)
        assert (result.returncode, result.stdout) == (2, "")
        assert result.stderr == f"magboard history: {tmp_path / name}: cannot write: {reason}\n"
    assert kept.read_text() == "another file\n" and (tmp_path / "link.txt").is_symlink()
    assert stat.S_ISFIFO((tmp_path / "fifo").lstat().st_mode) and (tmp_path / "dir").is_dir()
    assert "null" not in refusals or stat.S_ISCHR((tmp_path / "null").lstat().st_mode)
    assert len(read_games(store)) == 1  # the store is still the store
    assert export_to(store, kept).returncode == 0 and kept.read_text().startswith("game: flipfour\n")


def test_a_name_stored_on_two_lines_exports_to_a_record_that_imports(tmp_path: Path) -> None:
    """A store written before engines' names were made one line may hold a name of several lines: its
    record says it on one (the line breaks as escapes), and checks and imports."""
    store, copy, record = tmp_path / "games.sqlite3", tmp_path / "copy.sqlite3", tmp_path / "game.txt"
    recorder = GameRecorder.open(
        store, registry.make("go7"), board="go7-hall", players=("human", "Fake\nplayer0: Eve")
    )
    recorder.move("g7")
    recorder.close()
    history(store, "export", "1", "-o", str(record))
    assert "player1: Fake\\x0aplayer0: Eve\n" in record.read_text()
    checked = run_cli("record", "check", str(record))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    history(copy, "import", str(record))
    (again,) = read_games(copy)
    assert again.players == ("human", "Fake\\x0aplayer0: Eve") and again.moves == ["g7"]


def test_export_to_dash_writes_stdout(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    play_randomly(store, "flipfour", (), seed=2).close()
    printed = history(store, "export", "1")
    assert printed.startswith("game: flipfour\n") and history(store, "export", "1", "-o", "-") == printed
    assert not (ROOT / "-").exists()  # run_cli runs in ROOT
