"""Django: ROOT_URLCONF include chains (strings, modules, lists), function and class views,
generic views, DRF routers with viewset actions, mixins and @action extras; models."""

from pyana_support import apis, link_tree, parse_tree

URLS = "django_svc/billing/urls.py"


def test_urlconf_walk_from_root_urlconf():
    assert apis(link_tree("django_svc")) == [
        ("ANY", "/catalog/misc", "anything", "django_svc/catalog/views.py", 28),
        ("DELETE", "/api/invoices/<number>", "InvoiceViewSet.destroy", URLS, 7),
        ("DELETE", "/api/refunds/<pk>", "RefundView.delete", URLS, 12),
        ("GET", "/api/invoices", "InvoiceViewSet.list", URLS, 7),
        ("GET", "/api/invoices/<number>", "InvoiceViewSet.retrieve", URLS, 7),
        ("GET", "/api/invoices/overdue", "InvoiceViewSet.overdue", URLS, 7),
        ("GET", "/api/payments", "PaymentViewSet.list", URLS, 8),
        ("GET", "/api/payments/<pk>", "PaymentViewSet.retrieve", URLS, 8),
        ("GET", "/api/refunds/<pk>", "RefundView.get", URLS, 12),
        ("GET", "/api/reports", "ReportList.get", URLS, 13),
        ("GET", "/api/summary", "summary", URLS, 11),
        ("GET", "/catalog/products/<slug:slug>", "ProductDetail.get", "django_svc/catalog/views.py", 27),
        ("GET", "/legacy/ping", "ping", "django_svc/config/urls.py", 9),
        ("PATCH", "/api/invoices/<number>", "InvoiceViewSet.partial_update", URLS, 7),
        ("POST", "/api/invoices", "InvoiceViewSet.create", URLS, 7),
        ("POST", "/api/invoices/<number>/send-reminder", "InvoiceViewSet.remind", URLS, 7),
        ("POST", "/api/reports", "ReportList.post", URLS, 13),
        ("POST", "/api/summary", "summary", URLS, 11),
        ("POST", "/catalog/import", "import_products", "django_svc/catalog/views.py", 26),
        ("PUT", "/api/invoices/<number>", "InvoiceViewSet.update", URLS, 7),
    ]


def test_docs_and_components_point_at_the_views():
    facts = link_tree("django_svc")
    docs = {a.handler: a.doc for a in facts.apis}
    assert docs["summary"] == "Billing summary."
    assert docs["InvoiceViewSet.remind"] == "Send a reminder."
    assert docs["InvoiceViewSet.overdue"] is None
    assert docs["InvoiceViewSet.list"] == "Invoices."  # inherited action: the viewset's own doc
    comps = {(c.name, c.file, c.kind) for c in facts.components}
    assert ("InvoiceViewSet", "django_svc/billing/views.py", "class") in comps
    assert ("views", "django_svc/catalog/views.py", "module") in comps
    assert facts.framework == "django"


def test_models_use_the_table_name_the_database_sees():
    ents = [
        (e.name, e.class_name, e.file, e.start_line, e.fields, e.engine_hint)
        for e in link_tree("django_svc").entities
    ]
    assert ents == [
        (
            "billing_invoice",
            "Invoice",
            "django_svc/billing/models/invoice.py",
            11,
            (
                ("created", "DateTimeField", False, False),
                ("number", "CharField", False, True),
                ("customer", "ForeignKey", False, False),
                ("paid_at", "DateTimeField", True, False),
            ),
            "postgres",
        ),
        (
            "payments",
            "Payment",
            "django_svc/billing/models/invoice.py",
            18,
            (("amount", "DecimalField", False, False),),
            "postgres",
        ),
        (
            "catalog_customer",
            "Customer",
            "django_svc/catalog/models.py",
            4,
            (("email", "EmailField", False, False),),
            "postgres",
        ),
        (
            "shop_tag",
            "Tag",
            "django_svc/catalog/models.py",
            8,
            (("name", "CharField", False, False),),
            "postgres",
        ),
    ]


def test_manage_py_is_the_entry_point():
    assert sorted(p for p, d in parse_tree("django_svc").items() if d.get("entrypoint")) == [
        "django_svc/manage.py"
    ]
