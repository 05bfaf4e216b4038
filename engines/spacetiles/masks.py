"""The bit-mask arithmetic behind Space Tiles: neighbour tables, piece sets, runs.

A set of cells is an int with bit ``c`` set for cell index ``c`` of the board's
geometry.  Everything here depends on the board only through ``BoardMasks``,
which is computed once per board, so a new layout needs no new code.

Why independent sets: after a tile touching n tiles the player places n - 1
pieces on empty tiles, no two of them neighbours - an independent set of size
n - 1 in the graph of empty tiles.  The new tile is not yet in that graph, so
the choices do not depend on where the tile went, only on n; the move
generator builds each size once per position and pairs it with every tile.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from engines.spacetiles.board import SpaceTilesBoard

# judge() verdicts, for the player who just moved.
GOES_ON, WINS, LOSES = 0, 1, -1

# One axis through one cell: the whole line's mask (a cheap filter: fewer than 4
# pieces on it means no run), then the windows of 6, 5 and 4 consecutive cells
# along it that contain the cell.
AxisWindows = tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)  # pickled: see engines/pickling.py
class BoardMasks:
    """Per-cell masks of one board: neighbours, start tiles, and the run windows through each cell."""

    __slots__ = ("all_cells", "neighbours", "runs", "size", "start_frontier", "start_tiles")

    def __init__(self, board: SpaceTilesBoard) -> None:
        geometry = board.geometry
        self.size = geometry.size
        self.all_cells = (1 << geometry.size) - 1
        self.neighbours: tuple[int, ...] = tuple(
            sum(1 << n for n in geometry.neighbours(c)) for c in range(geometry.size)
        )
        self.start_tiles = sum(1 << c for c in board.start_tiles)
        self.start_frontier = frontier_of(self.start_tiles, self.neighbours)
        windows: list[list[AxisWindows]] = [[] for _ in range(geometry.size)]
        for line in geometry.lines(min_length=4):
            mask = sum(1 << c for c in line)
            for i, cell in enumerate(line):
                windows[cell].append((mask, _windows(line, i, 6), _windows(line, i, 5), _windows(line, i, 4)))
        self.runs: tuple[tuple[AxisWindows, ...], ...] = tuple(tuple(w) for w in windows)


def _windows(line: tuple[int, ...], i: int, length: int) -> tuple[int, ...]:
    """Masks of the ``length`` consecutive cells of ``line`` that include ``line[i]``."""
    first = max(0, i - length + 1)
    last = min(i, len(line) - length)
    return tuple(sum(1 << c for c in line[j : j + length]) for j in range(first, last + 1))


def frontier_of(tiles: int, neighbours: tuple[int, ...]) -> int:
    """The cells without a tile that share an edge with a tile (where a tile may be placed)."""
    out = 0
    rest = tiles
    while rest:
        low = rest & -rest
        out |= neighbours[low.bit_length() - 1]
        rest ^= low
    return out & ~tiles


def judge(runs: tuple[tuple[AxisWindows, ...], ...], occupied: int, own: int, changed: int) -> int:
    """The end-of-turn verdict for the player who just moved (RULES.md section 2, "Result").

    Only runs through ``changed`` (the cells that received a piece this turn)
    are examined: a turn only adds pieces there or takes one away, and taking
    away never makes a run, so every run the rule can see passes through them.
    A run of 6+ loses at once; otherwise 4+ of ``own`` or a full window of 5
    wins - a full 5 can only be part of a longer run if that run is 6+, which
    would already have been seen through the same cell.
    """
    won = False
    while changed:
        low = changed & -changed
        changed ^= low
        for line, sixes, fives, fours in runs[low.bit_length() - 1]:
            if (occupied & line).bit_count() < 4:
                continue
            for window in sixes:
                if occupied & window == window:
                    return LOSES
            if won:
                continue
            for window in fours:
                if own & window == window:
                    won = True
                    break
            else:
                for window in fives:
                    if occupied & window == window:
                        won = True
                        break
    return WINS if won else GOES_ON


def independent_sets(avail: int, k: int, neighbours: tuple[int, ...]) -> list[int]:
    """Every set of ``k`` cells of ``avail``, no two neighbours, as masks (ascending by lowest cell)."""
    if k <= 0:
        return [0]
    out: list[int] = []
    _collect(avail, k, 0, neighbours, out)
    return out


def _collect(avail: int, k: int, chosen: int, neighbours: tuple[int, ...], out: list[int]) -> None:
    if k == 2:  # the common case, unrolled: pairs of a cell and a later non-neighbour
        while avail:
            low = avail & -avail
            avail ^= low
            first = chosen | low
            rest = avail & ~neighbours[low.bit_length() - 1]
            while rest:
                second = rest & -rest
                out.append(first | second)
                rest ^= second
        return
    if k == 1:
        while avail:
            low = avail & -avail
            out.append(chosen | low)
            avail ^= low
        return
    while avail.bit_count() >= k:
        low = avail & -avail
        avail ^= low
        _collect(avail & ~neighbours[low.bit_length() - 1], k - 1, chosen | low, neighbours, out)


def has_independent_set(avail: int, k: int, neighbours: tuple[int, ...]) -> bool:
    """Whether ``avail`` holds ``k`` cells no two of which are neighbours.

    Depth-first with the lowest cell first, which is the greedy choice, so a
    yes is usually found on the first path; a no is cheap because a hex cell
    set with no independent k-set has fewer than about 3k cells.
    """
    if k <= 1:
        return k <= 0 or avail != 0
    while avail.bit_count() >= k:
        low = avail & -avail
        avail ^= low
        if has_independent_set(avail & ~neighbours[low.bit_length() - 1], k - 1, neighbours):
            return True
    return False


def count_independent_sets(avail: int, k: int, neighbours: tuple[int, ...]) -> int:
    """len(independent_sets(avail, k, neighbours)) without listing them."""
    return _count(avail, k, neighbours, {})


def _count(avail: int, k: int, neighbours: tuple[int, ...], memo: dict[tuple[int, int], int]) -> int:
    size = avail.bit_count()
    if k <= 0:
        return 1
    if size < k:
        return 0
    if k == 1:
        return size
    if k == 2:
        edges2 = 0  # every edge inside avail counted from both ends
        rest = avail
        while rest:
            low = rest & -rest
            edges2 += (neighbours[low.bit_length() - 1] & avail).bit_count()
            rest ^= low
        return size * (size - 1) // 2 - edges2 // 2
    key = (avail, k)
    known = memo.get(key)
    if known is not None:
        return known
    # Sets without the lowest cell, plus sets with it (its neighbours then excluded).
    low = avail & -avail
    rest = avail ^ low
    total = _count(rest, k, neighbours, memo) + _count(
        rest & ~neighbours[low.bit_length() - 1], k - 1, neighbours, memo
    )
    memo[key] = total
    return total
