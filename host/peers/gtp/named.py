"""Go engines by name: ``--engine gnugo`` is the command line GnuGo plays our rules with, at a level.

A GTP engine's command line is long and its flags its own (GnuGo speaks GTP
only with ``--mode gtp``, and scores by area only with ``--chinese-rules``), so
the engines people have are known here by name: each expands to a command line
tested against our rules, with the game's own scoring (engines/gtp.py's
``rules``) and a strength from magboard's level 1-10.  Anything else given to
``--engine`` is a command line as it stands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engines.gtp import GtpFacts
from host.peers.gtp.engine import GtpEngine, resolve
from host.peers.gtp.protocol import GtpError


@dataclass(frozen=True)
class NamedEngine:
    """An engine people install, and how it plays a game of ours at a level."""

    name: str
    words: str  # what it is and where it comes from, for `magboard engines`
    flags: Callable[[int, str], list[str]]  # (level, the game's GTP rules) -> the arguments after the program

    def line(self, level: int, rules: str) -> str:
        return " ".join([self.name, *self.flags(level, rules)])


def _gnugo(level: int, rules: str) -> list[str]:
    """GnuGo's own levels are 0-10 (10 its default and strongest): ours map onto 1-10 as they are."""
    scoring = "--chinese-rules" if rules == "chinese" else "--japanese-rules"
    return ["--mode", "gtp", "--level", str(level), scoring]


def _pachi(level: int, rules: str) -> list[str]:
    """Pachi plays by Chinese rules unless told otherwise; its strength is its playouts a move (``-t =N``,
    which takes the place of the GTP time settings): 1,000 a level."""
    return ["-t", f"={1000 * level}"]


def _katago(level: int, rules: str) -> list[str]:
    """KataGo takes the rules over GTP (``kgs-rules``, which host/peers/gtp/game.py sends) and finds its
    model and configuration beside its program; its strength is its visits a move, doubling a level."""
    return ["gtp", "-override-config", f"maxVisits={2 ** (level - 1)}"]


ENGINES: tuple[NamedEngine, ...] = (
    NamedEngine("gnugo", "GNU Go, a Debian package (apt install gnugo)", _gnugo),
    NamedEngine(
        "pachi", "Pachi, a Monte Carlo engine built from its source (Debian's pachi is a game)", _pachi
    ),
    NamedEngine("katago", "KataGo, a neural-network engine with its model beside it", _katago),
)
BY_NAME = {engine.name: engine for engine in ENGINES}


def expand(engine: str, level: int, facts: GtpFacts[object, object]) -> str:
    """The command line of ``--engine``: a known engine's name expanded for the game and level, any other
    text as it stands."""
    named = BY_NAME.get(engine.strip())
    return engine if named is None else named.line(level, facts.rules)


def where(name: str) -> str | None:
    """Where the program of a named engine is (on PATH, or where Debian puts its games), or None."""
    try:
        return resolve([name])[0]
    except GtpError:
        return None


def answers(line: str, facts: list[GtpFacts[object, object]]) -> str:
    """What the engine started from ``line`` says of itself and of each game's board ("GNU Go 3.8; plays
    7x7"); GtpError (one line) when it does not answer GTP or refuses a board."""
    engine = GtpEngine(line)
    try:
        known = engine.known()
        name = engine.ask("name") if "name" in known else line
        version = engine.ask("version") if "version" in known else ""
        sizes = sorted({f.boardsize for f in facts})
        for size in sizes:
            engine.ask("boardsize", size)
        boards = ", ".join(f"{s}x{s}" for s in sizes)
        return " ".join(part for part in (name, version) if part) + (f"; plays {boards}" if boards else "")
    finally:
        engine.close()
