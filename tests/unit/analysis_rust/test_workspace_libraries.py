"""Workspace library crates a Rust service depends on by path: their functions run where the
service's own code calls them (a generic repository built with literal database and collection or
table names) or once its code or the handlers it serves reach them, never otherwise; and calls
through turbofish paths (``Store::<Doc>::open``)."""

from __future__ import annotations

import json
import textwrap

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.rust import ANALYZER
from orbitkb.analysis.rust.syntax import without_generics
from tests.unit.analysis_rust.helpers import link

#: a shared crate: a generic MongoDB store, a sqlx store, a router of its own and an uncalled helper
SHARED_MONGO = """
use mongodb::{Client, Collection};

pub struct DocStore<T>(Collection<T>);

impl<T> DocStore<T> {
    pub async fn open(uri: &str, db: &str, name: &str) -> Self {
        let coll = Client::with_uri_str(uri).await.unwrap().database(db).collection(name);
        Self(coll)
    }
}

pub async fn archive(client: &mongodb::Client) {
    let old = client.database("vault").collection::<Doc>("archived_things");
}
"""

SHARED_SQL = """
pub struct Table { name: String }

pub async fn count_rows(pool: &sqlx::PgPool, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT count(*) FROM {}", table)).fetch_one(pool).await.unwrap()
}

pub async fn purge(pool: &sqlx::PgPool) {
    sqlx::query("DELETE FROM audit_trail").execute(pool).await.unwrap();
}

pub fn health_routes() -> axum::Router {
    axum::Router::new().route("/shared/ping", axum::routing::get(ping))
}
"""

SERVICE_TURBOFISH = """
use shared::store::DocStore;

#[tokio::main]
async fn main() {
    let uri = std::env::var("MONGO_URL").unwrap();
    let sessions = DocStore::<Session>::open(&uri, "identity", "sessions").await;
}
"""

SERVICE_PLAIN = """
use shared::store::DocStore;

pub async fn wire(uri: String) {
    let carts: DocStore<Cart> = DocStore::open(&uri, "shop", "carts").await;
}
"""

SERVICE_SQL = """
use shared::sql::count_rows;

pub async fn report(pool: &sqlx::PgPool) -> i64 {
    count_rows(pool, "invoices").await
}
"""


def _link(files: dict[str, str], library: tuple[str, ...]) -> LinkedFacts:
    parsed = {
        p: json.loads(json.dumps(ANALYZER.parse(p, textwrap.dedent(t).lstrip("\n"))))
        for p, t in files.items()
    }
    ctx = ServiceContext(name="svc", root_dir="svc", stack="rust", repository="repo", context_files=library)
    return ANALYZER.link(ctx, parsed)


def entities(facts: LinkedFacts) -> list[tuple[str, str, str | None]]:
    return sorted((e.name, e.file, e.engine_hint) for e in facts.entities)


def test_a_library_store_called_through_a_turbofish_path_gives_the_service_its_collection() -> None:
    facts = _link(
        {"svc/src/main.rs": SERVICE_TURBOFISH, "shared/src/store.rs": SHARED_MONGO}, ("shared/src/store.rs",)
    )
    assert entities(facts) == [("sessions", "shared/src/store.rs", "mongodb")]


def test_a_library_store_called_through_a_plain_path() -> None:
    facts = _link(
        {"svc/src/wire.rs": SERVICE_PLAIN, "shared/src/store.rs": SHARED_MONGO}, ("shared/src/store.rs",)
    )
    assert entities(facts) == [("carts", "shared/src/store.rs", "mongodb")]


def test_a_library_query_gets_its_table_from_the_service_argument() -> None:
    facts = _link({"svc/src/report.rs": SERVICE_SQL, "shared/src/sql.rs": SHARED_SQL}, ("shared/src/sql.rs",))
    assert [e.name for e in facts.entities] == ["invoices"]  # never purge's audit_trail: uncalled


def test_library_code_the_service_never_calls_says_nothing() -> None:
    facts = _link(
        {
            "svc/src/lib.rs": "pub fn idle() {}\n",
            "shared/src/store.rs": SHARED_MONGO,
            "shared/src/sql.rs": SHARED_SQL,
        },
        ("shared/src/store.rs", "shared/src/sql.rs"),
    )
    assert facts.entities == () and facts.apis == ()
    assert all(not c.file.startswith("shared/") for c in facts.components)


def test_the_same_files_owned_by_the_service_still_count_on_their_own() -> None:
    facts = link({"svc/src/store.rs": SHARED_MONGO, "svc/src/sql.rs": SHARED_SQL})
    assert sorted(e.name for e in facts.entities) == ["archived_things", "audit_trail"]
    assert [(a.method, a.path) for a in facts.apis] == [("GET", "/shared/ping")]


def test_turbofish_paths_call_the_generic_type_own_function() -> None:
    lib = """
    pub struct Repo<T>(T);
    impl<T> Repo<T> {
        pub fn table(name: &str) -> Self { sqlx::query(&format!("SELECT * FROM {name}")); todo!() }
    }
    pub fn build() {
        let a = Repo::<User>::table("people");
        let b = Repo::<Vec<HashMap<String, u8>>>::table("buckets");
    }
    """
    assert sorted(e.name for e in link({"svc/src/repo.rs": lib}).entities) == ["buckets", "people"]


def test_without_generics() -> None:
    assert without_generics("Repo::<User>::new") == "Repo::new"
    assert without_generics("Vec::<Map<K, V>>::with_capacity") == "Vec::with_capacity"
    assert without_generics("Json<Order>") == "Json"
    assert without_generics("Router::<()>::new") == "Router::new"
    assert without_generics("std::env::var") == "std::env::var"
    assert without_generics("<T as Entity>::NAME") == "NAME"


#: an api crate whose router the binary merges: its handlers call a data crate's queries by path
API_CRATE = """
use axum::{routing::get, Router};

pub fn api() -> Router {
    Router::new().nest("/v2", Router::new().route("/parcels/:id", get(Parcels::fetch)))
}

pub struct Parcels;

impl Parcels {
    pub async fn fetch(State(pool): State<PgPool>) -> Json<Parcel> {
        data::parcels::by_id(pool).await
    }
}
"""

DATA_CRATE = """
pub async fn by_id(pool: PgPool) -> Json<Parcel> {
    sqlx::query_as::<_, Parcel>(r#"SELECT * FROM "logistics"."parcels" WHERE id = $1"#).fetch_one(&pool).await
}

pub async fn unused_report(pool: PgPool) {
    sqlx::query("SELECT * FROM depot_stats").fetch_all(&pool).await;
}
"""

BINARY = """
#[tokio::main]
async fn main() {
    let app = axum::Router::new().merge(api::api());
    axum::serve(listener, app).await.unwrap();
}
"""


def test_a_library_handler_the_service_serves_reaches_the_tables_of_another_library() -> None:
    facts = _link(
        {"bin/src/main.rs": BINARY, "api/src/lib.rs": API_CRATE, "data/src/parcels.rs": DATA_CRATE},
        ("api/src/lib.rs", "data/src/parcels.rs"),
    )
    assert [(a.method, a.path) for a in facts.apis] == [("GET", "/v2/parcels/{id}")]
    assert [e.name for e in facts.entities] == ["parcels"]  # never the unreached report's depot_stats


def test_a_library_router_the_service_does_not_merge_serves_nothing() -> None:
    binary = "#[tokio::main]\nasync fn main() { axum::serve(listener, axum::Router::new()).await; }\n"
    facts = _link(
        {"bin/src/main.rs": binary, "api/src/lib.rs": API_CRATE, "data/src/parcels.rs": DATA_CRATE},
        ("api/src/lib.rs", "data/src/parcels.rs"),
    )
    assert facts.apis == () and facts.entities == ()
