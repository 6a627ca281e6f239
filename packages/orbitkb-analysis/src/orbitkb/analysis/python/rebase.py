"""Move a cached parse result to the path it is linked under.

parse() output names things by the file's dotted module path (``a.b.topics.X``, relative imports,
object ids, call positions: ``"at"``), but the pipeline caches it by content hash: two files with the same
text (a ``topics.py`` shared by copy between services, an ``__init__.py``) get the parse of
whichever was parsed first. link() calls ``rebase`` on every file whose recorded module is not
its own, so the names point into the right service again. Only name-bearing fields are
rewritten, never literal values (a channel "fraud.paid" must survive a module "fraud.app.x").
"""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.python.scan import module_name

#: keys whose string values are dotted names derived from the module path
_NAME_KEYS = frozenset({"q", "id", "cq", "ty"})


class _Mapper:
    def __init__(self, path: str, old: str, old_pkg: bool, new: str, new_pkg: bool) -> None:
        self.path = path
        self.old = old.split(".") if old else []
        self.new = new.split(".") if new else []
        n, m = len(self.old), len(self.new)
        # the module itself, and the package its relative imports count levels from
        self.mod_shift = m - n
        self.pkg_shift = (m if new_pkg else m - 1) - (n if old_pkg else n - 1)
        self.prefixes = [".".join(self.old[:k]) for k in range(n + 1)]

    def name(self, s: str) -> str:
        for k in range(len(self.old), 0, -1):
            head = self.prefixes[k]
            if s == head or (s.startswith(head) and s[len(head)] in ".:"):
                j = k + (self.mod_shift if k == len(self.old) else self.pkg_shift)
                if j < 1:
                    return s
                return ".".join(self.new[:j]) + s[len(head) :]
        return s

    def walk(self, v: Any, key: str | None = None) -> Any:
        if isinstance(v, dict):
            return {k: self.walk(x, k) for k, x in v.items()}
        if isinstance(v, list):
            if key == "at" and v and isinstance(v[0], str):
                return [self.path, *v[1:]]  # a call position recorded at parse time
            return [self.walk(x) for x in v]
        if isinstance(v, str) and key in _NAME_KEYS:
            return self.name(v)
        return v


def rebase(path: str, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a parse result, perhaps of another file with the same text) as parsed at ``path``."""
    module, is_pkg = module_name(path)
    old = data.get("module") or ""
    if old == module and bool(data.get("pkg")) == is_pkg:
        return data
    mapper = _Mapper(path, old, bool(data.get("pkg")), module, is_pkg)
    out: dict[str, Any] = mapper.walk(data)
    out["module"], out["pkg"] = module, is_pkg
    if "star" in data:
        out["star"] = [mapper.name(s) for s in data["star"]]
    return out
