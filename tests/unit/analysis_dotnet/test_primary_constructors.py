"""C# 12 primary constructors (``class X(HttpClient http, IBus bus) : Base``) and positional records:
their parameters are the class's injected dependencies, read like constructor-assigned fields, so
calls and publishes made through them are found and owned by the handlers that reach them."""

from __future__ import annotations

from orbitkb.analysis.dotnet import ANALYZER

from .helpers import link, show

PROGRAM = """
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddHttpClient<IStockClient, StockClient>(c => c.BaseAddress = new Uri(builder.Configuration["Upstreams:Stock"]));
var app = builder.Build();
app.MapControllers();
app.Run();
"""
CLIENT = """
namespace Kiosk.Clients;

public sealed class StockClient(HttpClient http, ILogger<StockClient> log) : IStockClient
{
    public Task<HttpResponseMessage> Level(string sku) => http.GetAsync($"/v2/levels/{sku}");
}
"""
CONTROLLER = """
using RabbitMQ.Client;

namespace Kiosk.Controllers;

[ApiController]
[Route("api/[controller]")]
public class ShelvesController(IStockClient stock, IModel channel) : ControllerBase
{
    [HttpGet("{sku}")]
    public async Task<IActionResult> Check(string sku)
    {
        await stock.Level(sku);
        channel.BasicPublish(exchange: "shelf-checked", routingKey: "", basicProperties: null, body: null);
        return Ok();
    }
}
"""


def test_primary_constructor_parameters_type_the_calls_made_through_them() -> None:
    facts = link({"svc/Program.cs": PROGRAM, "svc/StockClient.cs": CLIENT, "svc/ShelvesController.cs": CONTROLLER})
    calls = sorted((c.method, show(c.url), c.api_handler) for c in facts.calls)
    assert calls == [("GET", "{prop:Upstreams:Stock}/v2/levels/{?sku}", "ShelvesController.Check")]
    messages = sorted((m.direction, show(m.channel), m.provider) for m in facts.messages)
    assert messages == [("publishes", "shelf-checked", "rabbitmq")]


def test_the_parameters_of_a_class_and_a_record_are_read_a_plain_class_has_none() -> None:
    source = (
        "public class Mailer(ISender sender, string from) { }\n"
        "public record OrderPlaced(Guid OrderId, decimal Total);\n"
        "public class Plain { public Plain(ISender sender) { } }\n"
    )
    types = {t["n"]: t["p"] for t in ANALYZER.parse("svc/Types.cs", source)["types"]}
    assert types == {
        "Mailer": [["sender", "ISender", 1], ["from", "string", 1]],
        "OrderPlaced": [["OrderId", "Guid", 2], ["Total", "decimal", 2]],
        "Plain": [],
    }
