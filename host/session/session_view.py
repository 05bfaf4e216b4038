"""Everything the page and the terminal may know of a session, as one immutable value.

The session publishes a new ``SessionView`` whenever anything a player can see
changes; the renderers (host/web, the terminal) read only this, never the
session's internals, so what they show is always one consistent moment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic

from engines.game import Game, M, P
from host.session.intent import Intent, Notice


@dataclass(frozen=True)
class AiInfo:
    """The AI opponent as the page shows it: its side, level and time (or nodes) per move, the name of
    the engine that plays instead of the built-in AI (a GTP engine), if one does, and the name of one that
    has stopped while the built-in AI is only offered in its place."""

    side: int
    level: int | None
    seconds: float | None
    nodes: int | None
    name: str | None = None
    stopped: str | None = None


@dataclass(frozen=True, kw_only=True)  # ten fields: by name, so that none is given for another
class SessionView(Generic[P, M]):
    """One moment of a session.

    ``position`` is the committed position (the game's rules answer anything
    else about it: score, hands, cells); ``last_move`` the cells the last
    committed move changed; ``hint`` the AI's suggested line, in notation;
    ``notices`` trouble around the board (disconnected, moves not saved) with
    ``notice_words`` saying each in a sentence; ``differing`` the cells whose
    sensors disagree with the committed position (a real board's page outlines
    them, as the page cannot see the pieces).
    """

    game: Game[P, M]
    position: P
    intent: Intent
    moves: tuple[str, ...]
    last_move: frozenset[str]
    hint: tuple[str, ...]
    ai: AiInfo | None
    notices: tuple[Notice, ...] = ()
    notice_words: tuple[str, ...] = ()
    differing: frozenset[str] = frozenset()

    @property
    def status(self) -> str:
        """The status line: the intent's sentence, after any notice."""
        return " ".join((*self.notice_words, self.intent.sentence))
