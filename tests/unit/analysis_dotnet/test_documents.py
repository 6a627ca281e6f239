"""Document stores: Marten document types (registered on the schema, read or written by a session)
in PostgreSQL tables ``mt_doc_<type>``; Elasticsearch documents in the index their type is mapped
to, else the client's default index; the same method names on other receivers, or without the
library, are no entities; a library's store counts only when the service reaches the library
method that registers it."""

from __future__ import annotations

from orbitkb.analysis.dotnet import ANALYZER
from orbitkb.analysis.facts import ServiceContext
from tests.support.analysis import parse_all

from .helpers import link

MARTEN = """
using Marten;

public static class Store
{
    public static IDocumentStore Make(string cn) => DocumentStore.For(o =>
    {
        o.Connection(cn);
        o.Schema.For<Voucher>().Index(v => v.Code);
    });
}

public class Wallets
{
    private readonly IDocumentSession session;

    public Task<Wallet> Find(Guid id) => session.LoadAsync<Wallet>(id);
    public void Keep(Receipt receipt) => session.Store(receipt);
    public IQueryable<Voucher> Open() => session.Query<Voucher>();
    public Task<int> Unrelated(Ledger ledger) => ledger.Query<Line>().CountAsync();
}
"""

ELASTIC = """
using Elastic.Clients.Elasticsearch;

public static class Search
{
    public static ElasticsearchClient Make(string url)
    {
        var settings = new ElasticsearchClientSettings(new Uri(url))
            .DefaultIndex("catalogue")
            .DefaultMappingFor<Review>(m => m.IndexName("reviews-v2"));
        return new ElasticsearchClient(settings);
    }
}

public class Shelf
{
    private readonly ElasticsearchClient elastic;

    public Task Put(Book book) => elastic.IndexAsync(book);
    public Task Rate(Review review) => elastic.IndexAsync(review);
    public Task Look(string q) => elastic.SearchAsync<Magazine>(s => s.Size(5));
}
"""


def _entities(files: dict[str, str]) -> list[tuple[str, str | None, str, str | None]]:
    return sorted((e.name, e.class_name, e.kind, e.engine_hint) for e in link(files).entities)


def test_marten_documents_registered_or_used_by_a_session() -> None:
    assert _entities({"svc/Wallets.cs": MARTEN}) == [
        ("mt_doc_receipt", "Receipt", "document_collection", "postgres"),
        ("mt_doc_voucher", "Voucher", "document_collection", "postgres"),
        ("mt_doc_wallet", "Wallet", "document_collection", "postgres"),
    ]  # ledger.Query<Line>() is not a Marten session


def test_elasticsearch_documents_in_their_mapped_or_the_default_index() -> None:
    assert _entities({"svc/Shelf.cs": ELASTIC}) == [
        ("catalogue", "Book", "search_index", "elasticsearch"),
        ("catalogue", "Magazine", "search_index", "elasticsearch"),
        ("reviews-v2", "Review", "search_index", "elasticsearch"),
    ]
    no_default = ELASTIC.replace('.DefaultIndex("catalogue")', "")
    assert ("book", "Book", "search_index", "elasticsearch") in _entities({"svc/Shelf.cs": no_default})


def test_without_the_libraries_there_are_no_documents() -> None:
    plain = MARTEN.replace("using Marten;", "using Wallets.Local;")
    assert _entities({"svc/Wallets.cs": plain}) == []
    plain = ELASTIC.replace("using Elastic.Clients.Elasticsearch;", "using Shelves.Local;")
    assert _entities({"svc/Shelf.cs": plain}) == []


STORE_LIBRARY = """
using MongoDB.Driver;

public static class StoreSetup
{
    public static IServiceCollection AddJournal(this IServiceCollection s) => s.AddMongoJournal();
    public static IServiceCollection AddMongoJournal(this IServiceCollection s) =>
        s.AddSingleton<IJournal, MongoJournal>();
    public static IServiceCollection AddArchive(this IServiceCollection s) =>
        s.AddSingleton<IArchive, MongoArchive>();
}

public class MongoJournal : IJournal
{
    public MongoJournal(IMongoDatabase db) { _lines = db.GetCollection<JournalLine>("journal"); }
}

public class MongoArchive : IArchive
{
    public MongoArchive(IMongoDatabase db) { _boxes = db.GetCollection<ArchiveBox>("archive"); }
}
"""


def test_a_library_store_counts_only_when_the_service_reaches_its_registration() -> None:
    program = "var b = WebApplication.CreateBuilder(args);\nb.Services.AddJournal();\n"
    files = {"svc/Program.cs": program, "lib/Store.cs": STORE_LIBRARY}
    ctx = ServiceContext(name="svc", root_dir="svc", stack="dotnet", repository="repo",
                         context_files=("lib/Store.cs",))  # fmt: skip
    facts = ANALYZER.link(ctx, parse_all(ANALYZER, files))
    assert sorted((e.name, e.class_name) for e in facts.entities) == [("journal", "JournalLine")]
