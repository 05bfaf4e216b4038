"""The board's intent: what the board wants from the player now, as one typed value.

A physical board is state shared between a person and the program, so what the
program wants is one explicit value of a closed set of kinds rather than
something spread over flags.  Every intent carries its LED scene, one sentence
in the game's own words, and the buttons that do something now; the LEDs, the
page and the terminal render that value and read nothing else of the session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar

from engines.physical import Thing
from host.hardware.spec import Button
from host.session.lights import Light
from host.tracking.plan import Do


class Kind(Enum):
    """The closed set of things a board can want.  The value is the name the page and JSON use."""

    YOUR_TURN = "your_turn"
    LIFTED = "lifted"
    TURN_UNDER_WAY = "turn_under_way"
    CONFIRM = "confirm"
    CHOOSE = "choose"
    MISTAKE = "mistake"
    AI_THINKING = "ai_thinking"
    AI_MOVE = "ai_move"
    OPPONENT_STOPPED = "opponent_stopped"
    RESTORE = "restore"
    DEAD_STONES = "dead_stones"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class Step:
    """One instruction for the player (cells by name), with the objects it concerns.

    For a turn, ``things`` is the object as it must end up (the side up it shows).
    """

    do: Do
    source: str | None
    target: str | None
    things: tuple[Thing, ...] = ()

    @property
    def thing(self) -> Thing | None:
        """The object the step is about: the piece (a knight, not its rings), or the only one."""
        owned = [t for t in self.things if t.colour is not None]
        return owned[-1] if owned else (self.things[-1] if self.things else None)

    @property
    def cells(self) -> tuple[str, ...]:
        return tuple(c for c in (self.source, self.target) if c is not None)


class RestoreReason(Enum):
    TAKE_BACK = "take_back"
    NEW_GAME = "new_game"
    AI_THINKING = "ai_thinking"  # the board changed while the AI thinks: put it back


class Notice(Enum):
    """Trouble around the board that the player must know about, whatever the intent."""

    BOARD_DISCONNECTED = "board_disconnected"
    NOT_SAVING = "not_saving"
    OPPONENT = "opponent"  # the opponent (a GTP engine) failed: nothing of it is played


@dataclass(frozen=True)
class Intent:
    """What the board wants now.  Subclasses add what their kind needs."""

    kind: ClassVar[Kind]
    sentence: str
    scene: Mapping[str, Light] = field(default_factory=dict, compare=False)
    buttons: frozenset[Button] = frozenset()

    @property
    def steps(self) -> tuple[Step, ...]:
        """The instructions the intent asks the hands for, first first (none for most kinds)."""
        return ()

    def summary(self) -> dict[str, object]:
        """The intent as JSON-ready data (kind, sentence, buttons) for the page and scripts."""
        return {
            "kind": self.kind.value,
            "sentence": self.sentence,
            "buttons": sorted(b.value for b in self.buttons),
        }


@dataclass(frozen=True)
class YourTurn(Intent):
    kind: ClassVar[Kind] = Kind.YOUR_TURN
    side: int = 0


@dataclass(frozen=True)
class Lifted(Intent):
    """Pieces are off their cells; ``targets`` are where a legal move of the committed position puts them."""

    kind: ClassVar[Kind] = Kind.LIFTED
    side: int = 0
    origins: tuple[str, ...] = ()
    targets: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TurnUnderWay(Intent):
    """Part of one move is on the board; ``remaining`` is what is left of it."""

    kind: ClassVar[Kind] = Kind.TURN_UNDER_WAY
    side: int = 0
    move: str = ""
    remaining: tuple[Step, ...] = ()

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.remaining


@dataclass(frozen=True)
class Confirm(Intent):
    """A complete move that a longer turn could still grow into: Confirm takes it."""

    kind: ClassVar[Kind] = Kind.CONFIRM
    move: str = ""


@dataclass(frozen=True)
class Choose(Intent):
    """Moves the sensors cannot tell apart; ``shown`` is the one the LEDs show (Confirm takes it)."""

    kind: ClassVar[Kind] = Kind.CHOOSE
    choices: tuple[str, ...] = ()
    shown: str = ""


@dataclass(frozen=True)
class Mistake(Intent):
    """The board shows no legal move: ``step`` is the one pair to put right now, ``later`` the rest."""

    kind: ClassVar[Kind] = Kind.MISTAKE
    step: Step | None = None
    later: tuple[Step, ...] = ()

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.later if self.step is None else (self.step, *self.later)


@dataclass(frozen=True)
class AiThinking(Intent):
    kind: ClassVar[Kind] = Kind.AI_THINKING
    side: int = 1


@dataclass(frozen=True)
class AiMove(Intent):
    """The AI's move, to be made by hand; ``remaining`` is what is left of it."""

    kind: ClassVar[Kind] = Kind.AI_MOVE
    side: int = 1
    move: str = ""
    remaining: tuple[Step, ...] = ()

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.remaining


@dataclass(frozen=True)
class OpponentStopped(Intent):
    """The opponent (a GTP engine) stopped on its turn, ``why`` says how: Confirm lets the built-in AI play
    its side.  Until then nobody moves for it (a take-back or a new game still can be made)."""

    kind: ClassVar[Kind] = Kind.OPPONENT_STOPPED
    side: int = 1
    why: str = ""


@dataclass(frozen=True)
class Restore(Intent):
    """Put the board back to the committed position (after Take back or New game): one step at a time."""

    kind: ClassVar[Kind] = Kind.RESTORE
    reason: RestoreReason = RestoreReason.TAKE_BACK
    step: Step | None = None
    later: tuple[Step, ...] = ()

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.later if self.step is None else (self.step, *self.later)


@dataclass(frozen=True)
class DeadStones(Intent):
    """After the rules' end, the players take off the dead stones (``proposed`` are lit) and Confirm;
    ``off`` are the stones taken off so far, ``wrong`` the cells changed otherwise (to put right)."""

    kind: ClassVar[Kind] = Kind.DEAD_STONES
    proposed: frozenset[str] = frozenset()
    off: frozenset[str] = frozenset()
    wrong: frozenset[str] = frozenset()


@dataclass(frozen=True)
class GameOver(Intent):
    """Who won, why (in the game's words), and the cells that decided it."""

    kind: ClassVar[Kind] = Kind.GAME_OVER
    winner: int | None = None
    reason: str = ""
    cells: frozenset[str] = frozenset()
