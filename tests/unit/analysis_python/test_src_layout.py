"""A src/ layout service (fixtures/ledger_src_svc) whose constants live in a module imported in
every style, and parse results reused across files with the same text (the pipeline caches
parse() by content hash, so a ``topics.py`` copied between services is parsed once)."""

from __future__ import annotations

import json

from pyana_support import FIXTURES, apis, link_tree, messages, parse_tree

from orbitkb.analysis.facts import ServiceContext
from orbitkb.analysis.python import ANALYZER
from orbitkb.analysis.python.rebase import rebase

SVC = "ledger_src_svc"
EV = f"{SVC}/src/ledger_api/events/"
ROUTES = f"{SVC}/src/ledger_api/routes/entries.py"

MESSAGES = [
    (EV + "audit.py", 13, "consumes", "rabbitmq", "${LEDGER_AUDIT_QUEUE:ledger-audit}", None),
    (EV + "audit.py", 17, "publishes", "redis", "ledger.notify", None),
    (EV + "consumer.py", 11, "consumes", "kafka", "ledger.entry.posted", None),
    (EV + "publisher.py", 13, "publishes", "rabbitmq", "ledger.entry.voided", "void_entry"),
    (EV + "relay.py", 11, "publishes", "kafka", "ledger.entry.posted", None),
]
APIS = [
    ("GET", "/ledger/v1/entries", "list_entries", ROUTES, 9),
    ("POST", "/ledger/v1/entries/<entry_id>/void", "void_entry", ROUTES, 14),
]


def test_constants_fold_through_every_import_style():
    facts = link_tree(SVC)
    assert messages(facts) == MESSAGES
    assert apis(facts) == APIS
    assert facts.gaps == ()


def _link_with_twins(twins: dict[str, str]) -> object:
    """Link the fixture with some files' parse results taken from a same-text file elsewhere."""
    parsed = parse_tree(SVC)
    for path, elsewhere in twins.items():
        text = (FIXTURES / path).read_text(encoding="utf-8")
        parsed[path] = json.loads(json.dumps(ANALYZER.parse(elsewhere, text)))
    return ANALYZER.link(ServiceContext(SVC, SVC, "python", "fixtures"), parsed)


def test_a_constants_module_parsed_under_another_service_still_folds():
    facts = _link_with_twins(
        {
            EV + "topics.py": "billing/billing-service/app/events/topics.py",  # other depth, no src/
            EV + "__init__.py": "x/__init__.py",
        }
    )
    assert messages(facts) == MESSAGES


def test_relative_imports_and_callers_parsed_under_another_path_still_fold():
    facts = _link_with_twins(
        {
            EV + "audit.py": "a/b/c/d/events/audit.py",  # relative imports, deeper
            EV + "publisher.py": "publisher.py",  # absolute import, at a repository root
            ROUTES: "svc2/src/ledger_api/routes/entries.py",
            f"{SVC}/src/ledger_api/routes/__init__.py": "r/__init__.py",
        }
    )
    assert messages(facts) == MESSAGES
    assert apis(facts) == APIS


def test_django_urlconf_parsed_under_another_path_keeps_its_own_positions():
    urls = "django_svc/billing/urls.py"
    parsed = parse_tree("django_svc")
    text = (FIXTURES / urls).read_text(encoding="utf-8")
    parsed[urls] = json.loads(json.dumps(ANALYZER.parse("shop/billing/urls.py", text)))
    facts = ANALYZER.link(ServiceContext("django_svc", "django_svc", "python", "fixtures"), parsed)
    assert apis(facts) == apis(link_tree("django_svc"))
    assert ("GET", "/api/summary", "summary", urls, 11) in apis(facts)


def test_rebase_rewrites_names_never_literal_values():
    src = 'import os\nTOPIC = "fraud.payment.deleted"\nNAME = os.getenv("FRAUD_TOPIC", "fraud.app")\n'
    data = json.loads(json.dumps(ANALYZER.parse("fraud/app/events/topics.py", src)))
    moved = rebase("promo/src/promo/events/topics.py", data)
    assert moved["module"] == "promo.src.promo.events.topics"
    assert moved == json.loads(json.dumps(ANALYZER.parse("promo/src/promo/events/topics.py", src)))
    assert "fraud.payment.deleted" in json.dumps(moved)
    assert rebase("fraud/app/events/topics.py", data) is data  # its own path: untouched, no copy
