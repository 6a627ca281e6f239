"""Call targets, confidence, callee APIs, gateways, gRPC, channels and entity engines."""

from __future__ import annotations

from orbitkb.analysis.facts import Env, Expr, Lit, Unknown
from orbitkb.domain.model import ApiKind

SERVICES = {
    "docker-compose.yml": """services:
  orders: {build: ./orders, ports: ["8001:8000"]}
  payments-service: {build: ./payments, ports: ["8002:3000"], container_name: pay}
  db: {image: postgres:16}
""",
    "orders/requirements.txt": "requests\npsycopg2-binary\n",
    "payments/package.json": '{"scripts": {"start": "node server.js"}}',
    "payments/server.js": "// @api POST /pay pay\n// @api GET /payments/:id getOne\n// @api GET /payments/search search\n",
}


def calls_of(analyze, lines: list[str], extra: dict[str, str] | None = None) -> list:
    files = dict(SERVICES)
    files["orders/app.py"] = (
        "# @entry\n# @api GET /orders list_orders component=Orders\n# @component Orders\n"
        + "".join(f"# @call {line}\n" for line in lines)
    )
    files.update(extra or {})
    run = analyze(files)
    return sorted(run.service("orders").calls, key=lambda c: c.evidence[0].start_line), run


def test_literal_hosts_names_aliases_dns_and_variants(analyze):
    calls, run = calls_of(
        analyze,
        [
            "http requests lit:http://payments-service:3000/pay method=POST",
            "http requests lit:http://pay/pay method=post",
            "http requests lit:https://payments.shop.svc.cluster.local/payments/42 method=GET",
            "http requests lit:http://payments-svc/payments/search",
            "http requests lit:http://localhost:8002/pay method=POST",
            "http requests lit:https://api.stripe.com/v1/charges method=POST",
            "http requests lit:http://localhost:9999/x",
        ],
    )
    pay = run.service("payments-service")
    apis = {a.path: a.id for a in pay.apis}
    got = [(c.target, c.target_kind.value, c.method, c.path, c.confidence, c.to_api_id) for c in calls]
    assert got == [
        ("payments-service", "internal", "POST", "/pay", 1.0, apis["/pay"]),
        ("payments-service", "internal", "POST", "/pay", 1.0, apis["/pay"]),  # container_name alias
        ("payments-service", "internal", "GET", "/payments/:id", 1.0, apis["/payments/:id"]),  # k8s DNS
        ("payments-service", "internal", None, "/payments/search", 0.7, apis["/payments/search"]),  # variant
        ("payments-service", "internal", "POST", "/pay", 0.7, apis["/pay"]),  # published port
        ("api.stripe.com", "unknown", "POST", "/v1/charges", 1.0, None),
        ("localhost:9999", "unknown", None, "/x", 0.5, None),
    ]
    assert all(c.to_service_id in (None, pay.service.id) for c in calls)


def test_unresolved_addresses_are_kept_readable_never_dropped(analyze):
    calls, _ = calls_of(
        analyze,
        [
            "http requests env:BILLING_URL+lit:/invoices method=POST",
            "http requests unk:self.base_url+lit:/things/+unk:thing_id",
            "http fetch lit:/api/local",
            "http feign env:NOPE hint=payments",
            "http requests env:LEDGER|http://ledger.internal:8080+lit:/l",
        ],
    )
    got = [(c.target, c.path, c.confidence) for c in calls]
    assert got == [
        ("${BILLING_URL}", "/invoices", 0.3),
        ("{self.base_url}", "/things/{thing_id}", 0.3),
        ("(relative)", "/api/local", 0.3),
        ("payments-service", None, 0.7),
        ("ledger.internal", "/l", 0.5),
    ]


def test_calls_are_attributed_to_the_api_or_component_and_carry_the_code_line(analyze):
    calls, run = calls_of(
        analyze,
        [
            "http requests lit:http://payments-service/pay handler=list_orders",
            "http requests lit:http://pay/pay component=Orders",
        ],
    )
    orders = run.service("orders")
    api = orders.apis[0]
    assert calls[0].from_api_id == api.id and calls[0].from_component_id == api.component_id
    assert calls[1].from_api_id is None and calls[1].from_component_id == orders.components[0].id
    assert (calls[0].evidence[0].file, calls[0].evidence[0].start_line, calls[0].evidence[0].commit) == (
        "orders/app.py",
        4,
        "c0ffee",
    )


PROTO = """syntax = "proto3";
package shop.payments.v1;
// Charges cards.
service PaymentService {
  // Authorizes a payment.
  rpc Authorize(AuthorizeRequest) returns (AuthorizeReply);
  rpc Refund(RefundRequest) returns (RefundReply) {}
}
"""


def test_grpc_servers_from_registrations_and_clients_from_stubs(analyze):
    extra = {
        "proto/payments.proto": PROTO,
        "payments/grpc.js": "// server.addService(proto.shop.payments.v1.PaymentService.service, impl)\n",
    }
    calls, run = calls_of(
        analyze,
        [
            "grpc grpc-stub unk:channel grpc=PaymentService method=Authorize",
            "grpc grpc-stub lit:payments-service:50051 grpc=shop.payments.v1.PaymentService",
        ],
        extra,
    )
    pay = run.service("payments-service")
    rpcs = [
        (a.method, a.path, a.handler, a.start_line, a.doc, a.kind) for a in pay.apis if a.kind == ApiKind.GRPC
    ]
    assert rpcs == [
        (
            "RPC",
            "shop.payments.v1.PaymentService/Authorize",
            "PaymentService.Authorize",
            6,
            "Authorizes a payment.",
            ApiKind.GRPC,
        ),
        ("RPC", "shop.payments.v1.PaymentService/Refund", "PaymentService.Refund", 7, None, ApiKind.GRPC),
    ]
    assert [(c.target, c.method, c.path, c.confidence) for c in calls] == [
        ("payments-service", "RPC", "shop.payments.v1.PaymentService/Authorize", 0.7),
        ("payments-service", "RPC", None, 1.0),
    ]
    assert calls[0].to_api_id == pay.apis[0].id if pay.apis[0].path.endswith("Authorize") else True


def test_grpc_implemented_by_a_csharp_service(analyze):
    extra = {
        "proto/payments.proto": PROTO,
        "dotnet-pay/Pay.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>',
        "dotnet-pay/Services/PaymentImpl.cs": "public class PaymentImpl : PaymentService.PaymentServiceBase {}\n",
    }
    calls, run = calls_of(analyze, ["grpc grpc-stub unk:ch grpc=PaymentService method=Refund"], extra)
    assert run.service("dotnet-pay").service.stack == "dotnet"
    assert calls[0].target == "dotnet-pay" and calls[0].to_api_id


GATEWAY_YML = """spring:
  cloud:
    gateway:
      routes:
        - id: pay
          uri: lb://payments-service
          predicates:
            - Path=/api/pay/**
            - Method=POST
        - id: orders
          uri: ${ORDERS_URI:http://orders:8000}
          predicates:
            - name: Path
              args:
                pattern: /api/orders/**
        - id: ext
          uri: https://partner.example.com
"""


def test_spring_cloud_gateway_routes_are_calls_from_the_gateway(analyze):
    files = dict(SERVICES)
    files.update(
        {
            "orders/app.py": "# @entry\n",
            "gateway/build.gradle": "plugins { id 'org.springframework.boot' }\ndependencies { implementation 'org.springframework.cloud:spring-cloud-starter-gateway' }\n",
            "gateway/src/main/java/Gw.java": "// @entry\n",
            "gateway/src/main/resources/application.yml": GATEWAY_YML,
        }
    )
    run = analyze(files)
    gw = run.service("gateway")
    assert gw.service.framework == "spring-cloud-gateway"
    got = [(c.target, c.method, c.path, c.evidence[0].start_line, c.confidence) for c in gw.calls]
    assert got == [
        ("payments-service", "POST", "/api/pay/**", 6, 1.0),
        ("orders", None, "/api/orders/**", 11, 1.0),
        ("partner.example.com", None, None, 17, 1.0),
    ]


NGINX = """
upstream pay_backend {
    server payments-service:3000;
}
server {
    listen 80;
    location /api/pay/ {
        proxy_pass http://pay_backend/;
    }
    location /api/orders/ {
        set $orders http://orders:8000;
        proxy_pass $orders;
    }
    # location /old { proxy_pass http://legacy; }
    location /api/ledger/ {
        proxy_pass ${LEDGER_URL};
    }
}
"""


def test_nginx_proxy_pass_and_upstreams_are_calls_from_the_proxy(analyze):
    files = dict(SERVICES)
    files["orders/app.py"] = "# @entry\n"
    files["docker-compose.yml"] += (
        "  edge:\n    image: nginx:1.25\n    volumes: [./proxy/nginx.conf:/etc/nginx/nginx.conf:ro]\n    environment: {LEDGER_URL: 'http://ledger:7000'}\n"
    )
    files["proxy/nginx.conf"] = NGINX
    run = analyze(files)
    edge = run.service("edge")
    assert (edge.service.stack, edge.service.framework, edge.service.root_dir) == ("other", "nginx", "proxy")
    got = [(c.target, c.path, c.evidence[0].start_line, c.target_kind.value) for c in edge.calls]
    assert got == [
        ("payments-service", "/**", 8, "internal"),  # proxy_pass with a URI: the location is stripped
        ("orders", "/api/orders/**", 12, "internal"),
        ("ledger", "/api/ledger/**", 16, "unknown"),
    ]
    assert "infra" not in [r.name for r in run.result.resources]


def test_messages_channels_through_constants_env_and_stream_bindings(analyze):
    files = dict(SERVICES)
    files["orders/app.py"] = (
        "# @entry\n# @api GET /orders h\n"
        "# @msg publishes kafka lit:orders.created handler=h\n"
        "# @msg publishes celery env:TASK_QUEUE|default\n"
        "# @msg consumes stream lit:paymentCompleted\n"
        "# @msg publishes unknown unk:topic_name\n"
    )
    files["orders/.env"] = "TASK_QUEUE=emails\nCELERY_BROKER_URL=amqp://guest@rabbit//\n"
    files["orders/application.yml"] = (
        "spring:\n  cloud:\n    stream:\n      bindings:\n        paymentCompleted-in-0:\n          destination: payments.completed\n"
        "          binder: k\n      binders:\n        k:\n          type: kafka\n"
    )
    run = analyze(files)
    msgs = [
        (m.direction.value, m.channel, m.provider, len(m.evidence), m.api_id is not None)
        for m in run.service("orders").messages
    ]
    assert msgs == [
        ("publishes", "emails", "rabbitmq", 2, False),
        ("publishes", "orders.created", "kafka", 1, True),
        ("consumes", "payments.completed", "kafka", 2, False),
        ("publishes", "{topic_name}", "rabbitmq", 1, False),
    ]


def test_message_handler_apis_resolve_property_channels(analyze):
    files = dict(SERVICES)
    files["orders/app.py"] = (
        "# @entry\n# @api CONSUME ${app.topics.paid} onPaid kind=message channel=${app.topics.paid} provider=kafka\n"
    )
    files["orders/application.properties"] = "app.topics.paid=payments.completed\n"
    api = analyze(files).service("orders").apis[0]
    assert (api.path, api.channel, api.kind) == ("payments.completed", "payments.completed", ApiKind.MESSAGE)
    assert api.evidence[1].file == "orders/application.properties"


def test_entity_engines_from_code_config_compose_and_manifests_never_guessed(analyze):
    base = dict(SERVICES)
    base["orders/app.py"] = (
        "# @entry\n# @entity orders sql_table class=Order fields=id,total\n# @entity carts key_value\n# @entity events document_collection engine=MongoDB\n"
    )
    # manifest only: psycopg2 -> postgres; nothing says where carts live
    ents = {e.name: e.engine for e in analyze(base).service("orders").entities}
    assert ents == {"carts": "unknown", "events": "mongodb", "orders": "postgres"}
    # a datasource URL in config beats the manifest; redis URL decides the key-value store
    cfg = dict(base)
    cfg["orders/.env"] = "DATABASE_URL=mysql+pymysql://u:p@db/x\nCACHE=redis://cache:6379/0\n"
    ents = {e.name: e.engine for e in analyze(cfg).service("orders").entities}
    assert ents == {"carts": "redis", "events": "mongodb", "orders": "mysql"}
    # compose depends_on an infrastructure image
    dep = dict(base)
    dep["orders/requirements.txt"] = "requests\n"
    dep["docker-compose.yml"] = dep["docker-compose.yml"].replace(
        "orders: {build: ./orders,", "orders: {build: ./orders, depends_on: [db],"
    )
    ent = analyze(dep).service("orders").entities
    assert {e.name: e.engine for e in ent}["orders"] == "postgres"
    assert [f.name for f in next(e for e in ent if e.name == "orders").fields] == ["id", "total"]
    # two SQL drivers and nothing else: unknown, not a guess
    amb = dict(base)
    amb["orders/requirements.txt"] = "psycopg2\npymysql\n"
    assert {e.name: e.engine for e in analyze(amb).service("orders").entities}["orders"] == "unknown"


def test_link_crashes_and_missing_analyzers_are_gaps(analyze, stubs):
    class Broken:
        stack, version, suffixes = "go", "1", (".go",)

        def parse(self, path, text):
            return {"entrypoint": True}

        def link(self, ctx, parsed):
            raise KeyError("router")

    files = {
        "svc/go.mod": "module svc\n",
        "svc/main.go": "package main\n",
        **{k: v for k, v in SERVICES.items() if k.startswith("payments")},
    }
    run = analyze(files, stubs=[stubs[1], Broken()])
    assert run.names() == ["payments", "svc"]
    assert ("svc", "link_error") in run.gaps()

    from orbitkb.analysis import StaticCodeAnalyzer

    analyzer = StaticCodeAnalyzer(modules=("orbitkb.analysis.does_not_exist",), workers=0)
    assert analyzer.version.startswith("pipeline-4+vocabulary-")  # no stack loaded: only the pipeline and its tables
    from orbitkb.domain.fakes import MemorySourceTree
    from orbitkb.domain.ports import AnalysisRequest

    result = analyzer.analyze(MemorySourceTree({"a.py": "x = 1\n"}), AnalysisRequest("r"), _NoCache())
    assert [(g.path, g.kind) for g in result.gaps] == [
        ("orbitkb.analysis.does_not_exist", "analyzer_unavailable")
    ]


class _NoCache:
    def get_many(self, keys):
        return {}

    def put_many(self, items):
        pass


def test_resolver_unit_combinations_prefer_a_known_service():
    from orbitkb.analysis.config.model import ConfigValue
    from orbitkb.analysis.config.service_config import ServiceConfig
    from orbitkb.analysis.resolution.values import Sentinels, resolve

    config = ServiceConfig()
    config.add_env(ConfigValue("API", "http://localhost:1", ".env", 1, "dotenv"))
    config.add_env(ConfigValue("API", "http://orders:80", "k.yaml", 3, "kubernetes"))
    marks = Sentinels()
    res = resolve(Expr((Env("API"), Lit("/x"), Unknown("id"))), config, marks, lambda t: "orders" in t)
    assert marks.readable(res.text) == "http://orders:80/x{id}" and res.evidence[0].file == "k.yaml"
