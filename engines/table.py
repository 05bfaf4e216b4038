"""What a game is on the table: its objects, its players' names, its words and its drawing.

The rules (``Game``) say which moves are legal; a ``Table`` says everything a
person at the board meets besides: what the objects are called and how they
behave in the hand (owned, turned over, carried together), what a turn is in
words (the first turn's own words too), why a game ended and which cells show
it, and how the page draws it all.  Each game's package has one subclass whose
class attributes carry its facts, as python-chess's variants do, and the host
asks it instead of knowing any game; a new game is its own package and a board
file, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, NamedTuple, Protocol

from mypy_extensions import mypyc_attr

from engines.geometry import Geometry
from engines.outcome import Outcome
from engines.physical import Thing

SHARED = 2  # ``Game.hands``' key for what belongs to neither player (a supply of tiles)


class GameView(Protocol):
    """What a table asks of its game: the rules' answers about positions (engines/game.py's ``Game``)."""

    @property
    def geometry(self) -> Geometry: ...

    @property
    def chosen(self) -> frozenset[str]: ...

    def start(self) -> Any: ...

    def to_move(self, pos: Any) -> int: ...

    def outcome(self, pos: Any) -> Outcome | None: ...

    def score(self, pos: Any) -> tuple[int, int] | None: ...

    def cells(self, pos: Any) -> Mapping[str, tuple[Thing, ...]]: ...

    def hands(self, pos: Any) -> Mapping[int, Mapping[str, int]]: ...

    def legal_moves(self, pos: Any) -> Sequence[Any]: ...

    def legal_texts(self, pos: Any) -> Sequence[str]: ...

    def format_move(self, pos: Any, move: Any) -> str: ...


class Role(Enum):
    """How an object belongs to the players, which decides how a board file gives its magnet."""

    OWNED = "owned"  # one player's for the whole game: its colour is its owner
    REVERSIBLE = "reversible"  # two-sided: its colour is the side facing up, and turning it changes that
    NEUTRAL = "neutral"  # nobody's: its colour is always None

    @property
    def colours(self) -> tuple[int | None, ...]:
        """The colours an object of this role can show."""
        return (None,) if self is Role.NEUTRAL else (0, 1)


@dataclass(frozen=True)
class Noun:
    """A word with its plural and its indefinite article: ('ring', 'rings', 'a')."""

    one: str
    many: str
    article: str = "a"

    def count(self, n: int) -> str:
        """'1 ring', '3 rings'."""
        return f"{n} {self.one if n == 1 else self.many}"

    @property
    def indefinite(self) -> str:
        return f"{self.article} {self.one}"


@dataclass(frozen=True)
class Look:
    """How the page draws an object, in cell-size units: a disc, a ring or a hexagonal tile.

    ``fills`` are CSS colours by the colour shown (one for a neutral object),
    ``edges`` the outline colours alike; ``glyph`` a character drawn on it
    (the chess knight on a knight).
    """

    shape: str  # "disc", "ring" or "hex"
    size: float
    fills: tuple[str, ...]
    edges: tuple[str, ...] = ("#111",)
    width: float = 0.03
    glyph: str = ""
    glyph_inks: tuple[str, ...] = ()


@dataclass(frozen=True)
class ObjectKind:
    """One kind of object: the name sensors and board files use, its role, its words and its look.

    ``rides``: it is carried under the object on top of it and moves with it (a
    ring under its knight), so it is named with that object and counted on its
    badge; ``points`` what it is worth there.  ``carries``: a hand that lifts it
    on its owner's turn lifts the riding objects under it along (a knight with
    the rings it won), as a person does; on the other side's turn it is lifted
    alone (a captured knight leaves its rings to the captor).  ``held`` names it
    off the board, in a player's hand or the shared supply ('knight in hand',
    'tile in supply').
    """

    kind: str
    role: Role
    noun: Noun
    look: Look
    held: Noun | None = None
    rides: bool = False
    points: int = 0
    carries: bool = False


@dataclass(frozen=True)
class Drawing:
    """The board on the page: 'square', 'hex' or 'point' cells; checkered cells' two colours, or none."""

    shape: str
    checkered: tuple[str, str] | None = None


class Ending(NamedTuple):
    """Why a finished game ended, in the game's words, and the cells that show it."""

    reason: str
    cells: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Badge:
    """What a stack of carried objects is worth, drawn on it: how many it carries and their points."""

    count: int
    points: int


@mypyc_attr(allow_interpreted_subclasses=True)
class Table:
    """A game's facts at the table.  Subclasses set the class attributes and may override the methods."""

    sides: ClassVar[tuple[str, str]]  # the players' names, player 0 first
    side_colours: ClassVar[tuple[str, str]]  # their colours on the page (CSS)
    # "Light's knight" (possessive: the object belongs to the player) or "a Black queen" (the colour
    # names the object itself, as it does for a two-sided stone).
    possessive: ClassVar[bool] = False
    objects: ClassVar[tuple[ObjectKind, ...]]
    riders: ClassVar[Noun | None] = None  # what the riding objects are called together ('rings')
    # Kinds the other objects stand on, put down first in a turn (a Space Tiles tile): the words give a
    # turn's steps in the order its rules make it.
    ground: ClassVar[frozenset[str]] = frozenset()
    cell: ClassVar[Noun]  # 'square', 'cell', 'point'
    drawing: ClassVar[Drawing]
    notation: ClassVar[str]  # examples of the move notation, for a move box
    # What each symbol of the move notation says aloud, in place ("b2xc3": "b2 takes c3"): a move
    # written for the eye reads badly to the ear ("bee two ex see three").  The cells between are said as
    # written, which a speaker reads as a letter and a number.
    said_symbols: ClassVar[Mapping[str, str]] = {"-": " to ", ",": " and "}
    turn: ClassVar[str]  # what a turn is, to the player to move; {opponent} is the other side's name
    score_unit: ClassVar[Noun | None] = None  # what the score counts, for games that count
    # Whether a player may pass while other moves are legal (Go): the board then has a Pass button, which
    # plays the one legal move that changes no cell.  A pass that is the only move is played by itself.
    voluntary_pass: ClassVar[bool] = False
    # Why a game ends, by name: the templates ``ending`` fills in ({score} is ``score_words``).  The
    # phrasebook (host/words/phrasebook.py) searches games until it has seen each.
    endings: ClassVar[Mapping[str, str]] = {"the score": "{score}."}
    # What this game's board never says, and why: an intent kind's value (host/session/intent.py) or
    # an ending's name.  The phrasebook lists it; its test fails if anything else is missing.
    never: ClassVar[Mapping[str, str]] = {}

    # --- objects -------------------------------------------------------------------------------
    def kind(self, name: str) -> ObjectKind:
        """The object kind called ``name``; ValueError names the game's kinds."""
        for kind in self.objects:
            if kind.kind == name:
                return kind
        known = ", ".join(k.kind for k in self.objects)
        raise ValueError(f"unknown object {name!r} (known: {known})")

    def kinds(self, role: Role | None = None) -> frozenset[str]:
        """The names of the game's kinds of object (of one role)."""
        return frozenset(k.kind for k in self.objects if role is None or k.role is role)

    def things(self) -> tuple[Thing, ...]:
        """Every object as it can stand on a cell: each colour of a player's or two-sided object."""
        out: list[Thing] = []
        for kind in self.objects:
            out.extend(Thing(kind.kind, colour) for colour in kind.role.colours)
        return tuple(out)

    @property
    def player_kind(self) -> str:
        """The object that stands for a player (a list of players shows it): the first one a player owns."""
        return next(k.kind for k in self.objects if k.role is not Role.NEUTRAL)

    # --- words -------------------------------------------------------------------------------------
    def side(self, colour: int) -> str:
        return self.sides[colour]

    def name(self, thing: Thing) -> str:
        """An object as a player names it: 'White stone', "Light's knight", 'silver ring', 'tile'."""
        noun = self.kind(thing.kind).noun.one
        if thing.colour is None:
            return noun
        if self.possessive and self.kind(thing.kind).role is Role.OWNED:
            return f"{self.side(thing.colour)}'s {noun}"
        return f"{self.side(thing.colour)} {noun}"

    def article(self, thing: Thing) -> str:
        """The indefinite article before ``name(thing)``: '' where the name is possessive."""
        name = self.name(thing)
        if "'s " in name:
            return ""
        if thing.colour is None:
            return self.kind(thing.kind).noun.article
        return "an" if name[0].lower() in "aeiou" else "a"

    def named(self, things: Sequence[Thing], definite: bool) -> str:
        """Objects carried together, as one phrase: "the Black queen", "Light's knight with 2 rings"."""
        if not things:
            return "the piece" if definite else "a piece"
        carriers = [t for t in things if not self.kind(t.kind).rides] or list(things)
        riders = [t for t in things if t not in carriers]
        head = " and ".join(self.one(t, definite) for t in reversed(carriers))
        if riders:
            head += " with " + self.riders_words(riders)
        return head

    def one(self, thing: Thing, definite: bool) -> str:
        """One object with its article: 'the Black queen', 'an Orange piece', "Light's knight", 'a tile'."""
        article = self.article(thing)
        if not article:
            return self.name(thing)
        return f"{'the' if definite else article} {self.name(thing)}"

    def riders_words(self, riders: Sequence[Thing]) -> str:
        """'its ring', 'its 3 rings' (or the objects' own names where the game gives no collective)."""
        if self.riders is None:
            return " and ".join(self.name(t) for t in riders)
        n = len(riders)
        return f"its {self.riders.one}" if n == 1 else f"its {n} {self.riders.many}"

    def score_words(self, score: tuple[int, int]) -> str:
        """The score with the players' names and its unit: 'Black 13 stones - White 28 stones'."""
        unit = self.score_unit or Noun("point", "points")
        return " - ".join(f"{self.side(side)} {unit.count(n)}" for side, n in enumerate(score))

    def turn_words(self, game: GameView, pos: Any) -> str:
        """What the player to move may do now (a game whose first turn differs says so here)."""
        return self.turn.format(opponent=self.side(1 - game.to_move(pos)))

    def explain(self, game: GameView, pos: Any) -> Ending:
        """Why the finished game ``pos`` ended and the cells that show it; ValueError while it goes on."""
        if game.outcome(pos) is None:
            raise ValueError("the game is not over")
        return self.ending(game, pos)

    def ending(self, game: GameView, pos: Any) -> Ending:
        """``explain`` for a finished game: a game says here what ended it (the default: the score)."""
        score = game.score(pos)
        return self.because("the score", game, pos) if score is not None else Ending("")

    def dead_proposal(self, game: GameView, pos: Any) -> frozenset[str] | None:
        """Whether the finished ``pos`` ends at the table with the players agreeing which stones are dead
        (Go after two passes, as at a real table): then the stones the board proposes, which it lights
        while the players take off or put back stones and press Confirm.  None (the default): the rules'
        end is the end, and the rules' count the count."""
        return None

    def agreed(self, game: GameView, pos: Any, dead: frozenset[str]) -> tuple[Outcome, Ending]:
        """The result of ``pos`` with the stones on ``dead`` taken off by agreement, and its words and lit
        cells.  Only asked of a game whose ``dead_proposal`` is not None; the default, nothing to take
        off, is the rules' own result."""
        outcome = game.outcome(pos)
        assert outcome is not None
        return outcome, self.explain(game, pos)

    def because(self, name: str, game: GameView, pos: Any, cells: Iterable[str] = (), **words: str) -> Ending:
        """The ending called ``name`` (``endings``), its template filled with ``words`` and the score."""
        score = game.score(pos)
        said = self.score_words(score) if score is not None else ""
        return Ending(self.endings[name].format(score=said, **words), frozenset(cells))

    # --- the board ---------------------------------------------------------------------------------
    def cell_colour(self, game: GameView, index: int) -> str | None:
        """A checkered board's colour of a cell (the first colour on a1's), or None for plain cells."""
        checkered = self.drawing.checkered
        if checkered is None:
            return None
        q, r = game.geometry.coords[index]
        return checkered[(q + r) % 2]

    def badge(self, stack: Sequence[Thing]) -> Badge | None:
        """What the objects riding in a stack are worth, or None where nothing rides on it."""
        riders = [self.kind(t.kind) for t in stack if self.kind(t.kind).rides]
        if not riders or len(riders) == len(stack):
            return None
        return Badge(len(riders), sum(k.points for k in riders))

    def lifted(self, game: GameView, pos: Any, stack: Sequence[Thing]) -> int:
        """How many objects off the top of ``stack`` a hand lifts as one in ``pos``: a carrier of the side
        to move with the riding objects right under it (``ObjectKind.carries``), anything else alone."""
        if not stack:
            return 0
        top = self.kind(stack[-1].kind)
        if not top.carries or stack[-1].colour != game.to_move(pos):
            return 1
        under = len(stack) - 1
        while under > 0 and self.kind(stack[under - 1].kind).rides:
            under -= 1
        return len(stack) - under

    def same_stack(self, a: Sequence[Thing], b: Sequence[Thing]) -> bool:
        """Whether two stacks are the same to the game: riding objects are carried in any order."""
        if len(a) != len(b):
            return False
        if tuple(a) == tuple(b):
            return True
        rides = self.kinds_riding
        return [t for t in a if t.kind not in rides] == [t for t in b if t.kind not in rides] and sorted(
            map(str, a)
        ) == sorted(map(str, b))

    @property
    def kinds_riding(self) -> frozenset[str]:
        return frozenset(k.kind for k in self.objects if k.rides)


def owned_cells(stacks: Mapping[str, Sequence[Thing]], kind: str, side: int | None) -> frozenset[str]:
    """The cells whose top object is a ``kind`` showing ``side`` (none for a draw)."""
    if side is None:
        return frozenset()
    return frozenset(c for c, s in stacks.items() if s and s[-1].kind == kind and s[-1].colour == side)


def runs(game: GameView, member: Iterable[str], min_length: int) -> list[tuple[str, ...]]:
    """Every maximal run of ``member`` cells along a line of the board, at least ``min_length`` long."""
    names = game.geometry.names
    inside = set(member)
    out = []
    for line in game.geometry.lines(min_length=min_length):
        run: list[str] = []
        for cell in (*line, None):
            if cell is not None and names[cell] in inside:
                run.append(names[cell])
                continue
            if len(run) >= min_length:
                out.append(tuple(run))
            run = []
    return out
