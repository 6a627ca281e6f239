"""What the Rust analyzer recognises, as data: route builders, HTTP verbs, client crates, brokers."""

from __future__ import annotations

#: attribute / function name -> HTTP method (actix-web, rocket, axum's method routers, warp filters)
VERBS = {
    "get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD",
    "options": "OPTIONS", "trace": "TRACE", "any": "ANY",
}  # fmt: skip
#: route attribute macros: ``#[get("/x")]`` (actix-web, rocket), ``#[route("/x", method = "GET")]``
ROUTE_ATTRS = frozenset({*VERBS, "route"})
#: constructors of an empty router / app / scope
ROUTER_NEW = frozenset({"Router::new", "App::new", "Router::<()>::new", "Route::new"})
#: methods that return their receiver unchanged for routing purposes
PASS_THROUGH = frozenset(
    {"layer", "with_state", "wrap", "wrap_fn", "app_data", "data", "fallback", "route_layer", "default_service",
     "guard", "manage", "attach", "register", "boxed", "with", "recover", "into_make_service", "clone",
     "into_make_service_with_connect_info", "name", "configure_app", "handle_error", "app_state"}
)  # fmt: skip
#: the environment readers: ``std::env::var("X")``, ``dotenvy::var("X")``
ENV_READERS = ("env::var", "env::var_os", "dotenv::var", "dotenvy::var", "std::env::var")
#: methods that keep a string's value (conversions, error handling)
STRING_KEEP = frozenset(
    {"to_string", "to_owned", "clone", "into", "as_str", "as_ref", "unwrap", "expect", "borrow", "as_slice",
     "to_lowercase", "trim", "parse", "ok", "context", "with_context", "into_owned", "as_bytes", "deref"}
)  # fmt: skip
#: methods giving a default to an ``Option``/``Result`` read
DEFAULTS = frozenset({"unwrap_or", "unwrap_or_else", "or", "or_else", "unwrap_or_default"})
#: reqwest-style request builders: method -> HTTP verb (the chain must end in ``send()``)
HTTP_BUILDERS = {"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD"}
#: crates whose ``<crate>::get(url)`` is a one-shot HTTP call
HTTP_FUNCTIONS = ("reqwest::get", "reqwest::blocking::get", "ureq::get", "surf::get", "ureq::post", "surf::post")
#: client crates: a service mentioning one of them may hold a client
HTTP_CRATES = ("reqwest", "ureq", "surf", "awc", "hyper")
#: tonic gRPC client constructors (``XClient::connect(url)``, ``XClient::new(channel)``)
GRPC_CLIENT_CTORS = ("connect", "new", "with_interceptor", "with_origin", "connect_lazy")
#: channel/endpoint constructors whose argument is the server's address
GRPC_CHANNEL_CTORS = ("from_static", "from_shared", "from_str", "try_from", "new", "from_string")
#: message brokers: (type or crate marker, method, direction, argument index) — rdkafka and lapin
PUBLISH_CTORS = {"FutureRecord::to": "kafka", "BaseRecord::to": "kafka", "Record::to": "kafka"}
BROKER_METHODS = {
    "basic_publish": ("publishes", "rabbitmq"),
    "basic_consume": ("consumes", "rabbitmq"),
}
#: publish/subscribe clients named by channel (first argument): crate marker -> provider (redis pub/sub, MQTT)
PUBSUB_CRATES = {"rumqttc": "mqtt", "redis": "redis"}
PUBSUB_METHODS = {"publish": "publishes", "subscribe": "consumes", "psubscribe": "consumes"}
#: web framework crates -> the name a service's framework is reported under
FRAMEWORKS = {"axum": "axum", "actix-web": "actix-web", "warp": "warp", "rocket": "rocket", "tonic": "tonic",
              "poem": "poem", "tide": "tide"}  # fmt: skip
#: raw SQL drivers (crate marker as a file mentions it -> engine): their client methods take SQL text
SQL_DRIVERS = {"tokio_postgres": "postgres", "deadpool_postgres": "postgres", "bb8_postgres": "postgres",
               "r2d2_postgres": "postgres", "rusqlite": "sqlite", "mysql_async": "mysql", "tiberius": "sqlserver"}  # fmt: skip
#: a raw driver client's methods whose first argument is the statement
SQL_METHODS = frozenset({"prepare", "prepare_cached", "prepare_typed", "execute", "query", "query_one", "query_opt",
                         "query_raw", "batch_execute", "simple_query", "query_row", "query_map", "exec",
                         "exec_drop", "exec_first", "query_drop", "query_first"})  # fmt: skip
#: document stores: a client method naming a collection -> (crate marker, engine)
COLLECTION_METHODS = {"collection": ("mongodb", "mongodb"), "container_client": ("azure_data_cosmos", "cosmosdb"),
                      "collection_client": ("azure_data_cosmos", "cosmosdb")}  # fmt: skip
#: redis crate commands whose first argument is a key -> True when only redis has that method name
#: (``hset``), False when a map or a cache shares it (``get``: read only for a ``"cart:"`` key)
REDIS_KEY_COMMANDS = {"get": False, "set": False, "del": False, "exists": False, "expire": False,
                      "set_ex": True, "set_nx": True, "get_del": True, "getset": True, "incr": True, "decr": True,
                      "hset": True, "hget": True, "hgetall": True, "hdel": True, "hset_multiple": True,
                      "hincr": True, "sadd": True, "srem": True, "smembers": True, "sismember": True,
                      "zadd": True, "zrem": True, "zrange": True, "zrangebyscore": True, "zincr": True}  # fmt: skip
