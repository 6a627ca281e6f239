"""package.json: every declared dependency (devDependencies too, marked) and the packageManager."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from orbitkb.analysis.technologies.found import Found, clean_version, find_line

#: Section -> evidence note (None: what the service runs with).
SECTIONS = {
    "dependencies": None,
    "devDependencies": "devDependencies",
    "peerDependencies": "peerDependencies",
    "optionalDependencies": "optionalDependencies",
}


def read(path: str, text: str, texts: Mapping[str, str]) -> list[Found]:
    try:
        data = json.loads(text)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    out: list[Found] = []
    manager = data.get("packageManager")
    if isinstance(manager, str) and re.fullmatch(r"[a-z]+@[\w.\-+]+", manager.strip()):
        tool, _, version = manager.strip().partition("@")
        line = find_line(text, r'"packageManager"\s*:') or 1
        out.append(Found("build_tool", tool, clean_version(version.split("+", 1)[0]), path, line))
    for section, note in SECTIONS.items():
        deps = data.get(section)
        if not isinstance(deps, dict):
            continue
        header = re.search(r'"' + section + r'"\s*:\s*\{', text)
        start = header.end() if header else 0
        for name, version in deps.items():
            if not isinstance(name, str) or not name:
                continue
            line = find_line(text, r'"' + re.escape(name) + r'"\s*:', start) or 1
            out.append(Found("library", name, clean_version(version), path, line, note))
    return out
