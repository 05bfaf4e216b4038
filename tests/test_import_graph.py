"""No module of host/ or engines/ imports itself, however far round.

A cycle works until someone imports its modules in another order and finds a
name missing from a module half run; it also means neither side can be
understood (or tested) without the other. The graph is read from the source
with ast, not by importing it, so that a cycle is found even where it would
not fail today.

What counts as an edge from module M to module N:
- ``import N`` and ``from N import x`` anywhere in M, at its top or inside a
  function: a lazy import only postpones the cycle to the first call, and the
  two modules still cannot be understood apart. ``if TYPE_CHECKING:`` imports
  count too (they are cycles for the type checker and for the reader).
- ``from P import x`` reads x from P's namespace, so it is an edge to P even
  when x is the submodule P.x (then also an edge to P.x): if P's ``__init__``
  imports M, M meets a half-initialised P.
- ``importlib.import_module("N")``, and ``import_module(f"P.{name}")`` as an
  edge to every module under P: the command line finds its subcommands so.
- Not an edge: importing P.x does run P's ``__init__`` first, but reads
  nothing from it; counting it would make every package whose ``__init__``
  gathers its submodules' names one big cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("host", "engines")


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module under the packages, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _resolve(module: str | None, level: int, importer: str, is_package: bool) -> str:
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _known(name: str, known: dict[str, Path]) -> str | None:
    """The longest prefix of name that is one of our modules (import a.b.c names a.b.c or a.b)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def _import_module_targets(call: ast.Call, known: dict[str, Path]) -> Iterator[str]:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    if name != "import_module" or not call.args:
        return
    arg = call.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        target = _known(arg.value, known)
        if target is not None:
            yield target
    elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        prefix = str(arg.values[0].value)
        if prefix.endswith("."):
            yield from (m for m in known if m.startswith(prefix))


def imports_of(module: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every module of ours that module imports, by the rules in this file's docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(t for alias in node.names if (t := _known(alias.name, known)) is not None)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(node.module, node.level, module, is_package)
            if (base := _known(source, known)) is not None:
                targets.add(base)
            names = (f"{source}.{alias.name}" for alias in node.names)
            targets.update(name for name in names if name in known)
        elif isinstance(node, ast.Call):
            targets.update(_import_module_targets(node, known))
    return targets


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    known = modules(root, packages)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module, or one that imports itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a long chain of imports cannot exhaust the recursion limit.
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph[node]:
                        found.append(frozenset(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_host_and_engines_import_no_module_from_itself() -> None:
    found = [", ".join(sorted(cycle)) for cycle in cycles(import_graph())]
    advice = "break each, e.g. by moving the name both need into a module of its own"
    assert not found, f"import cycles ({advice}):\n" + "\n".join(found)


# Layers that must not reach up or sideways: the session knows no hardware flavour (one factory in
# host/wiring builds them) and no page; the simulator knows no session, page or wiring.
FORBIDDEN = {
    "host.session": ("host.sim", "host.wiring", "host.web", "host.doctor", "host.commands"),
    "host.sim": ("host.session", "host.wiring", "host.web", "host.doctor", "host.commands"),
}


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_session_and_the_simulator_import_no_layer_above_or_beside_them() -> None:
    graph = import_graph()
    found = [
        f"{module} imports {target}"
        for module, targets in sorted(graph.items())
        for package, forbidden in FORBIDDEN.items()
        if _within(module, package)
        for target in sorted(targets)
        if any(_within(target, other) for other in forbidden)
    ]
    assert not found, "layers crossed:\n" + "\n".join(found)


def test_strongly_connected_components_are_the_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert sorted(map(sorted, cycles(graph))) == [["a", "b", "c"], ["e"]]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_every_kind_of_import_is_an_edge(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.inner import thing\n",
            "pkg/inner.py": "def thing():\n    from pkg import other\n",
            "pkg/other.py": "from . import inner\nimport pkg.deep.leaf\n",
            "pkg/deep/__init__.py": "",
            "pkg/deep/leaf.py": "from ..other import x\nfrom importlib import import_module\n",
            "pkg/cli.py": "import importlib\nimportlib.import_module(f'pkg.deep.{name}')\n",
            "pkg/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.cli\n",
        },
    )
    graph = import_graph(tmp_path, ("pkg",))
    assert graph == {
        "pkg": {"pkg.inner"},
        "pkg.inner": {"pkg", "pkg.other"},  # lazy, and from a package: an edge to the package too
        "pkg.other": {"pkg", "pkg.inner", "pkg.deep.leaf"},  # relative; import a.b.c names a.b.c only
        "pkg.deep": set(),
        "pkg.deep.leaf": {"pkg.other"},
        "pkg.cli": {"pkg.deep.leaf"},  # import_module(f"pkg.deep.{...}"): every module under pkg.deep
        "pkg.typed": {"pkg.cli"},
    }
    assert sorted(map(sorted, cycles(graph))) == [["pkg", "pkg.deep.leaf", "pkg.inner", "pkg.other"]]


def subpackage(module: str) -> str:
    """The unit of the layers a module belongs to: host.session.core -> host.session, host.cli ->
    host.cli, engines.go7.rules -> engines.go7."""
    return ".".join(module.split(".")[:2])


def subpackage_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph seen from above: an edge between two subpackages where any of their modules
    import each other (and no edge from a subpackage to itself)."""
    collapsed: dict[str, set[str]] = {subpackage(m): set() for m in graph}
    for module, targets in graph.items():
        for target in targets:
            if subpackage(target) != subpackage(module):
                collapsed[subpackage(module)].add(subpackage(target))
    return collapsed


def test_no_two_subpackages_import_each_other_however_far_round() -> None:
    found = [", ".join(sorted(cycle)) for cycle in cycles(subpackage_graph(import_graph()))]
    assert not found, "subpackages in a cycle (a layer reaching up):\n" + "\n".join(found)


def test_a_cycle_through_two_modules_of_two_subpackages_is_a_cycle_of_the_subpackages() -> None:
    graph = {"host.a.x": {"host.b.y"}, "host.b.y": set(), "host.b.z": {"host.a.w"}, "host.a.w": {"host.a.x"}}
    assert subpackage_graph(graph) == {"host.a": {"host.b"}, "host.b": {"host.a"}}
    assert cycles(subpackage_graph(graph)) == [frozenset({"host.a", "host.b"})]
    assert cycles(graph) == []  # no module imports itself, yet the subpackages reach round
