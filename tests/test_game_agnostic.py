"""The host never branches on a game: what a game is lives in its own package (engines/<game>/).

Every string literal that is a game id, and every comparison of a ``.id`` with a literal, outside the
games' packages and the registry is a branch on a game that nobody owns: a fifth game would need it edited.
The page's static files are checked the same way, by word.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engines import registry
from tests.conftest import ROOT

GAMES = frozenset(registry.available())
PACKAGES = {p for game in GAMES for p in (ROOT / "engines" / game).rglob("*.py")}
ALLOWED = {ROOT / "engines" / "registry.py"} | PACKAGES


def python_files() -> list[Path]:
    return [p for top in ("host", "engines") for p in sorted((ROOT / top).rglob("*.py")) if p not in ALLOWED]


def branches(path: Path, root: Path = ROOT) -> list[str]:
    """Each game-id literal and each ``.id == literal`` comparison in ``path``, with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and node.value in GAMES:
            found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            by_id = any(isinstance(s, ast.Attribute) and s.attr == "id" for s in sides)
            if by_id and any(isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides):
                found.append(f"{path.relative_to(root)}:{node.lineno}: compares an id with a literal")
    return found


def test_the_games_are_found_by_their_entry_points() -> None:
    assert {"kingofrings", "desdemona", "spacetiles", "flipfour", "go7", "amazons"} == GAMES


def test_no_python_outside_the_games_names_a_game() -> None:
    found = [hit for path in python_files() for hit in branches(path)]
    assert found == []


def test_the_page_names_no_game() -> None:
    word = re.compile(r"\b(" + "|".join(sorted(GAMES)) + r")\b")
    static = sorted((ROOT / "host" / "web" / "static").iterdir())
    found = [
        f"{p.name}:{n}: {line.strip()}"
        for p in static
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
        if word.search(line)
    ]
    assert found == []


def test_the_check_finds_a_branch_on_a_game(tmp_path: Path) -> None:
    source = tmp_path / "branchy.py"
    source.write_text('def words(game):\n    return "rings" if game.id == "kingofrings" else ""\n')
    assert len(branches(source, tmp_path)) == 2  # the literal and the comparison
