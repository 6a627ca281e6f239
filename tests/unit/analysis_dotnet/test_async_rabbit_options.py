"""RabbitMQ.Client 7 (the ``*Async`` API) with options bound from configuration: a section key held
in a constant of the options class (``GetSection(BrokerOptions.SectionName)``), options injected
through a primary constructor or a classic one, ``string.Empty`` as the default exchange (which
routes by the routing key), a reply queue the broker names that is bound to nothing and an answer sent to
the asker's ``ReplyTo`` (no channel either).
"""

from __future__ import annotations

from .helpers import link, show

OPTIONS = """
namespace Pantry.Infrastructure;
public sealed class PantryBusOptions
{
    public const string SectionName = "PantryBus";
    public string Host { get; set; } = string.Empty;
    public string RequestQueue { get; set; } = string.Empty;
}
"""
STARTUP = """
var builder = WebApplication.CreateBuilder(args);
builder.Services.Configure<PantryBusOptions>(builder.Configuration.GetSection(PantryBusOptions.SectionName));
builder.Services.AddHostedService<JarListener>();
builder.Build().Run();
"""
ASKER = """
using RabbitMQ.Client;
namespace Pantry.Infrastructure;
public class JarAsker<TQuestion>(IOptions<PantryBusOptions> settings) : IAsker<TQuestion>
{
    private IChannel _channel = null!;
    private string _replies = "";
    public async Task OpenAsync()
    {
        var temp = await _channel.QueueDeclareAsync();
        _replies = temp.QueueName;
        await _channel.BasicConsumeAsync(_replies, true, null!);
    }
    public async Task AskAsync(byte[] body)
    {
        await _channel.BasicPublishAsync(exchange: string.Empty, routingKey: settings.Value.RequestQueue, mandatory: true, body: body);
    }
}
"""
LISTENER = """
using RabbitMQ.Client;
namespace Pantry.Infrastructure;
public class JarListener : BackgroundService
{
    private readonly PantryBusOptions _bus;
    private IChannel _channel = null!;
    public JarListener(IOptions<PantryBusOptions> bus) { _bus = bus.Value; }
    protected override async Task ExecuteAsync(CancellationToken token)
    {
        await _channel.QueueDeclareAsync(queue: _bus.RequestQueue, durable: true, exclusive: false, autoDelete: false);
        await _channel.BasicConsumeAsync(queue: _bus.RequestQueue, autoAck: false, consumer: null!);
        await _channel.BasicPublishAsync(String.Empty, "jar-audit", body: new byte[0]);
        await _channel.BasicPublishAsync(exchange: string.Empty, routingKey: args.BasicProperties.ReplyTo, body: new byte[0]);
    }
}
"""


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str]]:
    return sorted((m.direction, show(m.channel), m.file.rsplit("/", 1)[-1]) for m in link(files).messages)


def test_a_constant_section_key_binds_the_options_both_constructors_read() -> None:
    got = _messages({"svc/PantryBusOptions.cs": OPTIONS, "svc/Program.cs": STARTUP, "svc/JarAsker.cs": ASKER,
                     "svc/JarListener.cs": LISTENER})  # fmt: skip
    assert got == [
        ("consumes", "{prop:PantryBus:RequestQueue}", "JarListener.cs"),
        ("publishes", "jar-audit", "JarListener.cs"),  # String.Empty: the default exchange, by routing key
        ("publishes", "{prop:PantryBus:RequestQueue}", "JarAsker.cs"),
    ]  # the broker-named reply queue of JarAsker is bound to nothing: no channel


def test_an_unresolved_section_constant_binds_nothing() -> None:
    startup = STARTUP.replace("PantryBusOptions.SectionName", "Missing.Key")
    got = _messages({"svc/PantryBusOptions.cs": OPTIONS, "svc/Program.cs": startup, "svc/JarAsker.cs": ASKER})
    assert got == [("publishes", "{?settings.Value.RequestQueue}", "JarAsker.cs")]
