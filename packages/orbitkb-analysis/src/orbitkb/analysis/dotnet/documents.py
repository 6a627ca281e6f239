"""What a .NET service keeps in a document database through Marten (PostgreSQL) or an
Elasticsearch client (NEST, Elastic.Clients.Elasticsearch).

Marten stores each document type in its own table, ``mt_doc_<type>``: the types it is told about
(``opts.Schema.For<Tariff>()``, ``RegisterDocumentType<T>()``) and the ones a Marten session reads
or writes (``session.Query<T>()``, ``LoadAsync<T>(id)``, ``session.Store(tariff)``).
Elasticsearch keeps documents in indices: a type mapped to an index
(``DefaultMappingFor<Doc>(m => m.IndexName("docs"))``) is that index; the other types the client
indexes or searches (``IndexAsync(doc)``, ``SearchAsync<Doc>(…)``) go to the default index
(``settings.DefaultIndex("docs")``), else to an index named after the type, lower-cased.
"""

from __future__ import annotations

from orbitkb.analysis.dotnet.index import ServiceIndex, Site, simple
from orbitkb.analysis.facts import RawEntity

#: Marten: registrations whose generic argument is a document type, and session calls.
MARTEN_REGISTER = frozenset({"RegisterDocumentType", "For"})
MARTEN_SESSION_GENERIC = frozenset({"Query", "QueryAsync", "Load", "LoadAsync", "LoadManyAsync", "LoadMany"})
MARTEN_SESSION_VALUE = frozenset({"Store", "Insert", "Update", "Delete"})
MARTEN_SESSIONS = frozenset({"IDocumentSession", "IQuerySession", "IDocumentOperations", "IDocumentStore"})
#: Elasticsearch client calls: generic document type, or the type of the first argument.
ES_GENERIC = frozenset({"SearchAsync", "Search", "GetAsync", "Get", "CountAsync", "DeleteByQueryAsync",
                        "UpdateAsync", "Update"})  # fmt: skip
ES_VALUE = frozenset({"IndexAsync", "Index", "IndexDocumentAsync", "IndexDocument", "IndexManyAsync"})
ES_CLIENTS = frozenset({"ElasticsearchClient", "IElasticClient", "ElasticClient"})


def _generic(site: Site) -> str | None:
    generic = site.data.get("g") or []
    return simple(str(generic[0])) if generic else None


def _value_type(site: Site) -> str | None:
    args = site.data.get("a") or []
    ty = str(args[0].get("ty", "")) if args else ""
    return simple(ty) if ty and ty[:1].isupper() else None


class Documents:
    def __init__(self, index: ServiceIndex, own: set[str]) -> None:
        self.index = index
        self.own = own

    def all(self) -> list[RawEntity]:
        out: list[RawEntity] = []
        if self.index.uses("Marten"):
            out += self.marten()
        if self.index.uses("Nest", "Elastic.Clients.Elasticsearch", "Elasticsearch.Net"):
            out += self.elasticsearch()
        return out

    def _entity(self, name: str, kind: str, site: Site, cls: str, engine: str, framework: str) -> RawEntity:
        return RawEntity(name, kind, site.file, site.line, site.line, class_name=cls,
                         engine_hint=engine, framework=framework)  # fmt: skip

    def marten(self) -> list[RawEntity]:
        out, seen = [], set()
        for site in self.index.sites():
            if site.file not in self.own:
                continue
            name = str(site.data.get("n", ""))
            receiver = str(site.data.get("r", ""))
            session = simple(str(site.data.get("rt", ""))) in MARTEN_SESSIONS
            cls = None
            if name in MARTEN_REGISTER and (name != "For" or receiver.rsplit(".", 1)[-1] == "Schema"):
                cls = _generic(site)
            elif session and name in MARTEN_SESSION_GENERIC:
                cls = _generic(site)
            elif session and name in MARTEN_SESSION_VALUE:
                cls = _value_type(site)
            if cls and cls not in seen:
                seen.add(cls)
                out.append(self._entity(f"mt_doc_{cls.lower()}", "document_collection", site, cls,
                                        "postgres", "marten"))  # fmt: skip
        return out

    def elasticsearch(self) -> list[RawEntity]:
        mapped: dict[str, tuple[str, Site]] = {}
        default: str | None = None
        used: list[tuple[str, Site]] = []
        invs = {path: data.get("inv") or [] for path, data in self.index.files.items()}
        for site in self.index.sites():
            if site.file not in self.own:
                continue
            name = str(site.data.get("n", ""))
            owner = site.owner.name if site.owner else None
            arg = site.arg(0)
            text = self.index.literal(arg["v"], owner) if arg and "v" in arg else None
            if name == "DefaultIndex" and text:
                default = default or text
            elif name == "IndexName" and text:
                parent = site.data.get("p", -1)
                inv = invs[site.file][parent] if 0 <= parent < len(invs[site.file]) else {}
                if inv.get("n") == "DefaultMappingFor" and inv.get("g"):
                    mapped.setdefault(simple(str(inv["g"][0])), (text, site))
            elif (
                simple(str(site.data.get("rt", ""))) in ES_CLIENTS
                or "elastic" in str(site.data.get("r", "")).lower()
            ):
                cls = (
                    _generic(site) if name in ES_GENERIC else _value_type(site) if name in ES_VALUE else None
                )
                if cls:
                    used.append((cls, site))
        out = [self._entity(idx, "search_index", site, cls, "elasticsearch", "elasticsearch")
               for cls, (idx, site) in sorted(mapped.items())]  # fmt: skip
        seen = set(mapped)
        for cls, site in used:
            if cls not in seen:
                seen.add(cls)
                out.append(self._entity(default or cls.lower(), "search_index", site, cls,
                                        "elasticsearch", "elasticsearch"))  # fmt: skip
        return out
