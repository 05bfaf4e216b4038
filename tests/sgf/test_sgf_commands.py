"""SGF at the command line: `magboard history export ID --format sgf`, `history import FILE.sgf`, and
`magboard play go7 --from FILE.sgf` continuing an imported game on the simulated board."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from sgfmill import sgf as sgfmill

from engines import registry
from engines.sgf import dump
from host.store.games import Status, read_games
from host.store.recorder import GameRecorder
from tests.conftest import run_cli


def recorded(store: Path, game_id: str, seed: int, plies: int | None = None) -> GameRecorder:
    recorder = GameRecorder.open(
        store, registry.make(game_id), board=f"{game_id}-hall", players=("Ann", "Bo")
    )
    rng = random.Random(seed)
    pos = recorder.positions
    while not recorder.game.is_over(pos[-1]) and (plies is None or len(recorder.moves) < plies):
        recorder.move(rng.choice(recorder.game.legal_texts(pos[-1])))
    if recorder.game.table.dead_proposal(recorder.game, pos[-1]) is not None:
        recorder.agreed(())  # Go's players agree that no stone is dead: the count is the rules' own
    recorder.close()
    return recorder


def ok(*args: str, input_text: str | None = None) -> tuple[str, str]:
    result = run_cli(*args, input_text=input_text)
    assert result.returncode == 0, result.stderr
    return result.stdout, result.stderr


def refused(*args: str) -> str:
    result = run_cli(*args)
    assert result.returncode == 2 and result.stdout == "", (result.stdout, result.stderr)
    (line,) = result.stderr.splitlines()
    return line


@pytest.mark.parametrize("game_id", ["go7", "amazons"])
def test_exported_sgf_is_imported_back_as_the_same_game(tmp_path: Path, game_id: str) -> None:
    store = tmp_path / "games.sqlite3"
    played = recorded(store, game_id, seed=4)
    out = tmp_path / "game.sgf"
    assert ok("history", "--journal", str(store), "export", "1", "--format", "sgf", "-o", str(out))[0] == (
        f"{out}: game 1, {len(played.moves)} moves\n"
    )
    printed = ok("history", "--journal", str(store), "export", "1", "--format", "sgf")[0]
    assert printed == out.read_text()
    root = sgfmill.Sgf_game.from_bytes(out.read_bytes()).get_root()
    assert (root.get("PB"), root.get("PW")) == ("Ann", "Bo")  # SGF's B moves first: our player 0
    assert root.get("DT") == printed.split("DT[")[1][:10]
    assert ok("history", "--journal", str(store), "import", str(out))[0] == f"{out}: imported, games 2\n"
    first, second = read_games(store)
    assert (second.game, second.moves, second.players, second.outcome) == (
        game_id,
        first.moves,
        first.players,
        first.outcome,
    )
    assert second.status is Status.FINISHED and second.source == f"sgf {out}"
    assert second.started_at is not None  # DT, the day the game was played


def test_a_game_sgf_does_not_keep_is_refused_in_one_line(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    recorded(store, "desdemona", seed=1, plies=4)
    line = refused("history", "--journal", str(store), "export", "1", "--format", "sgf")
    assert line.startswith("magboard history: game 1: desdemona has no SGF form (the games SGF keeps: ")
    assert "go7 (GM[1] SZ[7])" in line and "amazons (GM[18] SZ[10])" in line


def test_bad_sgf_is_refused_naming_the_file_and_the_move(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;FF[4]GM[1]SZ[7]\n;B[dd];W[dd])")
    line = refused("history", "--journal", str(tmp_path / "s"), "import", str(bad))
    assert line == f"magboard history: {bad}: node 2, move 2: W[dd]: not legal here: d4 is not empty"


def test_play_from_an_sgf_continues_its_game(tmp_path: Path) -> None:
    source = tmp_path / "elsewhere.sqlite3"
    part = recorded(source, "go7", seed=3, plies=12)
    sgf = tmp_path / "part.sgf"
    sgf.write_bytes(dump(read_games(source)[0].record()))
    store = tmp_path / "games.sqlite3"
    recorded(store, "go7", seed=9, plies=3)  # the game in play until then: abandoned
    common = ("play", "go7", "--humans", "--journal", str(store), "--terminal")
    out, err = ok(*common, "--from", str(sgf), input_text="pass\nquit\n")
    assert err == f"magboard play: {sgf}: imported as game 2, which the board continues\n"
    assert "moves: " + " ".join(part.moves[-8:]) in out
    before, continued = read_games(store)
    assert before.status is Status.ABANDONED and continued.status is Status.PLAYING
    assert continued.moves == [*part.moves, "pass"]
    # Each --from is a game of its own, the same file again included.
    ok(*common, "--from", str(sgf), input_text="quit\n")
    assert [g.status for g in read_games(store)] == [Status.ABANDONED] * 2 + [Status.PLAYING]
    assert read_games(store)[-1].moves == part.moves
    # What the file says otherwise than go7's rules is noted.
    sgf.write_bytes(sgf.read_bytes().replace(b"KM[7.5]", b"KM[6.5]"))
    err = ok(*common, "--from", str(sgf), input_text="quit\n")[1]
    assert err == (
        f"magboard play: {sgf}: imported as game 4, which the board continues; "
        "KM[6.5] differs from go7's KM[7.5]: counted by go7's\n"
    )


def test_play_from_refuses_what_it_cannot_continue(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    recorded(store, "go7", seed=5)
    ok("history", "--journal", str(store), "export", "1", "--format", "sgf", "-o", str(tmp_path / "done.sgf"))
    common = ("play", "go7", "--humans", "--journal", str(store), "--terminal", "--from")
    done = tmp_path / "done.sgf"
    assert refused(*common, str(done)) == (
        f"magboard play: {done}: the game is over: nothing to continue (`magboard history import` keeps it)"
    )
    amazons = tmp_path / "amazons.sgf"
    amazons.write_bytes(b"(;GM[18]SZ[10];B[djddgd])")
    assert refused(*common, str(amazons)) == f"magboard play: {amazons}: is a game of amazons, not go7"
    assert (
        refused(*common, str(amazons), "--new")
        == "magboard play: --from continues the file's game: leave out --new"
    )
    assert len(read_games(store)) == 1


def test_play_from_an_old_journal_of_several_games_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "go7.journal"
    journal.write_text("game: go7\n---\nmove d4\nnewgame\nmove c3\n")
    store = tmp_path / "games.sqlite3"
    line = refused("play", "go7", "--humans", "--journal", str(store), "--terminal", "--from", str(journal))
    assert line == f"magboard play: {journal}: holds 2 games: give a record or an SGF file of one"


def test_a_stored_game_that_cannot_be_replayed_is_not_exported(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    recorded(store, "go7", seed=2, plies=3)
    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE moves SET text = 'z9' WHERE ply = 2")
    line = refused("history", "--journal", str(store), "export", "1", "--format", "sgf")
    assert line.startswith("magboard history: game 1 cannot be replayed: ")
    assert "'z9'" in line
