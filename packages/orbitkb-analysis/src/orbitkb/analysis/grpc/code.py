"""The functions and methods of one service that could implement an rpc, read from the language
analyzers' parse results (Go ``funcs``, Node ``functions``, Python ``funcs``) and from C# text.

Only names, owners (class / receiver type), lines and doc comments are taken; shapes the
analyzers do not produce are simply skipped, so an unknown or partial parse never breaks binding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from attrs import frozen

from orbitkb.analysis.paths import basename


@frozen
class CodeMethod:
    owner: str | None  # class / receiver type; None for a module-level function
    name: str
    file: str
    line: int
    end_line: int
    doc: str | None = None
    fid: str = ""  # the analyzer's own id (Node ``Class.method``, ``<anonymous>@12``)
    arg_types: tuple[str, ...] = ()  # parameter types when the language writes them (Go)

    @property
    def handler(self) -> str:
        return f"{self.owner}.{self.name}" if self.owner else self.name

    @property
    def component(self) -> str:
        return self.owner or basename(self.file).rsplit(".", 1)[0]


@frozen
class CodeType:
    name: str
    file: str
    line: int
    end_line: int
    doc: str | None = None
    embeds: tuple[str, ...] = ()  # base classes / embedded types as written


def _int(value: Any, default: int = 1) -> int:
    return value if isinstance(value, int) and value > 0 else default


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _go(path: str, data: Mapping[str, Any]) -> tuple[list[CodeMethod], list[CodeType]]:
    methods, types = [], []
    for fn in data.get("funcs") or ():
        if isinstance(fn, dict) and _str(fn.get("n")):
            params = tuple(str(p[1]) for p in fn.get("p") or () if isinstance(p, list) and len(p) > 1)
            line = _int(fn.get("l"))
            methods.append(
                CodeMethod(_str(fn.get("r")), fn["n"], path, line, _int(fn.get("e"), line), _str(fn.get("doc")),
                           arg_types=params)
            )  # fmt: skip
    for t in data.get("types") or ():
        if isinstance(t, dict) and _str(t.get("n")):
            embeds = tuple(
                str(f[1]) for f in t.get("f") or () if isinstance(f, list) and len(f) > 1 and not f[0]
            )
            line = _int(t.get("l"))
            types.append(CodeType(t["n"], path, line, _int(t.get("e"), line), _str(t.get("doc")), embeds))
    return methods, types


def _node(path: str, data: Mapping[str, Any]) -> tuple[list[CodeMethod], list[CodeType]]:
    methods, types = [], []
    functions = data.get("functions")
    for fid, fn in functions.items() if isinstance(functions, dict) else ():
        if isinstance(fn, dict):
            line = _int(fn.get("line"))
            owner = _str(fn.get("cls"))
            name = fid.rsplit(".", 1)[-1] if owner else fid
            methods.append(
                CodeMethod(owner, name, path, line, _int(fn.get("end"), line), _str(fn.get("doc")), fid=fid)
            )
    classes = data.get("classes")
    for name, info in classes.items() if isinstance(classes, dict) else ():
        if isinstance(info, dict):
            line = _int(info.get("line"))
            types.append(CodeType(name, path, line, _int(info.get("end"), line), _str(info.get("doc"))))
    return methods, types


def _python(path: str, data: Mapping[str, Any]) -> tuple[list[CodeMethod], list[CodeType]]:
    methods, types = [], []
    funcs = data.get("funcs")
    for qual, fn in funcs.items() if isinstance(funcs, dict) else ():
        if isinstance(fn, dict):
            owner = _str(fn.get("c"))
            line = _int(fn.get("l"))
            name = qual.rsplit(".", 1)[-1]
            methods.append(
                CodeMethod(owner.rsplit(".", 1)[-1] if owner else None, name, path, line,
                           _int(fn.get("e"), line), _str(fn.get("doc")), fid=qual)
            )  # fmt: skip
    classes = data.get("classes")
    for qual, info in classes.items() if isinstance(classes, dict) else ():
        if isinstance(info, dict):
            line = _int(info.get("l"))
            types.append(
                CodeType(
                    qual.rsplit(".", 1)[-1], path, line, _int(info.get("e"), line), _str(info.get("doc"))
                )
            )
    return methods, types


# bounded repetitions: a pathological file must not make these backtrack for long
_CS_CLASS = re.compile(r"\bclass\s+(\w+)(?:\s*<[^>{]{0,200}>)?\s*(?::\s*([^{;]{1,500}))?\{")
_CS_OVERRIDE = re.compile(r"\boverride\s+(?:async\s+)?[\w<>\[\],.?\s]{1,200}?\s(\w+)\s*\(")
_XML_TAG = re.compile(r"</?\w+[^>]*>")


def _cs_doc(text: str, pos: int) -> str | None:
    """The ``///`` comment block right above ``pos`` (attributes in between allowed), tags dropped."""
    end = text.rfind("\n", 0, pos)
    found: list[str] = []
    while end > 0 and len(found) < 60:
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end].strip()
        if line.startswith("///"):
            found.append(_XML_TAG.sub("", line[3:]).strip())
        elif not (line.startswith("[") and line.endswith("]") and not found):
            break
        end = start - 1
    return "\n".join(ln for ln in reversed(found) if ln) or None


class _Lines:
    """Line numbers of increasing offsets, counted incrementally (big files stay linear)."""

    def __init__(self, text: str) -> None:
        self.text, self.pos, self.line = text, 0, 1

    def at(self, pos: int) -> int:
        if pos < self.pos:
            self.pos, self.line = 0, 1
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def csharp(path: str, text: str) -> tuple[list[CodeMethod], list[CodeType]]:
    """Classes and their ``override`` methods (a gRPC service base is implemented by overriding)."""
    methods, types = [], []
    classes = [(m.start(), m.group(1), m.group(2) or "") for m in _CS_CLASS.finditer(text)]
    lines = _Lines(text)
    for start, name, bases in classes:
        line = lines.at(start)
        embeds = tuple(b.strip() for b in bases.split(",") if b.strip())
        types.append(CodeType(name, path, line, line, _cs_doc(text, start), embeds))
    lines = _Lines(text)
    k = -1
    for m in _CS_OVERRIDE.finditer(text):
        while k + 1 < len(classes) and classes[k + 1][0] < m.start():
            k += 1
        line = lines.at(m.start())
        owner = classes[k][1] if k >= 0 else None
        methods.append(CodeMethod(owner, m.group(1), path, line, line, _cs_doc(text, m.start())))
    return methods, types


def _dotnet(path: str, data: Mapping[str, Any]) -> tuple[list[CodeMethod], list[CodeType]]:
    methods, types = [], []
    for t in data.get("types") or ():
        if isinstance(t, dict) and _str(t.get("n")):
            line = _int(t.get("l"))
            types.append(CodeType(t["n"], path, line, _int(t.get("e"), line), _str(t.get("doc")),
                                  tuple(str(b) for b in t.get("b") or ())))  # fmt: skip
            for m in t.get("m") or ():
                if isinstance(m, dict) and _str(m.get("n")):
                    ml = _int(m.get("l"))
                    methods.append(CodeMethod(t["n"], m["n"], path, ml, _int(m.get("e"), ml), _str(m.get("doc"))))
    return methods, types


#: (key, the type its value has in that analyzer's parse result, reader)
_READERS = (("funcs", list, _go), ("functions", dict, _node), ("funcs", dict, _python), ("usings", list, _dotnet))


def read_parsed(path: str, data: Any) -> tuple[list[CodeMethod], list[CodeType]]:
    """Methods and types of one parse result, whichever analyzer wrote it."""
    if not isinstance(data, dict) or "error" in data:
        return [], []
    for key, kind, reader in _READERS:
        if isinstance(data.get(key), kind):
            try:
                return reader(path, data)
            except (TypeError, AttributeError, KeyError, ValueError):
                return [], []  # a shape this module does not know: nothing to bind from
    return [], []


class CodeIndex:
    def __init__(self, entries: Iterable[tuple[list[CodeMethod], list[CodeType]]]) -> None:
        self.methods: list[CodeMethod] = []
        self.types: dict[str, CodeType] = {}
        for methods, types in entries:
            self.methods.extend(methods)
            for t in types:
                self.types.setdefault(t.name, t)
        self.methods.sort(key=lambda m: (m.file, m.line, m.name))
        self.by_name: dict[str, list[CodeMethod]] = {}  # spelling-insensitive name -> methods
        self.by_fid: dict[str, list[CodeMethod]] = {}  # analyzer id and its last part -> methods
        for m in self.methods:
            self.by_name.setdefault(m.name.replace("_", "").lower(), []).append(m)
            if m.fid:
                self.by_fid.setdefault(m.fid, []).append(m)
                if "." in m.fid:
                    self.by_fid.setdefault("." + m.fid.rsplit(".", 1)[-1], []).append(m)

    def named(self, name: str) -> list[CodeMethod]:
        return self.by_name.get(name.replace("_", "").lower(), [])
