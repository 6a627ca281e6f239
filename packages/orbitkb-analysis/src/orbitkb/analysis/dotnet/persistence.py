"""What a .NET service persists: EF Core ``DbSet<T>`` properties of its ``DbContext`` (table from
``[Table]``, ``ToTable`` or the property name; engine from the provider the context is registered
with — ``UseNpgsql``, ``UseSqlServer``…), MongoDB.Driver ``GetCollection<T>("name")``, tables in SQL
text handed to Dapper/ADO.NET (or an ADO.NET command created with it) with the connection or command
type's engine, and Redis values (the types a
class holding an ``IDistributedCache``/``IDatabase`` deserializes) when Redis is set up."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.dotnet.index import ServiceIndex, TypeRef, generic_args, simple
from orbitkb.analysis.dotnet.redislists import POP, PUSH, READ_BACK
from orbitkb.analysis.dotnet.tables import (
    COMMANDS,
    CONNECTIONS,
    DESERIALIZE,
    PROVIDERS,
    REDIS_SETUP,
    REDIS_TYPES,
    SQL_METHODS,
)
from orbitkb.analysis.facts import RawEntity
from orbitkb.analysis.resolution.storenames import tables_in

#: StackExchange.Redis ``IDatabase`` and ``IDistributedCache`` calls whose first argument is a key.
_REDIS_KEY_CALL = re.compile(r"^(?:String|Hash|List|Set|SortedSet|Key|Stream|Get|Set|Remove|Refresh)\w*$")
_IDENTITY_BASES = ("IdentityDbContext", "IdentityUserContext", "ApiAuthorizationDbContext")
_CONTEXT_BASES = ("DbContext", "IdentityDbContext", "ApiAuthorizationDbContext", "IdentityUserContext")


def _fields(ref: TypeRef | None) -> tuple[tuple[str, str, bool | None, bool], ...]:
    if ref is None:
        return ()
    out = []
    for p in ref.data["p"]:
        name, ptype = str(p[0]), str(p[1])
        attrs = {str(a[0]) for a in (p[3] if len(p) > 3 else ())}
        pk = "Key" in attrs or name.lower() in ("id", f"{ref.name.lower()}id")
        out.append((name, ptype, ptype.endswith("?"), pk))
    return tuple(out)


IN_MEMORY = "inmemory"


class _RealFirst(dict[str, str]):
    """``setdefault`` where a real engine replaces an in-memory one already set."""

    def setdefault(self, key: str, default: str) -> str:
        if self.get(key) == IN_MEMORY and default != IN_MEMORY:
            self[key] = default
        return super().setdefault(key, default)


class Entities:
    def __init__(self, index: ServiceIndex, own: set[str] | None = None) -> None:
        self.index = index
        self.sites = list(index.sites())
        self.own = own
        self._used_types: set[str] | None = None  # read once: EF contexts and Mongo stores both ask

    def _used(self) -> set[str]:
        """Type names the service's own code mentions (registrations, injections, creations)."""
        if self._used_types is None:
            self._used_types = self._mentioned()
        return self._used_types

    def _mentioned(self) -> set[str]:
        own = self.own or set()
        used = {simple(g) for s in self.sites if s.file in own for g in s.data.get("g") or ()}
        used |= {simple(str(s.data.get("rt"))) for s in self.sites if s.file in own and s.data.get("rt")}
        used |= {simple(s.data["ty"]) for s in self.index.sites("new") if s.file in own}
        for ref in self.index.types:
            if ref.file in own:
                used |= {simple(str(f[1])) for f in [*ref.data["f"], *ref.data["p"]]}
                used |= {simple(str(pt)) for m in ref.data["m"] for pt, _ in m["ps"]}
        called = {str(s.data.get("n")) for s in self.sites if s.file in own}
        library = [s for s in self.sites if s.file not in own and s.method is not None]
        # library methods the service calls, and the ones those call (AddStore -> AddMongoStore)
        for _ in range(4):
            more = {str(s.data.get("n")) for s in library if s.method is not None and s.method["n"] in called}
            if more <= called:
                break
            called |= more
        for site in library:  # registered by a library method the service reaches (AddInfrastructure…)
            if site.method is not None and site.method["n"] in called:
                used |= {simple(g) for g in site.data.get("g") or ()}
                used |= {simple(str(a["ty"])) for a in site.data.get("a") or () if a.get("ty")}
        return used

    def _chain_to(
        self, path: str, inv: Mapping[str, Any], names: tuple[str, ...]
    ) -> Mapping[str, Any] | None:
        """The invocation named one of ``names`` that ``inv``'s lambda argument belongs to (up the
        ``p`` links) or that it is chained on (``ri`` links)."""
        current: Mapping[str, Any] | None = inv
        for _ in range(8):
            if current is None:
                return None
            if current.get("n") in names:
                return current
            nxt = current["p"] if current.get("p", -1) >= 0 else current.get("ri", -1)
            current = self.index.invocation(path, nxt) if nxt is not None and nxt >= 0 else None
        return None

    def _engines(self) -> tuple[dict[str, str], set[str]]:
        """(context class -> engine, every engine a provider call names). A context registered with
        both an in-memory and a real provider (``if (useInMemory) … else UseSqlServer``) is stored
        by the real one: the in-memory database is a development switch."""
        by_context = _RealFirst()
        every: set[str] = set()
        for site in self.sites:
            engine = PROVIDERS.get(site.data.get("n", ""))
            if engine is None:
                continue
            every.add(engine)
            if site.data.get("g"):  # Aspire: builder.AddNpgsqlDbContext<CatalogContext>("db")
                by_context.setdefault(simple(site.data["g"][0]), engine)
                continue
            reg = self._chain_to(site.file, site.data, ("AddDbContext", "AddDbContextPool", "AddDbContextFactory",
                                                          "AddPooledDbContextFactory"))  # fmt: skip
            if reg is not None and reg.get("g"):
                by_context.setdefault(simple(reg["g"][0]), engine)
            elif site.owner is not None:  # OnConfiguring in the context itself
                by_context.setdefault(site.owner.name, engine)
        if every - {IN_MEMORY}:
            every.discard(IN_MEMORY)
        return dict(by_context), every

    def _tables(self) -> dict[str, str]:
        """Entity class -> table, from ``Entity<T>().ToTable("x")`` and ``IEntityTypeConfiguration<T>``."""
        out: dict[str, str] = {}
        for site in self.sites:
            d = site.data
            if d.get("n") != "ToTable" or not d.get("a") or "v" not in d["a"][0]:
                continue
            table = self.index.literal(d["a"][0]["v"], site.owner.name if site.owner else None)
            if not table:
                continue
            entity = (
                self._chain_to(site.file, self.index.invocation(site.file, d["ri"]) or {}, ("Entity",))
                if "ri" in d
                else None
            )
            if entity is not None and entity.get("g"):
                out.setdefault(simple(entity["g"][0]), table)
            elif site.owner is not None:
                for base in site.owner.data["b"]:
                    if simple(base) == "IEntityTypeConfiguration" and generic_args(base):
                        out.setdefault(simple(generic_args(base)[0]), table)
        for ref in self.index.types:
            for attr in ref.data["a"]:
                if attr[0] in ("Table", "TableAttribute") and attr[1] and "v" in attr[1][0]:
                    table = self.index.literal(attr[1][0]["v"], ref.name)
                    if table:
                        out.setdefault(ref.name, table)
        return out

    def all(self) -> list[RawEntity]:
        return self.ef_core() + self.mongo() + self.sql() + self.redis()

    def ef_core(self) -> list[RawEntity]:
        by_context, every = self._engines()
        tables = self._tables()
        used = self._used() if self.own is not None else None
        out = []
        for ref in self.index.types:
            if not any(simple(b) in _CONTEXT_BASES or simple(b).endswith("DbContext") for b in ref.data["b"]):
                continue
            if used is not None and ref.file not in (self.own or ()) and ref.name not in used:
                continue  # a library's context the service never registers nor injects
            engine = by_context.get(ref.name) or (next(iter(every)) if len(every) == 1 else None)
            for base in ref.data["b"]:  # ASP.NET Identity: the user type lives in AspNetUsers
                if simple(base) in _IDENTITY_BASES and generic_args(base):
                    user = simple(generic_args(base)[0])
                    out.append(RawEntity("AspNetUsers", "sql_table", ref.file, ref.data["l"], ref.data["l"],
                                         class_name=user, fields=_fields(self.index.type(user)),
                                         engine_hint=engine, framework="aspnetcore-identity"))  # fmt: skip
            for p in ref.data["p"]:
                if simple(str(p[1])) != "DbSet" or not generic_args(str(p[1])):
                    continue
                cls = simple(generic_args(str(p[1]))[0])
                out.append(RawEntity(tables.get(cls, str(p[0])), "sql_table", ref.file, p[2], p[2], class_name=cls,
                                     fields=_fields(self.index.type(cls)), engine_hint=engine,
                                     framework="efcore"))  # fmt: skip
        return out

    def mongo(self) -> list[RawEntity]:
        out = []
        used = self._used() if self.own is not None else None
        for site in self.sites:
            d = site.data
            if d.get("n") != "GetCollection" or not d.get("g"):
                continue
            if (
                used is not None
                and site.file not in (self.own or ())
                and (site.owner is None or site.owner.name not in used)
            ):
                continue  # a library's store the service never registers nor injects
            cls = simple(d["g"][0])
            args = d.get("a") or []
            name = (
                self.index.literal(args[0]["v"], site.owner.name if site.owner else None)
                if args and "v" in args[0]
                else None
            )
            out.append(RawEntity(name or cls, "document_collection", site.file, site.line, site.line, class_name=cls,
                                 fields=_fields(self.index.type(cls)), engine_hint="mongodb",
                                 framework="mongodb-driver"))  # fmt: skip
        return out

    def sql(self) -> list[RawEntity]:
        engines = {
            CONNECTIONS[simple(s.data["ty"])]
            for s in self.index.sites("new")
            if simple(s.data["ty"]) in CONNECTIONS
        }
        out = []
        for site in self.sites:
            d = site.data
            if d.get("n") not in SQL_METHODS or not d.get("a") or "v" not in d["a"][0]:
                continue
            sql = self.index.literal(d["a"][0]["v"], site.owner.name if site.owner else None)
            if not sql:
                continue
            engine = CONNECTIONS.get(simple(d.get("rt") or "")) or (
                next(iter(engines)) if len(engines) == 1 else None
            )
            cls = simple(d["g"][0]) if d.get("g") else None
            for table in tables_in(sql):
                out.append(RawEntity(table, "sql_table", site.file, site.line, site.line,
                                     class_name=cls if cls and cls.lower().rstrip("s") == table.lower().rstrip("s") else None,
                                     engine_hint=engine, framework="ado.net"))  # fmt: skip
        for site in self.index.sites("new"):  # ``new NpgsqlCommand("INSERT INTO votes ...", conn)``
            d = site.data
            command = COMMANDS.get(simple(str(d.get("ty") or "")))
            if command is None or not d.get("a") or "v" not in d["a"][0]:
                continue
            sql = self.index.literal(d["a"][0]["v"], site.owner.name if site.owner else None)
            for table in tables_in(sql or ""):
                out.append(RawEntity(table, "sql_table", site.file, site.line, site.line,
                                     engine_hint=command, framework="ado.net"))  # fmt: skip
        return out

    def redis(self) -> list[RawEntity]:
        setup = any(s.data.get("n") in REDIS_SETUP and ("Redis" in s.data["n"] or "Multiplexer" in str(s.data.get("r")))
                    for s in self.sites) or self.index.uses("StackExchange.Redis")  # fmt: skip
        if not setup:
            return []
        holders = {
            ref.name for ref in self.index.types
            if any(simple(str(f[1])) in REDIS_TYPES for f in [*ref.data["f"], *ref.data["p"]])
        }  # fmt: skip
        out = []
        seen: set[tuple[str, str]] = set()
        for site in self.sites:
            d = site.data
            if site.owner is None or site.owner.name not in holders or d.get("n") not in DESERIALIZE:
                continue
            if d.get("g"):
                cls = d["g"][0]
            elif d["n"] == "ParseFrom" and str(d.get("r", "")).endswith(".Parser"):
                cls = str(d["r"]).removesuffix(".Parser")
            else:
                continue
            if (site.owner.name, cls) in seen:
                continue
            seen.add((site.owner.name, cls))
            out.append(RawEntity(simple(cls), "key_value", site.file, site.line, site.line, class_name=cls,
                                 fields=_fields(self.index.type(cls)), engine_hint="redis",
                                 framework="stackexchange-redis"))  # fmt: skip
        return out + self._key_spaces(holders, {e.name.lower() for e in out})

    def _key_spaces(self, holders: set[str], known: set[str]) -> list[RawEntity]:
        """``db.StringSetAsync($"cart:{id}", …)``: the key space ``cart``, as the other stacks name it."""
        out = []
        queues_only = not any(s.data.get("n") in READ_BACK for s in self.sites)  # no list read back
        for site in self.sites:
            d = site.data
            if (
                site.owner is None
                or site.owner.name not in holders
                or not _REDIS_KEY_CALL.match(d.get("n", ""))
            ):
                continue
            args = d.get("a") or []
            parts = self.index.fold(args[0].get("v"), site.owner.name) if args else []
            if not parts or parts[0][0] != "lit":
                continue
            if d["n"] in POP or (d["n"] in PUSH and queues_only):
                continue  # a Redis list used as a work queue carries messages, not stored data
            head = str(parts[0][1])
            space = head.split(":", 1)[0] if ":" in head else (head if len(parts) == 1 else "")
            if space and space.lower() not in known:
                known.add(space.lower())
                out.append(RawEntity(space, "key_value", site.file, site.line, site.line, engine_hint="redis",
                                     framework="stackexchange-redis"))  # fmt: skip
        return out
