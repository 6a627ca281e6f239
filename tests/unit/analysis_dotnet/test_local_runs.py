"""A .NET system wired for local runs and root-level builds, through the whole pipeline: services
reached at ``localhost:<port>`` found by the ports their ``launchSettings.json`` profiles and
Kestrel settings listen on, compose services built by a Dockerfile at the root that copies one
project in (so the compose ``env_file`` applies), an own Service Bus wrapper in a shared library
whose queue is the argument its callers pass, and RabbitMQ exchanges named by bound settings."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

WEB = '<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup>{refs}</ItemGroup></Project>'
BUS_REF = '<ProjectReference Include="..\\..\\Courier\\Courier.csproj" />'
LAUNCH = """{{
  // profiles written by the IDE
  "iisSettings": {{ "iisExpress": {{ "applicationUrl": "http://localhost:{iis}", "sslPort": 0 }} }},
  "profiles": {{
    "https": {{ "commandName": "Project", "applicationUrl": "https://localhost:{https};http://localhost:{http}" }},
  }}
}}"""
COMPOSE = """
services:
  kiosk:
    build: {context: ., dockerfile: Dockerfile.kiosk}
    env_file: [Kiosk/.env]
  pantry:
    build: {context: ., dockerfile: Dockerfile.pantry}
  till:
    build: {context: ., dockerfile: Dockerfile.till}
"""
FILES = {
    "docker-compose.yml": COMPOSE,
    "Dockerfile.kiosk": 'FROM mcr.microsoft.com/dotnet/sdk:8.0 AS build\nCOPY ["Kiosk/src/Kiosk.csproj", "./"]\n'
    "COPY Kiosk/src .\nFROM mcr.microsoft.com/dotnet/aspnet:8.0\nCOPY --from=build /app .\n",
    "Dockerfile.pantry": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\nCOPY Pantry/src/ /src/\n",
    # the till listens where its image says: no launch profile of its own
    "Dockerfile.till": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\nENV ASPNETCORE_URLS=http://+:7480\nCOPY Till/src .\n",
    "Courier/Courier.csproj": '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><PackageReference '
    'Include="Azure.Messaging.ServiceBus" Version="7.17.0" /></ItemGroup></Project>',
    "Courier/Courier.cs": """
using Azure.Messaging.ServiceBus;
public interface ICourier { Task Deliver(object parcel, string queue); }
public class Courier : ICourier
{
    public async Task Deliver(object parcel, string queue)
    {
        await using var client = new ServiceBusClient("Endpoint=sb://shop");
        var sender = client.CreateSender(queue);
        await sender.SendMessageAsync(new ServiceBusMessage());
    }
}
""",
    # kiosk: calls the pantry and the till at localhost ports; sends through the courier
    "Kiosk/.env": "Bus__Exchange=shelf-events\n",
    "Kiosk/src/Kiosk.csproj": WEB.format(refs=BUS_REF + '<PackageReference Include="RabbitMQ.Client" Version="6.0.0" />'),
    "Kiosk/src/appsettings.json": '{ "Upstreams": { "Pantry": "https://localhost:7311", "Till": "http://localhost:7480" } }',
    "Kiosk/src/Properties/launchSettings.json": LAUNCH.format(iis=41000, https=7300, http=5300),
    "Kiosk/src/Program.cs": """
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient("pantry", c => c.BaseAddress = new Uri(builder.Configuration["Upstreams:Pantry"]));
builder.Services.AddHttpClient("till", c => c.BaseAddress = new Uri(builder.Configuration["Upstreams:Till"]));
var app = builder.Build();
app.Run();
""",
    "Kiosk/src/Settings.cs": """
public class BusSettings { public string Exchange { get; set; } }
public class Settings
{
    private readonly IConfiguration _configuration;
    public Settings(IConfiguration configuration) { _configuration = configuration; }
    public BusSettings Bus() => _configuration.GetSection("Bus").Get<BusSettings>();
}
""",
    "Kiosk/src/Shelf.cs": """
using RabbitMQ.Client;
public class Shelf
{
    private readonly IHttpClientFactory _factory;
    private readonly ICourier _courier;
    private readonly IConfiguration _config;
    private readonly IModel _channel;
    private readonly string _exchange;
    public Shelf(IHttpClientFactory factory, ICourier courier, IConfiguration config, Settings settings, IModel channel)
    {
        _factory = factory; _courier = courier; _config = config; _channel = channel;
        var bus = settings.Bus();
        _exchange = bus.Exchange;
    }
    public async Task Restock()
    {
        await _factory.CreateClient("pantry").GetAsync("/api/items");
        await _factory.CreateClient("till").PostAsync("/api/receipts", null);
        await _courier.Deliver(new object(), "restocked");
        await _courier.Deliver(new object(), _config.GetValue<string>("Queues:Audit"));
        _channel.BasicPublish(exchange: _exchange, routingKey: "", basicProperties: null, body: null);
    }
}
""",
    "Kiosk/src/appsettings.Development.json": '{ "Queues": { "Audit": "audit-trail" } }',
    # pantry: listens on 7311 by its launch profile; references the courier but never sends
    "Pantry/src/Pantry.csproj": WEB.format(refs=BUS_REF + '<PackageReference Include="RabbitMQ.Client" Version="6.0.0" />'),
    "Pantry/src/Properties/launchSettings.json": LAUNCH.format(iis=42000, https=7311, http=5311),
    "Pantry/src/appsettings.json": '{ "Bus": { "Exchange": "shelf-events" } }',
    "Pantry/src/ItemsController.cs": """
[ApiController]
[Route("api/items")]
public class ItemsController : ControllerBase
{
    [HttpGet]
    public IActionResult All() => Ok();
}
""",
    "Pantry/src/Listener.cs": """
using RabbitMQ.Client;
public class BusOptions { public string Exchange { get; set; } }
public class Listener
{
    private readonly BusOptions _options;
    private readonly IModel _channel;
    private string _queue;
    public Listener(IConfiguration configuration, IModel channel)
    {
        _options = configuration.GetSection("Bus").Get<BusOptions>();
        _channel = channel;
    }
    public void Start()
    {
        _queue = _channel.QueueDeclare().QueueName;
        _channel.QueueBind(queue: _queue, exchange: _options.Exchange, routingKey: "");
        _channel.BasicConsume(queue: _queue, autoAck: true, consumer: null);
    }
}
""",
    "Till/src/Till.csproj": WEB.format(refs=""),
    "Till/src/ReceiptsController.cs": """
[ApiController]
[Route("api/receipts")]
public class ReceiptsController : ControllerBase
{
    [HttpPost]
    public IActionResult Print() => Ok();
}
""",
}


def _run(files: dict[str, str] = FILES):
    analyzer = StaticCodeAnalyzer(workers=0)
    return analyzer.analyze(MemorySourceTree(files), AnalysisRequest("corner-shop"), DictAnalysisCache())


def _edges(result) -> list[tuple[str, str, str | None]]:
    ids = {s.service.id: s.service.name for s in result.services}
    return sorted(
        (ids[c.from_service_id], ids.get(c.to_service_id or "", c.target), c.path)
        for s in result.services for c in s.calls
    )  # fmt: skip


def test_root_dockerfiles_name_the_project_they_copy_in() -> None:
    result = _run()
    roots = sorted((s.service.name, s.service.root_dir) for s in result.services)
    assert roots == [("kiosk", "Kiosk/src"), ("pantry", "Pantry/src"), ("till", "Till/src")]


def test_localhost_addresses_reach_the_service_listening_on_that_port() -> None:
    assert _edges(_run()) == [
        ("kiosk", "Azure Service Bus", None),  # it sends through the courier library's Service Bus client
        ("kiosk", "pantry", "/api/items"),  # https://localhost:7311: the pantry's launch profile
        ("kiosk", "till", "/api/receipts"),  # http://localhost:7480: ASPNETCORE_URLS of the till's image
    ]


def test_a_port_two_services_listen_on_names_neither() -> None:
    files = dict(FILES)
    files["Till/src/Properties/launchSettings.json"] = LAUNCH.format(iis=43000, https=7311, http=5480)
    assert ("kiosk", "pantry", "/api/items") not in _edges(_run(files))


def test_wrapper_channels_are_the_arguments_of_its_callers() -> None:
    result = _run()
    got = sorted(
        (s.service.name, m.direction.value, m.channel, m.provider, m.evidence[0].file)
        for s in result.services for m in s.messages
    )  # fmt: skip
    assert got == [
        # the server-named queue is read as the exchange it is bound to, named by bound settings
        ("kiosk", "publishes", "audit-trail", "azure-servicebus", "Kiosk/src/Shelf.cs"),
        ("kiosk", "publishes", "restocked", "azure-servicebus", "Kiosk/src/Shelf.cs"),
        ("kiosk", "publishes", "shelf-events", "rabbitmq", "Kiosk/src/Shelf.cs"),  # Bus__Exchange, compose env_file
        ("pantry", "consumes", "shelf-events", "rabbitmq", "Pantry/src/Listener.cs"),
    ]  # the pantry references the courier but never calls it: no "{queue}" channel anywhere


def test_a_dockerfile_copying_several_projects_names_none_of_them() -> None:
    from orbitkb.analysis.layout.compose import ComposeService
    from orbitkb.analysis.layout.refs import _copied_unit

    units = {"Kiosk/src": 0, "Pantry/src": 1}
    svc = ComposeService("bundle", "docker-compose.yml", 3, build_context=".", dockerfile="Dockerfile.bundle")

    def locate(folder: str, _name: str | None) -> int | None:
        return units.get(folder)

    assert _copied_unit(svc, ["Kiosk/src/Kiosk.csproj", "./"], locate) == 0
    assert _copied_unit(svc, ["Kiosk/src", "Pantry/src", "/app"], locate) is None  # two projects: undecided
    assert _copied_unit(svc, [".", "*.sln", "$SRC/app"], locate) is None  # the whole context, globs, variables
