"""Kotlin Spring fixtures (shipping_kt): annotation arrays, templates, companion/top-level
constants, RestClient/WebClient with injected base URLs, coRouter, Rabbit/Kafka, MongoDB."""

from __future__ import annotations

SVC = "shipping_kt"


def test_http_apis(linked):
    facts = linked(SVC)
    got = [
        (a.method, a.path, a.handler, a.file.rsplit("/", 1)[-1], a.start_line)
        for a in facts.apis
        if a.kind == "http"
    ]
    assert got == [
        ("GET", "/api/tracking/{id}", "TrackingHandler.get", "Config.kt", 18),
        ("POST", "/api/tracking", "TrackingHandler.create", "Config.kt", 19),
        ("GET", "/health", "Config.trackingRoutes", "Config.kt", 21),
        ("GET", "/api/shipments/by-id/{id}", "ShipmentController.get", "ShipmentController.kt", 15),
        ("GET", "/api/shipments/{id}", "ShipmentController.get", "ShipmentController.kt", 15),
        ("POST", "/api/shipments/{id}/events", "ShipmentController.addEvent", "ShipmentController.kt", 18),
        ("PATCH", "/api/shipments/legacy", "ShipmentController.legacy", "ShipmentController.kt", 25),
        ("PUT", "/api/shipments/legacy", "ShipmentController.legacy", "ShipmentController.kt", 25),
        ("DELETE", "/api/shipments/{id}", "ShipmentController.delete", "ShipmentController.kt", 28),
    ]
    docs = {a.handler: a.doc for a in facts.apis}
    assert docs["ShipmentController.get"] == "One shipment."


def test_listeners(linked, show):
    facts = linked(SVC)
    got = [(a.path, a.handler, a.provider, a.start_line) for a in facts.apis if a.kind == "message"]
    assert got == [
        ("shipping.requests", "ShippingListeners.onRequest", "rabbitmq", 9),
        ("${topics.returns}", "ShippingListeners.onReturn", "kafka", 14),
        ("returns.legacy", "ShippingListeners.onReturn", "kafka", 14),
    ]


def test_calls_with_injected_and_built_base_urls(linked, show):
    facts = linked(SVC)
    got = [
        (c.file.rsplit("/", 1)[-1], c.line, c.client, c.method, show(c.url), c.api_handler)
        for c in facts.calls
    ]
    assert got == [
        ("AccountsClient.kt", 13, "RestClient", "GET", "${accounts.base-url}/api/users/{id}/addresses",
         "ShipmentController.addEvent"),
        ("ShipmentService.kt", 22, "WebClient", "POST", "${orders.url:http://orders:8080}/api/orders/<event.orderId>/shipped",
         "ShipmentController.addEvent"),
        ("ShipmentService.kt", 22, "WebClient", "POST", "${orders.url:http://orders:8080}/api/orders/<event.orderId>/shipped",
         "ShippingListeners.onRequest"),
    ]  # fmt: skip


def test_publishers_reached_from_two_handlers(linked, show):
    facts = linked(SVC)
    got = [
        (show(m.channel), m.provider, m.line, m.api_handler)
        for m in facts.messages
        if m.direction == "publishes"
    ]
    assert got == [
        ("notifications.email", "rabbitmq", 20, "ShipmentController.addEvent"),
        ("notifications.email", "rabbitmq", 20, "ShippingListeners.onRequest"),
        ("$SHIPMENT_TOPIC|shipments.recorded", "kafka", 21, "ShipmentController.addEvent"),
        ("$SHIPMENT_TOPIC|shipments.recorded", "kafka", 21, "ShippingListeners.onRequest"),
    ]


def test_documents(linked):
    facts = linked(SVC)
    got = [(e.name, e.kind, e.class_name, e.start_line, e.engine_hint, e.fields) for e in facts.entities]
    assert got == [
        (
            "shipments", "document_collection", "Shipment", 8, "mongodb",
            (
                ("id", "String?", False, True),
                ("orderId", "Long", False, False),
                ("carrier", "String?", True, False),
                ("events", "List<TrackingEvent>", False, False),
            ),
        ),
        ("carrier", "document_collection", "Carrier", 20, "mongodb",
         (("code", "String", False, True), ("name", "String", False, False))),
    ]  # fmt: skip


def test_kotlin_main_is_entrypoint(parsed_dir):
    parsed = parsed_dir(SVC)
    assert [p for p, d in parsed.items() if d.get("entrypoint")] == [
        "src/main/kotlin/com/acme/shipping/ShippingApplication.kt"
    ]
