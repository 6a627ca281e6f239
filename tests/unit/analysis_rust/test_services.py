"""A Cargo workspace indexed end to end: services from Cargo.toml manifests (a library crate the
others depend on is not one), tonic servers bound to the proto's rpcs, gRPC and HTTP calls
resolved through docker-compose, the engine from the sqlx crate's features, technology facts."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.layout.manifests import read_manifest
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest


class _Cache:
    def get_many(self, keys):
        return {}

    def put_many(self, items):
        pass


WORKSPACE = '[workspace]\nmembers = ["ledger", "quotes", "common"]\n'
LEDGER_TOML = """[package]
name = "ledger"
edition = "2021"

[dependencies]
axum = "0.7"
tonic = "0.11"
sqlx = { version = "0.7", features = ["runtime-tokio", "postgres"] }
common = { path = "../common" }
"""
LEDGER_MAIN = """
use axum::{routing::get, Router};
use proto::quotes_client::QuotesClient;
use proto::ledger_server::{Ledger, LedgerServer};

pub struct LedgerService;

#[tonic::async_trait]
impl Ledger for LedgerService {
    async fn post_entry(&self, r: Request<Entry>) -> Result<Response<Ack>, Status> { todo!() }
}

#[tokio::main]
async fn main() {
    let quotes = QuotesClient::connect(std::env::var("QUOTES_ADDR").unwrap()).await.unwrap();
    let app = Router::new().route("/entries", get(list_entries));
    tokio::spawn(tonic::transport::Server::builder().add_service(LedgerServer::new(LedgerService)).serve(addr));
    axum::serve(listener, app).await.unwrap();
}

async fn list_entries(pool: PgPool) {
    sqlx::query("SELECT * FROM entries").fetch_all(&pool).await;
}
"""
QUOTES_TOML = '[package]\nname = "quotes"\n\n[dependencies]\nactix-web = "4"\nreqwest = "0.12"\n'
QUOTES_MAIN = """
use actix_web::{get, App, HttpServer};

#[get("/quotes/{symbol}")]
async fn quote() -> String {
    reqwest::Client::new().get("http://ledger:8080/entries").send().await;
    String::new()
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    HttpServer::new(|| App::new().service(quote)).bind(("0.0.0.0", 8000))?.run().await
}
"""
COMMON_TOML = '[package]\nname = "common"\n\n[dependencies]\naxum = "0.7"\n'
PROTO = """syntax = "proto3";
package shop;
service Ledger { rpc PostEntry (Entry) returns (Ack); }
service Quotes { rpc Latest (Symbol) returns (Quote); }
"""
COMPOSE = """services:
  ledger:
    build: ledger
    ports: ["8080:8080"]
    environment: {QUOTES_ADDR: "http://quotes:50051"}
  quotes: {build: quotes}
  db: {image: "postgres:16"}
"""


def analyze():
    files = {
        "Cargo.toml": WORKSPACE, "ledger/Cargo.toml": LEDGER_TOML, "ledger/src/main.rs": LEDGER_MAIN,
        "quotes/Cargo.toml": QUOTES_TOML, "quotes/src/main.rs": QUOTES_MAIN,
        "common/Cargo.toml": COMMON_TOML, "common/src/lib.rs": "pub fn shared() {}\n",
        "proto/shop.proto": PROTO, "docker-compose.yml": COMPOSE,
    }  # fmt: skip
    result = StaticCodeAnalyzer(workers=0).analyze(MemorySourceTree(files), AnalysisRequest("shop"), _Cache())
    return {f.service.name: f for f in result.services}, result


def test_cargo_members_are_services_and_the_shared_crate_is_not():
    services, result = analyze()
    assert sorted((n, f.service.stack, f.service.framework) for n, f in services.items()) == [
        ("ledger", "rust", "axum"), ("quotes", "rust", "actix-web"),
    ]
    assert not [g for g in result.gaps if g.kind == "unknown_stack"]


def test_tonic_server_bound_to_the_proto_and_calls_resolved():
    services, _ = analyze()
    ledger = services["ledger"]
    assert sorted((a.method, a.path, a.handler) for a in ledger.apis) == [
        ("GET", "/entries", "list_entries"), ("RPC", "shop.Ledger/PostEntry", "LedgerService.PostEntry"),
    ]
    assert [(c.call_kind.value, c.target) for c in ledger.calls] == [("grpc", "quotes")]
    assert [(c.call_kind.value, c.target, c.path) for c in services["quotes"].calls] == [
        ("http", "ledger", "/entries"),
    ]


def test_engine_from_the_crate_features_and_technologies_from_cargo():
    services, _ = analyze()
    ledger = services["ledger"]
    assert [(e.name, e.engine) for e in ledger.entities] == [("entries", "postgres")]
    libraries = {(t.kind, t.name) for t in ledger.technologies}
    assert {("library", "axum"), ("library", "sqlx"), ("build_tool", "cargo"), ("framework", "axum")} <= libraries


def test_cargo_manifest_reader():
    manifest, error = read_manifest("svc/Cargo.toml", LEDGER_TOML)
    assert error is None and manifest.name == "ledger" and manifest.entry and manifest.weak_entry
    assert {"axum", "sqlx", "sqlx-postgres", "common"} <= manifest.deps
    root, _ = read_manifest("Cargo.toml", WORKSPACE)
    assert root.aggregator and root.entry is None
    broken, error = read_manifest("x/Cargo.toml", "[package\nname=")
    assert error is not None and broken.stack == "rust"


def test_a_crate_only_tests_depend_on_is_a_library():
    manifest, _ = read_manifest("svc/Cargo.toml", LEDGER_TOML + '\n[dev-dependencies]\nfixtures = { path = "../fixtures" }\nproptest = "1"\n')
    assert "fixtures" in manifest.deps and "proptest" not in manifest.deps
