"""composer.json: ``require`` packages (``require-dev`` noted dev) and the PHP version."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from orbitkb.analysis.technologies.found import DEV_NOTE, Found, clean_version, find_line


def read(path: str, text: str, texts: Mapping[str, str]) -> list[Found]:
    try:
        data = json.loads(text)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    out: list[Found] = []
    for key, note in (("require", None), ("require-dev", DEV_NOTE)):
        section = data.get(key)
        if not isinstance(section, dict):
            continue
        for name, version in section.items():
            number = find_line(text, r'"' + re.escape(name) + r'"\s*:') or 1
            ver = clean_version(version.lstrip("^~>=< ").split("|")[0].strip()) if isinstance(version, str) else None
            if name == "php":
                out.append(Found("language", "php", ver, path, number))
            elif "/" in name:  # ext-* are PHP extensions, not packages
                out.append(Found("library", name, ver, path, number, note))
    return out
