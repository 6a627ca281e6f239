"""Protocol Buffers service definitions, and gRPC usage in C# found by pattern.

``parse_proto`` reads a .proto file (proto2, proto3 or editions) into its package, services with
their rpc methods, and messages with their fields, tolerating comments, options, imports, enums,
nested messages, oneofs and maps; it never raises. The result records are NamedTuples so callers
can use attributes (``rpc.request_type``) or unpack them as tuples.

``find_csharp_grpc`` finds in C# source the proto services a class implements
(``class X : Svc.SvcBase``) and the clients it builds (``new Svc.SvcClient(channel)`` or
``AddGrpcClient<Svc.SvcClient>``) with the address when ``GrpcChannel.ForAddress``/``new Uri``
names one: the fallback when the C# analyzer (``orbitkb.analysis.dotnet``) is not loaded, and for
C# files inside a service of another stack.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from attrs import frozen


class ProtoRpc(NamedTuple):
    name: str
    request_type: str
    response_type: str
    client_streaming: bool
    server_streaming: bool
    #: HTTP routes of ``option (google.api.http)`` (transcoding): (METHOD, path template)
    http: tuple[tuple[str, str], ...] = ()


class ProtoService(NamedTuple):
    name: str
    rpcs: tuple[ProtoRpc, ...]


class ProtoField(NamedTuple):
    name: str
    type: str
    repeated: bool


class ProtoMessage(NamedTuple):
    name: str  # nested messages are qualified: "Order.Item"
    fields: tuple[ProtoField, ...]


@frozen
class ProtoFile:
    package: str | None
    services: tuple[ProtoService, ...] = ()
    messages: tuple[ProtoMessage, ...] = ()
    imports: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()  # file-level options: go_package, java_package, ...


_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<line>//[^\n]*)
  | (?P<block>/\*.*?(?:\*/|\Z))
  | (?P<str>"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)
  | (?P<word>\.?[A-Za-z_][\w.]*|[-+]?\d[\w.+-]*)
  | (?P<sym>.)
    """,
    re.VERBOSE | re.DOTALL,
)


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind in ("ws", "line", "block"):
            continue
        out.append(m.group())
    return out


def _unquote(tok: str) -> str:
    return tok[1:-1] if len(tok) >= 2 and tok[0] in "\"'" and tok[-1] == tok[0] else tok.strip("\"'")


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.t = tokens
        self.i = 0
        self.package: str | None = None
        self.services: list[ProtoService] = []
        self.messages: list[ProtoMessage] = []
        self.imports: list[str] = []
        self.options: list[tuple[str, str]] = []

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.t[j] if j < len(self.t) else ""

    def next(self) -> str:
        tok = self.peek()
        self.i += 1
        return tok

    def skip_statement(self) -> None:
        """Skip to the end of a statement: a ``;`` or a balanced ``{...}`` block; never past the
        ``}`` that closes the enclosing block."""
        depth = 0
        while self.i < len(self.t):
            tok = self.next()
            if tok in ("{", "[", "("):
                depth += 1
            elif tok in ("}", "]", ")"):
                depth -= 1
                if depth < 0:
                    self.i -= 1
                    return
                if depth == 0 and tok == "}":
                    return
            elif tok == ";" and depth == 0:
                return

    def file(self) -> None:
        while self.i < len(self.t):
            tok = self.peek()
            if tok == "package":
                self.next()
                self.package = self.next()
                self.skip_statement()
            elif tok == "import":
                self.next()
                if self.peek() in ("public", "weak"):
                    self.next()
                self.imports.append(_unquote(self.next()))
                self.skip_statement()
            elif tok == "option":
                self.option()
            elif tok == "message":
                self.next()
                self.message(self.next(), "")
            elif tok == "service":
                self.next()
                self.service(self.next())
            else:
                self.next()
                if tok not in (";", "}"):
                    self.i -= 1
                    self.skip_statement()

    def option(self) -> None:
        self.next()
        start = self.i
        while self.i < len(self.t) and self.peek() not in ("=", ";", "{"):
            self.next()
        name = "".join(self.t[start : self.i])
        if self.peek() == "=":
            self.next()
            if self.peek() == "{":
                self.skip_statement()
                return
            self.options.append((name.strip("()"), _unquote(self.next())))
        self.skip_statement()

    def message(self, name: str, outer: str) -> None:
        qual = f"{outer}.{name}" if outer else name
        if self.peek() != "{":
            self.skip_statement()
            return
        self.next()
        fields: list[ProtoField] = []
        index = len(self.messages)
        self.messages.append(ProtoMessage(qual, ()))
        self.body(qual, fields)
        self.messages[index] = ProtoMessage(qual, tuple(fields))

    def body(self, qual: str, fields: list[ProtoField]) -> None:
        while self.i < len(self.t):
            tok = self.peek()
            if tok == "}":
                self.next()
                return
            if tok == "message":
                self.next()
                self.message(self.next(), qual)
            elif tok == "oneof":
                self.next()
                self.next()
                if self.peek() == "{":
                    self.next()
                    self.body(qual, fields)
            elif tok in ("enum", "extend", "service", "option", "reserved", "extensions", "group", ";"):
                if tok == ";":
                    self.next()
                else:
                    self.skip_statement()
            else:
                self.field(fields)

    def field(self, fields: list[ProtoField]) -> None:
        start = self.i
        repeated = False
        label = self.peek()
        if label in ("repeated", "optional", "required"):
            repeated = label == "repeated"
            self.next()
        typ = self.next()
        if typ == "map" and self.peek() == "<":
            parts: list[str] = []
            self.next()
            while self.i < len(self.t) and self.peek() != ">":
                parts.append(self.next())
            self.next()
            typ = "map<" + "".join(parts).replace(",", ", ") + ">"
        name = self.next()
        if self.peek() == "=" and re.match(r"^[A-Za-z_]\w*$", name or ""):
            fields.append(ProtoField(name, typ.lstrip("."), repeated))
        self.i = max(self.i, start + 1)
        self.skip_statement()

    def service(self, name: str) -> None:
        if self.peek() != "{":
            self.skip_statement()
            return
        self.next()
        rpcs: list[ProtoRpc] = []
        while self.i < len(self.t):
            tok = self.peek()
            if tok == "}":
                self.next()
                break
            if tok == "rpc":
                self.next()
                rpc = self.rpc()
                if rpc is not None:
                    rpcs.append(rpc)
            elif tok == ";":
                self.next()
            else:
                self.skip_statement()
        self.services.append(ProtoService(name, tuple(rpcs)))

    def _arg(self) -> tuple[str, bool] | None:
        if self.peek() != "(":
            return None
        self.next()
        stream = False
        if self.peek() == "stream" and self.peek(1) != ")":
            stream = True
            self.next()
        typ = self.next()
        while self.i < len(self.t) and self.peek() != ")":
            self.next()
        self.next()
        return typ.lstrip("."), stream

    def rpc(self) -> ProtoRpc | None:
        name = self.next()
        req = self._arg()
        if self.peek() == "returns":
            self.next()
        resp = self._arg()
        http: list[tuple[str, str]] = []
        if self.peek() == "{":
            start = self.i
            self.skip_statement()
            http = _http_rules(self.t[start : self.i])
        elif self.peek() == ";":
            self.next()
        if req is None or resp is None:
            return None
        return ProtoRpc(name, req[0], resp[0], req[1], resp[1], tuple(http))


_HTTP_VERBS = frozenset({"get", "put", "post", "delete", "patch"})


def _http_rules(body: list[str]) -> list[tuple[str, str]]:
    """(METHOD, path) pairs of the ``google.api.http`` option among an rpc body's tokens, with
    its ``additional_bindings`` and ``custom { kind: "HEAD" path: "/x" }`` rules."""
    out: list[tuple[str, str]] = []
    inside = False
    custom_kind: str | None = None
    for i, tok in enumerate(body):
        if tok == "google.api.http":
            inside = True
        elif tok == "option" and inside and out:
            inside = False  # the next option of the rpc (an openapi annotation, ...)
        if not inside or i + 2 >= len(body) or body[i + 1] != ":" or body[i + 2][:1] not in "\"'":
            continue
        value = _unquote(body[i + 2])
        if tok in _HTTP_VERBS and value.startswith("/"):
            out.append((tok.upper(), value))
        elif tok == "kind":
            custom_kind = value.upper()
        elif tok == "path" and custom_kind and value.startswith("/"):
            out.append((custom_kind, value))
            custom_kind = None
    return list(dict.fromkeys(out))


def parse_proto(text: str) -> ProtoFile:
    """Parse a .proto file. Malformed input yields whatever could be read, never an exception."""
    p = _Parser(_tokens(text))
    try:
        p.file()
    except (IndexError, RecursionError):  # pathological nesting: keep what was read
        pass
    return ProtoFile(
        package=p.package,
        services=tuple(p.services),
        messages=tuple(p.messages),
        imports=tuple(p.imports),
        options=tuple(p.options),
    )


# --------------------------------------------------------------------------- C# gRPC


@frozen
class CSharpGrpc:
    kind: str  # implements | client
    service: str  # proto service name
    line: int
    class_name: str | None = None  # the implementing class, or the class that builds the client
    address: str | None = None  # literal address when the code names one
    address_hint: str | None = None  # source text of a non-literal address (config lookup, variable)


_IMPL = re.compile(r"\bclass\s+(\w+)(?:\s*<[^>{]*>)?\s*:\s*(?:global::)?(?:[\w.]+\.)?(\w+)\.(\2)Base\b")
_NEW_CLIENT = re.compile(r"\bnew\s+(?:global::)?(?:[\w.]+\.)?(\w+)\.(\1)Client\s*\(")
_ADD_CLIENT = re.compile(r"\bAddGrpcClient\s*<\s*(?:global::)?(?:[\w.]+\.)?(\w+)\.(\1)Client\s*>")
_FOR_ADDRESS = re.compile(r"GrpcChannel\s*\.\s*ForAddress\s*\(\s*([^,)]+?)\s*[,)]")
_URI = re.compile(r"new\s+Uri\s*\(\s*([^,)]+?)\s*[,)]")
_CLASS = re.compile(r"\bclass\s+(\w+)")
_STRING = re.compile(r'^@?\$?"([^"]*)"$')


def _balanced(text: str, start: int) -> str:
    """The text between the ``(`` just before ``start`` and its matching ``)``."""
    depth = 1
    for i in range(start, min(len(text), start + 2000)):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return text[start:i]
    return text[start : start + 200]


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _address(arg: str) -> tuple[str | None, str | None]:
    m = _STRING.match(arg.strip())
    if m and "{" not in m.group(1):
        return m.group(1), None
    return None, arg.strip() or None


def _enclosing_class(text: str, pos: int) -> str | None:
    found = None
    for m in _CLASS.finditer(text, 0, pos):
        found = m.group(1)
    return found


def _channel_address(text: str, channel: str, pos: int) -> tuple[str | None, str | None]:
    inline = _FOR_ADDRESS.search(channel)
    if inline:
        return _address(inline.group(1))
    name = re.escape(channel.strip())
    if not name:
        return None, None
    assign = re.compile(rf"\b{name}\s*=\s*GrpcChannel\s*\.\s*ForAddress\s*\(\s*([^,)]+?)\s*[,)]")
    best = None
    for m in assign.finditer(text):
        if best is None or m.start() < pos:
            best = m
    return _address(best.group(1)) if best else (None, channel.strip())


def _client(text: str, m: re.Match[str], address: tuple[str | None, str | None]) -> CSharpGrpc:
    """A client of the proto service ``m`` names, built in the class around it."""
    return CSharpGrpc("client", m.group(1), _line_of(text, m.start()), class_name=_enclosing_class(text, m.start()),
                      address=address[0], address_hint=address[1])


def find_csharp_grpc(text: str) -> list[CSharpGrpc]:
    """gRPC services implemented and clients built in one C# file, sorted by line."""
    out: list[CSharpGrpc] = []
    for m in _IMPL.finditer(text):
        out.append(CSharpGrpc("implements", m.group(2), _line_of(text, m.start()), class_name=m.group(1)))
    for m in _NEW_CLIENT.finditer(text):
        out.append(_client(text, m, _channel_address(text, _balanced(text, m.end()).strip(), m.start())))
    for m in _ADD_CLIENT.finditer(text):
        uri = _URI.search(text, m.end(), m.end() + 400)
        out.append(_client(text, m, _address(uri.group(1)) if uri else (None, None)))
    return sorted(out, key=lambda r: (r.line, r.kind, r.service))
