"""Java Spring fixtures (orders_java): controllers, Feign, RestTemplate, gRPC, messaging, JPA."""

from __future__ import annotations

SVC = "orders_java"
API = "src/main/java/com/acme/orders/api/"
CLIENTS = "src/main/java/com/acme/orders/clients/"
MSG = "src/main/java/com/acme/orders/messaging/"


def test_http_apis_compose_class_and_method_mappings(linked):
    facts = linked(SVC)
    got = [
        (a.method, a.path, a.handler, a.file.rsplit("/", 1)[-1], a.start_line)
        for a in facts.apis
        if a.kind == "http"
    ]
    assert got == [
        ("PATCH", "/admin/orders/{id}", "AdminController.patch", "AdminController.java", 8),
        ("GET", "/admin", "AdminController.home", "AdminController.java", 14),
        ("GET", "/admin/home", "AdminController.home", "AdminController.java", 14),
        ("GET", "/api/orders", "OrderController.list", "OrderController.java", 28),
        ("GET", "/api/orders/by-id/{id}", "OrderController.get", "OrderController.java", 33),
        ("GET", "/api/orders/{id}", "OrderController.get", "OrderController.java", 33),
        ("POST", "/api/orders", "OrderController.create", "OrderController.java", 39),
        ("GET", "/api/orders/search", "OrderController.search", "OrderController.java", 46),
        ("POST", "/api/orders/search", "OrderController.search", "OrderController.java", 46),
        ("ANY", "/api/orders/legacy", "OrderController.legacy", "OrderController.java", 51),
        ("PUT", "/api/orders/{id}/items", "OrderController.items", "OrderController.java", 54),
        ("DELETE", "/api/orders/v2/{id}", "OrderController.delete", "OrderController.java", 57),
    ]


def test_docs_are_javadoc_verbatim(linked):
    facts = linked(SVC)
    docs = {a.handler: a.doc for a in facts.apis}
    assert docs["OrderController.list"] == "Lists orders."
    assert docs["OrderController.get"] is None
    comp = {c.name: c for c in facts.components}
    assert comp["OrderController"].doc == "Orders endpoints.\nPrices are checked by the catalog."
    assert comp["PaymentsClient"].doc == "Payments, through Feign."


def test_grpc_implementation_and_rpc_apis(linked):
    facts = linked(SVC)
    assert facts.grpc_implements == ("PricingService",)
    got = [(a.method, a.path, a.handler, a.start_line, a.kind) for a in facts.apis if a.kind == "grpc"]
    assert got == [
        ("RPC", "PricingService/Quote", "PricingGrpcService.quote", 9, "grpc"),
        ("RPC", "PricingService/BulkQuote", "PricingGrpcService.bulkQuote", 14, "grpc"),
    ]


def test_listeners_are_message_apis_and_consumes(linked, show):
    facts = linked(SVC)
    got = [(a.path, a.handler, a.provider, a.start_line) for a in facts.apis if a.kind == "message"]
    assert got == [
        ("${topics.refunds}", "Listeners.onPayment", "kafka", 8),
        ("payments.completed", "Listeners.onPayment", "kafka", 8),
        ("orders.returns", "Listeners.onReturn", "rabbitmq", 11),
        ("audit.exchange", "Listeners.onAudit", "rabbitmq", 14),
        ("legacy.orders", "Listeners.onLegacy", "jms", 17),
    ]
    consumes = [(show(m.channel), m.provider, m.line) for m in facts.messages if m.direction == "consumes"]
    assert consumes == [
        ("payments.completed", "kafka", 8),
        ("${topics.refunds}", "kafka", 8),
        ("orders.returns", "rabbitmq", 11),
        ("audit.exchange", "rabbitmq", 14),
        ("legacy.orders", "jms", 17),
    ]


def test_publishers_fold_constants_records_and_bindings(linked, show):
    facts = linked(SVC)
    got = [
        (show(m.channel), m.provider, m.client, m.line) for m in facts.messages if m.direction == "publishes"
    ]
    assert got == [
        ("orders.created", "kafka", "KafkaTemplate", 20),
        ("orders.cancelled", "kafka", "KafkaTemplate", 25),
        ("shipping.requests", "rabbitmq", "RabbitTemplate", 29),
        ("orders.exchange", "rabbitmq", "RabbitTemplate", 30),
        ("${spring.cloud.stream.bindings.audit-out-0.destination:audit-out-0}", "stream", "StreamBridge", 34),
    ]


def test_outbound_calls(linked, show):
    facts = linked(SVC)
    got = [
        (
            c.file.rsplit("/", 1)[-1],
            c.line,
            c.kind,
            c.client,
            c.method,
            show(c.url),
            c.target_hint,
            c.grpc_service,
            c.api_handler,
        )
        for c in facts.calls
    ]
    assert got == [
        ("OrderController.java", 61, "http", "RestTemplate", "POST", "http://shipping-service/api/shipments",
         "shipping-service", None, "OrderController.create"),
        ("CatalogClient.java", 21, "http", "RestTemplate", "GET", "${catalog.url:http://catalog:8000}/api/v1/prices/<sku>",
         None, None, None),
        ("CatalogClient.java", 25, "http", "RestTemplate", "PUT", "${catalog.url:http://catalog:8000}/api/v1/products/<id>",
         None, None, None),
        ("CatalogClient.java", 33, "http", "RestTemplate", "POST", "$AUTH_URL/token", None, None, None),
        ("InventoryGrpcClient.java", 12, "grpc", "grpc-stub", None, "${inventory.host}:${inventory.port:9090}",
         None, "InventoryService", None),
        ("LedgerClient.java", 8, "http", "feign", "POST", "http://ledger-service/entries", "ledger-service", None, None),
        ("PaymentsClient.java", 9, "http", "feign", "POST", "${payments.url}/api/payments", "payments", None,
         "OrderController.create"),
        ("PaymentsClient.java", 12, "http", "feign", "GET", "${payments.url}/api/payments/{id}", "payments", None, None),
        ("StockService.java", 14, "http", "wrapper:getJson", "GET", "http://inventory:8080/api/stock/<sku>", "inventory",
         None, None),
    ]  # fmt: skip


def test_entities_tables_fields_and_repositories(linked):
    facts = linked(SVC)
    got = [(e.name, e.kind, e.class_name, e.start_line, e.framework, e.fields) for e in facts.entities]
    assert got == [
        (
            "orders", "sql_table", "Order", 7, "jpa",
            (
                ("id", "Long", False, True),
                ("createdAt", "Instant", False, False),
                ("status", "String", False, False),
                ("note", "String", None, False),
                ("totalCents", "long", False, False),
                ("lines", "List<OrderLine>", None, False),
            ),
        ),
        (
            "order_line", "sql_table", "OrderLine", 6, "jpa",
            (("id", "Long", False, True), ("order", "Order", False, False), ("sku", "String", True, False)),
        ),
        ("audit_entry", "sql_table", "AuditEntry", 7, "spring-data-jpa", ()),
    ]  # fmt: skip
    assert all(e.engine_hint is None for e in facts.entities)


def test_entrypoint_and_components(linked, parsed_dir):
    parsed = parsed_dir(SVC)
    assert [p for p, d in parsed.items() if d.get("entrypoint")] == [
        "src/main/java/com/acme/orders/OrdersApplication.java"
    ]
    facts = linked(SVC)
    assert facts.framework == "spring-boot"
    assert [c.name for c in facts.components] == [
        "AdminController", "OrderController", "CatalogClient", "InventoryGrpcClient", "LedgerClient",
        "PaymentsClient", "StockService", "PricingGrpcService", "Listeners", "OrderEvents",
    ]  # fmt: skip
    assert facts.gaps == ()
