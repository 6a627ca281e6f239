"""External SDKs a service declares in its dependency manifests, as vendor integrations.

The table (``sdks.json``) maps package names per ecosystem to a vendor of the domain's vendor
list. Only runtime dependencies count (not devDependencies, test scopes, Go ``// indirect``
requirements), and only manifests that belong to one service: a manifest whose folder holds
several services (a monorepo root, a shared go.mod) says nothing about which of them calls out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from attrs import frozen

from orbitkb.analysis import paths
from orbitkb.analysis.layout.manifests import Manifest, manifest_kind

NOTE_PREFIX = "declared dependency "

_ECOSYSTEMS = {
    "package.json": "npm", "requirements.txt": "pypi", "pyproject.toml": "pypi", "setup.py": "pypi",
    "Pipfile": "pypi", "pom.xml": "maven", "build.gradle": "maven", "build.gradle.kts": "maven",
    "go.mod": "go", ".csproj": "nuget", "composer.json": "composer", "Gemfile": "gems",
}  # fmt: skip
_NPM_SECTIONS = ("dependencies", "peerDependencies", "optionalDependencies")
_DEV_FILE = re.compile(r"(?:^|[-_.])(?:dev|test|tests|lint|docs|ci)(?:[-_.]|$)", re.I)
_TEST_SCOPE = re.compile(r"^[ \t]*(?:test|androidTest|integrationTest)\w*\s*[( ]")


@frozen
class DeclaredSdk:
    vendor: str
    package: str
    file: str
    line: int


@cache
def tables() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files(__package__).joinpath("sdks.json").read_text("utf-8"))
    return data


def covered_by_messages(vendor: str, providers: Iterable[str]) -> bool:
    """A vendor the service already reaches through a message channel (SQS queue, SNS topic)."""
    wanted = set(tables()["message_providers"].get(vendor, ()))
    return bool(wanted & set(providers))


def npm_vendor(package: str) -> str | None:
    """The vendor of an npm package: its row, else its scope's (``"@aws-sdk/*"``: one vendor
    publishes every package of the scope)."""
    npm: Mapping[str, str] = tables()["npm"]
    return npm.get(package) or (npm.get(package.split("/")[0] + "/*") if package.startswith("@") else None)


def sdk_ecosystem(manifest_path: str) -> str | None:
    """The package ecosystem of a manifest (``npm``, ``pypi``, ``maven``, ``go``...) by its name."""
    return _ECOSYSTEMS.get(manifest_kind(paths.basename(manifest_path)) or "")


def _line_of(text: str, pattern: str) -> int | None:
    match = re.search(pattern, text, re.M | re.I)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _npm_runtime(text: str) -> set[str]:
    try:
        data = json.loads(text)
    except ValueError:
        return set()
    out: set[str] = set()
    for section in _NPM_SECTIONS:
        if isinstance(data, dict) and isinstance(data.get(section), dict):
            out.update(data[section])
    return out


def _locate(kind: str, eco: str, key: str, text: str) -> int | None:
    """The manifest line declaring ``key``; None when it is only a dev/test/indirect dependency."""
    if eco == "npm":
        return _line_of(text, r'"' + re.escape(key) + r'"\s*:') if key in _npm_runtime(text) else None
    if eco == "pypi":
        name = "[-_.]".join(re.escape(p) for p in re.split(r"[-_.]", key))
        return _line_of(text, r"^[ \t\"']*" + name + r"(?![\w-])")
    if eco == "nuget":  # a PackageReference with PrivateAssets="all" is build tooling only
        line = _line_of(text, r"<PackageReference\s+Include\s*=\s*[\"']" + re.escape(key) + r"[\"']")
        return None if line is not None and "privateassets" in text.splitlines()[line - 1].lower() else line
    if eco == "composer":  # "require" only, not "require-dev"
        section = re.search(r'"require"\s*:\s*\{[^}]*\}', text)
        found = section and re.search(r'"' + re.escape(key) + r'"\s*:', section.group(0))
        return text.count("\n", 0, section.start() + found.start()) + 1 if section and found else None
    if eco == "gems":  # not inside a development/test group
        from orbitkb.analysis.technologies.gems import read as read_gems

        return next((f.line for f in read_gems("", text, {}) if f.name == key and f.note is None), None)
    if eco == "go":
        line = _line_of(text, r"^[ \t]*(?:require[ \t]+)?" + re.escape(key) + r"(?:/v\d+)?[ \t]")
        return None if line is not None and "// indirect" in text.splitlines()[line - 1] else line
    artifact = key.rsplit(":", 1)[-1]
    if kind == "pom.xml":
        match = re.search(r"<artifactId>\s*" + re.escape(artifact) + r"\s*</artifactId>", text)
        if match is None:
            return None
        close = text.find("</dependency>", match.end())
        block = text[match.end() : close if close >= 0 else match.end() + 300]
        if re.search(r"<scope>\s*test\s*</scope>", block):
            return None
        return text.count("\n", 0, match.start()) + 1
    line = _line_of(text, (re.escape(key) if ":" in key else ":" + re.escape(key)) + r"[:\"']")
    if line is not None and _TEST_SCOPE.match(text.splitlines()[line - 1]):
        return None
    return line


def _keys(eco: str, deps: Iterable[str]) -> list[str]:
    if eco == "go":
        return sorted({re.sub(r"/v\d+$", "", d) for d in deps})
    return sorted(set(deps))


def declared_sdks(manifests: Iterable[Manifest], texts: Mapping[str, str]) -> list[DeclaredSdk]:
    """Every vendor SDK the given manifests declare, with the declaring line."""
    out: dict[tuple[str, str], DeclaredSdk] = {}
    for manifest in manifests:
        kind = manifest_kind(paths.basename(manifest.path))
        eco = _ECOSYSTEMS.get(kind or "")
        text = texts.get(manifest.path)
        if eco is None or text is None:
            continue
        if kind == "requirements.txt" and _DEV_FILE.search(paths.basename(manifest.path)[12:-4] or "-"):
            continue
        table: dict[str, str] = tables()[eco]
        for key in _keys(eco, manifest.deps):
            vendor = npm_vendor(key) if eco == "npm" else table.get(key)
            if vendor is None:
                continue
            line = _locate(kind or "", eco, key, text)
            if line is not None:
                out.setdefault((vendor, key), DeclaredSdk(vendor, key, manifest.path, line))
    return sorted(out.values(), key=lambda s: (s.vendor, s.file, s.line, s.package))


def shared_manifests(
    root: str, manifests: Iterable[Manifest], service_roots: Iterable[str]
) -> list[Manifest]:
    """The manifests above ``root`` that other services share (a monorepo root, a shared go.mod)."""
    manifests = list(manifests)
    own = {m.path for m in own_manifests(root, manifests, service_roots)}
    return [m for m in manifests if m.path not in own and paths.is_under(root, paths.parent(m.path))]


def own_manifests(root: str, manifests: Iterable[Manifest], service_roots: Iterable[str]) -> list[Manifest]:
    """The manifests above or at ``root`` whose folder holds no other service."""
    roots = list(service_roots)
    out = []
    for manifest in manifests:
        folder = paths.parent(manifest.path)
        if not paths.is_under(root, folder):
            continue
        if sum(1 for r in roots if paths.is_under(r, folder)) == 1:
            out.append(manifest)
    return out
