"""Gemfile: ``gem`` declarations (group :development/:test ones noted dev) and the Ruby version."""

from __future__ import annotations

import re
from collections.abc import Mapping

from orbitkb.analysis.technologies.found import DEV_NOTE, Found, clean_version

_GEM = re.compile(r"""^\s*gem\s*\(?\s*["']([\w.\-]+)["'](?:\s*,\s*["']([^"']+)["'])?""")
_RUBY = re.compile(r"""^\s*ruby\s+["']([\d.]+)["']""")
_GROUP = re.compile(r"^\s*group\s+(.*?)\s+do\b")
_DEV_GROUPS = ("development", "test")


def read(path: str, text: str, texts: Mapping[str, str]) -> list[Found]:
    out: list[Found] = []
    groups: list[bool] = []  # one entry per open block: True when it is a dev/test group
    for number, raw in enumerate(text.splitlines(), 1):
        code = raw.split("#", 1)[0]
        if group := _GROUP.match(code):
            groups.append(all(any(g in w for g in _DEV_GROUPS) for w in group.group(1).split(",")))
            continue
        if re.search(r"\bdo\b\s*(\|.*\|)?\s*$", code):
            groups.append(False)
            continue
        if re.match(r"^\s*end\b", code) and groups:
            groups.pop()
            continue
        if ruby := _RUBY.match(code):
            out.append(Found("language", "ruby", ruby.group(1), path, number))
        elif gem := _GEM.match(code):
            dev = any(groups) or re.search(r"group:\s*[\[:]*\s*:?(development|test)", code)
            out.append(Found("library", gem.group(1), clean_version(gem.group(2)), path, number,
                             DEV_NOTE if dev else None))  # fmt: skip
    return out
