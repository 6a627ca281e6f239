"""Every .proto of a repository as one catalog: the copy of a service a given service should cite,
and request/response shapes of rpcs from their message definitions.

The same proto is often copied into several service folders (each language build wants its own).
Copies with identical content count as one; a service cites the copy inside its own folder, else
a copy outside every service folder (a shared ``protos/``), else the first by path.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis.grpc.services import LoadedProto, ProtoRpc, ProtoService, load_proto, named_like
from orbitkb.analysis.paths import is_under

Shape = tuple[tuple[str, str, bool | None], ...]  # RawApi.request_fields: (field, type, required)

MAX_DEPTH = 3  # nested message fields shown as ``order.items.quantity`` down to this depth
MAX_FIELDS = 60  # per shape: a huge message must not flood the API description
#: Protocol plumbing every gRPC server may register; not part of the system's own API when the
#: repository carries no .proto for them.
INFRA_SERVICES = frozenset({"Health", "ServerReflection", "Channelz", "ReflectionService"})


def simple(name: str) -> str:
    return name.strip().lstrip(".").rsplit(".", 1)[-1]


def norm(name: str) -> str:
    """Spelling-insensitive method key: ``GetStock`` = ``getStock`` = ``get_stock``."""
    return name.replace("_", "").lower()


class ProtoCatalog:
    def __init__(self, protos: Iterable[LoadedProto], service_roots: Sequence[str] = ()) -> None:
        self._copies: dict[str, list[tuple[str, str, ProtoService]]] = {}
        self._by_simple: dict[str, set[str]] = {}
        self._messages: dict[str, tuple[str, tuple[tuple[str, str, bool], ...]]] = {}  # -> (package, fields)
        self._roots = [r for r in service_roots if r not in ("", ".")]
        self.files: list[tuple[str, str]] = []  # (path, digest) of every .proto read
        for loaded in sorted(protos, key=lambda p: p.path):
            content = (loaded.package, [(s.name, s.line, s.rpcs) for s in loaded.services], loaded.messages)
            digest = hashlib.sha256(repr(content).encode()).hexdigest()[:16]  # same for identical copies
            self.files.append((loaded.path, digest))
            for svc in loaded.services:
                self._copies.setdefault(svc.full_name, []).append((loaded.path, digest, svc))
                self._by_simple.setdefault(svc.name, set()).add(svc.full_name)
            for name, fields in loaded.messages:
                self._messages.setdefault(name, (loaded.package, fields))

    @classmethod
    def from_texts(cls, texts: Mapping[str, str], service_roots: Sequence[str] = ()) -> ProtoCatalog:
        paths = sorted(p for p in texts if p.endswith(".proto") and not ft.is_test_path(p))
        return cls((load_proto(p, texts[p]) for p in paths), service_roots)

    def __bool__(self) -> bool:
        return bool(self._copies)

    def full_name(self, name: str, root: str = ".") -> str | None:
        """``pkg.Service`` for a full or simple service name; a simple name shared by several
        packages is settled by the copy inside ``root``, else by the one named like it
        (``grpc.named_like``), else left unknown."""
        name = name.strip().lstrip(".")
        if name in self._copies:
            return name
        found = sorted(self._by_simple.get(simple(name), ()))
        if len(found) > 1:
            inside = [f for f in found if any(is_under(c[0], root) for c in self._copies[f])]
            found = inside or [f for f in found if named_like(f, (c[0] for c in self._copies[f]), root)]
        return found[0] if len(found) == 1 else None

    def service(self, name: str, root: str = ".") -> ProtoService | None:
        """The definition of service ``name`` the service at ``root`` should cite."""
        full = self.full_name(name, root)
        if full is None:
            return None
        copies = self._copies[full]
        own = [c for c in copies if root not in ("", ".") and is_under(c[0], root)]
        shared = [c for c in copies if not any(is_under(c[0], r) for r in self._roots)]
        return (own or shared or copies)[0][2]

    def rpc(self, svc: ProtoService, name: str) -> ProtoRpc | None:
        want = norm(name)
        return next((r for r in svc.rpcs if norm(r.name) == want), None)

    # ------------------------------------------------------------------ shapes
    def _message(self, type_name: str, package: str, scope: str = "") -> str | None:
        """Full name of message ``type_name`` seen from ``package`` (inside message ``scope``),
        following protobuf's innermost-scope-first lookup."""
        if type_name.startswith("."):
            return type_name[1:] if type_name[1:] in self._messages else None
        parts = [*package.split("."), *scope.split(".")] if package else scope.split(".")
        parts = [p for p in parts if p]
        for i in range(len(parts), -1, -1):
            full = ".".join([*parts[:i], type_name])
            if full in self._messages:
                return full
        return None

    def shape(self, type_name: str, package: str) -> Shape:
        """(field, type, None) of a message, nested message fields as ``outer.inner``."""
        out: list[tuple[str, str, bool | None]] = []
        full = self._message(type_name, package)
        if full is not None:
            self._fields(full, "", 1, {full}, out)
        return tuple(out)

    def _fields(
        self, full: str, prefix: str, depth: int, seen: set[str], out: list[tuple[str, str, bool | None]]
    ) -> None:
        package, fields = self._messages[full]
        scope = full[len(package) + 1 :] if package else full
        for name, type_name, repeated in fields:
            if len(out) >= MAX_FIELDS:
                return
            out.append((prefix + name, f"repeated {type_name}" if repeated else type_name, None))
            inner = None if type_name.startswith("map<") else self._message(type_name, package, scope)
            if inner is not None and depth < MAX_DEPTH and inner not in seen:
                self._fields(inner, f"{prefix}{name}.", depth + 1, seen | {inner}, out)
