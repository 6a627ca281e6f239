"""``.orbitkbignore``: the user's own exclusions, in the gitignore glob dialect.

Supported: comments, blank lines, ``!`` negation (last match wins), a trailing ``/`` for folders
only, a leading or inner ``/`` anchoring the pattern at the repository root, ``*``, ``?``,
``[...]`` and ``**`` (any number of folders).
"""

from __future__ import annotations

import re

from attrs import frozen


@frozen
class _Rule:
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool
    text: str = ""  # the line as written, to name the rule in a gap


def _glob_to_regex(glob: str, anchored: bool) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if glob.startswith("/**", i) and i + 3 == len(glob):
            out.append("/.*")
            i += 3
            continue
        if glob.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = glob.find("]", i + 1)
            if end == -1:
                out.append(re.escape(c))
            else:
                body = glob[i + 1 : end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end
        else:
            out.append(re.escape(c))
        i += 1
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(f"^{prefix}{''.join(out)}$")


class IgnoreRules:
    """Parsed ignore file; ``ignored(path, is_dir)`` applies the rules to one repo-relative path."""

    def __init__(self, text: str = "") -> None:
        self._rules: list[_Rule] = []
        for raw in text.splitlines():
            line = raw.rstrip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            if negate:
                line = line[1:]
            if line.startswith("\\"):
                line = line[1:]
            written = line
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            anchored = "/" in line  # a leading or inner slash anchors the pattern at the root
            line = line.lstrip("/")
            if line:
                self._rules.append(_Rule(_glob_to_regex(line, anchored), negate, dir_only, written))

    def __bool__(self) -> bool:
        return bool(self._rules)

    def ignored(self, path: str, is_dir: bool = False) -> bool:
        return self.rule_for(path, is_dir) is not None

    def rule_for(self, path: str, is_dir: bool = False) -> str | None:
        """The pattern (as written) that excludes ``path``, or None when it is not excluded."""
        verdict: str | None = None
        for rule in self._rules:
            if rule.dir_only and not is_dir:
                continue
            if rule.regex.match(path):
                verdict = None if rule.negate else rule.text
        return verdict
