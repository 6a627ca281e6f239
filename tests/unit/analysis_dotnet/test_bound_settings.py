"""Settings classes bound with ``GetSection("x").Get<T>()`` read where they are used (a field, a
method returning one, a local holding its result), RabbitMQ channels from them (an exchange that is
configured, the default exchange, a server-named queue bound to an exchange), an in-memory EF Core
provider that is only a development switch, and the ports ASP.NET Core listens on locally."""

from __future__ import annotations

from orbitkb.analysis.config.dotnet import configured_ports, launch_ports, url_ports

from .helpers import link, show

SETTINGS = """
public class QueueSettings { public string Exchange { get; set; } public string Inbox { get; set; } }
public class Unbound { public string Exchange { get; set; } }
public class Env
{
    private readonly IConfiguration _configuration;
    public Env(IConfiguration configuration) { _configuration = configuration; }
    public QueueSettings Queues() => _configuration.GetSection("Queues").Get<QueueSettings>();
}
"""
PUBLISHER = """
using RabbitMQ.Client;
public class Announcer
{
    private readonly IModel _channel;
    private readonly QueueSettings _held;
    private readonly Unbound _loose;
    public Announcer(Env env, IModel channel, Unbound loose) { _channel = channel; _held = env.Queues(); _loose = loose; }
    public void ByLocal(Env env)
    {
        var q = env.Queues();
        _channel.BasicPublish(exchange: q.Exchange, routingKey: "", basicProperties: null, body: null);
    }
    public void ByCall(Env env) => _channel.BasicPublish(env.Queues().Exchange, "", null, null);
    public void ByField() => _channel.BasicPublish(exchange: _held.Exchange, routingKey: "x", basicProperties: null, body: null);
    public void DefaultExchange() => _channel.BasicPublish(exchange: "", routingKey: "direct-jobs", basicProperties: null, body: null);
    public void NotBound() => _channel.BasicPublish(exchange: _loose.Exchange, routingKey: "", basicProperties: null, body: null);
}
"""
CONSUMER = """
using RabbitMQ.Client;
public class Inbox
{
    private readonly IModel _channel;
    private readonly QueueSettings _s;
    private string _temp;
    public Inbox(Env env, IModel channel) { _s = env.Queues(); _channel = channel; }
    public void Temporary()
    {
        _temp = _channel.QueueDeclare().QueueName;
        _channel.QueueBind(queue: _temp, exchange: _s.Exchange, routingKey: "");
        _channel.BasicConsume(queue: _temp, autoAck: true, consumer: null);
    }
    public void Named()
    {
        _channel.QueueBind(queue: "named-inbox", exchange: _s.Exchange, routingKey: "");
        _channel.BasicConsume(queue: "named-inbox", autoAck: true, consumer: null);
    }
}
"""


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, int]]:
    facts = link(files)
    return sorted((m.direction, show(m.channel), m.line) for m in facts.messages)


def test_bound_settings_name_the_exchange_however_they_are_reached() -> None:
    got = _messages({"svc/Env.cs": SETTINGS, "svc/Announcer.cs": PUBLISHER})
    assert got == [
        ("publishes", "direct-jobs", 15),  # the default exchange routes by the routing key
        ("publishes", "{?_loose.Exchange}", 16),  # a class bound to no section stays what it is
        ("publishes", "{prop:Queues:Exchange}", 11),  # a local holding Queues()
        ("publishes", "{prop:Queues:Exchange}", 13),  # env.Queues().Exchange
        ("publishes", "{prop:Queues:Exchange}", 14),  # a field set from Queues()
    ]


def test_a_server_named_queue_is_read_as_the_exchange_it_is_bound_to() -> None:
    got = _messages({"svc/Env.cs": SETTINGS, "svc/Inbox.cs": CONSUMER})
    assert got == [
        ("consumes", "named-inbox", 17),  # a named queue stays the queue...
        ("consumes", "{prop:Queues:Exchange}", 12),
        ("consumes", "{prop:Queues:Exchange}", 17),  # ...and receives what its exchange is sent
    ]


CONTEXT = """
public class PantryContext : DbContext
{
    public DbSet<Jar> Jars { get; set; }
}
"""


def test_an_in_memory_provider_beside_a_real_one_is_a_development_switch() -> None:
    program = """
var builder = WebApplication.CreateBuilder(args);
if (builder.Configuration.GetValue<bool>("UseInMemory"))
    builder.Services.AddDbContext<PantryContext>(o => o.UseInMemoryDatabase("pantry"));
else
    builder.Services.AddDbContext<PantryContext>(o => o.UseSqlServer(builder.Configuration.GetConnectionString("db")));
"""
    facts = link({"svc/PantryContext.cs": CONTEXT, "svc/Program.cs": program})
    assert [(e.name, e.engine_hint) for e in facts.entities] == [("Jars", "sqlserver")]
    only = 'var b = WebApplication.CreateBuilder(args);\nb.Services.AddDbContext<PantryContext>(o => o.UseInMemoryDatabase("p"));\n'
    facts = link({"svc/PantryContext.cs": CONTEXT, "svc/Program.cs": only})
    assert [(e.name, e.engine_hint) for e in facts.entities] == [("Jars", "inmemory")]


def test_ports_of_local_runs() -> None:
    assert url_ports("https://localhost:7200;http://localhost:5086") == [7200, 5086]
    assert url_ports("http://+:6000; http://[::]:6001;http://no-port") == [6000, 6001]
    launch = """{
      "iisSettings": { "iisExpress": { "applicationUrl": "http://localhost:40001", "sslPort": 44301 } },
      "profiles": { "web": { "applicationUrl": "https://localhost:7001;http://localhost:5001" },
                    "docker": { "commandName": "Docker" } }
    }"""
    assert launch_ports("Api/Properties/launchSettings.json", launch) == [40001, 44301, 7001, 5001]
    assert launch_ports("Api/Properties/launchSettings.json", "{ not json") == []
    assert launch_ports("Api/appsettings.json", launch) == []  # only the launch profiles file
    settings = [
        ("ASPNETCORE_URLS", "http://+:8080"),
        ("Kestrel__Endpoints__Grpc__Url", "http://0.0.0.0:8081"),
        ("Kestrel:Endpoints:Http:Url", "http://localhost:8082"),
        ("Upstreams:Orders", "http://localhost:9999"),  # an address it calls, not one it listens on
    ]
    assert configured_ports(settings) == [8080, 8081, 8082]


WRAPPERS = """
using Confluent.Kafka;
public class Topics { public const string Weighed = "jar.weighed"; }
public class Outbox
{
    private readonly IProducer<string, string> _producer;
    public Task Put(string topic, string body) => _producer.ProduceAsync(topic, new Message<string, string>());
    public Task Shout(string subject) => Put(subject, "!");          // a wrapper of the wrapper
    public Task Spare(string topic) => _producer.ProduceAsync(topic, null);  // called by nobody
}
public class Scale
{
    private readonly Outbox _outbox;
    private readonly IConfiguration _config;
    public Task Weighed() => _outbox.Put(Topics.Weighed, "{}");
    public Task Emptied() => _outbox.Shout(_config["Topics:Emptied"]);
}
"""


def test_a_wrapper_sends_on_what_its_callers_pass() -> None:
    assert _messages({"svc/Outbox.cs": WRAPPERS}) == [
        ("publishes", "jar.weighed", 14),  # at the caller, with the caller's constant
        ("publishes", "{?topic}", 8),  # the service's own wrapper nobody calls: kept with its expression
        ("publishes", "{prop:Topics:Emptied}", 15),  # through Shout -> Put
    ]
