"""An SVG drawing of a board build, in millimetres, as seen from above with player 0 at the bottom.

Each cell shows its name, its sensor address and its LED index, and a line
follows the LED chain from its data input, which is what a person wiring or
debugging the board looks for.  Output is deterministic (fixed decimals, fixed
order) so the committed drawings can be compared byte for byte.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from host.hardware.spec import REED, BoardSpec, CellSpec

TITLE_MM = 6.0


def _f(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def pitch_mm(board: BoardSpec) -> float:
    """The distance between neighbouring cell centres."""
    cells = board.cells
    return min(
        math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) for i, a in enumerate(cells) for b in cells[i + 1 :]
    )


def address_label(board: BoardSpec, cell: CellSpec) -> str:
    if board.sensor.model == REED:
        return f"r{cell.row} c{cell.col}"
    return f"m{cell.row} ch{cell.col}"


def board_svg(board: BoardSpec) -> str:
    width, height = board.width_mm, board.height_mm + TITLE_MM * 2
    pitch = pitch_mm(board)

    def y(cell_y: float) -> float:
        return height - cell_y

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}mm" height="{_f(height)}mm" '
        f'viewBox="0 0 {_f(width)} {_f(height)}" font-family="sans-serif">',
        f"<title>{escape(board.name)}: cells, sensor addresses and LED chain</title>",
        f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height)}" fill="#f4ead7"/>',
        f'<rect x="0" y="{_f(TITLE_MM * 2)}" width="{_f(board.width_mm)}" height="{_f(board.height_mm)}" '
        'fill="#e0c89a" stroke="#6b4f1d" stroke-width="1"/>',
        f'<text x="{_f(width / 2)}" y="{_f(TITLE_MM * 1.4)}" font-size="{_f(TITLE_MM)}" text-anchor="middle">'
        f"{escape(board.name)}</text>",
    ]
    geometry = board.geometry
    if board.geometry_name == "hex_hexagon":
        for a in range(geometry.size):
            for b in geometry.neighbours(a):
                if b > a:
                    ca, cb = board.cells[a], board.cells[b]
                    out.append(
                        f'<line x1="{_f(ca.x_mm)}" y1="{_f(y(ca.y_mm))}" x2="{_f(cb.x_mm)}" '
                        f'y2="{_f(y(cb.y_mm))}" stroke="#6b4f1d" stroke-width="1.5"/>'
                    )
    for cell in board.cells:
        out.append(_cell_shape(board.geometry_name, cell.x_mm, y(cell.y_mm), pitch))
    chain = sorted(board.cells, key=lambda c: c.led)
    points = " ".join(f"{_f(c.x_mm)},{_f(y(c.y_mm) + pitch * 0.35)}" for c in chain)
    out.append(
        f'<polyline points="{points}" fill="none" stroke="#d2691e" stroke-width="0.8" '
        'stroke-dasharray="2,1.5"/>'
    )
    first = chain[0]
    out.append(
        f'<circle cx="{_f(first.x_mm)}" cy="{_f(y(first.y_mm) + pitch * 0.35)}" r="1.6" fill="#d2691e"/>'
    )
    small = pitch * 0.11
    for cell in board.cells:
        cx, cy = cell.x_mm, y(cell.y_mm)
        out.append(
            f'<text x="{_f(cx)}" y="{_f(cy - pitch * 0.12)}" font-size="{_f(pitch * 0.2)}" '
            'font-weight="bold" '
            f'text-anchor="middle">{cell.name}</text>'
        )
        out.append(
            f'<text x="{_f(cx)}" y="{_f(cy + pitch * 0.08)}" font-size="{_f(small)}" text-anchor="middle">'
            f"{address_label(board, cell)}</text>"
        )
        out.append(
            f'<text x="{_f(cx)}" y="{_f(cy + pitch * 0.24)}" font-size="{_f(small)}" text-anchor="middle" '
            f'fill="#8b3a0e">LED {cell.led}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cell_shape(geometry_name: str, cx: float, cy: float, pitch: float) -> str:
    style = 'fill="#f7f1e3" stroke="#6b4f1d" stroke-width="0.6"'
    if geometry_name == "square_grid":
        half = pitch / 2 - 0.5
        side = _f(half * 2)
        return f'<rect x="{_f(cx - half)}" y="{_f(cy - half)}" width="{side}" height="{side}" {style}/>'
    if geometry_name == "hex_parallelogram":
        radius = pitch / math.sqrt(3) - 0.4  # pointy-top hexes touching along their flats
        corners = " ".join(
            f"{_f(cx + radius * math.cos(math.radians(90 + 60 * k)))},"
            f"{_f(cy + radius * math.sin(math.radians(90 + 60 * k)))}"
            for k in range(6)
        )
        return f'<polygon points="{corners}" {style}/>'
    return f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="{_f(pitch * 0.36)}" {style}/>'
