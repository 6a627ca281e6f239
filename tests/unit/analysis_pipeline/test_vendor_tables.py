"""The vendor SDK tables (``sdks.json``) against the domain's vendor list: every vendor a table names
is a known vendor, and the common cloud, AI, payment, e-mail/SMS and feature-flag SDKs of each stack
name their vendor from an import and from a manifest."""

from __future__ import annotations

import textwrap

import pytest

from orbitkb.analysis.layout.manifests import read_manifest
from orbitkb.analysis.node.sdk_imports import vendor_of
from orbitkb.analysis.vendors.code import scan, vendor_of_import
from orbitkb.analysis.vendors.manifests import declared_sdks, tables
from orbitkb.analysis.vendors.settings import vendor_of_key
from orbitkb.domain.integrations import find_vendor, vendors


def _named(node: object) -> list[str]:
    """Every vendor name a table holds (values of its mappings, skipping docs and null rows)."""
    if isinstance(node, dict):
        return [n for k, v in node.items() if not k.startswith("_") for n in _named(v)]
    return [node] if isinstance(node, str) else []


def test_every_vendor_a_table_names_is_a_known_vendor() -> None:
    t = tables()
    sections = [t[eco] for eco in ("npm", "pypi", "maven", "go", "nuget", "composer", "gems")]
    code = {k: v for k, v in t["code_imports"].items() if k in ("python", "jvm", "go", "dotnet", "php", "ruby", "rust")}
    named = {*_named(sections), *_named(code), *_named(t["config_keys"]["prefixes"])}
    named |= set(t["code_imports"]["literal_hosts"]["schemes"].values())
    known = {v.name for v in vendors()}
    assert sorted(named - known) == []


@pytest.mark.parametrize(
    ("path", "source", "vendor"),
    [
        ("mail/send.py", "import resend\n", "Resend"),
        ("mail/send.py", "from mailjet_rest import Client\n", "Mailjet"),
        ("mail/send.py", "import brevo_python\n", "Brevo"),
        ("flags/app.py", "import ldclient\nfrom ldclient.config import Config\n", "LaunchDarkly"),
        ("ai/chain.py", "from langchain_aws import ChatBedrock\n", "AWS Bedrock"),
        ("ai/search.py", "from pinecone import Pinecone\n", "Pinecone"),
        ("pay/Mollie.java", "import com.plivo.api.Plivo;\n", "Plivo"),
        ("ai/Chat.java", "import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;\n", "AWS Bedrock"),
        ("ai/Gem.kt", "import dev.langchain4j.model.googleai.GoogleAiGeminiChatModel\n", "Google Gemini API"),
        ("ai/llm.go", 'import "github.com/tmc/langchaingo/llms/openai"\n', "OpenAI API"),
        ("auth/pool.go", 'import "github.com/aws/aws-sdk-go-v2/service/cognitoidentityprovider"\n', "AWS Cognito"),
        ("Pay/Checkout.cs", "using Mollie.Api.Client;\n", "Mollie"),
        ("Ai/Kernel.cs", "using Microsoft.SemanticKernel.Connectors.OpenAI;\n", "OpenAI API"),
        ("Bus/Legacy.cs", "using Microsoft.Azure.ServiceBus;\n", "Azure Service Bus"),
        ("Auth/Google.cs", "using Google.Apis.Auth;\n", "Google OAuth"),
        ("app/Pay.php", "<?php\nuse Mollie\\Api\\MollieApiClient;\n", "Mollie"),
        ("ops/main.py", "import googlecloudprofiler\n", "Google APIs"),
        ("ops/main.go", 'import "cloud.google.com/go/profiler"\n', "Google APIs"),
        ("Ops/Startup.cs", "using Google.Cloud.Diagnostics.AspNetCore3;\n", "Google APIs"),
        ("ops/Tracing.java", "import com.google.cloud.opentelemetry.trace.TraceExporter;\n", "Google APIs"),
    ],
)  # fmt: skip
def test_imports_of_common_sdks_name_their_vendor(path: str, source: str, vendor: str) -> None:
    assert [v for v, _, _ in scan(path, textwrap.dedent(source))] == [vendor]


def test_a_generic_package_of_a_vendor_family_is_no_more_specific_than_its_name() -> None:
    assert vendor_of_import("python", "brevo") == "Brevo"
    assert vendor_of_import("dotnet", "Microsoft.Azure.Storage.Blob") == "Azure Blob Storage"
    assert vendor_of_import("dotnet", "Microsoft.Extensions.Azure") is None
    assert vendor_of_import("python", "langchain_community.llms") is None  # many vendors: none named


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("mail/package.json", '{"dependencies": {"resend": "^3", "@mollie/api-client": "^4", "@launchdarkly/js-core": "^2"}}',
         [("LaunchDarkly", "@launchdarkly/js-core"), ("Mollie", "@mollie/api-client"), ("Resend", "resend")]),
        ("ai/requirements.txt", "langchain-aws==0.2\npinecone-client\nmailjet-rest\n",
         [("AWS Bedrock", "langchain-aws"), ("Mailjet", "mailjet-rest"), ("Pinecone", "pinecone-client")]),
        ("Shop/Shop.csproj", '<Project><ItemGroup><PackageReference Include="Mollie.Api" Version="4" />'
         '<PackageReference Include="AWSSDK.BedrockRuntime" Version="3" /></ItemGroup></Project>',
         [("AWS Bedrock", "AWSSDK.BedrockRuntime"), ("Mollie", "Mollie.Api")]),
        ("notify/go.mod", "module x\n\nrequire (\n\tgithub.com/resend/resend-go/v2 v2.0.0\n)\n", [("Resend", "github.com/resend/resend-go")]),
    ],
)  # fmt: skip
def test_manifests_declaring_common_sdks(path: str, text: str, expected: list[tuple[str, str]]) -> None:
    manifest, _ = read_manifest(path, text)
    assert [(s.vendor, s.package) for s in declared_sdks([manifest], {path: text})] == expected


def test_node_and_configuration_read_the_same_rows() -> None:
    assert vendor_of("@aws-sdk/client-bedrock-runtime") == "AWS Bedrock"
    assert vendor_of("@langchain/aws") == "AWS Bedrock"
    assert vendor_of("node-mailjet") == "Mailjet"
    assert vendor_key("RESEND_API_KEY") == "Resend" and vendor_key("MOLLIE_CURRENCY") is None
    assert find_vendor("https://bedrock-runtime.eu-west-1.amazonaws.com/model/x/invoke").name == "AWS Bedrock"


def vendor_key(key: str) -> str | None:
    return vendor_of_key(key)


def test_a_fully_qualified_csharp_name_is_an_import_a_namespace_or_comment_is_not() -> None:
    source = (
        "namespace Square.Checkout;\n"
        "// Twilio.Rest.Api.V2010.Account.MessageResource.Create(...) once we have an account\n"
        "public class Coupons\n{\n"
        "    public void Create() { var service = new Stripe.CouponService(); }\n"
        "    public void Log() { Microsoft.Extensions.Logging.LoggerFactory.Create(b => { }); }\n"
        "    public void Key() { Amazon.S3.Util.AmazonS3Util.DoesS3BucketExistV2Async(null, \"b\"); }\n"
        "}\n"
    )
    assert [(v, line) for v, _, line in scan("Pay/Coupons.cs", source)] == [("Stripe API", 5), ("AWS S3", 7)]
