"""Which code of a referenced library runs in the service that references it, for the messages it holds.

A shared messaging project is referenced by several services, each using part of it. A send or
receive in such a library is the service's own only when the service runs it:

- in a hosted service (``BackgroundService``, ``IHostedService``): when the service registers it
  (``AddHostedService<Receiver>()``, ``AddSingleton<IHostedService, Receiver>()``) or creates it;
- in a method implementing an interface of the codebase (``IMessageProducer.SendMessage``): when
  some code outside that class calls the method (registering the implementation is not using it),
  and that calling code runs itself (a library's unregistered hosted service calling it does not);
- in a class's own helper (``private void StartConsume()``): when a method of the class that calls
  it runs.

Anything else in a library is kept: handlers that a framework calls (MassTransit consumers, MediatR
handlers) are reached in ways no call site shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from orbitkb.analysis.dotnet.index import ServiceIndex, Site, TypeRef, generic_args, simple
from orbitkb.analysis.facts import RawMessage

HOSTED_BASES = frozenset({"BackgroundService", "IHostedService"})
#: Registrations that make a type a running hosted service when it is one of their type arguments.
REGISTRATIONS = frozenset({"AddHostedService", "AddSingleton", "AddTransient", "AddScoped", "TryAddSingleton",
                           "TryAddEnumerable"})  # fmt: skip


class Liveness:
    def __init__(self, index: ServiceIndex) -> None:
        self.index = index
        self.registered: set[str] = set()
        self.called: dict[str, list[Site]] = {}  # method name -> the sites calling it
        for site in index.sites():
            d = site.data
            if d.get("n") in REGISTRATIONS:
                self.registered |= {simple(str(g)) for g in d.get("g") or ()}
            self.called.setdefault(str(d.get("n", "")), []).append(site)
        self.created = {simple(str(s.data.get("ty", ""))) for s in index.sites("new")}
        self._own: set[str] | None = None  # the service's own files, set by keep()

    def _hosted(self, ref: TypeRef) -> bool:
        seen: set[str] = set()
        current: TypeRef | None = ref
        while current is not None and current.name not in seen:
            seen.add(current.name)
            bases = [simple(b) for b in current.data["b"]]
            if HOSTED_BASES & set(bases):
                return True
            current = self.index.type(current.data["b"][0]) if current.data["b"] else None
        return False

    def _interface_method(self, ref: TypeRef, method: Mapping[str, Any]) -> bool:
        """True when ``method`` implements a method of an interface the codebase declares."""
        for base in ref.data["b"]:
            declared = self.index.type(base)
            if declared is not None and declared.data["k"] == "interface" and not generic_args(base):
                if any(m["n"] == method["n"] for m in declared.data["m"]):
                    return True
        return False

    def runs(self, message: RawMessage) -> bool:
        ref = next(
            (r for r in self.index.by_name.get(message.component or "", ()) if r.file == message.file), None
        )
        if ref is None:
            return True
        method = next((m for m in ref.data["m"] if m["l"] <= message.line <= m["e"]), None)
        return self._runs(ref, method, set())

    def _runs(self, ref: TypeRef, method: Mapping[str, Any] | None, seen: set[tuple[str, int, int]]) -> bool:
        if self._hosted(ref):
            return ref.name in self.registered or ref.name in self.created
        key = (ref.file, ref.index, int(method["l"]) if method is not None else -1)
        if method is None or key in seen or len(seen) > 12:
            return True
        seen.add(key)
        calls = self.called.get(str(method["n"]), ())
        if self._interface_method(ref, method):
            return any(
                self._caller_runs(site, seen)
                for site in calls
                if site.owner is None or site.owner.name != ref.name
            )
        inside = [s for s in calls if s.owner is not None and s.owner.file == ref.file
                  and s.owner.index == ref.index and s.method is not None and s.method is not method]  # fmt: skip
        if not inside or not any(self._interface_method(ref, m) for m in ref.data["m"]):
            return True  # a plain class's code: no call site can show who runs it
        return any(self._runs(ref, s.method, seen) for s in inside)

    def _caller_runs(self, site: Site, seen: set[tuple[str, int, int]]) -> bool:
        """A call site runs when it is the service's own code, outside any type (top-level statements),
        or in a library method that runs."""
        if site.owner is None or self._own is None or site.file in self._own:
            return True
        return self._runs(site.owner, site.method, seen)

    def keep(self, messages: Iterable[RawMessage], own: set[str] | None) -> list[RawMessage]:
        """The messages the service runs: all of its own files', and those of libraries it runs."""
        self._own = own
        return [m for m in messages if own is None or m.file in own or self.runs(m)]
