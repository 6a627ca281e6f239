"""Dapr: component YAML, app ids declared by deployments, sidecar invocation URLs, and the
pipeline resolving an invocation to the service that owns the app id."""

from __future__ import annotations

from orbitkb.analysis.dapr.appids import AppId, Unit, app_ids, declarations
from orbitkb.analysis.dapr.apply import BINDING_PREFIX, Dapr
from orbitkb.analysis.dapr.components import bindings, components, subscriptions, technology
from orbitkb.analysis.dapr.invoke import sidecar_url, via_app_id
from orbitkb.analysis.facts import Env, Expr, LinkedFacts, Lit, RawApi, RawEntity, RawMessage

STATE_YAML = """apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: basketstore
spec:
  type: state.redis
  version: v1
scopes:
  - basket-api
---
apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: eventbus
spec:
  type: pubsub.azure.servicebus.topics
"""


def test_components_name_their_engine_and_broker():
    found = components({"infra/dapr/components.yaml": STATE_YAML})
    assert [(c.name, c.block, c.technology, c.line, c.scopes) for c in found] == [
        ("basketstore", "state", "redis", 4, ("basket-api",)),
        ("eventbus", "pubsub", "azure-servicebus", 14, ()),
    ]


def test_container_apps_flat_component_and_prefix_matching():
    flat = "componentType: state.azure.cosmosdb\nversion: v1\nname: ledger\n"
    assert [(c.name, c.technology) for c in components({"deploy/ledger.yaml": flat})] == [
        ("ledger", "cosmosdb")
    ]
    assert technology("pubsub.kafka") == ("pubsub", "kafka")
    assert technology("state.in-memory") == ("state", None)
    assert technology("bindings.cron") is None


def test_yaml_that_is_not_a_component_is_ignored():
    other = "kind: ConfigMap\nmetadata:\n  name: state.redis\ndata: {pubsub.x: y}\n"
    assert components({"k8s/cm.yaml": other, "broken.yaml": "kind: Component\n  : : state.redis ["}) == []


K8S = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: ledger
spec:
  template:
    metadata:
      annotations:
        dapr.io/enabled: "true"
        dapr.io/app-id: "ledger-app"
        dapr.io/app-port: "7001"
"""

COMPOSE = """services:
  invoicing:
    build: ./invoicing
  invoicing-sidecar:
    image: daprio/daprd
    command: ["./daprd", "-app-id", "billing", "-app-port", "6000"]
    network_mode: "service:invoicing"
"""

DOCS = """Start the shop:

    dapr run --app-id storefront --app-port 4100 -- npm start
    dapr run --app-id mystery -- python main.py
"""

MULTI = """version: 1
apps:
  - appID: catalogue
    appDirPath: ./catalog/
    appPort: 6100
"""

UNITS = [
    Unit("ledger", (), "ledger", ()),
    Unit("invoicing", (), "invoicing", (6000,)),
    Unit("web", ("storefront-web",), "web", (4100,)),
    Unit("catalog", (), "tools/catalog", ()),
    Unit("catalog-ui", (), "catalog", ()),
]


def test_app_ids_from_annotations_sidecars_commands_and_run_files():
    texts = {"k8s/ledger.yaml": K8S, "docker-compose.yml": COMPOSE, "README.md": DOCS, "dapr.yaml": MULTI}
    found = {name: [d.app_id for d in decls] for name, decls in app_ids(texts, UNITS).items()}
    assert found == {
        "ledger": ["ledger-app"],  # the annotated workload
        "invoicing": ["billing"],  # the app whose network the daprd sidecar shares
        "web": ["storefront"],  # the one service listening on --app-port
        "catalog-ui": ["catalogue"],  # appDirPath names the folder
    }


def test_declarations_that_name_no_single_service_are_dropped():
    decls = declarations({"README.md": DOCS})
    assert [(d.app_id, d.port) for d in decls] == [("storefront", 4100), ("mystery", None)]
    shared_port = [Unit("a", (), "a", (4100,)), Unit("b", (), "b", (4100,))]
    assert app_ids({"README.md": DOCS}, shared_port) == {}


def test_invoke_url_becomes_the_app_url():
    literal = Expr((Lit("http://localhost:3500/v1.0/invoke/billing/method/invoices/7"),))
    assert sidecar_url(literal) == Expr((Lit("http://billing/invoices/7"),))
    built = Expr(
        (Lit("http://localhost:"), Env("DAPR_HTTP_PORT", "3500"), Lit("/v1.0/invoke/"),
         Env("BILLING_APP", "billing"), Lit("/method/invoices"))
    )  # fmt: skip
    assert sidecar_url(built) == Expr((Lit("http://"), Env("BILLING_APP", "billing"), Lit("/invoices")))


def test_urls_without_invocation_are_left_alone():
    assert sidecar_url(Expr((Lit("http://billing:3500/v1.0/state/carts"),))) is None
    assert sidecar_url(Expr((Lit("http://localhost:3500/v1.0/invoke/"),))) is None
    assert sidecar_url(None) is None


def test_header_app_id_keeps_the_path_and_drops_the_sidecar():
    app = Expr((Env("LEDGER_APP", "ledger"),))
    sidecar = Expr((Lit("http://localhost:"), Env("DAPR_HTTP_PORT", "3500"), Lit("/entries?id="), Env("X")))
    assert via_app_id(sidecar, app) == Expr(
        (Lit("http://"), Env("LEDGER_APP", "ledger"), Lit("/entries?id="), Env("X"))
    )
    assert via_app_id(Expr((Lit("/entries"),)), Expr.lit("ledger")) == Expr.lit("http://ledger/entries")
    assert via_app_id(None, Expr.lit("ledger")) == Expr.lit("http://ledger")


def test_state_stores_and_topics_take_the_components_technology():
    dapr = Dapr({}, components({"c.yaml": STATE_YAML}))
    facts = LinkedFacts(
        entities=(
            RawEntity("basketstore", "key_value", "a.py", 3, 3, framework="dapr"),
            RawEntity("missing", "key_value", "a.py", 4, 4, framework="dapr", engine_hint="dapr"),
        ),
        messages=(RawMessage("publishes", Expr.lit("paid"), "dapr:eventbus", "a.py", 9, 9),),
    )
    out = dapr.apply("basket-api", facts)
    assert [e.engine_hint for e in out.entities] == ["redis", None]
    assert [m.provider for m in out.messages] == ["azure-servicebus"]
    # scoped to basket-api only: another app does not see the store
    assert [e.engine_hint for e in dapr.apply("orders-api", facts).entities] == [None, None]


TREE = {
    "docker-compose.yml": """services:
  shop:
    build: ./shop
  shop-dapr:
    image: daprio/daprd
    command: ["./daprd", "--app-id", "shop-app"]
    network_mode: service:shop
  billing:
    build: ./billing
  billing-dapr:
    image: daprio/daprd
    command: ["./daprd", "--app-id", "ledger-app"]
    network_mode: service:billing
""",
    "shop/app.py": (
        "# @entry\n"
        "# @call http requests lit:http://localhost:3500/v1.0/invoke/ledger-app/method/entries method=POST\n"
        "# @call http requests lit:http://localhost:3500/v1.0/invoke/nobody-app/method/entries\n"
    ),
    "billing/app.py": "# @entry\n# @api POST /entries add\n",
    "shop/requirements.txt": "requests\n",
    "billing/requirements.txt": "flask\n",
}


def test_pipeline_resolves_an_invocation_by_app_id(analyze):
    run = analyze(TREE)
    calls = sorted((c.target, c.path, c.to_service_id is not None) for c in run.service("shop").calls)
    assert calls == [("billing", "/entries", True), ("nobody-app", "/entries", False)]


BINDINGS_YAML = """apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: gate-events
spec:
  type: bindings.mqtt3
  metadata:
  - name: url
    value: mqtt://broker:1883
  - name: topic
    value: gates/opened
scopes:
  - turnstile
---
apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: ledger-feed
spec:
  type: bindings.kafka
  metadata:
  - name: topics
    value: "ledger.entries, ledger.reversals"
  - name: publishTopic
    value: ledger.audit
  - name: route
    value: /feed/ledger
---
apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: outbound
spec:
  type: bindings.rabbitmq
  metadata:
  - name: queueName
    secretKeyRef: {name: q, key: q}
  - name: direction
    value: output
---
apiVersion: dapr.io/v1alpha1
kind: Component
metadata:
  name: mailer
spec:
  type: bindings.smtp
"""


def test_bindings_name_their_broker_channels_and_route():
    found = bindings({"dapr/bindings.yaml": BINDINGS_YAML})
    assert [(b.name, b.broker, b.inputs, b.outputs, b.route, b.scopes) for b in found] == [
        ("gate-events", "mqtt", ("gates/opened",), ("gates/opened",), "/gate-events", ("turnstile",)),
        (
            "ledger-feed",
            "kafka",
            ("ledger.entries", "ledger.reversals"),
            ("ledger.audit",),
            "/feed/ledger",
            (),
        ),
        ("outbound", "rabbitmq", (), (), "/outbound", ()),  # output only, its queue a secret reference
        ("mailer", "", (), (), "/mailer", ()),  # no broker
    ]
    assert bindings({"k8s/cm.yaml": "kind: ConfigMap\nmetadata: {name: bindings.kafka}\n"}) == []


def _consumed(dapr, service, *apis):
    facts = LinkedFacts(apis=tuple(RawApi("POST", p, "h", "a.cs", 1, 1) for p in apis))
    return sorted((m.direction, m.channel.literal(), m.provider) for m in dapr.apply(service, facts).messages)


def test_input_bindings_are_consumed_by_the_scoped_app_or_the_app_serving_the_route():
    ids = {s: [AppId(s, "k8s.yaml", 1)] for s in ("turnstile", "books", "kiosk")}
    dapr = Dapr(ids, (), bindings({"b.yaml": BINDINGS_YAML}))
    assert _consumed(dapr, "turnstile") == [("consumes", "gates/opened", "mqtt")]
    assert _consumed(dapr, "books", "/feed/ledger") == [
        ("consumes", "ledger.entries", "kafka"),
        ("consumes", "ledger.reversals", "kafka"),
    ]
    assert _consumed(dapr, "kiosk", "/elsewhere") == []  # unscoped, and no handler at its route
    assert _consumed(Dapr({}, (), dapr.bindings), "books", "/feed/ledger") == []  # no Dapr app id


def test_output_bindings_write_their_channel_or_nothing_or_one_gap():
    dapr = Dapr({}, (), bindings({"b.yaml": BINDINGS_YAML}))
    sent = tuple(
        RawMessage("publishes", Expr.lit(n), BINDING_PREFIX + n, "a.cs", i, i, "dapr")
        for i, n in enumerate(("ledger-feed", "mailer", "nowhere"))
    )
    out = dapr.apply("books", LinkedFacts(messages=sent)).messages
    assert [(m.channel.literal(), m.provider) for m in out] == [("ledger.audit", "kafka"), (None, "dapr")]
    assert [p.hint for p in out[1].channel.parts] == ["dapr binding nowhere"]


def test_component_names_read_from_env_take_their_default():
    dapr = Dapr({}, components({"c.yaml": STATE_YAML}))
    facts = LinkedFacts(
        entities=(RawEntity("${BASKET_STORE:basketstore}", "key_value", "a.go", 3, 3, framework="dapr"),),
        messages=(
            RawMessage("publishes", Expr.lit("paid"), "dapr:${BUS:eventbus}", "a.go", 9, 9),
            RawMessage("publishes", Expr.lit("paid"), "dapr:${BUS:elsewhere}", "a.go", 10, 10),
        ),
    )
    out = dapr.apply("basket-api", facts)
    assert [e.engine_hint for e in out.entities] == ["redis"]
    assert [m.provider for m in out.messages] == ["azure-servicebus", "dapr"]


SUBSCRIPTIONS_YAML = """apiVersion: dapr.io/v1alpha1
kind: Subscription
metadata:
  name: crates-sub
spec:
  topic: crates-loaded
  route: /on-crate
  pubsubname: eventbus
scopes:
  - yard
---
apiVersion: dapr.io/v2alpha1
kind: Subscription
metadata:
  name: crates-lost
spec:
  pubsubname: eventbus
  topic: crates-lost
  routes:
    rules:
      - match: event.type == "urgent"
        path: /lost/urgent
    default: /lost
---
kind: Subscription
spec:
  route: /nothing
"""


def test_declarative_subscriptions_are_consumed_by_their_apps():
    found = subscriptions({"deploy/subs.yaml": SUBSCRIPTIONS_YAML})
    assert [(s.topic, s.pubsub, s.routes, s.line, s.scopes) for s in found] == [
        ("crates-loaded", "eventbus", ("/on-crate",), 6, ("yard",)),
        ("crates-lost", "eventbus", ("/lost", "/lost/urgent"), 18, ()),
    ]
    ids = {s: [AppId(s, "k8s.yaml", 1)] for s in ("yard", "depot")}
    dapr = Dapr(ids, components({"c.yaml": STATE_YAML}), (), found)
    assert _consumed(dapr, "yard") == [("consumes", "crates-loaded", "azure-servicebus")]
    assert _consumed(dapr, "depot", "/lost") == [("consumes", "crates-lost", "azure-servicebus")]
    assert _consumed(dapr, "depot", "/on-crate") == []  # scoped to another app
    assert _consumed(Dapr({}, (), (), found), "yard") == []  # no Dapr app id
