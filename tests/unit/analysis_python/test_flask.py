"""Flask: app factory, blueprints with url_prefix (overridden at registration), nested
blueprints, Flask 2 verb decorators, MethodView through add_url_rule."""

from pyana_support import apis, calls, link_tree, parse_tree

SHOP = "flask_svc/shop"


def test_routes_with_blueprint_prefixes_and_class_views():
    assert apis(link_tree("flask_svc")) == [
        ("DELETE", "/catalog/products/<int:pid>", "product", f"{SHOP}/views/catalog.py", 17),
        ("GET", "/api/v2/orders", "OrderList.get", f"{SHOP}/api/v2.py", 17),
        ("GET", "/cart-view/<int:cart_id>", "CartView.get", f"{SHOP}/__init__.py", 15),
        ("GET", "/carts/<int:cart_id>/items", "cart_items", f"{SHOP}/views/carts.py", 18),
        ("GET", "/catalog/products", "products", f"{SHOP}/views/catalog.py", 10),
        ("GET", "/catalog/products/<int:pid>", "product", f"{SHOP}/views/catalog.py", 17),
        ("GET", "/status", "status", f"{SHOP}/__init__.py", 17),
        ("HEAD", "/status", "status", f"{SHOP}/__init__.py", 17),
        ("POST", "/api/v2/orders", "OrderList.post", f"{SHOP}/api/v2.py", 17),
        ("POST", "/catalog/products", "create_product", f"{SHOP}/views/catalog.py", 22),
        ("PUT", "/cart-view/<int:cart_id>", "CartView.put", f"{SHOP}/__init__.py", 15),
    ]


def test_components_docs_calls_and_entrypoints():
    facts = link_tree("flask_svc")
    comps = {(c.name, c.kind, c.doc) for c in facts.components}
    assert ("CartView", "class", "A shopping cart.") in comps
    assert ("shop", "module", "Shop application factory.") in comps
    assert {a.handler: a.doc for a in facts.apis}["CartView.put"] == "Replace the cart."
    assert {a.handler: a.component for a in facts.apis}["CartView.get"] == "CartView"
    assert calls(facts) == [
        (f"{SHOP}/views/catalog.py", 13, "http", "requests", "GET", "${PRICING_URL}/prices", "products", None)
    ]
    entry = sorted(p for p, d in parse_tree("flask_svc").items() if d.get("entrypoint"))
    assert entry == [f"{SHOP}/__init__.py", "flask_svc/wsgi.py"]
