"""The outcome of each check, and the report a person reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Status(Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    SKIP = "SKIP"  # could not be tried (an earlier check failed): not a pass


@dataclass
class CheckResult:
    name: str
    status: Status
    summary: str
    details: list[str] = field(default_factory=list)  # one line per failing item


def passed(name: str, summary: str) -> CheckResult:
    return CheckResult(name, Status.PASS, summary)


def failed(name: str, summary: str, details: list[str] | None = None) -> CheckResult:
    return CheckResult(name, Status.FAIL, summary, details or [])


def skipped(name: str, why: str) -> CheckResult:
    return CheckResult(name, Status.SKIP, why)


@dataclass
class Report:
    results: list[CheckResult] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.results) and all(r.status is Status.PASS for r in self.results)

    def result(self, name: str) -> CheckResult:
        for r in self.results:
            if r.name == name:
                return r
        raise KeyError(f"no check named {name!r}")

    def lines(self) -> list[str]:
        """One line per check (failing items indented under it), then the summary."""
        width = max((len(r.name) for r in self.results), default=0)
        out = []
        for r in self.results:
            out.append(f"{r.status.value}  {r.name:<{width}}  {r.summary}")
            out.extend(f"      {detail}" for detail in r.details)
        counts = {status: sum(r.status is status for r in self.results) for status in Status}
        verdict = "all checks passed" if self.ok else "the board needs attention"
        out.append(
            f"{len(self.results)} checks: {counts[Status.PASS]} passed, {counts[Status.FAIL]} failed, "
            f"{counts[Status.SKIP]} skipped - {verdict}"
        )
        return out
