"""What `magboard service install` writes, and where, under an installation prefix.

An existing configuration file is the user's: it is read and checked, never
overwritten, and the unit is generated from it; the unit and the udev rule are
regenerated every time.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from host.service.config import ServiceConfig, parse_config, read_config_text, render_config
from host.service.units import CONFIG_PATH, UDEV_PATH, UNIT_PATH, render_udev_rule, render_unit


@dataclass(frozen=True)
class PlannedFile:
    path: Path
    text: str
    keep: bool  # already there and valid: left as it is


def magboard_command() -> list[str]:
    """How the unit runs this installation's magboard: its console script, else its interpreter."""
    script = Path(sys.executable).parent / "magboard"
    if script.is_file():
        return [str(script.absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "host.cli"]


def plan(prefix: Path, user: str, command: list[str] | None = None) -> list[PlannedFile]:
    """The files to write; ConfigError when an existing configuration is invalid."""
    config_path = prefix / CONFIG_PATH
    if config_path.exists():
        text = read_config_text(config_path)
        config = parse_config(text, str(config_path))
        config_file = PlannedFile(config_path, text, keep=True)
    else:
        config = ServiceConfig()
        config_file = PlannedFile(config_path, render_config(config), keep=False)
    unit = render_unit(config, command or magboard_command(), user, config_path)
    return [
        config_file,
        PlannedFile(prefix / UNIT_PATH, unit, keep=False),
        PlannedFile(prefix / UDEV_PATH, render_udev_rule(), keep=False),
    ]


def write(files: list[PlannedFile]) -> list[Path]:
    """Write the files not kept; OSError names the file that failed."""
    written = []
    for planned in files:
        if planned.keep:
            continue
        planned.path.parent.mkdir(parents=True, exist_ok=True)
        planned.path.write_text(planned.text, encoding="utf-8")
        written.append(planned.path)
    return written
