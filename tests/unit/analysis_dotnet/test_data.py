"""Messaging and persistence: MassTransit, Confluent.Kafka, RabbitMQ.Client and Azure Service Bus;
EF Core contexts with their provider, MongoDB collections, SQL text given to Dapper, Redis values."""

from __future__ import annotations

from .helpers import link, show

MESSAGING = """
using MassTransit;
using Confluent.Kafka;
using RabbitMQ.Client;
using Azure.Messaging.ServiceBus;

public static class Topics { public const string Shipped = "parcel.shipped"; }

public class Outbox
{
    private readonly IPublishEndpoint _publish;
    private readonly IProducer<string, string> _producer;

    public async Task Ship(Parcel parcel, IModel channel, ServiceBusClient bus)
    {
        var evt = new ParcelShipped(parcel.Id);
        await _publish.Publish(evt);
        await _producer.ProduceAsync(Topics.Shipped, new Message<string, string>());
        channel.BasicPublish(exchange: "", routingKey: "labels", body: null);
        var sender = bus.CreateSender("invoices");
    }

    public void Listen(IConsumer<string, string> consumer, IModel channel, ServiceBusClient bus)
    {
        consumer.Subscribe("parcel.returned");
        channel.BasicConsume(queue: "labels.done", autoAck: true, consumer: null);
        var processor = bus.CreateProcessor("refunds");
    }
}

public class ReturnConsumer : IConsumer<ParcelReturned>
{
    public Task Consume(ConsumeContext<ParcelReturned> context) => Task.CompletedTask;
}

public class Bus
{
    public void Configure(IServiceCollection services) =>
        services.AddMassTransit(x => x.UsingRabbitMq((ctx, cfg) => cfg.Host("rabbit")));
}
"""


def test_publishers_and_consumers_of_four_libraries() -> None:
    facts = link({"svc/Outbox.cs": MESSAGING})
    got = sorted((m.direction, show(m.channel), m.provider, m.client, m.line) for m in facts.messages)
    assert got == [
        ("consumes", "ParcelReturned", "rabbitmq", "masstransit", 30),
        ("consumes", "labels.done", "rabbitmq", "rabbitmq-client", 25),
        ("consumes", "parcel.returned", "kafka", "confluent-kafka", 24),
        ("consumes", "refunds", "azure-servicebus", "servicebus", 26),
        ("publishes", "ParcelShipped", "rabbitmq", "masstransit", 16),
        ("publishes", "invoices", "azure-servicebus", "servicebus", 19),
        ("publishes", "labels", "rabbitmq", "rabbitmq-client", 18),
        ("publishes", "parcel.shipped", "kafka", "confluent-kafka", 17),
    ]


def test_messaging_methods_without_the_library_are_not_messages() -> None:
    plain = 'public class Pub { public void Go(Hub hub) { hub.Publish(new Thing()); hub.Subscribe("x"); } }'
    assert link({"svc/Pub.cs": plain}).messages == ()


PERSISTENCE = """
public class ShopContext : DbContext
{
    public DbSet<Customer> Customers { get; set; }
    public DbSet<Invoice> Invoices => Set<Invoice>();

    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        modelBuilder.Entity<Invoice>().ToTable("billing_invoices");
    }
}

public class Customer
{
    public int Id { get; set; }
    public string? Email { get; set; }
}

public static class Registration
{
    public static void Add(IServiceCollection services, IConfiguration config)
    {
        services.AddDbContext<ShopContext>(o => o.UseNpgsql(config.GetConnectionString("shop")));
    }
}

public class CatalogStore
{
    public CatalogStore(IMongoDatabase db) { Items = db.GetCollection<CatalogItem>("catalog_items"); }
    public IMongoCollection<CatalogItem> Items { get; }
}

public class CouponStore
{
    public async Task<Coupon> Find(string code)
    {
        using var connection = new NpgsqlConnection("Host=coupons");
        return await connection.QueryFirstAsync<Coupon>("SELECT * FROM coupons WHERE code = @code", new { code });
    }
}

public class BasketStore
{
    private readonly IDistributedCache _cache;
    public async Task<Basket> Get(string user)
    {
        var raw = await _cache.GetStringAsync(user);
        return JsonSerializer.Deserialize<Basket>(raw);
    }
}

public class Boot { public void Go(IServiceCollection s) => s.AddStackExchangeRedisCache(o => o.Configuration = "redis:6379"); }
"""


def test_entities_with_their_engines() -> None:
    facts = link({"svc/Data.cs": PERSISTENCE})
    got = sorted((e.name, e.kind, e.class_name, e.engine_hint, e.start_line) for e in facts.entities)
    assert got == [
        ("Basket", "key_value", "Basket", "redis", 47),
        ("Customers", "sql_table", "Customer", "postgres", 3),
        ("billing_invoices", "sql_table", "Invoice", "postgres", 4),
        ("catalog_items", "document_collection", "CatalogItem", "mongodb", 28),
        ("coupons", "sql_table", "Coupon", "postgres", 37),
    ]
    customers = next(e for e in facts.entities if e.name == "Customers")
    assert customers.fields == (("Id", "int", False, True), ("Email", "string?", True, False))


def test_a_cache_without_redis_set_up_is_not_redis() -> None:
    without = PERSISTENCE.replace("AddStackExchangeRedisCache", "AddDistributedMemoryCache")
    assert "redis" not in {e.engine_hint for e in link({"svc/Data.cs": without}).entities}


BUS_LIBRARY = """
using RabbitMQ.Client;

public record IntegrationEvent(Guid Id);

public interface IEventBus
{
    void Publish(IntegrationEvent @event);
    void Subscribe<T, TH>() where T : IntegrationEvent;
}

public class RabbitEventBus : IEventBus
{
    public void Publish(IntegrationEvent @event)
    {
        using var channel = _connection.CreateModel();
        channel.BasicPublish(exchange: "shop_bus", routingKey: @event.GetType().Name, body: null);
    }
    public void Subscribe<T, TH>() where T : IntegrationEvent { }
}
"""

BUS_SERVICE = """
public record OrderPlaced(Guid Id, int Total) : IntegrationEvent(Id);
public record PaymentSettled(Guid Id) : IntegrationEvent(Id);
public record Receipt(int Total);

public class OrdersController : ControllerBase
{
    private readonly IEventBus _bus;
    [HttpPost("/orders")]
    public IActionResult Place()
    {
        var placed = new OrderPlaced(Guid.NewGuid(), 3);
        var receipt = new Receipt(3);
        _bus.Publish(placed);
        return Ok(receipt);
    }
}

public static class Wiring
{
    public static void Subscribe(IEventBus bus) => bus.Subscribe<PaymentSettled, PaymentSettledHandler>();
}
"""


def test_a_codebase_event_bus_publishes_event_types_and_subscriptions_consume_them() -> None:
    import json

    from orbitkb.analysis.dotnet import ANALYZER
    from orbitkb.analysis.facts import ServiceContext

    files = {"lib/EventBus.cs": BUS_LIBRARY, "svc/Orders.cs": BUS_SERVICE}
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, t))) for p, t in files.items()}
    facts = ANALYZER.link(ServiceContext("svc", "svc", "dotnet", "repo", ("lib/EventBus.cs",)), parsed)
    got = sorted((m.direction, show(m.channel), m.provider, m.client, m.api_handler) for m in facts.messages)
    assert got == [
        ("consumes", "PaymentSettled", "rabbitmq", "event-bus", None),
        ("publishes", "OrderPlaced", "rabbitmq", "event-bus", "OrdersController.Place"),
    ]  # the bus's own BasicPublish("shop_bus") is its mechanism, not a channel; Receipt is no event


REDIS_KEYS = """
using StackExchange.Redis;

public class SessionStore
{
    private readonly IDatabase _db;
    public SessionStore(IConnectionMultiplexer redis) { _db = redis.GetDatabase(); }
    private const string Prefix = "session:";

    public Task Save(string id, string json) => _db.StringSetAsync(Prefix + id, json);
    public Task Touch(string id) => _db.KeyExpireAsync($"session:{id}", TimeSpan.FromMinutes(5));
    public Task Count() => _db.HashIncrementAsync("page-views", "home");
    public Task Other(string key) => _db.StringGetAsync(key);
}
"""


def test_redis_key_spaces_from_literal_key_prefixes() -> None:
    facts = link({"svc/SessionStore.cs": REDIS_KEYS})
    assert sorted((e.name, e.kind, e.engine_hint) for e in facts.entities) == [
        ("page-views", "key_value", "redis"),
        ("session", "key_value", "redis"),
    ]


ADO_COMMANDS = """
public class BallotBox
{
    private const string Tally = "SELECT option, COUNT(*) FROM ballots GROUP BY option";

    public void Cast(string voter, string option)
    {
        using var connection = new NpgsqlConnection("Host=db");
        connection.Open();
        using var insert = new NpgsqlCommand("INSERT INTO ballots (voter, option) VALUES (@voter, @option)", connection);
        insert.ExecuteNonQuery();
        using var count = new NpgsqlCommand(Tally, connection);
        using var audit = new SqlCommand("UPDATE ballot_audit SET seen = 1", null);
        using var unknown = new NpgsqlCommand(BuildQuery(), connection);
        var empty = new NpgsqlCommand();
    }

    private string BuildQuery() => "";
}
"""


def test_ado_net_commands_created_with_their_sql_name_its_tables() -> None:
    facts = link({"svc/Ballots.cs": ADO_COMMANDS})
    got = sorted({(e.name, e.kind, e.engine_hint) for e in facts.entities})
    assert got == [("ballot_audit", "sql_table", "sqlserver"), ("ballots", "sql_table", "postgres")]


def test_a_command_type_of_no_database_library_names_no_table() -> None:
    code = ADO_COMMANDS.replace("NpgsqlCommand", "ConsoleCommand").replace("SqlCommand", "MenuCommand")
    assert link({"svc/Ballots.cs": code}).entities == ()
