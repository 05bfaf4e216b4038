"""The one exception the command line turns into a message instead of a traceback.

Its own module so that the subcommands (and their helpers) can raise it
without importing the command line that imports them.
"""

from __future__ import annotations


class CliError(Exception):
    """An expected failure: printed as one line, with its exit status."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status
