"""The shared wire-protocol test vectors (kept with the firmware's tests)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

PATH = Path(__file__).resolve().parent.parent / "firmware" / "protocol_vectors.json"


@cache
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))
    return data
