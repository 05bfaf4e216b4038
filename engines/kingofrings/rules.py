"""The King of Rings (RULES.md section 1): knights win rings, holders jump as far as they carry.

A position keeps the board as 49 bytes of cell codes, where a loose ring's code
is its points (1, 3, 5) so that taking one adds its code to the score, and each
knight's stack as a tuple of ring points, bottom to top: its length is how far
the knight jumps and its sum what it is worth.  Moves are ints ``from << 6 | to``
(drops and the pass use the pseudo-origins 49 and 50), and every (square, ring
count) -> landing squares table is built once at import, so generating moves
is a few table lookups per knight.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from engines.game import Game, MoveError, Option, Outcome, quoted
from engines.geometry import square_grid
from engines.kingofrings.table import KNIGHT as KNIGHT_KIND
from engines.kingofrings.table import RINGS, KingOfRingsTable
from engines.physical import Thing
from engines.render import render_cells

GEOMETRY = square_grid(7, 7)
SIZE = GEOMETRY.size
NAMES = GEOMETRY.names

# Cell codes.  A loose ring's code is its points.
EMPTY, SILVER, BLUE, BIGBLUE = 0, 1, 3, 5
KNIGHT = (6, 7)  # KNIGHT[player]
RING_POINTS = (SILVER, BLUE, BIGBLUE)
RING_KIND = {points: ring.kind for points, ring in zip((SILVER, BLUE, BIGBLUE), RINGS, strict=True)}
RING_LETTER = {SILVER: "s", BLUE: "b", BIGBLUE: "B"}
KNIGHT_LETTER = ("K", "k")
TOTAL_RINGS = 35
KNIGHTS_EACH = 7
RING_SUPPLY = {SILVER: 28, BLUE: 6, BIGBLUE: 1}

# Move encoding: origin << 6 | destination, with two pseudo-origins.
DROP_ORIGIN = SIZE  # 49: a knight from the hand
PASS_ORIGIN = SIZE + 1  # 50
PASS = PASS_ORIGIN << 6
DROP = DROP_ORIGIN << 6  # a drop on cell t is DROP | t
MOVE_SPACE = PASS + 1  # every move is an int in range(MOVE_SPACE)

# No knight can carry more than every ring; from 7 rings on every jump leaves the 7x7 board.
MAX_RINGS = TOTAL_RINGS


def _landings(cell: int, rings: int) -> tuple[tuple[int, int], ...]:
    """(destination, move) for each square a knight with ``rings`` rings on ``cell`` could reach."""
    q, r = GEOMETRY.coords[cell]
    distance = max(rings, 1)
    out = []
    for dq, dr in GEOMETRY.directions:
        dest = GEOMETRY.at((q + distance * dq, r + distance * dr))
        if dest is not None:
            out.append((dest, cell << 6 | dest))
    return tuple(out)


# TARGETS[cell][k]: where a knight carrying k rings may go from cell (k = 0 steps, k >= 1 jumps k).
TARGETS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(_landings(cell, k) for k in range(MAX_RINGS + 1)) for cell in range(SIZE)
)

# LANDS[player][code]: may that player's knight land on a cell holding code?  Loose rings and
# enemy knights, never own knights or (by default) empty squares.
LANDS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(code in RING_POINTS or code == KNIGHT[1 - player] for code in range(8)) for player in (0, 1)
)
LANDS_OR_EMPTY: tuple[tuple[bool, ...], ...] = tuple(
    tuple(ok or code == EMPTY for code, ok in enumerate(row)) for row in LANDS
)
IS_RING: tuple[bool, ...] = tuple(code in RING_POINTS for code in range(8))


class Position(NamedTuple):
    """An immutable King of Rings position.

    ``stacks[cell]`` holds the ring points a knight on ``cell`` carries, bottom to
    top in the order won (() elsewhere).  ``passes`` counts consecutive passes;
    ``final_turn`` is set while player 1 plays the one turn left after player 0
    took the last loose ring; ``over`` once the game has ended.  ``knights``
    (each player's knight cells, in the order of the game's history), ``loose``
    (loose rings left) and ``points`` (the score) are caches derived from the
    rest and take no part in equality.  A named tuple because it is the fastest
    immutable record to build; equality and hashing are overridden.
    """

    board: bytes
    stacks: tuple[tuple[int, ...], ...]
    hands: tuple[int, int]
    player: int
    passes: int
    final_turn: bool
    over: bool
    knights: tuple[tuple[int, ...], tuple[int, ...]]
    loose: int
    points: tuple[int, int]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self[:7] == other[:7]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self[:7])

    def __repr__(self) -> str:
        return (
            f"Position(player={self.player}, hands={self.hands}, passes={self.passes}, "
            f"final_turn={self.final_turn}, over={self.over}, diagram={diagram(self)!r})"
        )


# Builds a Position from a tuple of its fields without the named tuple's Python-level
# constructor: the hot path of ``play``.
_new = tuple.__new__


def position_from_cells(
    board: bytes,
    stacks: tuple[tuple[int, ...], ...],
    hands: tuple[int, int] = (0, 0),
    player: int = 0,
    passes: int = 0,
    final_turn: bool = False,
) -> Position:
    """A position from its board and stacks, with the caches computed and the state checked.

    The game is over after two passes, or when no loose ring is left outside
    player 1's final turn.  Raises ValueError for a state no game can reach
    physically (too many knights or rings, a final turn with rings left, ...).
    """
    if len(board) != SIZE or len(stacks) != SIZE:
        raise ValueError(f"a King of Rings board has {SIZE} cells")
    if player not in (0, 1) or passes not in (0, 1, 2):
        raise ValueError("player must be 0 or 1 and passes 0, 1 or 2")
    if any(h < 0 for h in hands):
        raise ValueError("hands cannot hold fewer than 0 knights")
    knights: tuple[list[int], list[int]] = ([], [])
    rings = dict.fromkeys(RING_POINTS, 0)
    points = [0, 0]
    for cell, code in enumerate(board):
        stack = stacks[cell]
        if code in KNIGHT:
            owner = KNIGHT.index(code)
            knights[owner].append(cell)
            points[owner] += sum(stack)
        elif stack:
            raise ValueError(f"{NAMES[cell]} carries rings but holds no knight")
        elif code in RING_POINTS:
            rings[code] += 1
        elif code != EMPTY:
            raise ValueError(f"unknown cell code {code} on {NAMES[cell]}")
        for ring in stack:
            if ring not in RING_POINTS:
                raise ValueError(f"unknown ring {ring} on {NAMES[cell]}")
            rings[ring] += 1
    for player_knights, hand, owner in zip(knights, hands, (0, 1), strict=True):
        if len(player_knights) + hand > KNIGHTS_EACH:
            raise ValueError(f"player {owner} has more than {KNIGHTS_EACH} knights")
    for ring, count in rings.items():
        if count > RING_SUPPLY[ring]:
            raise ValueError(f"more than {RING_SUPPLY[ring]} {RING_KIND[ring]} rings")
    loose = sum(IS_RING[code] for code in board)
    if final_turn and (loose or player != 1):
        raise ValueError("the final turn is player 1's, after the last loose ring was taken")
    over = passes == 2 or (loose == 0 and not final_turn)
    return Position(
        bytes(board),
        tuple(tuple(s) for s in stacks),
        (hands[0], hands[1]),
        player,
        passes,
        final_turn,
        over,
        (tuple(knights[0]), tuple(knights[1])),
        loose,
        (points[0], points[1]),
    )


def from_diagram(
    text: str, player: int = 0, hands: tuple[int, int] = (0, 0), passes: int = 0, final_turn: bool = False
) -> Position:
    """A position from seven rows of seven tokens, rank 7 first, separated by spaces.

    Tokens: ``.`` empty, ``s``/``b``/``B`` a loose silver/blue/big blue ring,
    ``K`` (player 0) or ``k`` (player 1) a knight followed by the rings it
    carries bottom to top, e.g. ``Ksb`` (a silver won first, then a blue).  The
    inverse of ``diagram``; for tests, analysis and the tracker.
    """
    rows = [row.split() for row in text.strip().splitlines() if row.strip()]
    if len(rows) != 7 or any(len(row) != 7 for row in rows):
        raise ValueError("a King of Rings diagram has 7 rows of 7 space-separated cells")
    letters = {letter: ring for ring, letter in RING_LETTER.items()}
    board = bytearray(SIZE)
    stacks: list[tuple[int, ...]] = [()] * SIZE
    for r, row in enumerate(reversed(rows)):
        for q, token in enumerate(row):
            cell = r * 7 + q
            if token == ".":
                continue
            if token in letters:
                board[cell] = letters[token]
                continue
            if token[0] not in KNIGHT_LETTER or any(ch not in letters for ch in token[1:]):
                raise ValueError(f"{NAMES[cell]}: unknown token {token!r} (expected . s b B or K/k + rings)")
            board[cell] = KNIGHT[KNIGHT_LETTER.index(token[0])]
            stacks[cell] = tuple(letters[ch] for ch in token[1:])
    return position_from_cells(bytes(board), tuple(stacks), hands, player, passes, final_turn)


def diagram(pos: Position) -> str:
    """The board of ``pos`` in the notation of ``from_diagram`` (hands and turn are not included)."""
    rows = []
    for r in reversed(range(7)):
        tokens = []
        for cell in range(r * 7, r * 7 + 7):
            code = pos.board[cell]
            if code in KNIGHT:
                tokens.append(
                    KNIGHT_LETTER[KNIGHT.index(code)] + "".join(RING_LETTER[x] for x in pos.stacks[cell])
                )
            else:
                tokens.append(RING_LETTER.get(code, "."))
        rows.append(" ".join(tokens))
    return "\n".join(rows)


CELL = r"[a-z]+\d+"
STEP_RE = re.compile(rf"^({CELL})([-x])({CELL})$")
DROP_RE = re.compile(rf"^\*({CELL})$")

RING_THINGS = {ring: Thing(kind) for ring, kind in RING_KIND.items()}
KNIGHT_THINGS = (Thing(KNIGHT_KIND.kind, 0), Thing(KNIGHT_KIND.kind, 1))


def start_cells(blue_parity: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each player's starting cells: the blue squares of their two home ranks (a1 blue, or b1 if chosen)."""
    blue = 1 if blue_parity else 0

    def home(ranks: tuple[int, int]) -> tuple[int, ...]:
        return tuple(
            cell for cell, (q, r) in enumerate(GEOMETRY.coords) if r in ranks and (q + r) % 2 == blue
        )

    return home((0, 1)), home((5, 6))


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class KingOfRings(Game[Position, int]):
    """The King of Rings, with the options ``empty_steps`` and ``blue_parity`` of RULES.md."""

    id = "kingofrings"
    name = "The King of Rings"
    default_board = "kingofrings-hall"  # Hall: polarity (and levels) check what reed switches cannot
    geometry = GEOMETRY
    options = (
        Option("empty_steps", "a knight with no ring may also step onto an empty square"),
        Option("blue_parity", "b1 is blue instead of a1 (the knights start on the other colour)"),
    )
    table = KingOfRingsTable()
    ai_policy = "engines.kingofrings.policy:KingOfRingsPolicy"

    def __init__(self, chosen: frozenset[str] = frozenset()) -> None:
        super().__init__(chosen)
        # Where a ring-less knight may step: with empty_steps also onto an empty square.
        self.step_lands = LANDS_OR_EMPTY if "empty_steps" in chosen else LANDS
        self.start_cells = start_cells(blue_parity="blue_parity" in chosen)

    # --- the position --------------------------------------------------------------
    def start(self) -> Position:
        board = bytearray(SIZE)
        for cell, (_, r) in enumerate(GEOMETRY.coords):
            board[cell] = SILVER if r != 3 else BLUE
        board[GEOMETRY.cell("d4")] = BIGBLUE
        for player, cells in enumerate(self.start_cells):
            for cell in cells:
                board[cell] = KNIGHT[player]
        return position_from_cells(bytes(board), ((),) * SIZE)

    @staticmethod
    def from_diagram(
        text: str, player: int = 0, hands: tuple[int, int] = (0, 0), passes: int = 0, final_turn: bool = False
    ) -> Position:
        """See the module function ``from_diagram``."""
        return from_diagram(text, player, hands, passes, final_turn)

    def to_move(self, pos: Position) -> int:
        return pos.player

    def legal_moves(self, pos: Position) -> list[int]:
        if pos.over:
            return []
        me = pos.player
        board = pos.board
        stacks = pos.stacks
        jump_lands = LANDS[me]
        step_lands = self.step_lands[me]
        moves: list[int] = []
        append = moves.append
        for cell in pos.knights[me]:
            rings = len(stacks[cell])
            lands = jump_lands if rings else step_lands
            for dest, move in TARGETS[cell][rings]:
                if lands[board[dest]]:
                    append(move)
        if pos.hands[me] and pos.loose:
            moves += [DROP | cell for cell, code in enumerate(board) if IS_RING[code]]
        if not moves:
            append(PASS)
        return moves

    def play(self, pos: Position, move: int) -> Position:
        me = pos.player
        origin = move >> 6
        if origin == PASS_ORIGIN:
            passes = pos.passes + 1
            return _new(
                Position,
                (
                    pos.board,
                    pos.stacks,
                    pos.hands,
                    1 - me,
                    passes,
                    False,
                    passes == 2 or pos.final_turn,
                    pos.knights,
                    pos.loose,
                    pos.points,
                ),
            )
        dest = move & 63
        board = bytearray(pos.board)
        stacks = list(pos.stacks)
        found = board[dest]
        hands = pos.hands
        knights = pos.knights
        mine = knights[me]
        theirs = knights[1 - me]
        loose = pos.loose
        s0, s1 = pos.points
        if origin == DROP_ORIGIN:
            stack: tuple[int, ...] = ()
            hands = (hands[0] - 1, hands[1]) if me == 0 else (hands[0], hands[1] - 1)
            mine = (*mine, dest)
        else:
            stack = stacks[origin]
            board[origin] = EMPTY
            stacks[origin] = ()
            i = mine.index(origin)
            mine = (*mine[:i], dest, *mine[i + 1 :])
        if IS_RING[found]:
            # A ring's code is its points; taking it is compulsory.
            stack += (found,)
            loose -= 1
            points = (s0 + found, s1) if me == 0 else (s0, s1 + found)
        elif found == EMPTY:
            points = pos.points
        else:
            captured = stacks[dest]
            gained = sum(captured)
            stack += captured
            i = theirs.index(dest)
            theirs = theirs[:i] + theirs[i + 1 :]
            points = (s0 + gained, s1 - gained) if me == 0 else (s0 - gained, s1 + gained)
            if captured:
                hands = (hands[0] + 1, hands[1]) if me == 1 else (hands[0], hands[1] + 1)
        board[dest] = KNIGHT[me]
        stacks[dest] = stack
        # Taking the last loose ring ends the game, or (by player 0) leaves player 1 one more turn.
        final_turn = loose == 0 and me == 0
        over = loose == 0 and not final_turn
        return _new(
            Position,
            (
                bytes(board),
                tuple(stacks),
                hands,
                1 - me,
                0,
                final_turn,
                over,
                (mine, theirs) if me == 0 else (theirs, mine),
                loose,
                points,
            ),
        )

    def outcome(self, pos: Position) -> Outcome | None:
        if not pos.over:
            return None
        s0, s1 = pos.points
        return Outcome(None if s0 == s1 else (0 if s0 > s1 else 1), (s0, s1))

    def score(self, pos: Position) -> tuple[int, int]:
        """Points of the rings held by each player's knights on the board (rings in hand count nothing)."""
        return pos.points

    def key(self, pos: Position) -> int:
        return hash(pos)

    # --- text at the edges ----------------------------------------------------------
    def format_move(self, pos: Position, move: int) -> str:
        origin, dest = move >> 6, move & 63
        if origin == PASS_ORIGIN:
            return "pass"
        if origin == DROP_ORIGIN:
            return f"*{NAMES[dest]}"
        sep = "x" if pos.board[dest] in KNIGHT else "-"
        return f"{NAMES[origin]}{sep}{NAMES[dest]}"

    def normalise_move_text(self, text: str) -> str:
        canonical = text.strip().lower()
        if canonical == "pass":
            return canonical
        drop = DROP_RE.match(canonical)
        step = STEP_RE.match(canonical)
        named = drop.groups() if drop else step.group(1, 3) if step else ()
        if not named:
            raise MoveError("expected '<from>-<to>', '<from>x<to>', '*<cell>' or 'pass'")
        for name in named:
            if name not in GEOMETRY.index:
                raise MoveError(f"no cell {quoted(name)} on this board (a1..g7)")
        if len(named) == 2 and named[0] == named[1]:
            raise MoveError("a knight has to leave its cell")
        return canonical

    def parse_move(self, pos: Position, text: str) -> int:
        canonical = self.normalise_move_text(text)
        moves = self.legal_moves(pos)
        if not moves:
            raise MoveError("not legal: the game is over")
        move = _encode(canonical)
        if move in moves and self.format_move(pos, move) == canonical:
            return move
        raise MoveError(f"not legal here: {self.why_illegal(pos, canonical)}")

    def why_illegal(self, pos: Position, canonical: str) -> str:
        me = pos.player
        if pos.over:
            return "the game is over"
        if canonical == "pass":
            return "passing is allowed only when no step, jump or drop is possible"
        move = _encode(canonical)
        origin, dest = move >> 6, move & 63
        found = pos.board[dest]
        there = NAMES[dest]
        if origin == DROP_ORIGIN:
            if not pos.hands[me]:
                return f"player {me} has no knight in hand"
            return f"{there} holds no loose ring (drops go onto a loose ring only)"
        here = NAMES[origin]
        if pos.board[origin] != KNIGHT[me]:
            return f"no knight of player {me} on {here}"
        rings = len(pos.stacks[origin])
        if rings >= 7:
            return f"the knight on {here} carries {rings} rings and can no longer move"
        if dest not in (d for d, _ in TARGETS[origin][rings]):
            if rings == 0:
                return f"the ring-less knight on {here} steps to a neighbouring square only"
            return f"the knight on {here} carries {rings} ring(s): it jumps exactly that far in a line"
        if found == KNIGHT[me]:
            return f"{there} holds your own knight"
        if found == EMPTY:
            if rings:
                return f"{there} is empty: a holder lands only on a loose ring or an enemy knight"
            if self.step_lands[me][EMPTY]:
                return f"{there} is empty: write {here}-{there}"
            return f"{there} is empty: a knight lands only on a loose ring or an enemy knight"
        if found in KNIGHT:
            return f"{there} holds an enemy knight: write {here}x{there}"
        return f"{there} holds a loose ring, not a knight: write {here}-{there}"

    # --- the physical board ------------------------------------------------------------
    def cells(self, pos: Position) -> Mapping[str, tuple[Thing, ...]]:
        """Each cell's loose ring, or its knight under the rings it won (bottom to top), knight last."""
        return {NAMES[cell]: _stack_things(pos, cell) for cell in range(len(pos.board))}

    def changed_cells(self, pos: Position, move: int) -> tuple[int, ...]:
        """A knight's two squares (a drop's one); captures and rings change nothing else."""
        origin = move >> 6
        if origin == PASS_ORIGIN:
            return ()
        return (move & 63,) if origin == DROP_ORIGIN else (origin, move & 63)

    def changes(self, pos: Position, move: int) -> Mapping[int, tuple[Thing, ...]]:
        after = self.play(pos, move)
        return {cell: _stack_things(after, cell) for cell in self.changed_cells(pos, move)}

    def hands(self, pos: Position) -> Mapping[int, Mapping[str, int]]:
        """Each player's knights off the board that they may drop (captured holders go to their owner)."""
        return {0: {"knight": pos.hands[0]}, 1: {"knight": pos.hands[1]}}

    def render(self, pos: Position) -> str:
        """The board with each knight's ring count (``K3``), then hands and score."""
        board = render_cells(GEOMETRY, self.cells(pos), _glyph)
        s0, s1 = pos.points
        return (
            f"{board}\nplayer {pos.player} to move; knights in hand {pos.hands[0]}/{pos.hands[1]};"
            f" score {s0}-{s1}"
        )


def _stack_things(pos: Position, cell: int) -> tuple[Thing, ...]:
    code = pos.board[cell]
    if code in KNIGHT:
        return (*(RING_THINGS[r] for r in pos.stacks[cell]), KNIGHT_THINGS[KNIGHT.index(code)])
    return () if code == EMPTY else (RING_THINGS[code],)


def _glyph(things: tuple[Thing, ...]) -> str:
    if not things:
        return "."
    top = things[-1]
    if top.kind == "knight":
        letter = KNIGHT_LETTER[top.colour or 0]
        return f"{letter}{len(things) - 1}" if len(things) > 1 else letter
    return {"ring_silver": "s", "ring_blue": "b", "ring_bigblue": "B"}[top.kind]


def _encode(canonical: str) -> int:
    """The move int a canonical move text stands for (whether or not it is legal)."""
    if canonical == "pass":
        return PASS
    drop = DROP_RE.match(canonical)
    if drop:
        return DROP | GEOMETRY.index[drop.group(1)]
    step = STEP_RE.match(canonical)
    assert step is not None
    return GEOMETRY.index[step.group(1)] << 6 | GEOMETRY.index[step.group(3)]
