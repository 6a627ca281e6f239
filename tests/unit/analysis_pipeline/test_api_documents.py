"""API description documents in a service folder — OpenAPI 3, Swagger 2 (YAML and JSON) and
AsyncAPI 2 and 3 — as the service's APIs and channels, merged with what its code shows, and the
contract-drift gaps where the two disagree."""

from __future__ import annotations

from orbitkb.analysis.contracts.asyncapi import asyncapi_messages
from orbitkb.analysis.contracts.documents import kind_of, load
from orbitkb.analysis.contracts.merge import same_route
from orbitkb.analysis.contracts.openapi import openapi_apis

OPENAPI3 = """openapi: 3.0.3
info: {title: Ledger, version: "1"}
servers:
  - url: https://{host}/{base}
    variables:
      host: {default: ledger.local}
      base: {default: api/v2}
paths:
  /entries:
    get:
      operationId: listEntries
      summary: Every entry of the ledger
    post:
      operationId: addEntry
  /entries/{entryId}:
    parameters: [{name: entryId, in: path}]
    delete:
      description: Forget one entry
"""

SWAGGER_JSON = """{
  "swagger": "2.0",
  "basePath": "/quotes",
  "paths": {
    "/latest": {"get": {"operationId": "latest"}},
    "/{symbol}/history": {"get": {}, "x-internal": true}
  }
}
"""

# a key longer than YAML's 1024-character limit for simple keys: valid JSON, refused by YAML
LONG_KEY_JSON = '{"openapi": "3.1.0", "x-note": {"' + "k" * 1100 + '": 1},\n "paths": {"/ping": {"head": {}}}}'


def apis(path: str, text: str) -> list[tuple[str, str, str, int, str | None]]:
    root, error = load(text)
    assert error is None and root is not None
    return [(a.method, a.path, a.handler, a.start_line, a.doc) for a in openapi_apis(path, root)]


def test_openapi3_operations_under_the_server_prefix():
    assert kind_of("ledger/docs/openapi.yaml", OPENAPI3) == "openapi"
    assert apis("ledger/docs/openapi.yaml", OPENAPI3) == [
        ("GET", "/api/v2/entries", "listEntries", 10, "Every entry of the ledger"),
        ("POST", "/api/v2/entries", "addEntry", 13, None),
        ("DELETE", "/api/v2/entries/{entryId}", "DELETE /api/v2/entries/{entryId}", 17, "Forget one entry"),
    ]


def test_swagger2_json_under_its_base_path():
    assert kind_of("quotes/swagger.json", SWAGGER_JSON) == "openapi"
    assert apis("quotes/swagger.json", SWAGGER_JSON) == [
        ("GET", "/quotes/latest", "latest", 5, None),
        ("GET", "/quotes/{symbol}/history", "GET /quotes/{symbol}/history", 6, None),
    ]


def test_json_that_yaml_refuses_is_still_read():
    assert apis("a/openapi.json", LONG_KEY_JSON) == [("HEAD", "/ping", "HEAD /ping", 1, None)]


def test_what_is_not_a_service_document():
    assert kind_of("svc/config.yaml", "server:\n  port: 8080\n") is None
    assert kind_of("svc/openapi.md", OPENAPI3) is None
    assert kind_of("svc/clients/payments/openapi.yaml", OPENAPI3) is None  # someone else's API
    assert kind_of("svc/mocks/openapi.yaml", OPENAPI3) is None
    assert load("openapi: [unclosed\n")[0] is None


ASYNC2 = """asyncapi: 2.6.0
info: {title: Ledger events, version: "1"}
servers:
  prod: {url: "broker:9092", protocol: kafka-secure}
channels:
  ledger.entry-added:
    subscribe:
      message: {name: EntryAdded}
  quotes.updated:
    publish:
      message: {name: QuoteUpdated}
  audit/{day}:
    bindings: {amqp: {is: routingKey}}
    subscribe: {}
"""

ASYNC3 = """asyncapi: 3.0.0
info: {title: Ledger events, version: "1"}
servers:
  local: {host: "rabbit:5672", protocol: amqp}
channels:
  entryAdded:
    address: ledger.entry-added
  settle:
    address: null
operations:
  announceEntry:
    action: send
    channel: {$ref: '#/channels/entryAdded'}
  onSettle:
    action: receive
    channel: {$ref: '#/channels/settle'}
    bindings: {kafka: {groupId: ledger}}
  broken:
    action: send
    channel: {$ref: '#/channels/missing'}
"""


def messages(text: str) -> list[tuple[str, str | None, str, int]]:
    root, _ = load(text)
    assert root is not None
    return [(m.direction, m.channel.literal(), m.provider, m.line) for m in asyncapi_messages("l/asyncapi.yaml", root)]


def test_asyncapi2_subscribe_is_what_the_application_sends():
    assert kind_of("l/asyncapi.yaml", ASYNC2) == "asyncapi"
    assert messages(ASYNC2) == [
        ("publishes", "ledger.entry-added", "kafka", 7),
        ("consumes", "quotes.updated", "kafka", 10),
        ("publishes", "audit/{day}", "rabbitmq", 14),
    ]


def test_asyncapi3_send_and_receive_on_channel_addresses():
    assert messages(ASYNC3) == [
        ("publishes", "ledger.entry-added", "rabbitmq", 11),
        ("consumes", "settle", "kafka", 14),
    ]


def test_routes_match_across_parameter_spellings_and_prefixes():
    assert same_route("/entries/:id", "/entries/{entryId}")
    assert same_route("/api/v2/entries", "/entries")
    assert same_route("/entries/<int:pk>", "/api/entries/{id}")
    assert not same_route("/entries", "/quotes")
    assert not same_route("/a/b/c/entries", "/entries")
    assert not same_route("/", "/entries")


SERVICE = {
    "ledger/requirements.txt": "flask\n",
    "ledger/app.py": "# @entry\n# @api GET /api/v2/entries list_entries\n# @api GET /api/v2/health health\n",
    "ledger/docs/openapi.yaml": OPENAPI3,
    "ledger/asyncapi.yaml": ASYNC2,
    "ledger/worker.py": "# @msg publishes kafka lit:ledger.entry-added\n# @msg consumes kafka lit:ledger.replay\n",
}


def test_documents_fill_what_the_code_does_not_show_and_code_wins(analyze):
    run = analyze(SERVICE)
    ledger = run.service("ledger")
    assert sorted((a.method, a.path, a.file) for a in ledger.apis) == [
        ("DELETE", "/api/v2/entries/{entryId}", "ledger/docs/openapi.yaml"),
        ("GET", "/api/v2/entries", "ledger/app.py"),  # served and documented: the code's
        ("GET", "/api/v2/health", "ledger/app.py"),
        ("POST", "/api/v2/entries", "ledger/docs/openapi.yaml"),
    ]
    assert sorted((m.direction.value, m.channel, m.provider, m.evidence[0].file) for m in ledger.messages) == [
        ("consumes", "ledger.replay", "kafka", "ledger/worker.py"),
        ("consumes", "quotes.updated", "kafka", "ledger/asyncapi.yaml"),
        ("publishes", "audit/{day}", "rabbitmq", "ledger/asyncapi.yaml"),
        ("publishes", "ledger.entry-added", "kafka", "ledger/worker.py"),
    ]


def test_disagreements_are_contract_drift_gaps(analyze):
    run = analyze(SERVICE)
    drift = sorted((g.path, g.reason) for g in run.result.gaps if g.kind == "contract_drift")
    assert drift == [
        ("ledger/app.py", "GET /api/v2/health served at line 3 but not documented in ledger/asyncapi.yaml, "
                          "ledger/docs/openapi.yaml"),
        ("ledger/asyncapi.yaml", "consumes quotes.updated documented at line 10 but not seen in the code"),
        ("ledger/asyncapi.yaml", "publishes audit/{day} documented at line 14 but not seen in the code"),
        ("ledger/docs/openapi.yaml", "DELETE /api/v2/entries/{entryId} documented at line 17 but not served by the code"),
        ("ledger/docs/openapi.yaml", "POST /api/v2/entries documented at line 13 but not served by the code"),
        ("ledger/worker.py", "consumes ledger.replay at line 2 but not documented in ledger/asyncapi.yaml, "
                             "ledger/docs/openapi.yaml"),
    ]  # fmt: skip


def test_a_service_whose_code_shows_nothing_has_no_drift(analyze):
    files = {
        "quotes/requirements.txt": "flask\n",
        "quotes/app.py": "# @entry\n",
        "quotes/swagger.json": SWAGGER_JSON,
        "quotes/clients/ledger/openapi.yaml": OPENAPI3,
    }
    run = analyze(files)
    assert sorted((a.method, a.path) for a in run.service("quotes").apis) == [
        ("GET", "/quotes/latest"), ("GET", "/quotes/{symbol}/history"),
    ]
    assert run.gaps("contract_drift") == []


def test_an_unreadable_document_is_a_parse_gap(analyze):
    files = {"quotes/requirements.txt": "flask\n", "quotes/app.py": "# @entry\n",
             "quotes/openapi.yaml": "openapi: 3.0.0\npaths: {/x: [\n"}  # fmt: skip
    run = analyze(files)
    assert ("quotes/openapi.yaml", "parse_error") in run.gaps()


def test_drift_gaps_are_bounded_per_service(analyze):
    code = "# @entry\n" + "".join(f"# @api GET /served/{i} h{i}\n" for i in range(60))
    files = {"quotes/requirements.txt": "flask\n", "quotes/app.py": code, "quotes/swagger.json": SWAGGER_JSON}
    drift = [g.reason for g in analyze(files).result.gaps if g.kind == "contract_drift"]
    assert len(drift) == 51 and "12 more disagreements with quotes/swagger.json" in drift
