"""Offline descriptions are prose about what the service does, or the facts summary: a README's
build instructions, shell commands, code fences or raw configuration never become one."""

from __future__ import annotations

import pytest

from orbitkb.analysis.ownership import readme_index, readme_paragraph
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Service, ServiceFacts
from orbitkb.domain.prose import is_prose
from orbitkb.domain.summaries import describe_from_facts

DOTNET_TEMPLATE = """\
# Orders.Api

Run the following command to restore dependencies:

```
dotnet restore
dotnet build
```

Then start it with `dotnet run` and open http://localhost:5000/swagger in your browser.

The orders API keeps customer orders and their lines, and tells billing when one is placed.
"""
CREATE_REACT_APP = """\
This project was bootstrapped with [Create React App](https://github.com/facebook/create-react-app).

## Available Scripts

In the project directory, you can run:

### `npm start`

Runs the app in the development mode.
"""
NGINX_RAW = """\
worker_processes 1;
events { worker_connections 1024; }

http {
    server {
        listen 80;
        location /api/ { proxy_pass http://backend:8080; }
    }
}
"""
SHELL_ONLY = """\
# payments

    $ npm install
    $ npm run start:dev

- `make build`
- `make run`
"""
BADGES_THEN_PROSE = """\
[![CI](https://ci/badge.svg)](https://ci) ![coverage](https://cov.svg)

Catalog service for the shop: serves products, categories and prices to the storefront, see the
[API docs](https://docs/catalog).
"""
RST_TITLE = """\
Payments
========

Authorizes card payments through Stripe and refunds them on request.
"""
YAML_CONFIG = """\
server:
  port: 8080
spring:
  application:
    name: gateway
"""


@pytest.mark.parametrize("readme,expected", [
    (DOTNET_TEMPLATE, "The orders API keeps customer orders and their lines, and tells billing when one is placed."),
    (CREATE_REACT_APP, None),
    (NGINX_RAW, None),
    (SHELL_ONLY, None),
    (YAML_CONFIG, None),
    (BADGES_THEN_PROSE, "Catalog service for the shop: serves products, categories and prices to the storefront, see the\n"
                        "[API docs](https://docs/catalog)."),
    (RST_TITLE, "Authorizes card payments through Stripe and refunds them on request."),
])  # fmt: skip
def test_the_readme_paragraph_kept_is_the_first_prose_one_or_none(readme: str, expected: str | None) -> None:
    texts = {"svc/README.md": readme}
    found = readme_paragraph("svc", texts, readme_index(texts))
    assert (found[1] if found else None) == expected


@pytest.mark.parametrize("text", [
    "Run the following command to restore dependencies:",
    "To run it locally: docker compose up --build, then visit localhost:8080.",
    "server {\n    listen 80;\n    proxy_pass http://app:8080;\n}",
    "PORT=8080\nDATABASE_URL=postgres://db/orders",
    "```bash\nmake build\n```",
    "npm install && npm start",
    "See docs/ for more.",
])  # fmt: skip
def test_noise_is_not_prose(text: str) -> None:
    assert not is_prose(text)


@pytest.mark.parametrize("text", [
    "Handles payments: authorizes cards through Stripe and refunds them.",
    "The public entry point (folder `gateway`, deployed as `api-gateway`): routes traffic by URL prefix.",
    "Open banking gateway for the shop: reads account balances.",
    "Payments service, charging cards with [Stripe](https://stripe.com).",
])  # fmt: skip
def test_descriptions_are_prose(text: str) -> None:
    assert is_prose(text)


def _described(readme: str | None) -> Service:
    sid = service_id("shop", "orders")
    return describe_from_facts(ServiceFacts(Service(sid, "orders", "shop", "orders", "dotnet", readme=readme))).service


def test_a_readme_made_of_instructions_or_config_never_becomes_the_short_description() -> None:
    for noise in ("Run the following command to restore dependencies:\n\n    dotnet restore", NGINX_RAW):
        svc = _described(noise)
        assert svc.short_desc == "dotnet service."
        assert "restore" not in (svc.long_desc or "") and "listen" not in (svc.long_desc or "")
    svc = _described("Keeps customer orders and their lines. Built with ASP.NET.")
    assert svc.short_desc == "Keeps customer orders and their lines."
