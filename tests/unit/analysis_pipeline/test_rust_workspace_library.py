"""A Cargo workspace whose service depends on a library crate by path (``kit = { path = "../kit" }``),
through the real analyzers: the repository the service builds from the library with literal names
gives it its MongoDB collection, and the library is no service of its own."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .conftest import DictCache, Run

LIBRARY = {
    "kit/Cargo.toml": '[package]\nname = "kit"\nversion = "0.1.0"\n\n[dependencies]\nmongodb = "2"\n',
    "kit/src/lib.rs": "pub mod docs;\n",
    "kit/src/docs.rs": """\
use mongodb::Collection;

pub struct Docs<T>(Collection<T>);

impl<T> Docs<T> {
    pub async fn connect(uri: &str, db: &str, coll: &str) -> Self {
        Self(mongodb::Client::with_uri_str(uri).await.unwrap().database(db).collection(coll))
    }
}
""",
}


def service(deps: str) -> dict[str, str]:
    return {
        "Cargo.toml": '[workspace]\nmembers = ["kit", "tickets"]\n',
        "tickets/Cargo.toml": f'[package]\nname = "tickets"\nversion = "0.1.0"\n\n[dependencies]\naxum = "0.7"\n{deps}',
        "tickets/Dockerfile": "FROM rust:1\n",
        "tickets/src/main.rs": """\
use kit::docs::Docs;

#[tokio::main]
async fn main() {
    let uri = std::env::var("MONGO_URL").unwrap();
    let store = Docs::<Ticket>::connect(&uri, "helpdesk", "tickets").await;
    let app = axum::Router::new().route("/tickets", axum::routing::get(list));
    axum::serve(listener, app).await.unwrap();
}
""",
    }


def run(files: dict[str, str]) -> Run:
    tree = MemorySourceTree(files, commit="c0ffee")
    return Run(StaticCodeAnalyzer(workers=0).analyze(tree, AnalysisRequest("helpdesk"), DictCache()))


def test_the_library_crate_a_service_depends_on_gives_it_the_collection_it_opens() -> None:
    result = run({**LIBRARY, **service('kit = { path = "../kit" }\n')})
    assert result.names() == ["tickets"]
    assert [(e.name, e.engine) for e in result.service("tickets").entities] == [("tickets", "mongodb")]


def test_without_the_path_dependency_the_library_is_not_read() -> None:
    result = run({**LIBRARY, **service("")})
    assert [e.name for e in result.service("tickets").entities] == []
