"""The processes of this machine as /proc lists them: which a process started, and which are still there."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Proc:
    pid: int
    parent: int
    session: int
    started: int  # clock ticks after boot: with the pid, one process even if the pid is reused
    command: str


def processes() -> dict[int, Proc]:
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # ended meanwhile
        fields = stat[stat.rindex(")") + 2 :].split()  # the name in parentheses may hold spaces
        pid = int(entry)
        found[pid] = Proc(pid, int(fields[1]), int(fields[3]), int(fields[19]), command)
    return found


def descendants(root: int) -> list[Proc]:
    """Every process ``root`` started, and those they started, now."""
    table = processes()
    below, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        children = [p for p in table.values() if p.parent == parent]
        below += children
        frontier += [c.pid for c in children]
    return below


def alive(snapshot: list[Proc]) -> list[Proc]:
    """The processes of ``snapshot`` that are still running."""
    table = processes()
    return [p for p in snapshot if p.pid in table and table[p.pid].started == p.started]


def fork_server_workers(below: list[Proc]) -> tuple[Proc | None, list[Proc]]:
    """Among ``below``: multiprocessing's fork server (the first, not forked from another), and the
    processes it forked."""
    servers = [p for p in below if "multiprocessing.forkserver" in p.command]
    server = next((p for p in servers if not any(s.pid == p.parent for s in servers)), None)
    return server, [p for p in below if server is not None and p.parent == server.pid]
