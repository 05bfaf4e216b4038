"""The files a person names - records, scripts, imports, configurations, exports - read and written safely.

Reading: a name can be anything the file system holds.  /dev/zero and /dev/urandom never end, a
FIFO waits for a writer that may never come, and a 50 MiB "record" is read whole before anything
looks at it.  So every read has a limit in bytes, said in the error, and anything that is not a
regular file (a FIFO, a pipe from ``<(...)``, a device) is read with a time limit as well.

Writing: an export replaces the file it names atomically (a temporary file beside it, then a
rename), and renaming replaces a directory entry whatever it was: ``-o /dev/stdout`` or a device
node would become a regular file, and a symbolic link a file of its own.  So only a regular file
is ever replaced; a symbolic link is refused rather than followed (a link planted in a shared
directory must not aim an export at another file of the user's), and so is anything else.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import stat
import time
from pathlib import Path

KIB = 1024
MIB = 1024 * KIB
READ_TIMEOUT_S = 5.0  # for a FIFO or a device: a file of ours is read in well under this
CHUNK = 64 * KIB


class FileProblem(OSError):
    """A file that cannot be read or written as asked; ``strerror`` is the one-line reason."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(0, reason, str(path))

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def size_text(size: int) -> str:
    if size >= MIB:
        return f"{size / MIB:.3g} MiB"
    return f"{size / KIB:.3g} KiB" if size >= KIB else f"{size} bytes"


def _kind(mode: int) -> str:
    kinds = (
        (stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"),
    )  # fmt: skip
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _read_stream(fd: int, path: Path, limit: int, timeout: float) -> bytes:
    """Read a FIFO or device until its end, at most ``limit`` bytes and ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    got = 0
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not poller.poll(left * 1000):
            raise FileProblem(path, f"did not end within {timeout:g} s (a FIFO or a device?)")
        try:
            chunk = os.read(fd, min(CHUNK, limit + 1 - got))
        except BlockingIOError:
            continue
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        got += len(chunk)
        if got > limit:
            raise FileProblem(path, f"too large: more than {size_text(limit)}, the most read here")


def read_bytes(path: Path, limit: int, timeout: float | None = None) -> bytes:
    """The bytes of the file at ``path``; FileProblem (an OSError) when it is too large or never ends.

    ``timeout`` (default READ_TIMEOUT_S) bounds the read of anything but a regular file.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise FileProblem(path, "is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            return _read_stream(fd, path, limit, READ_TIMEOUT_S if timeout is None else timeout)
        if info.st_size > limit:
            too_large = f"too large: {size_text(info.st_size)}; at most {size_text(limit)} is read"
            raise FileProblem(path, too_large)
        os.set_blocking(fd, True)
        chunks, got = [], 0
        while chunk := os.read(fd, min(CHUNK, limit + 1 - got)):
            chunks.append(chunk)
            got += len(chunk)
            if got > limit:  # it grew while being read
                raise FileProblem(path, f"too large: more than {size_text(limit)}, the most read here")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: Path, limit: int, timeout: float | None = None) -> str:
    """The UTF-8 text of the file at ``path``; FileProblem also when it is not UTF-8."""
    data = read_bytes(path, limit, timeout)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblem(path, f"not a text file (not UTF-8: {exc.reason} at byte {exc.start})") from None


def _fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def replaceable(path: Path) -> os.stat_result | None:
    """What is at ``path`` now (None: nothing); FileProblem unless it is a regular file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        raise FileProblem(path, "is a symbolic link: name the file itself (nothing was written)")
    if not stat.S_ISREG(info.st_mode):
        raise FileProblem(path, f"is {_kind(info.st_mode)}, not a regular file (nothing was written)")
    return info


def write_text(path: Path, text: str) -> None:
    """Replace or create the regular file at ``path`` with ``text``, atomically and durably.

    A crash leaves the old file or the new one, never half of one; anything at ``path`` that is not a
    regular file (a symbolic link, a device, a FIFO, a directory) is refused with FileProblem.
    """
    before = replaceable(path)
    directory = path.parent
    temporary = directory / f".{path.name}.{secrets.token_hex(6)}.tmp"
    # O_EXCL|O_NOFOLLOW: never a file or link someone put there; the mode is the umask's, or the old file's.
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            if before is not None:
                os.fchmod(out.fileno(), stat.S_IMODE(before.st_mode))
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        replaceable(path)  # once more, just before the rename: the shortest window for a swap
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_dir(directory)
