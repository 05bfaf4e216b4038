"""Reading board files (TOML) into checked ``BoardSpec`` values.

Every problem is reported with the file and the key it concerns, all at once,
so that a person editing a board file fixes it in one pass.  Structural
problems (a missing key, a wrong type) are found here; consistency between
keys (two cells on one address, a pin used twice, a power budget) is checked
by ``host.hardware.validation`` once the structure is sound.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import hardware
from engines import geometry as geometries
from engines import registry
from engines.table import Role
from host.files import MIB, read_text
from host.hardware.reader import Problems, Table, parse_toml
from host.hardware.spec import (
    LED_DRIVERS,
    MAGNET_STRENGTHS,
    NO_MAGNET,
    POLES,
    REED,
    SENSOR_MODELS,
    BoardSpec,
    Button,
    ButtonSpec,
    CellSpec,
    LedSpec,
    ObjectSpec,
    PicoPins,
    SensorSpec,
)

BOARDS_DIR = Path(hardware.__file__).parent / "boards"
BOARD_BYTES = MIB  # ours are under 10 KiB
FORMAT = 1
MAX_GEOMETRY_ARG = 26  # files are named a-z
MAX_SETTLE_US = 100  # as the firmware's board_config.json reader allows

GEOMETRIES: dict[str, tuple[Callable[..., geometries.Geometry], int]] = {
    "square_grid": (geometries.square_grid, 2),
    "hex_parallelogram": (geometries.hex_parallelogram, 2),
    "hex_hexagon": (geometries.hex_hexagon, 1),
}


def display_path(path: Path) -> str:
    """The path as a person would type it here: relative to the working directory when inside it."""
    absolute = path.resolve()
    try:
        return str(absolute.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class BoardFileError(ValueError):
    """A board file that cannot be used; ``problems`` are "key: what is wrong" lines."""

    def __init__(self, source: Path, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        where = display_path(source)
        super().__init__("\n".join(f"{where}: {problem}" for problem in problems))


@cache
def board_dirs() -> tuple[Path, ...]:
    """Where board files are found: hardware/boards, then the ``boards/`` folder of each installed
    game's package, where a game from another distribution ships its own as package data (its
    entry point says which package; found without importing it)."""
    found = [BOARDS_DIR]
    for package in dict.fromkeys(registry.packages().values()):
        try:
            spec = find_spec(package)
        except (ImportError, ValueError):  # a broken third-party game: registry says so when asked for it
            continue
        locations = spec.submodule_search_locations if spec is not None else None
        for location in locations or ():
            boards = Path(location) / "boards"
            if boards not in found and any(boards.glob("*.toml")):
                found.append(boards)
    return tuple(found)


def _shipped() -> dict[str, Path]:
    """Every board file found, by id (hardware/boards first: an id found twice is the first's)."""
    shipped: dict[str, Path] = {}
    for folder in board_dirs():
        for path in sorted(folder.glob("*.toml")):
            shipped.setdefault(path.stem, path)
    return shipped


def board_ids() -> list[str]:
    """The ids of the boards shipped in hardware/boards and in the installed games' packages."""
    return sorted(_shipped())


def board_path(name: str) -> Path:
    """A shipped board's file by id, or a board file by path."""
    if name.endswith(".toml") or os.sep in name:
        path = Path(name)
        if not path.is_file():
            raise BoardFileError(path, ["no such file"])
        return path
    shipped = _shipped()
    if name not in shipped:
        known = ", ".join(sorted(shipped))
        raise BoardFileError(BOARDS_DIR / f"{name}.toml", [f"no board {name!r} (known: {known})"])
    return shipped[name]


def load_board(name: str | Path) -> BoardSpec:
    """Read and check a board by id or path; BoardFileError lists every problem found."""
    path = name if isinstance(name, Path) else board_path(name)
    try:
        data = parse_toml(read_text(path, BOARD_BYTES))
    except OSError as exc:
        raise BoardFileError(path, [f"cannot read: {exc.strerror}"]) from None
    except ValueError as exc:
        raise BoardFileError(path, [str(exc)]) from None
    return parse_board(data, path)


def parse_board(data: Mapping[str, object], source: Path) -> BoardSpec:
    from host.hardware.validation import check_board

    problems = Problems()
    spec = _parse(Table(data, "", problems), source, problems)
    if spec is not None and not problems:
        for message in check_board(spec):
            problems.add("", message)
    if problems or spec is None:
        raise BoardFileError(source, problems.messages)
    return spec


def _parse(top: Table, source: Path, problems: Problems) -> BoardSpec | None:
    fmt = top.integer("format")
    if fmt != FORMAT and "format" in top.data:
        problems.add("format", f"this program reads format {FORMAT}, not {fmt}")
    board_id = top.text("id")
    if board_id and board_id != source.stem:
        problems.add("id", f"{board_id!r} differs from the file name {source.stem!r}")
    name = top.text("name")
    game = top.text("game", choices=tuple(registry.available()))
    geometry_name = top.text("geometry", choices=tuple(GEOMETRIES))
    geometry_args = tuple(top.integers("geometry_args"))
    geometry = None
    if geometry_name in GEOMETRIES:
        make, arity = GEOMETRIES[geometry_name]
        if len(geometry_args) != arity or any(not 1 <= a <= MAX_GEOMETRY_ARG for a in geometry_args):
            problems.add("geometry_args", f"{geometry_name} takes {arity} integer(s) 1..{MAX_GEOMETRY_ARG}")
        else:
            try:
                geometry = make(*geometry_args)
            except (IndexError, ValueError):  # more files than there are file letters
                problems.add(
                    "geometry_args", f"{geometry_args} makes more files than the letters a-z can name"
                )

    outline = top.table("outline")
    width = outline.number("width_mm", minimum=1)
    height = outline.number("height_mm", minimum=1)
    outline.finish()

    sensor = _sensor(top.table("sensor"))
    pico = _pico(top.table("pico"), sensor.model)
    objects = _objects(top.table("objects"), game)
    leds = _leds(top.table("leds"))
    buttons = _buttons(top.table("buttons"))
    parts_table = top.table("parts")
    parts = {key: parts_table.text(key) for key in list(parts_table.data)}
    parts_table.finish()
    cells = _cells(top.table("cells"), sensor.model, problems, geometry)
    top.finish()
    if geometry is None or problems:
        return None
    return BoardSpec(
        id=board_id,
        name=name,
        game=game,
        geometry_name=geometry_name,
        geometry_args=geometry_args,
        geometry=geometry,
        width_mm=width,
        height_mm=height,
        sensor=sensor,
        pico=pico,
        objects=objects,
        leds=leds,
        buttons=buttons,
        parts=parts,
        cells=cells,
        source=source,
    )


def _sensor(t: Table) -> SensorSpec:
    model = t.text("model", choices=SENSOR_MODELS)
    common: dict[str, Any] = {
        "model": model,
        "part": t.text("part"),
        "rows": t.integer("rows", minimum=1, maximum=16),
        "cols": t.integer("cols", minimum=1, maximum=16),
        "debounce_ms": t.integer("debounce_ms", minimum=1, maximum=1000),
        "scan_period_us": t.integer("scan_period_us", minimum=250, maximum=50_000),
        "settle_us": t.integer("settle_us", minimum=0, maximum=MAX_SETTLE_US),
    }
    if model == REED or model not in SENSOR_MODELS:
        t.finish()
        return SensorSpec(**common)
    signal_table = t.table("signal")
    signal = {}
    for strength in list(signal_table.data):
        if strength in MAGNET_STRENGTHS and strength != NO_MAGNET:
            signal[strength] = signal_table.integer(strength, minimum=1, maximum=32767)
    signal_table.finish()
    spec = SensorSpec(
        **common,
        zero_nominal=t.integer("zero_nominal", minimum=0, maximum=65535),
        threshold=t.integer("threshold", minimum=1, maximum=32767),
        hysteresis=t.integer("hysteresis", minimum=0, maximum=32767),
        strong_threshold=t.integer("strong_threshold", minimum=1, maximum=32767)
        if model == "hall_levels"
        else None,
        signal=signal,
    )
    t.finish()
    return spec


def _pico(t: Table, model: str) -> PicoPins:
    heartbeat = t.integer("heartbeat_ms", minimum=100, maximum=2000)
    if model == REED:
        pins = PicoPins(
            row_pins=tuple(t.integers("row_pins")),
            col_pins=tuple(t.integers("col_pins")),
            heartbeat_ms=heartbeat,
        )
    else:
        pins = PicoPins(
            mux_select_pins=tuple(t.integers("mux_select_pins")),
            mux_enable_pins=tuple(t.integers("mux_enable_pins")),
            adc_pin=t.integer("adc_pin"),
            heartbeat_ms=heartbeat,
        )
    t.finish()
    return pins


def _objects(t: Table, game: str) -> dict[str, ObjectSpec]:
    roles = (
        {k.kind: k.role for k in registry.make(game).table.objects} if game in registry.available() else {}
    )
    out = {}
    for kind, sub in t.subtables():
        if kind not in roles:
            t.problems.add(sub.path, f"game {game} has no object of kind {kind!r}")
            continue
        magnet = sub.text("magnet", choices=MAGNET_STRENGTHS)
        poles: tuple[str, ...] = ()
        if sub.has("pole_down"):
            raw = sub.data["pole_down"]
            raw_list = [raw] if isinstance(raw, str) else raw
            if not isinstance(raw_list, list) or any(p not in POLES for p in raw_list):
                t.problems.add(sub.key("pole_down"), 'expected "north", "south" or a list of them by colour')
            else:
                poles = tuple(raw_list)
        out[kind] = ObjectSpec(
            kind=kind, role=roles[kind], count=sub.integer("count", minimum=1), magnet=magnet, pole_down=poles
        )
        _check_poles(sub, out[kind])
        sub.finish()
    for kind in roles:
        if kind not in t.data:
            t.problems.add(t.key(kind), f"missing: game {game} uses objects of kind {kind!r}")
    return out


def _check_poles(t: Table, obj: ObjectSpec) -> None:
    key = t.key("pole_down")
    if obj.magnet == NO_MAGNET:
        if obj.pole_down:
            t.problems.add(key, "an object without a magnet has no pole")
        return
    wanted = len(obj.role.colours)
    if len(obj.pole_down) != wanted:
        shape = "one pole" if wanted == 1 else "a list of two poles, for colour 0 and colour 1"
        t.problems.add(key, f"a {obj.role.value} {obj.kind} with a magnet needs {shape}")
    elif obj.role is Role.REVERSIBLE and obj.pole_down[0] == obj.pole_down[1]:
        t.problems.add(key, f"turning a {obj.kind} over turns its magnet: the two poles must differ")


def _leds(t: Table) -> LedSpec:
    spec = LedSpec(
        driver=t.text("driver", choices=LED_DRIVERS),
        pin=t.integer("pin", minimum=0),
        count=t.integer("count", minimum=1, maximum=1024),
        order=t.text("order", choices=("RGB", "GRB", "BRG", "RBG", "GBR", "BGR")),
        ma_per_channel=t.number("ma_per_channel", minimum=0),
        idle_ma=t.number("idle_ma", minimum=0),
        supply_ma=t.number("supply_ma", minimum=1),
        brightness_cap=t.number("brightness_cap", minimum=0.01, maximum=1.0),
        gamma=t.number("gamma", minimum=1.0, maximum=4.0),
        current_limit_ma=t.optional_number("current_limit_ma", minimum=1),
    )
    t.finish()
    return spec


def _buttons(t: Table) -> ButtonSpec:
    named = [b.value for b in Button if not b.optional or t.has(b.value)]
    pins = {name: t.integer(name, minimum=0) for name in named}
    spec = ButtonSpec(pins=pins, debounce_ms=t.integer("debounce_ms", minimum=1, maximum=500))
    t.finish()
    return spec


def _cells(
    t: Table, model: str, problems: Problems, geometry: geometries.Geometry | None
) -> tuple[CellSpec, ...]:
    row_key, col_key = ("row", "col") if model == REED else ("mux", "channel")
    found: dict[str, CellSpec] = {}
    for name, sub in t.subtables():
        found[name] = CellSpec(
            name=name,
            x_mm=sub.number("x"),
            y_mm=sub.number("y"),
            row=sub.integer(row_key, minimum=0),
            col=sub.integer(col_key, minimum=0),
            led=sub.integer("led", minimum=0),
        )
        sub.finish()
    if geometry is None:
        return tuple(found.values())
    for name in found:
        if name not in geometry.index:
            problems.add(t.key(name), "no such cell in this geometry")
    missing = [name for name in geometry.names if name not in found]
    if missing:
        shown = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        problems.add(t.path, f"{len(missing)} cell(s) missing: {shown}")
    return tuple(found[name] for name in geometry.names if name in found)
