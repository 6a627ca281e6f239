"""catalog_mixed: interface-declared mappings, WebFlux routers, JAX-RS, @GrpcClient, @HttpExchange,
a file with a syntax error, and test sources that must not count."""

from __future__ import annotations

SVC = "catalog_mixed"
JERSEY = "/${server.servlet.context-path:}${server.context-path:}/${spring.jersey.application-path:}"


def test_apis(linked):
    facts = linked(SVC)
    got = [
        (a.method, a.path, a.handler, a.file.rsplit("/", 1)[-1], a.start_line, a.framework)
        for a in facts.apis
    ]
    assert got == [
        ("GET", "/broken", "Broken.ok", "Broken.java", 5, "spring-boot"),
        # mappings declared on the implemented interface, handlers in the controller
        (
            "GET",
            "/api/v1/products",
            "ProductsController.listProducts",
            "ProductsController.java",
            7,
            "spring-boot",
        ),
        (
            "POST",
            "/api/v1/products",
            "ProductsController.createProduct",
            "ProductsController.java",
            12,
            "spring-boot",
        ),
        # JAX-RS resources of a Spring Boot service: under its context path and Jersey's path
        ("GET", f"{JERSEY}/reviews", "ReviewsResource.all", "ReviewsResource.java", 7, "jax-rs"),
        (
            "POST",
            f"{JERSEY}/reviews/{{id}}/flag",
            "ReviewsResource.flag",
            "ReviewsResource.java",
            12,
            "jax-rs",
        ),
        ("GET", "/api/categories/{id}", "CategoryHandler.get", "RoutesConfig.java", 14, "spring-boot"),
        ("POST", "/api/categories", "CategoryHandler.create", "RoutesConfig.java", 15, "spring-boot"),
        ("GET", "/ping", "RoutesConfig.categoryRoutes", "RoutesConfig.java", 16, "spring-boot"),
        ("GET", "/legacy/items", "LegacyHandler.items", "RoutesConfig.java", 22, "spring-boot"),
        ("DELETE", "/legacy/items/{id}", "LegacyHandler.delete", "RoutesConfig.java", 23, "spring-boot"),
    ]
    docs = {a.handler: a.doc for a in facts.apis}
    assert docs["ProductsController.listProducts"] == "Lists products."


def test_declarative_clients(linked, show):
    facts = linked(SVC)
    got = [
        (c.kind, c.line, c.client, c.method, show(c.url), c.grpc_service, c.target_hint) for c in facts.calls
    ]
    assert got == [
        (
            "grpc",
            10,
            "grpc-spring-boot-starter",
            None,
            "${grpc.client.pricing.address}",
            "PricingService",
            "pricing",
        ),
        ("http", 15, "http-interface", "GET", "/api/stock/{sku}", None, None),
    ]


def test_broken_file_keeps_what_parses_and_tests_are_ignored(parsed_dir, linked, show):
    parsed = parsed_dir(SVC)
    broken = parsed["src/main/java/com/acme/catalog/Broken.java"]
    assert "error" not in broken
    assert any("syntax error" in w for w in broken["warnings"])
    facts = linked(SVC)
    assert not any("/test-only" in a.path for a in facts.apis)
    assert not any("localhost" in (show(c.url) or "") for c in facts.calls)
