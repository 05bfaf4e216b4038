"""setuptools' build backend, which also asks for mypy when MAGBOARD_COMPILE=1 (setup.py).

pip builds in an isolated environment holding only what the backend asks for:
setuptools always, mypy (for mypyc) only for the compiled build, so a pure
install downloads no compiler.  setuptools documents this way of adding
build requirements ("Dynamic build dependencies").
"""

from __future__ import annotations

import os
from collections.abc import Callable

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - every hook; two are extended below

# The mypyc the compiled build was tested with (engines/pickling.py works around its bugs).
MYPYC = "mypy>=2.4"
SWITCH = "MAGBOARD_COMPILE"

ConfigSettings = dict[str, str | list[str]] | None


def _requires(hook: Callable[[ConfigSettings], list[str]], config_settings: ConfigSettings) -> list[str]:
    """setuptools' requirements, plus mypy when compiling.

    setuptools finds its own by running setup.py, before mypy is installed:
    that run must not try to compile (setup.py fails without mypyc).
    """
    switch = os.environ.pop(SWITCH, None)
    try:
        requires = hook(config_settings)
    finally:
        if switch is not None:
            os.environ[SWITCH] = switch
    return [*requires, MYPYC] if switch == "1" else requires


def get_requires_for_build_wheel(config_settings: ConfigSettings = None) -> list[str]:
    return _requires(build_meta.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: ConfigSettings = None) -> list[str]:
    return _requires(build_meta.get_requires_for_build_editable, config_settings)
