"""The path a gateway forwards: its route pattern rewritten by the route's path filters.

Spring Cloud Gateway filters (StripPrefix, RewritePath, PrefixPath, SetPath) and an nginx
``proxy_pass`` with a URI part change the path the callee sees. Patterns keep their wildcards
(``/api/customer/**`` stripped of 2 segments is ``/**``) so the call can be matched against the
callee's APIs as a prefix. A filter that cannot be applied leaves the path as it was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from attrs import frozen

_JAVA_GROUP = re.compile(r"\(\?<([A-Za-z][A-Za-z0-9]*)>")
_REPLACEMENT = re.compile(r"\$\\?\{([A-Za-z][A-Za-z0-9]*)\}|\$(\d)")
# Wildcards stand in for path text while a regex runs over the pattern, then come back.
_MARKS = (("**", "\x01"), ("*", "\x02"))


@frozen
class PathFilter:
    name: str  # StripPrefix | RewritePath | PrefixPath | SetPath
    args: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.name}={', '.join(self.args)}" if self.args else self.name


#: Filter name -> its argument names in order (the name/args form names them, the shortcut lists them).
FILTER_ARGS: dict[str, tuple[str, ...]] = {
    "StripPrefix": ("parts",),
    "RewritePath": ("regexp", "replacement"),
    "PrefixPath": ("prefix",),
    "SetPath": ("template",),
}


def normalize(path: str) -> str:
    path = re.sub(r"/{2,}", "/", "/" + path.strip())
    return path.rstrip("/") or "/"


def strip_prefix(path: str, parts: int) -> str:
    segments = [s for s in path.split("/") if s]
    if parts < len(segments):
        return normalize("/".join(segments[parts:]))
    # everything written was stripped: a trailing ** still stands for whatever followed
    return "/**" if segments and segments[-1] == "**" else "/"


def rewrite_path(path: str, regexp: str, replacement: str) -> str | None:
    """Java's ``replaceAll(regexp, replacement)`` over the pattern; None when the regex is bad."""
    try:
        compiled = re.compile(_JAVA_GROUP.sub(r"(?P<\1>", regexp))
    except re.error:
        return None
    marked = path
    for wildcard, mark in _MARKS:
        marked = marked.replace(wildcard, mark)

    def group(match: re.Match[str]) -> str:
        return _REPLACEMENT.sub(lambda r: match.group(r.group(1) or int(r.group(2))) or "", replacement)

    try:
        out = compiled.sub(group, marked)
    except (IndexError, re.error):
        return None
    for wildcard, mark in reversed(_MARKS):
        out = out.replace(mark, wildcard)
    return normalize(out)


def apply_filters(path: str, filters: Sequence[PathFilter]) -> tuple[str, list[str]]:
    """(downstream path, descriptions of the filters that changed it)."""
    applied: list[str] = []
    for f in filters:
        before = path
        if f.name == "StripPrefix" and f.args and f.args[0].strip().isdigit():
            path = strip_prefix(path, int(f.args[0].strip()))
        elif f.name == "RewritePath" and len(f.args) == 2:
            path = rewrite_path(path, f.args[0].strip(), f.args[1].strip()) or path
        elif f.name == "PrefixPath" and f.args:
            path = normalize(f.args[0].strip() + "/" + path)
        elif f.name == "SetPath" and f.args:
            path = normalize(f.args[0].strip())
        if path != before:
            applied.append(f.describe())
    return path, applied


def shortcut_filter(text: str) -> PathFilter | None:
    """``StripPrefix=2`` / ``RewritePath=/a/(?<s>.*), /$\\{s}`` -> a PathFilter (path filters only)."""
    name, sep, args = text.partition("=")
    name = name.strip()
    if not sep or name not in FILTER_ARGS:
        return None
    if len(FILTER_ARGS[name]) == 2:
        head, comma, tail = args.rpartition(",")  # a regex may hold commas; a replacement rarely does
        return PathFilter(name, (head.strip(), tail.strip()) if comma else (args.strip(),))
    return PathFilter(name, (args.strip(),))


def nginx_downstream(location: list[str], url: str) -> tuple[str | None, str | None]:
    """(call path, note) for ``location <modifier?> <path> { proxy_pass <url>; }``.

    A proxy_pass with a URI part (even ``/``) replaces the matched location prefix with it; without
    one the request path is passed on unchanged. Prefix locations become ``<prefix>/**``.
    """
    if not location:
        return None, None
    modifier, where = (location[0], location[-1]) if len(location) > 1 else ("", location[0])
    if modifier in ("~", "~*"):
        return where, None  # a regex location: kept as written
    exact = modifier == "="
    pattern = normalize(where) if exact else normalize(where.rstrip("/") + "/**")
    rest = url.partition("://")[2]
    slash = rest.find("/")
    if slash < 0 or "$" in url:
        return pattern, None  # no URI part (or one built from variables): the path goes on as is
    uri = rest[slash:]
    down = normalize(uri) if exact else normalize(uri.rstrip("/") + "/**")
    if down == pattern:
        return pattern, None
    return down, f"location {where} forwarded as {down}"
