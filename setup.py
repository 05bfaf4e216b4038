"""The optional compiled build of engines/ (README: "A compiled AI").

pyproject.toml holds everything else.  Without ``MAGBOARD_COMPILE=1`` this adds
nothing and the install is pure Python.  With it, mypyc compiles the modules
of engines/ (all but INTERPRETED) into C extensions installed beside their
sources, which Python then imports instead; the build backend
(build_backend/) asks for mypy for that.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import Extension, setup

# Left interpreted: the queen-distance floods of Desdemona's and the Amazons' evaluations run on 228-bit ints,
# far beyond mypyc's machine-word ints, and compiled every shift and mask of them costs more than in the
# interpreter (measured: the Desdemona search at 0.8 times its pure speed with its evaluation compiled, 1.2
# without).
INTERPRETED = {"engines/queens.py", "engines/desdemona/bits.py", "engines/amazons/territory.py"}


def compiled_engines() -> list[Extension]:
    """engines/ as mypyc extensions when MAGBOARD_COMPILE=1, else nothing."""
    if os.environ.get("MAGBOARD_COMPILE") != "1":
        return []
    try:
        from mypyc.build import mypycify  # only here: a pure install needs no mypy
    except ModuleNotFoundError:
        raise SystemExit(
            "MAGBOARD_COMPILE=1 needs mypy: pip install mypy (for --no-build-isolation)"
        ) from None

    modules = sorted(path.as_posix() for path in Path("engines").rglob("*.py"))
    modules = [module for module in modules if module not in INTERPRETED]
    return mypycify(modules, opt_level="3", group_name="magboard_engines")


setup(ext_modules=compiled_engines())
