package events

import (
	"context"
	"encoding/json"

	"github.com/segmentio/kafka-go"
)

// Publisher writes stock events.
type Publisher struct {
	w *kafka.Writer
}

// NewPublisher creates a Kafka writer; the topic is set per message.
func NewPublisher(brokers []string) *Publisher {
	return &Publisher{w: &kafka.Writer{Addr: kafka.TCP(brokers...), Balancer: &kafka.Hash{}}}
}

// StockChanged announces the new available quantity of a SKU.
func (p *Publisher) StockChanged(ctx context.Context, sku string, available int) error {
	value, _ := json.Marshal(map[string]any{"sku": sku, "available": available})
	return p.w.WriteMessages(ctx, kafka.Message{Topic: TopicStockChanged, Key: []byte(sku), Value: value})
}

// Close flushes pending messages.
func (p *Publisher) Close() error { return p.w.Close() }
