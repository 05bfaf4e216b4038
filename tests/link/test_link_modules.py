"""The link's modules: small ones, and the protocol's free of threads, clocks and ports.

The protocol (host.link.protocol and what it is built of) must be testable by
bytes and times alone (tests/link/test_link_protocol.py): whatever it imports
is pure too, the standard library's computing parts or another pure module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

LINK = Path(__file__).parents[2] / "host" / "link"
LONGEST = 350  # lines
PURE = (
    "protocol",
    "phase",
    "reader",
    "expectation",
    "frames",
    "cobs",
    "messages",
    "snapshot",
    "status",
    "led_plan",
)
STDLIB = {"__future__", "collections.abc", "dataclasses", "enum", "logging", "struct", "zlib"}  # no I/O


@pytest.mark.parametrize("name", PURE)
def test_the_protocol_has_no_thread_clock_or_port_in_it(name: str) -> None:
    path = LINK / f"{name}.py"
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
    allowed = STDLIB | {f"host.link.{pure}" for pure in PURE}
    assert imported <= allowed, f"host/link/{name}.py imports {sorted(imported - allowed)}"


@pytest.mark.parametrize("path", sorted(LINK.glob("*.py")), ids=lambda path: path.name)
def test_no_module_of_the_link_does_too_much(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= LONGEST, f"{path.name}: {lines} lines, more than {LONGEST}: split off one of its jobs"
