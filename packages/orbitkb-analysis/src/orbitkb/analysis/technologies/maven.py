"""pom.xml: dependencies with versions resolved through properties, dependencyManagement and the
<parent> chain (a parent POM's dependencies are inherited by its modules, so they count too)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping

from attrs import define, field

from orbitkb.analysis import paths
from orbitkb.analysis.technologies import xmlsafe
from orbitkb.analysis.technologies.found import Found, clean_version, find_line, line_at

_PROP = re.compile(r"\$\{([\w.\-]+)\}")
_JAVA_PROPS = ("maven.compiler.release", "java.version", "maven.compiler.source", "maven.compiler.target")
_SCOPE_NOTES = {"test": "test scope", "provided": "provided scope", "system": "system scope", "import": "bom"}
_BOOT_GROUP = "org.springframework.boot"
_MAX_PARENTS = 6


@define
class Dep:
    group: str
    artifact: str
    version: str | None
    scope: str | None
    line: int


@define
class Pom:
    path: str
    text: str
    group: str | None = None
    artifact: str | None = None
    version: str | None = None
    parent: tuple[str, str, str | None, str | None] | None = None  # group, artifact, version, relativePath
    parent_line: int = 1
    props: dict[str, str] = field(factory=dict)
    managed: dict[str, str] = field(factory=dict)
    deps: list[Dep] = field(factory=list)


def _walk(element: ET.Element, trail: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], ET.Element]]:
    for child in element:
        name = xmlsafe.tag(child)
        if name == "dependency":
            yield trail, child
        else:
            yield from _walk(child, (*trail, name))


def parse_pom(path: str, text: str) -> Pom | None:
    root = xmlsafe.parse(text)
    if root is None or xmlsafe.tag(root) != "project":
        return None
    pom = Pom(path, text)
    plain = xmlsafe.blank_comments(text)
    starts = [m.start() for m in re.finditer(r"<(?:\w+:)?dependency[\s>]", plain)]
    for child in root:
        name = xmlsafe.tag(child)
        if name in ("groupId", "artifactId", "version"):
            setattr(pom, {"groupId": "group", "artifactId": "artifact", "version": "version"}[name],
                    (child.text or "").strip() or None)  # fmt: skip
        elif name == "parent":
            rel = xmlsafe.child_text(child, "relativePath")
            pom.parent = (xmlsafe.child_text(child, "groupId") or "", xmlsafe.child_text(child, "artifactId") or "",
                          xmlsafe.child_text(child, "version"), rel)  # fmt: skip
            pom.parent_line = find_line(plain, r"<(?:\w+:)?parent[\s>]") or 1
        elif name == "properties":
            pom.props.update({xmlsafe.tag(p): (p.text or "").strip() for p in child})
    for index, (trail, dep) in enumerate(_walk(root, ())):
        group = xmlsafe.child_text(dep, "groupId") or ""
        artifact = xmlsafe.child_text(dep, "artifactId") or ""
        if not artifact:
            continue
        version = xmlsafe.child_text(dep, "version")
        scope = xmlsafe.child_text(dep, "scope")
        line = line_at(plain, starts[index]) if index < len(starts) else 1
        if trail == ("dependencyManagement", "dependencies"):
            if version:
                pom.managed[f"{group}:{artifact}"] = version
            if scope == "import":  # a BOM (spring-cloud-dependencies): it names the platform's version
                pom.deps.append(Dep(group, artifact, version, scope, line))
        elif trail == ("dependencies",):
            pom.deps.append(Dep(group, artifact, version, scope, line))
    return pom


class PomReader:
    """Reads each pom.xml of the repository once; resolves a module against its parents."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self._poms: dict[str, Pom | None] = {}

    def pom(self, path: str) -> Pom | None:
        if path not in self._poms:
            text = self.texts.get(path)
            self._poms[path] = parse_pom(path, text) if text is not None else None
        return self._poms[path]

    def chain(self, path: str) -> list[Pom]:
        """The pom at ``path`` then its parents found in the repository (by relativePath)."""
        out: list[Pom] = []
        pom = self.pom(path)
        while pom is not None and len(out) < _MAX_PARENTS and all(p.path != pom.path for p in out):
            out.append(pom)
            if pom.parent is None or pom.parent[3] == "":
                break
            rel = pom.parent[3] or "../pom.xml"
            parent_path = paths.join(
                paths.parent(pom.path), rel if rel.endswith(".xml") else rel + "/pom.xml"
            )
            parent = self.pom(parent_path) if parent_path else None
            if parent is None or (parent.artifact and parent.artifact != pom.parent[1]):
                break
            pom = parent
        return out

    def read(self, path: str) -> list[Found]:
        chain = self.chain(path)
        if not chain:
            return []
        own = chain[0]
        resolve = _Resolver(chain)
        out = [Found("build_tool", "maven", None, path, 1)]
        if own.parent and own.parent[1]:  # a parent POM (spring-boot-starter-parent) is a technology too
            name = f"{resolve(own.parent[0]) or own.parent[0]}:{own.parent[1]}"
            out.append(Found("library", name, resolve(own.parent[2]), path, own.parent_line, "parent", True))
        for depth, pom in enumerate(chain):
            inherited = f"inherited from {pom.artifact or pom.path}" if depth else None
            for dep in pom.deps:
                group = resolve(dep.group) or dep.group
                version = resolve(dep.version) or resolve.managed(group, dep.artifact)
                note = _SCOPE_NOTES.get((dep.scope or "").strip()) or inherited
                out.append(
                    Found("library", f"{group}:{dep.artifact}", version, pom.path, dep.line, note, True)
                )
        for key in _JAVA_PROPS:
            value = resolve.props.get(key)
            if value:
                holder = next(p for p in chain if key in p.props)
                line = find_line(holder.text, r"<" + re.escape(key) + r">") or 1
                out.append(Found("language", "java", resolve(value), holder.path, line, shared=True))
                break
        kotlin = resolve.props.get("kotlin.version")
        if kotlin:
            holder = next(p for p in chain if "kotlin.version" in p.props)
            line = find_line(holder.text, r"<kotlin\.version>") or 1
            out.append(Found("language", "kotlin", resolve(kotlin), holder.path, line, shared=True))
        return out


class _Resolver:
    """``${property}`` resolution over a module and its parents (the module's own values win)."""

    def __init__(self, chain: list[Pom]) -> None:
        self.chain = chain
        self.props: dict[str, str] = {}
        for pom in reversed(chain):
            self.props.update(pom.props)
        own = chain[0]
        parent_version = own.parent[2] if own.parent else None
        version = own.version or parent_version
        for key, value in (("project.version", version), ("version", version), ("pom.version", version),
                           ("project.groupId", own.group or (own.parent[0] if own.parent else None)),
                           ("project.artifactId", own.artifact), ("project.parent.version", parent_version)):  # fmt: skip
            if value:
                self.props.setdefault(key, value)

    def __call__(self, value: str | None) -> str | None:
        if not value:
            return None
        for _ in range(5):
            if "${" not in value:
                break
            value = _PROP.sub(lambda m: self.props.get(m.group(1), m.group(0)), value)
        return None if "${" in value else clean_version(value)

    def managed(self, group: str, artifact: str) -> str | None:
        for pom in self.chain:
            found = pom.managed.get(f"{group}:{artifact}")
            if found:
                return self(found)
        boot = next((p.parent for p in self.chain if p.parent and p.parent[0] == _BOOT_GROUP), None)
        if group == _BOOT_GROUP and boot is not None:
            return self(boot[2])  # Spring Boot manages its own artifacts at its version
        return None
