"""gRPC: proto services of the repository, who implements them, and their rpc methods as APIs.

The .proto parser lives in ``orbitkb.analysis.proto`` (``parse_proto``, ``find_csharp_grpc``);
this module only indexes its output, tolerating dict- or attribute-shaped results.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from attrs import frozen


@frozen
class ProtoRpc:
    name: str
    line: int
    end_line: int


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


def _get(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _line(obj: Any, *keys: str) -> int:
    for key in keys:
        value = _get(obj, key)
        if isinstance(value, int):
            return value
    return 1


def _proto_module() -> Any:
    try:
        from orbitkb.analysis import proto
    except Exception:  # noqa: BLE001 - the proto parser is optional for the rest of the pipeline
        return None
    return proto


def parse_proto_file(path: str, text: str) -> tuple[list[ProtoService], str | None]:
    """(services, error) of one .proto file."""
    module = _proto_module()
    if module is None or not hasattr(module, "parse_proto"):
        return [], "the .proto parser is not available"
    try:
        parsed = module.parse_proto(text)
    except Exception as exc:  # noqa: BLE001 - bad input must become a gap
        return [], f"proto parse failed: {type(exc).__name__}: {str(exc)[:160]}"
    if _get(parsed, "error"):
        return [], str(_get(parsed, "error"))
    package = str(_get(parsed, "package") or "")
    out = []
    for svc in _get(parsed, "services") or []:
        rpcs = tuple(
            ProtoRpc(
                str(_get(r, "name")),
                _line(r, "line", "start_line"),
                _line(r, "end_line", "line", "start_line"),
            )
            for r in (_get(svc, "rpcs") or _get(svc, "methods") or [])
            if _get(r, "name")
        )
        out.append(
            ProtoService(str(_get(svc, "name")), package, path, _line(svc, "line", "start_line"), rpcs)
        )
    return out, None


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


class GrpcIndex:
    def __init__(self, services: Iterable[ProtoService]) -> None:
        self._by_full: dict[str, ProtoService] = {}
        self._by_name: dict[str, list[ProtoService]] = {}
        for svc in sorted(services, key=lambda s: (s.full_name, s.file)):
            self._by_full.setdefault(svc.full_name, svc)
            self._by_name.setdefault(svc.name, []).append(svc)

    def find(self, name: str) -> ProtoService | None:
        """By full name (``pkg.Service``) or simple name when only one package defines it."""
        name = name.strip().lstrip(".")
        if name in self._by_full:
            return self._by_full[name]
        simple = name.rsplit(".", 1)[-1]
        found = {s.full_name: s for s in self._by_name.get(simple, [])}
        return next(iter(found.values())) if len(found) == 1 else None

    def services(self) -> list[ProtoService]:
        return list(self._by_full.values())
