"""Raw SQL drivers and the generated gRPC client another service's crate exposes.

- tables read from the statements a raw driver's client runs (tokio-postgres / deadpool-postgres,
  rusqlite), each with the driver's engine; a ``query`` of a crate that is no SQL driver reads nothing;
- a client constructor rebinding its own name (``let c = XClient::new(c)``) reads the address the
  earlier binding connects to; the address folds through a helper whose value is a ``match`` on a
  run-time setting (its catch-all arm), a crate's own constant when several crates declare one of
  that name, and an integer port constant;
- a workspace crate that is also a service lends its dependents only its library target
  (``src/lib.rs`` and the modules it declares), never its binary's modules.
"""

from __future__ import annotations

from orbitkb.analysis.layout.manifests import Manifest
from orbitkb.analysis.layout.model import ServiceUnit
from orbitkb.analysis.rust.crates import library_tree, service_libraries
from tests.unit.analysis_rust.helpers import link, show

POSTGRES = """
use deadpool_postgres::Pool;

pub async fn find_member(pool: &Pool, id: &str) {
    let client = pool.get().await.unwrap();
    let stmt = client.prepare("SELECT id, nick FROM members WHERE id = $1").await.unwrap();
    client.execute("DELETE FROM invitations WHERE member_id = $1", &[&id]).await.unwrap();
}
"""

SQLITE = """
use rusqlite::Connection;

fn remember(conn: &Connection) {
    conn.execute("INSERT INTO bookmarks (url) VALUES (?1)", ["x"]).unwrap();
}
"""

NOT_SQL = """
pub async fn search(http: &reqwest::Client) {
    http.get("http://catalog/items").query(&[("q", "SELECT * FROM everything")]).send().await;
}
"""


def _tables(files: dict[str, str]) -> list[tuple[str, str | None]]:
    return sorted((e.name, e.engine_hint) for e in link(files).entities)


def test_raw_driver_statements_name_their_tables_and_engine() -> None:
    assert _tables({"svc/src/members.rs": POSTGRES}) == [("invitations", "postgres"), ("members", "postgres")]
    assert _tables({"svc/src/marks.rs": SQLITE}) == [("bookmarks", "sqlite")]


def test_a_query_of_no_sql_driver_reads_no_table() -> None:
    assert _tables({"svc/src/search.rs": NOT_SQL}) == []


CLIENT_CRATE_LIB = """
pub mod client;

pub const SERVICE_NAME: &str = "ledger";
pub const GRPC_PORT: u16 = 7070;
"""

CLIENT = """
use crate::{GRPC_PORT, SERVICE_NAME};
use crate::proto::ledger_service_client::LedgerServiceClient;
use tonic::transport::Endpoint;
use common::resolve_host;

pub struct LedgerClient(LedgerServiceClient<TimedClient<Channel>>);

impl LedgerClient {
    pub async fn new() -> Result<Self, Box<dyn std::error::Error>> {
        let host = resolve_host(String::from(SERVICE_NAME));
        let endpoint = Endpoint::from_str(&format!("http://{host}:{GRPC_PORT}"))?;
        let channel = endpoint.connect().await?;
        let client = TimedClient::new(channel);
        let client = LedgerServiceClient::new(client);
        Ok(Self(client))
    }
}
"""

COMMON = """
pub fn resolve_host<S: Into<String>>(host: S) -> String {
    let host = host.into();
    let mode = std::env::var("RUN_MODE").unwrap_or_default();
    match mode.as_str() {
        "laptop" => "localhost".to_string(),
        "ci" => format!("{host}-ci"),
        _ => host,
    }
}
"""

CALLER_LIB = 'pub const SERVICE_NAME: &str = "front";\n'
CALLER = """
use ledger::client::LedgerClient;

#[tokio::main]
async fn main() {
    let ledger = LedgerClient::new().await.unwrap();
}
"""


def test_a_generated_client_crate_dials_its_own_service_name_and_port() -> None:
    facts = link({"front/src/lib.rs": CALLER_LIB, "front/src/main.rs": CALLER, "ledger/src/lib.rs": CLIENT_CRATE_LIB,
                  "ledger/src/client.rs": CLIENT, "common/src/lib.rs": COMMON})  # fmt: skip
    assert sorted((c.grpc_service, show(c.url)) for c in facts.calls) == [("LedgerService", "http://ledger:7070")]


def test_a_match_without_a_catch_all_arm_gives_no_address() -> None:
    strict = COMMON.replace("        _ => host,\n", "")
    facts = link({"front/src/main.rs": CALLER, "ledger/src/lib.rs": CLIENT_CRATE_LIB,
                  "ledger/src/client.rs": CLIENT, "common/src/lib.rs": strict})  # fmt: skip
    assert [show(c.url) for c in facts.calls] == ["http://{?host}:7070"]


def test_the_library_target_is_lib_rs_and_the_modules_it_declares() -> None:
    files = {"svc/src/lib.rs", "svc/src/client.rs", "svc/src/proto/mod.rs", "svc/src/proto/ledger.rs",
             "svc/src/main.rs", "svc/src/database/mod.rs", "svc/src/handler.rs"}  # fmt: skip
    mods = {"svc/src/lib.rs": ["client", "proto"], "svc/src/proto/mod.rs": ["ledger"],
            "svc/src/main.rs": ["database", "handler"]}  # fmt: skip
    assert library_tree("svc", files, lambda p: mods.get(p, [])) == [
        "svc/src/lib.rs", "svc/src/client.rs", "svc/src/proto/mod.rs", "svc/src/proto/ledger.rs",
    ]  # fmt: skip
    assert library_tree("svc", files - {"svc/src/lib.rs"}, lambda p: mods.get(p, [])) == []  # a binary only


def test_a_service_reads_the_library_target_of_the_services_it_depends_on_only() -> None:
    def unit(root: str, deps: set[str], stack: str = "rust") -> ServiceUnit:
        return ServiceUnit(root, root, stack, manifests=[Manifest(f"{root}/Cargo.toml", stack, root, deps)])

    units = [unit("front", {"ledger", "tokio"}), unit("ledger", set()), unit("audit", {"ledger"}, stack="go")]
    owned = {0: ["front/src/main.rs"], 1: ["ledger/src/lib.rs", "ledger/src/client.rs", "ledger/src/main.rs"]}
    mods = {"ledger/src/lib.rs": ["client"], "ledger/src/main.rs": ["handler"]}
    assert service_libraries(units, owned, lambda p: mods.get(p, [])) == {
        0: ["ledger/src/client.rs", "ledger/src/lib.rs"]
    }


COSMOS = """
use azure_data_cosmos::prelude::*;

pub async fn save(client: &CosmosClient, order: &Order) {
    let orders = client.database_client("shop").collection_client("orders");
    orders.create_document(order.clone()).await.unwrap();
}
"""


def test_cosmos_containers_are_document_collections_and_need_the_crate() -> None:
    assert _tables({"svc/src/store.rs": COSMOS}) == [("orders", "cosmosdb")]
    assert _tables({"svc/src/store.rs": COSMOS.replace("use azure_data_cosmos::prelude::*;", "")}) == []


REDIS = """
use redis::AsyncCommands;

pub async fn remember(con: &mut redis::aio::MultiplexedConnection, id: &str, cart: &str) {
    let _: () = con.set(format!("basket:{id}"), cart).await.unwrap();
    let _: () = con.hset("visits", id, 1).await.unwrap();
    let seen: Option<String> = con.get(id).await.unwrap();
}
"""
REDIS_RUNTIME = """
use redis::Commands;

fn touch(con: &mut redis::Connection) {
    let key = next_ticket();
    let _: () = con.hset(key, "at", 1).unwrap();
}
"""
REDIS_WRAPPER = """
use redis::AsyncCommands;

pub async fn keep(con: &mut redis::aio::ConnectionManager, key: &str, body: String) {
    let _: () = con.set_ex(key.to_string(), body, 60).await.unwrap();
}

pub async fn keep_order(con: &mut redis::aio::ConnectionManager, id: &str) {
    keep(con, &format!("order:{id}"), String::new()).await;
}
"""
MAP_ONLY = """
use std::collections::HashMap;

fn lookup(cache: &HashMap<String, String>, id: &str) -> Option<&String> {
    cache.get("basket:latest")
}
"""


def test_redis_key_spaces_named_by_prefix_or_literal_key() -> None:
    assert _tables({"svc/src/basket.rs": REDIS}) == [("basket", "redis"), ("visits", "redis")]


def test_a_runtime_key_of_a_redis_only_command_is_the_key_space_star() -> None:
    assert _tables({"svc/src/touch.rs": REDIS_RUNTIME}) == [("*", "redis")]
    assert _tables({"svc/src/touch.rs": REDIS_RUNTIME, "svc/src/basket.rs": REDIS}) == [
        ("basket", "redis"), ("visits", "redis"),
    ]  # fmt: skip


def test_a_wrappers_key_parameter_is_named_by_its_callers() -> None:
    assert _tables({"svc/src/keep.rs": REDIS_WRAPPER}) == [("order", "redis")]


def test_a_table_and_a_key_space_of_one_name_are_both_kept() -> None:
    facts = link({"svc/src/members.rs": POSTGRES, "svc/src/cache.rs": REDIS.replace("basket:", "members:")})
    assert sorted((e.name, e.kind) for e in facts.entities if e.name == "members") == [
        ("members", "key_value"), ("members", "sql_table"),
    ]  # fmt: skip


def test_a_map_read_without_the_redis_crate_is_no_key_space() -> None:
    assert _tables({"svc/src/lookup.rs": MAP_ONLY}) == []
