"""Vendors named by a service's own code, every stack: SDK imports and vendor API hosts in literals
(``vendorcode``); a declared SDK its code never imports is no call where packages work only imported."""

from __future__ import annotations

import textwrap

import pytest

from orbitkb.analysis.facts import Expr, Lit, RawCall, RawMessage
from orbitkb.analysis.vendors.code import (
    KEY,
    calls,
    never_imported,
    scan,
    vendor_of_import,
    vendor_of_literal,
    without_echoes,
)
from orbitkb.analysis.vendors.settings import vendor_of_value
from orbitkb.domain.integrations import find_vendor
from orbitkb.domain.model import CallKind, ServiceCall


def found(path: str, source: str) -> list[tuple[str, int]]:
    return [(vendor, line) for vendor, _, line in scan(path, textwrap.dedent(source).lstrip("\n"))]


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        (
            "billing/charges.py",
            """
            import os, json
            import stripe as payments
            from google.cloud import storage
            from firebase_admin import (
                auth,
                credentials,
            )
            """,
            [("Stripe API", 2), ("Google Cloud Storage", 3), ("Firebase Authentication", 4)],
        ),
        (
            "notify/src/main/java/acme/Mailer.java",
            """
            package acme.notify;

            import java.util.List;
            import com.sendgrid.SendGrid;
            import static software.amazon.awssdk.services.s3.S3Client.builder;
            """,
            [("SendGrid", 4), ("AWS S3", 5)],
        ),
        (
            "assist/src/main/kotlin/Chat.kt",
            "package assist\nimport org.springframework.ai.openai.OpenAiChatModel\nimport org.springframework.ai.chat.ChatClient\n",
            [("OpenAI API", 2)],
        ),
        (
            "payouts/payout.go",
            """
            package payouts

            import (
            \t"context"
            \tstripe "github.com/stripe/stripe-go/v78"
            \t"firebase.google.com/go/v4/auth"
            )

            import "golang.org/x/oauth2/google"
            """,
            [("Stripe API", 5), ("Firebase Authentication", 6), ("Google OAuth", 9)],
        ),
        (
            "ledger/Services/Mail.cs",
            "using System;\nglobal using SendGrid.Helpers.Mail;\nusing Blob = Azure.Storage.Blobs;\n"
            "using Azure.Messaging.WebPubSub;\n",
            [("SendGrid", 2), ("Azure Blob Storage", 3), ("Azure Web PubSub", 4)],
        ),
        (
            "shop/app/Http/Controllers/PayController.php",
            "<?php\nuse Illuminate\\Http\\Request;\nclass PayController {\n  function pay() { \\Stripe\\Stripe::setApiKey('k'); }\n}\n",
            [("Stripe API", 4)],
        ),
        (
            "texts/app/services/sms.rb",
            "# Twilio::REST is mentioned here only\nclass Sms\n  def send!\n    Twilio::REST::Client.new(sid, token)\n  end\nend\n",
            [("Twilio", 4)],
        ),
        (
            "upload/src/store.rs",
            "use std::sync::Arc;\nuse aws_sdk_s3::Client;\nextern crate stripe;\n",
            [("AWS S3", 2), ("Stripe API", 3)],
        ),
    ],
    ids=["python", "java", "kotlin", "go", "csharp", "php", "ruby", "rust"],
)
def test_sdk_imports_in_every_stack(path, source, expected):
    assert found(path, source) == expected


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("a/helpers.py", "from payments.stripe_client import charge\nfrom .stripe import x\nimport stripe_helpers\n"),
        ("a/Jwt.java", "import com.auth0.jwt.JWT;\nimport com.squareup.okhttp3.OkHttpClient;\n"),
        ("a/store.go", 'import (\n\t"cloud.google.com/go/firestore"\n\tfirebase "firebase.google.com/go/v4"\n\t"github.com/aws/aws-lambda-go/lambda"\n)\n'),
        ("a/Fn.cs", "using Amazon.Lambda.Core;\nusing (var scope = provider.CreateScope()) { }\n"),
        ("web/src/pay.ts", 'import Stripe from "stripe";\nconst api = "https://api.stripe.com/v1";\n'),
    ],
    ids=["python-own-modules", "jvm-jwt-and-okhttp", "go-firestore-and-lambda", "csharp-lambda-and-using-block",
         "node-read-by-its-own-parser"],
)  # fmt: skip
def test_no_vendor_from_own_modules_databases_or_other_readers(path, source):
    assert found(path, source) == []


def test_a_managed_brokers_sdk_in_the_services_own_code_names_its_vendor_like_any_sdk():
    assert found("a/bus.py", "from google.cloud import pubsub_v1\n") == [("Google Pub/Sub", 1)]
    assert found("a/Bus.cs", "global using Azure.Messaging.ServiceBus;\n") == [("Azure Service Bus", 1)]
    assert found("a/Q.java", "import software.amazon.awssdk.services.sqs.SqsClient;\n") == [("AWS SQS", 1)]
    parsed = {"svc/bus.py": {KEY: scan("svc/bus.py", "from google.cloud import pubsub_v1\n")}}
    topic = RawMessage("publishes", Expr((Lit("orders"),)), "pubsub", "svc/bus.py", 3, 3)
    assert calls(parsed, ["svc/bus.py"], (), [topic]) == []  # the channel already names the broker
    # no channel read (a topic left to configuration): the import still names the vendor
    assert [c.target_hint for c in calls(parsed, ["svc/bus.py"], (), [])] == ["Google Pub/Sub"]


def test_a_shared_librarys_broker_sdk_beside_channels_on_another_broker_is_no_call():
    parsed = {"svc/Bus.cs": {KEY: scan("svc/Bus.cs", "using Azure.Messaging.ServiceBus;\nusing Stripe;\n")}}

    def on(provider: str) -> RawMessage:
        return RawMessage("publishes", Expr((Lit("orders"),)), provider, "svc/Bus.cs", 9, 9)

    def hints(*messages: RawMessage) -> list[str | None]:
        return [c.target_hint for c in calls(parsed, ["svc/Bus.cs"], (), list(messages), {"svc/Bus.cs"})]

    # the file belongs to a library several services reference (a shared event bus)
    assert hints(on("rabbitmq")) == ["Stripe API"]  # Service Bus is switched on by a setting, if ever
    assert hints(on("azure-servicebus"), on("rabbitmq")) == ["Azure Service Bus", "Stripe API"]
    assert hints() == ["Stripe API"]  # no channel read: nothing shows the broker in use
    # the same file as the service's own code: its import names the vendor, channels or not
    own = [c.target_hint for c in calls(parsed, ["svc/Bus.cs"], (), [on("rabbitmq")])]
    assert own == ["Azure Service Bus", "Stripe API"]
    # the service's own using beside a shared bus it uses that reaches the broker: the bus decides
    parsed["lib/CloudBus.cs"] = {KEY: scan("lib/CloudBus.cs", "using Azure.Messaging.ServiceBus;\n")}
    both = calls(parsed, ["lib/CloudBus.cs", "svc/Bus.cs"], (), [on("rabbitmq")], {"lib/CloudBus.cs"})
    assert [c.target_hint for c in both] == ["Stripe API"]


def test_vendor_of_import_longest_prefix_and_version_segments():
    assert vendor_of_import("go", "github.com/aws/aws-sdk-go-v2/service/s3/types") == "AWS S3"
    assert (
        vendor_of_import("go", "github.com/aws/aws-sdk-go/service/sqs") == "AWS SQS"
    )  # v1 module, per service
    assert vendor_of_import("go", "github.com/aws/aws-sdk-go-v2/config") == "AWS"
    assert vendor_of_import("python", "firebase_admin") is None
    assert vendor_of_import("python", "firebase_admin.messaging") == "Firebase Cloud Messaging"
    assert vendor_of_import("ruby", "Aws::S3::Client") == "AWS S3"
    assert vendor_of_import("php", "Aws\\Ses\\SesClient") == "AWS SES"
    assert vendor_of_import("cobol", "stripe") is None


@pytest.mark.parametrize(
    ("literal", "vendor"),
    [
        ("https://api.stripe.com/v1/charges", "Stripe API"),
        ("smtp.sendgrid.net", "SendGrid"),
        ("https://hooks.slack.com/services/T0/B0/x", "Slack"),
        ("oauth2.googleapis.com", "Google OAuth"),
        ("https://stripe.com/docs/api", None),  # a bare domain: a link
        ("https://fonts.googleapis.com/css?family=Roboto", None),  # a CDN
        ("https://www.googleapis.com/auth/userinfo.email", None),  # an OAuth scope
        ("https://dashboard.stripe.com/test/payments", None),  # a console
        ("https://sqs.eu-west-1.amazonaws.com/1234/orders", None),  # a broker: messaging
        ("https://payments.internal.example.com", None),
    ],
)
def test_vendor_of_literal(literal, vendor):
    assert vendor_of_literal(literal) == vendor


def test_host_literals_only_whole_strings_in_server_code_and_never_setting_defaults():
    source = """
    DOCS = "see https://api.stripe.com for details"
    API = "https://api.stripe.com/v1"
    MAIL = os.getenv("SMTP_HOST", "smtp.sendgrid.net")
    """
    assert found("billing/settings.py", source) == [("Stripe API", 2)]
    laravel = "<?php\nreturn ['mailgun' => ['endpoint' => env('MAILGUN_ENDPOINT', 'api.mailgun.net')]];\n"
    assert found("shop/config/services.php", laravel) == []
    assert scan("billing/settings.py", 'API = "https://api.stripe.com/v1"\n')[0][1] == "host:api.stripe.com"


def test_first_reference_per_vendor_and_kind_in_one_file():
    source = "import stripe\nimport stripe.error\nURL = 'https://api.stripe.com/v1'\nOTHER = 'https://api.stripe.com/v2'\n"
    assert scan("a/pay.py", source) == [["Stripe API", "stripe", 1], ["Stripe API", "host:api.stripe.com", 3]]


def test_calls_one_per_vendor_first_by_path_then_line():
    parsed = {
        "svc/b.py": {KEY: [["Stripe API", "stripe", 3]]},
        "svc/a.py": {KEY: [["Twilio", "twilio", 9], ["Stripe API", "host:api.stripe.com", 7]]},
        "svc/c.py": {},
    }
    out = calls(parsed, ["svc/b.py", "svc/a.py", "svc/c.py"], (), ())
    assert [(c.target_hint, c.file, c.line, c.client) for c in out] == [
        ("Stripe API", "svc/a.py", 7, "host:api.stripe.com"),
        ("Twilio", "svc/a.py", 9, "sdk:twilio"),
    ]
    assert calls(parsed, ["svc/c.py"], (), ()) == []  # files outside the list say nothing


def test_calls_skip_umbrellas_vendors_already_named_and_vendors_reached_by_messages():
    parsed = {
        "svc/app.py": {KEY: [["AWS", "boto3", 1], ["AWS S3", "aws_sdk_s3", 2], ["Slack", "slack_sdk", 3]]}
    }
    assert [c.target_hint for c in calls(parsed, ["svc/app.py"], (), ())] == ["AWS S3", "Slack"]
    node_sdk = RawCall("http", "svc/index.js", 1, 1, "sdk:@slack/web-api", target_hint="Slack")
    assert [c.target_hint for c in calls(parsed, ["svc/app.py"], [node_sdk], ())] == ["AWS S3"]
    only_aws = {"svc/app.py": {KEY: [["AWS", "boto3", 1]]}}
    queue = RawMessage("publishes", Expr((Lit("orders"),)), "sqs", "svc/app.py", 5, 5)
    assert calls(only_aws, ["svc/app.py"], (), [queue]) == []  # the SDK's use is the queue


def test_never_imported_only_where_packages_work_imported_and_code_was_read():
    code = ["svc/app.py", "svc/models.py"]
    assert never_imported("pypi", "sendgrid", code)
    assert not never_imported("pypi", "ddtrace", code)  # ddtrace-run: a launcher
    assert not never_imported("pypi", "sendgrid", ["svc/index.js"])  # no Python code read
    assert not never_imported(
        "maven", "spring-ai-openai-spring-boot-starter", ["svc/App.java"]
    )  # auto-configured
    assert never_imported("go", "github.com/twilio/twilio-go", ["svc/main.go"])
    assert never_imported("npm", "twilio", ["svc/src/main.ts"])
    assert not never_imported(None, "x", code)


def test_without_echoes_keeps_the_call_site_when_both_reach_a_vendor():
    def call(target: str) -> ServiceCall:
        return ServiceCall(id=target, from_service_id="s", call_kind=CallKind.HTTP, target=target)

    kept = without_echoes([call("Stripe API"), call("api.stripe.com"), call("Twilio"), call("orders")])
    assert [c.target for c in kept] == ["api.stripe.com", "Twilio", "orders"]


# ---- through the pipeline (stub analyzers: the scan reads every parsed file's text) ----


def vendor_calls(run, name: str) -> list[tuple[str, str, int, str | None]]:
    return sorted(
        (c.target, c.evidence[0].file, c.evidence[0].start_line, c.evidence[0].note)
        for c in run.service(name).calls
        if find_vendor(c.target) is not None  # classified external by the indexing use case
    )


def test_python_service_imports_count_and_declared_but_unused_sdks_do_not(analyze):
    run = analyze(
        {
            "billing/requirements.txt": "flask\nstripe==9.0\nsendgrid\nddtrace\nfirebase-admin\n",
            "billing/app.py": (
                "# @entry\nimport stripe\nfrom firebase_admin import auth\n\n"
                "def charge():\n    return stripe.Charge.create(amount=1)\n"
            ),
        }
    )
    assert vendor_calls(run, "billing") == [
        ("Datadog", "billing/requirements.txt", 4, "declared dependency ddtrace"),  # a launcher
        ("Firebase Authentication", "billing/app.py", 3, None),
        ("Stripe API", "billing/app.py", 2, None),
    ]  # sendgrid is never imported; firebase-admin is used for auth, not messaging


def test_jvm_import_replaces_the_declaration_and_a_call_site_replaces_the_import(analyze):
    pom = (
        "<project>\n  <artifactId>payments</artifactId>\n  <dependencies>\n    <dependency>\n"
        "      <groupId>com.stripe</groupId>\n      <artifactId>stripe-java</artifactId>\n    </dependency>\n"
        "  </dependencies>\n</project>\n"
    )
    run = analyze(
        {
            "payments/pom.xml": pom,
            "payments/src/main/java/acme/Pay.java": (
                "// @entry\npackage acme;\nimport com.stripe.Stripe;\nimport com.twilio.Twilio;\n"
                "// @call http RestTemplate lit:https://api.twilio.com/2010-04-01/Messages\n"
            ),
        }
    )
    assert vendor_calls(run, "payments") == [
        ("Stripe API", "payments/src/main/java/acme/Pay.java", 3, None),
        ("api.twilio.com", "payments/src/main/java/acme/Pay.java", 5, None),
    ]  # one call per vendor: the import says more than the pom, the call site more than the import


def test_go_module_requirements_count_only_when_imported(analyze):
    go_mod = (
        "module example.com/payouts\n\ngo 1.22\n\nrequire (\n\tgithub.com/stripe/stripe-go/v78 v78.1.0\n"
        "\tgithub.com/twilio/twilio-go v1.20.0\n)\n"
    )
    run = analyze(
        {
            "payouts/go.mod": go_mod,
            "payouts/main.go": '// @entry\npackage main\n\nimport stripe "github.com/stripe/stripe-go/v78"\n',
        }
    )
    assert vendor_calls(run, "payouts") == [("Stripe API", "payouts/main.go", 4, None)]


def test_host_literal_in_code_names_the_vendor_once(analyze):
    run = analyze(
        {
            "mailer/requirements.txt": "flask\n",
            "relay/requirements.txt": "flask\n",
            "mailer/main.py": '# @entry\nSMTP_HOST = "smtp.sendgrid.net"\nDOCS = "https://sendgrid.com/docs"\n',
            "relay/main.py": '# @entry\nHOOK = "https://hooks.slack.com/services/x"\n# @call http requests lit:https://hooks.slack.com/services/x\n',
        }
    )
    assert vendor_calls(run, "mailer") == [("SendGrid", "mailer/main.py", 2, None)]
    assert vendor_calls(run, "relay") == [("hooks.slack.com", "relay/main.py", 3, None)]


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("trace/app.py", "from opentelemetry.exporter.jaeger.thrift import JaegerExporter\nimport prometheus_client\n"),
        ("trace/src/main/java/T.java", "import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;\nimport io.zipkin.reporter2.Span;\n"),
        ("trace/main.go", 'import (\n\t"go.opentelemetry.io/otel/exporters/jaeger"\n\t"github.com/prometheus/client_golang/prometheus"\n)\n'),
        ("trace/Program.cs", "using OpenTelemetry.Exporter;\nusing Prometheus;\n"),
        ("trace/tracing.py", 'COLLECTOR = "http://otel-collector:4317"\nJAEGER = "jaeger.observability.svc.cluster.local"\n'),
    ],
    ids=["python", "java", "go", "csharp", "collector-hosts"],
)  # fmt: skip
def test_tracing_to_collectors_run_in_the_repository_names_no_vendor(path, source):
    assert found(path, source) == []  # Jaeger, Zipkin, OTel collectors, Prometheus: containers we run


def test_storage_uris_name_the_storage_vendor_in_code_and_configuration():
    assert found("reports/export.py", 'BUCKET = "gs://acme-reports/daily"\nEMPTY = "s3://"\n') == [
        ("Google Cloud Storage", 1)
    ]
    assert vendor_of_value("s3://acme-invoices/2024") == "AWS S3"
    assert vendor_of_value("gs://") is None
    assert vendor_of_value("https://www.googleapis.com/auth/drive.readonly") is None  # an OAuth scope


def test_a_library_only_one_service_reads_is_that_services_code_a_shared_one_is_nobodys(analyze, stubs):
    def pom(artifact: str, *libs: str, plugin: bool = True) -> str:
        deps = "".join(
            f"<dependency><groupId>acme</groupId><artifactId>{lib}</artifactId></dependency>" for lib in libs
        )
        boot = "<build><plugins><plugin><artifactId>spring-boot-maven-plugin</artifactId></plugin></plugins></build>"
        return f"<project><parent><artifactId>acme</artifactId></parent><artifactId>{artifact}</artifactId><dependencies>{deps}</dependencies>{boot if plugin else ''}</project>"  # noqa: E501

    modules = "".join(f"<module>{m}</module>" for m in ("orders", "billing", "orders-infra", "common"))
    next(s for s in stubs if s.stack == "jvm-spring").reads_libraries = True  # as the JVM analyzer does
    run = analyze(
        {
            "pom.xml": f"<project><artifactId>acme</artifactId><packaging>pom</packaging><modules>{modules}</modules></project>",
            "orders/pom.xml": pom("orders", "orders-infra", "common"),
            "orders/src/main/java/acme/OrdersApp.java": "// @entry\n",
            "billing/pom.xml": pom("billing", "common"),
            "billing/src/main/java/acme/BillingApp.java": "// @entry\n",
            "orders-infra/pom.xml": pom("orders-infra", plugin=False),
            "orders-infra/src/main/java/acme/Mail.java": "package acme;\nimport com.sendgrid.SendGrid;\n",
            "common/pom.xml": pom("common", plugin=False),
            "common/src/main/java/acme/Pay.java": "package acme;\nimport com.stripe.Stripe;\n",
        },
        stubs=stubs,
    )  # fmt: skip
    assert run.names() == ["billing", "orders"]
    assert vendor_calls(run, "orders") == [("SendGrid", "orders-infra/src/main/java/acme/Mail.java", 2, None)]
    assert vendor_calls(run, "billing") == []  # common is read by two services: which one pays?


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        ("a/log.py", 'entry["logging.googleapis.com/trace"] = trace_id\nHOSTS = ["api.stripe.com"]\n', [("Stripe API", 2)]),
        ("a/cfg.php", "<?php\n$x = ['api.mailgun.net' => 1, 'url' => 'https://api.sendgrid.com/v3'];\n", [("SendGrid", 2)]),
        ("a/c.go", 'var seen = map[string]int{"hooks.slack.com": 1}\nc := Client{BaseURL: "https://api.openai.com/v1"}\n', [("OpenAI API", 2)]),
    ],
    ids=["python-subscript-key", "php-array-key", "go-map-key"],
)  # fmt: skip
def test_a_literal_used_as_a_key_names_no_vendor(path, source, expected):
    assert found(path, source) == expected


def test_an_npm_scope_one_vendor_publishes_names_it_for_every_package():
    from orbitkb.analysis.layout.manifests import read_manifest
    from orbitkb.analysis.node.sdk_imports import vendor_of
    from orbitkb.analysis.vendors.manifests import declared_sdks

    assert vendor_of("@aws-sdk/client-textract") == "AWS"
    assert vendor_of("@aws-sdk/client-s3") == "AWS S3"  # a package's own row wins
    assert vendor_of("@sentry/profiling-node/lib") == "Sentry"
    assert vendor_of("@azure/identity") is None  # a scope of many products has no row
    text = '{"dependencies": {"@aws-sdk/client-textract": "^3", "@azure/identity": "^4"}}'
    manifest, _ = read_manifest("scan/package.json", text)
    assert [(s.vendor, s.package) for s in declared_sdks([manifest], {"scan/package.json": text})] == [
        ("AWS", "@aws-sdk/client-textract")
    ]
