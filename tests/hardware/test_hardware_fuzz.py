"""Any damage to a board file gives a BoardFileError naming the problem, never a crash."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.hardware.loading import BoardFileError, board_path, parse_board
from tests.budget import examples

SOURCE = board_path("spacetiles-hall")
DOCUMENT = tomllib.loads(SOURCE.read_text(encoding="utf-8"))


def key_paths(node: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            paths += key_paths(value, (*prefix, key))
    return paths


PATHS = key_paths(DOCUMENT)
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.lists(st.integers(min_value=-3, max_value=40), max_size=5),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def damaged(path: tuple[str, ...], junk: Any) -> dict[str, Any]:
    copy = tomllib.loads(SOURCE.read_text(encoding="utf-8"))
    node = copy
    for key in path[:-1]:
        node = node[key]
    if junk is None:
        del node[path[-1]]
    else:
        node[path[-1]] = junk
    return copy


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), JUNK)
def test_damaged_board_file_is_rejected_or_loads(path: tuple[str, ...], junk: Any) -> None:
    try:
        board = parse_board(damaged(path, junk), Path(SOURCE))
    except BoardFileError as exc:
        assert exc.problems
        assert all(isinstance(p, str) and p for p in exc.problems)
    else:
        assert len(board.cells) == 45
