"""Lets the firmware tests import their shared modules (fwtest, debounce_tables)
by bare name, the way mpy_runner.py does under MicroPython."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
