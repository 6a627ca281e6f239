"""What a .NET service keeps through NHibernate: the classes an ``ISession`` reads or writes
(``session.Query<Policy>()``, ``Get<T>(id)``, ``session.Save(offer)``), in the table a Fluent or
mapping-by-code class map names (``class PolicyMap : ClassMap<Policy> { Table("policies"); }``),
else under the class's own name; the engine is the dialect or driver the configuration names
(``db.Dialect<PostgreSQL83Dialect>()``, ``PostgreSQLConfiguration.Standard``).
"""

from __future__ import annotations

from orbitkb.analysis.dotnet.index import ServiceIndex, Site, generic_args, simple
from orbitkb.analysis.facts import RawEntity

#: session methods whose generic argument is the persisted class, and ones whose argument is it
GENERIC = frozenset({"Query", "QueryOver", "Get", "GetAsync", "Load", "LoadAsync", "CreateCriteria"})
VALUE = frozenset({"Save", "SaveAsync", "SaveOrUpdate", "SaveOrUpdateAsync", "Persist", "PersistAsync",
                   "Update", "UpdateAsync", "Delete", "DeleteAsync", "Insert", "InsertAsync", "Merge"})  # fmt: skip
SESSIONS = frozenset({"ISession", "IStatelessSession"})
OPENERS = frozenset({"OpenSession", "OpenStatelessSession", "GetCurrentSession"})
MAP_BASES = frozenset({"ClassMap", "ClassMapping", "SubclassMap", "JoinedSubclassMapping"})
#: words of a dialect, driver or Fluent configuration type -> engine (first match wins)
ENGINES = (("PostgreSQL", "postgres"), ("Npgsql", "postgres"), ("MsSql", "sqlserver"),
           ("SqlClient", "sqlserver"), ("SqlServer", "sqlserver"), ("MySql", "mysql"), ("SQLite", "sqlite"),
           ("Oracle", "oracle"), ("Firebird", "firebird"))  # fmt: skip


def _engine(text: str) -> str | None:
    low = text.lower()
    return next((engine for word, engine in ENGINES if word.lower() in low), None)


class NHibernate:
    def __init__(self, index: ServiceIndex, own: set[str]) -> None:
        self.index = index
        self.own = own

    def entities(self) -> list[RawEntity]:
        if not self.index.uses("NHibernate"):
            return []
        engine = self._configured_engine()
        tables = self._tables()
        out, seen = [], set()
        for site in self.index.sites():
            cls = self._persisted(site)
            if cls and cls not in seen and site.file in self.own:
                seen.add(cls)
                out.append(RawEntity(tables.get(cls, cls), "sql_table", site.file, site.line, site.line,
                                     class_name=cls, engine_hint=engine, framework="nhibernate"))  # fmt: skip
        return out

    def _persisted(self, site: Site) -> str | None:
        name = str(site.data.get("n", ""))
        if name not in GENERIC and name not in VALUE:
            return None
        receiver = str(site.data.get("r", ""))
        typed = simple(str(site.data.get("rt", "")))
        local = receiver.rsplit(".", 1)[-1]
        opened = site.owner is not None and any(m in OPENERS for m in self.index.assigned(site.owner, local))
        if typed not in SESSIONS and not opened and not (not typed and local.lower().endswith("session")):
            return (
                None  # a session typed, opened into a local (``using var s = f.OpenSession()``), or so named
            )
        if name in GENERIC:
            generic = site.data.get("g") or []
            return simple(str(generic[0])) if generic else None
        args = site.data.get("a") or []
        ty = str(args[0].get("ty", "")) if args else ""
        text = str(args[0].get("x", "")) if args else ""
        if not ty and text.startswith("new "):
            ty = text[4:].split("(", 1)[0].split("{", 1)[0].strip()
        return simple(ty) if ty[:1].isupper() else None

    def _configured_engine(self) -> str | None:
        for site in self.index.sites():
            d = site.data
            if d.get("n") in ("Dialect", "Driver") and d.get("g"):
                found = _engine(str(d["g"][0]))
            elif str(d.get("r", "")).split(".", 1)[0].endswith("Configuration"):
                found = _engine(str(d["r"]).split(".", 1)[0])  # Fluent: PostgreSQLConfiguration.Standard…
            else:
                continue
            if found:
                return found
        return None

    def _tables(self) -> dict[str, str]:
        """Mapped class -> table, from class maps whose constructor calls ``Table("x")``."""
        out: dict[str, str] = {}
        maps = {}
        for ref in self.index.types:
            for base in ref.data["b"]:
                if simple(base) in MAP_BASES and generic_args(base):
                    maps[ref.name] = simple(generic_args(base)[0])
        for site in self.index.sites():
            if site.data.get("n") != "Table" or site.owner is None or site.owner.name not in maps:
                continue
            arg = site.arg(0)
            table = self.index.literal(arg["v"], site.owner.name) if arg and "v" in arg else None
            if table:
                out.setdefault(maps[site.owner.name], table)
        return out
