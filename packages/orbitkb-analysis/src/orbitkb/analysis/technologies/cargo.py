"""Cargo.toml: ``[dependencies]`` crates (``[dev-dependencies]`` noted dev), the Rust edition's
language and the build tool. A crate inherited from the workspace (``{ workspace = true }``)
takes its version from the workspace root's ``[workspace.dependencies]`` when that file is read."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

from orbitkb.analysis import paths
from orbitkb.analysis.technologies.found import DEV_NOTE, Found, clean_version, find_line


def _version(spec: Any, inherited: Mapping[str, Any]) -> str | None:
    if isinstance(spec, dict) and spec.get("workspace") is True:
        return None
    if isinstance(spec, dict):
        spec = spec.get("version")
    return clean_version(spec.lstrip("^~=>< ")) if isinstance(spec, str) else None


def _workspace_deps(path: str, texts: Mapping[str, str]) -> dict[str, Any]:
    for above in paths.ancestors(path)[1:]:
        text = texts.get(paths.join(above, "Cargo.toml") or "")
        if text and "[workspace" in text:
            try:
                found = tomllib.loads(text).get("workspace", {}).get("dependencies", {})
            except tomllib.TOMLDecodeError:
                return {}
            return found if isinstance(found, dict) else {}
    return {}


def read(path: str, text: str, texts: Mapping[str, str]) -> list[Found]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return []
    out = [Found("build_tool", "cargo", None, path, 1)]
    package: dict[str, Any] = data["package"] if isinstance(data.get("package"), dict) else {}
    edition = package.get("edition") or package.get("rust-version")
    if package:
        out.append(Found("language", "rust", clean_version(edition) if isinstance(edition, str) else None, path,
                         find_line(text, r"^\s*\[package\]") or 1))  # fmt: skip
    inherited = _workspace_deps(path, texts)
    for key, note in (("dependencies", None), ("dev-dependencies", DEV_NOTE), ("build-dependencies", DEV_NOTE)):
        section = data.get(key)
        if not isinstance(section, dict):
            continue
        for name, spec in section.items():
            crate = str(spec.get("package", name)) if isinstance(spec, dict) else name
            number = find_line(text, r"^\s*" + re.escape(name) + r"\s*=") or 1
            version = _version(spec, inherited) or _version(inherited.get(name), {})
            out.append(Found("library", crate, version, path, number, note))
    return out
