"""`magboard service ...`: run the board as an appliance that starts with the Pi.

    magboard service install [--dry-run] [--prefix DIR] [--user NAME]
        writes /etc/magboard/config.toml (unless there is one: then it is checked and used),
        /etc/systemd/system/magboard.service and /etc/udev/rules.d/60-magboard.rules
    magboard service check [FILE]
        checks a configuration file (default /etc/magboard/config.toml)

Writing under / needs root (sudo); --prefix writes the same tree under DIR
instead, and --dry-run prints what would be written.
"""

from __future__ import annotations

import argparse
import getpass
import os
from pathlib import Path

from host.cli_error import CliError
from host.service.config import ConfigError, read_config
from host.service.install import plan, write
from host.service.units import CONFIG_PATH, DEVICE_LINK, SERVICE_NAME

NEXT_STEPS = f"""Then, as root:
  udevadm control --reload && udevadm trigger      # /dev/{DEVICE_LINK} appears when the Pico is plugged in
  systemctl daemon-reload && systemctl enable --now {SERVICE_NAME}
  journalctl -u {SERVICE_NAME} -f                   # what the service says"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("service", help="run the board at boot: systemd unit, udev rule, configuration")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    a = actions.add_parser("install", help="write the configuration, the systemd unit and the udev rule")
    a.add_argument("--dry-run", action="store_true", help="print what would be written; write nothing")
    a.add_argument("--prefix", type=Path, default=Path("/"), help="install under this directory (default: /)")
    a.add_argument(
        "--user", default=None, help="the user the service runs as (default: you, even under sudo)"
    )
    a.set_defaults(run=run_install)

    a = actions.add_parser("check", help="check a configuration file")
    a.add_argument("file", nargs="?", type=Path, default=Path("/") / CONFIG_PATH, metavar="FILE")
    a.set_defaults(run=run_check)


def _user(args: argparse.Namespace) -> str:
    return str(args.user or os.environ.get("SUDO_USER") or getpass.getuser())


def run_install(args: argparse.Namespace) -> int:
    try:
        files = plan(args.prefix, _user(args))
    except ConfigError as exc:
        raise CliError(f"{exc}\n(fix the configuration; nothing was written)") from None
    if args.dry_run:
        for planned in files:
            if planned.keep:
                print(f"# {planned.path}: exists and is valid, kept")
            else:
                print(f"# {planned.path}\n{planned.text}")
        return 0
    try:
        written = write(files)
    except OSError as exc:
        hint = " (run with sudo, or --prefix DIR)" if isinstance(exc, PermissionError) else ""
        raise CliError(f"{exc.filename}: cannot write: {exc.strerror}{hint}", 1) from None
    for planned in files:
        print(f"{'kept' if planned.keep else 'wrote'} {planned.path}")
    if written and args.prefix.resolve() == Path("/"):
        print(NEXT_STEPS)
    return 0


def run_check(args: argparse.Namespace) -> int:
    try:
        config = read_config(args.file)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    print(f"{args.file}: ok: magboard {' '.join(config.play_arguments())}")
    return 0
