"""FastAPI: decorators on any router name, include_router prefixes across modules, mounts."""

from pyana_support import apis, calls, link_tree, messages, parse_tree

SVC = "fastapi_svc/src/orders"


def test_routes_compose_settings_prefix_router_prefix_and_include_prefix():
    assert apis(link_tree("fastapi_svc")) == [
        ("GET", "/api/v1/health", "ping", f"{SVC}/api/routes/health.py", 6),
        ("GET", "/api/v1/orders", "list_orders", f"{SVC}/api/routes/orders.py", 11),
        ("GET", "/api/v1/orders/{order_id}", "get_order", f"{SVC}/api/routes/orders.py", 33),
        ("GET", "/healthz", "healthz", f"{SVC}/main.py", 13),
        ("POST", "/api/v1/orders", "create_order", f"{SVC}/api/routes/orders.py", 20),
        ("POST", "/api/v1/orders/{order_id}/cancel", "cancel_order", f"{SVC}/api/routes/orders.py", 38),
        ("PUT", "/api/v1/orders/{order_id}/cancel", "cancel_order", f"{SVC}/api/routes/orders.py", 38),
    ]


def test_docstrings_components_and_entrypoint():
    facts = link_tree("fastapi_svc")
    docs = {a.handler: a.doc for a in facts.apis}
    assert docs["list_orders"] == "List every order.\n\nPaginated."
    assert docs["ping"] == "Liveness probe."
    assert docs["get_order"] is None
    assert {a.handler: a.component for a in facts.apis}["healthz"] == "main"
    assert [(c.name, c.kind, c.doc) for c in facts.components if c.name == "main"] == [
        ("main", "module", "Orders service entry point.")
    ]
    assert facts.framework == "fastapi"
    entry = sorted(p for p, d in parse_tree("fastapi_svc").items() if d.get("entrypoint"))
    assert entry == [f"{SVC}/main.py"]


def test_calls_through_wrappers_and_depends_client_are_attributed_to_the_handler():
    assert calls(link_tree("fastapi_svc")) == [
        (
            f"{SVC}/api/routes/orders.py",
            23,
            "http",
            "wrapper:get_json",
            "GET",
            "${INVENTORY_URL:http://inventory:8080}/stock/<body[sku]>",
            "create_order",
            None,
        ),
        (
            f"{SVC}/api/routes/orders.py",
            24,
            "http",
            "wrapper:PaymentsClient.charge",
            "POST",
            "${PAYMENTS_URL:http://payments:8000}/charges",
            "create_order",
            None,
        ),
    ]


def test_topic_from_imported_constant_reached_one_hop_from_handler():
    assert messages(link_tree("fastapi_svc")) == [
        (f"{SVC}/events.py", 9, "publishes", "kafka", "${TOPIC_PREFIX:shop}.order.created", "create_order"),
    ]


def test_flat_layout_loop_include_mount_add_api_route_and_nested_router():
    facts = link_tree("fastapi_flat")
    assert apis(facts) == [
        ("DELETE", "/admin/cache", "flush_cache", "fastapi_flat/app/main.py", 25),
        ("GET", "/api/items/{item_id}", "read_item", "fastapi_flat/app/routers/items.py", 11),
        ("GET", "/api/users/{user_id}", "get_user", "fastapi_flat/app/routers/users.py", 18),
        ("GET", "/version", "version", "fastapi_flat/app/main.py", 35),
        ("POST", "/api/items/{item_id}/reviews", "add_review", "fastapi_flat/app/routers/items.py", 18),
    ]
    assert {a.handler: a.doc for a in facts.apis}["flush_cache"] == "Drop every cached entry."


def test_flat_layout_grpc_stub_and_session_wrapper_class():
    assert calls(link_tree("fastapi_flat")) == [
        (
            "fastapi_flat/app/routers/items.py",
            15,
            "grpc",
            "grpc-stub",
            "GetPrice",
            "pricing:50051",
            "read_item",
            "Pricing",
        ),
        (
            "fastapi_flat/app/routers/users.py",
            20,
            "http",
            "wrapper:UsersApi.fetch",
            "GET",
            "http://users-svc/users/<user_id>",
            "get_user",
            None,
        ),
    ]
