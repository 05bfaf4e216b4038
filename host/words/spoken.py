"""A sentence of the board as it is said aloud: the same words, its moves written for the ear.

The sentences are written for the eye, and most read aloud as they stand; a
move's notation does not ("b2xc3" is "bee two ex see three" to a speaker,
"a4-a6/c8" loses its dash and slash).  Each move in a sentence is found by the
game's own cell names joined by the symbols of its notation, and each symbol is
said in the game's words (``Table.said_symbols``: "b2 takes c3", "a4 to a6,
shot on c8").  A cell alone stays as written: espeak-ng reads "a4" as the
letter and the number ("ay four"), where a spaced "a 4" is the article "a"
(measured with ``espeak-ng -x``; tests/words/test_spoken.py keeps it so).

Moves are found in the text rather than taken from the intent's fields, since
a sentence names moves that no field holds (a hint, the choices of a question
listed in words).  Pure: the page, the voice and the phrasebook all say what
this returns.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engines.game import Game, M, P


def spoken(game: Game[P, M], sentence: str) -> str:
    """``sentence`` as it is said aloud in ``game``."""
    symbols = game.table.said_symbols
    move, part = _patterns(tuple(symbols), tuple(game.geometry.names))

    def said(found: re.Match[str]) -> str:
        # Cell by cell, so that a symbol is never looked for inside a cell's name.
        return "".join(symbols.get(p.group(0), p.group(0)) for p in part.finditer(found.group(0)))

    return move.sub(said, sentence)


@lru_cache(maxsize=32)
def _patterns(symbols: tuple[str, ...], names: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A move in a game's notation as a word (its cells joined by its symbols, one may lead: '*d4'), and
    one of its parts (a cell, else a symbol)."""
    cell = "(?:" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + ")"
    symbol = "(?:" + "|".join(map(re.escape, symbols)) + ")" if symbols else "(?!)"
    move = re.compile(rf"(?<!\w){symbol}?{cell}(?:{symbol}{cell})*(?!\w)")
    return move, re.compile(f"{cell}|{symbol}")
