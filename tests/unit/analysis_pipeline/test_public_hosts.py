"""Third parties reached by URL: a call whose host resolves to a public Internet name no vendor row
names is external, named by its registrable domain; an internal, private, reserved, test or
unresolved host never is."""

from __future__ import annotations

import pytest

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.integrations import classify_target, public_domain
from orbitkb.domain.model import ResourceType, TargetKind
from orbitkb.domain.ports import AnalysisRequest


@pytest.mark.parametrize(
    ("target", "domain"),
    [
        ("https://api.tidewatch-data.io/v3/levels", "tidewatch-data.io"),
        ("forecast.cloudbank.net:443", "cloudbank.net"),
        ("http://quotes.fxbureau.com/latest?base=EUR", "fxbureau.com"),
        ("https://geo.parcelmap.co.uk/lookup", "parcelmap.co.uk"),
        ("https://vantage.de/api", "vantage.de"),
        ("postcodes.example-registry.org", "example-registry.org"),
    ],
)
def test_a_public_host_no_vendor_names_is_external_by_its_registrable_domain(
    target: str, domain: str
) -> None:
    assert public_domain(target) == domain
    assert classify_target(target) == (TargetKind.EXTERNAL, ResourceType.OTHER, domain)


@pytest.mark.parametrize(
    "target",
    [
        "http://localhost:8080/api",
        "http://127.0.0.1:5000",
        "http://10.0.3.7/pay",
        "https://example.com/widgets",
        "https://api.example.org/v1",
        "http://billing.test/charge",
        "http://ledger.local:9000",
        "http://host.docker.internal:8000",
        "http://ledger.payments.svc.cluster.local",
        "http://orders.staging/api",
        "${RATES_URL}",
        "{string}/forecast",
        "(relative)",
        "helpers.js",
        "",
    ],
)
def test_private_reserved_test_and_unresolved_hosts_are_no_third_party(target: str) -> None:
    assert public_domain(target) is None
    kind, _, vendor = classify_target(target)
    assert kind is not TargetKind.EXTERNAL and vendor is None


@pytest.mark.parametrize("target", ["ledger-service", "http://inventory:5000/items", "payments-api"])
def test_service_names_stay_internal(target: str) -> None:
    assert classify_target(target)[0] is TargetKind.INTERNAL


def test_a_known_vendor_keeps_its_own_name() -> None:
    assert classify_target("https://api.stripe.com/v1/charges")[2] == "Stripe API"
    assert classify_target("https://graph.microsoft.com/v1.0/me")[2] == "Microsoft Graph"


FILES = {
    "docker-compose.yml": "services:\n  quotes:\n    build: ./quotes\n  tides:\n    build: ./tides\n"
    "  maps:\n    build: ./maps\n  ledger-service:\n    image: acme/ledger\n",
    "quotes/pom.xml": "<project><modelVersion>4.0.0</modelVersion><groupId>org.harbor</groupId>"
    "<artifactId>quotes</artifactId><version>1</version><dependencies><dependency>"
    "<groupId>org.springframework.cloud</groupId><artifactId>spring-cloud-starter-openfeign</artifactId>"
    "</dependency></dependencies></project>",
    "quotes/src/main/java/org/harbor/quotes/FxClient.java": """package org.harbor.quotes;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

@FeignClient(name = "fx", url = "${fx.endpoint}")
public interface FxClient {
    @GetMapping("/latest")
    String latest();
}
""",
    "quotes/src/main/java/org/harbor/quotes/LedgerClient.java": """package org.harbor.quotes;

import org.springframework.cloud.openfeign.FeignClient;
import org.springframework.web.bind.annotation.GetMapping;

@FeignClient(name = "ledger", url = "${ledger.endpoint}")
public interface LedgerClient {
    @GetMapping("/entries")
    String entries();
}
""",
    "quotes/src/main/resources/application.properties": "fx.endpoint=https://api.fxbureau.com/v2\n"
    "ledger.endpoint=http://ledger-service:8080\n",
    "tides/requirements.txt": "flask\nrequests\n",
    "tides/app.py": """import requests
from flask import Flask

# the levels format is described at https://docs.python.org/3/library/json.html
LEVELS_HOST = "https://api.tidewatch-data.io/v3"
SANDBOX = "https://sandbox.example.com/v3"

app = Flask(__name__)


@app.route("/levels")
def levels():
    requests.get(f"{SANDBOX}/ping")
    return requests.get(f"{LEVELS_HOST}/levels").json()
""",
    "maps/package.json": '{"name": "maps", "dependencies": {"axios": "^1.6.0", "express": "^4.18.0"}}',
    "maps/src/index.js": """const express = require('express');
const axios = require('axios');

const geo = axios.create({ baseURL: process.env.GEO_URL || 'https://lookup.parcelmap.co.uk' });
const people = axios.create({ baseURL: process.env.PEOPLE_URL });
const local = axios.create({ baseURL: 'http://localhost:4000' });

const app = express();
app.get('/places', async (req, res) => {
  const r = await geo.get('/v1/search');
  await people.get('/people');
  await local.get('/health');
  res.json(r.data);
});
app.listen(3000);
""",
}


def test_third_parties_reached_by_url_in_three_stacks_are_named_and_nothing_else() -> None:
    result = StaticCodeAnalyzer(workers=0).analyze(
        MemorySourceTree(FILES), AnalysisRequest("harbor"), DictAnalysisCache()
    )
    external = {
        (s.service.name, vendor)
        for s in result.services
        for c in s.calls
        if (vendor := classify_target(c.target)[2]) is not None
    }
    assert external == {
        ("quotes", "fxbureau.com"),
        ("tides", "tidewatch-data.io"),
        ("maps", "parcelmap.co.uk"),
    }
