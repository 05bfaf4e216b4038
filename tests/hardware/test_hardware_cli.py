"""`magboard hardware ...` end to end."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from host.cli import main
from host.hardware.loading import board_ids


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == board_ids()


def test_check_all_shipped_boards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "check"]) == 0
    assert capsys.readouterr().out.count(": ok\n") == len(board_ids())


def test_check_a_broken_file_names_file_and_key(
    variant: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path = variant("flipfour-reed", ("row_pins = [2, 3, 4, 5, 6]", "row_pins = [2, 3, 4, 5, 5]"))
    assert main(["hardware", "check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "flipfour-reed.toml: pico.row_pins[4]: GP5 is already used by pico.row_pins[3]" in err


def test_docs_check_passes_on_the_committed_docs() -> None:
    assert main(["hardware", "docs", "--check"]) == 0


def test_docs_into_another_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "docs", "flipfour-hall", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "flipfour-hall-bom.md",
        "flipfour-hall-wiring.md",
        "flipfour-hall.svg",
    ]
    assert main(["hardware", "docs", "flipfour-hall", "--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "flipfour-hall.svg").write_text("stale", encoding="utf-8")
    assert main(["hardware", "docs", "flipfour-hall", "--out", str(tmp_path), "--check"]) == 1
    assert "flipfour-hall.svg: out of date" in capsys.readouterr().err


def test_config_to_a_file_with_a_calibration(tmp_path: Path) -> None:
    zeros = tmp_path / "zeros.json"
    zeros.write_text(json.dumps({"zero": list(range(32000, 32032))}), encoding="utf-8")
    out = tmp_path / "board_config.json"
    assert main(["hardware", "config", "flipfour-hall", "--calibration", str(zeros), "-o", str(out)]) == 0
    config = json.loads(out.read_text(encoding="utf-8"))
    assert config["board"] == "flipfour-hall"
    assert config["calibration"]["zero"][31] == 32031


def test_config_of_an_unknown_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "config", "go-19x19"]) == 1
    assert "no board 'go-19x19'" in capsys.readouterr().err


def test_config_with_a_bad_calibration(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    zeros = tmp_path / "zeros.json"
    zeros.write_text('{"zero": []}', encoding="utf-8")
    assert main(["hardware", "config", "flipfour-hall", "--calibration", str(zeros)]) == 2
    assert "zero: expected a list of 32 integers" in capsys.readouterr().err


def test_selftest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hardware", "selftest", "flipfour-reed"]) == 0
    assert capsys.readouterr().out == "flipfour-reed: ok: 19/19 LEDs lit, 38/38 objects read back\n"
