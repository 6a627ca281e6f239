"""Candidate folders: every folder with a build manifest, the code it owns and its entry points.

A code file belongs to the deepest candidate folder above it. A candidate whose entry points sit
in several sibling sub-folders (``cmd/a/main.go``, ``cmd/b/main.go``; ``orders/app.py``,
``payments/app.py`` under one requirements.txt) is split into one unit per sub-folder.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from attrs import define, field

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis import paths
from orbitkb.analysis.layout import infra
from orbitkb.analysis.layout.manifests import Manifest, manifest_kind
from orbitkb.analysis.layout.procfile import Process
from orbitkb.domain.stacks import STACK_NAMES

#: Entry points in these folders are tools, not separate deployables (never split off).
TOOLING_DIRS = frozenset(
    {
        "scripts",
        "script",
        "tools",
        "tool",
        "bin",
        "hack",
        "examples",
        "example",
        "docs",
        "benchmarks",
        "bench",
        "migrations",
        "alembic",
        "fixtures",
        "samples",
        "sample",
        "demo",
        "utils",
        "devtools",
        "migration",
        "migrate",
        "seed",
        "seeds",
        "seeder",
    }
)
#: Folders that hold a service's commands (Go's ``<service>/cmd/<name>/main.go``): the service is
#: the folder above, so its server and its migration command are one unit.
COMMAND_DIRS = frozenset({"cmd", "cmds", "commands"})
#: Where a Maven/Gradle module keeps the Dockerfiles that package it.
MODULE_DOCKER_DIR = "src/main/docker"
#: The analysed stacks (the domain's table); other languages' code is counted but never a service stack.
KNOWN_STACKS = frozenset(STACK_NAMES)
#: Stacks whose entry point makes its folder a program with no manifest at all: a Go ``package main``
#: folder is built by ``go build ./orders`` in a GOPATH layout written before modules (no go.mod).
PROGRAM_STACKS = frozenset({"go"})
#: Words of a folder name that say it drives other services rather than being one (``nats-test``,
#: ``load-test``, ``smoketests``): never deployed, such a folder is a test harness, not a service.
HARNESS_WORDS = frozenset(
    {"test", "tests", "testing", "tester", "e2e", "loadtest", "loadtests", "perftest", "perftests",
     "stresstest", "smoketest", "smoketests", "benchmark", "benchmarks", "harness"}
)  # fmt: skip


def is_harness(folder: str) -> bool:
    """True for a folder named as a test harness (``nats-test``, ``e2e_runner``, ``LoadTests``)."""
    words = re.split(r"[-_.\s]+", re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", paths.basename(folder)))
    return any(w.lower() in HARNESS_WORDS for w in words if w)


def _is_tooling(folder: str) -> bool:
    return bool(set(folder.split("/")) & TOOLING_DIRS)


@define
class Candidate:
    dir: str
    manifests: list[Manifest] = field(factory=list)
    code: Counter[str] = field(factory=Counter)  # stack (or other language) -> owned file count
    entries: list[str] = field(factory=list)  # owned files parsed with "entrypoint": true
    stack: str | None = None
    #: why a folder with no manifest is a program (its own entry point: ``PROGRAM_STACKS``)
    programs: list[str] = field(factory=list)
    processes: list[Process] = field(factory=list)  # the Procfile processes / serverless functions running it

    @property
    def code_files(self) -> int:
        return sum(self.code.values())

    def strong_entry(self) -> str | None:
        if self.entries:
            return f"entry point {self.entries[0]}"
        found = next((m.entry for m in self.manifests if m.entry and not m.weak_entry), None)
        if found is None and self.processes:
            return self.processes[0].reason()
        return found or next(iter(self.programs), None)

    def weak_entry(self) -> str | None:
        return next((m.entry for m in self.manifests if m.entry and m.weak_entry), None)

    def names(self) -> list[str]:
        return sorted({m.name for m in self.manifests if m.name})

    def infra_image(self) -> str | None:
        """The final image of a Dockerfile-only folder built FROM infrastructure (a database with
        its init scripts, a broker with its definitions): no language manifest says otherwise, and
        no other Dockerfile beside it builds an application (``app.dockerfile`` + ``db.dockerfile``)."""
        if any(m.stack for m in self.manifests):
            return None
        finals = [m.images[-1] for m in self.manifests if m.images]
        return finals[-1] if finals and all(infra.infra_of(img) for img in finals) else None


@define
class Unit:
    """A folder that may be a service: a whole candidate or one split-off part of one."""

    root: str
    candidate: Candidate
    entries: list[str] = field(factory=list)
    split: bool = False
    command: bool = False  # split off by the command a deployment runs (layout.commands)


def _code_language(path: str) -> str | None:
    suffix = ft.suffix_of(path)
    return ft.CODE_STACKS.get(suffix) or ft.OTHER_CODE.get(suffix)


def _programs(
    cands: Mapping[str, Candidate], entry_files: Mapping[str, str], processes: Sequence[Process]
) -> dict[str, Candidate]:
    """Folders that are programs although no manifest is at or above them: the folder of an entry
    point of a ``PROGRAM_STACKS`` stack (``orders/main.go``; ``orders/cmd/api`` is the ``orders``
    program), and a folder a Procfile process runs. Tools and scripts (``TOOLING_DIRS``) are never
    programs."""
    out: dict[str, Candidate] = {}
    found: list[tuple[str, str | Process]] = [
        (paths.parent(p), f"entry point {p}") for p, s in sorted(entry_files.items()) if s in PROGRAM_STACKS
    ]
    found += [(process.folder, process) for process in processes]
    for where, why in found:
        folder = _service_folder(where, ".")
        if any(d in cands for d in paths.ancestors(folder + "/x")) or _is_tooling(folder):
            continue
        cand = out.setdefault(folder, Candidate(folder))
        if isinstance(why, Process):
            cand.processes.append(why)
        else:
            cand.programs.append(why)
    return out


def collect(
    manifests: Iterable[Manifest],
    code_paths: Iterable[str],
    entry_files: Mapping[str, str],
    processes: Sequence[Process] = (),
) -> tuple[dict[str, Candidate], dict[str, list[str]]]:
    """(candidates by folder, unowned code paths by language); ``processes`` run folders of code."""
    cands: dict[str, Candidate] = {}
    for m in sorted(manifests, key=lambda m: m.path):
        folder = _manifest_folder(m)
        cands.setdefault(folder, Candidate(folder)).manifests.append(m)
    for process in processes:  # a Procfile runs a folder a manifest owns
        owner = next((cands[d] for d in paths.ancestors(process.folder + "/x") if d in cands), None)
        if owner is not None and not _is_tooling(process.folder):
            owner.processes.append(process)
    cands.update(_programs(cands, entry_files, processes))
    unowned: dict[str, list[str]] = {}
    owner_of: dict[str, Candidate | None] = {}
    for path in code_paths:
        language = _code_language(path)
        if language is None:
            continue
        folder = paths.parent(path)
        if folder not in owner_of:  # many files share a folder: walk up once per folder
            owner_of[folder] = next((cands[d] for d in paths.ancestors(path) if d in cands), None)
        owner = owner_of[folder]
        if owner is None:
            unowned.setdefault(language, []).append(path)
            continue
        owner.code[language] += 1
        if path in entry_files:
            owner.entries.append(path)
    for cand in cands.values():
        cand.stack = _stack(cand, cands)
    return cands, unowned


def _manifest_folder(m: Manifest) -> str:
    """The folder a manifest describes: its own, except a Dockerfile kept in a JVM module's
    ``src/main/docker`` (the Quarkus generator's ``Dockerfile.jvm``, docker-maven-plugin builds),
    which packages the module above it."""
    folder = paths.parent(m.path)
    if manifest_kind(paths.basename(m.path)) == "Dockerfile" and (
        folder == MODULE_DOCKER_DIR or folder.endswith("/" + MODULE_DOCKER_DIR)
    ):
        return paths.parent(paths.parent(paths.parent(folder)))
    return folder


def _stack(cand: Candidate, cands: Mapping[str, Candidate]) -> str | None:
    declared = [m.stack for m in cand.manifests if m.stack]
    if declared:
        # several manifests (package.json next to pom.xml): the language of most owned code wins
        return max(sorted(set(declared)), key=lambda s: (cand.code.get(s, 0), s in KNOWN_STACKS))
    if cand.code:
        return max(sorted(cand.code), key=lambda s: cand.code[s])
    for folder in paths.ancestors(cand.dir + "/x")[1:]:  # Dockerfile-only folder: the parent's stack
        parent = cands.get(folder)
        if parent is not None and any(m.stack for m in parent.manifests):
            return next(m.stack for m in parent.manifests if m.stack)
    return None


def _service_folder(folder: str, top: str) -> str:
    """``svc/cmd/server`` -> ``svc`` (a command of the service above ``cmd``), unless ``cmd`` sits
    right in the candidate folder (``cmd/orders``, ``cmd/payments``: one service per command)."""
    parts = folder.split("/")
    below = 0 if top == "." else len(top.split("/"))
    for i in range(len(parts) - 1, below, -1):
        if parts[i] in COMMAND_DIRS:
            return "/".join(parts[:i])
    return folder


def _built_programs(cand: Candidate) -> list[Unit]:
    """One unit per sub-folder (with entry points) of a folder the candidate's Dockerfile compiles
    one program at a time (``go build ./services/$SERVICE``); none unless there are two or more."""
    chosen: list[str] = []
    for m in cand.manifests:
        base = paths.parent(m.path)
        for rel in m.program_dirs:
            folder = paths.join(base, rel)
            if folder is not None and paths.is_under(folder, cand.dir):
                chosen.append(folder)
    roots = sorted(
        {
            folder + "/" + e[len(folder) + 1 :].split("/", 1)[0]
            for folder in chosen
            for e in cand.entries
            if e.startswith(folder + "/") and "/" in e[len(folder) + 1 :]
        }
    )
    if len(roots) < 2:
        return []
    return [Unit(root, cand, [e for e in cand.entries if paths.is_under(e, root)], split=True) for root in roots]


def split_units(cand: Candidate) -> list[Unit]:
    """One unit, or one per sibling entry-point folder when entries are spread below the root (or
    below the folder a build argument picks a program from, whatever else sits at the root)."""
    built = _built_programs(cand)
    if built:
        return built
    if not cand.entries or any(paths.parent(e) == cand.dir for e in cand.entries):
        return [Unit(cand.dir, cand, list(cand.entries))]
    folders = sorted({_service_folder(paths.parent(e), cand.dir) for e in cand.entries})
    roots: list[str] = []
    for folder in folders:  # keep the shallowest folder of each nested chain
        if not any(paths.is_under(folder, r) for r in roots):
            roots.append(folder)
    below = len(cand.dir) + 1 if cand.dir != "." else 0
    roots = [r for r in roots if not (set(r[below:].split("/")) & TOOLING_DIRS)]
    if len(roots) < 2:
        return [Unit(cand.dir, cand, list(cand.entries))]
    return [
        Unit(root, cand, [e for e in cand.entries if paths.is_under(e, root)], split=True) for root in roots
    ]
