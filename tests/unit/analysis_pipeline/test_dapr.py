"""Dapr: component YAML, app ids declared by deployments, sidecar invocation URLs, and the
pipeline resolving an invocation to the service that owns the app id."""

from __future__ import annotations

from orbitkb.analysis.dapr.appids import Unit, app_ids, declarations
from orbitkb.analysis.dapr.apply import Dapr
from orbitkb.analysis.dapr.components import components, technology
from orbitkb.analysis.dapr.invoke import sidecar_url, via_app_id
from orbitkb.analysis.facts import Env, Expr, LinkedFacts, Lit, RawEntity, RawMessage

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
        ("eventbus", "pubsub", "servicebus", 14, ()),
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
    assert [m.provider for m in out.messages] == ["servicebus"]
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
