"""Vendors a service's configuration names become external calls: a vendor host in a value (a
mail relay, a webhook URL, an API base URL) or a vendor credential key — never an e-mail address,
an internal host, or a vendor word without a credential word."""

from __future__ import annotations

import pytest

from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.vendors.settings import (
    HOST_NOTE,
    KEY_NOTE,
    configured_vendors,
    vendor_of_key,
    vendor_of_value,
)


@pytest.mark.parametrize(
    ("key", "vendor"),
    [
        ("STRIPE_SECRET_KEY", "Stripe API"),  # env, upper snake
        ("stripe.secret-key", "Stripe API"),  # Spring property, kebab
        ("payments.stripe.apiKey", None),  # the vendor word must lead the key
        ("Stripe:ApiKey", "Stripe API"),  # .NET section
        ("twilioAuthToken", "Twilio"),  # camel case
        ("TWILIO_ACCOUNT_SID", "Twilio"),
        ("OPENAI_API_KEY", "OpenAI API"),
        ("GOOGLE_MAPS_API_KEY", "Google Maps"),  # a two-word prefix
        ("AZURE_OPENAI_KEY", "Azure OpenAI"),  # the longest prefix wins
        ("SENTRY_DSN", "Sentry"),
        ("SLACK_WEBHOOK_URL", "Slack"),
        ("STRIPE_CURRENCY", None),  # no credential word
        ("STRIPE", None),
        ("AWS_REGION", None),
        ("GOOGLE_CLOUD_PROJECT", None),  # "google" alone is no vendor prefix
        ("MONKEY_API_KEY", None),
        ("DATABASE_PASSWORD", None),
    ],
)
def test_vendor_of_key(key, vendor):
    assert vendor_of_key(key) == vendor


@pytest.mark.parametrize(
    ("value", "vendor"),
    [
        ("smtp.gmail.com", "Gmail"),  # a bare mail relay
        ("smtp.sendgrid.net:587", "SendGrid"),
        ("smtp.mailtrap.io", None),  # a development mail sink (the Laravel skeleton's .env.example), like mailpit
        ("https://hooks.slack.com/services/T0/B0/x", "Slack"),
        ("'https://api.openai.com/v1'", "OpenAI API"),  # quoted
        ("https://my-bucket.s3.amazonaws.com", "AWS S3"),
        ("no-reply@gmail.com", None),  # a sender address, not a call
        ("http://orders-service:8080", None),  # internal
        ("https://example.org/api", None),  # not a vendor
        ("${MAIL_HOST}", None),
        ("gmail", None),  # a word, not a host
        ("use smtp.gmail.com here", None),  # prose
    ],
)
def test_vendor_of_value(value, vendor):
    assert vendor_of_value(value) == vendor


def test_configured_vendors_first_evidence_per_vendor_and_reason():
    values = [
        ConfigValue("STRIPE_SECRET_KEY", "sk_test_x", "docker-compose.yml", 12, "docker-compose"),
        ConfigValue("STRIPE_WEBHOOK_SECRET", "", "docker-compose.yml", 13, "docker-compose"),
        ConfigValue("STRIPE_API_BASE", "https://api.stripe.com", "pay/.env", 2, "dotenv"),
        ConfigValue("MAIL_FROM", "shop@gmail.com", "pay/.env", 3, "dotenv"),
        ConfigValue("TWILIO_AUTH_TOKEN", "", "pay/.env", 4, "dotenv"),  # left empty: boilerplate
        ConfigValue("SENDGRID_API_KEY", "null", "pay/.env.example", 1, "dotenv"),
        ConfigValue(
            "SENTRY_DSN", "https://k@o1.ingest.sentry.io/1", "docker-compose.tests.yml", 3, "docker-compose"
        ),
        ConfigValue("SLACK_TOKEN", "xoxb-1", "pay/test.env", 1, "dotenv"),
        ConfigValue("AzureStorageAccountKey", "${STORAGE_KEY}", "docker-compose.yml", 9, "docker-compose"),
        ConfigValue("stripe.api-key", "${STRIPE_KEY:}", "pay/application.yml", 4, "spring"),
    ]
    got = [(c.vendor, c.why, c.key, c.file, c.line) for c in configured_vendors(values)]
    assert got == [
        ("Stripe API", HOST_NOTE, "STRIPE_API_BASE", "pay/.env", 2),
        ("Stripe API", KEY_NOTE, "STRIPE_SECRET_KEY", "docker-compose.yml", 12),
    ]


COMPOSE = """services:
  payments:
    build: ./payments
    environment:
      - STRIPE_SECRET_KEY=sk_test_change_me
      - TWILIO_AUTH_TOKEN=${TWILIO_AUTH_TOKEN}
      - STRIPE_CURRENCY=usd
      - ORDERS_URL=http://orders:8000
  notify:
    build: ./notify
    environment:
      SMTP_HOST: smtp.sendgrid.net
      SMTP_FROM: alerts@gmail.com
  orders:
    build: ./orders
    environment:
      SMTP_HOST: mailhog
      NOTIFY_FALLBACK_TO: someone@gmail.com
"""


def vendor_calls(run, name: str) -> list[tuple]:
    return sorted(
        (c.target, c.target_kind.value, [(e.file, e.start_line, e.note) for e in c.evidence])
        for c in run.service(name).calls
        if c.target_kind.value == "external"
    )


def test_compose_environment_names_vendors(analyze):
    run = analyze(
        {
            "docker-compose.yml": COMPOSE,
            **{f"{name}/main.py": "# @entry\n" for name in ("payments", "notify", "orders")},
            **{f"{name}/requirements.txt": "fastapi\n" for name in ("payments", "notify", "orders")},
            "requirements.txt": "stripe==9.0\n",  # shared by the three: attributes nothing by itself
        }
    )
    f = "docker-compose.yml"
    assert vendor_calls(run, "payments") == [
        ("Stripe API", "external", [(f, 5, "configured credential STRIPE_SECRET_KEY")])
    ]
    assert vendor_calls(run, "notify") == [("SendGrid", "external", [(f, 12, "configured host SMTP_HOST")])]
    assert vendor_calls(run, "orders") == []  # a local mail catcher and an address are no vendor


def test_spring_properties_and_dotenv_name_vendors(analyze):
    run = analyze(
        {
            "mailer/pom.xml": "<project><artifactId>mailer</artifactId></project>",
            "mailer/src/main/java/App.java": "// @entry\n",
            "mailer/src/main/resources/application.yml": (
                "spring:\n  mail:\n    host: smtp.gmail.com\n    port: 587\n"
                "slack:\n  webhook-url: ${SLACK_HOOK:}\n"  # an empty default: nothing configured
                "stripe:\n  secret-key: ${STRIPE_KEY:sk_test_local}\n"
            ),
            "bot/main.py": "# @entry\n",
            "bot/requirements.txt": "fastapi\n",
            "bot/.env": "OPENAI_API_KEY=sk-change-me\nOPENAI_MODEL=gpt-4o\nAWS_ACCESS_KEY_ID=\nPUSHER_APP_SECRET=null\n",
        }
    )
    yml = "mailer/src/main/resources/application.yml"
    assert vendor_calls(run, "mailer") == [("Gmail", "external", [(yml, 3, "configured host spring.mail.host")])]
    assert vendor_calls(run, "bot") == []  # credential keys of SDKs neither service declares


def test_a_vendor_already_reached_by_code_or_manifest_is_not_repeated(analyze):
    run = analyze(
        {
            "shop/requirements.txt": "stripe==9.0\nddtrace\n",
            "shop/app.py": "# @entry\nimport stripe\n# @call http requests lit:https://hooks.slack.com/services/x\n",
            "shop/.env": "STRIPE_API_KEY=sk\nSLACK_WEBHOOK=https://hooks.slack.com/services/x\nDD_API_KEY=k\n",
        }
    )
    got = sorted((c.target, [e.note for e in c.evidence]) for c in run.service("shop").calls)
    assert got == [
        ("Datadog", ["declared dependency ddtrace", "configured credential DD_API_KEY"]),
        ("Stripe API", [None]),  # the code's import; neither the manifest nor the key adds a second
        ("hooks.slack.com", [None]),  # the code's call; the configured webhook adds no second Slack
    ]


def test_a_credential_key_counts_only_where_a_manifest_of_the_service_declares_the_sdk(analyze):
    keys = "OPENAI_API_KEY=sk-change-me\naws.access.key_id=local-id\naws.secret.access.key=local-secret\n"
    run = analyze(
        {
            "requirements.txt": "openai==1.0\n",  # the root manifest both Python services share
            "assistant/main.py": "# @entry\n",
            "assistant/requirements.txt": "fastapi\n",
            "assistant/.env": keys,
            "ledger/main.py": "# @entry\n",
            "ledger/requirements.txt": "fastapi\nddtrace\n",  # works without an import (ddtrace-run)
            "ledger/.env": keys + "DD_API_KEY=dd-local\n",
            "menu/pom.xml": "<project><artifactId>menu</artifactId></project>",
            "menu/src/main/java/App.java": "// @entry\n",
            "menu/src/main/resources/application.properties": "aws.access.key_id=id_key\naws.region=us-west-2\n",
        }
    )
    assert vendor_calls(run, "assistant") == [
        ("OpenAI API", "external", [("assistant/.env", 1, "configured credential OPENAI_API_KEY")])
    ]
    assert [(vendor, [note for *_at, note in ev]) for vendor, _kind, ev in vendor_calls(run, "ledger")] == [
        ("Datadog", ["declared dependency ddtrace", "configured credential DD_API_KEY"]),
        ("OpenAI API", ["configured credential OPENAI_API_KEY"]),
    ]  # no AWS: its keys, but no AWS SDK in any manifest of the service
    assert vendor_calls(run, "menu") == []  # property keys alone: no SDK anywhere for this service
