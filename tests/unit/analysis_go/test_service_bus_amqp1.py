"""Azure Service Bus (azservicebus) and AMQP 1.0 (go-amqp) in Go: a sender or receiver is opened
on one queue or topic (``client.NewSender(queue)``, ``NewReceiverForQueue`` /
``NewReceiverForSubscription(topic, sub)``, go-amqp ``session.NewSender(ctx, address)`` /
``NewReceiver``), whether the client is a local or a struct field; a project's own ``NewSender``
is no channel."""

from __future__ import annotations

from .helpers import link, show

BUS = """
package main

import (
	"context"
	"os"

	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus"
	"github.com/Azure/go-amqp"
)

type Bus struct {
	client *azservicebus.Client
}

func (b *Bus) Send(ctx context.Context, body []byte) error {
	sender, err := b.client.NewSender(os.Getenv("ORDER_QUEUE_NAME"), nil)
	if err != nil {
		return err
	}
	defer sender.Close(ctx)
	return sender.SendMessage(ctx, &azservicebus.Message{Body: body}, nil)
}

func listen(ctx context.Context) {
	cred, _ := azidentity.NewDefaultAzureCredential(nil)
	client, _ := azservicebus.NewClient(os.Getenv("SB_NAMESPACE"), cred, nil)
	receiver, _ := client.NewReceiverForSubscription("shipments", "warehouse", nil)
	msgs, _ := receiver.ReceiveMessages(ctx, 10, nil)
	_ = msgs
	b := &Bus{client: client}
	_ = b.Send(ctx, nil)
}

func relay(ctx context.Context) {
	conn, _ := amqp.Dial(ctx, os.Getenv("AMQP_URL"), nil)
	session, _ := conn.NewSession(ctx, nil)
	receiver, _ := session.NewReceiver(ctx, "returns", nil)
	_, _ = receiver.Receive(ctx, nil)
	sender, _ := session.NewSender(ctx, "refunds", nil)
	_ = sender.Send(ctx, amqp.NewMessage([]byte("x")), nil)
}

func main() {
	ctx := context.Background()
	listen(ctx)
	relay(ctx)
}
"""

OWN_SENDER = """
package main

type Mailer struct{}

func (m Mailer) NewSender(name string, opts interface{}) (Mailer, error) { return m, nil }

func main() {
	_, _ = Mailer{}.NewSender("newsletters", nil)
}
"""


def _flows(files):
    return sorted((m.direction, show(m.channel), m.provider, m.client) for m in link(files).messages)


def test_service_bus_senders_and_receivers_name_their_queue_or_topic() -> None:
    assert _flows({"svc/main.go": BUS}) == [
        ("consumes", "returns", "amqp-1.0", "go-amqp"),
        ("consumes", "shipments", "azure-servicebus", "azservicebus"),
        ("publishes", "refunds", "amqp-1.0", "go-amqp"),
        ("publishes", "{env:ORDER_QUEUE_NAME}", "azure-servicebus", "azservicebus"),
    ]


def test_negative_an_own_new_sender_is_no_channel() -> None:
    assert _flows({"svc/main.go": OWN_SENDER}) == []
