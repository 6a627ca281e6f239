package events

import (
	"context"
	"encoding/json"
	"log"

	"github.com/segmentio/kafka-go"

	"github.com/shopfront/inventory/internal/store"
)

type orderCreated struct {
	OrderID int64 `json:"orderId"`
}

// ConsumeOrderCreated commits the reservation of every order that was created.
func ConsumeOrderCreated(ctx context.Context, brokers []string, st *store.Store) {
	r := kafka.NewReader(kafka.ReaderConfig{Brokers: brokers, Topic: TopicOrdersCreated, GroupID: consumerGroup})
	defer r.Close()
	for {
		msg, err := r.ReadMessage(ctx)
		if err != nil {
			log.Printf("orders.created reader stopped: %v", err)
			return
		}
		var evt orderCreated
		if err := json.Unmarshal(msg.Value, &evt); err != nil {
			log.Printf("bad orders.created payload: %v", err)
			continue
		}
		if err := st.Commit(ctx, string(msg.Key)); err != nil {
			log.Printf("commit reservation of order %d: %v", evt.OrderID, err)
		}
	}
}
