"""Configuration sources resolve the code's env vars and properties, with config lines as evidence."""

from __future__ import annotations

CALLER = "# @entry\n# @call http requests env:PAYMENTS_URL+lit:/pay method=POST\n"
CALLEE = {
    "payments/package.json": '{"scripts": {"start": "node server.js"}}',
    "payments/server.js": "// @api POST /pay pay\n",
}


def one_call(run, service: str = "orders"):
    calls = run.service(service).calls
    assert len(calls) == 1, calls
    return calls[0]


def notes(call) -> list[str]:
    return [f"{e.file}:{e.start_line} {e.note}" for e in call.evidence[1:]]


def system(extra: dict[str, str], compose: str | None = None) -> dict[str, str]:
    files = {"orders/requirements.txt": "requests\n", "orders/app.py": CALLER, **CALLEE}
    if compose is not None:
        files["docker-compose.yml"] = compose
    files.update(extra)
    return files


def test_compose_environment_as_a_list(analyze):
    compose = "services:\n  orders:\n    build: ./orders\n    environment:\n      - PAYMENTS_URL=http://payments:3000\n  payments:\n    build: ./payments\n"
    call = one_call(analyze(system({}, compose)))
    assert (call.target, call.path, call.confidence, call.target_kind.value) == (
        "payments",
        "/pay",
        1.0,
        "internal",
    )
    assert notes(call) == ["docker-compose.yml:5 env PAYMENTS_URL set in docker-compose docker-compose.yml:5"]


def test_compose_environment_as_a_mapping_with_interpolation_from_the_root_env_file(analyze):
    compose = """services:
  orders:
    build: {context: ./orders}
    environment:
      PAYMENTS_URL: "http://${PAYMENTS_HOST:-nowhere}:${PAYMENTS_PORT-3000}"
  billing:
    build: ./payments
"""
    run = analyze(system({".env": "PAYMENTS_HOST=billing\n"}, compose))
    call = one_call(run)
    assert call.target == "billing" and call.to_service_id == run.service("billing").service.id
    assert call.to_api_id == run.service("billing").apis[0].id


def test_compose_env_file_in_several_spellings(analyze):
    compose = """services:
  orders:
    build: ./orders
    env_file:
      - ./orders/common.env
      - path: ./orders/docker.env
        required: false
  payments:
    build: ./payments
    env_file: payments/payments.env
"""
    run = analyze(
        system(
            {
                "orders/docker.env": "# docker\nexport PAYMENTS_URL='http://payments:3000'  \n",
                "orders/common.env": "LOG_LEVEL=debug\n",
            },
            compose,
        )
    )
    call = one_call(run)
    assert call.target == "payments"
    assert notes(call) == ["orders/docker.env:2 env PAYMENTS_URL set in docker-compose orders/docker.env:2"]


def test_compose_environment_beats_env_file_and_dotenv_and_code_default(analyze):
    compose = """services:
  orders:
    build: ./orders
    env_file: [orders/x.env]
    environment: {PAYMENTS_URL: "http://payments:3000"}
  payments: {build: ./payments}
"""
    files = system(
        {"orders/x.env": "PAYMENTS_URL=http://wrong:1\n", "orders/.env": "PAYMENTS_URL=http://wrong:2\n"},
        compose,
    )
    files["orders/app.py"] = (
        "# @entry\n# @call http requests env:PAYMENTS_URL|http://localhost:3000+lit:/pay\n"
    )
    call = one_call(analyze(files))
    assert call.target == "payments" and call.evidence[1].file == "docker-compose.yml"


K8S = """apiVersion: v1
kind: ConfigMap
metadata: {name: endpoints}
data:
  PAYMENTS_URL: http://payments.shop.svc.cluster.local:80
  LEDGER_URL: http://ledger:80
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: orders, namespace: shop}
spec:
  template:
    spec:
      containers:
        - name: orders
          image: acme/orders:1
          env:
            - name: INVENTORY_URL
              value: "http://inventory-svc:8080"
            - name: PAYMENTS_URL
              valueFrom:
                configMapKeyRef: {name: endpoints, key: PAYMENTS_URL}
          envFrom:
            - configMapRef: {name: endpoints}
"""


def test_kubernetes_env_value_configmap_key_ref_and_env_from(analyze):
    files = system(
        {
            "deploy/orders.yaml": K8S,
            "inventory/go.mod": "module inv\n",
            "inventory/main.go": "// @entry\n// @api GET /stock/{sku} Stock\n",
            "ledger/requirements.txt": "",
            "ledger/main.py": "# @entry\n",
        }
    )
    files["orders/app.py"] = (
        "# @entry\n# @call http requests env:PAYMENTS_URL+lit:/pay method=POST\n"
        "# @call http requests env:INVENTORY_URL+lit:/stock/+unk:sku method=GET\n"
        "# @call http requests env:LEDGER_URL+lit:/entries method=POST\n"
    )
    run = analyze(files)
    calls = {c.target: c for c in run.service("orders").calls}
    assert sorted(calls) == ["inventory", "ledger", "payments"]
    assert notes(calls["payments"]) == [
        "deploy/orders.yaml:5 env PAYMENTS_URL set in kubernetes deploy/orders.yaml:5"
    ]
    assert calls["inventory"].confidence == 0.7  # "inventory-svc" ~ "inventory": a naming variant
    assert calls["inventory"].path == "/stock/{sku}" and calls["inventory"].to_api_id
    assert calls["ledger"].evidence[1].start_line == 6  # envFrom: the whole ConfigMap


HELM_VALUES = """image:
  repository: acme/orders
  tag: "1.0"
env:
  PAYMENTS_URL: http://payments:3000
"""
HELM_TEMPLATE = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "orders.fullname" . }}
spec:
  template:
    spec:
      containers:
        - name: {{ .Chart.Name }}
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          env:
            - name: LEDGER_URL
              value: {{ .Values.ledgerUrl | default "http://ledger:8000" | quote }}
          {{- with .Values.resources }}
          resources:
            {{- toYaml . | nindent 12 }}
          {{- end }}
"""


def test_helm_values_env_and_cheaply_rendered_templates(analyze):
    files = system(
        {
            "charts/orders/Chart.yaml": "name: orders\nversion: 0.1.0\n",
            "charts/orders/values.yaml": HELM_VALUES,
            "charts/orders/templates/deployment.yaml": HELM_TEMPLATE,
            "ledger/requirements.txt": "",
            "ledger/main.py": "# @entry\n",
        }
    )
    files["orders/app.py"] += "# @call http requests env:LEDGER_URL+lit:/entries\n"
    run = analyze(files)
    calls = {c.target: c for c in run.service("orders").calls}
    assert sorted(calls) == ["ledger", "payments"]
    assert notes(calls["payments"]) == [
        "charts/orders/values.yaml:5 env PAYMENTS_URL set in helm charts/orders/values.yaml:5"
    ]
    assert calls["ledger"].evidence[1].file == "charts/orders/templates/deployment.yaml"
    assert calls["ledger"].evidence[1].start_line == 12
    assert run.gaps() == []


def test_dotenv_in_the_service_folder(analyze):
    call = one_call(
        analyze(
            system(
                {
                    "orders/.env": "PAYMENTS_URL=http://payments:3000 # local\n",
                    "orders/.env.example": "PAYMENTS_URL=http://example\n",
                }
            )
        )
    )
    assert call.target == "payments"
    assert notes(call) == ["orders/.env:1 env PAYMENTS_URL set in dotenv orders/.env:1"]


APPLICATION_YML = """spring:
  application:
    name: orders
clients:
  payments:
    url: ${PAYMENTS_URL:http://localhost:3000}
  ledger:
    url: http://localhost:9000
---
spring:
  config:
    activate:
      on-profile: docker
clients:
  ledger:
    url: http://ledger:9000
"""


def jvm_orders(extra: dict[str, str]) -> dict[str, str]:
    files = {
        "orders/pom.xml": "<project><artifactId>orders</artifactId></project>",
        "orders/src/main/java/App.java": "// @entry\n"
        "// @call http RestTemplate prop:clients.payments.url+lit:/pay method=POST\n"
        "// @call http RestTemplate prop:clients.ledger.url+lit:/entries method=POST\n",
        "ledger/requirements.txt": "",
        "ledger/main.py": "# @entry\n# @api POST /entries add\n",
        **CALLEE,
    }
    files.update(extra)
    return files


def test_application_yml_profile_document_and_placeholder_through_env(analyze):
    compose = "services:\n  orders:\n    build: ./orders\n    environment:\n      PAYMENTS_URL: http://payments:3000\n      SPRING_PROFILES_ACTIVE: docker\n  payments: {build: ./payments}\n  ledger: {build: ./ledger}\n"
    run = analyze(
        jvm_orders(
            {"docker-compose.yml": compose, "orders/src/main/resources/application.yml": APPLICATION_YML}
        )
    )
    calls = {c.target: c for c in run.service("orders").calls}
    assert sorted(calls) == ["ledger", "payments"]
    assert notes(calls["payments"]) == [
        "orders/src/main/resources/application.yml:6 property clients.payments.url set in spring orders/src/main/resources/application.yml:6",
        "docker-compose.yml:5 env PAYMENTS_URL set in docker-compose docker-compose.yml:5",
    ]
    assert calls["ledger"].evidence[1].start_line == 16 and calls["ledger"].to_api_id


def test_profile_file_and_properties_file_and_relaxed_binding(analyze):
    props = "clients.payments.url=http://localhost:3000\nclients.ledger.url = ${LEDGER_BASE:http://localhost:9000}\n"
    run = analyze(
        jvm_orders(
            {
                "orders/src/main/resources/application.properties": props,
                "orders/src/main/resources/application-k8s.yml": "clients:\n  payments:\n    url: http://payments:3000\n",
                "orders/.env": "LEDGER_BASE=http://ledger:9000\nCLIENTS_PAYMENTS_URL=http://localhost:1\n",
            }
        )
    )
    calls = {c.target: c for c in run.service("orders").calls}
    assert sorted(calls) == ["ledger", "payments"]
    # the profile file names a service where the active default points at localhost
    assert calls["payments"].evidence[1].file == "orders/src/main/resources/application-k8s.yml"
    assert [e.file for e in calls["ledger"].evidence[1:]] == [
        "orders/src/main/resources/application.properties",
        "orders/.env",
    ]


def test_linker_declared_properties_are_used_without_evidence(analyze):
    files = jvm_orders({})
    files["orders/src/main/java/Config.java"] = "// @prop clients.payments.url http://payments:3000\n"
    run = analyze(files)
    call = next(c for c in run.service("orders").calls if c.path == "/pay")
    assert call.target == "payments" and len(call.evidence) == 1


def test_bad_config_files_are_gaps(analyze):
    compose = "services:\n  orders: [unclosed\n"
    run = analyze(
        system(
            {
                "orders/src/main/resources/application.yml": "a: [\n",
                "k8s/x.yaml": "apiVersion: v1\nkind: ConfigMap\n  bad: : :\n",
            },
            compose,
        )
    )
    assert sorted(run.gaps("config_error")) == [
        ("docker-compose.yml", "config_error"),
        ("k8s/x.yaml", "config_error"),
        ("orders/src/main/resources/application.yml", "config_error"),
    ]
    # no configuration read from the broken files: only the variable's name points at payments
    call = one_call(run)
    assert (call.target, call.confidence, call.evidence[1:]) == ("payments", 0.7, ())


def test_odd_shapes_never_crash(analyze):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
    )
    odd_compose = """services:
  orders:
    build: {context: ./orders, dockerfile: 42}
    environment: [FLAG, "PAYMENTS_URL=http://payments:3000", 7]
    env_file: {path: nowhere.env}
    ports: [{target: 80, published: "8080"}, "9000-9001:9000-9001", 5000]
    depends_on: {db: {condition: service_healthy}}
    volumes: [{type: bind, source: ./x, target: /x}, "named:/data"]
    networks: [default]
  payments: {build: ./payments, environment: {DEBUG: true, PORT: 3000, EMPTY: null}}
  weird: "just a string"
  db: {image: "${DB_IMAGE:-postgres:16}"}
"""
    odd_k8s = """apiVersion: apps/v1
kind: Deployment
metadata: {name: orders}
spec:
  template:
    spec:
      containers:
        - name: orders
          image: acme/orders
          env: {NOT: a-list}
          envFrom: [{configMapRef: {}}, {secretRef: {name: missing}}]
        - "not a mapping"
---
kind: List
apiVersion: v1
items:
  - {kind: ConfigMap, apiVersion: v1, metadata: {name: m}, data: {A: 1, B: null}}
  - 5
---
apiVersion: v1
kind: Secret
metadata: {name: s}
data: {URL: aHR0cDovL3BheW1lbnRzOjMwMDA=, BAD: "%%%"}
"""
    run = analyze(
        system(
            {
                "bomb/docker-compose.yml": bomb,
                "k8s/odd.yaml": odd_k8s,
                "orders/src/main/resources/application.yml": "spring: [1, 2]\n---\n- just\n- a list\n",
            },
            odd_compose,
        )
    )
    assert run.names() == ["orders", "payments"]
    assert one_call(run).target == "payments"
    assert ("bomb/docker-compose.yml", "config_error") in run.gaps()
    assert [(r.name, r.engine) for r in run.result.resources] == [("db", "postgres")]


GO_CONFIG = """kafka:
  topics:
    billed:
      topicName: invoices.billed
http:
  basePath: /api/v2
"""


def go_billing(extra: dict[str, str]) -> dict[str, str]:
    files = {
        "billing/go.mod": "module example.com/billing\n",
        "billing/cmd/main.go": "// @entry\n// @msg publishes kafka prop:kafka.topics.billed.TopicName\n",
    }
    files.update(extra)
    return files


def test_a_go_service_config_yaml_resolves_its_config_struct_keys_ignoring_case(analyze):
    run = analyze(go_billing({"billing/config/config.yaml": GO_CONFIG}))
    (msg,) = run.service("billing").messages
    assert msg.channel == "invoices.billed"


def test_config_yaml_profiles_and_spellings(analyze):
    for name in ("config.yml", "config-local.yaml", "config.dev.yml"):
        run = analyze(go_billing({f"billing/{name}": GO_CONFIG}))
        assert [m.channel for m in run.service("billing").messages] == ["invoices.billed"], name


def test_other_yaml_files_are_not_configuration(analyze):
    for name in ("configmap.yaml", "deploy/values.yaml", "myconfig.yaml"):
        run = analyze(go_billing({f"billing/{name}": GO_CONFIG}))
        assert [m.channel for m in run.service("billing").messages] != ["invoices.billed"], name


def test_an_entity_named_by_configuration_takes_the_configured_name(analyze):
    files = go_billing({"billing/config.yaml": "mongo:\n  collections:\n    invoices: invoice_docs\n"})
    files["billing/store.go"] = (
        "// @entity ${mongo.collections.invoices} document_collection engine=mongodb\n"
        "// @entity ${mongo.collections.missing} document_collection engine=mongodb\n"
        "// @entity ${mongo.collections.fallback:archive} document_collection engine=mongodb\n"
    )
    run = analyze(files)
    assert sorted(e.name for e in run.service("billing").entities) == ["archive", "invoice_docs"]


def test_go_services_read_the_shared_packages_they_import(analyze):
    from orbitkb.analysis.layout.model import ServiceUnit
    from orbitkb.analysis.libraries import go_library_files

    units = [ServiceUnit(name="orders", root="cmd/orders", stack="go"), ServiceUnit(name="web", root="web", stack="node-ts")]
    owned = {0: ["cmd/orders/main.go"], 1: ["web/index.js"]}
    imports = {
        "cmd/orders/main.go": ["example.com/shop/pkg/bus", "github.com/segmentio/kafka-go", "fmt"],
        "pkg/bus/bus.go": ["example.com/shop/pkg/codec"],
        "pkg/codec/codec.go": [],
        "pkg/unused/x.go": [],
        "tools/gen/main.go": ["example.com/shop/pkg/codec"],
    }
    got = go_library_files(units, owned, [*imports], {"example.com/shop": "."}, lambda p: imports.get(p, []))
    assert got == {0: ["pkg/bus/bus.go", "pkg/codec/codec.go"]}
    nested = go_library_files(units, owned, [*imports], {"example.com/other": "."}, lambda p: imports.get(p, []))
    assert nested == {}  # another module's import path names no folder here


def test_a_go_service_reads_the_packages_of_another_service_it_imports():
    """An all-in-one binary built from the services' own packages (or a client package kept in
    the callee's folder) reads them; a service never gets its own files back as a library."""
    from orbitkb.analysis.layout.model import ServiceUnit
    from orbitkb.analysis.libraries import go_library_files

    units = [
        ServiceUnit(name="allinone", root="cmd/allinone", stack="go"),
        ServiceUnit(name="ledger", root="cmd/ledger", stack="go"),
    ]
    owned = {0: ["cmd/allinone/main.go"], 1: ["cmd/ledger/main.go", "internal/ledger/routes.go"]}
    imports = {
        "cmd/allinone/main.go": ["example.com/bank/internal/ledger"],
        "cmd/ledger/main.go": ["example.com/bank/internal/ledger"],
        "internal/ledger/routes.go": ["example.com/bank/internal/money"],
        "internal/money/money.go": [],
    }
    got = go_library_files(units, owned, [*imports], {"example.com/bank": "."}, lambda p: imports.get(p, []))
    assert got == {0: ["internal/ledger/routes.go", "internal/money/money.go"], 1: ["internal/money/money.go"]}
