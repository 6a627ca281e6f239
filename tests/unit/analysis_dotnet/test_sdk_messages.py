"""Dapr SDK topics, bindings and state stores, and MQTTnet topics, in a .NET service."""

from __future__ import annotations

from tests.unit.analysis_dotnet.helpers import link, show

GLOBALS = """global using Dapr;
global using Dapr.Client;
global using MQTTnet;
"""

PUBLISHER = """namespace Parcels.Api;

public class DispatchController : ControllerBase
{
    private const string Bus = "shipping-bus";
    private readonly DaprClient _dapr;

    [HttpPost("dispatch")]
    public async Task<IActionResult> Dispatch(Parcel p)
    {
        await _dapr.PublishEventAsync(Bus, "parcel-dispatched", p);
        await _dapr.PublishEventAsync(pubsubName: "shipping-bus", topicName: Topics.Returned, data: p);
        await _dapr.InvokeBindingAsync("label-queue", "create", p);
        return Ok();
    }
}

public static class Topics
{
    public const string Returned = "parcel-returned";
}
"""

SUBSCRIBER = """using Dapr;
namespace Billing;

public class ChargesController : ControllerBase
{
    [Topic("shipping-bus", "parcel-dispatched")]
    [HttpPost("charge")]
    public IActionResult Charge(Parcel p) => Ok();

    [Dapr.Topic(pubsubName: "shipping-bus", name: Names.Refund)]
    [HttpPost("refund")]
    public IActionResult Refund(Parcel p) => Ok();
}

public static class Names { public const string Refund = "parcel-refunded"; }
"""

MINIMAL = """using Dapr;
var app = WebApplication.CreateBuilder(args).Build();
app.MapPost("/audit", (Parcel p) => Results.Ok()).WithTopic("shipping-bus", "parcel-audited");
app.Run();
"""

STATE = """using Dapr.Client;
namespace Parcels.Store;

public class ParcelRepository
{
    private const string Store = "parcel-store";
    private readonly DaprClient _client;

    public Task Save(Parcel p) => _client.SaveStateAsync<Parcel>(Store, p.Id, p);
    public Task<Parcel> Load(string id) => _client.GetStateAsync<Parcel>(Store, id);
    public Task Forget(string id) => _client.DeleteStateAsync("sessions", id);
}
"""

MQTT = """using MQTTnet;
using MQTTnet.Client;
namespace Sensors;

public class Reporter
{
    private readonly IMqttClient _client;

    public async Task Send(byte[] payload)
    {
        var msg = new MqttApplicationMessageBuilder()
            .WithTopic("plant/temperature")
            .WithPayload(payload)
            .Build();
        await _client.PublishAsync(msg);
        var late = new MqttApplicationMessageBuilder().WithPayload(payload).WithTopic(Channels.Pressure).Build();
        await _client.PublishAsync(late);
    }

    public async Task Listen()
    {
        await _client.SubscribeAsync("plant/commands");
        var filter = new MqttTopicFilterBuilder().WithTopic("plant/alarms").Build();
        await _client.SubscribeAsync(filter);
    }
}

public static class Channels { public const string Pressure = "plant/pressure"; }
"""


def _messages(facts):
    return sorted((m.direction, show(m.channel), m.provider, m.client) for m in facts.messages)


def test_dapr_publish_calls_with_constants_and_named_arguments() -> None:
    facts = link({"svc/GlobalUsings.cs": GLOBALS, "svc/DispatchController.cs": PUBLISHER})
    assert _messages(facts) == [
        ("publishes", "label-queue", "dapr-binding:label-queue", "dapr"),  # channel from the binding YAML
        ("publishes", "parcel-dispatched", "dapr:shipping-bus", "dapr"),
        ("publishes", "parcel-returned", "dapr:shipping-bus", "dapr"),
    ]


def test_dapr_topic_attributes_and_minimal_api_subscriptions_consume() -> None:
    facts = link({"svc/ChargesController.cs": SUBSCRIBER, "svc/Program.cs": MINIMAL})
    assert _messages(facts) == [
        ("consumes", "parcel-audited", "dapr:shipping-bus", "dapr"),
        ("consumes", "parcel-dispatched", "dapr:shipping-bus", "dapr"),
        ("consumes", "parcel-refunded", "dapr:shipping-bus", "dapr"),
    ]


def test_dapr_state_stores_are_key_value_entities_with_their_type() -> None:
    facts = link({"svc/ParcelRepository.cs": STATE})
    assert sorted((e.name, e.kind, e.class_name, e.framework) for e in facts.entities) == [
        ("parcel-store", "key_value", "Parcel", "dapr"),
        ("sessions", "key_value", None, "dapr"),
    ]


def test_mqttnet_message_topics_publish_and_filters_consume() -> None:
    facts = link({"svc/Reporter.cs": MQTT})
    assert _messages(facts) == [
        ("consumes", "plant/alarms", "mqtt", "mqttnet"),
        ("consumes", "plant/commands", "mqtt", "mqttnet"),
        ("publishes", "plant/pressure", "mqtt", "mqttnet"),
        ("publishes", "plant/temperature", "mqtt", "mqttnet"),
    ]


NOT_DAPR = """namespace Mail;

public class Outbox
{
    [Topic("news", "weekly")]  // an attribute of the codebase's own, Dapr is not used
    public void Handle() { }

    public Task Send(IPublisher p) => p.PublishEventAsync("bus", "sent", 1);
    public Task Keep(ICache c) => c.SaveStateAsync("k", 1);
    public string Label(Builder b) => b.WithTopic("a/b").Build();
}
"""


def test_same_names_without_dapr_or_mqttnet_are_no_messages() -> None:
    facts = link({"svc/Outbox.cs": NOT_DAPR})
    assert facts.messages == () and facts.entities == ()


def test_global_usings_count_as_usings() -> None:
    alone = MQTT.replace("using MQTTnet;\nusing MQTTnet.Client;\n", "")
    assert link({"svc/Reporter.cs": alone}).messages == ()
    facts = link({"svc/GlobalUsings.cs": "global using MQTTnet;\n", "svc/Reporter.cs": alone})
    assert ("publishes", "plant/temperature", "mqtt", "mqttnet") in _messages(facts)
