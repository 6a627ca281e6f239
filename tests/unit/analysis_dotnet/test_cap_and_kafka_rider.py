"""DotNetCore.CAP and MassTransit's Kafka rider: CAP's ``ICapPublisher`` publishes a message name
(a literal or a constant) and ``[CapSubscribe]`` consumes one, on the broker CAP's setup uses; the
rider's ``AddProducer<T>("topic")`` publishes and ``TopicEndpoint<T>("topic", group, …)`` consumes
a Kafka topic. A ``Publish`` on anything else is not CAP's."""

from __future__ import annotations

from .helpers import link, show

CAP_SETUP = """
using DotNetCore.CAP;
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddCap(x =>
{
    x.UseEntityFramework<LoansContext>();
    x.UseRabbitMQ(o => { o.HostName = "rabbit"; });
});
builder.Build().Run();
"""
CAP_CODE = """
using DotNetCore.CAP;
namespace Library.Loans;
public static class Topics { public const string Returned = "library.loan.returned"; }
public class LoanService
{
    private readonly ICapPublisher _capBus;
    private readonly IMediator _mediator;
    public LoanService(ICapPublisher capBus, IMediator mediator) { _capBus = capBus; _mediator = mediator; }
    public async Task Lend(Loan loan)
    {
        await _capBus.PublishAsync("library.loan.created", loan);
        await _mediator.Publish(new LoanCreated());
    }
    public Task Back(Loan loan) => _capBus.PublishAsync(Topics.Returned, loan);
}
public class OverdueSubscriber : ICapSubscribe
{
    [CapSubscribe("library.loan.overdue", Group = "loans")]
    public Task Handle(Overdue o) => Task.CompletedTask;
}
"""
RIDER = """
using MassTransit;
var builder = WebApplication.CreateBuilder(args);
builder.Services.AddMassTransit(x =>
{
    x.UsingInMemory();
    x.AddRider(r =>
    {
        r.AddConsumer<ShipmentConsumer>();
        r.AddProducer<ShipmentBooked>("shipments.booked");
        r.UsingKafka((context, k) =>
        {
            k.Host("kafka:9092");
            k.TopicEndpoint<ShipmentRequested>("shipments.requested", "shipping", e => e.ConfigureConsumer<ShipmentConsumer>(context));
        });
    });
});
builder.Build().Run();
"""


def _messages(files: dict[str, str], client: str) -> list[tuple[str, str | None, str]]:
    return sorted((m.direction, show(m.channel), m.provider) for m in link(files).messages if m.client == client)


def test_cap_publishers_and_subscribers_on_the_configured_broker() -> None:
    assert _messages({"svc/Program.cs": CAP_SETUP, "svc/Loans.cs": CAP_CODE}, "cap") == [
        ("consumes", "library.loan.overdue", "rabbitmq"),
        ("publishes", "library.loan.created", "rabbitmq"),
        ("publishes", "library.loan.returned", "rabbitmq"),
    ]


def test_masstransit_kafka_rider_topics() -> None:
    assert _messages({"svc/Program.cs": RIDER}, "masstransit-rider") == [
        ("consumes", "shipments.requested", "kafka"),
        ("publishes", "shipments.booked", "kafka"),
    ]
