"""The committed drawings, wiring tables and parts lists match the board files."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from host.hardware.docs import DOCS_DIR, INDEX, render_board_docs, render_index, stale_docs
from host.hardware.loading import board_ids, load_board
from host.hardware.tables import bom_rows


def test_committed_docs_are_up_to_date() -> None:
    boards = [load_board(b) for b in board_ids()]
    files = {name: text for board in boards for name, text in render_board_docs(board).items()}
    files[INDEX] = render_index(boards)
    assert stale_docs(files, DOCS_DIR) == [], "run `magboard hardware docs` and commit hardware/docs"
    generated = set(files)
    committed = {p.name for p in DOCS_DIR.iterdir() if p.suffix in (".md", ".svg")}
    assert committed == generated, "documents of boards that no longer exist"


@pytest.mark.parametrize("board_id", ["kingofrings-reed", "spacetiles-hall", "flipfour-reed"])
def test_drawing_labels_every_cell(board_id: str) -> None:
    board = load_board(board_id)
    svg = render_board_docs(board)[f"{board_id}.svg"]
    texts = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    for cell in board.cells:
        assert cell.name in texts
        assert f"LED {cell.led}" in texts
    if board.sensor.model == "reed":
        assert f"r{board.cell('c2').row} c{board.cell('c2').col}" in texts
    else:
        assert "m0 ch0" in texts


def test_wiring_table_names_pins_and_cells() -> None:
    wiring = render_board_docs(load_board("kingofrings-reed"))["kingofrings-reed-wiring.md"]
    assert "| GP2 | matrix row 0 (output, driven low in turn) | a1 b1 c1 d1 e1 f1 g1 |" in wiring
    assert "| GP9 | matrix column 0 (input, pull-up) | a1 a2 a3 a4 a5 a6 a7 |" in wiring
    assert "| GPIO18 | LED data out, through the level shifter and the series resistor |" in wiring
    assert "| d4 | 160 | 160 | r3 c3 | 24 | 24 |" in wiring
    assert (
        "| knight (owned) | 14 | strong | north (colour 0) / south (colour 1) | magnet / magnet |" in wiring
    )


def test_bill_of_materials_counts() -> None:
    rows = {part: qty for qty, part, _ in bom_rows(load_board("spacetiles-hall"))}
    board = load_board("spacetiles-hall")
    assert rows[board.parts["sensor"]] == 45
    assert rows[board.parts["mux"]] == 3
    assert rows[board.parts["magnet_strong"]] == 40  # pieces
    assert rows[board.parts["magnet_weak"]] == 40  # tiles
    reed = load_board("kingofrings-reed")
    reed_rows = {part: qty for qty, part, _ in bom_rows(reed)}
    assert reed_rows[reed.parts["diode"]] == 49
    assert reed_rows[reed.parts["magnet_strong"]] == 14  # knights only: rings carry none
