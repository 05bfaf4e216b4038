"""Space Tiles (RULES.md section 2): place a tile, then move one piece or place n - 1 pieces.

A position is a named tuple of ints: bit masks of the tiles, the cells where a
tile may go next (kept so that the generator never recomputes it) and each
player's pieces, plus hands, supply, side to move and the winner decided at the
end of the last turn.  Cells are the cell indices of the board's geometry.

A turn is ``(tile, source, targets)``: the cell of the new tile; for a step
(the tile touches one tile) the cell the piece leaves and ``targets`` the
one-bit mask of where it goes; for placements ``source`` is -1 and ``targets``
the mask of the cells receiving a piece.  ``play`` is then the same few bit
operations for both kinds.

A turn can have many thousands of variants, so besides ``legal_moves`` there is
a step-by-step view for search: a turn is a short sequence of decisions, each a
cell index -

    (tile, from, to)            when the tile touches one tile,
    (tile, c1, c2, ..., c_k)    when it touches k + 1 tiles, c1 < c2 < ... (cell index order).

``partial_choices(pos, decisions)`` lists the cells that may come next, and
only cells after which the turn can still be finished, so a search never
meets a dead end; ``complete(pos, decisions)`` gives the turn once the
decisions are all made.  Because placements are chosen in increasing order,
every turn has exactly one decision sequence: the decisions form a tree whose
leaves are exactly ``legal_moves``.  ``tile_choices`` is the first level,
``decisions(move)`` the path to a known turn, and ``turn_counts`` /
``count_moves`` give the number of legal turns per tile / in all without
listing them (for perft's last ply and for weighting tile choices).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from engines.bits import cells_of
from engines.game import Game, MoveError, Outcome, quoted
from engines.geometry import Geometry
from engines.physical import Thing
from engines.spacetiles.board import SpaceTilesBoard, load_board
from engines.spacetiles.masks import (
    WINS,
    BoardMasks,
    count_independent_sets,
    frontier_of,
    has_independent_set,
    independent_sets,
    judge,
)
from engines.spacetiles.table import PIECE, TILE, SpaceTilesTable

Turn = tuple[int, int, int]
Decisions = tuple[int, ...]

NO_WINNER = -1
PLACED = -1  # the ``source`` of a turn that places pieces: they come from the hand, not a cell

_OUTCOMES = (Outcome(0), Outcome(1))
_TILE = Thing(TILE.kind)
_ON_CELL: tuple[tuple[Thing, ...], ...] = ((_TILE, Thing(PIECE.kind, 0)), (_TILE, Thing(PIECE.kind, 1)))


def _stack(pos: Position, cell: int) -> tuple[Thing, ...]:
    return _objects(pos.tiles, pos.pieces0, pos.pieces1, cell)


def _objects(tiles: int, pieces0: int, pieces1: int, cell: int) -> tuple[Thing, ...]:
    """What stands on ``cell`` given the tiles' and each player's pieces' bits."""
    bit = 1 << cell
    if not tiles & bit:
        return ()
    if pieces0 & bit:
        return _ON_CELL[0]
    if pieces1 & bit:
        return _ON_CELL[1]
    return (_TILE,)


_DIAGRAM_GLYPHS = {".": None, "_": -1, "R": 0, "Y": 1}
_CELL_TEXT = re.compile(r"^[a-z]\d+$")


class Position(NamedTuple):
    """One Space Tiles position; ``winner`` is set when the last turn's judgement ended the game.

    ``frontier`` is derived from ``tiles`` (the empty cells next to a tile);
    a loss by having no legal turn is not stored but found by ``outcome``.
    """

    tiles: int
    frontier: int
    pieces0: int
    pieces1: int
    hand0: int
    hand1: int
    supply: int
    to_move: int
    winner: int


@mypyc_attr(allow_interpreted_subclasses=True)  # serializable: see engines/pickling.py
class SpaceTiles(Game[Position, Turn]):
    """The rules of Space Tiles on one board (by default the 45-cell parallelogram of RULES.md)."""

    id = "spacetiles"
    name = "Space Tiles"
    default_board = "spacetiles-hall"  # Hall: polarity (and levels) check what reed switches cannot
    table = SpaceTilesTable()
    ai_policy = "engines.spacetiles.policy:SpaceTilesPolicy"
    geometry: Geometry = load_board().geometry

    def __init__(self, chosen: frozenset[str] = frozenset(), board: SpaceTilesBoard | None = None) -> None:
        super().__init__(chosen)
        self.board = board or load_board()
        self.geometry = self.board.geometry
        self.masks = BoardMasks(self.board)  # public: the AI reads the run windows
        self._neighbours = self.masks.neighbours
        self._runs = self.masks.runs
        self._names = self.geometry.names

    # --- the position --------------------------------------------------------------
    def start(self) -> Position:
        board, masks = self.board, self.masks
        each = board.pieces_each
        return Position(masks.start_tiles, masks.start_frontier, 0, 0, each, each, board.supply, 0, NO_WINNER)

    def to_move(self, pos: Position) -> int:
        return pos.to_move

    def play(self, pos: Position, move: Turn) -> Position:
        tile = move[0]
        tiles = pos.tiles | 1 << tile
        frontier = (pos.frontier | self._neighbours[tile]) & ~tiles
        me = pos.to_move
        pieces0, pieces1, hand0, hand1, verdict = self.pieces_after(pos, move)
        winner = NO_WINNER if not verdict else me if verdict == WINS else 1 - me
        return Position(tiles, frontier, pieces0, pieces1, hand0, hand1, pos.supply - 1, 1 - me, winner)

    def pieces_after(self, pos: Position, move: Turn) -> tuple[int, int, int, int, int]:
        """(pieces0, pieces1, hand0, hand1, verdict for the mover) after ``move``: the part of ``play``
        the AI's look-ahead needs, without building the position."""
        _, source, targets = move
        pieces0, pieces1, hand0, hand1 = pos.pieces0, pos.pieces1, pos.hand0, pos.hand1
        placed = 0 if source >= 0 else targets.bit_count()
        if pos.to_move == 0:
            pieces0 = (pieces0 & ~(1 << source) if source >= 0 else pieces0) | targets
            hand0 -= placed
            own = pieces0
        else:
            pieces1 = (pieces1 & ~(1 << source) if source >= 0 else pieces1) | targets
            hand1 -= placed
            own = pieces1
        return pieces0, pieces1, hand0, hand1, judge(self._runs, pieces0 | pieces1, own, targets)

    def outcome(self, pos: Position) -> Outcome | None:
        if pos.winner >= 0:
            return _OUTCOMES[pos.winner]
        if not self.tile_choices(pos):
            return _OUTCOMES[1 - pos.to_move]  # no legal turn (also: the supply is empty) loses
        return None

    def key(self, pos: Position) -> int:
        return hash(pos)

    # --- the turns ---------------------------------------------------------------------
    def legal_moves(self, pos: Position) -> list[Turn]:
        if pos.winner >= 0 or pos.supply <= 0:
            return []
        me = pos.to_move
        own = pos.pieces1 if me else pos.pieces0
        hand = pos.hand1 if me else pos.hand0
        tiles = pos.tiles
        empty = tiles & ~(pos.pieces0 | pos.pieces1)
        neighbours = self._neighbours
        steps: list[tuple[int, int]] | None = None
        placements: list[list[int] | None] = [None] * 7  # by the number of tiles touched
        moves: list[Turn] = []
        rest = pos.frontier
        while rest:
            low = rest & -rest
            rest ^= low
            tile = low.bit_length() - 1
            touching = (neighbours[tile] & tiles).bit_count()
            if touching == 1:
                if steps is None:
                    steps = self._steps(own, empty)
                moves.extend([(tile, source, dest) for source, dest in steps])
            elif hand >= touching - 1:
                sets = placements[touching]
                if sets is None:
                    sets = placements[touching] = independent_sets(empty, touching - 1, neighbours)
                moves.extend([(tile, PLACED, targets) for targets in sets])
        return moves

    def _steps(self, own: int, empty: int) -> list[tuple[int, int]]:
        """(source, one-bit mask of the destination) of every step of a piece of ``own`` to an empty tile."""
        neighbours = self._neighbours
        return [
            (source, 1 << dest) for source in cells_of(own) for dest in cells_of(neighbours[source] & empty)
        ]

    def _follow_up_count(self, touching: int, own: int, empty: int, hand: int) -> int:
        neighbours = self._neighbours
        if touching == 1:
            return sum((neighbours[source] & empty).bit_count() for source in cells_of(own))
        if hand < touching - 1:
            return 0
        return count_independent_sets(empty, touching - 1, neighbours)

    def _can_follow(self, touching: int, own: int, empty: int, hand: int) -> bool:
        neighbours = self._neighbours
        if touching == 1:
            return any(neighbours[source] & empty for source in cells_of(own))
        return hand >= touching - 1 and has_independent_set(empty, touching - 1, neighbours)

    def turn_counts(self, pos: Position) -> dict[int, int]:
        """For each legal tile cell, the number of legal turns that place the tile there.

        The follow-ups depend only on how many tiles the new one touches, so
        this costs one count per distinct touching number, not one per turn.
        """
        if pos.winner >= 0 or pos.supply <= 0:
            return {}
        me = pos.to_move
        own = pos.pieces1 if me else pos.pieces0
        hand = pos.hand1 if me else pos.hand0
        empty = pos.tiles & ~(pos.pieces0 | pos.pieces1)
        counts: dict[int, int] = {}
        by_touching: dict[int, int] = {}
        for tile in cells_of(pos.frontier):
            touching = (self._neighbours[tile] & pos.tiles).bit_count()
            if touching not in by_touching:
                by_touching[touching] = self._follow_up_count(touching, own, empty, hand)
            if by_touching[touching]:
                counts[tile] = by_touching[touching]
        return counts

    def count_moves(self, pos: Position) -> int:
        """len(legal_moves(pos)), without building the turns (for perft's last ply)."""
        return sum(self.turn_counts(pos).values())

    # --- the turns, one decision at a time ------------------------------------------------
    def tile_choices(self, pos: Position) -> list[int]:
        """The cells where a tile may be placed this turn (those whose follow-up can be done in full)."""
        if pos.winner >= 0 or pos.supply <= 0:
            return []
        me = pos.to_move
        own = pos.pieces1 if me else pos.pieces0
        hand = pos.hand1 if me else pos.hand0
        tiles = pos.tiles
        empty = tiles & ~(pos.pieces0 | pos.pieces1)
        neighbours = self._neighbours
        possible: list[bool | None] = [None] * 7  # by the number of tiles touched
        out = []
        rest = pos.frontier
        while rest:
            low = rest & -rest
            rest ^= low
            tile = low.bit_length() - 1
            touching = (neighbours[tile] & tiles).bit_count()
            ok = possible[touching]
            if ok is None:
                ok = possible[touching] = self._can_follow(touching, own, empty, hand)
            if ok:
                out.append(tile)
        return out

    def partial_choices(self, pos: Position, decisions: Decisions) -> list[int]:
        """The cells that may be chosen next after ``decisions`` (see the module docstring).

        ``decisions`` must be a sequence built from earlier answers of this
        method (not checked: hot path).  Empty when the turn is complete.
        """
        if not decisions:
            return self.tile_choices(pos)
        neighbours = self._neighbours
        tile = decisions[0]
        me = pos.to_move
        own = pos.pieces1 if me else pos.pieces0
        empty = pos.tiles & ~(pos.pieces0 | pos.pieces1)
        touching = (neighbours[tile] & pos.tiles).bit_count()
        if touching == 1:
            if len(decisions) == 1:
                return [source for source in cells_of(own) if neighbours[source] & empty]
            return cells_of(neighbours[decisions[1]] & empty) if len(decisions) == 2 else []
        left = touching - len(decisions)  # pieces still to place, this choice included
        if left <= 0:
            return []
        avail = empty
        for cell in decisions[1:]:
            avail &= ~neighbours[cell]
        if len(decisions) > 1:
            avail &= ~((2 << decisions[-1]) - 1)  # later cells only: one order per set
        return [
            cell
            for cell in cells_of(avail)
            if has_independent_set(avail & ~neighbours[cell] & ~((2 << cell) - 1), left - 1, neighbours)
        ]

    def complete(self, pos: Position, decisions: Decisions) -> Turn | None:
        """The turn that ``decisions`` make, or None while decisions are missing."""
        if not decisions:
            return None
        tile = decisions[0]
        touching = (self._neighbours[tile] & pos.tiles).bit_count()
        if touching == 1:
            return (tile, decisions[1], 1 << decisions[2]) if len(decisions) == 3 else None
        if len(decisions) != touching:
            return None
        return (tile, PLACED, sum(1 << cell for cell in decisions[1:]))

    def decisions(self, move: Turn) -> Decisions:
        """The decision sequence that leads to ``move`` (the inverse of ``complete``)."""
        tile, source, targets = move
        if source >= 0:
            return (tile, source, targets.bit_length() - 1)
        return (tile, *cells_of(targets))

    # --- text at the edges ----------------------------------------------------------
    def format_move(self, pos: Position, move: Turn) -> str:
        return self._format(move)

    def _format(self, move: Turn) -> str:
        tile, source, targets = move
        names = self._names
        if source >= 0:
            return f"{names[tile]}:{names[source]}-{names[targets.bit_length() - 1]}"
        return f"{names[tile]}:{','.join(sorted(names[c] for c in cells_of(targets)))}"

    def normalise_move_text(self, text: str) -> str:
        return self._format(self._parse_text(text))

    def _parse_text(self, text: str) -> Turn:
        """The turn a text names, checking syntax only; MoveError says what is wrong."""
        compact = text.strip().lower().replace(" ", "")
        tile_text, colon, action = compact.partition(":")
        if not colon:
            raise MoveError(f"expected '<tile>:<action>' (e.g. 'e1:d2' or 'c2:e3-e4'), got {quoted(text)}")
        tile = self._cell(tile_text, "the tile cell")
        if not action:
            raise MoveError(
                f"nothing after ':' in {quoted(text)}: expected '<from>-<to>' or the placed cells"
            )
        if "-" in action:
            parts = action.split("-")
            if len(parts) != 2:
                raise MoveError(f"a step is '<from>-<to>', got {quoted(action)}")
            source, dest = self._cell(parts[0], "the step's start"), self._cell(parts[1], "the step's end")
            if source == dest:
                raise MoveError(f"a step must go to another cell, got {quoted(action)}")
            return (tile, source, 1 << dest)
        targets = 0
        for part in action.split(","):
            cell = self._cell(part, "a placed cell")
            if targets >> cell & 1:
                raise MoveError(f"cell {quoted(part)} is listed twice in {quoted(action)}")
            targets |= 1 << cell
        if targets.bit_count() > 5:
            raise MoveError(
                f"at most 5 pieces are placed in one turn, {quoted(action)} has {targets.bit_count()}"
            )
        return (tile, PLACED, targets)

    def _cell(self, text: str, what: str) -> int:
        if not text:
            raise MoveError(f"{what} is missing")
        if not _CELL_TEXT.match(text):
            raise MoveError(f"{what}: {quoted(text)} is not a cell name like 'e3'")
        if text not in self.geometry.index:
            raise MoveError(f"{what}: no cell {quoted(text)} on this board")
        return self.geometry.index[text]

    def parse_move(self, pos: Position, text: str) -> Turn:
        move = self._parse_text(text)
        if self.outcome(pos) is not None:
            raise MoveError("not legal: the game is over")
        reason = self.illegal_reason(pos, move)
        if reason is not None:
            raise MoveError(f"not legal here: {reason}")
        return move

    def why_illegal(self, pos: Position, canonical: str) -> str:
        try:
            move = self._parse_text(canonical)
        except MoveError as exc:
            return str(exc)
        return self.illegal_reason(pos, move) or "it is legal"

    def illegal_reason(self, pos: Position, move: Turn) -> str | None:
        """Why ``move`` (any syntactically valid turn) is not legal in ``pos``, or None if it is."""
        tile, source, targets = move
        names, neighbours = self._names, self._neighbours
        if pos.winner >= 0:
            return "the game is over"
        if pos.supply <= 0:
            return "the tile supply is empty"
        if pos.tiles >> tile & 1:
            return f"{names[tile]} already holds a tile"
        touching = (neighbours[tile] & pos.tiles).bit_count()
        if not touching:
            return f"a tile on {names[tile]} would touch no tile"
        me = pos.to_move
        occupied = pos.pieces0 | pos.pieces1
        if touching == 1:
            if source < 0:
                return f"a tile on {names[tile]} touches 1 tile, so one of your pieces steps: '<from>-<to>'"
            dest = targets.bit_length() - 1
            if not (pos.pieces1 if me else pos.pieces0) >> source & 1:
                return f"no piece of player {me} on {names[source]}"
            return self._target_problem(pos.tiles, occupied, tile, dest) or (
                None if neighbours[source] >> dest & 1 else f"{names[dest]} is not next to {names[source]}"
            )
        need = touching - 1
        if source >= 0:
            return f"a tile on {names[tile]} touches {touching} tiles: {need} piece(s) are placed, not moved"
        if targets.bit_count() != need:
            return f"a tile on {names[tile]} touches {touching} tiles: place exactly {need} piece(s)"
        hand = pos.hand1 if me else pos.hand0
        if hand < need:
            return f"player {me} has {hand} piece(s) in hand, {need} needed"
        for cell in cells_of(targets):
            problem = self._target_problem(pos.tiles, occupied, tile, cell)
            if problem:
                return problem
            if neighbours[cell] & targets:
                other = (neighbours[cell] & targets).bit_length() - 1
                first, second = sorted((names[cell], names[other]))
                return f"the pieces placed on {first} and {second} would be neighbours"
        return None

    def _target_problem(self, tiles: int, occupied: int, tile: int, cell: int) -> str | None:
        names = self._names
        if cell == tile:
            return f"the tile placed this turn ({names[tile]}) may not be used"
        if not tiles >> cell & 1:
            return f"{names[cell]} holds no tile"
        if occupied >> cell & 1:
            return f"{names[cell]} already holds a piece"
        return None

    # --- the physical board ------------------------------------------------------------
    def cells(self, pos: Position) -> Mapping[str, tuple[Thing, ...]]:
        return {name: _stack(pos, cell) for cell, name in enumerate(self._names)}

    def changed_cells(self, pos: Position, move: Turn) -> tuple[int, ...]:
        """The new tile's cell, a moved piece's two cells or the placed pieces' cells."""
        tile, source, targets = move
        cells = [tile] if source < 0 else [tile, source]
        while targets:
            low = targets & -targets
            cells.append(low.bit_length() - 1)
            targets ^= low
        return tuple(cells)

    def changes(self, pos: Position, move: Turn) -> Mapping[int, tuple[Thing, ...]]:
        """From the move alone: the bits it sets and clears, without judging the turn as ``play`` does (the
        tracker asks this of every turn that puts a tile on a cell)."""
        tile, source, targets = move
        tiles = pos.tiles | 1 << tile
        mover = pos.pieces0 if pos.to_move == 0 else pos.pieces1
        if source >= 0:
            mover &= ~(1 << source)
        mover |= targets
        pieces0, pieces1 = (mover, pos.pieces1) if pos.to_move == 0 else (pos.pieces0, mover)
        return {cell: _objects(tiles, pieces0, pieces1, cell) for cell in self.changed_cells(pos, move)}

    def hands(self, pos: Position) -> Mapping[int, Mapping[str, int]]:
        """Pieces in each player's hand, and under key 2 the shared tile supply (it belongs to neither)."""
        return {0: {"piece": pos.hand0}, 1: {"piece": pos.hand1}, 2: {"tile": pos.supply}}

    # --- building positions for tests and analysis -------------------------------------------
    def from_diagram(
        self,
        diagram: str,
        to_move: int | None = None,
        hands: tuple[int, int] | None = None,
        supply: int | None = None,
    ) -> Position:
        """A position from a drawing like ``render``'s: one line per rank, the top rank first.

        Each cell is one token: ``.`` no tile, ``_`` an empty tile, ``R`` / ``Y``
        a tile with a piece of player 0 / 1.  A leading rank number and the
        line of file letters that ``render`` prints are allowed and ignored.
        By default hands are the pieces not on the board, the supply the tiles
        not on the board, and the side to move follows from the number of tiles
        placed.  The last turn is judged as usual, for the player not to move.
        """
        geometry = self.geometry
        ranks = sorted({r for _, r in geometry.coords}, reverse=True)
        rows = [line.split() for line in diagram.strip().splitlines() if line.strip()]
        if rows and all(token.isalpha() and token.islower() for token in rows[-1]):
            rows.pop()  # the file letters under a rendered board
        if len(rows) != len(ranks):
            raise ValueError(f"a Space Tiles diagram has {len(ranks)} rank lines, got {len(rows)}")
        tiles, pieces = 0, [0, 0]
        for r, tokens in zip(ranks, rows, strict=True):
            row_cells = sorted((q, i) for i, (q, rr) in enumerate(geometry.coords) if rr == r)
            label = geometry.names[row_cells[0][1]][1:]
            if tokens and tokens[0].isdigit():
                if tokens[0] != label:
                    raise ValueError(f"diagram: expected rank {label}, got rank {tokens[0]}")
                tokens = tokens[1:]
            if len(tokens) != len(row_cells):
                raise ValueError(f"diagram rank {label}: expected {len(row_cells)} cells, got {len(tokens)}")
            for (_, cell), token in zip(row_cells, tokens, strict=True):
                if token not in _DIAGRAM_GLYPHS:
                    raise ValueError(f"diagram rank {label}: unknown cell {token!r} (use . _ R Y)")
                owner = _DIAGRAM_GLYPHS[token]
                if owner is not None:
                    tiles |= 1 << cell
                    if owner >= 0:
                        pieces[owner] |= 1 << cell
        return self.position(tiles, (pieces[0], pieces[1]), to_move, hands, supply)

    def position(
        self,
        tiles: int,
        pieces: tuple[int, int],
        to_move: int | None = None,
        hands: tuple[int, int] | None = None,
        supply: int | None = None,
    ) -> Position:
        """A position from bit masks, with the defaults and the judgement of ``from_diagram``."""
        board = self.board
        if tiles & ~self.masks.all_cells or pieces[0] & pieces[1] or (pieces[0] | pieces[1]) & ~tiles:
            raise ValueError("pieces stand on tiles, one per tile, and tiles on cells of the board")
        if hands is None:
            hands = (board.pieces_each - pieces[0].bit_count(), board.pieces_each - pieces[1].bit_count())
        if supply is None:
            supply = board.tiles - tiles.bit_count()
        if to_move is None:
            to_move = (tiles.bit_count() - len(board.start_tiles)) % 2
        if min(*hands, supply) < 0 or to_move not in (0, 1):
            raise ValueError(f"impossible position: hands {hands}, supply {supply}, to move {to_move}")
        mover = 1 - to_move
        occupied = pieces[0] | pieces[1]
        verdict = judge(self._runs, occupied, pieces[mover], occupied)
        winner = NO_WINNER if not verdict else mover if verdict == WINS else to_move
        frontier = frontier_of(tiles, self._neighbours)
        return Position(tiles, frontier, pieces[0], pieces[1], hands[0], hands[1], supply, to_move, winner)
