"""`magboard firmware deploy --board BOARD`: the firmware and the board's config onto the Pico."""

from __future__ import annotations

import argparse
import shlex
import subprocess
import tempfile
from pathlib import Path

from host.cli_error import CliError
from host.deploy import READY_S, DeployError, commands, mpremote, verify
from host.doctor.firmware_version import version_text
from host.gamearg import board_argument
from host.hardware.calibration import CalibrationError, load_zeros
from host.hardware.firmware_config import config_text


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("firmware", help="put the firmware on the board's Pico")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    deploy = actions.add_parser("deploy", help="copy the firmware and the board's config, then check it runs")
    deploy.add_argument("--board", required=True, help="board id or file (see `magboard hardware list`)")
    deploy.add_argument("--port", help="the Pico's serial port (default: found by its USB id)")
    deploy.add_argument("--calibration", type=Path, help='measured Hall zeros, JSON {"zero": [...]}')
    deploy.add_argument("--dry-run", action="store_true", help="print the mpremote commands, run nothing")
    deploy.add_argument(
        "--wait", type=float, default=READY_S, metavar="SECONDS", help="how long the Pico may take to boot"
    )
    deploy.set_defaults(run=run_deploy)


def run_deploy(args: argparse.Namespace) -> int:
    board = board_argument(args.board)
    try:
        calibration = load_zeros(board, args.calibration) if args.calibration else None
    except CalibrationError as exc:
        raise CliError(str(exc)) from None
    with tempfile.TemporaryDirectory(prefix="magboard-deploy-") as tmp:
        config = Path(tmp) / "board_config.json"
        config.write_text(config_text(board, calibration), encoding="utf-8")
        try:
            tool = ["mpremote"] if args.dry_run else mpremote()
            steps = commands(tool, args.port, config)
            if args.dry_run:
                for step in steps:
                    print(shlex.join(step))
                return 0
            for step in steps:
                done = subprocess.run(step, capture_output=True, text=True)
                if done.returncode != 0:
                    lines = (done.stderr or done.stdout).strip().splitlines()
                    why = lines[-1] if lines else f"exit status {done.returncode}"
                    raise DeployError(f"{shlex.join(step[-4:])} failed: {why}")
            hello = verify(board, args.port, args.wait)
        except (DeployError, OSError) as exc:
            raise CliError(str(exc)) from None
    version = version_text(hello.firmware)
    print(f"board {hello.board}: firmware {version} running, {hello.rows}x{hello.cols} sensors")
    return 0
