"""Go engines by name (host/peers/gtp/named.py): ``--engine gnugo`` and the others expand to their command
lines for the game's rules and the level, and `magboard engines` says which are found and answer GTP."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engines.go7.rules import Go7
from engines.gtp import gtp_facts
from host.cli import main
from host.peers.gtp.engine import resolve
from host.peers.gtp.named import expand
from host.peers.gtp.protocol import GtpError
from host.store.games import read_games
from tests.conftest import run_cli

FACTS = gtp_facts(Go7())
FAKE = Path(__file__).with_name("fake_engine.py")


class Japanese:
    rules = "japanese"


@pytest.mark.parametrize(
    ("given", "level", "line"),
    [
        ("gnugo", 3, "gnugo --mode gtp --level 3 --chinese-rules"),  # GnuGo's own levels, area scoring
        (" gnugo ", 10, "gnugo --mode gtp --level 10 --chinese-rules"),
        ("pachi", 2, "pachi -t =2000"),
        ("katago", 1, "katago gtp -override-config maxVisits=1"),
        ("katago", 10, "katago gtp -override-config maxVisits=512"),
        ("gnugo --mode gtp --level 4", 9, "gnugo --mode gtp --level 4"),  # a command line stands as given
        ("./my-engine", 5, "./my-engine"),
    ],
)
def test_names_expand_to_command_lines_for_the_rules_and_the_level(given: str, level: int, line: str) -> None:
    assert FACTS is not None
    assert expand(given, level, FACTS) == line


def test_gnugo_is_told_the_games_own_scoring() -> None:
    assert expand("gnugo", 5, Japanese()) == "gnugo --mode gtp --level 5 --japanese-rules"  # type: ignore[arg-type]


def _program(folder: Path, name: str, code: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\nexec {sys.executable} {code}\n")
    path.chmod(0o755)


def test_engines_says_which_are_found_and_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _program(tmp_path, "katago", f"{FAKE} none")  # a GTP engine that plays our rules
    _program(tmp_path, "pachi", "-c 'import time; print(\"Pachi el marciano\", flush=True); time.sleep(30)'")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["engines"]) == 0
    gnugo, pachi, katago = capsys.readouterr().out.splitlines()
    try:
        found = resolve(["gnugo"])[0]  # Debian's /usr/games, which magboard looks in beside PATH
    except GtpError:
        assert gnugo == "gnugo: not found: GNU Go, a Debian package (apt install gnugo)"
    else:
        assert gnugo == f"gnugo: {found}: answers: GNU Go 3.8; plays 7x7 (magboard play go7 --engine gnugo)"
    assert pachi.startswith(f"pachi: {tmp_path}/pachi: does not answer: 'pachi -t =10000' answered ")
    assert "not a GTP response" in pachi
    assert (
        katago
        == f"katago: {tmp_path}/katago: answers: Fake none; plays 7x7 (magboard play go7 --engine katago)"
    )


def test_nothing_found_is_said_with_where_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr("host.peers.gtp.engine.EXTRA_PATH", ())
    assert main(["engines"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "gnugo: not found: GNU Go, a Debian package (apt install gnugo)",
        "pachi: not found: Pachi, a Monte Carlo engine built from its source (Debian's pachi is a game)",
        "katago: not found: KataGo, a neural-network engine with its model beside it",
    ]


@pytest.mark.usefixtures("gnugo")
def test_play_against_gnugo_by_name(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    result = run_cli(
        "play", "go7", "--engine", "gnugo", "--level", "1", "--seconds", "1", "--journal", str(store),
        "--terminal", input_text="d4\ndo\nquit\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "GNU Go 3.8 plays " in result.stdout
    (stored,) = read_games(store)
    assert stored.players == ("human", "GNU Go 3.8") and len(stored.moves) == 2
