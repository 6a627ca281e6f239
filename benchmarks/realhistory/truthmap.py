"""The hand-written truth map of a repository (services.json): which service owns a path, and which
truth service an orbitkb service's root folder stands for."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from attrs import frozen

SERVICES_FILE = Path(__file__).resolve().parent / "services.json"


def _stem(prefix: str) -> str:
    return prefix[:-1] if prefix.endswith("*") else prefix


def matches(prefix: str, path: str) -> bool:
    """'a/b' matches a/b and a/b/...; 'a/b-*' matches anything starting with 'a/b-'."""
    if prefix.endswith("*"):
        return path.startswith(prefix[:-1])
    return path == prefix or path.startswith(prefix + "/")


@frozen
class ServiceMap:
    repository: str  # the clone's folder name
    services: dict[str, tuple[str, ...]]  # service -> root folders
    split: str = "tune"
    url: str = ""
    stacks: tuple[str, ...] = ()

    def owner(self, path: str) -> str | None:
        """The service with the longest prefix matching path, if any."""
        best, best_len = None, -1
        for name, prefixes in self.services.items():
            for p in prefixes:
                if matches(p, path) and len(_stem(p)) > best_len:
                    best, best_len = name, len(_stem(p))
        return best

    def present(self, paths: Iterable[str]) -> set[str]:
        """The truth services owning at least one of paths (the files of one commit)."""
        return {o for p in paths if (o := self.owner(p))}

    def map_root(self, root_dir: str, present: Collection[str] | None = None) -> str | None:
        """The truth service an orbitkb root folder stands for: the one whose prefix contains it,
        else the only one it contains; None when it contains several or none. With present (the
        truth services that exist at the indexed commit), only those count as contained: a root
        '.' above one service that exists and others that do not exist yet stands for that one."""
        root = "" if root_dir in ("", ".") else root_dir.strip("/")
        if root:
            found = self.owner(root)
            if found is not None:
                return found
        inside = self._inside(root, present)
        return next(iter(inside)) if len(inside) == 1 else None

    def map_roots(self, roots: Mapping[str, str], present: Collection[str] | None = None) -> dict[str, str | None]:
        """map_root for every orbitkb service (name -> root folder) of one index. A root that contains
        several truth services (the repository's root '.' of a backend whose workers live in
        sub-folders) stands for the one of them no other service's root stands for, when exactly one."""
        mapping = {name: self.map_root(root, present) for name, root in roots.items()}
        claimed = {m for m in mapping.values() if m is not None}
        for name, root in roots.items():
            if mapping[name] is None:
                inside = self._inside(root, present) - claimed
                mapping[name] = next(iter(inside)) if len(inside) == 1 else None
        return mapping

    def _inside(self, root_dir: str, present: Collection[str] | None) -> set[str]:
        root = "" if root_dir in ("", ".") else root_dir.strip("/")
        return {
            name
            for name, prefixes in self.services.items()
            for p in prefixes
            if (not root or _stem(p).startswith(root + "/")) and (present is None or name in present)
        }

    def aliases(self, name: str) -> tuple[str, ...]:
        """Folder names of a service (last segment of each prefix), for the 'task names it' split."""
        return tuple(sorted({_stem(p).rstrip("-/").rsplit("/", 1)[-1] for p in self.services[name]} - {name}))


def load(path: Path = SERVICES_FILE) -> dict[str, ServiceMap]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    out = {}
    for name, spec in data["repositories"].items():
        out[name] = ServiceMap(
            name,
            {s: tuple(p) for s, p in spec["services"].items()},
            spec.get("split", "tune"),
            f"https://github.com/{spec['repository']}",
            tuple(spec.get("stacks", ())),
        )
    return out
