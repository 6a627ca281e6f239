"""Library signatures the Go linker recognizes, as data: adding a library is adding rows.

Import paths are normalized (``/vN`` segments dropped) and mapped to a short library id; the
other tables are keyed by that id. An action names a function in ``actions.ACTIONS``; its spec
says which argument carries what.
"""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.httpverbs import HTTP_METHODS

_VERSION_SEG = re.compile(r"/v\d+(?=/|$)")


def normalize_import(path: str) -> str:
    return _VERSION_SEG.sub("", path)


#: Watermill's Pub/Sub backends: the broker their publishers and subscribers speak.
WATERMILL_BACKENDS: dict[str, str] = {
    "github.com/ThreeDotsLabs/watermill-kafka/pkg/kafka": "kafka",
    "github.com/ThreeDotsLabs/watermill-amqp/pkg/amqp": "rabbitmq",
    "github.com/ThreeDotsLabs/watermill-nats/pkg/nats": "nats",
    "github.com/ThreeDotsLabs/watermill-nats/pkg/jetstream": "nats",
    "github.com/ThreeDotsLabs/watermill-redisstream/pkg/redisstream": "redis",
    "github.com/ThreeDotsLabs/watermill-googlecloud/pkg/googlecloud": "pubsub",
    "github.com/ThreeDotsLabs/watermill-aws/sqs": "sqs",
    "github.com/ThreeDotsLabs/watermill-aws/sns": "sns",
}

LIBS: dict[str, str] = {
    "net/http": "http",
    "os": "os",
    "syscall": "os",
    "fmt": "fmt",
    "strings": "strings",
    "bytes": "bytes",
    "net/url": "url",
    "path": "path",
    "net": "net",
    "cmp": "cmp",
    "flag": "flag",
    "github.com/gin-gonic/gin": "gin",
    "github.com/Masterminds/squirrel": "sqlbuild",
    "github.com/doug-martin/goqu": "sqlbuild",
    "github.com/labstack/echo": "echo",
    "github.com/go-chi/chi": "chi",
    "github.com/gorilla/mux": "gorilla",
    "github.com/gofiber/fiber": "fiber",
    "github.com/gofiber/fiber/middleware/proxy": "fiber_proxy",
    "net/http/httputil": "httputil",
    "github.com/julienschmidt/httprouter": "httprouter",
    "github.com/go-resty/resty": "resty",
    "gopkg.in/resty.v1": "resty",
    "google.golang.org/grpc": "grpc",
    "github.com/Shopify/sarama": "sarama",
    "github.com/IBM/sarama": "sarama",
    "github.com/segmentio/kafka-go": "kafkago",
    "github.com/confluentinc/confluent-kafka-go/kafka": "confluent",
    "gopkg.in/confluentinc/confluent-kafka-go.v1/kafka": "confluent",
    "github.com/rabbitmq/amqp091-go": "amqp",
    "github.com/streadway/amqp": "amqp",
    "github.com/dapr/go-sdk/client": "daprclient",
    "github.com/dapr/go-sdk/service/http": "daprhttp",
    "github.com/dapr/go-sdk/service/grpc": "daprgrpc",
    "github.com/nats-io/nats.go": "nats",
    "github.com/nats-io/nats.go/jetstream": "jetstream",
    "github.com/redis/go-redis": "redis",
    "github.com/go-redis/redis": "redis",
    "github.com/aws/aws-sdk-go-v2/service/sqs": "sqs",
    "github.com/aws/aws-sdk-go/service/sqs": "sqs",
    "github.com/aws/aws-sdk-go-v2/service/sns": "sns",
    "github.com/aws/aws-sdk-go/service/sns": "sns",
    "github.com/aws/aws-sdk-go-v2/service/dynamodb": "dynamodb",
    "github.com/aws/aws-sdk-go/service/dynamodb": "dynamodb",
    "github.com/aws/aws-sdk-go-v2/aws": "aws",
    "github.com/aws/aws-sdk-go/aws": "aws",
    "go.mongodb.org/mongo-driver/mongo": "mongo",
    "cloud.google.com/go/firestore": "firestore",
    "gorm.io/gorm": "gorm",
    "github.com/jinzhu/gorm": "gorm",
    "github.com/spf13/viper": "viper",
    "github.com/knadh/koanf": "koanf",
    "github.com/grpc-ecosystem/grpc-gateway/runtime": "gwruntime",
    "github.com/go-kit/kit/transport/grpc": "gokit_grpc",
    "github.com/ThreeDotsLabs/watermill/message": "watermill",
    # go-micro (v1-v5 under its successive module paths): services, RPC clients, pub/sub
    "github.com/micro/go-micro": "gomicro",
    "github.com/asim/go-micro": "gomicro",
    "go-micro.dev": "gomicro",
    "github.com/micro/go-micro/broker": "gomicro_broker",
    "github.com/asim/go-micro/broker": "gomicro_broker",
    "go-micro.dev/broker": "gomicro_broker",
    "github.com/micro/go-micro/client": "gomicro_client",
    "github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus": "azservicebus",
    "github.com/Azure/go-amqp": "goamqp",
    "github.com/asim/go-micro/client": "gomicro_client",
    "go-micro.dev/client": "gomicro_client",
    **{path: "wm_" + provider for path, provider in WATERMILL_BACKENDS.items()},
}

#: go-micro broker plugins (``_ "github.com/micro/go-plugins/broker/nats/v2"``): the broker its
#: pub/sub speaks; without one it is go-micro's own HTTP broker.
MICRO_BROKERS: dict[str, str] = {
    "nats": "nats", "stan": "nats", "rabbitmq": "rabbitmq", "kafka": "kafka", "redis": "redis",
    "googlepubsub": "pubsub", "sqs": "sqs", "snssqs": "sqs", "nsq": "nsq", "mqtt": "mqtt",
}  # fmt: skip

#: GORM driver imports: the code itself names the engine.
GORM_DRIVERS: dict[str, str] = {
    "gorm.io/driver/postgres": "postgres",
    "gorm.io/driver/mysql": "mysql",
    "gorm.io/driver/sqlite": "sqlite",
    "github.com/glebarez/sqlite": "sqlite",
    "gorm.io/driver/sqlserver": "sqlserver",
    "gorm.io/driver/clickhouse": "clickhouse",
    "github.com/jinzhu/gorm/dialects/postgres": "postgres",
    "github.com/jinzhu/gorm/dialects/mysql": "mysql",
}

#: go-redis commands that read or write one key (its first argument after the context).
REDIS_KEY_COMMANDS = (
    "Get", "Set", "SetNX", "SetEX", "GetSet", "GetDel", "Del", "Exists", "Expire", "Incr", "IncrBy",
    "Decr", "LPush", "RPush", "LPop", "RPop", "LTrim", "LLen", "HGet", "HSet", "HSetNX", "HGetAll", "HDel", "HMSet", "HMGet", "HIncrBy", "HExists",
    "LRange", "SAdd", "SRem", "SMembers", "SIsMember", "ZAdd", "ZRem", "ZRange", "ZRangeByScore",
    "ZScore", "JSONSet", "JSONGet",
)  # fmt: skip

#: SQL drivers (normalized import) -> engine, for statements run through database/sql, pgx, sqlx, sqlc
#: (and CQL through gocql).
SQL_DRIVERS: dict[str, str] = {
    "github.com/jackc/pgx": "postgres",
    "github.com/jackc/pgx/pgxpool": "postgres",
    "github.com/jackc/pgx/stdlib": "postgres",
    "github.com/lib/pq": "postgres",
    "github.com/go-sql-driver/mysql": "mysql",
    "github.com/mattn/go-sqlite3": "sqlite",
    "modernc.org/sqlite": "sqlite",
    "github.com/denisenkom/go-mssqldb": "sqlserver",
    "github.com/microsoft/go-mssqldb": "sqlserver",
    "github.com/gocql/gocql": "cassandra",  # CQL text in session.Query(...) reads like SQL
    "github.com/scylladb/gocqlx": "cassandra",
}

FRAMEWORKS: dict[str, str] = {
    "http": "net/http",
    "gin": "gin",
    "echo": "echo",
    "chi": "chi",
    "gorilla": "gorilla/mux",
    "fiber": "fiber",
    "httprouter": "httprouter",
    "gwruntime": "grpc-gateway",
}

#: Library handler objects that serve static files: a route to one is a GET of a subtree.
STATIC_HANDLERS: dict[str, str] = {"file_server": "FileServer"}

#: gRPC services every server may register (health checks, reflection): infrastructure, not APIs.
#: Packages by their last path segment (vendored copies count); method names by service.
GRPC_INFRA_PACKAGES = frozenset({"grpc_health_v1", "grpc_reflection_v1", "grpc_reflection_v1alpha"})
GRPC_INFRA_METHODS: dict[str, tuple[str, ...]] = {
    "Health": ("Check", "Watch", "List"),
    "ServerReflection": ("ServerReflectionInfo",),
}

#: Where the handler sits among the arguments after the path: gin/fiber put middlewares first.
HANDLER_LAST = frozenset({"gin", "fiber"})

_VERBS = HTTP_METHODS
_CAP_VERBS = ("Get", "Post", "Put", "Delete", "Patch", "Head", "Options", "Connect", "Trace")


def _verbs(names: tuple[str, ...]) -> dict[str, tuple[str, dict[str, Any]]]:
    return {n: ("verb", {"m": n.upper()}) for n in names}


SAME: tuple[str, dict[str, Any]] = ("same", {})
ROUTER_METHODS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "gin": {
        **_verbs(_VERBS),
        "Any": ("verb", {"m": "ANY"}),
        "Handle": ("verb_arg", {}),
        "Group": ("group", {}),
        "Use": SAME,
    },
    "echo": {
        **_verbs((*_VERBS, "CONNECT", "TRACE")),
        "Any": ("verb", {"m": "ANY"}),
        "Match": ("match", {}),
        "Add": ("verb_arg", {}),
        "Group": ("group", {}),
        "Use": SAME,
        "Pre": SAME,
    },
    "chi": {
        **_verbs(_CAP_VERBS),
        "Handle": ("verb", {"m": "ANY"}),
        "HandleFunc": ("verb", {"m": "ANY"}),
        "Method": ("verb_arg", {}),
        "MethodFunc": ("verb_arg", {}),
        "Route": ("route_fn", {}),
        "Mount": ("mount", {}),
        "Group": ("group_fn", {}),
        "With": SAME,
        "Use": SAME,
    },
    "gorilla": {
        "HandleFunc": ("groute", {"path": 0, "handler": 1}),
        "Handle": ("groute", {"path": 0, "handler": 1}),
        "Path": ("groute", {"path": 0}),
        "Methods": ("groute", {"methods": True}),
        "PathPrefix": ("gprefix", {}),
        "Use": SAME,
        "StrictSlash": SAME,
    },
    "fiber": {
        **_verbs(_CAP_VERBS),
        "All": ("verb", {"m": "ANY"}),
        "Add": ("verb_arg", {}),
        "Group": ("group", {}),
        "Route": ("route_fn", {}),
        "Mount": ("mount", {}),
        "Use": SAME,
    },
    "http": {"HandleFunc": ("pattern", {}), "Handle": ("pattern", {})},
    "gwruntime": {"HandlePath": ("verb_arg", {})},
    "httprouter": {
        **_verbs(_VERBS),
        "Handle": ("verb_arg", {}),
        "HandlerFunc": ("verb_arg", {}),
        "Handler": ("verb_arg", {}),
    },
}

#: Methods of a gorilla route (the value HandleFunc/Path/PathPrefix return).
GROUTE_METHODS: dict[str, tuple[str, dict[str, Any]]] = {
    "Methods": ("groute_set", {"what": "methods"}),
    "HandlerFunc": ("groute_set", {"what": "handler"}),
    "Handler": ("groute_set", {"what": "handler"}),
    "Path": ("groute_set", {"what": "path"}),
    "Subrouter": ("gsubrouter", {}),
    "PathPrefix": ("groute_set", {"what": "prefix"}),
    "*": SAME,
}

_HTTP_CALLS = {
    "Get": ("http_call", {"m": "GET", "url": 0}),
    "Head": ("http_call", {"m": "HEAD", "url": 0}),
    "Post": ("http_call", {"m": "POST", "url": 0}),
    "PostForm": ("http_call", {"m": "POST", "url": 0}),
}

_DAPR_CLIENTS = ("NewClient", "NewClientWithAddress", "NewClientWithPort", "NewClientWithSocket")
#: Dapr Go SDK client methods: publishing (pub/sub component, topic) and state (store) positions.
_DAPR_PUBLISH = ("PublishEvent", "PublishEventfromCustomContent", "PublishEvents", "BulkPublishEventAlpha1")
_DAPR_STATE = ("GetState", "SaveState", "DeleteState", "GetStateWithConsistency", "GetBulkState", "SaveBulkState",
               "DeleteBulkState", "ExecuteStateTransaction", "SaveStateWithETag", "DeleteStateWithETag",
               "QueryStateAlpha1")  # fmt: skip

#: SQL query builders (squirrel, goqu): the calls that name the table a statement runs against.
_BUILDER_TABLES = ("Insert", "Update", "Delete", "Replace", "From", "Into", "Table")

EXT_FUNCS: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {
    **{("sqlbuild", m): ("builder_table", {}) for m in _BUILDER_TABLES},
    ("sqlbuild", "Select"): ("new", {"kind": "sql_builder"}),
    ("sqlbuild", "Dialect"): ("new", {"kind": "sql_builder"}),
    ("http", "NewServeMux"): ("new", {"kind": "router", "lib": "http"}),
    ("http", "HandleFunc"): ("default_mux", {}),
    ("http", "Handle"): ("default_mux", {}),
    ("http", "StripPrefix"): ("strip_prefix", {}),
    ("http", "FileServer"): ("new", {"kind": "file_server"}),
    ("http", "FileServerFS"): ("new", {"kind": "file_server"}),
    **{("http", k): v for k, v in _HTTP_CALLS.items()},
    ("http", "NewRequest"): ("http_request", {"m": 0, "url": 1}),
    ("http", "NewRequestWithContext"): ("http_request", {"m": 1, "url": 2}),
    ("http", "HandlerFunc"): ("first_func", {}),
    ("gin", "Default"): ("new", {"kind": "router", "lib": "gin"}),
    ("gin", "New"): ("new", {"kind": "router", "lib": "gin"}),
    ("echo", "New"): ("new", {"kind": "router", "lib": "echo"}),
    ("chi", "NewRouter"): ("new", {"kind": "router", "lib": "chi"}),
    ("chi", "NewMux"): ("new", {"kind": "router", "lib": "chi"}),
    ("gorilla", "NewRouter"): ("new", {"kind": "router", "lib": "gorilla"}),
    ("fiber", "New"): ("new", {"kind": "router", "lib": "fiber"}),
    ("httprouter", "New"): ("new", {"kind": "router", "lib": "httprouter"}),
    ("gwruntime", "NewServeMux"): ("new", {"kind": "router", "lib": "gwruntime"}),
    ("resty", "New"): ("new", {"kind": "resty"}),
    ("resty", "NewWithClient"): ("new", {"kind": "resty"}),
    ("os", "Getenv"): ("env", {}),
    ("os", "LookupEnv"): ("lookup_env", {}),
    ("fmt", "Sprintf"): ("sprintf", {}),
    ("fmt", "Sprint"): ("concat", {}),
    ("strings", "Join"): ("strings_join", {}),
    ("strings", "TrimSuffix"): ("arg", {"i": 0}),
    ("strings", "TrimRight"): ("arg", {"i": 0}),
    ("strings", "TrimSpace"): ("arg", {"i": 0}),
    ("strings", "ToLower"): ("arg", {"i": 0}),
    ("url", "JoinPath"): ("join_path", {}),
    ("url", "Parse"): ("url_parse", {}),
    ("gomicro", "NewService"): ("new", {"kind": "micro_service"}),
    ("gomicro", "NewEvent"): ("micro_publisher", {}),
    ("gomicro", "NewPublisher"): ("micro_publisher", {}),
    ("gomicro", "RegisterSubscriber"): ("micro_message", {"dir": "consumes", "ch": 0, "handler": 2}),
    ("gomicro_broker", "Publish"): ("micro_message", {"dir": "publishes", "ch": 0}),
    ("gomicro_client", "NewRequest"): ("micro_request", {}),
    ("gomicro", "RegisterHandler"): ("micro_handler", {"impl": 1}),
    ("gomicro_broker", "Subscribe"): ("micro_message", {"dir": "consumes", "ch": 0, "handler": 1}),
    # reverse proxies: every request they forward is a call to the upstream
    **{("fiber_proxy", f): ("proxy_call", {"url": 1}) for f in ("Do", "DoRedirects", "DoDeadline", "DoTimeout")},
    ("fiber_proxy", "Forward"): ("proxy_call", {"url": 0}),
    ("fiber_proxy", "BalancerForward"): ("proxy_call", {"url": 0}),
    ("fiber_proxy", "Balancer"): ("proxy_call", {"field": "Servers"}),
    ("httputil", "NewSingleHostReverseProxy"): ("proxy_call", {"url": 0}),
    ("url", "ParseRequestURI"): ("url_parse", {}),
    ("path", "Join"): ("join_path", {}),
    ("net", "JoinHostPort"): ("host_port", {}),
    ("cmp", "Or"): ("or_default", {}),
    ("flag", "String"): ("flag_default", {"i": 1}),
    ("flag", "StringVar"): ("flag_var", {}),
    ("viper", "GetString"): ("prop", {}),
    ("viper", "Get"): ("prop", {}),
    ("viper", "GetStringSlice"): ("prop", {}),
    ("viper", "SetDefault"): ("prop_default", {}),
    ("viper", "New"): ("new", {"kind": "viper"}),
    ("koanf", "New"): ("new", {"kind": "koanf"}),  # koanf.New("."): a config tree read by key
    ("koanf", "NewWithConf"): ("new", {"kind": "koanf"}),
    ("aws", "String"): ("arg", {"i": 0}),
    ("grpc", "Dial"): ("grpc_dial", {"addr": 0}),
    ("grpc", "NewClient"): ("grpc_dial", {"addr": 0}),
    ("grpc", "DialContext"): ("grpc_dial", {"addr": 1}),
    ("grpc", "NewServer"): ("new", {"kind": "grpc_server"}),
    ("gokit_grpc", "NewClient"): ("named_grpc_client", {"service": 1, "method": 2, "client": "go-kit"}),
    ("watermill", "NewRouter"): ("new", {"kind": "wm_router", "tup": True}),
    **{
        ("wm_" + provider, ctor): ("new", {"kind": kind, "provider": provider, "tup": True})
        for provider in sorted(set(WATERMILL_BACKENDS.values()))
        for ctor, kind in (("NewPublisher", "wm_pub"), ("NewSubscriber", "wm_sub"))
    },
    ("azservicebus", "NewClient"): ("new", {"kind": "asb_client", "tup": True}),
    ("azservicebus", "NewClientFromConnectionString"): ("new", {"kind": "asb_client", "tup": True}),
    ("goamqp", "Dial"): ("new", {"kind": "amqp1_conn", "tup": True}),
    ("goamqp", "NewConn"): ("new", {"kind": "amqp1_conn", "tup": True}),
    ("sarama", "NewSyncProducer"): ("new", {"kind": "sarama_producer", "tup": True}),
    ("sarama", "NewAsyncProducer"): ("new", {"kind": "sarama_producer", "tup": True}),
    ("sarama", "NewConsumerGroup"): ("new", {"kind": "sarama_cg", "tup": True}),
    ("sarama", "NewConsumer"): ("new", {"kind": "sarama_consumer", "tup": True}),
    ("kafkago", "NewWriter"): ("kafka_cfg", {"dir": "publishes"}),
    ("kafkago", "NewReader"): ("kafka_cfg", {"dir": "consumes"}),
    ("confluent", "NewProducer"): ("new", {"kind": "confluent_producer", "tup": True}),
    ("confluent", "NewConsumer"): ("new", {"kind": "confluent_consumer", "tup": True}),
    ("amqp", "Dial"): ("new", {"kind": "amqp_conn", "tup": True}),
    ("amqp", "DialConfig"): ("new", {"kind": "amqp_conn", "tup": True}),
    ("nats", "Connect"): ("new", {"kind": "nats", "tup": True}),
    ("jetstream", "New"): ("new", {"kind": "js2", "tup": True}),
    ("redis", "NewClient"): ("new", {"kind": "redis"}),
    ("redis", "NewClusterClient"): ("new", {"kind": "redis"}),
    ("redis", "NewUniversalClient"): ("new", {"kind": "redis"}),
    ("redis", "NewFailoverClient"): ("new", {"kind": "redis"}),
    ("sqs", "NewFromConfig"): ("new", {"kind": "sqs"}),
    ("sqs", "New"): ("new", {"kind": "sqs"}),
    ("sns", "NewFromConfig"): ("new", {"kind": "sns"}),
    ("sns", "New"): ("new", {"kind": "sns"}),
    ("mongo", "Connect"): ("new", {"kind": "mongo_client", "tup": True}),
    ("firestore", "NewClient"): ("new", {"kind": "fs_client", "tup": True}),
    ("firestore", "NewClientWithDatabase"): ("new", {"kind": "fs_client", "tup": True}),
    ("mongo", "NewClient"): ("new", {"kind": "mongo_client", "tup": True}),
    ("gorm", "Open"): ("new", {"kind": "gorm", "tup": True}),
    **{("daprclient", f): ("new", {"kind": "dapr_client", "tup": True}) for f in _DAPR_CLIENTS},
    ("daprhttp", "NewService"): ("new", {"kind": "dapr_service"}),
    ("daprhttp", "NewServiceWithMux"): ("new", {"kind": "dapr_service"}),
    ("daprgrpc", "NewService"): ("new", {"kind": "dapr_service", "tup": True}),
}

#: Declared types (params, struct fields, ``var x T``) that stand for a library object.
TYPES: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {
    ("http", "ServeMux"): ("router", {"lib": "http"}),
    ("http", "Client"): ("httpclient", {}),
    ("gin", "Engine"): ("router", {"lib": "gin"}),
    ("gin", "RouterGroup"): ("router", {"lib": "gin"}),
    ("gin", "IRouter"): ("router", {"lib": "gin"}),
    ("gin", "IRoutes"): ("router", {"lib": "gin"}),
    ("echo", "Echo"): ("router", {"lib": "echo"}),
    ("echo", "Group"): ("router", {"lib": "echo"}),
    ("chi", "Router"): ("router", {"lib": "chi"}),
    ("chi", "Mux"): ("router", {"lib": "chi"}),
    ("gorilla", "Router"): ("router", {"lib": "gorilla"}),
    ("fiber", "App"): ("router", {"lib": "fiber"}),
    ("fiber", "Router"): ("router", {"lib": "fiber"}),
    ("httprouter", "Router"): ("router", {"lib": "httprouter"}),
    ("gwruntime", "ServeMux"): ("router", {"lib": "gwruntime"}),
    ("resty", "Client"): ("resty", {}),
    ("grpc", "ClientConn"): ("grpc_conn", {}),
    ("grpc", "Server"): ("grpc_server", {}),
    ("azservicebus", "Client"): ("asb_client", {}),
    ("goamqp", "Conn"): ("amqp1_conn", {}),
    ("goamqp", "Session"): ("amqp1_session", {}),
    ("sarama", "SyncProducer"): ("sarama_producer", {}),
    ("sarama", "AsyncProducer"): ("sarama_producer", {}),
    ("sarama", "ConsumerGroup"): ("sarama_cg", {}),
    ("sarama", "Consumer"): ("sarama_consumer", {}),
    ("kafkago", "Writer"): ("kafka_writer", {}),
    ("kafkago", "Reader"): ("kafka_reader", {}),
    ("confluent", "Producer"): ("confluent_producer", {}),
    ("confluent", "Consumer"): ("confluent_consumer", {}),
    ("strings", "Builder"): ("str_builder", {}),
    ("bytes", "Buffer"): ("str_builder", {}),
    ("amqp", "Connection"): ("amqp_conn", {}),
    ("amqp", "Channel"): ("amqp_ch", {}),
    ("nats", "Conn"): ("nats", {}),
    ("nats", "JetStreamContext"): ("nats_js", {}),
    ("nats", "JetStream"): ("nats_js", {}),
    ("jetstream", "JetStream"): ("js2", {}),
    ("redis", "Client"): ("redis", {}),
    ("redis", "UniversalClient"): ("redis", {}),
    ("redis", "ClusterClient"): ("redis", {}),
    ("redis", "Cmdable"): ("redis", {}),
    ("sqs", "Client"): ("sqs", {}),
    ("sqs", "SQS"): ("sqs", {}),
    ("sns", "Client"): ("sns", {}),
    ("sns", "SNS"): ("sns", {}),
    ("mongo", "Client"): ("mongo_client", {}),
    ("firestore", "Client"): ("fs_client", {}),
    ("mongo", "Database"): ("mongo_db", {}),
    ("mongo", "Collection"): ("mongo_coll", {}),
    ("gorm", "DB"): ("gorm", {}),
    ("viper", "Viper"): ("viper", {}),
    ("koanf", "Koanf"): ("koanf", {}),
    ("watermill", "Publisher"): ("wm_pub", {}),
    ("watermill", "Subscriber"): ("wm_sub", {}),
    ("watermill", "Router"): ("wm_router", {}),
    ("daprclient", "Client"): ("dapr_client", {}),
}

#: Package-level variables of libraries.
EXT_VARS: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {
    ("http", "DefaultClient"): ("httpclient", {}),
    ("sqlbuild", "StatementBuilder"): ("sql_builder", {}),
    **{("http", "Method" + v.capitalize()): ("str", {"s": v}) for v in _VERBS},
}


def _pub(provider: str, ch: int, **kw: Any) -> tuple[str, dict[str, Any]]:
    return ("publish", {"provider": provider, "ch": ch, **kw})


def _con(provider: str, ch: int, **kw: Any) -> tuple[str, dict[str, Any]]:
    return ("consume", {"provider": provider, "ch": ch, **kw})


_VIPER: dict[str, tuple[str, dict[str, Any]]] = {
    n: ("prop", {}) for n in ("GetString", "Get", "GetStringSlice")
}
_RESTY_REQ = {v: ("resty_call", {"m": v.upper()}) for v in _CAP_VERBS[:7]}

#: Methods of library objects: OBJ_METHODS[kind][method] = (action, spec).
OBJ_METHODS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "sql_builder": {**{m: ("builder_table", {}) for m in _BUILDER_TABLES}, "*": SAME},
    "httpclient": dict(_HTTP_CALLS),
    "dapr_client": {
        **{m: ("dapr_publish", {"via": 1, "ch": 2}) for m in _DAPR_PUBLISH},
        **{m: ("dapr_state", {"store": 1}) for m in _DAPR_STATE},
    },
    "dapr_service": {
        "AddTopicEventHandler": ("dapr_subscribe", {}),
        "AddBulkTopicEventHandler": ("dapr_subscribe", {}),
    },
    "micro_service": {
        "Server": ("new", {"kind": "micro_server"}),
        "Client": ("new", {"kind": "micro_client"}),
        "*": SAME,
    },
    "micro_client": {"NewRequest": ("micro_request", {})},
    "micro_server": {
        "NewSubscriber": ("micro_message", {"dir": "consumes", "ch": 0, "handler": 1}),
        "NewHandler": ("micro_handler", {"impl": 0}),
        "*": SAME,
    },
    "micro_pub": {"Publish": ("micro_publish", {})},
    # text built piece by piece (``var sb strings.Builder`` / ``bytes.Buffer``; a helper joining its
    # variadic parts so): what ``String()`` returns is every written part in order
    "str_builder": {"WriteString": ("builder_write", {}), "String": ("builder_string", {})},
    "url": {
        "String": ("url_string", {}),
        "JoinPath": ("url_join", {}),
        "Parse": ("url_ref", {}),
        "ResolveReference": ("url_ref", {"single": True}),
        "*": SAME,
    },
    "resty": {
        "R": ("resty_req", {}),
        "NewRequest": ("resty_req", {}),
        "SetBaseURL": ("resty_base", {}),
        "SetHostURL": ("resty_base", {}),
        "*": SAME,
    },
    "resty_req": {**_RESTY_REQ, "Execute": ("resty_call", {"m": 0, "url": 1}), "*": SAME},
    "grpc_server": {"RegisterService": ("grpc_register_desc", {})},
    # Azure Service Bus and AMQP 1.0 (go-amqp): a sender or receiver is opened on one queue/topic
    "asb_client": {
        "NewSender": _pub("azure-servicebus", 0, client="azservicebus"),
        "NewReceiverForQueue": _con("azure-servicebus", 0, client="azservicebus"),
        "NewReceiverForSubscription": _con("azure-servicebus", 0, client="azservicebus"),
    },
    "amqp1_conn": {"NewSession": ("new", {"kind": "amqp1_session", "tup": True})},
    "amqp1_session": {
        "NewSender": _pub("amqp-1.0", 1, client="go-amqp"),
        "NewReceiver": _con("amqp-1.0", 1, client="go-amqp"),
    },
    "sarama_producer": {},
    "sarama_cg": {"Consume": _con("kafka", 1, handler=2, method="ConsumeClaim")},
    "sarama_consumer": {"ConsumePartition": _con("kafka", 0)},
    "confluent_consumer": {"SubscribeTopics": _con("kafka", 0), "Subscribe": _con("kafka", 0)},
    "kafka_writer": {},
    "amqp_conn": {"Channel": ("new", {"kind": "amqp_ch", "tup": True})},
    "amqp_ch": {
        "Publish": _pub("rabbitmq", 1, ex=0),
        "PublishWithContext": _pub("rabbitmq", 2, ex=1),
        "PublishWithDeferredConfirmWithContext": _pub("rabbitmq", 2, ex=1),
        "Consume": _con("rabbitmq", 0),
        "ConsumeWithContext": _con("rabbitmq", 1),
        "QueueDeclare": ("amqp_queue", {}),
        "QueueBind": ("amqp_bind", {}),
    },
    "nats": {
        "Publish": _pub("nats", 0),
        "PublishMsg": _pub("nats", 0),
        "Request": _pub("nats", 0),
        "PublishRequest": _pub("nats", 0),
        "Subscribe": _con("nats", 0, handler=-1),
        "QueueSubscribe": _con("nats", 0, handler=-1),
        "ChanSubscribe": _con("nats", 0),
        "SubscribeSync": _con("nats", 0),
        "QueueSubscribeSync": _con("nats", 0),
        "JetStream": ("new", {"kind": "nats_js", "tup": True}),
    },
    "nats_js": {
        "Publish": _pub("nats", 0),
        "PublishMsg": _pub("nats", 0),
        "PublishAsync": _pub("nats", 0),
        "Subscribe": _con("nats", 0, handler=1),
        "QueueSubscribe": _con("nats", 0, handler=2),
        "PullSubscribe": _con("nats", 0),
        "ChanSubscribe": _con("nats", 0),
    },
    "js2": {"Publish": _pub("nats", 1), "PublishMsg": _pub("nats", 1), "PublishAsync": _pub("nats", 0)},
    "redis": {
        "Publish": _pub("redis", 1),
        "SPublish": _pub("redis", 1),
        "Subscribe": _con("redis", 1, rest=True),
        "PSubscribe": _con("redis", 1, rest=True),
        "SSubscribe": _con("redis", 1, rest=True),
        **{m: ("redis_key", {}) for m in REDIS_KEY_COMMANDS},
    },
    "mongo_client": {"Database": ("mongo_db", {})},
    "mongo_db": {"Collection": ("mongo_coll", {})},
    # Firestore: a collection named from the client, or under a document (``Doc(id).Collection(x)``)
    "fs_client": {"Collection": ("fs_coll", {})},
    "fs_coll": {"Collection": ("fs_coll", {}), "*": SAME},
    "gorm": {"AutoMigrate": ("automigrate", {}), "CreateTable": ("automigrate", {}), "*": SAME},  # jinzhu: CreateTable
    "viper": {**_VIPER, "SetDefault": ("prop_default", {})},
    "koanf": {n: ("prop", {}) for n in ("String", "MustString", "Get", "Strings", "MustStrings")},
    # watermill: Publish(topic, msgs...), Subscribe(ctx, topic); a router's handlers consume
    # (and AddHandler's also publish) through the subscriber/publisher passed to them
    "wm_pub": {"Publish": ("wm_message", {"dir": "publishes", "ch": 0})},
    "wm_sub": {"Subscribe": ("wm_message", {"dir": "consumes", "ch": 1})},
    "wm_router": {
        "AddNoPublisherHandler": ("wm_message", {"dir": "consumes", "ch": 1, "via": 2, "handler": 3}),
        "AddConsumerHandler": ("wm_message", {"dir": "consumes", "ch": 1, "via": 2, "handler": 3}),
        "AddHandler": ("wm_handler", {}),
    },
}

#: an AWS DynamoDB request's table
_DYNAMO_TABLE = {"field": "TableName", "engine": "dynamodb", "framework": "aws-sdk"}
#: Composite literals of library types: COMPOSITES[(lib, Type)] = (action, spec).
COMPOSITES: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {
    ("url", "URL"): ("url_literal", {}),  # url.URL{Scheme, Host, Path}
    ("sarama", "ProducerMessage"): (
        "comp_publish",
        {"client": "sarama", "provider": "kafka", "field": "Topic"},
    ),
    ("kafkago", "Writer"): (
        "comp_publish",
        {"client": "kafka-go", "provider": "kafka", "field": "Topic", "kind": "kafka_writer"},
    ),
    ("kafkago", "Message"): ("comp_publish", {"client": "kafka-go", "provider": "kafka", "field": "Topic"}),
    ("confluent", "Message"): (
        "comp_publish",
        {"client": "confluent-kafka-go", "provider": "kafka", "field": "TopicPartition.Topic"},
    ),
    ("sqs", "SendMessageInput"): (
        "comp_publish",
        {"client": "aws-sdk", "provider": "sqs", "field": "QueueUrl"},
    ),
    ("sqs", "SendMessageBatchInput"): (
        "comp_publish",
        {"client": "aws-sdk", "provider": "sqs", "field": "QueueUrl"},
    ),
    ("sqs", "ReceiveMessageInput"): (
        "comp_consume",
        {"client": "aws-sdk", "provider": "sqs", "field": "QueueUrl"},
    ),
    ("sns", "PublishInput"): ("comp_publish", {"client": "aws-sdk", "provider": "sns", "field": "TopicArn"}),
    ("sns", "PublishBatchInput"): (
        "comp_publish",
        {"client": "aws-sdk", "provider": "sns", "field": "TopicArn"},
    ),
    **{
        ("dynamodb", f"{op}Input"): ("comp_store", _DYNAMO_TABLE)
        for op in "PutItem GetItem UpdateItem DeleteItem Query Scan CreateTable DescribeTable".split()
    },
    ("redis", "XAddArgs"): ("comp_publish", {"client": "go-redis", "provider": "redis", "field": "Stream"}),
    ("redis", "XReadGroupArgs"): (
        "comp_consume",
        {"client": "go-redis", "provider": "redis", "field": "Streams", "half": True},
    ),
    ("redis", "XReadArgs"): (
        "comp_consume",
        {"client": "go-redis", "provider": "redis", "field": "Streams", "half": True},
    ),
}

#: Methods recognizable whatever the receiver is (an untyped field, an interface).
ANY_RECEIVER: dict[str, tuple[str, dict[str, Any]]] = {
    "AutoMigrate": ("automigrate", {}),
    "QueueDeclare": ("amqp_queue", {}),
    "PublishWithContext": _pub("rabbitmq", 2, ex=1, min_args=6),
    **{
        m: ("sql_text", {"min_args": 1})
        for m in (
            "Exec", "Query", "QueryRow", "ExecContext", "QueryContext", "QueryRowContext",
            "Get", "Select", "GetContext", "SelectContext", "NamedExec", "NamedExecContext",
        )
    },  # fmt: skip
}

#: Field-tag keys that bind a config struct field to an environment variable or a config key.
ENV_TAGS = ("env", "envconfig")
ENV_DEFAULT_TAGS = ("envDefault", "default")
PROP_TAGS = ("mapstructure", "koanf", "yaml")
