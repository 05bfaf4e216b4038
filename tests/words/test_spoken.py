"""The board's sentences as they are said aloud: moves written for the ear, the rest as written."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from engines import registry
from host.words.spoken import spoken

# Each game's notation (RULES.md) and what a listener must hear, written by hand.
SAID = [
    ("kingofrings", "To finish c1xd1: move Light's knight from c1 to d1.",
     "To finish c1 takes d1: move Light's knight from c1 to d1."),
    ("kingofrings", "Light to move: step or jump a knight. Hint: a1-a2 (dim lights).",
     "Light to move: step or jump a knight. Hint: a1 to a2 (dim lights)."),
    ("kingofrings", "The AI plays *a3 for Light: put Light's knight on a3.",
     "The AI plays drop on a3 for Light: put Light's knight on a3."),
    ("desdemona", "The sensors cannot tell a4-a6/c8 or a10-a6xc8 apart.",
     "The sensors cannot tell a4 to a6, shot on c8 or a10 to a6, capture with a stone on c8 apart."),
    ("amazons", "The AI plays d1-d7/g7 for White.", "The AI plays d1 to d7, arrow on g7 for White."),
    ("spacetiles", "Press Confirm to play c2:e3-e4, or g3:d3,f2.",
     "Press Confirm to play c2 tile, then e3 to e4, or g3 tile, then d3 and f2."),
    ("flipfour", "Which move did you make? b2,d4 or c3-c5", "Which move did you make? b2 and d4 or c3 to c5"),
    ("go7", "The AI plays d4 for White. Press Pass.", "The AI plays d4 for White. Press Pass."),
]  # fmt: skip


@pytest.mark.parametrize(("game_id", "sentence", "said"), SAID)
def test_moves_are_said_in_words_and_the_rest_as_written(game_id: str, sentence: str, said: str) -> None:
    assert spoken(registry.make(game_id), sentence) == said


def test_only_a_game_s_own_cells_joined_by_its_own_symbols_are_a_move() -> None:
    kor = registry.make("kingofrings")
    # No cell of the game (h9), words that hold a move (ba1xb2, b2xc3po), a symbol of no move (an
    # over-line), a score.
    prose = "Light 16 points - Dark 35 points: h9-h8, ba1xb2, b2xc3po, an over-line, a1."
    assert spoken(kor, prose) == prose
    go = registry.make("go7")
    assert spoken(go, "b2xc3") == "b2xc3"  # Go writes no captures: 'x' is no symbol of its notation


ESPEAK = shutil.which("espeak-ng")
LETTERS = {"a": "eI", "b": "b'i:", "c": "s'i:", "d": "d'i:", "e": "'i:", "f": "'Ef", "g": "dZ'i:",
           "h": "'eItS", "i": "'aI", "j": "dZ'eI"}  # fmt: skip


# CI installs espeak-ng (.ci/run), and fails here without it.
@pytest.mark.skipif(
    ESPEAK is None and not os.environ.get("CI"),
    reason="espeak-ng is not installed (apt-get install espeak-ng)",
)
@pytest.mark.parametrize("game_id", registry.available())
def test_espeak_says_every_cell_as_its_letter_and_number(game_id: str) -> None:
    """A cell stays as written ('a4'), which espeak-ng says as a letter: spaced ('a 4') it is the article."""
    assert ESPEAK is not None, "CI must install espeak-ng (see .ci/run)"

    def phonemes(text: str) -> list[str]:
        return subprocess.run(
            [ESPEAK, "-q", "-x", text], capture_output=True, text=True, check=True
        ).stdout.split()

    names = registry.make(game_id).geometry.names
    for letter in sorted({name[0] for name in names}):
        cell = min((n for n in names if n[0] == letter), key=len)
        words = phonemes(f"on {spoken(registry.make(game_id), cell)}.")
        assert LETTERS[letter] in words[1], (cell, words)
    assert "eI" not in phonemes("on a 1.")[1]  # the article: why a cell is not spaced
