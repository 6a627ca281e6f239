"""Technology facts of a service: its languages, frameworks, declared libraries, build tools and
container base images, each with the file:line that declares it.

Business rules:
- libraries come only from the service's own manifests (``sdks.own_manifests``: a manifest whose
  folder holds several services says nothing about one of them), never from lock files; a Maven
  module also inherits the dependencies of its <parent> POMs, and a Gradle module those declared
  in a ``subprojects``/``allprojects`` block above it;
- build tools and language versions also come from the manifests above the service (a root
  ``packageManager``, a shared go.mod's ``go`` directive): they describe the whole build;
- a language is present only when the service owns source files in it; manifests add its version;
- one fact per (kind, name): the first declaration with a version gives the version; evidence is
  bounded, as is the number of facts (libraries are dropped first, dev/test ones before runtime).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from orbitkb.analysis import paths
from orbitkb.analysis.build import evidence
from orbitkb.analysis.layout.manifests import Manifest, manifest_kind
from orbitkb.analysis.layout.model import ServiceUnit
from orbitkb.analysis.technologies import (
    cargo,
    composer,
    docker,
    gems,
    gomod,
    gradle,
    npm,
    nuget,
    pypi,
    signals,
)
from orbitkb.analysis.technologies.found import Found, is_dev, tables
from orbitkb.analysis.technologies.maven import PomReader
from orbitkb.domain.ids import make_id
from orbitkb.domain.model import TECHNOLOGY_KINDS, Evidence, Technology

MAX_TECHNOLOGIES = 300
MAX_EVIDENCE = 5
_JS_TOOLS = frozenset({"npm", "yarn", "pnpm", "bun"})
_PY_TOOLS = frozenset({"pip", "poetry", "uv", "pipenv", "pdm", "hatch", "flit"})
_PY_MANIFESTS = frozenset({"requirements.txt", "pyproject.toml", "setup.py", "Pipfile"})
#: Libraries whose version is the version of a language.
_LANGUAGE_LIBRARIES = {"typescript": "typescript", "org.jetbrains.kotlin:kotlin-stdlib": "kotlin"}

__all__ = ["MAX_TECHNOLOGIES", "TechnologyReader"]


class TechnologyReader:
    """Reads each manifest of one repository once, then answers per service."""

    def __init__(self, texts: Mapping[str, str], present: Collection[str]) -> None:
        self.texts = texts
        self.present = present  # every walked path, lock files included
        self._poms = PomReader(texts)
        self._found: dict[str, list[Found]] = {}

    def manifest(self, path: str) -> list[Found]:
        if path not in self._found:
            self._found[path] = self._read(path)
        return self._found[path]

    def _read(self, path: str) -> list[Found]:
        kind = manifest_kind(paths.basename(path))
        text = self.texts.get(path)
        if kind is None or text is None:
            return []
        if kind == "pom.xml":
            return self._poms.read(path)
        if kind in _PY_MANIFESTS:
            return pypi.read(path, text, self.texts, kind)
        reader = {"package.json": npm.read, "build.gradle": gradle.read, "build.gradle.kts": gradle.read,
                  "go.mod": gomod.read, ".csproj": nuget.read, "Dockerfile": docker.read,
                  "Gemfile": gems.read, "composer.json": composer.read, "Cargo.toml": cargo.read}.get(kind)  # fmt: skip
        return reader(path, text, self.texts) if reader else []

    def service(
        self,
        sid: str,
        unit: ServiceUnit,
        own: Sequence[Manifest],
        owned: Iterable[str],
        framework: str | None,
        framework_evidence: Sequence[Evidence],
        commit: str | None,
    ) -> tuple[Technology, ...]:
        own_paths = {m.path for m in own}
        manifests = list({m.path: m for m in unit.manifests}.values())
        found: list[Found] = []
        for m in manifests:
            for f in self.manifest(m.path):
                if f.kind == "base_image":
                    continue  # Dockerfiles are taken below, with the ones compose builds
                if m.path in own_paths or f.kind in ("build_tool", "language") or f.shared:
                    found.append(f)
            tool = tables()["manifest_tools"].get(manifest_kind(paths.basename(m.path)) or "")
            if tool:
                found.append(Found("build_tool", tool, None, m.path, 1))
        folders = list(dict.fromkeys([unit.root, *(paths.parent(m.path) for m in manifests)]))
        found += signals.build_files(folders, self.present)
        found += _default_tools(manifests, found)
        for path in self._dockerfiles(unit, own):
            found += self.manifest(path)
        libraries = [f for f in found if f.kind == "library"]
        hints = [f for f in found if f.kind == "language"]
        found = [f for f in found if f.kind != "language"] + signals.frameworks(libraries)
        found += _language_versions(signals.languages(owned), hints, libraries)
        merged = _merge(found, framework, framework_evidence, commit)
        return tuple(
            Technology(make_id("tech", sid, kind, name), sid, kind, name, version, ev)
            for (kind, name), (version, ev) in sorted(_bounded(merged).items(), key=_order)
        )

    def _dockerfiles(self, unit: ServiceUnit, own: Sequence[Manifest]) -> list[str]:
        found = [m.path for m in own if manifest_kind(paths.basename(m.path)) == "Dockerfile"]
        for c in unit.compose:
            built = c.dockerfile or (paths.join(c.build_context, "Dockerfile") if c.build_context else None)
            if built and built in self.texts:
                found.append(built)
        return sorted(set(found))


def _default_tools(manifests: Sequence[Manifest], found: Sequence[Found]) -> list[Found]:
    """npm for a package.json and pip for Python manifests when nothing names another tool."""
    tools = {f.name for f in found if f.kind == "build_tool"}
    kinds = [(manifest_kind(paths.basename(m.path)), m.path) for m in manifests]
    out = []
    js = next((p for k, p in kinds if k == "package.json"), None)
    if js and not tools & _JS_TOOLS:
        out.append(Found("build_tool", "npm", None, js, 1, "default"))
    py = next((p for k, p in kinds if k in _PY_MANIFESTS), None)
    if py and not tools & _PY_TOOLS:
        out.append(Found("build_tool", "pip", None, py, 1, "default"))
    return out


def _language_versions(
    present: list[Found], hints: Sequence[Found], libraries: Sequence[Found]
) -> list[Found]:
    """The languages present, then what declares their versions (manifests, the compiler library)."""
    hints = list(hints) + [
        Found("language", _LANGUAGE_LIBRARIES[key], lib.version, lib.file, lib.line)
        for lib in libraries
        if (
            key := next(
                (k for k in _LANGUAGE_LIBRARIES if lib.name == k or lib.name.startswith(k + "-")), None
            )
        )
    ]
    names = {f.name for f in present}
    return present + [h for h in hints if h.name in names and h.version]


Merged = dict[tuple[str, str], tuple[str | None, tuple[Evidence, ...]]]


def _merge(
    found: Iterable[Found], framework: str | None, framework_ev: Sequence[Evidence], commit: str | None
) -> Merged:
    versions: dict[tuple[str, str], str | None] = {}
    evidences: dict[tuple[str, str], dict[tuple[str, int], Evidence]] = {}
    for f in found:
        key = (f.kind, f.name)
        if versions.get(key) is None:
            versions[key] = f.version
        ev = evidences.setdefault(key, {})
        if len(ev) < MAX_EVIDENCE:
            ev.setdefault((f.file, f.line), evidence(f.file, f.line, f.line, commit, f.note))
    if framework and ("framework", framework) not in versions:  # found by the code, not the manifests
        versions[("framework", framework)] = None
        evidences[("framework", framework)] = {(e.file, e.start_line): e for e in framework_ev[:MAX_EVIDENCE]}
    return {k: (versions[k], tuple(evidences[k].values())) for k in versions}


def _bounded(merged: Merged) -> Merged:
    others = {k: v for k, v in merged.items() if k[0] != "library"}
    room = max(MAX_TECHNOLOGIES - len(others), 0)

    def runtime_first(key: tuple[str, str]) -> tuple[bool, str]:
        notes = [e.note for e in merged[key][1]]
        return all(is_dev(n) for n in notes), key[1]

    libraries = sorted((k for k in merged if k[0] == "library"), key=runtime_first)[:room]
    return {**others, **{k: merged[k] for k in libraries}}


def _order(item: tuple[tuple[str, str], object]) -> tuple[int, str]:
    (kind, name), _ = item
    return TECHNOLOGY_KINDS.index(kind), name
