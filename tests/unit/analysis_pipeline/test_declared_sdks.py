"""Vendor SDKs declared in dependency manifests become external calls — only where the code does
not already reach that vendor, only from runtime dependencies, only from a service's own manifest."""

from __future__ import annotations

from orbitkb.analysis.layout.manifests import read_manifest
from orbitkb.analysis.vendors.manifests import declared_sdks

PACKAGE_JSON = """{
  "name": "@acme/notifications",
  "scripts": {"start": "node dist/main.js"},
  "dependencies": {
    "@nestjs/core": "^10.0.0",
    "@sendgrid/mail": "^8.1.0",
    "twilio": "^5.0.0",
    "@aws-sdk/client-s3": "^3.600.0",
    "@aws-sdk/client-sqs": "^3.600.0",
    "stripe": "^15.0.0"
  },
  "devDependencies": {
    "@sentry/node": "^8.0.0",
    "openai": "^4.0.0"
  }
}
"""

NOTIFY_CODE = (
    "// @entry\n"
    "// @call http HttpService lit:https://api.stripe.com/v1/charges method=POST\n"
    "// @msg publishes sqs lit:emails-queue\n"
)


def sdk_calls(run, name: str) -> list[tuple]:
    return sorted(
        (c.target, c.target_kind.value, c.confidence, c.call_kind.value, c.method, c.path,
         [(e.file, e.start_line, e.note) for e in c.evidence])
        for c in run.service(name).calls
        if c.evidence[0].note and c.evidence[0].note.startswith("declared dependency")
    )  # fmt: skip


def test_npm_runtime_dependencies_count_only_once_imported(analyze):
    manifest, _ = read_manifest("notifications/package.json", PACKAGE_JSON)
    found = declared_sdks([manifest], {"notifications/package.json": PACKAGE_JSON})
    assert [(s.vendor, s.package, s.line) for s in found] == [
        ("AWS S3", "@aws-sdk/client-s3", 8),
        ("AWS SQS", "@aws-sdk/client-sqs", 9),
        ("SendGrid", "@sendgrid/mail", 6),
        ("Stripe API", "stripe", 10),
        ("Twilio", "twilio", 7),
    ]  # devDependencies do not count
    run = analyze({"notifications/package.json": PACKAGE_JSON, "notifications/src/main.ts": NOTIFY_CODE})
    assert sdk_calls(run, "notifications") == []  # the code imports none of them (node/sdk_imports.py)
    stripe = [c for c in run.service("notifications").calls if c.target == "api.stripe.com"]
    assert len(stripe) == 1


BILLING_REQUIREMENTS = "fastapi==0.110\nStripe>=8.0  # payments\nsentry_sdk[fastapi]==2.0\nboto3\n"
CHAT_TOML = '[project]\nname = "chat"\ndependencies = [\n  "anthropic>=0.30",\n  "slack_sdk",\n]\n'
MAILER_TOML = '[tool.poetry]\nname = "mailer"\n[tool.poetry.dependencies]\npython = "^3.11"\nsendgrid = "^6.11"\nfirebase-admin = "*"\n'


def test_python_manifests_in_requirements_pyproject_and_poetry(analyze):
    run = analyze(
        {
            "billing/requirements.txt": BILLING_REQUIREMENTS,
            "billing/requirements-dev.txt": "openai\n",
            "billing/app.py": "# @entry\n# @call http requests lit:https://s3.eu-west-1.amazonaws.com/bucket/x\n",
            "chat/pyproject.toml": CHAT_TOML,
            "chat/main.py": "# @entry\n",
            "mailer/pyproject.toml": MAILER_TOML,
            "mailer/main.py": "# @entry\n",
        }
    )
    assert sdk_calls(run, "billing") == []  # stripe and sentry-sdk are never imported; boto3 ("AWS")
    # is covered by the code's S3 call; requirements-dev.txt is not runtime
    manifest, _ = read_manifest("billing/requirements.txt", BILLING_REQUIREMENTS)
    found = declared_sdks([manifest], {"billing/requirements.txt": BILLING_REQUIREMENTS})
    assert [(s.vendor, s.line) for s in found] == [
        ("AWS", 4),
        ("Sentry", 3),
        ("Stripe API", 2),
    ]
    assert sdk_calls(run, "chat") == sdk_calls(run, "mailer") == []  # never imported
    found_by = {}
    for path, text in (("chat/pyproject.toml", CHAT_TOML), ("mailer/pyproject.toml", MAILER_TOML)):
        manifest, _ = read_manifest(path, text)
        found_by[path] = [(s.vendor, s.line) for s in declared_sdks([manifest], {path: text})]
    assert found_by == {
        "chat/pyproject.toml": [("Anthropic API", 4), ("Slack", 5)],
        "mailer/pyproject.toml": [("Firebase Cloud Messaging", 6), ("SendGrid", 5)],
    }


POM = """<project>
  <artifactId>genai-service</artifactId>
  <dependencies>
    <dependency>
      <groupId>org.springframework.ai</groupId>
      <artifactId>spring-ai-openai-spring-boot-starter</artifactId>
    </dependency>
    <dependency>
      <groupId>software.amazon.awssdk</groupId>
      <artifactId>ses</artifactId>
    </dependency>
    <dependency>
      <groupId>com.stripe</groupId>
      <artifactId>stripe-java</artifactId>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build><plugins><plugin><artifactId>spring-boot-maven-plugin</artifactId></plugin></plugins></build>
</project>
"""

GRADLE = """plugins { id("org.springframework.boot") version "3.3.0" }
dependencies {
    implementation("com.twilio.sdk:twilio:10.1.0")
    implementation(platform("software.amazon.awssdk:bom:2.25.0"))
    implementation("software.amazon.awssdk:sns")
    testImplementation("com.sendgrid:sendgrid-java:4.10.0")
}
"""

GO_MOD = """module github.com/acme/payouts/v2

go 1.22

require (
\tgithub.com/stripe/stripe-go/v76 v76.25.0
\tgithub.com/aws/aws-sdk-go-v2/service/s3 v1.50.0
\tgithub.com/aws/aws-sdk-go v1.50.0 // indirect
)

require github.com/twilio/twilio-go v1.20.0
"""


def test_maven_gradle_and_go_manifests(analyze):
    run = analyze(
        {
            "genai/pom.xml": POM,
            "genai/src/main/java/App.java": "// @entry\n",
            "sms/build.gradle.kts": GRADLE,
            "sms/src/main/kotlin/App.kt": "// @entry\n",
            "payouts/go.mod": GO_MOD,
            "payouts/main.go": "// @entry\n",
            "payouts/send.go": 'package main\n\nimport (\n\t"github.com/twilio/twilio-go"\n)\n',
        }
    )
    assert [(t, ev[0][1], ev[0][2]) for t, *_, ev in sdk_calls(run, "genai")] == [
        ("AWS SES", 10, "declared dependency software.amazon.awssdk:ses"),
        ("OpenAI API", 6, "declared dependency spring-ai-openai-spring-boot-starter"),
    ]  # stripe-java is test-scoped
    assert [(t, ev[0][1]) for t, *_, ev in sdk_calls(run, "sms")] == [("AWS SNS", 5), ("Twilio", 3)]
    assert sdk_calls(run, "payouts") == []  # Go modules count once imported: the import is the call
    assert [
        (c.target, c.evidence[0].file, c.evidence[0].start_line) for c in run.service("payouts").calls
    ] == [("Twilio", "payouts/send.go", 4)]
    manifest, _ = read_manifest("payouts/go.mod", GO_MOD)
    assert [(s.vendor, s.line) for s in declared_sdks([manifest], {"payouts/go.mod": GO_MOD})] == [
        ("AWS S3", 7),
        ("Stripe API", 6),
        ("Twilio", 11),
    ]  # the indirect aws-sdk-go is not the service's own choice


def test_a_manifest_shared_by_several_services_attributes_nothing(analyze):
    def pom(artifact: str, deps: str = "", modules: str = "") -> str:
        return (f"<project>\n  <artifactId>{artifact}</artifactId>\n{modules}  <dependencies>\n{deps}"
                "  </dependencies>\n</project>\n")  # fmt: skip

    dep = "    <dependency><groupId>{}</groupId><artifactId>{}</artifactId></dependency>\n"
    run = analyze(
        {
            "pom.xml": pom("mono", dep.format("com.stripe", "stripe-java"),
                           "  <modules><module>billing</module><module>assistant</module></modules>\n"),
            "billing/pom.xml": pom("billing"),
            "billing/src/main/java/App.java": "// @entry\n",
            "assistant/pom.xml": pom("assistant", dep.format("com.anthropic", "anthropic-java")),
            "assistant/src/main/java/App.java": "// @entry\n",
        }
    )  # fmt: skip
    assert sdk_calls(run, "billing") == []
    assert [t for t, *_ in sdk_calls(run, "assistant")] == ["Anthropic API"]


def test_two_packages_of_one_vendor_make_one_call_with_both_lines(analyze):
    run = analyze(
        {
            "api/build.gradle": (
                "plugins { id 'org.springframework.boot' version '3.3.0' }\ndependencies {\n"
                "    implementation 'software.amazon.awssdk:s3:2.25.0'\n"
                "    implementation 'software.amazon.awssdk:s3-transfer-manager:2.25.0'\n}\n"
            ),
            "api/src/main/java/App.java": "// @entry\n",
        }
    )
    assert sdk_calls(run, "api") == [
        ("AWS S3", "external", 0.6, "http", None, None,
         [("api/build.gradle", 3, "declared dependency software.amazon.awssdk:s3"),
          ("api/build.gradle", 4, "declared dependency software.amazon.awssdk:s3-transfer-manager")]),
    ]  # fmt: skip


def test_unreadable_manifests_declare_nothing():
    broken, _ = read_manifest("x/package.json", '{"dependencies": {"stripe": ')
    assert declared_sdks([broken], {"x/package.json": '{"dependencies": {"stripe": '}) == []
    manifest, _ = read_manifest("y/go.mod", "module y\nrequire github.com/stripe/stripe-go/v76 v76.0.0\n")
    assert [
        (s.vendor, s.line)
        for s in declared_sdks(
            [manifest], {"y/go.mod": "module y\nrequire github.com/stripe/stripe-go/v76 v76.0.0\n"}
        )
    ] == [("Stripe API", 2)]
    assert declared_sdks([manifest], {}) == []  # text not kept: nothing to point at


PIP_COMPILED = """# This file is autogenerated by pip-compile
fastapi==0.110.0
    # via -r requirements.in
google-genai==1.2.0
    # via
    #   -r requirements.in
    #   langchain-google-genai
google-cloud-storage==2.1.0
    # via some-vector-store
stripe==9.0.0  # via payments-helper
"""


def test_pip_compile_pins_only_count_what_the_input_file_names():
    manifest, _ = read_manifest("quotes/requirements.txt", PIP_COMPILED)
    assert sorted(manifest.deps) == ["fastapi", "google-genai"]
    found = declared_sdks([manifest], {"quotes/requirements.txt": PIP_COMPILED})
    assert [(s.vendor, s.package, s.line) for s in found] == [("Google Gemini API", "google-genai", 4)]
    plain, _ = read_manifest("quotes/requirements.txt", "stripe==9.0.0\n# comment\ngoogle-genai\n")
    assert sorted(plain.deps) == ["google-genai", "stripe"]  # no via notes: every line is direct


def test_go_indirect_requirements_are_not_dependencies():
    text = "module example.com/quotes\n\nrequire (\n\tgithub.com/lib/pq v1.10.9\n\tgithub.com/go-sql-driver/mysql v1.8.0 // indirect\n)\n"
    manifest, _ = read_manifest("quotes/go.mod", text)
    assert "github.com/lib/pq" in manifest.deps and "github.com/go-sql-driver/mysql" not in manifest.deps


def test_nuget_package_references_of_a_csproj(analyze):
    csproj = """<Project Sdk="Microsoft.NET.Sdk.Web">
  <ItemGroup>
    <PackageReference Include="Azure.Storage.Blobs" Version="12.19.1" />
    <PackageReference Include="Google.Cloud.SecretManager.V1" Version="2.4.0" />
    <PackageReference Include="Sentry" Version="4.0.0" PrivateAssets="all" />
  </ItemGroup>
</Project>"""
    manifest, _ = read_manifest("ledger/Ledger.csproj", csproj)
    found = declared_sdks([manifest], {"ledger/Ledger.csproj": csproj})
    assert [(s.vendor, s.line) for s in found] == [("Azure Blob Storage", 3), ("Google APIs", 4)]


COMPOSER_JSON = """{
  "name": "acme/checkout",
  "require": {
    "php": "^8.2",
    "laravel/framework": "^11.0",
    "stripe/stripe-php": "^13.0"
  },
  "require-dev": {
    "sentry/sentry-laravel": "^4.0"
  }
}
"""

GEMFILE = """source 'https://rubygems.org'
ruby '3.3.0'
gem 'rails', '~> 7.1'
gem 'twilio-ruby'

group :development, :test do
  gem 'sentry-ruby'
end
"""


def test_composer_and_gemfile_runtime_dependencies() -> None:
    composer, _ = read_manifest("checkout/composer.json", COMPOSER_JSON)
    gemfile, _ = read_manifest("notify/Gemfile", GEMFILE)
    texts = {"checkout/composer.json": COMPOSER_JSON, "notify/Gemfile": GEMFILE}
    found = declared_sdks([composer, gemfile], texts)
    assert [(s.vendor, s.package, s.file, s.line) for s in found] == [
        ("Stripe API", "stripe/stripe-php", "checkout/composer.json", 6),
        ("Twilio", "twilio-ruby", "notify/Gemfile", 4),
    ]
    assert composer.entry == "composer.json requires 'laravel/framework'"
    assert gemfile.entry == "Gemfile gem 'rails'"
