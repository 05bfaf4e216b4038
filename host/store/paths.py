"""Where the store lives: the XDG data directory, as the user's other data does."""

from __future__ import annotations

import os
from pathlib import Path

STORE_NAME = "games.sqlite3"


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "magboard"


def default_store() -> Path:
    return data_dir() / STORE_NAME
