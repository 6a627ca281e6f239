"""Comments written between the arguments of a call (the RabbitMQ tutorials' style: one argument
per line, each with a comment naming it) are not arguments: the routing key stays the second."""

from __future__ import annotations

from tests.unit.analysis_go.helpers import link

PUBLISHER = """
package queue

import "github.com/rabbitmq/amqp091-go"

func Send(ch *amqp091.Channel, body []byte) error {
	q, err := ch.QueueDeclare(
		"invoices", // name
		true,       // durable
		false,      // auto-delete
		false,      // exclusive
		false,      // no-wait
		nil,        // arguments
	)
	if err != nil {
		return err
	}
	return ch.Publish(
		"",     // exchange: the default one
		q.Name, // routing key: the queue
		false,  // mandatory
		false,  // immediate
		amqp091.Publishing{
			ContentType: "application/json", // what the body holds
			Body:        body,
		},
	)
}
"""

INLINE = """
package queue

import "github.com/rabbitmq/amqp091-go"

func Announce(ch *amqp091.Channel) {
	ch.Publish("audit" /* exchange */, "ledger.closed" /* key */, false, false, amqp091.Publishing{})
	var (
		topic = "payments" // the exchange a consumer binds
	)
	ch.Publish(topic, "", false, false, amqp091.Publishing{})
}
"""


def test_a_comment_after_each_argument_leaves_the_routing_key_in_its_place() -> None:
    facts = link({"svc/queue/send.go": PUBLISHER})
    assert [(m.direction, m.channel.literal()) for m in facts.messages] == [("publishes", "invoices")]


def test_block_comments_inside_the_argument_list_are_skipped_too() -> None:
    facts = link({"svc/queue/announce.go": INLINE})
    assert sorted(m.channel.literal() or "" for m in facts.messages) == ["audit", "payments"]
