"""gRPC: proto services of the repository, who implements them, and their rpc methods as APIs.

The .proto parser lives in ``orbitkb.analysis.grpc.proto`` (``parse_proto``, ``find_csharp_grpc``);
this module only indexes its output, tolerating dict- or attribute-shaped results.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from attrs import frozen


@frozen
class ProtoRpc:
    name: str
    line: int
    end_line: int
    doc: str | None = None
    request_type: str = ""  # as written in the .proto ("GetStockRequest", ".pkg.Msg")
    response_type: str = ""
    client_streaming: bool = False
    server_streaming: bool = False
    http: tuple[tuple[str, str], ...] = ()  # google.api.http rules: (METHOD, path template)


@frozen
class ProtoService:
    name: str
    package: str
    file: str
    line: int
    rpcs: tuple[ProtoRpc, ...]

    @property
    def full_name(self) -> str:
        return f"{self.package}.{self.name}" if self.package else self.name


@frozen
class LoadedProto:
    """One .proto file: its services, and its messages by full name (``pkg.Outer.Inner``) as
    (field, type, repeated) tuples, for request/response shapes."""

    path: str
    package: str
    services: tuple[ProtoService, ...] = ()
    messages: tuple[tuple[str, tuple[tuple[str, str, bool], ...]], ...] = ()
    error: str | None = None


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _proto_module() -> Any:
    try:
        from orbitkb.analysis.grpc import proto
    except Exception:  # noqa: BLE001 - the proto parser is optional for the rest of the pipeline
        return None
    return proto


_PROTO_TOKEN = re.compile(
    r"//[^\n]*|/\*.*?\*/|\bpackage\s+([\w.]+)\s*;|\bservice\s+(\w+)\s*\{|\brpc\s+(\w+)\s*\(|[{}]", re.S
)


def _fallback_proto(text: str) -> dict[str, Any]:
    """Services and rpcs of a .proto, for when the full parser is not installed."""
    out: dict[str, Any] = {"package": "", "services": []}
    depth, service_depth, comments = 0, None, []
    line, counted = 1, 0  # lines counted incrementally: a big .proto stays linear
    for match in _PROTO_TOKEN.finditer(text):
        token = match.group(0)
        line += text.count("\n", counted, match.start())
        counted = match.start()
        if token.startswith("//"):
            comments.append(token[2:].strip())
            continue
        if match.group(1):
            out["package"] = match.group(1)
        elif match.group(2):
            out["services"].append({"name": match.group(2), "line": line, "rpcs": []})
            depth += 1
            service_depth = depth
        elif match.group(3) and service_depth is not None:
            doc = "\n".join(comments) or None
            out["services"][-1]["rpcs"].append({"name": match.group(3), "line": line, "doc": doc})
        elif token == "{":
            depth += 1
        elif token == "}":
            if depth == service_depth:
                service_depth = None
            depth = max(depth - 1, 0)
        if not token.startswith("/*"):
            comments = []
    return out


def parse_proto_file(path: str, text: str) -> tuple[list[ProtoService], str | None]:
    """(services, error) of one .proto file."""
    loaded = load_proto(path, text)
    return list(loaded.services), loaded.error


@lru_cache(maxsize=512)  # the pipeline and the linker's proto catalog both read every .proto
def load_proto(path: str, text: str) -> LoadedProto:
    """Services (with rpc lines and doc comments from this module's scanner: the parser keeps no
    positions) and messages of one .proto file; bad input becomes ``error``, never an exception."""
    module = _proto_module()
    try:
        scanned = _fallback_proto(text)
        parsed: Any = (
            module.parse_proto(text) if module is not None and hasattr(module, "parse_proto") else scanned
        )
    except Exception as exc:  # noqa: BLE001 - bad input must become a gap
        return LoadedProto(path, "", error=f"proto parse failed: {type(exc).__name__}: {str(exc)[:160]}")
    if _get(parsed, "error"):
        return LoadedProto(path, "", error=str(_get(parsed, "error")))
    where = {svc["name"]: svc for svc in scanned["services"]}
    package = str(_get(parsed, "package") or "")
    out = []
    for svc in _get(parsed, "services") or []:
        name = str(_get(svc, "name"))
        found = where.get(name, {"line": 1, "rpcs": []})
        rpc_at = {r["name"]: r for r in found["rpcs"]}
        rpcs = []
        for rpc in _get(svc, "rpcs") or _get(svc, "methods") or []:
            rpc_name = str(_get(rpc, "name") or "")
            at = rpc_at.get(rpc_name, {"line": found["line"], "doc": None})
            line = _get(rpc, "line") if isinstance(_get(rpc, "line"), int) else at["line"]
            rpcs.append(
                ProtoRpc(
                    rpc_name, line, line, _get(rpc, "doc") or at["doc"],
                    str(_get(rpc, "request_type") or ""), str(_get(rpc, "response_type") or ""),
                    bool(_get(rpc, "client_streaming")), bool(_get(rpc, "server_streaming")),
                    tuple((str(m), str(p)) for m, p in _get(rpc, "http") or ()),
                )
            )  # fmt: skip
        out.append(ProtoService(name, package, path, found["line"], tuple(r for r in rpcs if r.name)))
    messages = []
    for msg in _get(parsed, "messages") or []:
        fields = tuple(
            (str(_get(f, "name")), str(_get(f, "type")), bool(_get(f, "repeated")))
            for f in _get(msg, "fields") or ()
        )
        name = str(_get(msg, "name"))
        messages.append((f"{package}.{name}" if package else name, fields))
    return LoadedProto(path, package, tuple(out), tuple(messages))


def csharp_implements(text: str) -> list[str]:
    """Proto service names a C# file implements (``class X : Payments.PaymentsBase``)."""
    module = _proto_module()
    if module is not None and hasattr(module, "find_csharp_grpc"):
        try:
            found = module.find_csharp_grpc(text)
        except Exception:  # noqa: BLE001
            return []
        if isinstance(found, Mapping):
            found = found.get("implements") or found.get("services") or []
        return sorted({str(_get(x, "service", x)) if not isinstance(x, str) else x for x in found or []})
    return sorted(set(re.findall(r":\s*(?:[\w.]+\.)?(\w+)\.\1Base\b", text)))


def named_like(full_name: str, files: Iterable[str], root: str) -> bool:
    """Whether proto service ``full_name`` (defined in ``files``) is named like the service folder
    ``root``: its package or its folder is that folder's name (``package user`` in
    ``proto/user/user.proto`` for the service in ``pkg/user``). It settles which of two services
    sharing a simple name (``chat.UserService``, ``user.UserService``) a service serves or means."""
    name = root.strip("/").rsplit("/", 1)[-1].lower()
    if root in ("", ".") or not name:
        return False
    package = full_name.rsplit(".", 1)[0].rsplit(".", 1)[-1].lower() if "." in full_name else ""
    return package == name or any(f.count("/") and f.rsplit("/", 2)[-2].lower() == name for f in files)


class GrpcIndex:
    def __init__(self, services: Iterable[ProtoService]) -> None:
        self._by_full: dict[str, ProtoService] = {}
        self._by_name: dict[str, list[ProtoService]] = {}
        for svc in sorted(services, key=lambda s: (s.full_name, s.file)):
            self._by_full.setdefault(svc.full_name, svc)
            self._by_name.setdefault(svc.name, []).append(svc)

    def find(self, name: str, root: str = ".") -> ProtoService | None:
        """By full name (``pkg.Service``) or simple name when only one package defines it, or
        one of them is named like the folder ``root`` of the service asking (``named_like``)."""
        name = name.strip().lstrip(".")
        if name in self._by_full:
            return self._by_full[name]
        simple = name.rsplit(".", 1)[-1]
        found = {s.full_name: s for s in self._by_name.get(simple, [])}
        if len(found) > 1:
            found = {k: s for k, s in found.items() if named_like(k, [s.file], root)}
        return next(iter(found.values())) if len(found) == 1 else None

    def services(self) -> list[ProtoService]:
        return list(self._by_full.values())


#: How each language registers a gRPC service implementation (a safety net under the linkers):
#: (cheap marker, pattern with ``svc`` and optionally ``impl``, the implementing type).
_IMPLEMENTS = (
    (
        "Server(",
        re.compile(
            r"\bRegister(?P<svc>\w+)Server\s*\(\s*[\w.]+\s*,\s*(?:&?(?:\w+\.)?(?:New)?(?P<impl>[A-Z]\w*)\s*[{(]"
            r"|&?(?:\w+\.)?(?P<lower>[a-z_]\w*)\s*\{|new\((?P<new>\w+)\))?"
        ),
    ),
    (
        "Servicer_to_server",
        re.compile(r"\badd_(?P<svc>\w+)Servicer_to_server\s*\(\s*(?:(?:\w+\.)?(?P<impl>[A-Z]\w*)\s*\()?"),
    ),
    (
        "ImplBase",
        re.compile(
            r"(?:class\s+(?P<impl>\w+)[^{;]*?(?:extends|:)\s*)?\b(?:[\w.]+\.)?(?P<svc>\w+)Grpc(?:Kt)?\.\w+ImplBase\b"
        ),
    ),
    ("_ServiceDesc", re.compile(r"\bRegisterService\s*\(\s*&?(?:\w+\.)?(?P<svc>\w+)_ServiceDesc\b")),
    ("GrpcMethod", re.compile(r"@GrpcMethod\s*\(\s*['\"](?P<svc>\w+)['\"]")),
    (  # tonic: impl greeter_server::Greeter for MyGreeter
        "_server::",
        re.compile(r"\bimpl(?:<[^>]*>)?\s+(?:[\w:]+::)?\w+_server::(?P<svc>\w+)\s+for\s+(?P<impl>\w+)"),
    ),
    (  # tonic: GreeterServer::new(MyGreeter::default()) / ::with_interceptor(MyGreeter, ..)
        "Server::",
        re.compile(r"\b(?P<svc>[A-Z]\w*?)Server::(?:new|with_interceptor|from_arc)\s*\(\s*(?:[a-z_]\w*::)*(?P<impl>[A-Z]\w*)?"),
    ),
    (
        "Servicer",
        re.compile(r"\bclass\s+(?P<impl>\w+)\s*\((?:[^()]*,)?\s*(?:[\w.]+\.)?(?P<svc>\w+)Servicer\s*[,)]"),
    ),
)
_ADD_SERVICE = re.compile(r"\baddService\s*\(\s*(?:[\w$]+\.)*?(?P<svc>\w+)\.service\b\s*,?\s*")
_NEW_OR_CLASS = re.compile(r"(?:new\s+)?(?:[\w$]+\.)*(?P<impl>[A-Z]\w*)\s*(?:\(|[,)])")
_METHOD_ENTRY = re.compile(r"(?:async\s+)?\*?\s*(?P<key>[\w$]+)\s*\(")
_KEY_ENTRY = re.compile(r"""(?P<q>['"]?)(?P<key>[\w$]+)(?P=q)\s*:\s*""")
_BIND = re.compile(r"\.bind\s*\(.*\)\s*$", re.S)
_DOTTED = re.compile(r"^[\w$]+(?:\.[\w$]+)*$")
_PAIRS = {"(": ")", "[": "]", "{": "}"}
MAX_OBJECT = 4000  # chars of a handler object literal read after addService(...)


def _object_entries(text: str, start: int) -> list[tuple[int, str]]:
    """(offset, text) of the top-level entries of the object literal opening at ``start``."""
    stack: list[str] = []
    entries: list[tuple[int, str]] = []
    begin, i, end = start + 1, start, min(len(text), start + MAX_OBJECT)
    while i < end:
        ch = text[i]
        if ch in "'\"`":
            close = text.find(ch, i + 1)
            while close > 0 and text[close - 1] == "\\":
                close = text.find(ch, close + 1)
            i = close if close > 0 else end
        elif ch in _PAIRS:
            stack.append(_PAIRS[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
            if not stack:
                entries.append((begin, text[begin:i]))
                return [(o, t) for o, t in entries if t.strip()]
        elif ch == "," and len(stack) == 1:
            entries.append((begin, text[begin:i]))
            begin = i + 1
        i += 1
    return []  # unbalanced or too long: no handler map


def _handler_map(text: str, start: int) -> str | None:
    """``{rpcKey=handler,...}`` of a JS handler object: a handler is a dotted name (``.bind(...)``
    and ``this.`` dropped) or ``@L<line>`` for a function written inline."""
    pairs = []
    for offset, raw in _object_entries(text, start):
        entry = raw.strip()
        lead = offset + len(raw) - len(raw.lstrip())
        key_match = _KEY_ENTRY.match(entry)
        if key_match:
            key, value = key_match.group("key"), _BIND.sub("", entry[key_match.end() :]).strip()
            value = value[5:] if value.startswith("this.") else value
            if not _DOTTED.match(value):
                value = f"@L{text.count(chr(10), 0, lead + key_match.end()) + 1}"
        elif _DOTTED.match(entry) and "." not in entry:
            key = value = entry
        elif _METHOD_ENTRY.match(entry):
            key, value = _METHOD_ENTRY.match(entry).group("key"), f"@L{text.count(chr(10), 0, lead) + 1}"  # type: ignore[union-attr]
        else:
            continue
        pairs.append(f"{key}={value}")
    return "{" + ",".join(pairs) + "}" if pairs else None


def handler_map(impl: str | None) -> dict[str, str]:
    """The rpc key -> handler pairs recorded by ``scan_implements`` for a JS handler object."""
    if not impl or not impl.startswith("{"):
        return {}
    pairs = (p.partition("=") for p in impl.strip("{}").split(",") if "=" in p)
    return {k: v for k, _, v in pairs}


def _add_service(text: str) -> set[tuple[str, str | None]]:
    found: set[tuple[str, str | None]] = set()
    for match in _ADD_SERVICE.finditer(text):
        impl = None
        if text[match.end() : match.end() + 1] == "{":
            impl = _handler_map(text, match.end())
        else:
            typed = _NEW_OR_CLASS.match(text, match.end())
            impl = typed.group("impl") if typed else None
        found.add((match.group("svc"), impl))
    return found


def scan_implements(text: str) -> list[tuple[str, str | None]]:
    """(proto service, implementing type, JS handler map or None) registered in one source file,
    from plain text."""
    found: set[tuple[str, str | None]] = set()
    for marker, pattern in _IMPLEMENTS:
        if marker in text:
            for match in pattern.finditer(text):
                groups = match.groupdict()
                found.add((groups["svc"], groups.get("impl") or groups.get("lower") or groups.get("new")))
    if "addService" in text:
        found |= _add_service(text)
    return sorted(found, key=lambda x: (x[0], x[1] or ""))
