"""Vendors of a class library several .NET services reference (``<ProjectReference>``): the SDK a
library file imports is a vendor of each service whose own code uses that file's types (an injected
interface the file implements, the class itself; a ``GlobalUsings.cs`` for the types of its folder),
of no other. A managed broker's SDK imported by a service's own code names its vendor like any SDK,
channels read or not, while one a shared library reaches counts only where the service's channels
run on that broker (a setting picks the transport of a shared event bus; the service's own using
that only wires that bus says nothing more). A NuGet package declared but never imported by the
service's code calls nothing, unless it works without an import."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.vendors.code import used_shared
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.integrations import find_vendor
from orbitkb.domain.ports import AnalysisRequest

WEB = '<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup>{refs}</ItemGroup></Project>'
OUTBOX_REF = '<ProjectReference Include="..\\Outbox\\Outbox.csproj" />'
API = """
[ApiController]
[Route("api/{name}")]
public class {cls}Controller : ControllerBase
{{
    [HttpGet]
    public IActionResult Get() => Ok();
}}
"""
FILES = {
    "Outbox/Outbox.csproj": '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup>'
    '<PackageReference Include="SendGrid" Version="9.28.1" />'
    '<PackageReference Include="Twilio" Version="6.0.0" /></ItemGroup></Project>',
    "Outbox/INotifier.cs": "namespace Outbox;\npublic interface INotifier { Task Tell(string who, string text); }\n",
    "Outbox/MailNotifier.cs": """namespace Outbox;
using SendGrid;
public sealed class MailNotifier : INotifier, IDisposable
{
    public Task Tell(string who, string text) => new SendGridClient("key").SendEmailAsync(null);
    public void Dispose() { }
}
""",
    "Outbox/TextPager.cs": "namespace Outbox;\nusing Twilio;\npublic class TextPager\n{\n    public void Page(string to) { }\n}\n",
    # signup: takes the interface the mail notifier implements
    "Signup/Signup.csproj": WEB.format(refs=OUTBOX_REF),
    "Signup/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "Signup/AccountsController.cs": API.format(name="accounts", cls="Accounts").replace(
        "public class AccountsController : ControllerBase\n{",
        "public class AccountsController : ControllerBase\n{\n    public AccountsController(INotifier notifier) { }",
    ),
    # billing: builds the pager itself; its options class only shares a prefix with the notifier
    "Billing/Billing.csproj": WEB.format(refs=OUTBOX_REF),
    "Billing/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "Billing/InvoicesController.cs": API.format(name="invoices", cls="Invoices").replace(
        "=> Ok();", '{ new TextPager().Page("+1"); return Ok(); }'
    ),
    "Billing/MailNotifierOptions.cs": "using Outbox.MailNotifier;\npublic class MailNotifierOptionsX { }\n",
    # stock: references the library, never uses it
    "Stock/Stock.csproj": WEB.format(refs=OUTBOX_REF),
    "Stock/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "Stock/ItemsController.cs": API.format(name="items", cls="Items"),
    # ledger: its own consumer talks to the managed broker
    "Ledger/Ledger.csproj": WEB.format(refs=""),
    "Ledger/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "Ledger/Consumer.cs": "using Azure.Messaging.ServiceBus;\npublic class Consumer\n{\n"
    "    private readonly ServiceBusProcessor _processor;\n"
    '    public Consumer(ServiceBusClient client) { _processor = client.CreateProcessor("ledger-entries"); }\n}\n',
    # audit: imports the broker's SDK in its own code; no channel of it is read (a queue from config)
    "Audit/Audit.csproj": WEB.format(refs=""),
    "Audit/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "Audit/Options.cs": "using Azure.Messaging.ServiceBus;\npublic class AuditOptions { public ServiceBusClientOptions Bus { get; set; } }\n",
    # a shared event bus whose transport a setting picks: Service Bus or RabbitMQ
    "Transport/Transport.csproj": '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup>'
    '<PackageReference Include="Azure.Messaging.ServiceBus" Version="7.17.0" /></ItemGroup></Project>',
    "Transport/ITransport.cs": "namespace Transport;\npublic interface ITransport { Task Send(string what); }\n",
    "Transport/CloudTransport.cs": "namespace Transport;\nusing Azure.Messaging.ServiceBus;\n"
    "public sealed class CloudTransport : ITransport\n{\n"
    '    public Task Send(string what) => new ServiceBusClient("cs").CreateSender(what).SendMessageAsync(null);\n}\n',
    # shipping: takes the shared transport and publishes on RabbitMQ itself
    "Shipping/Shipping.csproj": WEB.format(
        refs='<ProjectReference Include="..\\Transport\\Transport.csproj" />'
    ),
    "Shipping/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "Shipping/Dispatcher.cs": "using RabbitMQ.Client;\nusing Transport;\npublic class Dispatcher\n{\n"
    "    public Dispatcher(ITransport transport, IModel channel)\n"
    '    {\n        channel.BasicPublish("parcels", "shipped", null, null);\n    }\n}\n',
    # wiring: imports the broker's SDK itself only to set up the shared transport, publishes on RabbitMQ
    "Wiring/Wiring.csproj": WEB.format(refs='<ProjectReference Include="..\\Transport\\Transport.csproj" />'),
    "Wiring/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "Wiring/Usings.cs": "global using Azure.Messaging.ServiceBus;\nglobal using Transport;\n",
    "Wiring/Setup.cs": "using RabbitMQ.Client;\npublic class Setup\n{\n"
    "    public static ITransport Pick(bool cloud) => cloud ? new CloudTransport() : null;\n"
    '    public Setup(IModel channel) { channel.BasicPublish("stock", "moved", null, null); }\n}\n',
    # returns: takes the shared transport; none of its channels is read
    "Returns/Returns.csproj": WEB.format(
        refs='<ProjectReference Include="..\\Transport\\Transport.csproj" />'
    ),
    "Returns/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "Returns/Intake.cs": "using Transport;\npublic class Intake\n{\n    public Intake(ITransport transport) { }\n}\n",
}


def _vendors(files: dict[str, str] = FILES) -> dict[str, list[tuple[str, str, int]]]:
    result = StaticCodeAnalyzer(workers=0).analyze(
        MemorySourceTree(files), AnalysisRequest("notices"), DictAnalysisCache()
    )
    return {
        s.service.name: sorted(
            (c.target, c.evidence[0].file, c.evidence[0].start_line)
            for c in s.calls
            if find_vendor(c.target) is not None
        )
        for s in result.services
    }


def test_a_shared_librarys_vendor_belongs_to_the_services_using_the_file_that_calls_it() -> None:
    got = _vendors()
    assert got["Signup"] == [("SendGrid", "Outbox/MailNotifier.cs", 2)]  # through the injected INotifier
    assert got["Billing"] == [
        ("Twilio", "Outbox/TextPager.cs", 2)
    ]  # the class itself; not MailNotifierOptionsX
    assert got["Stock"] == []  # references the library, uses none of it


def test_a_managed_brokers_sdk_in_the_services_own_code_names_its_vendor_like_any_sdk() -> None:
    got = _vendors()
    assert got["Ledger"] == [("Azure Service Bus", "Ledger/Consumer.cs", 1)]  # it receives from the broker
    assert got["Audit"] == [("Azure Service Bus", "Audit/Options.cs", 1)]  # no channel read: still its import


def test_a_shared_buss_broker_sdk_counts_only_where_the_services_channels_run_on_that_broker() -> None:
    got = _vendors()
    assert got["Shipping"] == []  # its channels run on RabbitMQ: the shared Service Bus transport is off
    assert got["Returns"] == []  # no channel read: the shared transport says nothing of which broker runs
    assert got["Wiring"] == []  # its own using only wires the shared transport a flag switches on


def test_used_shared_reads_csharp_type_headers() -> None:
    texts = {
        "lib/Sender.cs": "using SendGrid;\npublic class SgSender : Sender, IDisposable {}\n",
        "lib/Sender2.cs": "public interface Sender { void Send(); }\n",
        "lib/Other.java": "package lib;\nimport com.sendgrid.SendGrid;\npublic class JavaSender implements Sender {}\n",
        "lib/Store.cs": "public record BlobStore(string Bucket) : IStore;\n",
        "lib/IStore.cs": "public interface IStore { }\n",
        "a/Use.cs": "class Use { private readonly Sender sender; }\n",
        "a/Use.java": "class Use { private final JavaSender sender; }\n",
        "b/Use.cs": "var store = services.GetRequiredService<IStore>();\n",
        "c/Use.cs": "var closeable = (IDisposable) x; var name = nameof(Lib.SgSender);\n",
    }
    library = sorted(p for p in texts if p.startswith("lib/"))
    candidates = ["lib/Sender.cs", "lib/Store.cs", "lib/Unread.cs", "lib/Other.java"]
    assert used_shared(candidates, library, ["a/Use.cs"], texts) == ["lib/Sender.cs"]
    assert (
        used_shared(candidates, library, ["a/Use.java"], texts) == []
    )  # Java is read from its parse, none given
    assert used_shared(candidates, library, ["b/Use.cs"], texts) == ["lib/Store.cs"]
    # an interface the library does not declare, a qualified name, a file whose text is not kept: none
    assert used_shared(candidates, library, ["c/Use.cs"], texts) == []
    assert used_shared(candidates, library, [], texts) == []


def test_a_global_usings_file_is_used_where_a_type_of_its_folder_is() -> None:
    texts = {
        "Mail/GlobalUsings.cs": "global using SendGrid;\nglobal using System.Text;\n",
        "Mail/Parts/Mailer.cs": "namespace Mail;\npublic class Mailer { }\n",
        "Text/GlobalUsings.cs": "global using Twilio;\n",
        "Text/Pager.cs": "namespace Text;\npublic class Pager { }\n",
        "a/Use.cs": "class Use { private readonly Mailer mailer; }\n",
        "b/Use.cs": "class Use { private readonly string Pagers; }\n",
    }
    library = sorted(p for p in texts if p[0].isupper())
    candidates = ["Mail/GlobalUsings.cs", "Text/GlobalUsings.cs"]
    assert used_shared(candidates, library, ["a/Use.cs"], texts) == ["Mail/GlobalUsings.cs"]
    assert used_shared(candidates, library, ["b/Use.cs"], texts) == []  # a longer word is no use of Pager


def test_a_declared_package_counts_only_once_the_services_code_imports_it() -> None:
    files = dict(FILES)
    files["Stock/Stock.csproj"] = WEB.format(
        refs=OUTBOX_REF + '<PackageReference Include="Microsoft.Azure.DocumentDB.Core" Version="2.18.0" />'
        '<PackageReference Include="Stripe.net" Version="43.0.0" />'
        '<PackageReference Include="Sentry.AspNetCore" Version="4.0.0" />'
    )
    files["Stock/Pay.cs"] = "using Stripe;\npublic class Pay { }\n"
    got = _vendors(files)["Stock"]
    assert got == [
        ("Sentry", "Stock/Stock.csproj", 1),  # works from builder.WebHost.UseSentry(): no import needed
        ("Stripe API", "Stock/Pay.cs", 1),
    ]  # the Cosmos DB package is declared and never imported
