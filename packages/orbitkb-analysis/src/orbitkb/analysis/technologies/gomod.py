"""go.mod: direct requirements (not ``// indirect``), the Go version and the build tool."""

from __future__ import annotations

import re
from collections.abc import Mapping

from orbitkb.analysis.technologies.found import Found, clean_version

_GO = re.compile(r"^go\s+(\d[\w.]*)\s*$")


def read(path: str, text: str, texts: Mapping[str, str]) -> list[Found]:
    out = [Found("build_tool", "go-modules", None, path, 1)]
    in_require = False
    for number, raw in enumerate(text.splitlines(), 1):
        code, _, comment = raw.partition("//")
        words = code.split()
        if not words:
            continue
        if in_require and words[0] == ")":
            in_require = False
            continue
        if words[0] == "require":
            if words[1:2] == ["("]:
                in_require = True
                continue
            words = words[1:]
        elif not in_require:
            version = _GO.match(code.strip())
            if version:
                out.append(Found("language", "go", version.group(1), path, number))
            continue
        if len(words) >= 2 and "indirect" not in comment:
            out.append(Found("library", words[0].strip('"'), clean_version(words[1]), path, number))
    return out
