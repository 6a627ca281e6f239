"""Routes of the four Rust web frameworks, prefixes composed across functions and files: axum
(``route``, ``nest``, ``merge``, method routers), actix-web (attribute macros, ``web::scope``,
``web::resource``, ``configure``), rocket (attributes + ``mount``) and warp (``path!`` filters)."""

from __future__ import annotations

from tests.unit.analysis_rust.helpers import link, routes

AXUM_MAIN = """
use axum::{routing::{get, post}, Router};
mod orders;

#[tokio::main]
async fn main() {
    let health = Router::new().route("/health", get(|| async { "ok" }));
    let app = Router::new()
        .nest("/api/v1", api())
        .merge(health)
        .layer(TraceLayer::new_for_http());
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}

fn api() -> Router<AppState> {
    Router::new()
        .route("/orders", get(orders::list).post(orders::create))
        .route("/orders/:id", axum::routing::get(orders::show).delete(orders::cancel))
        .nest("/admin", orders::admin_routes())
        .with_state(AppState::default())
}
"""

AXUM_ORDERS = """
use axum::{routing::put, Router};

pub fn admin_routes() -> Router<AppState> {
    Router::new().route("/orders/{id}/refund", put(refund))
}

pub async fn list() {}
"""


def test_axum_nested_and_merged_routers():
    facts = link({"svc/src/main.rs": AXUM_MAIN, "svc/src/orders.rs": AXUM_ORDERS})
    assert routes(facts) == [
        ("DELETE", "/api/v1/orders/{id}", "cancel", 18),
        ("GET", "/api/v1/orders", "list", 17),
        ("GET", "/api/v1/orders/{id}", "show", 18),
        ("GET", "/health", "<closure>", 6),
        ("POST", "/api/v1/orders", "create", 17),
        ("PUT", "/api/v1/admin/orders/{id}/refund", "refund", 4),
    ]
    assert facts.framework == "axum"


ACTIX_MAIN = """
use actix_web::{web, App, HttpServer};

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    HttpServer::new(move || {
        App::new()
            .app_data(web::Data::new(state.clone()))
            .service(ping)
            .configure(routes::health)
            .service(web::scope("/api").configure(routes::ledger))
            .service(web::resource("/metrics").route(web::get().to(metrics)))
    })
    .bind(("0.0.0.0", 8080))?
    .run()
    .await
}

#[get("/ping")]
async fn ping() -> impl Responder { "pong" }
"""

ACTIX_ROUTES = """
use actix_web::{get, post, route, web};

pub fn health(cfg: &mut web::ServiceConfig) {
    cfg.route("/health", web::get().to(health_check));
}

pub fn ledger(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/entries")
            .route("", web::get().to(list_entries))
            .route("/{id:\\\\d+}", web::delete().to(drop_entry))
            .service(add_entry)
            .service(sync_entries),
    );
}

#[post("/new")]
async fn add_entry() -> HttpResponse { HttpResponse::Ok().finish() }

#[route("/sync", method = "GET", method = "PUT")]
async fn sync_entries() -> HttpResponse { HttpResponse::Ok().finish() }
"""


def test_actix_scopes_configure_and_attribute_routes():
    facts = link({"svc/src/main.rs": ACTIX_MAIN, "svc/src/routes.rs": ACTIX_ROUTES})
    assert routes(facts) == [
        ("DELETE", "/api/entries/{id}", "drop_entry", 11),
        ("GET", "/api/entries", "list_entries", 10),
        ("GET", "/api/entries/sync", "sync_entries", 20),
        ("GET", "/health", "health_check", 4),
        ("GET", "/metrics", "metrics", 11),
        ("GET", "/ping", "ping", 18),
        ("POST", "/api/entries/new", "add_entry", 17),
        ("PUT", "/api/entries/sync", "sync_entries", 20),
    ]
    assert facts.framework == "actix-web"


ROCKET = """
#[macro_use] extern crate rocket;

#[get("/<id>")]
fn quote(id: u32) -> String { id.to_string() }

#[post("/", data = "<body>")]
fn add(body: Json<Quote>) {}

#[get("/files/<path..>")]
fn files(path: PathBuf) {}

#[launch]
fn rocket() -> _ {
    rocket::build()
        .mount("/quotes", routes![quote, add])
        .mount("/", routes![files])
}
"""


def test_rocket_mounts_attribute_routes():
    facts = link({"svc/src/main.rs": ROCKET})
    assert routes(facts) == [
        ("GET", "/files/{path}", "files", 9),
        ("GET", "/quotes/{id}", "quote", 3),
        ("POST", "/quotes", "add", 6),
    ]


WARP = """
use warp::Filter;

#[tokio::main]
async fn main() {
    let hello = warp::path!("hello" / String)
        .and(warp::get())
        .map(greet);
    let stock = warp::post()
        .and(warp::path!("stock" / u32 / "reserve"))
        .and_then(reserve);
    warp::serve(hello.or(stock)).run(([0, 0, 0, 0], 3030)).await;
}
"""


def test_warp_filters_with_methods():
    facts = link({"svc/src/main.rs": WARP})
    assert routes(facts) == [
        ("GET", "/hello/{param}", "greet", 5),
        ("POST", "/stock/{param}/reserve", "reserve", 9),
    ]


def test_a_router_no_one_serves_is_still_read_but_never_twice():
    only_fn = """
    pub fn routes() -> Router { Router::new().route("/a", get(a)) }
    pub fn app() -> Router { Router::new().nest("/x", routes()) }
    """
    assert routes(link({"svc/src/lib.rs": only_fn})) == [("GET", "/x/a", "a", 1)]
    assert routes(link({"svc/src/lib.rs": "fn helper() -> u32 { 1 + 2 }\n"})) == []


def test_a_router_handed_to_the_services_own_server_function():
    handed = """
    #[tokio::main]
    async fn main() { serve_on(8080, Router::new().route("/quotes", get(list))).await; }
    async fn serve_on(port: u16, app: Router) {
        let listener = TcpListener::bind(("0.0.0.0", port)).await.unwrap();
        axum::serve(listener, app).await.unwrap();
    }
    """
    assert routes(link({"svc/src/main.rs": handed})) == [("GET", "/quotes", "list", 2)]
