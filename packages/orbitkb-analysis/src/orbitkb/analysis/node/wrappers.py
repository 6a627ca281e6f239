"""Thin HTTP wrappers: helpers whose call sites supply the path or the HTTP verb.

`request(method, path) { return fetch(BASE + path, { method }) }` called as
`request("POST", "/orders")` is reported at the call site as POST ${BASE}/orders. Helpers built on
helpers (`api.get = (p) => request("GET", p)`) are followed layer by layer: a site that passes its
own parameters on makes its function a wrapper too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from attrs import frozen

from ..facts import Expr, Lit, Part, Unknown
from .attribution import Reach
from .resolve import Resolver
from .signatures import INSTANCE_VERBS
from .values import field_slot

Loc = tuple[str, str]  # (file, fid)
_MAX_PARAMS = 8
_MAX_NESTING = 4  # closures a path parameter is followed out of
# Parameter names that hold a path or URL, not an id: `${API}/api/${path}` is still a helper.
_PATH_WORDS = ("path", "url", "uri", "endpoint", "route", "resource", "suffix")
_QUERY_CHARS = ("=", "?", "&", "#")


@frozen
class Slot:
    """A parameter of the wrapper, filled in at each call site: by position, or `"0.url"` for one
    field of an options-object parameter (`({ url, method }) => ...`)."""

    idx: int | str
    name: str


@frozen
class Wrapper:
    loc: Loc
    kind: str
    template: tuple[Any, ...]  # Parts and Slots
    method: str | None
    method_param: int | str | None = None
    options_param: int | None = None


@frozen
class Site:
    """One call reported at a wrapper's call site: the record FactBuilder turns into a RawCall."""

    file: str
    record: dict[str, Any]
    url: Expr | None


def is_wrapper(call: Mapping[str, Any]) -> bool:
    """A call whose path or verb comes from its function's parameters (a raw parse record: a client
    call with its `url`, or an instance call with its `path`)."""
    url = call.get("url") if "url" in call else call.get("path")
    return has_path_param(list(_raw_shape(url or []))) or "method_param" in call or "options_param" in call


def has_path_param(shape: Sequence[tuple[str, str]]) -> bool:
    """True when a parameter supplies the path (`base + path`, `${this.baseUrl}${path}`, `url`,
    `${API}/api/${path}`). A parameter after a literal path (`/items/${id}`) is just an id.
    ``shape`` is (kind, text) per part: ("lit", text), ("param", name) or ("other", "")."""
    for i, (kind, value) in enumerate(shape):
        if kind != "param":
            continue
        before = shape[i - 1] if i else None
        if before is None or before[0] != "lit" or _host_only(before[1]):
            return True
        if _path_named(value) and not before[1].endswith(_QUERY_CHARS):
            return True
        if i == len(shape) - 1 and before[1][-1:].isalnum() and "/" in before[1]:
            return True  # "http://host/api" + path, "/v1" + path
    return False


def _raw_shape(parts: list[Any]) -> Iterator[tuple[str, str]]:
    for part in parts:
        if part[0] == "call" and any(has_path_param(list(_raw_shape(a))) for a in part[2]):
            yield ("param", "path")  # this.http.get(this.url(path))
        elif part[0] in ("lit", "param"):
            yield (part[0], str(part[1] if part[0] == "lit" else part[2]))
        else:
            yield ("other", "")


def _template_shape(items: Sequence[Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for item in items:
        if isinstance(item, Slot):
            out.append(("param", item.name))
        elif isinstance(item, Lit):
            if out and out[-1][0] == "lit":
                out[-1] = ("lit", out[-1][1] + item.text)
            elif item.text:
                out.append(("lit", item.text))
        else:
            out.append(("other", ""))
    return out


def _host_only(text: str) -> bool:
    rest = text.split("://", 1)[1] if "://" in text else text
    return "/" not in rest.rstrip("/") and (rest.endswith("/") or "://" in text or rest == "")


def _path_named(name: str) -> bool:
    low = name.lower()
    return low in ("p", "u", "to") or low.endswith(_PATH_WORDS)


class WrapperSites:
    """Finds the wrappers of one service and reports the calls at their call sites."""

    def __init__(self, files: Mapping[str, dict[str, Any]], resolver: Resolver, reach: Reach) -> None:
        self.files = files
        self.r = resolver
        self.reach = reach
        self.wrappers: dict[Loc, Wrapper] = {}
        self.used: set[Loc] = set()
        self._pending: dict[Loc, list[Site]] = {}

    def slots(self, loc: Loc | None) -> dict[int | str, list[Any]]:
        if loc is None:
            return {}
        record = self.files.get(loc[0], {}).get("functions", {}).get(loc[1]) or {}
        names = record.get("params") or []
        out: dict[int | str, list[Any]] = {
            i: [Slot(i, n or f"arg{i}")] for i, n in enumerate(names[:_MAX_PARAMS])
        }
        for i, fields in (record.get("fields") or {}).items():
            for field in fields:
                key = field_slot(int(i), field)
                out[key] = [Slot(key, field)]
        return out

    def owner(self, file: str, call: Mapping[str, Any]) -> Loc | None:
        """The function whose parameters a call's path comes from: its own, or the enclosing one a
        closure reads them from (`export default ({ url }) => { const run = () => axios.get(url) }`)."""
        fid = call.get("fn")
        if not fid:
            return None
        url = call.get("url") if "url" in call else call.get("path")
        used = [p for p in url or [] if isinstance(p, list) and p and p[0] == "param"]
        functions = self.files.get(file, {}).get("functions", {})
        loc: str | None = fid
        for _ in range(_MAX_NESTING):
            record = functions.get(loc) or {}
            if all(_takes(record, p[1], str(p[2])) for p in used):
                return (file, str(loc))
            loc = record.get("parent")
            if loc is None:
                break
        return (file, fid)

    def covers(self, file: str, call: Mapping[str, Any]) -> bool:
        """True when the call is reported at its wrapper's call sites instead of where it is."""
        return is_wrapper(call) and self.owner(file, call) in self.used

    def add_base(self, file: str, call: Mapping[str, Any], base: list[Part] | None = None) -> None:
        """A client call of the parse output (or an instance call with its base) that may be a wrapper."""
        loc = self.owner(file, call)
        if loc is None or loc in self.wrappers or not is_wrapper(call):
            return
        url = call.get("url") if "url" in call else call.get("path")
        template = list(base or []) + self.r.parts(file, url or [], params=self.slots(loc))
        self.wrappers[loc] = Wrapper(
            loc,
            call.get("kind", "http"),
            tuple(template),
            call.get("method"),
            call.get("method_param"),
            call.get("options_param"),
        )

    def run(self) -> list[Site]:
        """Every call reported at a wrapper's call site, following helpers built on helpers."""
        callers: dict[Loc, list[tuple[str, str | None, dict[str, Any]]]] = defaultdict(list)
        for file in sorted(self.files):
            data = self.files[file]
            for fid, record in sorted(data.get("functions", {}).items()):
                for inv in record.get("invokes", []):
                    self._index(callers, file, fid, inv)
            for inv in data.get("invokes", []):
                self._index(callers, file, None, inv)
        out: list[Site] = []
        work = sorted(self.wrappers)
        while work:
            loc = work.pop(0)
            for file, fid, inv in callers.get(loc, []):
                derived = self._site(self.wrappers[loc], file, fid, inv, out)
                if derived is not None:
                    work.append(derived)
            del loc
        for loc, sites in sorted(self._pending.items()):
            if loc not in self.used:
                out.extend(sites)  # a helper nobody in the service calls: report it where it is
        return out

    def _index(self, callers: dict[Loc, list[Any]], file: str, fid: str | None, inv: dict[str, Any]) -> None:
        loc = self.reach.callee(file, inv["callee"])
        if loc is not None and loc != (file, fid):
            callers[loc].append((file, fid, inv))

    def _site(
        self, wrapper: Wrapper, file: str, fid: str | None, inv: dict[str, Any], out: list[Site]
    ) -> Loc | None:
        self.used.add(wrapper.loc)
        own = (file, fid) if fid else None
        slots = self.slots(own)
        given: dict[int | str, list[Any]] = {
            i: self.r.parts(file, a, params=slots)
            for i, a in enumerate(inv.get("args") or [])
            if a is not None
        }
        for key, parts in sorted((inv.get("fields") or {}).items()):
            given[key] = self.r.parts(file, parts, params=slots)
        items = _fill(wrapper.template, given)
        method, method_slot = self._method(wrapper, inv, given)
        name = wrapper.loc[1]
        record = {
            "kind": wrapper.kind,
            "client": f"wrapper:{name}",
            "method": method,
            "line": inv["line"],
            "end": inv["end"],
            "fn": fid,
            "cls": self.files[file].get("functions", {}).get(fid, {}).get("cls") if fid else None,
        }
        site = Site(file, record, _expr(items))
        passes_on = method_slot is not None or has_path_param(_template_shape(items))
        if own is None or not passes_on or own in self.wrappers or own[1].startswith("<anonymous>"):
            out.append(site)
            return None
        self.wrappers[own] = Wrapper(own, wrapper.kind, tuple(items), method, method_slot)
        self._pending[own] = [site]
        return own

    def _method(
        self, wrapper: Wrapper, inv: Mapping[str, Any], given: Mapping[int | str, list[Any]]
    ) -> tuple[str | None, int | str | None]:
        """(method, parameter of the site's function that supplies it)."""
        method = wrapper.method
        if wrapper.method_param is not None and wrapper.method_param in given:
            arg = given[wrapper.method_param]
            if len(arg) == 1 and isinstance(arg[0], Slot):
                return None, arg[0].idx
            verb = (
                "".join(p.text for p in arg if isinstance(p, Lit))
                if all(isinstance(p, Lit) for p in arg)
                else ""
            )
            if verb.isalpha():
                return verb.upper(), None
        if wrapper.options_param is not None:
            declared = (inv.get("methods") or {}).get(str(wrapper.options_param))
            if declared:
                return str(declared), None
        if method in (None, "GET"):
            verb = wrapper.loc[1].rsplit(".", 1)[-1].lower()
            method = INSTANCE_VERBS.get(verb) or method
        return method, None


def _takes(record: Mapping[str, Any], key: Any, name: str) -> bool:
    """True when the function declares the parameter a path part names: by position and name, or
    as a field of an options-object parameter (key `"0.url"`)."""
    if isinstance(key, int):
        names = record.get("params") or []
        return key < len(names) and names[key] == name
    idx, _, field = str(key).partition(".")
    return field in (record.get("fields") or {}).get(idx, [])


def _fill(template: Sequence[Any], given: Mapping[Any, list[Any]]) -> list[Any]:
    out: list[Any] = []
    for item in template:
        if isinstance(item, Slot):
            out.extend(given.get(item.idx) or [item])
        else:
            out.append(item)
    return out


def _expr(items: Sequence[Any]) -> Expr | None:
    parts: list[Part] = []
    for item in items:
        part = Unknown(item.name) if isinstance(item, Slot) else item
        if isinstance(part, Lit) and parts and isinstance(parts[-1], Lit):
            parts[-1] = Lit(parts[-1].text + part.text)
        elif not (isinstance(part, Lit) and not part.text):
            parts.append(part)
    return Expr(tuple(parts)) if parts else None
