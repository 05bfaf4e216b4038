"""Flip Four's board as bitboards: the tables the rules engine looks things up in.

A colour's pieces are one int of 19 bits (bit i = point i of ``GEOMETRY``), so
a whole position is two ints, and jumping, flipping and the line judgement are
a few integer operations on tables built once at import.  Everything here is
pure data and pure functions of bitboards; the rules that tie them together
(turns, hands, repetition) live in engines/flipfour/rules.py.
"""

from __future__ import annotations

from engines.geometry import Geometry, hex_hexagon

GEOMETRY: Geometry = hex_hexagon(2)
POINTS = GEOMETRY.size
NAMES = GEOMETRY.names
FULL = (1 << POINTS) - 1

# A movement move is MOVE_FLAG | origin << 5 | landing; a placement move is the mask of the
# points it fills, which is always below MOVE_FLAG.  Both are plain ints, cheap to compare and hash.
MOVE_FLAG = 1 << POINTS
LANDING_BITS = 5


def movement(origin: int, landing: int) -> int:
    return MOVE_FLAG | origin << LANDING_BITS | landing


def movement_ends(move: int) -> tuple[int, int]:
    """(origin, landing) of a movement move."""
    index = move ^ MOVE_FLAG
    return index >> LANDING_BITS, index & ((1 << LANDING_BITS) - 1)


def points_of(mask: int) -> list[int]:
    """The points whose bits are set in ``mask``, in index order."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _jump_table() -> tuple[tuple[tuple[int, tuple[tuple[int, int], ...]], ...], ...]:
    """JUMPS[origin]: for each direction with at least two points ahead,
    (bit of the first point ahead, ((bit of a landing point, the move landing there), ...)).

    A move in that direction exists when the first point is occupied; it lands on
    the first empty point among the landings, and does not exist when there is none
    (the run reaches the edge).  Directions with fewer than two points ahead can
    never have a move, so they are left out.
    """
    table = []
    for origin in range(POINTS):
        rays = []
        for direction in range(len(GEOMETRY.directions)):
            ray = GEOMETRY.ray(origin, direction)
            if len(ray) >= 2:
                landings = tuple((1 << landing, movement(origin, landing)) for landing in ray[1:])
                rays.append((1 << ray[0], landings))
        table.append(tuple(rays))
    return tuple(table)


def _flip_table() -> tuple[tuple[int, int], ...]:
    """FLIPS[move ^ MOVE_FLAG] = (mask of the jumped points, that mask plus origin and landing).

    Playing a move toggles the jumped mask in both colours (each jumped piece
    changes colour) and the origin and landing in the mover's colour.  Pairs of
    points that no jump joins hold (0, 0); legal move lists never contain them.
    """
    table = [(0, 0)] * (POINTS << LANDING_BITS)
    for origin in range(POINTS):
        for direction in range(len(GEOMETRY.directions)):
            ray = GEOMETRY.ray(origin, direction)
            for k in range(1, len(ray)):
                jumped = sum(1 << p for p in ray[:k])
                table[movement(origin, ray[k]) ^ MOVE_FLAG] = (jumped, jumped | 1 << origin | 1 << ray[k])
    return tuple(table)


JUMPS = _jump_table()
FLIPS = _flip_table()


# --- the line judgement ------------------------------------------------------------------
NO_RUN, ONE_FOUR, OVERLINE = 0, 1, 2
RUN = 4  # the winning run length; RUN + 1 in a row over-lines


def _run_masks() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(masks of every RUN + 1 points in a row, masks of every RUN points in a row), along every line."""
    overs: list[int] = []
    fours: list[int] = []
    for line in GEOMETRY.lines(min_length=RUN):
        bits = [1 << p for p in line]
        fours.extend(sum(bits[start : start + RUN]) for start in range(len(line) - RUN + 1))
        overs.extend(sum(bits[start : start + RUN + 1]) for start in range(len(line) - RUN))
    return tuple(overs), tuple(fours)


OVER_MASKS, FOUR_MASKS = _run_masks()


def judge_colour(bits: int) -> int:
    """OVERLINE for a run of 5 or two or more runs of exactly 4, ONE_FOUR for one run of 4, else NO_RUN.

    Runs are maximal: any longer run contains RUN + 1 in a row, so once those are
    ruled out every full window of RUN is a whole run of exactly RUN, and two full
    windows are two separate runs (overlapping ones would make RUN + 1 in a row).
    """
    for mask in OVER_MASKS:
        if bits & mask == mask:
            return OVERLINE
    fours = 0
    for mask in FOUR_MASKS:
        if bits & mask == mask:
            fours += 1
    return OVERLINE if fours >= 2 else fours


# judge_colour of every 19-bit colour, filled in on first use (UNKNOWN until then): the
# judgement runs twice per move, and most games meet only a few thousand distinct colours.
UNKNOWN = 255
_JUDGED = bytearray([UNKNOWN]) * (1 << POINTS)


def judge_turn(red: int, yellow: int, mover: int) -> int | None:
    """The winner decided by the lines after ``mover``'s turn, or None when play goes on.

    Order of RULES.md section 4: the mover's over-line first (a loss outranks a
    win), then the opponent's over-line, then the opponent's run of exactly 4,
    which wins for them at the start of their turn whoever made it.
    """
    status_red = _JUDGED[red]
    if status_red == UNKNOWN:
        status_red = _JUDGED[red] = judge_colour(red)
    status_yellow = _JUDGED[yellow]
    if status_yellow == UNKNOWN:
        status_yellow = _JUDGED[yellow] = judge_colour(yellow)
    mine, theirs = (status_yellow, status_red) if mover else (status_red, status_yellow)
    if mine == OVERLINE:
        return 1 - mover
    if theirs == OVERLINE:
        return mover
    if theirs == ONE_FOUR:
        return 1 - mover
    return None


# --- diagrams ----------------------------------------------------------------------------
GLYPH_COLOUR = {"R": 0, "Y": 1}
EMPTY_GLYPH = "."


def _diagram_rows() -> list[tuple[str, list[int]]]:
    """(rank label, points of that rank left to right), top rank first, as engines/render.py draws them."""
    ranks = sorted({r for _, r in GEOMETRY.coords}, reverse=True)
    rows = []
    for rank in ranks:
        points = sorted((q, i) for i, (q, r) in enumerate(GEOMETRY.coords) if r == rank)
        rows.append((NAMES[points[0][1]][1:], [i for _, i in points]))
    return rows


DIAGRAM_ROWS = _diagram_rows()
FILE_ROW = sorted({name[0] for name in NAMES})


def parse_diagram(diagram: str) -> tuple[int, int]:
    """(red, yellow) bitboards from a drawing like the one ``Game.render`` prints.

    One line per rank, rank 5 first, its points left to right: ``R`` red
    (player 0's colour), ``Y`` yellow, ``.`` empty; spaces are ignored, a
    leading rank number is checked if present, and the line of file letters
    under the board may be left in.  ValueError says which line is wrong.
    """
    lines = [line.split() for line in diagram.strip().splitlines() if line.strip()]
    if lines and lines[-1] == FILE_ROW:
        lines.pop()
    if len(lines) != len(DIAGRAM_ROWS):
        raise ValueError(
            f"a Flip Four diagram has {len(DIAGRAM_ROWS)} lines (ranks 5 to 1), not {len(lines)}"
        )
    red = yellow = 0
    for number, (tokens, (rank, points)) in enumerate(zip(lines, DIAGRAM_ROWS, strict=True), start=1):
        if tokens and tokens[0].isdigit():
            if tokens[0] != rank:
                raise ValueError(f"diagram line {number}: expected rank {rank}, found rank {tokens[0]}")
            tokens = tokens[1:]
        glyphs = "".join(tokens)
        if len(glyphs) != len(points):
            raise ValueError(
                f"diagram line {number} (rank {rank}): expected {len(points)} points, found {len(glyphs)}"
            )
        for glyph, point in zip(glyphs, points, strict=True):
            if glyph == EMPTY_GLYPH:
                continue
            if glyph not in GLYPH_COLOUR:
                raise ValueError(
                    f"diagram line {number}: {glyph!r} on {NAMES[point]} is not R (red), Y (yellow) or ."
                )
            if GLYPH_COLOUR[glyph]:
                yellow |= 1 << point
            else:
                red |= 1 << point
    return red, yellow
