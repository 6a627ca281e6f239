"""A small .NET system through the whole pipeline: csproj services named by docker-compose,
base addresses from appsettings.json overridden by compose environment (``A:B`` and ``A__B``),
the environment's appsettings file, a gRPC client bound to the proto its server implements,
MassTransit publish -> consume, an Ocelot gateway's routes as calls, and the entities of a
referenced class-library project."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

WEB_CSPROJ = '<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup><PackageReference Include="MassTransit.RabbitMQ" Version="8.0.0" /></ItemGroup></Project>'
COMPOSE = """
services:
  orders.api:
    build: {context: ., dockerfile: Orders/Dockerfile}
    environment:
      - ASPNETCORE_ENVIRONMENT=Docker
      - "Upstreams:Stock=http://stock.api"
  stock.api:
    build: {context: ., dockerfile: Stock/Dockerfile}
  ledger.grpc:
    build: {context: ., dockerfile: Ledger/Dockerfile}
  gateway:
    build: {context: ., dockerfile: Gateway/Dockerfile}
  billing:
    build: {context: ., dockerfile: Billing/Dockerfile}
    environment:
      Ledger__Address: http://ledger.grpc
"""
FILES = {
    "docker-compose.yml": COMPOSE,
    "Orders/Orders.csproj": WEB_CSPROJ.replace(
        "</ItemGroup>",
        '<ProjectReference Include="..\\Orders.Infrastructure\\Orders.Infrastructure.csproj" /></ItemGroup>',
    ),
    "Orders.Infrastructure/Orders.Infrastructure.csproj": '<Project Sdk="Microsoft.NET.Sdk"></Project>',
    "Orders.Infrastructure/OrdersContext.cs": """
public class OrdersContext : DbContext
{
    public DbSet<Order> Orders { get; set; }
}
public class AuditContext : DbContext  // shipped by the library, registered by nobody here
{
    public DbSet<AuditEntry> Entries { get; set; }
}
public static class Registration
{
    public static void AddInfrastructure(this IServiceCollection s, IConfiguration c) =>
        s.AddDbContext<OrdersContext>(o => o.UseSqlServer(c.GetConnectionString("orders")));
}
""",
    "Orders/Dockerfile": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\n",
    "Orders/appsettings.json": '{\n  // local defaults\n  "Upstreams": { "Stock": "http://localhost:5002", "Pricing": "http://localhost:1" },\n}\n',
    "Orders/appsettings.Docker.json": '{ "Upstreams": { "Pricing": "http://stock.api/pricing" } }',
    "Orders/Program.cs": """
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<StockClient>(c => c.BaseAddress = new Uri(builder.Configuration["Upstreams:Stock"]));
builder.Services.AddHttpClient("pricing", c => c.BaseAddress = new Uri(builder.Configuration["Upstreams:Pricing"]));
builder.Services.AddInfrastructure(builder.Configuration);
builder.Services.AddMassTransit(x => x.UsingRabbitMq((ctx, cfg) => cfg.Host("rabbitmq")));
var app = builder.Build();
app.MapGet("/quote", async (IHttpClientFactory f) => await f.CreateClient("pricing").GetStringAsync("quote"));
app.MapPost("/orders", async (StockClient stock, IPublishEndpoint bus) => { await stock.Reserve(); await bus.Publish(new OrderPlaced()); });
app.Run();
""",
    "Orders/StockClient.cs": """
using MassTransit;
public class StockClient
{
    private readonly HttpClient _http;
    public StockClient(HttpClient http) { _http = http; }
    public Task Reserve() => _http.PostAsync("/reservations", null);
}
""",
    "Stock/Stock.csproj": WEB_CSPROJ,
    "Stock/Dockerfile": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\n",
    "Stock/ReservationsController.cs": """
using MassTransit;
[ApiController]
[Route("[controller]")]
public class ReservationsController : ControllerBase
{
    [HttpPost]
    public IActionResult Create() => Ok();
}
public class OrderPlacedConsumer : IConsumer<OrderPlaced>
{
    public Task Consume(ConsumeContext<OrderPlaced> context) => Task.CompletedTask;
}
""",
    "Ledger/Ledger.csproj": WEB_CSPROJ,
    "Ledger/Dockerfile": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\n",
    "Ledger/Protos/ledger.proto": 'syntax = "proto3";\npackage books;\nservice Ledger {\n  rpc Post (Entry) returns (Entry);\n}\nmessage Entry { string id = 1; }\n',
    "Ledger/LedgerService.cs": "public class LedgerService : Ledger.LedgerBase\n{\n    public override Task<Entry> Post(Entry e, ServerCallContext c) => Task.FromResult(e);\n}\n",
    "Billing/Billing.csproj": WEB_CSPROJ,
    "Billing/Dockerfile": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\n",
    "Billing/Program.cs": 'var b = WebApplication.CreateBuilder(args);\nb.Services.AddGrpcClient<Ledger.LedgerClient>(o => o.Address = new Uri(b.Configuration["Ledger:Address"]));\n',
    "Gateway/Gateway.csproj": WEB_CSPROJ,
    "Gateway/Dockerfile": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\n",
    "Gateway/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.UseOcelot().Wait();\n",
    "Gateway/ocelot.json": """{
  "Routes": [
    // stock
    {
      "DownstreamPathTemplate": "/reservations",
      "DownstreamScheme": "http",
      "DownstreamHostAndPorts": [ { "Host": "stock.api", "Port": 80 } ],
      "UpstreamPathTemplate": "/stock/reservations",
      "UpstreamHttpMethod": [ "POST" ]
    },
  ]
}""",
}


def _run():
    analyzer = StaticCodeAnalyzer(workers=0)
    return analyzer.analyze(MemorySourceTree(FILES), AnalysisRequest("shop"), DictAnalysisCache())


def test_a_dotnet_system_is_linked_end_to_end() -> None:
    result = _run()
    by_name = {s.service.name: s for s in result.services}
    assert sorted(by_name) == ["billing", "gateway", "ledger.grpc", "orders.api", "stock.api"]
    assert {s.service.stack for s in result.services} == {"dotnet"}
    ids = {s.service.id: s.service.name for s in result.services}
    edges = sorted(
        (ids[c.from_service_id], ids.get(c.to_service_id or "", c.target), c.call_kind.value, c.method, c.path)
        for s in result.services for c in s.calls
    )  # fmt: skip
    assert edges == [
        ("billing", "ledger.grpc", "grpc", "RPC", None),  # Ledger__Address from compose
        ("gateway", "stock.api", "http", "POST", "/reservations"),  # the Ocelot route
        ("orders.api", "stock.api", "http", "GET", "/pricing/quote"),  # appsettings.Docker.json
        ("orders.api", "stock.api", "http", "POST", "/Reservations"),  # compose's Upstreams:Stock; linked to
        # the [controller] route whatever the case (ASP.NET routes ignore it), spelled as the callee declares it
    ]
    # the referenced Infrastructure project runs in the service: its DbContext is the service's
    assert [(e.name, e.engine) for e in by_name["orders.api"].entities] == [("Orders", "sqlserver")]
    ledger = by_name["ledger.grpc"]
    assert [(a.method, a.path, a.handler) for a in ledger.apis] == [
        ("RPC", "books.Ledger/Post", "LedgerService.Post")
    ]
    placed = sorted((by_name[n].service.name, m.direction.value, m.channel, m.provider)
                    for n in by_name for m in by_name[n].messages)  # fmt: skip
    assert placed == [
        ("orders.api", "publishes", "OrderPlaced", "rabbitmq"),
        ("stock.api", "consumes", "OrderPlaced", "rabbitmq"),
    ]


def test_only_dockerfile_names_are_dockerfiles() -> None:
    from orbitkb.analysis.layout.manifests import manifest_kind

    assert [
        manifest_kind(n) for n in ("Dockerfile", "Dockerfile.dev", "Dockerfile-alpine", "api.dockerfile")
    ] == ["Dockerfile"] * 4
    # a solution's restore snippet kept beside the compose files is not a build of that folder
    assert manifest_kind("DockerfileSolutionRestore.txt") is None
