"""The tests that play Debian's GnuGo (gnugo): skipped without it, but never in CI (.ci/run installs it),
where they fail."""

from __future__ import annotations

import os

import pytest

from host.peers.gtp.engine import resolve
from host.peers.gtp.protocol import GtpError


@pytest.fixture
def gnugo() -> None:
    try:
        resolve(["gnugo"])
    except GtpError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must test against GnuGo (apt-get install gnugo): {exc}")
        pytest.skip(f"gnugo is not installed: {exc}")
