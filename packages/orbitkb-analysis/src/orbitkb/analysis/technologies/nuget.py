"""*.csproj: PackageReference items, the target framework and the web SDK."""

from __future__ import annotations

import re
from collections.abc import Mapping

from orbitkb.analysis.technologies import xmlsafe
from orbitkb.analysis.technologies.found import Found, clean_version, find_line, line_at

_REFERENCE = re.compile(r"<PackageReference\b([^>]*?)(/>|>(.*?)</PackageReference\s*>)", re.S | re.I)
_ATTR = re.compile(r"""\b(Include|Update|Version)\s*=\s*["']([^"']*)["']""", re.I)


def read(path: str, text: str, texts: Mapping[str, str]) -> list[Found]:
    root = xmlsafe.parse(text)
    if root is None:
        return []
    plain = xmlsafe.blank_comments(text)
    target = re.search(r"<TargetFrameworks?>\s*([^<;\s]+)", plain)
    out = [Found("build_tool", "dotnet", target.group(1) if target else None, path,
                 line_at(plain, target.start()) if target else 1)]  # fmt: skip
    if re.match(r"Microsoft\.NET\.Sdk\.(?:Web|BlazorWebAssembly)$", root.get("Sdk", "")):
        out.append(Found("framework", "aspnetcore", None, path, find_line(plain, r"<Project\b") or 1))
    for match in _REFERENCE.finditer(plain):
        attrs = {k.lower(): v for k, v in _ATTR.findall(match.group(1))}
        name = attrs.get("include")
        if not name:
            continue
        version = attrs.get("version")
        inner = re.search(r"<Version>\s*([^<]+?)\s*</Version>", match.group(3) or "", re.I)
        if version is None and inner:
            version = inner.group(1)
        out.append(Found("library", name, clean_version(version), path, line_at(plain, match.start())))
    return out
