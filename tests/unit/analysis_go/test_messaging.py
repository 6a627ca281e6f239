"""Messaging: sarama, kafka-go, confluent-kafka-go, amqp091/streadway, NATS, go-redis, SQS/SNS."""

from __future__ import annotations

from orbitkb.analysis.facts import LinkedFacts

from .helpers import link, show


def _msgs(facts: LinkedFacts) -> list[tuple[int, str, str, str | None, str | None]]:
    return sorted((m.line, m.direction, m.provider, show(m.channel), m.api_handler) for m in facts.messages)


SARAMA = """
package events

import (
	"context"
	"os"

	"github.com/IBM/sarama"
)

const TopicOrderCreated = "orders.created"

type Publisher struct {
	producer sarama.SyncProducer
	topic    string
}

func NewPublisher(brokers []string) (*Publisher, error) {
	p, err := sarama.NewSyncProducer(brokers, sarama.NewConfig())
	return &Publisher{producer: p, topic: TopicOrderCreated}, err
}

func (p *Publisher) Publish(key string, body []byte) error {
	_, _, err := p.producer.SendMessage(&sarama.ProducerMessage{
		Topic: p.topic,
		Key:   sarama.StringEncoder(key),
		Value: sarama.ByteEncoder(body),
	})
	return err
}

type handler struct{}

func (handler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (handler) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (h handler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error {
	return nil
}

func Consume(ctx context.Context, brokers []string) {
	group, _ := sarama.NewConsumerGroup(brokers, "billing", sarama.NewConfig())
	topics := []string{"payments.settled", os.Getenv("REFUND_TOPIC")}
	for {
		group.Consume(ctx, topics, handler{})
	}
}
"""


def test_sarama_producer_and_consumer_group() -> None:
    facts = link({"billing/events/kafka.go": SARAMA})
    assert _msgs(facts) == [
        (23, "publishes", "kafka", "orders.created", None),
        (43, "consumes", "kafka", "payments.settled", None),
        (43, "consumes", "kafka", "{env:REFUND_TOPIC}", None),
    ]
    consumers = sorted((a.method, a.path, a.handler, a.kind, a.provider) for a in facts.apis)
    assert consumers == [
        ("CONSUME", "${REFUND_TOPIC}", "handler.ConsumeClaim", "message", "kafka"),
        ("CONSUME", "payments.settled", "handler.ConsumeClaim", "message", "kafka"),
    ]


KAFKA_GO = """
package main

import (
	"context"

	"github.com/segmentio/kafka-go"
)

func main() {
	w := &kafka.Writer{Addr: kafka.TCP("kafka:9092"), Topic: "inventory.reserved", Balancer: &kafka.LeastBytes{}}
	w.WriteMessages(context.Background(), kafka.Message{Value: []byte("x")})

	r := kafka.NewReader(kafka.ReaderConfig{Brokers: []string{"kafka:9092"}, GroupID: "inv", Topic: "orders.created"})
	for {
		m, _ := r.ReadMessage(context.Background())
		_ = m
	}
}

func audit(w *kafka.Writer, ctx context.Context) {
	w.WriteMessages(ctx, kafka.Message{Topic: "audit.log", Value: []byte("x")})
}
"""

CONFLUENT = """
package main

import "github.com/confluentinc/confluent-kafka-go/v2/kafka"

var topic = "shipments"

func main() {
	p, _ := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": "kafka"})
	p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic, Partition: kafka.PartitionAny}}, nil)
	c, _ := kafka.NewConsumer(&kafka.ConfigMap{"group.id": "g"})
	c.SubscribeTopics([]string{"orders.paid", "orders.cancelled"}, nil)
}
"""


def test_kafka_go_and_confluent() -> None:
    assert _msgs(link({"inv/main.go": KAFKA_GO})) == [
        (10, "publishes", "kafka", "inventory.reserved", None),
        (13, "consumes", "kafka", "orders.created", None),
        (21, "publishes", "kafka", "audit.log", None),
    ]
    facts = link({"inv/main.go": KAFKA_GO})
    assert {m.client for m in facts.messages} == {"kafka-go"}
    assert _msgs(link({"ship/main.go": CONFLUENT})) == [
        (9, "publishes", "kafka", "shipments", None),
        (11, "consumes", "kafka", "orders.cancelled", None),
        (11, "consumes", "kafka", "orders.paid", None),
    ]


RABBIT = """
package main

import (
	"context"
	"net/http"

	amqp "github.com/rabbitmq/amqp091-go"
)

const exchange = "notifications"

type Notifier struct{ ch *amqp.Channel }

func main() {
	conn, _ := amqp.Dial("amqp://guest:guest@rabbitmq:5672/")
	ch, _ := conn.Channel()
	q, _ := ch.QueueDeclare("email.send", true, false, false, false, nil)
	msgs, _ := ch.Consume(q.Name, "", true, false, false, false, nil)
	_ = msgs
	ch.QueueBind("audit.q", "#", "audit", false, nil)
	ch.Consume("audit.q", "", true, false, false, false, nil)
	n := &Notifier{ch: ch}
	http.HandleFunc("/notify", n.Notify)
}

func (n *Notifier) Notify(w http.ResponseWriter, r *http.Request) {
	n.ch.PublishWithContext(r.Context(), exchange, "user.created", false, false, amqp.Publishing{Body: []byte("{}")})
	n.ch.Publish("", "sms.send", false, false, amqp.Publishing{})
}
"""


def test_rabbitmq_exchange_key_queue_and_bindings() -> None:
    facts = link({"notify/main.go": RABBIT})
    assert _msgs(facts) == [
        (18, "consumes", "rabbitmq", "email.send", None),
        (21, "consumes", "rabbitmq", "audit", None),  # audit.q is bound to the audit exchange
        (21, "consumes", "rabbitmq", "audit.q", None),
        (27, "publishes", "rabbitmq", "notifications", "Notifier.Notify"),
        (28, "publishes", "rabbitmq", "sms.send", "Notifier.Notify"),
    ]


# A broker-named queue (empty name) bound to an exchange, declared by a helper or inline, in two libraries.
FANOUT_HELPER = """
package relay

import amqp "github.com/rabbitmq/amqp091-go"

func tempQueue(ch *amqp.Channel) (amqp.Queue, error) {
	return ch.QueueDeclare("", false, true, true, false, nil)
}

type Relay struct{ conn *amqp.Connection }

func (r *Relay) Follow(keys []string) error {
	ch, _ := r.conn.Channel()
	q, err := tempQueue(ch)
	if err != nil {
		return err
	}
	for _, k := range keys {
		ch.QueueBind(q.Name, k, "audit_events", false, nil)
	}
	deliveries, _ := ch.Consume(q.Name, "", true, false, false, false, nil)
	_ = deliveries
	return nil
}
"""

FANOUT_INLINE = """
package main

import "github.com/streadway/amqp"

const prices = "price_updates"

func main() {
	conn, _ := amqp.Dial("amqp://rabbit")
	ch, _ := conn.Channel()
	tmp, _ := ch.QueueDeclare("", false, true, true, false, nil)
	ch.QueueBind(tmp.Name, "", prices, false, nil)
	ch.Consume(tmp.Name, "", true, false, false, false, nil)
	unbound, _ := ch.QueueDeclare("", false, true, true, false, nil)
	ch.Consume(unbound.Name, "", true, false, false, false, nil)
	named, _ := ch.QueueDeclare("stock.low", true, false, false, false, nil)
	ch.Consume(named.Name, "", true, false, false, false, nil)
}
"""


def test_a_broker_named_queue_is_read_as_the_exchange_it_is_bound_to() -> None:
    assert _msgs(link({"relay/relay.go": FANOUT_HELPER})) == [(20, "consumes", "rabbitmq", "audit_events", None)]
    facts = link({"quotes/main.go": FANOUT_INLINE})
    assert _msgs(facts) == [
        (12, "consumes", "rabbitmq", "price_updates", None),
        (16, "consumes", "rabbitmq", "stock.low", None),  # a named queue stays itself
    ]
    # a broker-named queue bound to nothing names no channel: one gap, never a queue called ""
    assert [g.reason for g in facts.gaps] == [
        "rabbitmq consumes at line 14: channel not resolved "
        "({queue named by the broker, declared at quotes/main.go:13})"
    ]


# Channels only known at run time: a topic per subscriber, a value read from a message.
RUNTIME_TOPICS = """
package fanout

import (
	"context"
	"os"

	"github.com/segmentio/kafka-go"
)

type Hub struct {
	w      *kafka.Writer
	nodeID string
}

func (h *Hub) Deliver(ctx context.Context, targets []string, body []byte) {
	for _, node := range targets {
		h.w.WriteMessages(ctx, kafka.Message{Topic: node, Value: body})
	}
	h.w.WriteMessages(ctx, kafka.Message{Topic: "hub." + h.nodeID, Value: body})
	h.w.WriteMessages(ctx, kafka.Message{Topic: os.Getenv("AUDIT_TOPIC"), Value: body})
	h.w.WriteMessages(ctx, kafka.Message{Topic: "hub.audit", Value: body})
}
"""


def test_a_channel_known_only_at_run_time_is_a_gap_never_a_topic_named_after_the_expression() -> None:
    facts = link({"fanout/hub.go": RUNTIME_TOPICS})
    assert _msgs(facts) == [
        (20, "publishes", "kafka", "{env:AUDIT_TOPIC}", None),  # configuration names it
        (21, "publishes", "kafka", "hub.audit", None),
    ]
    assert [g.reason for g in facts.gaps] == [
        "kafka publishes at line 17: channel not resolved ({item})",
        "kafka publishes at line 19: channel not resolved (hub.{Hub.nodeID})",
    ]


NATS_REDIS = """
package main

import (
	"context"
	"os"

	"github.com/nats-io/nats.go"
	"github.com/redis/go-redis/v9"
)

type Service struct {
	nc  *nats.Conn
	rdb *redis.Client
}

func main() {
	nc, _ := nats.Connect(os.Getenv("NATS_URL"))
	js, _ := nc.JetStream()
	svc := &Service{nc: nc, rdb: redis.NewClient(&redis.Options{Addr: "redis:6379"})}
	nc.Subscribe("orders.*", svc.onOrder)
	nc.QueueSubscribe("payments.done", "workers", func(m *nats.Msg) {
		js.Publish("ledger.entries", m.Data)
	})
	ctx := context.Background()
	sub := svc.rdb.Subscribe(ctx, "cache.invalidate", "cache.flush")
	_ = sub
	svc.rdb.XAdd(ctx, &redis.XAddArgs{Stream: "events", Values: map[string]any{"a": 1}})
}

func (s *Service) onOrder(m *nats.Msg) {
	s.nc.Publish("orders.ack", []byte("ok"))
	s.rdb.Publish(context.Background(), "orders.seen", "1")
}
"""


def test_nats_and_redis_pubsub_and_streams_with_message_handlers() -> None:
    facts = link({"ledger/main.go": NATS_REDIS})
    assert _msgs(facts) == [
        (20, "consumes", "nats", "orders.*", None),
        (21, "consumes", "nats", "payments.done", None),
        (22, "publishes", "nats", "ledger.entries", "<anonymous>@21"),
        (25, "consumes", "redis", "cache.flush", None),
        (25, "consumes", "redis", "cache.invalidate", None),
        (27, "publishes", "redis", "events", None),
        (31, "publishes", "nats", "orders.ack", "Service.onOrder"),
        (32, "publishes", "redis", "orders.seen", "Service.onOrder"),
    ]
    assert sorted((a.method, a.path, a.handler, a.provider) for a in facts.apis) == [
        ("CONSUME", "orders.*", "Service.onOrder", "nats"),
        ("CONSUME", "payments.done", "<anonymous>@21", "nats"),
    ]


AWS = """
package main

import (
	"context"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

type Queue struct {
	client *sqs.Client
	url    string
}

func (q *Queue) Send(ctx context.Context, body string) error {
	_, err := q.client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(q.url), MessageBody: aws.String(body)})
	return err
}

func main() {
	q := &Queue{url: os.Getenv("ORDERS_QUEUE_URL")}
	q.Send(context.TODO(), "x")
	out, _ := q.client.ReceiveMessage(context.TODO(), &sqs.ReceiveMessageInput{QueueUrl: aws.String("https://sqs.eu-west-1.amazonaws.com/1/refunds")})
	_ = out
	var snsClient *sns.Client
	snsClient.Publish(context.TODO(), &sns.PublishInput{TopicArn: aws.String(os.Getenv("TOPIC_ARN"))})
}
"""


def test_sqs_and_sns_inputs() -> None:
    assert _msgs(link({"orders/main.go": AWS})) == [
        (18, "publishes", "sqs", "{env:ORDERS_QUEUE_URL}", None),
        (25, "consumes", "sqs", "https://sqs.eu-west-1.amazonaws.com/1/refunds", None),
        (28, "publishes", "sns", "{env:TOPIC_ARN}", None),
    ]


# Functional options: ``Configure(opts ...Option)`` ranges over the options and calls each one.
OPTIONS = """
package outbox

import (
	"context"

	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/segmentio/kafka-go"
)

type Option func(*Sender)

type Sender struct {
	exchange string
	conn     *amqp.Connection
}

func WithExchange(name string) Option {
	return func(s *Sender) { s.exchange = name }
}

func NewSender(conn *amqp.Connection, opts ...Option) *Sender {
	s := &Sender{conn: conn, exchange: "outbox.default"}
	for _, opt := range opts {
		opt(s)
	}
	return s
}

func (s *Sender) Send(ctx context.Context, body []byte) {
	ch, _ := s.conn.Channel()
	ch.PublishWithContext(ctx, s.exchange, "", false, false, amqp.Publishing{Body: body})
}

type hook func(w *kafka.Writer)

func flushAll(w *kafka.Writer, hooks ...hook) {
	for _, h := range hooks {
		h(w)
	}
}

func main() {
	conn, _ := amqp.Dial("amqp://mq")
	NewSender(conn, WithExchange("invoices.issued")).Send(context.Background(), nil)
	w := &kafka.Writer{}
	flushAll(w, func(w *kafka.Writer) {
		w.WriteMessages(context.Background(), kafka.Message{Topic: "invoices.audit"})
	})
}
"""


def test_functional_options_and_hooks_passed_variadically_are_applied() -> None:
    assert _msgs(link({"outbox/main.go": OPTIONS})) == [
        (31, "publishes", "rabbitmq", "invoices.issued", None),  # the option, not the default
        (47, "publishes", "kafka", "invoices.audit", None),
    ]
