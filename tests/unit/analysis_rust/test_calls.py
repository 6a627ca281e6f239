"""Outbound calls of Rust services: reqwest request builders ending in ``send()`` and one-shot
``reqwest::get``, with URLs folded from constants, ``format!``, ``env::var`` defaults, struct
fields set in a constructor or read from the environment (``envconfig``), and a caller's
arguments; tonic clients built on a URL or on a ``Channel``/``Endpoint``."""

from __future__ import annotations

from tests.unit.analysis_rust.helpers import link, show

CLIENTS = """
use reqwest::Client;
use std::env;

const LEDGER: &str = "http://ledger:9000";

pub struct QuoteClient { http: Client, base: String }

impl QuoteClient {
    pub fn new() -> Self {
        let base = env::var("QUOTES_URL").unwrap_or_else(|_| "http://quotes:8000".to_string());
        QuoteClient { http: Client::new(), base }
    }

    pub async fn latest(&self, symbol: &str) -> reqwest::Result<Quote> {
        self.http.get(format!("{}/quotes/{}", self.base, symbol)).send().await?.json().await
    }
}

pub async fn post_entry(entry: &Entry) {
    let client = reqwest::Client::builder().build().unwrap();
    client
        .post(&format!("{LEDGER}/entries"))
        .json(entry)
        .send()
        .await
        .unwrap();
}

pub async fn audit(path: &str) {
    let url = std::env::var("AUDIT_URL").expect("set") + path;
    reqwest::get(url).await.unwrap();
}

pub async fn ping_all() {
    audit("/ping").await;
}

pub fn not_http(map: &HashMap<String, String>) -> Option<&String> {
    map.get("key")
}
"""


def calls(files):
    facts = link(files)
    return sorted((c.kind, c.method, show(c.url), c.line) for c in facts.calls)


def test_reqwest_builders_and_one_shot_calls():
    assert calls({"svc/src/clients.rs": CLIENTS}) == [
        ("http", "GET", "{env:AUDIT_URL}/ping", 31),
        ("http", "GET", "{env:QUOTES_URL|http://quotes:8000}/quotes/{?symbol}", 15),
        ("http", "POST", "http://ledger:9000/entries", 22),
    ]


ENVCONFIG = """
use envconfig::Envconfig;

#[derive(Envconfig)]
pub struct Config {
    #[envconfig(from = "ACCOUNTS_URL", default = "http://accounts:8080")]
    pub accounts_url: String,
}

pub async fn fetch(id: &str) {
    let url = Config::init_from_env().unwrap().accounts_url + "/accounts/" + id;
    reqwest::Client::new().get(url).send().await;
}
"""


def test_struct_fields_read_from_the_environment():
    assert calls({"svc/src/config.rs": ENVCONFIG}) == [
        ("http", "GET", "{env:ACCOUNTS_URL|http://accounts:8080}/accounts/{?id}", 11),
    ]


TONIC = """
use proto::inventory_client::InventoryClient;
use proto::pricing_client;
use tonic::transport::{Channel, Endpoint};

pub async fn reserve() {
    let mut client = InventoryClient::connect("http://inventory:50051").await.unwrap();
    client.reserve(request).await;
}

pub async fn price() {
    let addr = std::env::var("PRICING_ADDR").unwrap_or("http://pricing:50052".into());
    let channel = Endpoint::from_shared(addr).unwrap().connect().await.unwrap();
    let client = pricing_client::PricingClient::new(channel);
}

pub async fn not_grpc() {
    let client = HttpClient::new(config);
}
"""


def test_tonic_clients_on_urls_and_channels():
    facts = link({"svc/src/grpc.rs": TONIC})
    assert sorted((c.kind, c.grpc_service, c.method, show(c.url), c.line) for c in facts.calls) == [
        ("grpc", "Inventory", "reserve", "http://inventory:50051", 7),  # the rpc called on it
        ("grpc", "Pricing", None, "{env:PRICING_ADDR|http://pricing:50052}", 13),  # built, no rpc seen
    ]


TONIC_RPCS = """
use berths::berth_desk_client::BerthDeskClient;
use tonic::transport::Channel;

async fn desk() -> BerthDeskClient<Channel> {
    let addr = std::env::var("DESK_URL").unwrap_or_else(|_| "http://desk:50051".to_string());
    BerthDeskClient::connect(addr).await.unwrap()
}

pub async fn book(code: String) {
    let mut client = desk().await;
    client.reserve_berth(BookRequest { code }).await.unwrap();
    let mut again = client.clone();
    again.release_berth(ReleaseRequest {}).await.unwrap();
}

pub async fn inline() -> Result<(), tonic::Status> {
    let mut c = berths::berth_desk_client::BerthDeskClient::connect("http://desk:50051").await?;
    c.list_berths(ListRequest {}).await?;
    Ok(())
}

pub async fn not_a_client(cache: Cache) {
    let mut store = Store::new("http://desk:50051");
    store.reserve_berth(1);
}
"""


def test_rpcs_called_on_tonic_clients_are_named():
    facts = link({"svc/src/desk.rs": TONIC_RPCS})
    assert sorted((c.grpc_service, c.method, show(c.url), c.line) for c in facts.calls) == [
        ("BerthDesk", "list_berths", "http://desk:50051", 18),
        ("BerthDesk", "release_berth", "{env:DESK_URL|http://desk:50051}", 13),
        ("BerthDesk", "reserve_berth", "{env:DESK_URL|http://desk:50051}", 11),
    ]


def test_calls_are_attributed_to_the_handlers_reaching_them():
    handlers = """
    use axum::{routing::get, Router};
    pub fn app() -> Router { Router::new().route("/quote", get(quote)) }
    async fn quote() { lookup().await; }
    async fn lookup() { reqwest::get("http://quotes:8000/latest").await; }
    """
    facts = link({"svc/src/main.rs": handlers})
    assert [(c.api_handler, show(c.url)) for c in facts.calls] == [("quote", "http://quotes:8000/latest")]
