"""A shared messaging library counts in a service only for the parts the service runs: its hosted
listener when the service registers or creates it, its implementation of the codebase's own sender
interface when some code calls that method. Registering a sender is not sending; the same code in
the service's own files, and library code no call site can show (a plain class), are kept."""

from __future__ import annotations

from orbitkb.analysis.dotnet import ANALYZER
from orbitkb.analysis.facts import ServiceContext
from tests.support.analysis import parse_all

from .helpers import show

LIBRARY = """
using RabbitMQ.Client;

public interface IParcelSender { void Ship<T>(T parcel); }

public class RabbitParcelSender : IParcelSender
{
    public void Ship<T>(T parcel)
    {
        using var channel = Connect();
        channel.BasicPublish(exchange: "", routingKey: "parcels", basicProperties: null, body: Pack(parcel));
    }
}

public class ParcelListener : BackgroundService
{
    private readonly IModel _channel;
    protected override Task ExecuteAsync(CancellationToken token)
    {
        _channel.BasicConsume("parcels", false, new EventingBasicConsumer(_channel));
        return Task.CompletedTask;
    }
}

public class AuditTrail
{
    private readonly IModel _channel;
    public void Note(byte[] line) => _channel.BasicPublish("audit", "", null, line);
}
"""

SENDS = """
public class Dispatch
{
    private readonly IParcelSender _sender;
    public Dispatch(IParcelSender sender) => _sender = sender;
    public void Go(Box box) => _sender.Ship(box);
}
"""
LISTENS = "var b = WebApplication.CreateBuilder(args);\nb.Services.AddHostedService<ParcelListener>();\n"
REGISTERS_ONLY = "var b = WebApplication.CreateBuilder(args);\nb.Services.AddScoped<IParcelSender, RabbitParcelSender>();\n"


def _messages(own: dict[str, str], library: bool = True) -> list[tuple[str, str | None]]:
    files = {**own, "lib/Parcels.cs": LIBRARY}
    ctx = ServiceContext(name="svc", root_dir="svc", stack="dotnet", repository="repo",
                         context_files=("lib/Parcels.cs",) if library else ())  # fmt: skip
    facts = ANALYZER.link(ctx, parse_all(ANALYZER, files))
    return sorted((m.direction, show(m.channel)) for m in facts.messages)


def test_a_called_sender_publishes_and_an_unregistered_listener_consumes_nothing() -> None:
    assert _messages({"svc/Dispatch.cs": SENDS}) == [("publishes", "audit"), ("publishes", "parcels")]


def test_a_registered_listener_consumes_and_a_registered_but_unused_sender_sends_nothing() -> None:
    assert _messages({"svc/Program.cs": LISTENS}) == [("consumes", "parcels"), ("publishes", "audit")]
    assert _messages({"svc/Program.cs": REGISTERS_ONLY}) == [("publishes", "audit")]


def test_a_listener_the_service_creates_itself_runs() -> None:
    creates = "var listener = new ParcelListener();\nawait listener.StartAsync(default);\n"
    assert ("consumes", "parcels") in _messages({"svc/Program.cs": creates})


def test_the_same_code_in_the_services_own_files_is_always_its_own() -> None:
    assert _messages({"svc/Program.cs": REGISTERS_ONLY}, library=False) == [
        ("consumes", "parcels"),
        ("publishes", "audit"),
        ("publishes", "parcels"),
    ]
