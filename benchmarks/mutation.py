"""Mutation testing: which small changes to a module do its tests not notice?  Not run in CI.

.venv/bin/python benchmarks/mutation.py TARGET [TARGET ...] [--report docs/mutation.md]

A TARGET is a module or a folder of modules, with the tests that guard it:
``PATH=TEST,TEST`` (pytest paths), or just ``PATH`` for one of the PRESETS
below. Each target is mutated by cosmic-ray (pinned in the ``mutation``
extra: ``pip install -e '.[mutation]'``) in a copy of the work tree, so the
tree itself is never changed; every mutant runs its tests with ``pytest -x``.
The report file gets one section per target - mutants, killed, surviving,
the survival rate, the CPU time - listing each surviving mutant as a diff;
the sections of other targets already in the file are kept, and so is
anything written by hand outside the sections (the explanations).

    .venv/bin/python benchmarks/mutation.py host/link/frames.py host/link/protocol.py
    .venv/bin/python benchmarks/mutation.py host/session/core.py=tests/session/test_core.py
    .venv/bin/python benchmarks/mutation.py firmware/debounce.py --report /tmp/debounce.md
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

try:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult
except ImportError:
    raise SystemExit(
        "mutation: cosmic-ray is not installed: .venv/bin/pip install -e '.[mutation]'"
    ) from None

ROOT = Path(__file__).resolve().parent.parent

TRACKING = (
    "tests/tracking/test_candidates.py",
    "tests/tracking/test_verdicts.py",
    "tests/tracking/test_tracker.py",
    "tests/tracking/test_guidance.py",
    "tests/tracking/test_evidence.py",
    "tests/tracking/test_plan.py",
    "tests/session/test_core_tables.py",
    "tests/session/test_ai_capture_by_hand.py",
    "tests/tracking/test_pass_button.py",
    "tests/tracking/test_session.py",
    "tests/tracking/test_hand_sequences.py",
)
# Where each module's guarding tests are, for targets given without them.
PRESETS: dict[str, tuple[str, ...]] = {
    "host/link/frames.py": (
        "tests/link/test_link_codec.py",
        "tests/link/test_link_vectors.py",
        "tests/link/test_link_protocol.py",
    ),
    "host/link/protocol.py": ("tests/link/test_link_protocol.py",),
    "host/link/reader.py": ("tests/link/test_link_protocol.py",),
    "host/link/led_plan.py": ("tests/link/test_led_plan.py",),
    # The tests that drive the core: its tables first (most mutants die there, in about 2 s), then the session
    # and the buttons over it (tests/tracking's hand sequences and noise would add 10 s a mutant).
    "host/session/core.py": (
        "tests/session/test_core_tables.py",
        "tests/session/test_opponent_stopped.py",
        "tests/session/test_ai_capture_by_hand.py",
        "tests/session/test_special_cases.py",
        "tests/tracking/test_session.py",
        "tests/tracking/test_pass_button.py",
    ),
    "host/tracking": ("tests/tracking",),
    # The tracker's own tables first, then the core's and the sessions over it; not tests/tracking's property
    # and noise tests (test_lit_targets.py, test_session_noise.py: 12 s more for each mutant that survives).
    "host/tracking/tracker.py": TRACKING,
    "host/tracking/candidates.py": TRACKING,
    "firmware/debounce.py": ("tests/firmware/test_fw_debounce.py",),
}
# One replacement per arithmetic operator, as mutmut makes: cosmic-ray's other ten for each are killed
# by the same tests nearly always and would make the run ten times as long (--all-operators runs them).
BINARY = {
    "Add": "Sub", "Sub": "Add", "Mul": "Div", "Div": "Mul", "FloorDiv": "Div", "Mod": "FloorDiv",
    "Pow": "Mul", "LShift": "RShift", "RShift": "LShift", "BitOr": "BitAnd", "BitAnd": "BitOr",
    "BitXor": "BitOr",
}  # fmt: skip
# Each comparison's boundary and negation (the classic relational operator replacement).
COMPARISON = {
    "Eq": ("NotEq",), "NotEq": ("Eq",), "Lt": ("LtE", "GtE"), "LtE": ("Lt", "Gt"), "Gt": ("GtE", "LtE"),
    "GtE": ("Gt", "Lt"), "Is": ("IsNot",), "IsNot": ("Is",),
}  # fmt: skip
# A mutant whose tests take this many times the originals' CPU time has hung (an endless loop). CPU time,
# not the clock's: on a shared machine the clock time of one run varies several times over.
HUNG_FACTOR = 4
HUNG_WALL_S = 1800.0  # and a mutant that waits for ever without computing
BEGIN = "<!-- mutation: {} -->"
END = "<!-- /mutation -->"
RESULTS_END = "<!-- end of results -->"  # a new target's section goes before this line, if there is one


@dataclass(frozen=True)
class Target:
    path: str
    tests: tuple[str, ...]

    @staticmethod
    def parse(text: str) -> Target:
        path, _, tests = text.partition("=")
        path = path.rstrip("/")
        if not (ROOT / path).exists():
            raise SystemExit(f"mutation: {path}: no such module or folder in {ROOT}")
        chosen = tuple(t for t in tests.split(",") if t) or PRESETS.get(path)
        if not chosen:
            raise SystemExit(
                f"mutation: {path}: name its tests ({path}=TEST,...); presets: {', '.join(PRESETS)}"
            )
        return Target(path, chosen)

    def modules(self) -> list[str]:
        base = ROOT / self.path
        files = sorted(base.rglob("*.py")) if base.is_dir() else [base]
        return [str(f.relative_to(ROOT)) for f in files]


@dataclass(frozen=True)
class Outcome:
    mutants: int
    killed: int
    survivors: list[str]  # each a diff
    incompetent: int  # mutants that could not run (e.g. a syntax error)
    annotations: int  # mutants inside type annotations, which are never evaluated: not run
    baseline_s: float
    cpu_s: float
    wall_s: float


def _copy_tree(into: Path) -> None:
    """The work tree as git sees it (tracked and untracked files, not ignored ones), copied."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout.decode()  # fmt: skip
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)


_COSMIC_RAY = str(Path(sys.executable).parent / "cosmic-ray")


def _step(command: list[str], work: Path) -> None:
    done = subprocess.run(command, cwd=work, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"mutation: {' '.join(command)} failed:\n{done.stderr[-3000:]}")


def _cosmic_ray(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_COSMIC_RAY, *args], cwd=cwd, capture_output=True, text=True, check=False)


def _excluded_operators() -> list[str]:
    """cosmic-ray's operator names left out (as anchored patterns): the replacements not chosen above."""
    names = _cosmic_ray("operators", cwd=ROOT).stdout.split()
    chosen = {f"core/ReplaceBinaryOperator_{old}_{new}" for old, new in BINARY.items()}
    chosen |= {
        f"core/ReplaceComparisonOperator_{old}_{new}" for old, news in COMPARISON.items() for new in news
    }
    replacements = ("core/ReplaceBinaryOperator_", "core/ReplaceComparisonOperator_")
    return [f"{name}$" for name in names if name.startswith(replacements) and name not in chosen]


Span = tuple[tuple[int, int], tuple[int, int]]


def _annotation_spans(path: Path) -> list[Span]:
    """Where path's annotations are, if it postpones them (PEP 563): no test can tell a change there."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    postponed = any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and node.names[0].name == "annotations"
        for node in tree.body
    )
    if not postponed:
        return []
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            found.append(node.returns)
        elif (isinstance(node, ast.arg) and node.annotation is not None) or isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return [((a.lineno, a.col_offset), (a.end_lineno or a.lineno, a.end_col_offset or 0)) for a in found]


def _skip_annotations(session: Path, work: Path) -> int:
    """Mark the mutants inside annotations as skipped; how many there were."""
    spans: dict[str, list[Span]] = {}
    skipped = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            inside = True
            for mutation in item.mutations:
                path = str(mutation.module_path)
                if path not in spans:
                    spans[path] = _annotation_spans(work / path)
                start, end = tuple(mutation.start_pos), tuple(mutation.end_pos)
                inside = inside and any(a <= start and end <= b for a, b in spans[path])
            if inside:
                skipped += 1
                db.set_result(
                    item.job_id, WorkResult(output="in an annotation", worker_outcome=WorkerOutcome.SKIPPED)
                )
    return skipped


OTHER_SHARE = "another job's share"


def _share_out(session: Path, works: list[Path]) -> list[Path]:
    """One session per work tree, each with every n-th pending mutant (the others marked skipped in it)."""
    sessions = [session]
    for work in works[1:]:
        copy = work / session.name
        shutil.copy2(session, copy)
        sessions.append(copy)
    with use_db(str(session), WorkDB.Mode.open) as db:
        pending = sorted(item.job_id for item in db.pending_work_items)
    for k, path in enumerate(sessions):
        with use_db(str(path), WorkDB.Mode.open) as db:
            for i, job_id in enumerate(pending):
                if i % len(sessions) != k:
                    db.set_result(
                        job_id, WorkResult(output=OTHER_SHARE, worker_outcome=WorkerOutcome.SKIPPED)
                    )
    return sessions


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(target: Target, works: list[Path], excluded: list[str]) -> Outcome:
    """Mutate target in the first work tree, its mutants shared out among all of them (one job each)."""
    work = works[0]
    tests = " ".join(shlex.quote(t) for t in target.tests)
    command = f"{shlex.quote(sys.executable)} -m pytest -x -q -p no:cacheprovider {tests}"
    started = _children_cpu()
    quick = {**os.environ, "HYPOTHESIS_PROFILE": "quick"}
    baseline = subprocess.run(
        shlex.split(command), cwd=work, env=quick, capture_output=True, text=True, check=False
    )
    baseline_s = _children_cpu() - started
    if baseline.returncode != 0:
        raise SystemExit(f"mutation: {target.path}: its tests fail unmutated:\n{baseline.stdout[-3000:]}")
    # Property tests at a few examples each: hundreds of runs, and a mutant only they kill wants a table row.
    command = (
        f"env HYPOTHESIS_PROFILE=quick prlimit --cpu={max(10, round(HUNG_FACTOR * baseline_s))} {command}"
    )
    config = work / "mutation.toml"
    modules = ", ".join(json.dumps(m) for m in target.modules())
    config.write_text(  # the same in every work tree: its paths are relative
        f"[cosmic-ray]\nmodule-path = [{modules}]\ntimeout = {HUNG_WALL_S}\n"
        f"excluded-modules = []\ntest-command = {json.dumps(command)}\n\n"
        '[cosmic-ray.distributor]\nname = "local"\n\n'
        f"[cosmic-ray.filters.operators-filter]\nexclude-operators = {json.dumps(excluded)}\n",
        encoding="utf-8",
    )
    session = work / "mutation.sqlite"
    session.unlink(missing_ok=True)
    cpu, wall = _children_cpu(), time.perf_counter()
    filter_tool = str(Path(sys.executable).parent / "cr-filter-operators")
    _step([_COSMIC_RAY, "init", str(config), str(session)], work)
    _step([filter_tool, str(session), str(config)], work)
    annotations = _skip_annotations(session, work)
    for other in works[1:]:
        shutil.copy2(config, other / config.name)
    sessions = _share_out(session, works)
    jobs = [
        subprocess.Popen(
            [_COSMIC_RAY, "exec", str(config.name), str(path)], cwd=path.parent, stderr=subprocess.PIPE
        )
        for path in sessions
    ]
    for job in jobs:
        _, stderr = job.communicate()
        if job.returncode != 0:
            raise SystemExit(f"mutation: cosmic-ray exec failed:\n{stderr.decode()[-3000:]}")
    cpu, wall = _children_cpu() - cpu, time.perf_counter() - wall
    dump = "".join(_cosmic_ray("dump", str(path), cwd=path.parent).stdout for path in sessions)
    killed, incompetent, survivors, mutants = 0, 0, [], 0
    for line in dump.splitlines():
        _item, result = json.loads(line)
        if result is not None and result.get("worker_outcome") == "skipped":
            continue  # an operator left out, or in an annotation
        mutants += 1
        if result is None or result.get("worker_outcome") != "normal":
            incompetent += 1
        elif result["test_outcome"] == "survived":
            survivors.append(result["diff"])
        elif result["test_outcome"] == "killed":
            killed += 1
        else:
            incompetent += 1
    return Outcome(mutants, killed, survivors, incompetent, annotations, baseline_s, cpu, wall)


def _short_diff(diff: str) -> str:
    """A survivor as the lines it changes, with the file and line number."""
    name, line, changes = "", 0, []
    for text in diff.splitlines():
        if text.startswith("+++ "):
            name = re.sub(r"^\+\+\+ (b/|mutated/\[\d+\]/)?", "", text)
        elif text.startswith("@@"):
            found = re.search(r"\+(\d+)", text)
            line = int(found.group(1)) if found else 0
        elif text[:1] in "+-" and not text.startswith(("+++", "---")):
            changes.append(text)
        elif not changes:
            line += 1  # a line of context before the change: the hunk starts that much earlier
    return f"{name}:{line or '?'}\n" + "\n".join(changes)


def section(target: Target, outcome: Outcome) -> str:
    scored = outcome.killed + len(outcome.survivors)
    rate = 100.0 * len(outcome.survivors) / scored if scored else 0.0
    lines = [
        BEGIN.format(target.path),
        f"### {target.path}",
        "",
        f"Tests: `{' '.join(target.tests)}`. {outcome.mutants} mutants: {outcome.killed} killed, "
        f"{len(outcome.survivors)} surviving ({rate:.1f} %), {outcome.incompetent} that could not run "
        f"({outcome.annotations} more in annotations not run). "
        f"The tests take {outcome.baseline_s:.1f} s of CPU unmutated; the run took "
        f"{outcome.cpu_s / 60:.1f} min of CPU ({outcome.wall_s / 60:.1f} min on the clock), "
        f"on {time.strftime('%Y-%m-%d')}.",
        "",
    ]
    if outcome.survivors:
        lines += ["Surviving mutants:", "", "```diff"]
        lines += [_short_diff(diff) for diff in outcome.survivors]
        lines += ["```", ""]
    lines.append(END)
    return "\n".join(lines)


def write_report(path: Path, sections: dict[str, str]) -> None:
    """Replace each target's section in the report (or add it), keeping everything else."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Mutation testing\n"
    for name, body in sections.items():
        pattern = re.compile(re.escape(BEGIN.format(name)) + r".*?" + re.escape(END), re.DOTALL)
        if pattern.search(text):
            text = pattern.sub(lambda _m, body=body: body, text)
        elif RESULTS_END in text:
            text = text.replace(RESULTS_END, body + "\n\n" + RESULTS_END)
        else:
            text = text.rstrip("\n") + "\n\n" + body + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="+", metavar="TARGET", help="PATH[=TEST,TEST...]")
    parser.add_argument("--report", type=Path, default=ROOT / "docs" / "mutation.md")
    parser.add_argument("--all-operators", action="store_true", help="every replacement cosmic-ray has")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once, each in its own copy")
    args = parser.parse_args()
    excluded = [] if args.all_operators else _excluded_operators()
    targets = [Target.parse(text) for text in args.targets]
    with tempfile.TemporaryDirectory(prefix="magboard-mutation-") as temp:
        works = [Path(temp) / str(k) for k in range(max(1, args.jobs))]
        for work in works:
            _copy_tree(work)
        for target in targets:
            outcome = run(target, works, excluded)
            write_report(args.report, {target.path: section(target, outcome)})
            summary = {
                "target": target.path, "mutants": outcome.mutants, "killed": outcome.killed,
                "survived": len(outcome.survivors), "incompetent": outcome.incompetent,
                "in_annotations": outcome.annotations,
                "cpu_min": round(outcome.cpu_s / 60, 2), "wall_min": round(outcome.wall_s / 60, 2),
            }  # fmt: skip
            print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
