"""`magboard history`: list, show, export as a record `magboard record check` accepts, import a record."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engines import registry
from host.gamearg import state_json
from host.store.recorder import GameRecorder
from tests.conftest import run_cli

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
